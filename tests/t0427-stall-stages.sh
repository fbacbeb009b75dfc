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

# The handing over is there, and the reading ahead of a buffer's file: two threads more
# than the walk's (the costs', the reads'), for a capture of one buffer.
test_expect_success STRACE 'stall --threads 2 on one buffer: the costs and the reads on threads of their own; --threads 1: none' '
	strace -f -o trace2 -e trace=clone,clone3 stall --threads 2 --tsv -e 0 "$TOP/fixtures/demo" > two &&
	strace -f -o trace1 -e trace=clone,clone3 stall --threads 1 --tsv -e 0 "$TOP/fixtures/demo" > one &&
	test_cmp one two &&
	test $(grep -c "clone" trace2) = 2 &&
	test $(grep -c "clone" trace1) = 0
'

# A buffer's file read ahead by a thread of its own, in blocks of 128 KiB decoded where
# they are: a wave 120 times through 3000 instructions (bench/mkcode.py), 530 KiB of
# stream, its tokens across four block ends.  The table is the one thread's, from the
# raw stream and from its gzip; gzip data cut short is the one thread's error and exit,
# and its rows before the error are the one thread's (the tokens end at the same chunk).
test_expect_success PYTHON3 'a stream read ahead in blocks: the table, the gzip, the cut gzip as on one thread' '
	python3 "$TOP/bench/mkcode.py" elf k3.elf 0 3000 &&
	python3 "$TOP/bench/mkcode.py" trace k3.elf 3000 > k3.tsv &&
	{ sed -n 1,5p k3.tsv &&
	  awk -F"\t" "BEGIN { OFS = FS } NR >= 6 { l[n++] = \$0 } END {
		for (r = 0; r < 120; r++) for (i = 0; i < n; i++) {
			split(l[i], f, \"\t\"); f[4] += r * 6200
			print f[1], f[2], f[3], f[4], f[5], f[6], f[7], f[8], f[9], f[10], f[11] } }" k3.tsv
	} > many.tsv &&
	sqtt-encode -d many many.tsv &&
	test $(wc -c < many/stall_shader_engine_0_0.att) -gt $((4 * 131072)) &&
	stall --threads 1 --tsv -a many > t1 &&
	stall --threads 2 --tsv -a many > t2 &&
	test_cmp t1 t2 &&
	grep -q "^k	TOTAL	360000	" t2 &&
	cp -r many gz && gzip -c many/stall_shader_engine_0_0.att > gz/stall_shader_engine_0_0.att &&
	stall --threads 2 --tsv -a gz | grep -v "^##" > g2 &&
	grep -v "^##" t1 > g1 &&
	test_cmp g1 g2 &&
	cp -r gz cut &&
	head -c $(($(wc -c < gz/stall_shader_engine_0_0.att) * 7 / 10)) gz/stall_shader_engine_0_0.att > cut/stall_shader_engine_0_0.att &&
	test_expect_code 2 stall --threads 1 --tsv cut > c1 2> e1 &&
	test_expect_code 2 stall --threads 2 --tsv cut > c2 2> e2 &&
	test_one_line_error stall e2 &&
	grep -q "cut/stall_shader_engine_0_0.att: unexpected end of file (gzip data cut short)$" e2 &&
	test_cmp e1 e2 &&
	test_cmp /dev/null c2 &&
	test_expect_code 2 stall --threads 1 --rows cut > r1 2> re1 &&
	test_expect_code 2 stall --threads 2 --rows cut > r2 2> re2 &&
	test_cmp e1 re2 &&
	test $(grep -vc "^#" r2) -gt 1000 &&
	test_cmp r1 r2
'

# A run that fails with waves still live frees them, its read-ahead thread ended and
# joined: memcheck finds no leak and no bad access, on one thread and on two.
test_expect_success VALGRIND 'the cut gzip under memcheck: exit 2, nothing lost' '
	for n in 1 2; do
		test_expect_code 2 sh "$TOP/scripts/memcheck.sh" vg.$n "$BIN/stall" --threads $n --tsv cut > /dev/null 2> vgerr.$n &&
		test_cmp e1 vgerr.$n &&
		test_cmp /dev/null vg.$n || return 1
	done
'

test_done
