#!/bin/sh
# valgrind.sh [capture ...]: every program of the pipeline under valgrind on each capture
# (default: the fixtures in ../shared and fixtures/demo); any error or leak fails it.
# Slow (minutes): run by hand, not by check.sh.
top=$(cd "$(dirname "$0")/.." && pwd)
bin=$top/bin
tmp=$(mktemp -d "${TMPDIR:-/tmp}/valgrind.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
[ $# -gt 0 ] || set -- "$top"/../shared/fixtures/tinygrad/*.pkl "$top/fixtures/demo"
vg() {
	valgrind -q --error-exitcode=99 --leak-check=full --show-leak-kinds=definite,indirect \
	    --errors-for-leak-kinds=definite,indirect "$@"
}
fail=0
for c in "$@"; do
	n=$(basename "$c")
	vg "$bin/sqtt-dump" "$c" > "$tmp/p" 2> "$tmp/e" || { echo "sqtt-dump $n: $?"; cat "$tmp/e"; fail=1; }
	vg "$bin/sqtt-dump" --counts -x "$tmp/x" "$c" > /dev/null 2> "$tmp/e" || { echo "sqtt-dump --counts -x $n: $?"; cat "$tmp/e"; fail=1; }
	vg "$bin/sqtt-walk" "$tmp/p" > "$tmp/r" 2> "$tmp/e"; st=$?
	[ $st -le 2 ] || { echo "sqtt-walk $n: $st"; cat "$tmp/e"; fail=1; }
	vg "$bin/stall-attr" "$tmp/r" > "$tmp/a" 2> "$tmp/e" || { echo "stall-attr $n: $?"; cat "$tmp/e"; fail=1; }
	vg "$bin/stall-attr" --raw "$tmp/r" > /dev/null 2> "$tmp/e" || { echo "stall-attr --raw $n: $?"; cat "$tmp/e"; fail=1; }
	for f in --tsv --json --pretty; do
		vg "$bin/stall-table" $f "$tmp/a" > /dev/null 2> "$tmp/e" || { echo "stall-table $f $n: $?"; cat "$tmp/e"; fail=1; }
	done
	for f in --tsv --rows; do
		vg "$bin/stall" $f "$c" > /dev/null 2> "$tmp/e"; st=$?
		[ $st -le 2 ] || { echo "stall $f $n: $st"; cat "$tmp/e"; fail=1; }
	done
	vg "$bin/stall" --threads 2 --tsv "$c" > /dev/null 2> "$tmp/e"; st=$?
	[ $st -le 2 ] || { echo "stall --threads 2 $n: $st"; cat "$tmp/e"; fail=1; }
	vg "$bin/stall-annotate" --hints "$tmp/a" > /dev/null 2> "$tmp/e"; st=$?
	[ $st -le 2 ] || { echo "stall-annotate $n: $st"; cat "$tmp/e"; fail=1; }
	rm -rf "$tmp/d"
	vg "$bin/sqtt-encode" -d "$tmp/d" "$tmp/p" 2> "$tmp/e" || { echo "sqtt-encode -d $n: $?"; cat "$tmp/e"; fail=1; }
	# the same capture as a rocprofv3 run, read by its streams' entries and its JSON
	rm -f "$tmp/d/capture.tsv"
	vg "$bin/sqtt-dump" "$tmp/d" > /dev/null 2> "$tmp/e" || { echo "sqtt-dump (run) $n: $?"; cat "$tmp/e"; fail=1; }
	vg "$bin/stall-table" --by-dispatch "$tmp/a" > /dev/null 2> "$tmp/e" || { echo "stall-table --by-dispatch $n: $?"; cat "$tmp/e"; fail=1; }
	vg "$bin/stall" --by-dispatch "$tmp/d" > /dev/null 2> "$tmp/e" || { echo "stall --by-dispatch (run) $n: $?"; cat "$tmp/e"; fail=1; }
	echo "$n: done"
done
exit $fail
