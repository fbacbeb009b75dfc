#!/bin/sh
# t0820-annotate-loops: stall-annotate --loops: innermost loops from backward branches with
# their exact iteration counts, a poll loop flagged spin, cycles conserved; and the loop of
# the tinygrad GEMM capture (16 iterations a wave).
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/annotate-lib.sh"

test_expect_success 'the rows of hot, calm and poll' '
	rows_of hot && rows_of calm && rows_of poll
'

test_expect_success 'hot: the counted loop, 4 iterations in each of 2 waves' '
	stall-annotate --loops hot.attr > out &&
	cat > expect <<-\EOF &&
	##stall-annotate	loops
	#kernel	head	tail	insts	waves	iterations	min	max	cycles	percent	per_iteration	cause	spin
	##kernel	hot	cycles	3698	loops	1	in loops	62	rest	3636
	hot	0x1354	0x1360	4	2	8	4	4	62	1.68	7.75	fetch	-
	EOF
	test_cmp expect out
'

test_expect_success 'calm: 3 iterations a wave of a loop that loads, waits and computes: not spin' '
	stall-annotate --loops calm.attr > out &&
	grep -v "^#" out > actual &&
	printf "calm\t0x1340\t0x1358\t6\t2\t6\t3\t3\t1910\t34.25\t318.33\tmem\t-\n" > expect &&
	test_cmp expect actual
'

test_expect_success 'poll: a loop that loads, waits, compares, sleeps and branches back is spin' '
	stall-annotate --loops poll.attr > out &&
	grep -v "^#" out > actual &&
	printf "poll\t0x1310\t0x1324\t5\t2\t8\t3\t5\t5666\t79.71\t708.25\tmem\tspin\n" > expect &&
	test_cmp expect actual
'

test_expect_success 'iterations are the taken back edges plus the entries, wave by wave' '
	for k in hot calm poll; do
		stall-annotate --loops $k.attr > out &&
		tail=$(awk -F"\t" "!/^#/ { print \$3 }" out) &&
		awk -F"\t" -v t="$tail" "!/^#/ && \$6 == t { n[\$4]++; if (\$9 == \"INST:branch_taken\") b[\$4]++ }
			END { for (w in n) s += b[w] + 1; print s }" $k.attr > expect &&
		awk -F"\t" "!/^#/ { print \$6 }" out > actual &&
		test_cmp expect actual || return 1
	done
'

test_expect_success 'cycles are conserved: loops plus the rest are the kernel, and the rows in the range' '
	for k in hot calm poll; do
		stall-annotate --loops $k.attr > out &&
		awk -F"\t" "\$1 == \"##kernel\" { print \$4, \$8 + \$10 }" out > actual &&
		c=$(cycles $k.attr) && echo "$c $c" > expect &&
		test_cmp expect actual &&
		awk -F"\t" "!/^#/ { print \$9 }" out > expect &&
		range=$(awk -F"\t" "!/^#/ { print \$2, \$3 }" out) &&
		set -- $range &&
		awk -F"\t" -v h=$(($1)) -v t=$(($2)) "!/^#/ && \$6 != \"-\" { cmd = \"printf %d \" \$6; cmd | getline p; close(cmd); if (p >= h && p <= t) s += \$13 }
			END { print s }" $k.attr > actual &&
		test_cmp expect actual || return 1
	done
'

test_expect_success SHARED 'the tinygrad GEMM: the loop at 0x17c8 (branch target 0x17c4), 16 iterations a wave' '
	sqtt-dump "$FIXTURES/20260305_profile_gemm_run_0_b6d1936.pkl" > gemm.packets &&
	sqtt-walk gemm.packets > gemm.rows &&
	stall-attr gemm.rows > gemm.attr &&
	stall-annotate --loops gemm.attr > out &&
	cat > expect <<-\EOF &&
	##stall-annotate	loops
	#kernel	head	tail	insts	waves	iterations	min	max	cycles	percent	per_iteration	cause	spin
	##kernel	r_2_8_16_4_4_16_4	cycles	36919	loops	1	in loops	31684	rest	5235
	r_2_8_16_4_4_16_4	0x17c4	0x1954	87	2	32	16	16	31684	85.82	990.12	mem	-
	EOF
	test_cmp expect out &&
	stall-annotate --annotate gemm.attr > ann &&
	grep -c "0x17c4 .*s_delay_alu" ann > actual && echo 1 > expect && test_cmp expect actual &&
	grep "0x1954 " ann | grep -c "s_cbranch_scc0 0x17c4   <- loop back edge to 0x17c4: 32 iterations in 2 waves" > actual &&
	test_cmp expect actual
'

test_done
