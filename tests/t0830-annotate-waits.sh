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

test_expect_success 'stall-attr: the retired column of the waits of hot, wave 0' '
	awk -F"\t" -v OFS="\t" "!/^#/ && \$4 == 0 && \$11 == \"waitcnt\" { print \$6, \$7, \$15 }" hot.attr > actual &&
	cat > expect <<-\EOF &&
	0x1308	800	0x1300@600
	0x1324	1604	0x1314@803,0x131c@804
	0x1338	1609	-
	0x134c	1652	0x133c@1621,0x1344@1622
	EOF
	test_cmp expect actual &&
	awk -F"\t" "!/^#/ && \$11 != \"waitcnt\" && \$15 != \"-\"" hot.attr > other &&
	test_cmp /dev/null other
'

test_expect_success '--waits of hot: each wait names exactly the loads it retired, with latencies' '
	stall-annotate --waits hot.attr > out &&
	cat > expect <<-\EOF &&
	##stall-annotate	waits
	#kernel	wait	load	hits	latency_min	latency_mean	latency_max	caused	inst
	hot	0x1308	0x1300	2	200	200.0	200	400	s_load_b64 s[2:3], s[0:1], null
	hot	0x1324	0x1314	2	701	751.0	801	0	global_load_b32 v1, v0, s[2:3]
	hot	0x1324	0x131c	2	700	750.0	800	1500	global_load_b32 v2, v0, s[2:3] offset:4
	hot	0x1338	-	2	-	-	-	2	(nothing retired)
	hot	0x134c	0x133c	2	31	31.0	31	0	ds_store_b32 v0, v3
	hot	0x134c	0x1344	2	30	30.0	30	60	ds_store_b32 v0, v5 offset:128
	EOF
	test_cmp expect out
'

test_expect_success '--waits of poll: one load, retired 8 times, 600 to 700 cycles after its issue' '
	stall-annotate --waits poll.attr > out &&
	grep "	0x1318	" out > actual &&
	printf "poll\t0x1318\t0x1310\t8\t600\t637.5\t700\t5100\tglobal_load_b32 v1, v0, s[2:3] glc\n" > expect &&
	test_cmp expect actual
'

test_expect_success 'the waits cycles are conserved: caused adds up to each wait, pc by pc' '
	for k in hot calm poll; do
		stall-annotate --waits $k.attr > out &&
		awk -F"\t" "!/^#/ { c[\$2] += \$8 } END { for (p in c) print p, c[p] }" out | sort > actual &&
		awk -F"\t" "!/^#/ && \$11 == \"waitcnt\" { c[\$6] += \$13 } END { for (p in c) print p, c[p] }" $k.attr | sort > expect &&
		test_cmp expect actual || return 1
	done
'

test_expect_success '--wait-rows of hot: every wait row, each operation it retired, how late, how hidden' '
	stall-annotate --wait-rows hot.attr > out &&
	cat > expect <<-\EOF &&
	##stall-annotate	wait-rows
	#kernel	event	wave	wait	time	cost	load	issue	latency	caused	hidden	hidden_valu
	hot	0	0	0x1308	800	200	0x1300	600	200	200	0	0
	hot	0	1	0x1308	1050	200	0x1300	850	200	200	0	0
	hot	0	0	0x1324	1604	800	0x1314	803	801	0	6	1
	hot	0	0	0x1324	1604	800	0x131c	804	800	800	6	1
	hot	0	0	0x1338	1609	1	-	-	-	1	0	0
	hot	0	0	0x134c	1652	30	0x133c	1621	31	0	0	0
	hot	0	0	0x134c	1652	30	0x1344	1622	30	30	0	0
	hot	0	1	0x1324	1754	700	0x1314	1053	701	0	29	10
	hot	0	1	0x1324	1754	700	0x131c	1054	700	700	29	10
	hot	0	1	0x1338	1759	1	-	-	-	1	0	0
	hot	0	1	0x134c	1804	30	0x133c	1773	31	0	0	0
	hot	0	1	0x134c	1804	30	0x1344	1774	30	30	0	0
	EOF
	test_cmp expect out
'

test_expect_success '--wait-rows: each wait row'"'"'s cost is charged once, latency is time minus issue' '
	for k in hot calm poll; do
		stall-annotate --wait-rows $k.attr > out &&
		awk -F"\t" "!/^#/ { c[\$2 \" \" \$3 \" \" \$5] += \$10; k[\$2 \" \" \$3 \" \" \$5] = \$6
			if (\$8 != \"-\" && \$9 != \$5 - \$8) bad = 1 }
			END { for (r in c) if (c[r] != k[r]) bad = 1; exit bad }" out || return 1
	done
'

test_expect_success '--loads of hot: the waits each load caused, and its mean latency' '
	stall-annotate --loads hot.attr > out &&
	cat > expect <<-\EOF &&
	##stall-annotate	loads
	#kernel	load	waits	retired	caused	percent	latency_mean	inst
	hot	0x1300	1	2	400	10.82	200.0	s_load_b64 s[2:3], s[0:1], null
	hot	0x1314	1	2	0	0.00	751.0	global_load_b32 v1, v0, s[2:3]
	hot	0x131c	1	2	1500	40.56	750.0	global_load_b32 v2, v0, s[2:3] offset:4
	hot	0x133c	1	2	0	0.00	31.0	ds_store_b32 v0, v3
	hot	0x1344	1	2	60	1.62	30.0	ds_store_b32 v0, v5 offset:128
	EOF
	test_cmp expect out
'

test_expect_success SHARED 'the tinygrad GEMM: the waits at 0x183c retired the loop'"'"'s first four loads' '
	sqtt-dump "$FIXTURES/20260305_profile_gemm_run_0_b6d1936.pkl" > gemm.packets &&
	sqtt-walk gemm.packets > gemm.rows &&
	stall-attr gemm.rows > gemm.attr &&
	stall-annotate --waits gemm.attr > out &&
	awk -F"\t" "\$2 == \"0x183c\"" out > actual &&
	cat > expect <<-\EOF &&
	r_2_8_16_4_4_16_4	0x183c	0x17dc	32	610	802.8	1719	0	global_load_b128 v[22:25], v[16:17], off
	r_2_8_16_4_4_16_4	0x183c	0x17e4	32	609	801.8	1718	0	global_load_b128 v[26:29], v[16:17], off offset:-256
	r_2_8_16_4_4_16_4	0x183c	0x17ec	32	608	800.8	1717	0	global_load_b128 v[30:33], v[16:17], off offset:-512
	r_2_8_16_4_4_16_4	0x183c	0x17f8	32	604	796.8	1713	24636	global_load_b128 v[34:37], v[46:47], off
	EOF
	test_cmp expect actual &&
	awk -F"\t" "!/^#/ && \$6 == \"0x183c\" && \$4 == 0 && \$7 == 1290461 { print \$15 }" gemm.attr > actual &&
	echo "0x17dc@1288828,0x17e4@1288829,0x17ec@1288830,0x17f8@1288834" > expect &&
	test_cmp expect actual
'

test_done
