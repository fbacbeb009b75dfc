#!/bin/sh
# Issue 20, rule 3: what issue_wait cannot claim gets its cause.  A memory instruction
# right after a VALU that reads the VGPR the VALU wrote, or loads into one it read, waits
# for the VALU (cause valu_dep, with no s_delay_alu: none is emitted for it); one that
# touches nothing of the VALU's keeps vmem_issue.  Authored: fixtures/kernels/valumem.s
# and the trace below.  Real: the lone wave of 20260314_profile_plus_run_0 waits 17
# cycles before the global_store that reads the v1 its v_add wrote; in
# 20260202_profile_gemm_run_0 the 32 such rows cost 17 cycles or more, 751 in all.
. "$(dirname "$0")/lib.sh"

trace() {
	printf '##target\tgfx1100\n##code\tvalumem\t0\t0x10000\t0\t%s\n' "$TOP/fixtures/kernels/valumem.hsaco"
	printf '##event\t0\t0\tvalumem\t0\t1\t0\t0\t0\t-\n'
	printf '#event\tse\tnib\ttime\ttype\twave\tsimd\twgp\tsa\top\traw\n'
	printf '0\t0\t-\t0\tHEADER\t-\t0\t0\t0\t-\t-\n'
	printf '0\t0\t-\t100\tWAVE_START\t0\t0\t0\t0\t-\t-\n'
	printf '0\t0\t-\t600\tVALU_INST\t0\t-\t-\t-\t-\t-\n'		# 0x1300 v_add v1
	printf '0\t0\t-\t617\tINST\t0\t-\t-\t-\tsgmem_wr_1\t-\n'	# 0x1304 store v1
	printf '0\t0\t-\t618\tVALU_INST\t0\t-\t-\t-\t-\t-\n'		# 0x130c v_add v2
	printf '0\t0\t-\t635\tINST\t0\t-\t-\t-\tsgmem_wr_1\t-\n'	# 0x1310 store v3
	printf '0\t0\t-\t636\tVALU_INST\t0\t-\t-\t-\t-\t-\n'		# 0x1318 v_add v4, v5
	printf '0\t0\t-\t654\tINST\t0\t-\t-\t-\tlds_rd\t-\n'		# 0x131c ds_load v5
	printf '0\t0\t-\t700\tWAVE_END\t0\t0\t0\t0\t-\t-\n'
}

test_expect_success 'authored: a store of what the VALU wrote, a load into what it read: valu_dep' '
	trace > valumem.tsv &&
	sqtt-encode -d cap valumem.tsv &&
	sqtt-dump cap | sqtt-walk > rows 2> err &&
	test_cmp /dev/null err &&
	stall-attr rows | grep -v "^#" | cut -f6,10,13,14 > actual &&
	cat > expect <<-\EOF &&
	0x1300	v_add_f32_e32 v1, v0, v0	500	wave_start
	0x1304	global_store_b32 v0, v1, s[0:1]	17	valu_dep
	0x130c	v_add_f32_e32 v2, v0, v0	1	issue_cycle
	0x1310	global_store_b32 v0, v3, s[0:1]	17	vmem_issue
	0x1318	v_add_f32_e32 v4, v5, v5	1	issue_cycle
	0x131c	ds_load_b32 v5, v0	18	valu_dep
	0x1324	s_endpgm	46	drain
	EOF
	test_cmp expect actual
'

b=20260314_profile_plus_run_0_b90bfc1
test_expect_success SHARED "$b: the lone wave's store of the VALU's v1 waits 17, valu_dep" '
	sqtt-dump "$FIXTURES/$b.pkl" | sqtt-walk 2>/dev/null | stall-attr > attr &&
	awk -F"\t" -v OFS="\t" "!/^#/ && \$14 == \"valu_dep\" && \$12 == \"-\" { print \$6, \$10, \$13 }" attr > actual &&
	printf "0x1638\tglobal_store_b32 v0, v1, s[4:5]\t17\n" > expect &&
	test_cmp expect actual
'

b=20260202_profile_gemm_run_0_ccf477c
test_expect_success SHARED "$b: 32 memory rows after the VALU they depend on, 17 cycles or more each" '
	sqtt-dump "$FIXTURES/$b.pkl" | sqtt-walk 2>/dev/null | stall-attr > attr &&
	awk -F"\t" "!/^#/ && \$14 == \"valu_dep\" && \$12 == \"-\" { n++; c += \$13; if (\$13 < 17) low++ } END { print n + 0, c + 0, low + 0 }" attr > actual &&
	echo "32 751 0" > expect &&
	test_cmp expect actual
'

test_done
