#!/bin/sh
# t0428-stall-lines: the profile's lines as the pipeline makes them.  A line of an
# instruction the run reaches first is made without a lookup when its kernel's lines all
# come from one program (profile_line_new), and goes in the index of lines only when a
# lookup by text comes: two programs of one kernel (two versions of a code object, one
# line per instruction with the hits of both), on one thread and on two; and a run into a
# profile that has lines already (build/worker_test -s), which adds to them.
. "$(dirname "$0")/lib.sh"

# capture NAME BASE2 KERNEL2: two buffers of one wave through a 3-instruction kernel
# (bench/mkcode.py), the first on program "k" tag 1, the second on KERNEL2 tag 2 at BASE2
capture() {
	python3 "$TOP/bench/mkcode.py" elf k.elf 0 3 &&
	python3 "$TOP/bench/mkcode.py" trace k.elf 3 > one.tsv &&
	{
		printf "##target\tgfx1100\n##code\tk\t1\t0x0\t0\tk.elf\n##code\t$3\t2\t$2\t0\tk.elf\n"
		printf "##event\t0\t0\tk\t1\t1\t0\t0\t0\t-\n##event\t1\t0\t$3\t2\t1\t0\t0\t0\t-\n"
		grep -v "^##" one.tsv
		grep -v "^#" one.tsv | sed "s/^0	/1	/"
	} > "$1.tsv" &&
	sqtt-encode -d "$1" "$1.tsv"
}

test_expect_success PYTHON3 'two programs of one kernel: one line an instruction, the hits of both' '
	capture two 0x100000 k &&
	for t in 1 2; do
		stall --threads $t --top 0 --tsv two | grep -v "^##" | cut -f1-5 > got.$t || return 1
	done &&
	cat > expect <<-EOF &&
	#kernel	pc	hits	cycles	pct
	k	0x1004	2	2	0.88
	k	0x1000	2	0	0.00
	k	0x1008	2	0	0.00
	k	-	2	200	88.50
	k	-	2	24	10.62
	k	TOTAL	6	226	100.00
	EOF
	test_cmp expect got.1 &&
	test_cmp expect got.2
'

test_expect_success PYTHON3 'two kernels of one code object: lines of their own' '
	capture kj 0x100000 j &&
	stall --threads 1 --top 0 --tsv kj | grep -v "^##" | cut -f1-4 > got &&
	cat > expect <<-EOF &&
	#kernel	pc	hits	cycles
	j	0x1004	1	1
	j	0x1000	1	0
	j	0x1008	1	0
	j	-	1	100
	j	-	1	12
	j	TOTAL	3	113
	k	0x1004	1	1
	k	0x1000	1	0
	k	0x1008	1	0
	k	-	1	100
	k	-	1	12
	k	TOTAL	3	113
	EOF
	test_cmp expect got
'

test_expect_success 'a run into a profile with lines adds to them, and makes none twice' '
	"$TOP/build/worker_test" -s "$TOP/fixtures/demo" 2 > got &&
	printf "run 0: lines 23 hits 93\nrun 1: lines 23 hits 186\n" > expect &&
	test_cmp expect got
'

test_done
