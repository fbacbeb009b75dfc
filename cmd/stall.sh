#!/bin/sh
# stall: where the waves of a capture wait.  Runs the four stages of pipeline.md,
#   sqtt-dump CAPTURE | sqtt-walk | stall-attr | stall-table --top 10
# and exits 2 if any of them failed (each stage's status is kept in a file: POSIX sh
# has no pipefail, and the stages must stream), with the first failing stage's message.
# See stall(1).

prog=stall

usage() {
	echo "usage: $prog [-ahjr] [-n top] [-k kernel] [-s key] [--pretty | --tsv | --rows] [--untraced]" >&2
	echo "       [--html out.html] [--trace-json out.json] capture" >&2
	exit 2
}

help() {
	cat <<EOF
usage: $prog [-ahjr] [-n top] [-k kernel] [-s key] [--pretty | --tsv | --rows] [--untraced]
       [--html out.html] [--trace-json out.json] capture
Where the waves of a capture wait: sqtt-dump | sqtt-walk | stall-attr | stall-table.

  -n, --top N        the N instructions of each kernel with the most cycles (default 10)
  -a, --all          every instruction
  -r, --raw          charge every row its own delta (stall-attr --raw)
  -j, --json         JSON (stall-table --json)
  -k, --kernel NAME  only the trace buffers of kernel NAME (sqtt-dump -k)
  -s, --sort KEY     order by cycles (default), hits or pc
      --pretty       aligned text (the default on a terminal)
      --tsv          TSV (the default otherwise)
      --rows         the row stream stall-attr writes, not the table
      --untraced     count waves without instruction tokens too
      --html OUT     also write the timeline and the table as one HTML page
      --trace-json OUT  also write the rows as Chrome trace events (Perfetto)
  -h, --help         this text
See stall(1).
EOF
}

top=10
raw=
format=
kernel=
sort=
untraced=
rows=
html=
trace=
capture=
while [ $# -gt 0 ]; do
	case $1 in
	-h|--help)	help; exit 0 ;;
	-n|--top)	[ $# -ge 2 ] || usage; top=$2; shift ;;
	--top=*)	top=${1#--top=} ;;
	-a|--all)	top=0 ;;
	-r|--raw)	raw=--raw ;;
	-j|--json)	format=--json ;;
	--pretty)	format=--pretty ;;
	--tsv)		format=--tsv ;;
	--rows)		rows=1 ;;
	--untraced)	untraced=--untraced ;;
	--html)		[ $# -ge 2 ] || usage; html=$2; shift ;;
	--html=*)	html=${1#--html=} ;;
	--trace-json)	[ $# -ge 2 ] || usage; trace=$2; shift ;;
	--trace-json=*)	trace=${1#--trace-json=} ;;
	-k|--kernel)	[ $# -ge 2 ] || usage; kernel=$2; shift ;;
	--kernel=*)	kernel=${1#--kernel=} ;;
	-s|--sort)	[ $# -ge 2 ] || usage; sort=$2; shift ;;
	--)		shift; [ $# -eq 1 ] || usage; capture=$1; break ;;
	-?*)		echo "$prog: unknown option: $1" >&2; usage ;;
	*)		[ -z "$capture" ] || usage; capture=$1 ;;
	esac
	shift
done
[ -n "$capture" ] || usage
case $top in
''|*[!0-9]*)	echo "$prog: --top is not a number: $top" >&2; exit 2 ;;
esac

# The programs beside this script first (a build tree's bin/), else PATH.
here=$(dirname "$0")
find_prog() {
	if [ -x "$here/$1" ]; then
		printf '%s\n' "$here/$1"
	elif command -v "$1" >/dev/null 2>&1; then
		printf '%s\n' "$1"
	else
		echo "$prog: $1: not found beside $0 or in PATH" >&2
		exit 2
	fi
}
dump=$(find_prog sqtt-dump) || exit 2
walk=$(find_prog sqtt-walk) || exit 2
attr=$(find_prog stall-attr) || exit 2
table=$(find_prog stall-table) || exit 2

# Four stages, their pipes and files, and the shell's own: with fewer descriptors a stage
# fails with a message of the shell's or its warnings are lost (stall(1), LIMITS).
nofile=$(ulimit -n 2>/dev/null) || nofile=0
case $nofile in
unlimited|*[!0-9]*) ;;
*)	if [ "${nofile:-0}" -lt 32 ]; then
		echo "$prog: too few file descriptors (ulimit -n ${nofile:-?}): the stages need 32" >&2
		exit 2
	fi ;;
esac

tmp=$(mktemp -d "${TMPDIR:-/tmp}/stall.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
# A signal stops the stages now: the shell would run this trap only after the pipeline.
stop() {
	for i in 1 2 3 4; do
		[ -s "$tmp/p$i" ] && kill "$(cat "$tmp/p$i")" 2>/dev/null
	done
	exit 2
}
trap stop HUP INT TERM

# stage N CMD...: CMD with its pid in p$N, its stderr in e$N and its exit status in $N.
stage() {
	n=$1
	shift
	sh -c 'echo $$ > "$0" && exec "$@"' "$tmp/p$n" "$@" 2>"$tmp/e$n"
	echo $? >"$tmp/$n"
}

# The walker needs only these tokens: leave the rest in the capture.  The pipeline runs in
# the background so that a signal is handled at once (its stdin is ours, for capture -).
types=HEADER,REG,WAVE_START,WAVE_END,INST,VALU_INST,IMM_ONE,IMMEDIATE,NEW_PC
exec 3<&0
if [ -n "$rows" ]; then
	{ stage 1 "$dump" -t "$types" ${kernel:+-k "$kernel"} "$capture" |
	  stage 2 "$walk" |
	  stage 3 "$attr" $raw |
	  stage 4 cat; } <&3 3<&- &
else
	{ stage 1 "$dump" -t "$types" ${kernel:+-k "$kernel"} "$capture" |
	  stage 2 "$walk" |
	  stage 3 "$attr" $raw |
	  stage 4 "$table" --top "$top" ${sort:+-s "$sort"} $format $untraced \
		${html:+--html "$html"} ${trace:+--trace-json "$trace"}; } <&3 3<&- &
fi
exec 3<&-
wait $!

# The first stage that failed speaks for the run: the later ones mostly fail because of
# it, and their complaints about an empty stream would only bury its one line.
for i in 1 2 3 4; do
	st=$(cat "$tmp/$i" 2>/dev/null)
	if [ "$st" != 0 ]; then
		if [ -s "$tmp/e$i" ]; then
			cat "$tmp/e$i" >&2
		else
			set -- sqtt-dump sqtt-walk stall-attr stall-table
			shift $((i - 1))
			echo "$prog: $1 failed (exit status ${st:-unknown})" >&2
		fi
		exit 2
	fi
done
# warnings, stage by stage; losing them is a failure too
if ! cat "$tmp/e1" "$tmp/e2" "$tmp/e3" "$tmp/e4" >&2; then
	echo "$prog: the stages' warnings could not be read" >&2
	exit 2
fi
exit 0
