#!/bin/sh
# t0859-annotate-files: stall-annotate --lines keeps a line of one file apart from the
# same line number of another (issue 24's survivor: they were merged).  The code object
# is fixtures/annotate/twofiles.hsaco (OpenCL C, -g): its global_store_b32 at 0x1628 is
# line 7 of twofiles.h, four instructions are line 7 of twofiles.cl (llvm-addr2line says
# so, when it is there; stall-annotate names the header as its line table does, ./twofiles.h).  The rows are hand-written: one wave, each instruction of the
# kernel once, one cycle each but the store's 10.
. "$(dirname "$0")/lib.sh"

CODE="$TOP/fixtures/annotate/twofiles.hsaco"

test_expect_success ADDR2LINE 'llvm-addr2line: 0x1628 is twofiles.h:7, 0x1600 twofiles.cl:7' '
	"${ADDR2LINE:-llvm-addr2line-22}" -e "$CODE" 0x1600 0x1628 > actual &&
	printf "%s\n" fixtures/annotate/twofiles.cl:7 fixtures/annotate/./twofiles.h:7 > expect &&
	test_cmp expect actual
'

test_expect_success 'the lines of twofiles: twofiles.h:7 apart from twofiles.cl:7' '
	{
		printf "##target\tgfx1100\n##code\ttwofiles\t1\t0x7f3a2c100000\t0\t%s\n" "$CODE" &&
		printf "##event\t0\t0\ttwofiles\t1\t1\t0\t0\t0\t-\n" &&
		printf "#event\tse\tkernel\twave\tslot\tpc\ttime\tdelta\ttoken\tinst\tclass\tdep\tcost\tcause\tretired\n" &&
		t=100 &&
		for pc in 0x1600 0x1608 0x160c 0x1614 0x1618 0x161c 0x1620 0x1628 0x1630; do
			c=1 && if [ $pc = 0x1628 ]; then c=10; fi &&
			t=$((t + c)) &&
			printf "0\t0\ttwofiles\t0\t0\t%s\t%d\t%d\tSALU\ts_nop 0\tsalu\t-\t%d\tunexplained\t-\n" $pc $t $c $c || return 1
		done
	} > rows.attr &&
	stall-annotate --lines rows.attr > out &&
	awk -F"\t" -v OFS="\t" "!/^#/ { print \$2, \$3, \$5 }" out | sort > actual &&
	printf "%s\t%s\t%s\n" \
		fixtures/annotate/./twofiles.h:7 10 1 \
		fixtures/annotate/twofiles.cl:7 4 4 \
		fixtures/annotate/twofiles.cl:8 3 3 \
		fixtures/annotate/twofiles.cl:9 1 1 | sort > expect &&
	test_cmp expect actual
'

test_done
