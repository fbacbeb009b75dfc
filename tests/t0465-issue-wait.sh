#!/bin/sh
# t0465-issue-wait: issue_wait is a row whose wave waited while other waves of its
# buffer issued strictly between the wave's previous row and this one, their issues
# filling at least half of the gap beyond the row's own cycle (stall-attr(1)): an issue at
# the previous row's own cycle is not inside (issue 24's survivor: it was counted).  Two
# waves, hand-written rows: both issue at 1000; wave 0 again at 1002 (cost 2), with
# nothing of wave 1 strictly inside (1000, 1002); wave 1 again at 1003 (cost 3), with wave
# 0's 1002 inside (1000, 1003), one issue for the two cycles beyond its own.
. "$(dirname "$0")/lib.sh"

test_expect_success 'an issue at the previous row'"'"'s cycle is no issue_wait; one inside is' '
	printf "#event\tse\tkernel\twave\tslot\tpc\ttime\tdelta\ttoken\tinst\tclass\tdep\n" > rows.tsv &&
	printf "0\t0\tk\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t-\n" \
		0 0 0x100 1000 100 INST:salu "s_mov_b32 s0, 1" salu \
		1 1 0x100 1000 100 INST:salu "s_mov_b32 s0, 1" salu \
		0 0 0x104 1002 2 INST:salu "s_mov_b32 s1, 1" salu \
		1 1 0x104 1003 3 INST:salu "s_mov_b32 s1, 1" salu \
		0 0 0x108 1010 8 WAVE_END s_endpgm endpgm \
		1 1 0x108 1012 9 WAVE_END s_endpgm endpgm >> rows.tsv &&
	stall-attr rows.tsv > out 2> err &&
	test_cmp /dev/null err &&
	grep -v "^#" out | cut -f 4,6,7,13,14 > actual &&
	printf "%s\t%s\t%s\t%s\t%s\n" \
		0 0x100 1000 100 wave_start \
		1 0x100 1000 100 wave_start \
		0 0x104 1002 2 unexplained \
		1 0x104 1003 3 issue_wait \
		0 0x108 1010 8 drain \
		1 0x108 1012 9 drain > expect &&
	test_cmp expect actual
'

test_done
