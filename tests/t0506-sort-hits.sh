#!/bin/sh
# t0506-sort-hits: --sort hits orders the instructions by their hits, most first (cycles
# breaking ties), not by cycles: on the demo the two orders differ.
. "$(dirname "$0")/lib.sh"

test_expect_success 'stall --sort hits: hits never rise down the table; not the cycles order' '
	(cd "$TOP" && stall --plain -H -s hits fixtures/demo) >table &&
	awk -F"\t" "\$2 != \"-\"" table >rows &&
	cut -f3 rows >hits &&
	sort -rn hits >sorted &&
	test_cmp sorted hits &&
	cut -f4 rows >cycles &&
	sort -rn cycles >by_cycles &&
	! cmp -s by_cycles cycles &&
	head -n 1 rows | cut -f2-4 >actual &&
	printf "0x1350\t9\t48\n" >expect &&
	test_cmp expect actual
'

test_done
