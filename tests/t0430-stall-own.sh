#!/bin/sh
# The profile of the project's own demo capture, whose right answer is known by
# construction (fixtures/traces/demo.packets.tsv chose every wait).
. "$(dirname "$0")/lib.sh"

test_expect_success 'the causes of wave 0 of the demo are the ones its trace was built with' '
	sqtt-dump "$TOP/fixtures/demo" > packets &&
	sqtt-walk packets > rows &&
	stall-attr rows > attr &&
	awk -F"\t" -v OFS="\t" "!/^#/ && \$1 == 0 && \$4 == 0 { print \$6, \$8, \$13, \$14, \$10 }" attr > actual &&
	cat > expect <<-\EOF &&
	0x1300	500	500	wave_start	s_load_b64 s[2:3], s[0:1], null
	0x1308	1	1	issue_cycle	s_load_b64 s[4:5], s[0:1], 0x8
	0x1310	1	1	issue_cycle	v_lshlrev_b32_e32 v0, 2, v0
	0x1314	1	1	issue_cycle	s_mov_b32 s6, 3
	0x1318	197	197	smem	s_waitcnt lgkmcnt(0)
	0x131c	1	1	issue_cycle	global_load_b32 v1, v0, s[2:3]
	0x1324	800	800	mem	s_waitcnt vmcnt(0)
	0x1328	1	1	issue_cycle	v_add_f32_e32 v1, 1.0, v1
	0x1330	5	5	valu_dep	v_mul_f32_e32 v1, v1, v1
	0x1334	1	2	exec	ds_store_b32 v0, v1
	0x133c	30	29	lds	s_waitcnt lgkmcnt(0)
	0x1340	1	959	barrier	s_barrier
	0x1344	959	1	issue_cycle	ds_load_b32 v2, v0
	0x134c	32	32	lds	s_waitcnt lgkmcnt(0)
	0x1350	1	1	issue_cycle	v_add_f32_e32 v2, v2, v1
	0x1354	1	1	issue_cycle	s_add_i32 s6, s6, -1
	0x1358	1	1	issue_cycle	s_cmp_lg_u32 s6, 0
	0x135c	1	1	issue_cycle	s_cbranch_scc1 65532
	0x1350	6	6	issue_wait	v_add_f32_e32 v2, v2, v1
	0x1354	1	1	issue_cycle	s_add_i32 s6, s6, -1
	0x1358	1	1	issue_cycle	s_cmp_lg_u32 s6, 0
	0x135c	1	1	issue_cycle	s_cbranch_scc1 65532
	0x1350	6	6	issue_wait	v_add_f32_e32 v2, v2, v1
	0x1354	1	1	issue_cycle	s_add_i32 s6, s6, -1
	0x1358	1	1	issue_cycle	s_cmp_lg_u32 s6, 0
	0x135c	1	1	issue_cycle	s_cbranch_scc1 65532
	0x1360	8	8	issue_wait	v_exp_f32_e32 v2, v2
	0x1364	1	2	exec	global_store_b32 v0, v2, s[4:5]
	0x136c	300	299	drain	s_endpgm
	EOF
	test_cmp expect actual
'

test_expect_success '--raw keeps each delta as the cost, row for row' '
	stall-attr --raw rows > raw &&
	awk -F"\t" "!/^#/ && \$8 != \$13 { print; bad = 1 } END { exit bad }" raw &&
	grep -vc "^#" attr > n.cause &&
	grep -vc "^#" raw > n.raw &&
	test_cmp n.cause n.raw &&
	awk -F"\t" "!/^#/ && \$6 == \"0x1344\" && \$4 == 0 { print \$13 }" raw > actual &&
	echo 959 > expect &&
	test_cmp expect actual
'

# The demo's lifetimes by construction (fixtures/traces/demo.packets.tsv): its traced waves
# 2861 + 2864 + 2069, the itrace-off event's 2721, the waves on SIMD 1 2801 + 2852 + 2736.
test_expect_success 'cycles are conserved per kernel in both views, against the lifetimes' '
	sqtt-dump --types HEADER,WAVE_START,WAVE_END "$TOP/fixtures/demo" >stage57.0.out &&
	awk -f "$TOP/tests/lib/lifetimes.awk" stage57.0.out | awk "{ life += \$3 } END { print life }" > lifetimes &&
	echo 18904 > expect && test_cmp expect lifetimes &&
	awk -F"\t" "!/^#/ { c += \$13 } END { print c }" attr > cause.sum &&
	awk -F"\t" "!/^#/ { c += \$13 } END { print c }" raw > raw.sum &&
	test_cmp lifetimes cause.sum &&
	test_cmp lifetimes raw.sum
'

test_expect_success 'the table: totals by cause add up; the barrier wait is on s_barrier' '
	stall-table --untraced attr > table &&
	awk -F"\t" "\$2 == \"TOTAL\" { print \$4 }" table > total &&
	test_cmp lifetimes total &&
	awk -F"\t" "\$2 == \"0x1340\" { print \$6, \$4 }" table > actual &&
	echo "barrier 2021" > expect &&
	test_cmp expect actual
'

test_expect_success 'stall on the demo: the top three, by construction' '
	stall --tsv -n 3 "$TOP/fixtures/demo" > top &&
	grep -v "^#" top | cut -f2,4,6 > actual &&
	printf "0x1324\t2445\tmem\n0x1340\t2021\tbarrier\n0x1318\t594\tsmem\n-\t1506\twave_start\n-\t903\tdrain\nTOTAL\t7794\tmem\n" > expect &&
	test_cmp expect actual
'

test_expect_success 'a packet stream dumped in one directory walks in another' '
	(cd "$TOP" && sqtt-dump fixtures/demo) > rel.packets &&
	mkdir -p elsewhere && cd elsewhere &&
	sqtt-walk ../rel.packets > ../rel.rows 2> ../rel.err &&
	cd .. && test_cmp /dev/null rel.err &&
	grep -v "^##" rows > expect && grep -v "^##" rel.rows > actual &&
	test_cmp expect actual
'

test_expect_success 'stall on bad input: one line, exit 2' '
	printf "not a capture\n" > bad.pkl &&
	test_expect_code 2 stall bad.pkl > out 2> err &&
	test_one_line_error stall err &&
	grep -q "bad.pkl: not a pickle" err &&
	test_cmp /dev/null out
'

test_done
