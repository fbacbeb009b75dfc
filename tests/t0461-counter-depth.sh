#!/bin/sh
# t0461-counter-depth: a wait counter holds the model's counter_depth operations (gfx11:
# 64, 6 bits): of 65 loads outstanding on vmcnt (tests/data/rows-fifo.tsv, hand-written)
# the first must have retired before the 65th issued, so the s_waitcnt vmcnt(0) after
# them retires exactly the last 64, the second load first.
. "$(dirname "$0")/lib.sh"

test_expect_success 'the wait retires the 64 a counter can hold, oldest first' '
	stall-attr --raw "$TOP/tests/data/rows-fifo.tsv" >rows 2>err &&
	test_cmp /dev/null err &&
	grep "s_waitcnt vmcnt(0)" rows | cut -f15 | tr "," "\n" >retired &&
	test "$(wc -l <retired)" -eq 64 &&
	test "$(sed -n 1p retired)" = "0x108@1001" &&
	test "$(sed -n 64p retired)" = "0x300@1064" &&
	! grep -q "^0x100@" retired
'

test_expect_success 'its cost is the wait'"'"'s, its cause the memory' '
	grep "s_waitcnt vmcnt(0)" rows | cut -f13,14 >actual &&
	printf "500\tmem\n" >expect &&
	test_cmp expect actual
'

test_done
