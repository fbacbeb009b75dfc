#!/bin/sh
# scripts/valgrind.sh [CAPTURE...]: every program (sqtt-dump, sqtt-walk, stall-attr,
# stall-table, stall, stall-diff, stall-budget, stall-annotate, sqtt-encode) under
# valgrind's memcheck on the project's fixtures and the captures given (by default
# ../shared's when beside: a tinygrad pickle of each generation, an RGP file), each capture
# also as the rocprofv3 run sqtt-encode -d writes of it: an invalid read or write, a jump on an uninitialised
# value, a bad free or a definite leak is an error (valgrind --error-exitcode=99).  Each
# run's exit status is checked too (stall-diff: 1, its two profiles differ).  Prints a line
# per run and the failed ones' valgrind logs; exit 1 if any failed.  The inputs of each
# stage are made by the stage before it, outside valgrind, in a scratch directory
# removed at the end.  LLVM makes the programs that disassemble slow under valgrind:
# a few minutes in all (make valgrind; not in CI).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
bin=$top/bin
shared=$top/../shared/fixtures
command -v valgrind >/dev/null 2>&1 ||
	{ echo "valgrind: not installed (scripts/install-deps.sh --tests)" >&2; exit 2; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/valgrind.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' INT TERM HUP
cd "$tmp" || exit 2
failed=0 n=0

# vg WANT NAME PROG ARG...: PROG under memcheck, its stdout to NAME.out; WANT its status
vg() {
	vg_want=$1 vg_name=$2 vg_prog=$3
	shift 3
	n=$((n + 1))
	MEMCHECK_EXTRA=--track-origins=yes sh "$top/scripts/memcheck.sh" "$tmp/$vg_name.vg" \
	    "$bin/$vg_prog" "$@" > "$tmp/$vg_name.out" 2> "$tmp/$vg_name.err"
	vg_st=$?
	if [ "$vg_st" -eq "$vg_want" ] && [ ! -s "$tmp/$vg_name.vg" ]; then
		echo "ok $n $vg_prog $vg_name"
	else
		failed=1
		echo "not ok $n $vg_prog $vg_name: exit $vg_st (want $vg_want)"
		sed 's/^/#   /' "$tmp/$vg_name.vg" "$tmp/$vg_name.err" | head -40
	fi
}

# the captures: the demo (gfx1100) and those given, or beside a pickle of each generation
# and an RGP file
caps="demo:$top/fixtures/demo"
first() { for f in "$@"; do [ -e "$f" ] && { echo "$f"; return; }; done; }
if [ $# -gt 0 ]; then
	for f in "$@"; do caps="$caps $(basename "$f"):$(cd "$(dirname "$f")" && pwd)/$(basename "$f")"; done
else
	for g in tinygrad tinygrad-gfx12 tinygrad-gfx950 rgp; do
		f=$(first "$shared/$g"/*.pkl "$shared/$g"/*.rgp)
		[ -n "$f" ] && caps="$caps $g:$f"
	done
fi

for c in $caps; do
	name=${c%%:*} path=${c#*:}
	vg 0 "dump-$name" sqtt-dump "$path"
	vg 0 "counts-$name" sqtt-dump --counts -x "extract-$name" "$path"
	grep -q "^##target	gfx9" "dump-$name.out" && continue	# CDNA: decoded to tokens only
	vg 0 "walk-$name" sqtt-walk "dump-$name.out"
	vg 0 "attr-$name" stall-attr "walk-$name.out"
	vg 0 "attrraw-$name" stall-attr --raw "walk-$name.out"
	vg 0 "table-$name" stall-table "attr-$name.out"
	vg 0 "json-$name" stall-table --json "attr-$name.out"
	vg 0 "pretty-$name" stall-table --pretty "attr-$name.out"
	vg 0 "bydisp-$name" stall-table --by-dispatch "attr-$name.out"
	vg 0 "stall-$name" stall -n 10 "$path"
	vg 0 "rows-$name" stall --rows "$path"
	vg 0 "threads-$name" stall --threads 2 --tsv "$path"
	vg 0 "hints-$name" stall-annotate --hints "attr-$name.out"
	# the same capture as a rocprofv3 run, read by its streams' entries and its JSON
	# (RDNA3: a run's streams say no target, gfx1100 is taken)
	grep -q "^##target	gfx11" "dump-$name.out" || continue
	vg 0 "encode-$name" sqtt-encode -d "run-$name" "dump-$name.out"
	rm -f "run-$name/capture.tsv"
	vg 0 "run-$name" sqtt-dump "run-$name"
	vg 0 "runbydisp-$name" stall --by-dispatch "run-$name"
done
vg 0 rgp-demo sqtt-dump --rgp demo.rgp "$top/fixtures/demo"
vg 0 dump-rgp-demo sqtt-dump demo.rgp

# the authored traces (their ##code paths are the project's): demo's second version,
# gfx12, the annotate kernels
cd "$top" || exit 2
vg 0 walk-demo-v2 sqtt-walk fixtures/traces/demo-v2.packets.tsv
vg 0 attr-demo-v2 stall-attr "$tmp/walk-demo-v2.out"
# (gfx12's is an authored stream whose HEADER has no bits: encoded first, as t0315 does)
"$bin/sqtt-encode" -d "$tmp/sync12" fixtures/gfx12/sync12.packets.tsv 2>/dev/null &&
    vg 0 stall-sync12 stall "$tmp/sync12"
for t in fixtures/annotate/hot fixtures/annotate/poll; do
	name=$(basename "$t")
	"$bin/sqtt-walk" "$t.packets.tsv" > "$tmp/walk-$name.out" 2>/dev/null &&
	    vg 0 "attr-$name" stall-attr "$tmp/walk-$name.out"
done
vg 0 encode-raw sqtt-encode -e 0 -o "$tmp/demo.att" fixtures/traces/demo.packets.tsv
vg 0 encode-dir sqtt-encode -d "$tmp/encoded" fixtures/traces/demo.packets.tsv
vg 2 encode-bad sqtt-encode -o "$tmp/bad.att" tests/bad/encode-event-back.tsv
vg 0 annotate-hot stall-annotate --hints "$tmp/attr-hot.out"
vg 0 annotate-poll stall-annotate --loads "$tmp/attr-poll.out"
vg 0 annotate-sync12 stall-annotate --waits "$tmp/sync12"
cd "$tmp" || exit 2
vg 0 table-v2 stall-table "attr-demo-v2.out"
vg 1 diff-demo stall-diff "table-demo.out" "table-v2.out"
vg 0 diff-same stall-diff "table-demo.out" "table-demo.out"
echo "demo cycles <= 100000" > ok.rules
echo "* cause mem <= 1%" > over.rules
vg 0 budget-ok stall-budget ok.rules "table-demo.out"
vg 1 budget-over stall-budget over.rules "table-demo.out"
vg 0 annotate-lines stall-annotate "attr-demo.out"
echo "valgrind: $n runs, $( [ $failed = 0 ] && echo "all clean" || echo "some FAILED")"
exit $failed
