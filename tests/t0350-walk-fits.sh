#!/bin/sh
# The walker's placing rules on fixtures/kernels/fits.s, one instruction each, with the
# authored stream tests/data/fits.packets.tsv: the s_load tokens after an s_clause are
# placed past it; an INST trap token fits s_trap; an INST lds_other_simd_6 token (another
# SIMD's LDS issue) is skipped, as every *_other_simd_* one; a misfit VALU token whose
# next token fits at its pc is dropped, with a warning.  Inline: a token whose next one
# fits after an instruction further on is resynchronised there (the instructions between
# emitted nothing), but never past a branch: there the instruction at the pc takes it.
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
	sqtt-walk: 1 warning
	EOF
	test_cmp expect err
'

test_expect_success 'without the misfit, no warning at all' '
	grep -v "	815	VALU_INST	" fits.tsv > clean.tsv &&
	sqtt-walk clean.tsv > rows.clean 2> err.clean &&
	test_cmp /dev/null err.clean &&
	test "$(grep -vc "^#" rows.clean)" -eq 17
'

test_expect_success 'a token that fits further on: resynchronised within the block, never past a branch' '
	{ printf "##target\tgfx1100\n##code\tfits\t0\t0x10000\t0\t$TOP/fixtures/kernels/fits.hsaco\n"
	  printf "##event\t0\t0\tfits\t0\t1\t0\t0\t0\t-\n#event\tse\tnib\ttime\ttype\twave\tsimd\twgp\tsa\top\traw\n"
	  printf "0\t0\t-\t0\tHEADER\t-\t0\t0\t0\t-\t-\n"
	  printf "0\t0\t-\t100\tWAVE_START\t0\t0\t0\t0\t-\t-\n0\t0\t-\t101\tWAVE_START\t1\t0\t0\t0\t-\t-\n"
	  for w in 0 1; do printf "0\t0\t-\t60$w\tINST\t$w\t-\t-\t-\tsmem_rd\t-\n0\t0\t-\t61$w\tINST\t$w\t-\t-\t-\tsmem_rd\t-\n"; done
	  # wave 0: the s_waitcnt and s_trap emitted nothing; the s_mov and s_cmp their SALUs
	  printf "0\t0\t-\t700\tINST\t0\t-\t-\t-\tsalu\t-\n0\t0\t-\t702\tINST\t0\t-\t-\t-\tsalu\t-\n"
	  printf "0\t0\t-\t703\tINST\t0\t-\t-\t-\tbranch_taken\t-\n0\t0\t-\t800\tWAVE_END\t0\t0\t0\t0\t-\t-\n"
	  # wave 1: a VALU token at the s_mov fits only the v_mov past the branch: not there
	  printf "0\t0\t-\t701\tIMM_ONE\t1\t-\t-\t-\t-\t-\n0\t0\t-\t704\tINST\t1\t-\t-\t-\ttrap\t-\n"
	  printf "0\t0\t-\t706\tVALU_INST\t1\t-\t-\t-\t-\t-\n0\t0\t-\t810\tWAVE_END\t1\t0\t0\t0\t-\t-\n"
	} > resync.raw &&
	{ grep "^#" resync.raw; grep -v "^#" resync.raw | sort -s -t "	" -k4,4n; } > resync.tsv &&
	sqtt-walk resync.tsv > rows.resync 2> err.resync &&
	grep -v "^#" rows.resync | cut -f4,6,7,9 | tr "\t" "|" > actual &&
	cat > expect <<-\EOF &&
	0|0x1304|600|INST:smem_rd
	1|0x1304|601|INST:smem_rd
	0|0x130c|610|INST:smem_rd
	1|0x130c|611|INST:smem_rd
	0|0x131c|700|INST:salu
	1|0x1314|701|IMM_ONE
	0|0x1320|702|INST:salu
	0|0x1324|703|INST:branch_taken
	1|0x1318|704|INST:trap
	1|0x131c|706|VALU_INST
	0|0x132c|800|WAVE_END
	1|0x1320|810|WAVE_END
	EOF
	test_cmp expect actual &&
	cat > expect <<-\EOF &&
	sqtt-walk: warning: event 0 wave 1 (slot 1): WAVE_END at pc 0x1320 (s_cmp_eq_u32 s6, 0), not an s_endpgm
	sqtt-walk: warning: event 0 wave 0 (slot 0): INST:salu at time 700 does not fit pc 0x1314 (s_waitcnt lgkmcnt(0)); resynchronised further on
	sqtt-walk: warning: event 0 wave 1 (slot 1): VALU_INST at time 706 does not fit pc 0x131c (s_mov_b32 s6, 1); taken by that instruction (its length trusted)
	sqtt-walk: 3 warnings
	EOF
	test_cmp expect err.resync
'

test_done
