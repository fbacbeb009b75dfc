#!/bin/sh
# t0856-annotate-ties: stall-annotate's cause of an instruction or a line is the one with
# the most cycles, on a tie the first in the order of stall-attr(1)'s causes, as
# stall-table's is (issue 24's survivor: the later one on a tie).  The rows are hot's
# (t0850) with the cause of one wave's row relabelled, so that two causes tie: 0x1308
# (200 cycles smem in each wave) with wave 1's mem, 0x134c (30 lds each) with wave 0's
# barrier.
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/annotate-lib.sh"

test_expect_success 'the rows of hot, two causes tied at 0x1308 and at 0x134c' '
	rows_of hot &&
	awk -F"\t" -v OFS="\t" "
		!/^#/ && \$6 == \"0x1308\" && \$4 == 1 { \$14 = \"mem\" }
		!/^#/ && \$6 == \"0x134c\" && \$4 == 0 { \$14 = \"barrier\" }
		{ print }" hot.attr > tie.attr &&
	grep -v "^#" tie.attr | awk -F"\t" "\$6 == \"0x1308\" || \$6 == \"0x134c\" { print \$4, \$6, \$13, \$14 }" > actual &&
	printf "%s\n" "0 0x1308 200 smem" "1 0x1308 200 mem" "0 0x134c 30 barrier" "1 0x134c 30 lds" > expect &&
	test_cmp expect actual
'

test_expect_success '--annotate: mem at 0x1308, lds at 0x134c' '
	stall-annotate --annotate tie.attr > out &&
	awk "\$5 == \"0x1308\" || \$5 == \"0x134c\" { print \$2, \$4, \$5 }" out > actual &&
	printf "%s\n" "400 mem 0x1308" "60 lds 0x134c" > expect &&
	test_cmp expect actual
'

test_done
