#!/bin/sh
# t0820-annotate-loops: stall-annotate --loops: innermost loops from backward branches with
# their exact iteration counts, a poll loop flagged spin, cycles conserved; and the loop of
# the tinygrad GEMM capture (16 iterations a wave).
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/annotate-lib.sh"

test_expect_success 'the rows of hot, calm and poll' '
	rows_of hot && rows_of calm && rows_of poll
'

# The expectations are worked out from the walk alone by tests/lib/waits-model.awk: a loop
# is a branch whose next issue is at or before it, its head the branch's target, its
# iterations the tail's issues wave by wave, its cycles the deltas of the rows inside.
# The authored traces run hot's loop 4 times in each of 2 waves, calm's 3, poll's 3 and 5.
# cause is stall-attr's (the dominant cause of the rows inside), not the model's.
loops_vs_model() {	# KERNEL: stall-annotate --loops against the model, every column but cause
	rows_records $1.attr > $1.rec &&
	model kernel $1.rec > $1.kernel &&
	c=$(cut -f2 $1.kernel) &&
	model loops $1.rec | awk -F"\t" -v OFS="\t" -v c=$c "{ print \$1, \$2, \$3, \$4, \$5, \$6, \$7, \$8, \$9, sprintf(\"%.2f\", 100 * \$9 / c), \$10, \$11 }" > $1.model-loops &&
	awk -F"\t" -v OFS="\t" -v c=$c "{ n++; s += \$9 } END { print \"##kernel\", \$1, \"cycles\", c, \"loops\", n, \"in loops\", s, \"rest\", c - s }" $1.model-loops > expect &&
	cat $1.model-loops >> expect &&
	stall-annotate --loops $1.attr > out &&
	grep -v "^#kernel" out | grep -v "^##stall-annotate" | cut -f1-11,13 > actual &&
	test_cmp expect actual
}

test_expect_success 'hot: the counted loop, 4 iterations in each of 2 waves' '
	loops_vs_model hot &&
	cut -f2-8 hot.model-loops > actual &&
	printf "0x1354\t0x1360\t4\t2\t8\t4\t4\n" > expect &&
	test_cmp expect actual &&
	stall-annotate --loops hot.attr | head -n 2 > actual &&
	printf "##stall-annotate\tloops\n#kernel\thead\ttail\tinsts\twaves\titerations\tmin\tmax\tcycles\tpercent\tper_iteration\tcause\tspin\n" > expect &&
	test_cmp expect actual
'

test_expect_success 'calm: 3 iterations a wave of a loop that loads, waits and computes: not spin, mem' '
	loops_vs_model calm &&
	cut -f6-8,12 calm.model-loops > actual &&
	printf "6\t3\t3\t-\n" > expect && test_cmp expect actual &&
	grep -v "^#" out | cut -f12 > actual && echo mem > expect && test_cmp expect actual
'

test_expect_success 'poll: a loop that loads, waits, compares, sleeps and branches back is spin' '
	loops_vs_model poll &&
	cut -f6-8,12 poll.model-loops > actual &&
	printf "8\t3\t5\tspin\n" > expect && test_cmp expect actual
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

# AMD's walk of the GEMM: its back edge at 0x1954 to 0x17c4 (an s_delay_alu, which
# issues nothing: 84 of the loop's 87 instructions issue), 16 iterations a wave
test_expect_success SHARED 'the tinygrad GEMM: the loop at 0x17c4, 16 iterations a wave, as AMD'"'"'s walk has it' '
	sqtt-dump "$FIXTURES/20260305_profile_gemm_run_0_b6d1936.pkl" > gemm.packets &&
	sqtt-walk gemm.packets > gemm.rows &&
	stall-attr gemm.rows > gemm.attr &&
	gzip -dc "$GOLDEN/20260305_profile_gemm_run_0_b6d1936.amd.tsv.gz" > gemm.amd &&
	amd_records gemm.attr gemm.amd > gemm.rec &&
	model kernel gemm.rec > gemm.kernel &&
	c=$(cut -f2 gemm.kernel) &&
	model loops gemm.rec | awk -F"\t" -v OFS="\t" -v c=$c "{ print \$1, \$2, \$3, \$5, \$6, \$7, \$8, \$9, sprintf(\"%.2f\", 100 * \$9 / c), \$10, \$11 }" > expect &&
	stall-annotate --loops gemm.attr > out &&
	grep -v "^#" out | cut -f1-3,5-11,13 > actual &&
	test_cmp expect actual &&
	awk -F"\t" "\$1 == \"##kernel\" { print \$4, \$8 }" out > actual &&
	echo "$c $(cut -f8 expect)" > expect && test_cmp expect actual &&
	grep -v "^#" out | cut -f2,3,6 > actual && printf "0x17c4\t0x1954\t32\n" > expect && test_cmp expect actual &&
	stall-annotate --annotate gemm.attr > ann &&
	grep -c "0x17c4 .*s_delay_alu" ann > actual && echo 1 > expect && test_cmp expect actual &&
	grep "0x1954 " ann | grep -c "s_cbranch_scc0 0x17c4   <- loop back edge to 0x17c4: 32 iterations in 2 waves" > actual &&
	test_cmp expect actual
'

test_done
