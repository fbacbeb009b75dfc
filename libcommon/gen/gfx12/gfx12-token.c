/* gfx12 (RDNA4, HEADER version 4): what its tokens change from gfx11's (sqtt-gfx12.md
 * sections 2-4, from AMD's gfx12 token table and INST op list). */
#include <stdio.h>

#include "token.h"

enum sqtt_unit
gfx12_op_unit(int op)
{
	if ((op >= 10 && op <= 15) || op == 18 || (op >= 140 && op <= 143) || op == 146 ||
	    op == 147 || op == 153)
		return SQTT_UNIT_VALU;
	if (op == 28 || op == 33 || op == 34 || op == 47 || op == 48)
		return SQTT_UNIT_VMEM_RD;
	if ((op >= 29 && op <= 32) || (op >= 35 && op <= 40) || (op >= 49 && op <= 54) ||
	    op >= 222)
		return SQTT_UNIT_VMEM_WR;
	if ((op >= 41 && op <= 46) || op == 110 || op == 111 || op == 118 || op == 121)
		return SQTT_UNIT_LDS;
	if (op >= 55 && op <= 78)
		return SQTT_UNIT_IMAGE;
	if ((op >= 80 && op <= 89) || op == 119 || op == 120 || (op >= 188 && op <= 221))
		return SQTT_UNIT_OTHER_SIMD;
	return SQTT_UNIT_NONE;
}

/* The numbered families, named as AMD names them.  The ops left unnamed (printed 0x..)
 * are named by no public source: sqtt-dump(1) lists them. */
static char other_simd[34][24], block_store[34][20];

void
gfx12_tokens(struct sqtt_gen *g)
{
	static const struct { unsigned op; const char *name; } named[] = {
		{ 19, "barrier_wait" }, { 120, "lds_other_simd_10" }, { 121, "lds_bvh_10" },
		{ 122, "barrier_signal" }, { 135, "dyn_vgpr" }, { 136, "try_lock" },
		{ 137, "unlock" }, { 138, "barrier_join" }, { 140, "wmma8" }, { 141, "wmma16" },
		{ 142, "wmma32" }, { 143, "wmma64" }, { 146, "valu_dpfp" },
		{ 147, "valu_derate" }, { 150, "icpref" }, { 151, "kcpref" },
		{ 152, "salu_float3" }, { 153, "valu_scl_trans" }, { 155, "salu2" },
		{ 156, "salu5" },
	};
	/* gone on gfx12: valub_dfdp*, subv_loop_*, and the other-SIMD VMEM ops 90-101,
	 * which moved to 188-221 */
	static const unsigned gone[] = { 16, 17, 112, 113 };
	size_t i;

	g->name = "gfx12";
	g->version = 4;
	g->header = 0x0913100868700211ULL;	/* an RX 9070's, exclude_barrier_wait set */
	g->types[TOK_INST] = (struct sqtt_typeinfo){ 0x02, 3, 20, 3, 6 };
	g->types[TOK_SHADER_DATA] = (struct sqtt_typeinfo){ 0x06, 7, 56, 7, 10 };
	g->types[TOK_SHADER_DATA_SHORT] = (struct sqtt_typeinfo){ 0x46, 7, 32, 7, 10 };
	g->types[TOK_EXEC_POPCOUNT1] = (struct sqtt_typeinfo){ 0x66, 7, 24, 7, 10 };
	g->types[TOK_EXEC_POPCOUNT3] = (struct sqtt_typeinfo){ 0x16, 6, 48, 6, 9 };
	g->types[TOK_NEW_PC].bits = 72;
	g->types[TOK_WAVE_START_EXT].bits = 40;
	g->types[TOK_WAVE_ALLOC].bits = 24;
	g->types[TOK_TIMESTAMP].bits = 64;
	g->start_ext_more = 1;
	g->ts_rt = 7;
	g->ts_pl = 8;
	g->ts_value = (struct sqtt_bits){ 12, 64 };
	/* NEW_PC: delta [8,11), wave [11,16), pc [16,71) in dwords, err 71 */
	g->pc_addr = (struct sqtt_bits){ 16, 71 };
	g->pc_op = 1;
	g->exclude_barrier_bit = 59;

	g->fields[TOK_INST][SQTT_F_WAVE] = (struct sqtt_bits){ 7, 12 };
	g->fields[TOK_INST][SQTT_F_OP] = (struct sqtt_bits){ 12, 20 };
	g->fields[TOK_WAVE_START][SQTT_F_WGP] = (struct sqtt_bits){ 10, 14 };
	g->fields[TOK_WAVE_START][SQTT_F_WAVE] = (struct sqtt_bits){ 15, 20 };
	g->fields[TOK_WAVE_END][SQTT_F_WGP] = (struct sqtt_bits){ 11, 15 };
	g->fields[TOK_NEW_PC][SQTT_F_WAVE] = (struct sqtt_bits){ 11, 16 };

	g->nops = 256;
	for (i = 90; i <= 101; i++)
		g->op_names[i] = NULL;
	for (i = 0; i < sizeof(gone) / sizeof(gone[0]); i++)
		g->op_names[gone[i]] = NULL;
	for (i = 0; i < sizeof(named) / sizeof(named[0]); i++)
		g->op_names[named[i].op] = named[i].name;
	for (i = 0; i < 34; i++) {
		snprintf(other_simd[i], sizeof(other_simd[i]), "vmem_other_simd_%zu", i + 1);
		g->op_names[188 + i] = other_simd[i];
		snprintf(block_store[i], sizeof(block_store[i]), "block_store_%zu", i + 1);
		g->op_names[222 + i] = block_store[i];
	}
	g->op_unit = gfx12_op_unit;
}
