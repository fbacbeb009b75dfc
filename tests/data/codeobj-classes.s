// Every class codeobj knows, one or more instructions each, for t0210-codeobj.sh (not a
// kernel: assembled only, never linked or run).
	.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"
	.text
	.globl f
	.type f,@function
f:
	v_rcp_f64_e32 v[0:1], v[2:3]
	v_sqrt_f32_e64 v0, v1
	v_rcp_iflag_f32 v0, v1
	v_sin_f16 v0, v1
	v_mad_u64_u32 v[0:1], null, v2, v3, v[4:5]
	v_add_f64 v[0:1], v[2:3], v[4:5]
	v_cvt_f32_f64 v0, v[2:3]
	v_cmpx_gt_f64 v[0:1], v[2:3]
	v_ashrrev_i64 v[0:1], 2, v[2:3]
	v_lshrrev_b64 v[0:1], 2, v[2:3]
	v_interp_p10_f32 v0, v1, v2, v3
	v_pk_fma_f16 v0, v1, v2, v3
	v_readfirstlane_b32 s0, v0
	s_and_saveexec_b32 s0, vcc_lo
	s_or_saveexec_b64 s[0:1], s[2:3]
	s_sendmsg sendmsg(MSG_DEALLOC_VGPRS)
	s_setpc_b64 s[0:1]
	s_swappc_b64 s[0:1], s[2:3]
	s_getpc_b64 s[0:1]
	s_waitcnt_depctr 0xfffe
	s_nop 3
	s_sleep 1
	s_set_inst_prefetch_distance 0x3
	s_waitcnt 0
	s_waitcnt expcnt(0)
	s_waitcnt vmcnt(63) expcnt(7) lgkmcnt(63)
	s_waitcnt_vmcnt null, 0x3f
	s_waitcnt_lgkmcnt null, 0x3e
	s_branch 0
	s_cbranch_vccnz -1
	s_load_b32 s0, s[0:1], 0x0
	s_buffer_load_b32 s0, s[0:3], 0x0
	s_dcache_inv
	buffer_load_b32 v0, off, s[0:3], 0
	buffer_store_b32 v0, off, s[0:3], 0
	buffer_atomic_add_u32 v0, off, s[0:3], 0 glc
	buffer_gl0_inv
	flat_load_b32 v0, v[0:1]
	flat_store_b32 v[0:1], v0
	scratch_load_b32 v0, off, off
	scratch_store_b32 off, v0, off
	flat_atomic_add_u32 v0, v[0:1], v2 glc
	image_load v0, v0, s[0:7] dmask:0x1 dim:SQ_RSRC_IMG_1D
	ds_add_u32 v0, v1
	ds_read_b32 v0, v1
	ds_bpermute_b32 v0, v1, v2
	s_trap 2
	s_endpgm_saved
	s_setprio 1
	s_icache_inv
	s_mov_b32 exec_lo, s0
	exp mrt0 v0, v0, v0, v0
	.long 0			// v_illegal to LLVM: unknown
