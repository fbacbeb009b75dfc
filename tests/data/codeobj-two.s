// Two gfx1100 kernels for t0210-codeobj.sh's entry checks: "first" starts .text, but
// "second"'s kernel descriptor comes first in .rodata (and the symbol table), so with no
// kernel named the entry is second's, not the start of .text.
	.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"
	.amdhsa_code_object_version 5

	.text
	.globl	first
	.p2align	8
	.type	first,@function
first:
	v_mov_b32_e32 v0, 1
	s_endpgm
.Lfirst_end:
	.size	first, .Lfirst_end-first

	.globl	second
	.p2align	8
	.type	second,@function
second:
	v_mov_b32_e32 v0, 2
	s_endpgm
.Lsecond_end:
	.size	second, .Lsecond_end-second

	.rodata
	.p2align	6
	.amdhsa_kernel second
		.amdhsa_next_free_vgpr 1
		.amdhsa_next_free_sgpr 1
	.end_amdhsa_kernel

	.p2align	6
	.amdhsa_kernel first
		.amdhsa_next_free_vgpr 1
		.amdhsa_next_free_sgpr 1
	.end_amdhsa_kernel
