#!/bin/sh
# t0427: a worker with a core to spare (stall --threads 2 on one buffer, or --rows,
# --html, --trace-json, which take one worker) runs the costs and the sums on a thread
# of their own, the walk's rows handed over in order (issue 26).  What comes out is what
# one thread makes: the same table, rows, pictures, warnings, errors and exit, byte for
# byte, on every generation's captures.
. "$(dirname "$0")/lib.sh"

G12=$SHARED/fixtures/tinygrad-gfx12
G950=$SHARED/fixtures/tinygrad-gfx950
# the demo (2 buffers), a gfx11, a gfx12 with 12 warnings of the walk, a gfx950 capture
# (none of their paths has a space)
CAPS="$TOP/fixtures/demo"
for c in "$FIXTURES/20260305_profile_gemm_run_0_b6d1936.pkl" \
    "$G12/20260227_profile_py_run_0_516560d.pkl" "$G950/20260120_profile_plus_run_0_c6e491d.pkl"; do
	[ -e "$c" ] && CAPS="$CAPS $c"
done

# same OPTS...: stall --threads 1 and --threads 2 (and 4) on each capture, on the first
# buffer alone (-e) and on all: stdout, stderr and exit equal, and the files named
# out.html / out.json equal too
run() {	# run THREADS OPTS... CAPTURE: out.THREADS, err.THREADS, its exit in rc.THREADS
	n=$1; shift
	rm -f out.html out.json
	stall --threads "$n" "$@" > "out.$n" 2> "err.$n"; echo $? > "rc.$n"
	for f in out.html out.json; do [ -e "$f" ] && mv "$f" "$f.$n"; done
	:
}
compare() {	# compare OPTS... CAPTURE
	run 1 "$@" && run 2 "$@" && run 4 "$@" &&
	for n in 2 4; do
		test_cmp rc.1 rc.$n && test_cmp out.1 out.$n && test_cmp err.1 err.$n &&
		for f in out.html out.json; do
			[ ! -e "$f.1" ] || test_cmp "$f.1" "$f.$n" || return 1
		done || return 1
	done &&
	rm -f out.html.* out.json.*
}

test_expect_success 'two threads on a buffer: the same table, rows, pictures, warnings and exit' '
	{ test_part SHARED "the shared captures" || :; } &&
	test $(echo $CAPS | wc -w) -ge 1 &&
	for c in $CAPS; do
		ev=$(stall --threads 1 --rows "$c" 2> /dev/null | awk -F"\t" "!/^#/ { print \$1; exit }") &&
		test -n "$ev" &&
		for o in "--tsv -a -e $ev" "--tsv -a --untraced -e $ev" "--json -e $ev" \
		    "--by-dispatch --tsv -e $ev" "--rows" "--html out.html" "--trace-json out.json" \
		    "--tsv -a"; do
			compare $o "$c" && test "$(cat rc.1)" = 0 ||
			    { echo "differs, or failed: $o $c"; return 1; }
		done || return 1
	done
'

test_expect_success 'the walk'"'"'s warnings, in its order, on two threads' '
	{ test_part SHARED "a gfx12 capture the walk warns of" || :; } &&
	c="$G12/20260227_profile_py_run_0_516560d.pkl" &&
	if [ -e "$c" ]; then
		stall --threads 2 --rows "$c" > out 2> err &&
		test $(grep -c "^stall: warning: " err) = 12 &&
		stall --threads 1 --rows "$c" > out1 2> err1 &&
		test_cmp err1 err
	fi
'

# A row is handed over in 32 bytes, its delta in 32 bits; one whose delta is longer goes
# over wide.  A wave of three instructions (bench/mkcode.py) whose second issues 2^33 + 1
# cycles after the first: its delta, cost and sums whole on two threads as on one.
test_expect_success PYTHON3 'a row of a delta past 32 bits, handed over whole' '
	python3 "$TOP/bench/mkcode.py" elf k.elf 0 3 &&
	python3 "$TOP/bench/mkcode.py" trace k.elf 3 |
	awk -F"\t" "BEGIN { OFS = FS } \$4 == 201 { \$4 = \"8589934793\" } \$5 == \"WAVE_END\" { \$4 = \"8589934805\" } { print }" > long.tsv &&
	sqtt-encode -d long long.tsv &&
	stall --threads 1 --rows long > rows.1 &&
	stall --threads 2 --rows long > rows.2 &&
	test_cmp rows.1 rows.2 &&
	grep -v "^#" rows.2 | cut -f6-9,13 > got &&
	printf "0x1000\t200\t100\tVALU_INST\t100\n0x1004\t8589934793\t8589934593\tVALU_INST\t8589934593\n0x1008\t8589934805\t12\tWAVE_END\t12\n" > expect &&
	test_cmp expect got &&
	stall --threads 1 --tsv -a long > table.1 &&
	stall --threads 2 --tsv -a long > table.2 &&
	test_cmp table.1 table.2 &&
	grep -q "^k	TOTAL	3	8589934705	" table.2
'

# The handing over is there: one thread more than the walk's, for a capture of one buffer.
test_expect_success STRACE 'stall --threads 2 on one buffer: a second thread; --threads 1: none' '
	strace -f -o trace2 -e trace=clone,clone3 stall --threads 2 --tsv -e 0 "$TOP/fixtures/demo" > two &&
	strace -f -o trace1 -e trace=clone,clone3 stall --threads 1 --tsv -e 0 "$TOP/fixtures/demo" > one &&
	test_cmp one two &&
	test $(grep -c "clone" trace2) = 1 &&
	test $(grep -c "clone" trace1) = 0
'

test_done
