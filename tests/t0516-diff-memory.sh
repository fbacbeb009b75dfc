#!/bin/sh
# t0516-diff-memory: stall-diff of two kernels of 100k distinct instructions that differ
# at both ends (issue 26): aligned whole, in linear space, and within 90 MB (a line of a
# profile keeps only the causes it had; dense per-cause arrays took 137 MB here).
. "$(dirname "$0")/lib.sh"

# rows TAG: one wave through 100000 instructions, the first and last named by TAG, the
# others the same on both sides (every third of cause valu_dep), then s_endpgm
rows() {
	awk -v tag="$1" 'BEGIN {
		printf "#event\tse\tkernel\twave\tslot\tpc\ttime\tdelta\ttoken\tinst\tclass\tdep\tcost\tcause\n"
		pc = 256; t = 10
		for (i = 0; i < 100000; i++) {
			if (i == 0 || i == 99999)
				inst = "v_" tag (i ? "_tail" : "_head")
			else
				inst = "v_mov_b32 v1, " i
			printf "0\t0\tk\t0\t0\t0x%x\t%d\t1\tVALU_INST\t%s\tvalu\t-\t1\t%s\n", pc, t, inst,
			    i % 3 == 0 && i && i < 99999 ? "valu_dep" : "unexplained"
			pc += 4; t++
		}
		printf "0\t0\tk\t0\t0\t0x%x\t%d\t1\tWAVE_END\ts_endpgm\tendpgm\t-\t1\tdrain\n", pc, t
	}'
}

# peak MAX CMD...: CMD (its status kept), 99 if it took more than MAX KB (unmeasured in
# sanitizer builds or without GNU time: a skipped part, said)
peak() {
	max=$1; shift
	if test_part GNU_TIME,!ASAN "the $max KB bound of $1" > /dev/null; then
		/usr/bin/time -f %M -o peak.out "$@"
		st=$?
		kb=$(tail -n 1 peak.out)
		[ "$kb" -le "$max" ] || { echo "took $kb KB (at most $max)" >&2; return 99; }
		return $st
	fi
	"$@"
}

test_expect_success 'two 100k-instruction kernels differing at both ends: 4 edits, 90 MB' '
	rows a > a.tsv &&
	rows b > b.tsv &&
	test_expect_code 1 peak 92160 stall-diff a.tsv b.tsv > out &&
	grep -v "^#" out | grep -v "	TOTAL	\|	WALL	\|	CAUSE	" | cut -f 2,3,4,12 |
	    grep -v "^=	" > actual &&
	printf "%s\n" "-	0x100	-	v_a_head" "+	-	0x100	v_b_head" \
	    "-	0x61b7c	-	v_a_tail" "+	-	0x61b7c	v_b_tail" > expect &&
	test_cmp expect actual &&
	test "$(grep -c "^k	=	0x" out)" = 99999 &&
	grep "^k	=	CAUSE	CAUSE	33332.00	33332.00	" out | grep -q valu_dep
'

test_done
