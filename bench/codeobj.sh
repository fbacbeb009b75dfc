#!/bin/sh
# bench/codeobj.sh [N]: stall on code objects made to scale (bench/mkcode.py; made here,
# never committed): a 10-instruction kernel traced inside a 3.8 MiB library-like object
# (a filler function before it) against the same kernel alone in its object, and named by
# 100 ##code lines (read once: the RSS of one line); and one
# wave walking a kernel of N distinct instructions (default 1000000), its bytes per
# instruction from the peak RSS over that of the 10-instruction run (stall, and the code
# object alone through build/codeobj_test -r).  CPU seconds are user + sys (the wall of a
# loaded machine is not the program's).  Needs python3 and GNU time; not a test (t0210
# checks that only the reached code is read).  AMD_LIB=PATH (bench/run.sh gives it where
# AMD's rocprof-trace-decoder library is): AMD's decoder on the same N-instruction trace too.
set -u
n=${1:-1000000}
top=$(cd "$(dirname "$0")/.." && pwd)
bin=$top/bin
out=${BENCH_OUT:-$top/bench/out}
[ -x /usr/bin/time ] || { echo "bench: needs GNU time (Debian package time)" >&2; exit 77; }
command -v python3 >/dev/null || { echo "bench: codeobj: needs python3" >&2; exit 77; }
mkdir -p "$out" || exit 2
d=$out/code
rm -rf "$d" && mkdir -p "$d" || exit 2
mk() {	# mk NAME FILLER_BYTES KERNEL_INSTS: $d/NAME.elf, its trace, its capture $d/NAME
	python3 "$top/bench/mkcode.py" elf "$d/$1.elf" "$2" "$3" &&
	python3 "$top/bench/mkcode.py" trace "$d/$1.elf" "$3" > "$d/$1.tsv" &&
	"$bin/sqtt-encode" -d "$d/$1" "$d/$1.tsv" && rm -f "$d/$1.tsv" ||
	{ echo "bench: codeobj: cannot make $1" >&2; exit 2; }
}
# run LABEL CMD...: "wall cpu rss" of one run, its output checked to be a table
run() {
	label=$1; shift
	/usr/bin/time -f "%e %U %S %M" -o "$d/time" "$@" > "$d/out" 2> "$d/err" ||
	    { echo "bench: codeobj: $label failed: $(head -n 1 "$d/err")" >&2; exit 2; }
	awk '{ printf "%s %.2f %s\n", $1, $2 + $3, $4 }' "$d/time"
}
mk alone 0 10
mk lib 4000000 10
mk big 0 "$n"
set -- $(run alone "$bin/stall" --tsv "$d/alone"); al_wall=$1 al_cpu=$2 al_rss=$3
grep -q "^k	TOTAL	10	" "$d/out" || { echo "bench: codeobj: the 10 rows are not in the table" >&2; exit 2; }
set -- $(run lib "$bin/stall" --tsv "$d/lib"); lib_wall=$1 lib_cpu=$2 lib_rss=$3
grep -q "^k	TOTAL	10	" "$d/out" || { echo "bench: codeobj: the 10 rows are not in the table" >&2; exit 2; }
# the same capture with its ##code line 100 times (a hostile or careless capture.tsv): the
# code object is read once, whatever the lines
mkdir "$d/lines" && ln "$d/lib"/* "$d/lines/" && rm "$d/lines/capture.tsv" &&
	awk '/^##code/ { for (i = 1; i < 100; i++) print } { print }' "$d/lib/capture.tsv" > "$d/lines/capture.tsv" ||
	{ echo "bench: codeobj: cannot make the capture of 100 ##code lines" >&2; exit 2; }
set -- $(run lines "$bin/stall" --tsv "$d/lines"); ln_wall=$1 ln_cpu=$2 ln_rss=$3
grep -q "^k	TOTAL	10	" "$d/out" || { echo "bench: codeobj: the 10 rows are not in the table" >&2; exit 2; }
# median A B: the median of each of three columns over the runs in file A (one "wall cpu
# rss" line a run), as "wall cpu rss"
median() { for k in 1 2 3; do sort -n -k$k,$k "$1" | awk -v k=$k 'NR == 2 { print $k }'; done | tr '\n' ' '; }
# the N-instruction kernel: stall and AMD's decoder (where it is) in turns, three runs
# each (A B A B A B), the median of each: one run of each swung from 0.7x to 1.05x on a
# loaded machine
[ -n "${AMD_LIB:-}" ] &&
	base=$("$bin/sqtt-dump" --types HEADER "$d/big" | awk -F'\t' '$1 == "##code" { print $4; exit }')
: > "$d/stall-runs" && : > "$d/amd-runs" || exit 2
for i in 1 2 3; do
	run big "$bin/stall" --tsv "$d/big" >> "$d/stall-runs" || exit 2
	grep -q "^k	TOTAL	$n	" "$d/out" || { echo "bench: codeobj: the $n rows are not in the table" >&2; exit 2; }
	[ -n "${AMD_LIB:-}" ] || continue
	run amd-big "$top/build/amd_driver" "$AMD_LIB" "$d/big.elf" "$base" "$d"/big/*.att >> "$d/amd-runs" ||
	    exit 2
	grep -q "^#instructions	$n\$" "$d/out" ||
		{ echo "bench: codeobj: AMD's decoder did not walk the $n instructions" >&2; exit 2; }
done
set -- $(median "$d/stall-runs"); big_wall=$1 big_cpu=$2 big_rss=$3
set -- $(run code-alone "$top/build/codeobj_test" -r "$d/alone.elf" k); ca_rss=$3
set -- $(run code-big "$top/build/codeobj_test" -r "$d/big.elf" k); cb_wall=$1 cb_cpu=$2 cb_rss=$3
am_line=
if [ -n "${AMD_LIB:-}" ]; then
	set -- $(median "$d/amd-runs")
	am_line=$(printf '  AMD'"'"'s decoder on the same trace (build/amd_driver)   %s s wall  %s CPU-s  %s KB   (stall: %sx its wall; medians of 3, in turns)' \
	    "$1" "$2" "$3" "$(awk -v a="$big_wall" -v b="$1" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')")
fi
per() { awk -v a="$1" -v b="$2" -v n="$n" 'BEGIN { printf "%.0f", (a - b) * 1024 / n }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }
printf 'stall, 10-instruction kernel in a 3.8 MiB code object  %s s wall  %s CPU-s  %s KB   target <= 0.05 s\n' \
    "$lib_wall" "$lib_cpu" "$lib_rss"
printf '  the same kernel alone in its object                  %s s wall  %s CPU-s  %s KB   (%sx its wall in the big object)\n' \
    "$al_wall" "$al_cpu" "$al_rss" "$(ratio "$lib_wall" "$al_wall")"
printf '  the big object named by 100 ##code lines             %s s wall  %s CPU-s  %s KB   (%sx the RSS of one line)\n' \
    "$ln_wall" "$ln_cpu" "$ln_rss" "$(ratio "$ln_rss" "$lib_rss")"
printf 'stall, one wave through %d distinct instructions   %s s wall  %s CPU-s  %s KB   %s bytes an instruction   target <= 300\n' \
    "$n" "$big_wall" "$big_cpu" "$big_rss" "$(per "$big_rss" "$al_rss")"
[ -n "$am_line" ] && echo "$am_line"
printf '  its code object alone (codeobj_test -r)              %s s wall  %s CPU-s  %s KB   %s bytes an instruction\n' \
    "$cb_wall" "$cb_cpu" "$cb_rss" "$(per "$cb_rss" "$ca_rss")"
[ "${KEEP:-0}" = 1 ] || rm -rf "$d"
