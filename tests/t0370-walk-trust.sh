#!/bin/sh
# Issue 20, rule 1: the walker trusts the stream where the lengths are known.
# fixtures/kernels/exec0.s with the authored tests/data/exec0.packets.tsv: an
# s_waitcnt_vmcnt with an SGPR issues as INST salu; once a v_cmpx may have left EXEC zero,
# VALUs that honour EXEC issue as IMM_ONE, those that write an SGPR or ignore it
# (v_readfirstlane, v_add_co_u32, v_mad_u64_u32) as VALUs; a token no rule fits is taken
# by the instruction at the wave's pc when the wave's next token fits after it (wave 1),
# its row kept in time order among the other wave's.  On the real discover_ops capture
# with every VALU token after 1607700 turned into IMM_ONE (what EXEC zero does, without
# the v_cmpx that would say so): 440 misfits, none dropped, no "wrong code object?", the
# same pcs and times as the capture's own walk, s_endpgm at WAVE_END, AMD's walk matched.
. "$(dirname "$0")/lib.sh"

sed "s|	fixtures/kernels/|	$TOP/fixtures/kernels/|" "$TOP/tests/data/exec0.packets.tsv" \
	> "$T_DIR/exec0.tsv"

test_expect_success 'exec0: the rows of both waves, exactly, in time order' '
	sqtt-walk exec0.tsv > rows 2> err &&
	grep -v "^#" rows | cut -f4,6-11 | tr "\t" "|" > actual &&
	cat > expect <<-\EOF &&
	0|0x1300|600|500|INST:smem_rd|s_load_b32 s2, s[0:1], null|smem
	1|0x1300|601|499|INST:smem_rd|s_load_b32 s2, s[0:1], null|smem
	0|0x1308|603|3|IMM_ONE|s_waitcnt lgkmcnt(0)|waitcnt
	1|0x1308|604|3|IMM_ONE|s_waitcnt lgkmcnt(0)|waitcnt
	0|0x130c|606|3|INST:salu|s_waitcnt_vmcnt s2, 0x0|waitcnt
	1|0x130c|607|3|INST:salu|s_waitcnt_vmcnt s2, 0x0|waitcnt
	0|0x1310|609|3|VALU_INST|v_mov_b32_e32 v0, 0|valu
	1|0x1310|610|3|IMM_ONE|v_mov_b32_e32 v0, 0|valu
	0|0x1314|612|3|INST:valu1_wr_exec|v_cmpx_eq_u32_e32 1, v0|valu_cmpx
	1|0x1314|613|3|INST:valu1_wr_exec|v_cmpx_eq_u32_e32 1, v0|valu_cmpx
	0|0x1318|615|3|IMM_ONE|v_add_nc_u32_e32 v1, v0, v0|valu
	1|0x1318|616|3|VALU_INST|v_add_nc_u32_e32 v1, v0, v0|valu
	0|0x131c|618|3|IMM_ONE|v_mul_f32_e32 v2, v0, v0|valu
	1|0x131c|619|3|VALU_INST|v_mul_f32_e32 v2, v0, v0|valu
	0|0x1320|621|3|VALU_INST|v_readfirstlane_b32 s3, v0|valu
	1|0x1320|622|3|VALU_INST|v_readfirstlane_b32 s3, v0|valu
	0|0x1324|624|3|VALU_INST|v_add_co_u32 v3, vcc_lo, v0, v0|valu
	1|0x1324|625|3|VALU_INST|v_add_co_u32 v3, vcc_lo, v0, v0|valu
	0|0x132c|627|3|INST:valub_4|v_mad_u64_u32 v[4:5], null, v0, v0, 0|valu_mad64
	1|0x132c|628|3|INST:valub_4|v_mad_u64_u32 v[4:5], null, v0, v0, 0|valu_mad64
	0|0x1334|630|3|IMM_ONE|v_mov_b32_e32 v6, 1|valu
	1|0x1334|631|3|VALU_INST|v_mov_b32_e32 v6, 1|valu
	0|0x1338|633|3|INST:salu|s_mov_b32 exec_lo, -1|salu
	1|0x1338|634|3|INST:salu|s_mov_b32 exec_lo, -1|salu
	0|0x133c|636|3|VALU_INST|v_mov_b32_e32 v7, 2|valu
	1|0x133c|637|3|VALU_INST|v_mov_b32_e32 v7, 2|valu
	0|0x1340|639|3|VALU_INST|v_mov_b32_e32 v8, 3|valu
	1|0x1340|640|3|VALU_INST|v_mov_b32_e32 v8, 3|valu
	0|0x1344|642|3|IMM_ONE|s_waitcnt_vscnt null, 0x0|waitcnt
	1|0x1344|643|3|IMM_ONE|s_waitcnt_vscnt null, 0x0|waitcnt
	0|0x1348|800|158|WAVE_END|s_endpgm|endpgm
	1|0x1348|820|177|WAVE_END|s_endpgm|endpgm
	EOF
	test_cmp expect actual
'

test_expect_success 'exec0: one warning, for the token no rule fits, taken by its instruction' '
	cat > expect <<-\EOF &&
	sqtt-walk: warning: event 0 wave 1 (slot 1): IMM_ONE at time 610 does not fit pc 0x1310 (v_mov_b32_e32 v0, 0); taken by that instruction (the next token fits after it)
	sqtt-walk: 1 warning
	EOF
	test_cmp expect err
'

test_expect_success 'exec0: an IMM_ONE at a VALU that writes an SGPR is no fit, EXEC zero or not' '
	awk -F"\t" -v OFS="\t" "\$4 == 621 { \$5 = \"IMM_ONE\" } 1" exec0.tsv > sgpr.tsv &&
	sqtt-walk sgpr.tsv > rows.sgpr 2> err.sgpr &&
	grep -c "IMM_ONE at time 621 does not fit pc 0x1320 (v_readfirstlane_b32 s3, v0); taken by that instruction" err.sgpr
'

test_expect_success SHARED 'discover_ops, VALU tokens turned IMM_ONE: walked as the capture, none dropped' '
	b=20260314_profile_ops_run_0_c2d10d8 &&
	sqtt-dump "$FIXTURES/$b.pkl" > ops.tsv &&
	sqtt-walk ops.tsv > rows.ops 2> /dev/null &&
	awk -F"\t" -v OFS="\t" "!/^#/ && \$5 == \"VALU_INST\" && \$4 > 1607700 { \$5 = \"IMM_ONE\" } 1" \
		ops.tsv > imm.tsv &&
	test "$(grep -c "	IMM_ONE	" imm.tsv)" -eq 443 &&
	sqtt-walk imm.tsv > rows.imm 2> err.imm &&
	tail -n 1 err.imm > n && echo "sqtt-walk: 440 warnings" > expect && test_cmp expect n &&
	! grep "dropped\|wrong code object" err.imm &&
	grep -v "^#" rows.ops | cut -f6,7,10 > pcs.ops &&
	grep -v "^#" rows.imm | cut -f6,7,10 > pcs.imm &&
	test_cmp pcs.ops pcs.imm &&
	grep -v "^#" rows.imm | tail -n 1 | cut -f6,9,10 > last &&
	printf "0x1788\tWAVE_END\ts_endpgm\n" > expect && test_cmp expect last &&
	zcat "$GOLDEN/$b.amd.tsv.gz" > amd &&
	awk -f "$TOP/tests/lib/amd-walk.awk" amd rows.imm
'

test_done
