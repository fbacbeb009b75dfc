#!/bin/sh
# t0475: the one cycle an issue takes (cause issue_cycle) is kept apart from what no rule
# explains (unexplained): a row of cost 0 or 1 that no earlier rule names is issue_cycle,
# and no unexplained row costs less than 2.  Checked on authored rows (the answer by
# construction) and, with awk over the rows, on the real captures.
. "$(dirname "$0")/lib.sh"
tabs() { tr '|' '\t'; }

test_expect_success 'authored rows: 1 cycle is issue_cycle, 5 unexplained, a wait of nothing at once issue_cycle' '
	tabs >rows.tsv <<\EOF &&
#event|se|kernel|wave|slot|pc|time|delta|token|inst|class|dep
0|0|k|0|0|0x100|10|10|VALU_INST|v_mov_b32_e32 v0, 0|valu|-
0|0|k|0|0|0x104|11|1|VALU_INST|v_mov_b32_e32 v1, 0|valu|-
0|0|k|0|0|0x108|16|5|VALU_INST|v_mov_b32_e32 v2, 0|valu|-
0|0|k|0|0|0x10c|17|1|IMM_ONE|s_waitcnt vmcnt(0)|waitcnt|-
0|0|k|0|0|0x110|20|3|IMM_ONE|s_waitcnt vmcnt(0)|waitcnt|-
0|0|k|0|0|0x114|30|10|WAVE_END|s_endpgm|endpgm|-
EOF
	stall-attr rows.tsv >out.tsv &&
	grep -v "^#" out.tsv | cut -f6,13,14 >actual &&
	tabs >expect <<\EOF &&
0x100|10|wave_start
0x104|1|issue_cycle
0x108|5|unexplained
0x10c|1|issue_cycle
0x110|3|unexplained
0x114|10|drain
EOF
	test_cmp expect actual &&
	stall-table out.tsv >t.tsv &&
	awk -F"\t" "\$2 == \"TOTAL\" { print \$25, \$31 }" t.tsv >tot &&
	echo "8 2" >expect.tot &&
	test_cmp expect.tot tot
'

for f in 20260202_profile_gemm_run_0_ccf477c 20260314_profile_ops_run_0_c2d10d8; do
test_expect_success SHARED "$f: no unexplained row of one cycle; issue_cycle is one cycle a row" '
	stall --rows "$FIXTURES/'$f'.pkl" >rows.tsv 2>/dev/null &&
	awk -F"\t" "
		/^#/ { next }
		\$14 == \"unexplained\" && \$13 < 2 { bad++ }
		\$14 == \"issue_cycle\" { n++; if (\$13 > 1) bad++ }
		END { print n > \"n\"; exit bad > 0 }" rows.tsv &&
	test "$(cat n)" -gt 0
'
done

test_done
