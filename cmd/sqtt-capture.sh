#!/bin/sh
# sqtt-capture: record a thread trace of a program on a 7900 XTX with rocprofv3 --att,
# then show where its waves wait (stall).  It prints the rocprofv3 command it runs.
# See sqtt-capture(1).
prog=sqtt-capture

usage() {
	echo "usage: $prog [-h] [--dry-run] [-o dir] [-k regex] [--range range] [--wgp n]" >&2
	echo "       [--se-mask mask] [--simd n] [--buffer size] [--serialize] [--] command [arg ...]" >&2
	exit 2
}

help() {
	cat <<EOF
usage: $prog [-h] [--dry-run] [-o dir] [-k regex] [--range range] [--wgp n]
       [--se-mask mask] [--simd n] [--buffer size] [--serialize] [--] command [arg ...]
Trace command with rocprofv3 --att on a 7900 XTX (gfx1100), then run stall on the run.
  -o, --output DIR     the run's directory (default att-run); it must not hold a run
  -k, --kernel REGEX   only the dispatches of kernels matching REGEX
      --range RANGE    only these iterations of them, e.g. "[2]" or "[1-3]"
      --wgp N          the WGP whose waves are instruction-traced (--att-target-cu)
      --se-mask MASK   the shader engines traced, a bit each: 0x1..0x3f (6 on a 7900 XTX)
      --simd N         the SIMD of the WGP traced, 0..3 (--att-simd-select)
      --buffer SIZE    the trace buffer of each shader engine, in bytes
      --serialize      serialize every kernel, traced or not (--att-serialize-all)
      --dry-run        print the rocprofv3 command, run nothing
  -h, --help           this text
      --version        the version
ROCPROFV3 names the rocprofv3 to run, STALL the stall. See sqtt-capture(1).
EOF
}

die() {
	printf '%s\n' "$prog: $*" >&2
	exit 2
}

# a number as rocprofv3 takes it: decimal or 0x hex
number() {
	case $2 in
	''|*[!0-9a-fA-FxX]*) die "$1: not a number: $2" ;;
	0[xX]*[!0-9a-fA-F]*|0[xX]) die "$1: not a number: $2" ;;
	0[xX]*) ;;
	*[!0-9]*) die "$1: not a number: $2" ;;
	esac
}

# one word as the shell reads it back: backslashes, newlines (a trailing one too) and
# quotes kept as they are, printed by printf (echo would read the backslashes)
quote() {
	case $1 in
	''|*[!A-Za-z0-9_./=:,+@%-]*)
		q=$(printf '%s.' "$1" | sed "s/'/'\\\\''/g")
		printf "'%s'" "${q%.}" ;;
	*) printf '%s' "$1" ;;
	esac
}

out=att-run
dry=
att=
kernel=
range=
while [ $# -gt 0 ]; do
	case $1 in
	-h|--help)	help 2>/dev/null || die "stdout: write error"; exit 0 ;;
	--version)	printf '%s\n' "$prog (stall) @VERSION@" 2>/dev/null ||
				die "stdout: write error"
			exit 0 ;;
	--dry-run)	dry=1 ;;
	-o|--output)	[ $# -ge 2 ] || usage; out=$2; shift ;;
	-k|--kernel)	[ $# -ge 2 ] || usage; kernel=$2; shift ;;
	--range)	[ $# -ge 2 ] || usage; range=$2; shift ;;
	--wgp)		[ $# -ge 2 ] || usage; number --wgp "$2"; wgp=$2; shift ;;
	--se-mask)	[ $# -ge 2 ] || usage; number --se-mask "$2"; semask=$2; shift ;;
	--simd)		[ $# -ge 2 ] || usage
			case $2 in [0-3]) simd=$2 ;; *) die "--simd: not a SIMD 0..3: $2" ;; esac
			shift ;;
	--buffer)	[ $# -ge 2 ] || usage; number --buffer "$2"; buffer=$2; shift ;;
	--serialize)	att="$att --att-serialize-all" ;;
	--)		shift; break ;;
	-*)		printf '%s\n' "$prog: unknown option $1" >&2; usage ;;
	*)		break ;;
	esac
	shift
done
[ $# -gt 0 ] || usage
case $range in
''|\[*\]) ;;
*) die "--range: not an iteration range like [2] or [1-3]: $range" ;;
esac
if [ -n "${semask:-}" ] && [ $(($semask)) -gt 63 -o $(($semask)) -eq 0 ]; then
	die "--se-mask: a 7900 XTX has 6 shader engines (0x1..0x3f): $semask"
fi
if [ -z "$dry" ] && [ -e "$out" ] && [ -n "$(ls -A "$out" 2>/dev/null)" ]; then
	die "$out: not empty: a second run there would mix with the first"
fi

rocprof=${ROCPROFV3:-rocprofv3}
# the results JSON (-f json) has the load bases, the kernels and the dispatches;
# --kernel-trace puts the dispatch records in it
set -- "$rocprof" --att --kernel-trace -f json -d "$out" \
	${wgp:+--att-target-cu "$wgp"} ${semask:+--att-shader-engine-mask "$semask"} \
	${simd:+--att-simd-select "$simd"} ${buffer:+--att-buffer-size "$buffer"} $att \
	${kernel:+--kernel-include-regex "$kernel"} ${range:+--kernel-iteration-range "$range"} \
	-- "$@"
line=
for a in "$@"; do
	line="$line${line:+ }$(quote "$a")"
done
printf '%s\n' "$prog: $line" >&2
[ -z "$dry" ] || exit 0
command -v "$rocprof" > /dev/null 2>&1 || die "$rocprof: not found (ROCPROFV3 names another)"
"$@"
rc=$?
[ $rc -eq 0 ] || die "rocprofv3 exited $rc; the run, if any, is in $out"

stall=${STALL:-stall}
if ! command -v "$stall" > /dev/null 2>&1; then
	stall=$(dirname "$0")/stall
fi
printf '%s\n' "$prog: $stall $(quote "$out")" >&2
exec "$stall" "$out"
