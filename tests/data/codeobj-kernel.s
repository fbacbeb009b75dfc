// A small gfx1100 HSA code object for t0210-codeobj.sh (codeobj_test).
// One kernel, "kern", using every construct the test checks (s_load, global_load,
// waitcnts, s_delay_alu, a transcendental, a 64-bit shift, a backward s_cbranch_scc1
// loop, LDS store/load, s_barrier, VOPD, global_store, atomics with and without return,
// s_waitcnt_vscnt, s_endpgm, then a word that does not decode).
	.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"
	.amdhsa_code_object_version 5

	.text
	.globl	kern
	.p2align	8
	.type	kern,@function
kern:
	s_load_b64 s[0:1], s[0:1], 0x0
	v_lshlrev_b32_e32 v0, 2, v0
	s_mov_b32 s2, 4
	s_waitcnt lgkmcnt(0)
	global_load_b32 v1, v0, s[0:1]
	s_waitcnt vmcnt(0) lgkmcnt(0)
	v_add_f32_e32 v1, 1.0, v1
	s_delay_alu instid0(VALU_DEP_1)
	v_exp_f32_e32 v1, v1
.Lloop:
	s_add_i32 s2, s2, -1
	s_delay_alu instid0(SALU_CYCLE_1) | instskip(NEXT) | instid1(TRANS32_DEP_1)
	s_cmp_lg_u32 s2, 0
	v_mul_f32_e32 v2, v1, v1
	s_cbranch_scc1 .Lloop
	ds_store_b32 v0, v2
	s_waitcnt lgkmcnt(0)
	s_barrier
	ds_load_b32 v3, v0
	v_lshlrev_b64 v[4:5], 2, v[0:1]
	v_dual_mul_f32 v6, v1, v1 :: v_dual_mov_b32 v7, 0
	s_waitcnt lgkmcnt(0)
	global_store_b32 v0, v3, s[0:1]
	global_atomic_add_u32 v0, v3, s[0:1]
	global_atomic_add_u32 v8, v0, v3, s[0:1] glc
	s_waitcnt_vscnt null, 0x0
	s_endpgm
	.long	0xffffffff		// not an instruction: IC_UNKNOWN
	s_code_end
.Lkern_end:
	.size	kern, .Lkern_end-kern

	.rodata
	.p2align	6
	.amdhsa_kernel kern
		.amdhsa_group_segment_fixed_size 256
		.amdhsa_kernarg_size 8
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_next_free_vgpr 9
		.amdhsa_next_free_sgpr 3
	.end_amdhsa_kernel
