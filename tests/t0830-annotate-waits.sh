#!/bin/sh
# t0830-annotate-waits: what each s_waitcnt waited for.  stall-attr's retired column names
# the memory operations a wait retired; stall-annotate --waits and --loads sum them per
# (wait, load) with their latencies; the waits' cycles are conserved.  Also the 0x183c
# waits of the tinygrad GEMM.
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/annotate-lib.sh"

test_expect_success 'the rows of hot, calm and poll' '
	rows_of hot && rows_of calm && rows_of poll
'

# The expectations are worked out from the walk alone by tests/lib/waits-model.awk (the
# counters in issue order, the youngest retired causes the wait), on the authored traces
# of fixtures/annotate (hot: vmcnt waits of 800 and 700 cycles, two ds_stores 30 and 31
# cycles before their wait) and on AMD's walk of the GEMM capture.
test_expect_success 'the model: records of the walks, each wait and what it retired' '
	for k in hot calm poll; do
		rows_records $k.attr > $k.rec &&
		model rows $k.rec > $k.model-rows &&
		model waits $k.rec > $k.model-waits &&
		model kernel $k.rec > $k.model-kernel || return 1
	done &&
	grep -c . hot.model-rows > actual && echo 12 > expect && test_cmp expect actual &&
	awk -F"\t" "\$4 == \"0x1324\" && \$3 == 0 { print \$7, \$9, \$10 }" hot.model-rows > actual &&
	printf "0x1314 801 0\n0x131c 800 800\n" > expect &&
	test_cmp expect actual
'

test_expect_success 'stall-attr: the retired column of every wait is what the counters retired' '
	for k in hot calm poll; do
		awk -F"\t" -v OFS="\t" "{ k = \$2 OFS \$3 OFS \$4 OFS \$5; v = \$7 == \"-\" ? \"-\" : \$7 \"@\" \$8; if (k in r) r[k] = r[k] \",\" v; else r[k] = v }
			END { for (k in r) print k, r[k] }" $k.model-rows | sort > expect &&
		awk -F"\t" -v OFS="\t" "!/^#/ && \$11 == \"waitcnt\" { print \$1, \$4, \$6, \$7, \$15 }" $k.attr | sort > actual &&
		test_cmp expect actual &&
		awk -F"\t" "!/^#/ && \$11 != \"waitcnt\" && \$15 != \"-\"" $k.attr > other &&
		test_cmp /dev/null other || return 1
	done
'

test_expect_success '--waits of hot: each wait names exactly the loads it retired, with latencies' '
	stall-annotate --waits hot.attr > out &&
	printf "##stall-annotate\twaits\n#kernel\twait\tload\thits\tlatency_min\tlatency_mean\tlatency_max\tcaused\tinst\n" > expect &&
	head -n 2 out > actual && test_cmp expect actual &&
	grep -v "^#" out | cut -f1-8 | sort > actual &&
	test_cmp hot.model-waits actual &&
	grep -c . actual > n && echo 6 > expect && test_cmp expect n &&
	awk -F"\t" "\$2 == \"0x1324\" && \$3 == \"0x131c\" { print \$4, \$8 }" actual > got &&
	echo "2 1500" > expect && test_cmp expect got &&
	awk -F"\t" "FNR == 1 { f++ } /^#/ { next } f == 1 { inst[\$6] = \$10; next }
		\$9 != (\$3 == \"-\" ? \"(nothing retired)\" : inst[\$3]) { bad = 1; print } END { exit bad }" hot.attr out
'

test_expect_success '--waits of poll: one load, retired 8 times, 600 to 700 cycles after its issue' '
	stall-annotate --waits poll.attr > out &&
	grep -v "^#" out | cut -f1-8 | sort > actual &&
	test_cmp poll.model-waits actual &&
	awk -F"\t" "\$2 == \"0x1318\" { print \$4, \$5, \$7 }" actual > got &&
	echo "8 600 700" > expect && test_cmp expect got
'

test_expect_success '--waits of calm: every wait, as the model has it' '
	stall-annotate --waits calm.attr > out &&
	grep -v "^#" out | cut -f1-8 | sort > actual &&
	test_cmp calm.model-waits actual
'

test_expect_success 'the waits cycles are conserved: caused adds up to each wait, pc by pc' '
	for k in hot calm poll; do
		stall-annotate --waits $k.attr > out &&
		awk -F"\t" "!/^#/ { c[\$2] += \$8 } END { for (p in c) print p, c[p] }" out | sort > actual &&
		awk -F"\t" "!/^#/ && \$11 == \"waitcnt\" { c[\$6] += \$13 } END { for (p in c) print p, c[p] }" $k.attr | sort > expect &&
		test_cmp expect actual || return 1
	done
'

test_expect_success '--wait-rows: every wait row, each operation it retired, how late, how hidden' '
	for k in hot calm poll; do
		stall-annotate --wait-rows $k.attr > out &&
		grep -v "^#" out | sort > actual &&
		test_cmp $k.model-rows actual || return 1
	done &&
	stall-annotate --wait-rows hot.attr > out &&
	printf "##stall-annotate\twait-rows\n#kernel\tevent\twave\twait\ttime\tcost\tload\tissue\tlatency\tcaused\thidden\thidden_valu\n" > expect &&
	head -n 2 out > actual && test_cmp expect actual
'

test_expect_success '--wait-rows: each wait row'"'"'s cost is charged once, latency is time minus issue' '
	for k in hot calm poll; do
		stall-annotate --wait-rows $k.attr > out &&
		awk -F"\t" "!/^#/ { c[\$2 \" \" \$3 \" \" \$5] += \$10; k[\$2 \" \" \$3 \" \" \$5] = \$6
			if (\$8 != \"-\" && \$9 != \$5 - \$8) bad = 1 }
			END { for (r in c) if (c[r] != k[r]) bad = 1; exit bad }" out || return 1
	done
'

test_expect_success '--loads: the waits each load caused, its share of the kernel, its mean latency' '
	for k in hot calm poll; do
		stall-annotate --loads $k.attr > out &&
		grep -v "^#" out | cut -f1-4,5,7 | sort > actual &&
		model loads $k.rec > expect &&
		test_cmp expect actual &&
		c=$(cut -f2 $k.model-kernel) &&
		awk -F"\t" -v c=$c -v OFS="\t" "{ print \$2, sprintf(\"%.2f\", 100 * \$5 / c) }" expect > pct.expect &&
		grep -v "^#" out | cut -f2,6 | sort > pct.actual &&
		test_cmp pct.expect pct.actual || return 1
	done &&
	stall-annotate --loads hot.attr | head -n 2 > actual &&
	printf "##stall-annotate\tloads\n#kernel\tload\twaits\tretired\tcaused\tpercent\tlatency_mean\tinst\n" > expect &&
	test_cmp expect actual
'

test_expect_success SHARED 'the tinygrad GEMM: the waits at 0x183c retired the loop'"'"'s first four loads, as AMD'"'"'s walk has them; every wait row, hidden cycles too' '
	sqtt-dump "$FIXTURES/20260305_profile_gemm_run_0_b6d1936.pkl" > gemm.packets &&
	sqtt-walk gemm.packets > gemm.rows &&
	stall-attr gemm.rows > gemm.attr &&
	gzip -dc "$GOLDEN/20260305_profile_gemm_run_0_b6d1936.amd.tsv.gz" > gemm.amd &&
	amd_records gemm.attr gemm.amd > gemm.rec &&
	model waits gemm.rec > gemm.model-waits &&
	stall-annotate --waits gemm.attr > out &&
	grep -v "^#" out | cut -f1-8 | sort > actual &&
	test_cmp gemm.model-waits actual &&
	awk -F"\t" "\$2 == \"0x183c\" { print \$3, \$4, \$8 }" actual > got &&
	printf "0x17dc 32 0\n0x17e4 32 0\n0x17ec 32 0\n0x17f8 32 24636\n" > expect &&
	test_cmp expect got &&
	model rows gemm.rec | cut -f1,2,4-12 | sort > expect &&
	stall-annotate --wait-rows gemm.attr | grep -v "^#" | cut -f1,2,4-12 | sort > actual &&
	test_cmp expect actual &&
	model rows gemm.rec | awk -F"\t" "\$4 == \"0x183c\" && \$5 == 1290461 { s = s (s == \"\" ? \"\" : \",\") \$7 \"@\" \$8 } END { print s }" > expect &&
	awk -F"\t" "!/^#/ && \$6 == \"0x183c\" && \$4 == 0 && \$7 == 1290461 { print \$15 }" gemm.attr > actual &&
	test_cmp expect actual
'

test_done
