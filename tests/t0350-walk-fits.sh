#!/bin/sh
# The walker's placing rules on fixtures/kernels/fits.s, one instruction each, with the
# authored stream tests/data/fits.packets.tsv: the s_load tokens after an s_clause are
# placed past it; an INST trap token fits s_trap; an INST lds_other_simd_6 token (another
# SIMD's LDS issue) is skipped, as every *_other_simd_* one; a misfit VALU token is not
# resynchronised past a branch (it is dropped, with a warning).
. "$(dirname "$0")/lib.sh"

sed "s|	fixtures/kernels/|	$TOP/fixtures/kernels/|" "$TOP/tests/data/fits.packets.tsv" \
	> "$T_DIR/fits.tsv"

test_expect_success 'the rows of both waves, exactly' '
	sqtt-walk fits.tsv > rows 2> err &&
	grep -v "^#" rows | cut -f4,6-11 | tr "\t" "|" > actual &&
	cat > expect <<-\EOF &&
	0|0x1304|600|500|INST:smem_rd|s_load_b64 s[2:3], s[0:1], null|smem
	0|0x130c|601|1|INST:smem_rd|s_load_b64 s[4:5], s[0:1], 0x8|smem
	1|0x1304|610|506|INST:smem_rd|s_load_b64 s[2:3], s[0:1], null|smem
	1|0x130c|611|1|INST:smem_rd|s_load_b64 s[4:5], s[0:1], 0x8|smem
	0|0x1314|800|199|IMM_ONE|s_waitcnt lgkmcnt(0)|waitcnt
	0|0x1318|801|1|INST:trap|s_trap 2|imm
	0|0x131c|802|1|INST:salu|s_mov_b32 s6, 1|salu
	0|0x1320|804|2|INST:salu|s_cmp_eq_u32 s6, 0|salu
	0|0x1324|805|1|INST:branch_not_taken|s_cbranch_scc1 1|branch
	0|0x1328|806|1|VALU_INST|v_mov_b32_e32 v0, 1|valu
	1|0x1314|812|201|IMM_ONE|s_waitcnt lgkmcnt(0)|waitcnt
	1|0x1318|813|1|INST:trap|s_trap 2|imm
	1|0x131c|814|1|INST:salu|s_mov_b32 s6, 1|salu
	1|0x1320|816|2|INST:salu|s_cmp_eq_u32 s6, 0|salu
	1|0x1324|817|1|INST:branch_taken|s_cbranch_scc1 1|branch
	0|0x132c|900|94|WAVE_END|s_endpgm|endpgm
	1|0x132c|920|103|WAVE_END|s_endpgm|endpgm
	EOF
	test_cmp expect actual
'

test_expect_success 'one warning: the VALU token at the s_cmp, dropped, not placed past the branch' '
	cat > expect <<-\EOF &&
	sqtt-walk: warning: event 0 wave 1 (slot 1): VALU_INST at time 815 does not fit pc 0x1320 (s_cmp_eq_u32 s6, 0); token dropped
	sqtt-walk: 1 warnings
	EOF
	test_cmp expect err
'

test_expect_success 'without the misfit, no warning at all' '
	grep -v "	815	VALU_INST	" fits.tsv > clean.tsv &&
	sqtt-walk clean.tsv > rows.clean 2> err.clean &&
	test_cmp /dev/null err.clean &&
	test "$(grep -vc "^#" rows.clean)" -eq 17
'

test_done
