#!/bin/sh
# stall-attr: costs and causes of hand-written row streams (tests/data/rows-*.tsv).
. "$(dirname "$0")/lib.sh"
DATA="$TOP/tests/data"

# Expected streams are written with '|' for a tab, to keep them readable here.
tabs() { tr '|' '\t'; }

test_expect_success 'memory waits, dependencies, a barrier, fetch, drain' '
	stall-attr "$DATA/rows-mem.tsv" >actual &&
	tabs >expect <<\EOF &&
##capture|hand-written: memory waits, dependencies, a barrier, fetch
##stall-attr|cause|cost is the row'"'"'s delta, but the wait after an s_barrier is moved onto it (the next row keeps 1 cycle)
#event|se|kernel|wave|slot|pc|time|delta|token|inst|class|dep|cost|cause|retired|cost2|cause2
0|0|k_mem|0|0|0x100|1000|100|INST:smem_rd|s_load_b64 s[2:3], s[0:1], 0x0|smem|-|100|wave_start|-|0|-
0|0|k_mem|0|0|0x104|1001|1|VALU_INST|v_mov_b32_e32 v0, 0|valu|-|1|issue_cycle|-|0|-
0|0|k_mem|0|0|0x108|1002|1|INST:sgmem_rd_1|global_load_b32 v1, v0, s[2:3]|global_load|-|1|issue_cycle|-|0|-
0|0|k_mem|0|0|0x110|1010|8|IMM_ONE|s_waitcnt lgkmcnt(0)|waitcnt|-|8|smem|0x100@1000|0|-
0|0|k_mem|0|0|0x114|1011|1|INST:sgmem_rd_1|global_load_b32 v2, v0, s[2:3] offset:4|global_load|-|1|issue_cycle|-|0|-
0|0|k_mem|0|0|0x11c|1400|389|IMM_ONE|s_waitcnt vmcnt(0)|waitcnt|-|389|mem|0x108@1002,0x114@1011|0|-
0|0|k_mem|0|0|0x120|1401|1|INST:lds_wr_1|ds_store_b32 v0, v1|lds_store|-|1|issue_cycle|-|0|-
0|0|k_mem|0|0|0x124|1402|1|INST:lds_rd|ds_load_b32 v2, v0 offset:4|lds_load|-|1|issue_cycle|-|0|-
0|0|k_mem|0|0|0x128|1430|28|IMM_ONE|s_waitcnt lgkmcnt(0)|waitcnt|-|28|lds|0x120@1401,0x124@1402|0|-
0|0|k_mem|0|0|0x12c|1431|1|INST:smem_rd|s_load_b32 s4, s[0:1], 0x8|smem|-|1|issue_cycle|-|0|-
0|0|k_mem|0|0|0x134|1432|1|INST:lds_rd|ds_load_b32 v3, v0 offset:8|lds_load|-|1|issue_cycle|-|0|-
0|0|k_mem|0|0|0x138|1500|68|IMM_ONE|s_waitcnt lgkmcnt(0)|waitcnt|-|68|smem+lds|0x12c@1431,0x134@1432|0|-
0|0|k_mem|0|0|0x13c|1501|1|VALU_INST|v_add_f32_e32 v1, v1, v2|valu|-|1|issue_cycle|-|0|-
0|0|k_mem|0|0|0x140|1506|5|VALU_INST|v_mul_f32_e32 v1, v1, v3|valu|VALU_DEP_1|5|valu_dep|-|0|-
0|0|k_mem|0|0|0x144|1507|1|INST:barrier|s_barrier|barrier|-|300|barrier|-|0|-
0|0|k_mem|0|0|0x148|1807|300|VALU_INST|v_add_f32_e32 v1, v1, v1|valu|-|1|issue_cycle|-|0|-
0|0|k_mem|0|0|0x14c|1808|1|INST:branch_taken|s_branch 12|branch|-|1|issue_cycle|-|0|-
0|0|k_mem|0|0|0x180|1820|12|VALU_INST|v_add_f32_e32 v1, v1, v3|valu|-|12|fetch|-|0|-
0|0|k_mem|0|0|0x184|1821|1|INST:sgmem_wr_1|global_store_b32 v0, v1, s[2:3]|global_store|-|1|issue_cycle|-|0|-
0|0|k_mem|0|0|0x18c|1830|9|INST:sgmem_rd_1|global_load_b32 v4, v0, s[2:3] offset:8|global_load|-|9|vmem_issue|-|0|-
0|0|k_mem|0|0|0x194|1831|1|INST:lds_rd|ds_load_b32 v5, v0|lds_load|-|1|issue_cycle|-|0|-
0|0|k_mem|0|0|0x198|1840|9|INST:lds_wr_1|ds_store_b32 v0, v4 offset:12|lds_store|-|9|lds_queue|-|0|-
0|0|k_mem|0|0|0x19c|1841|1|IMM_ONE|s_waitcnt_vscnt null, 0x0|waitcnt|-|1|mem|0x184@1821|0|-
0|0|k_mem|0|0|0x1a0|1842|1|IMM_ONE|s_waitcnt_depctr 0xfffe|depctr|-|1|depctr|-|0|-
0|0|k_mem|0|0|0x1a4|2000|158|WAVE_END|s_endpgm|endpgm|-|158|drain|-|0|-
1|0|k_wait|0|0|0x100|500|200|INST:sgmem_rd_1|global_load_b32 v1, v0, s[2:3]|global_load|-|200|wave_start|-|0|-
1|0|k_wait|0|0|0x108|501|1|INST:sgmem_rd_1|global_load_b32 v2, v0, s[2:3] offset:4|global_load|-|1|issue_cycle|-|0|-
1|0|k_wait|0|0|0x110|700|199|IMM_ONE|s_waitcnt vmcnt(1)|waitcnt|-|199|mem|0x100@500|0|-
1|0|k_wait|0|0|0x114|701|1|IMM_ONE|s_waitcnt vmcnt(1)|waitcnt|-|1|issue_cycle|-|0|-
1|0|k_wait|0|0|0x118|760|59|IMM_ONE|s_waitcnt 0|waitcnt|-|59|mem|0x108@501|0|-
1|0|k_wait|0|0|0x11c|800|40|WAVE_END|s_endpgm|endpgm|-|40|drain|-|0|-
2|1|k_mem|0|3|-|3000|1100|WAVE_END|-|unknown|-|1100|wave_start|-|0|-
EOF
	test_cmp expect actual
'

test_expect_success 'waves of one SIMD interleaving: issue_wait where the other waves'"'"' issues fill half the gap, not where one issue lies in it; the cycles beyond theirs and its own are the next rule'"'"'s (cost2, cause2)' '
	stall-attr "$DATA/rows-interleave.tsv" >actual &&
	tabs >expect <<\EOF &&
##capture|hand-written: three waves of one SIMD interleaving
##stall-attr|cause|cost is the row'"'"'s delta, but the wait after an s_barrier is moved onto it (the next row keeps 1 cycle)
#event|se|kernel|wave|slot|pc|time|delta|token|inst|class|dep|cost|cause|retired|cost2|cause2
0|0|k_two|0|0|0x100|300|200|VALU_INST|v_mov_b32_e32 v0, 0|valu|-|200|wave_start|-|0|-
0|0|k_two|2|2|0x100|301|151|VALU_INST|v_mov_b32_e32 v0, 0|valu|-|151|wave_start|-|0|-
0|0|k_two|1|1|0x100|302|192|VALU_INST|v_mov_b32_e32 v0, 0|valu|-|192|wave_start|-|0|-
0|0|k_two|0|0|0x104|304|4|VALU_INST|v_mov_b32_e32 v1, 1.0|valu|-|4|issue_wait|-|1|unexplained
0|0|k_two|1|1|0x104|305|3|VALU_INST|v_mov_b32_e32 v1, 1.0|valu|-|3|issue_wait|-|1|unexplained
0|0|k_two|1|1|0x108|306|1|VALU_INST|v_add_f32_e32 v2, v0, v1|valu|VALU_DEP_1|1|issue_cycle|-|0|-
0|0|k_two|0|0|0x108|307|3|VALU_INST|v_add_f32_e32 v2, v0, v1|valu|VALU_DEP_1|3|valu_dep|-|0|-
0|0|k_two|0|0|0x10c|311|4|VALU_INST|v_mul_f32_e32 v3, v2, v2|valu|-|4|unexplained|-|0|-
0|0|k_two|1|1|0x10c|311|5|VALU_INST|v_mul_f32_e32 v3, v2, v2|valu|-|5|unexplained|-|0|-
0|0|k_two|0|0|0x110|312|1|INST:valut_4|v_exp_f32_e32 v4, v3|valu_trans|-|4|exec|-|0|-
0|0|k_two|0|0|0x114|320|8|VALU_INST|v_add_f32_e32 v5, v4, v4|valu|TRANS32_DEP_1|5|trans_dep|-|0|-
0|0|k_two|1|1|0x110|321|10|INST:valut_4|v_exp_f32_e32 v4, v3|valu_trans|-|10|unexplained|-|0|-
0|0|k_two|0|0|0x118|322|2|INST:salu|s_add_u32 s0, s0, 1|salu|-|2|issue_wait|-|0|-
0|0|k_two|0|0|0x11c|326|4|INST:salu|s_cmp_eq_u32 s0, 4|salu|SALU_CYCLE_1|4|salu_dep|-|0|-
0|0|k_two|1|1|0x114|328|7|VALU_INST|v_add_f32_e32 v5, v4, v4|valu|TRANS32_DEP_1|7|trans_dep|-|0|-
0|0|k_two|0|0|0x120|329|3|VALU_INST|v_mov_b32_e32 v6, 0|valu|-|3|issue_wait|-|1|unexplained
0|0|k_two|0|0|0x124|340|11|WAVE_END|s_endpgm|endpgm|-|11|drain|-|0|-
0|0|k_two|1|1|0x118|345|17|INST:salu|s_add_u32 s0, s0, 1|salu|-|17|unexplained|-|0|-
0|0|k_two|1|1|0x11c|346|1|INST:salu|s_cmp_eq_u32 s0, 4|salu|SALU_CYCLE_1|1|issue_cycle|-|0|-
0|0|k_two|2|2|0x124|350|49|WAVE_END|s_endpgm|endpgm|-|49|drain|-|0|-
0|0|k_two|1|1|0x120|360|14|VALU_INST|v_mov_b32_e32 v6, 0|valu|-|14|unexplained|-|0|-
0|0|k_two|1|1|0x124|400|40|WAVE_END|s_endpgm|endpgm|-|40|drain|-|0|-
EOF
	test_cmp expect actual
'

test_expect_success 'a barrier is charged the wait of the next row, which keeps 1' '
	stall-attr "$DATA/rows-barrier.tsv" >actual &&
	tabs >expect <<\EOF &&
##stall-attr|cause|cost is the row'"'"'s delta, but the wait after an s_barrier is moved onto it (the next row keeps 1 cycle)
#event|se|kernel|wave|slot|pc|time|delta|token|inst|class|dep|cost|cause|retired|cost2|cause2
0|0|k_bar|0|0|0x100|100|100|VALU_INST|v_mov_b32_e32 v0, 0|valu|-|100|wave_start|-|0|-
0|0|k_bar|1|1|0x100|105|95|VALU_INST|v_mov_b32_e32 v0, 0|valu|-|95|wave_start|-|0|-
0|0|k_bar|0|0|0x104|106|6|INST:barrier|s_barrier|barrier|-|40|barrier|-|0|-
0|0|k_bar|1|1|0x104|120|15|INST:barrier|s_barrier|barrier|-|36|barrier|-|0|-
0|0|k_bar|0|0|0x108|141|35|VALU_INST|v_add_nc_u32_e32 v1, v0, v0|valu|-|1|issue_cycle|-|0|-
0|0|k_bar|1|1|0x108|142|22|VALU_INST|v_add_nc_u32_e32 v1, v0, v0|valu|-|1|issue_cycle|-|0|-
0|0|k_bar|0|0|0x10c|150|9|WAVE_END|s_endpgm|endpgm|-|9|drain|-|0|-
0|0|k_bar|1|1|0x10c|151|9|WAVE_END|s_endpgm|endpgm|-|9|drain|-|0|-
EOF
	test_cmp expect actual
'

test_expect_success '--raw keeps the delta as the cost, causes from the same rules' '
	stall-attr --raw "$DATA/rows-barrier.tsv" >actual &&
	tabs >expect <<\EOF &&
##stall-attr|raw|cost is the row'"'"'s delta
#event|se|kernel|wave|slot|pc|time|delta|token|inst|class|dep|cost|cause|retired|cost2|cause2
0|0|k_bar|0|0|0x100|100|100|VALU_INST|v_mov_b32_e32 v0, 0|valu|-|100|wave_start|-|0|-
0|0|k_bar|1|1|0x100|105|95|VALU_INST|v_mov_b32_e32 v0, 0|valu|-|95|wave_start|-|0|-
0|0|k_bar|0|0|0x104|106|6|INST:barrier|s_barrier|barrier|-|6|barrier|-|0|-
0|0|k_bar|1|1|0x104|120|15|INST:barrier|s_barrier|barrier|-|15|barrier|-|0|-
0|0|k_bar|0|0|0x108|141|35|VALU_INST|v_add_nc_u32_e32 v1, v0, v0|valu|-|35|unexplained|-|0|-
0|0|k_bar|1|1|0x108|142|22|VALU_INST|v_add_nc_u32_e32 v1, v0, v0|valu|-|22|unexplained|-|0|-
0|0|k_bar|0|0|0x10c|150|9|WAVE_END|s_endpgm|endpgm|-|9|drain|-|0|-
0|0|k_bar|1|1|0x10c|151|9|WAVE_END|s_endpgm|endpgm|-|9|drain|-|0|-
EOF
	test_cmp expect actual
'

test_expect_success '--raw: every row of every stream costs its delta' '
	for f in mem interleave barrier; do
		stall-attr --raw "$DATA/rows-$f.tsv" >raw-$f.tsv || return 1
		awk -F"\t" "/^#/ {next} \$8 != \$13 {print FILENAME \": \" \$0; bad = 1}
		    END {exit bad}" raw-$f.tsv || return 1
	done
'

test_expect_success 'cycles are conserved: costs per kernel and per wave add up to the deltas' '
	for f in mem interleave barrier; do
		for v in "" --raw; do
			stall-attr $v "$DATA/rows-$f.tsv" >out.tsv || return 1
			awk -F"\t" "/^#/ {next}
			    {c[\$3] += \$13; d[\$3] += \$8; w = \$1 \" \" \$4; wc[w] += \$13; wd[w] += \$8}
			    END {for (k in c) if (c[k] != d[k]) {print k, c[k], d[k]; bad = 1}
				for (w in wc) if (wc[w] != wd[w]) {print w, wc[w], wd[w]; bad = 1}
				exit bad}" out.tsv || return 1
		done
	done
'

test_expect_success 'a kernel costs the lifetimes of its waves (WAVE_END minus WAVE_START)' '
	stall-attr "$DATA/rows-interleave.tsv" >out.tsv &&
	awk -F"\t" "/^#/ {next}
	    {w = \$1 \" \" \$4; cost += \$13}
	    !(w in start) {start[w] = \$7 - \$8}
	    \$9 == \"WAVE_END\" {life += \$7 - start[w]}
	    END {print cost, life}" out.tsv >actual &&
	echo "730 730" >expect &&
	test_cmp expect actual
'

test_expect_success 'rows come out in input order, their columns unchanged' '
	stall-attr "$DATA/rows-barrier.tsv" "$DATA/rows-interleave.tsv" >out.tsv &&
	grep -v "^#" out.tsv | cut -f1-12 >actual &&
	cat "$DATA/rows-barrier.tsv" "$DATA/rows-interleave.tsv" | grep -v "^#" >expect &&
	test_cmp expect actual
'

test_expect_success 'several inputs: one header line, their ## lines in place' '
	stall-attr "$DATA/rows-barrier.tsv" "$DATA/rows-interleave.tsv" >out.tsv &&
	grep "^#" out.tsv | cut -f1-3 | tabs >actual &&
	tabs >expect <<\EOF &&
##stall-attr|cause|cost is the row'"'"'s delta, but the wait after an s_barrier is moved onto it (the next row keeps 1 cycle)
#event|se|kernel
##capture|hand-written: three waves of one SIMD interleaving
EOF
	test_cmp expect actual
'

test_expect_success 'standard input, with no file or with -' '
	stall-attr "$DATA/rows-barrier.tsv" >expect &&
	stall-attr <"$DATA/rows-barrier.tsv" >actual &&
	test_cmp expect actual &&
	stall-attr - <"$DATA/rows-barrier.tsv" >actual &&
	test_cmp expect actual
'

test_expect_success 'unknown columns are passed through, cost and cause appended' '
	awk -F"\t" -v OFS="\t" "{print \$0, (/^#/ ? \"note\" : \"n\" NR)}" \
	    "$DATA/rows-barrier.tsv" >extra.tsv &&
	stall-attr extra.tsv >out.tsv &&
	sed -n 2p out.tsv | tr "\t" "|" >actual &&
	echo "#event|se|kernel|wave|slot|pc|time|delta|token|inst|class|dep|note|cost|cause|retired|cost2|cause2" >expect &&
	test_cmp expect actual &&
	sed -n 5p out.tsv | cut -f13- | tr "\t" "|" >actual &&
	echo "n4|40|barrier|-|0|-" >expect &&
	test_cmp expect actual
'

test_expect_success 'the row after a barrier keeps its delta when it is under 1' '
	tabs >zero.tsv <<\EOF &&
#event|se|kernel|wave|slot|pc|time|delta|token|inst|class|dep
0|0|k|0|0|0x100|10|10|INST:barrier|s_barrier|barrier|-
0|0|k|0|0|0x104|10|0|VALU_INST|v_mov_b32_e32 v0, 0|valu|-
0|0|k|0|0|0x108|20|10|WAVE_END|s_endpgm|endpgm|-
EOF
	stall-attr zero.tsv >out.tsv &&
	grep -v "^#" out.tsv | cut -f13,14 | tr "\t" "|" >actual &&
	printf "10|wave_start\n0|issue_cycle\n10|drain\n" >expect &&
	test_cmp expect actual
'

test_expect_success 'lgkmcnt(1) retires the oldest: the s_load, not the ds_load' '
	tabs >fifo.tsv <<\EOF &&
#event|se|kernel|wave|slot|pc|time|delta|token|inst|class|dep
0|0|k|0|0|0x100|10|10|INST:smem_rd|s_load_b32 s4, s[0:1], 0x0|smem|-
0|0|k|0|0|0x108|11|1|INST:lds_rd|ds_load_b32 v1, v0|lds_load|-
0|0|k|0|0|0x10c|50|39|IMM_ONE|s_waitcnt lgkmcnt(1)|waitcnt|-
0|0|k|0|0|0x110|60|10|IMM_ONE|s_waitcnt lgkmcnt(1)|waitcnt|-
0|0|k|0|0|0x114|70|10|IMM_ONE|s_waitcnt_lgkmcnt null, 0x0|waitcnt|-
0|0|k|0|0|0x118|80|10|WAVE_END|s_endpgm|endpgm|-
EOF
	stall-attr fifo.tsv >out.tsv &&
	grep -v "^#" out.tsv | cut -f14 >actual &&
	printf "wave_start\nissue_cycle\nsmem\nunexplained\nlds\ndrain\n" >expect &&
	test_cmp expect actual
'

test_expect_success 'missing column: one-line error, exit 2' '
	cut -f1-10,12 "$DATA/rows-barrier.tsv" >nocol.tsv &&
	test_expect_code 2 stall-attr nocol.tsv >out 2>err &&
	test_one_line_error stall-attr err &&
	echo "stall-attr: nocol.tsv:1: no column '"'"'class'"'"'" >expect &&
	test_cmp expect err
'

test_expect_success 'a time that is not a number: one-line error, exit 2' '
	sed "4s/	106	/	1o6	/" "$DATA/rows-barrier.tsv" >badnum.tsv &&
	test_expect_code 2 stall-attr badnum.tsv >out 2>err &&
	test_one_line_error stall-attr err &&
	echo "stall-attr: badnum.tsv:4: time: '"'"'1o6'"'"' is not a number" >expect &&
	test_cmp expect err
'

test_expect_success 'a delta that is not a number, or negative: exit 2' '
	sed "4s/	106	6	/	106	six	/" "$DATA/rows-barrier.tsv" >bad1.tsv &&
	test_expect_code 2 stall-attr bad1.tsv >out 2>err &&
	test_one_line_error stall-attr err &&
	echo "stall-attr: bad1.tsv:4: delta: '"'"'six'"'"' is not a number" >expect &&
	test_cmp expect err &&
	sed "4s/	106	6	/	106	-6	/" "$DATA/rows-barrier.tsv" >bad2.tsv &&
	test_expect_code 2 stall-attr bad2.tsv >out 2>err &&
	echo "stall-attr: bad2.tsv:4: delta: -6 is negative" >expect &&
	test_cmp expect err
'

test_expect_success 'a record with a field missing: exit 2' '
	sed "5s/	-$//" "$DATA/rows-barrier.tsv" >short.tsv &&
	test_expect_code 2 stall-attr short.tsv >out 2>err &&
	test_one_line_error stall-attr err &&
	echo "stall-attr: short.tsv:5: 11 fields, the header names 12" >expect &&
	test_cmp expect err
'

test_expect_success 'no column header line: exit 2' '
	grep -v "^#" "$DATA/rows-barrier.tsv" >nohdr.tsv &&
	test_expect_code 2 stall-attr nohdr.tsv >out 2>err &&
	test_one_line_error stall-attr err &&
	: >empty.tsv &&
	test_expect_code 2 stall-attr empty.tsv >out 2>err &&
	echo "stall-attr: empty.tsv: no '"'"'#'"'"' column header line: not a row stream" >expect &&
	test_cmp expect err
'

test_expect_success 'rows that already have a cost column: exit 2' '
	stall-attr "$DATA/rows-barrier.tsv" >once.tsv &&
	test_expect_code 2 stall-attr once.tsv >out 2>err &&
	test_one_line_error stall-attr err
'

test_expect_success 'a delta that does not match the times: warning, exit 0; --strict: exit 2' '
	sed "7s/	142	22	/	142	23	/" "$DATA/rows-barrier.tsv" >skew.tsv &&
	stall-attr skew.tsv >out 2>err &&
	echo "stall-attr: warning: skew.tsv:7: delta 23 is not the time since the wave'"'"'s previous row (142 - 120)" >expect &&
	test_cmp expect err &&
	test_expect_code 2 stall-attr --strict skew.tsv >out 2>err &&
	test_one_line_error stall-attr err &&
	echo "stall-attr: skew.tsv:7: delta 23 is not the time since the wave'"'"'s previous row (142 - 120)" >expect &&
	test_cmp expect err
'

test_expect_success 'a wave without WAVE_END: warning; a barrier with no next row keeps its delta' '
	head -6 "$DATA/rows-barrier.tsv" >cut.tsv &&
	stall-attr cut.tsv >out 2>err &&
	grep -c "has no WAVE_END row" err >actual &&
	echo 2 >expect &&
	test_cmp expect actual &&
	grep -v "^#" out | cut -f13,14 | tr "\t" "|" >actual &&
	printf "100|wave_start\n95|wave_start\n40|barrier\n15|barrier\n1|issue_cycle\n" >expect &&
	test_cmp expect actual
'

test_expect_success 'usage: -h exits 0, an unknown option exits 2' '
	stall-attr -h >out &&
	grep -q "^usage: stall-attr " out &&
	test_expect_code 2 stall-attr --no-such-option </dev/null >out 2>err &&
	grep -q "^usage: stall-attr " err
'

test_expect_success 'a file that cannot be read: exit 2' '
	test_expect_code 2 stall-attr no-such-file.tsv >out 2>err &&
	test_one_line_error stall-attr err
'

test_expect_success 'negative control: a wrong expectation fails' '
	stall-attr "$DATA/rows-barrier.tsv" >actual &&
	sed "s/	40	barrier	/	41	barrier	/" actual >wrong &&
	! test_cmp wrong actual >/dev/null
'

test_done
