#!/bin/sh
# stall-attr's rules, one row each (tests/data/rows-rules.tsv, hand-written): a row after a
# taken branch waits on fetch even in the same 64-byte line; a row in the next 64-byte line
# waits on fetch after a row that was not a branch (0x13c -> 0x140: one 128-byte line, two
# of 64); an image_store is counted on vscnt, so s_waitcnt_vscnt retires it and
# s_waitcnt vmcnt(0) does not; the simm16 of "s_waitcnt 0x43f7" is vmcnt 16 (6 bits at 10),
# lgkmcnt 63, expcnt 7, and that of "s_waitcnt 0xfd07" lgkmcnt 16 (6 bits at 4): neither
# retires the one load outstanding, the named wait after each does.
. "$(dirname "$0")/lib.sh"

test_expect_success 'cost, cause and retired operations of every row' '
	stall-attr "$TOP/tests/data/rows-rules.tsv" > rows 2> err &&
	test_cmp /dev/null err &&
	grep -v "^#" rows | cut -f6,13-15 | tr "\t" "|" > actual &&
	cat > expect <<-\EOF &&
	0x100|100|wave_start|-
	0x104|1|issue_cycle|-
	0x10c|12|fetch|-
	0x110|1|issue_cycle|-
	0x13c|1|issue_cycle|-
	0x140|12|fetch|-
	0x144|1|issue_cycle|-
	0x14c|2|unexplained|-
	0x150|370|mem|0x144@1028
	0x154|1|issue_cycle|-
	0x15c|3|unexplained|-
	0x160|396|mem|0x154@1401
	0x164|1|issue_cycle|-
	0x16c|3|unexplained|-
	0x170|196|smem|0x164@1801
	0x174|30|drain|-
	EOF
	test_cmp expect actual
'

test_expect_success 'the raw view: the same retired operations' '
	stall-attr --raw "$TOP/tests/data/rows-rules.tsv" > raw 2> err &&
	test_cmp /dev/null err &&
	grep -v "^#" raw | cut -f6,15 | grep -v "	-$" | tr "\t" "|" > actual &&
	printf "0x150|0x144@1028\n0x160|0x154@1401\n0x170|0x164@1801\n" > expect &&
	test_cmp expect actual
'

test_done
