/* gfx11 (RDNA3, HEADER version 3): the default token table every generation starts from
 * (sqtt-format.md sections 2-6). */
#include <stddef.h>

#include "token.h"

enum sqtt_unit
gfx11_op_unit(int op)
{
	if ((op >= 10 && op <= 18))
		return SQTT_UNIT_VALU;
	if (op == 28 || op == 33 || op == 34 || op == 47 || op == 48)
		return SQTT_UNIT_VMEM_RD;
	if ((op >= 29 && op <= 32) || (op >= 35 && op <= 40) || (op >= 49 && op <= 54))
		return SQTT_UNIT_VMEM_WR;
	if ((op >= 41 && op <= 46) || op == 110 || op == 111 || op == 118)
		return SQTT_UNIT_LDS;
	if (op >= 55 && op <= 78)
		return SQTT_UNIT_IMAGE;
	if ((op >= 80 && op <= 101) || op == 119)
		return SQTT_UNIT_OTHER_SIMD;
	return SQTT_UNIT_NONE;
}

/* pattern, pattern bits, token bits, delta field [lo,hi) */
static const struct sqtt_typeinfo types[TOK_NTYPES] = {
	[TOK_NOP]		= { 0x00, 4, 4, 0, 0 },
	[TOK_TIME]		= { 0x08, 4, 8, 4, 8 },
	[TOK_REG]		= { 0x09, 4, 64, 4, 7 },
	[TOK_IMM_ONE]		= { 0x0d, 4, 12, 4, 7 },
	[TOK_ALU_EXEC]		= { 0x0e, 4, 8, 4, 6 },
	[TOK_VMEM_EXEC]		= { 0x0f, 4, 8, 4, 6 },
	[TOK_INST]		= { 0x02, 3, 20, 4, 7 },
	[TOK_VALU_INST]		= { 0x03, 3, 12, 3, 6 },
	[TOK_IMMEDIATE]		= { 0x04, 5, 24, 5, 8 },
	[TOK_WAVE_READY]	= { 0x14, 5, 24, 5, 8 },
	[TOK_WAVE_START]	= { 0x0c, 5, 32, 5, 7 },
	[TOK_WAVE_START_EXT]	= { 0x1c, 5, 48, 5, 7 },
	[TOK_WAVE_ALLOC]	= { 0x05, 5, 20, 5, 8 },
	[TOK_WAVE_END]		= { 0x15, 5, 20, 5, 8 },
	[TOK_SHADER_DATA]	= { 0x06, 5, 52, 5, 8 },
	[TOK_SHADER_DATA_SHORT]	= { 0x16, 5, 28, 5, 8 },
	[TOK_TIMESTAMP]		= { 0x01, 7, 48, 0, 0 },
	[TOK_HEADER]		= { 0x11, 7, 64, 0, 0 },
	[TOK_NEW_PC]		= { 0x21, 7, 64, 8, 11 },
	[TOK_UTIL_COUNTER]	= { 0x31, 7, 48, 7, 9 },
	[TOK_MISC]		= { 0x51, 7, 24, 7, 16 },
	[TOK_REG_INIT]		= { 0x71, 7, 64, 7, 10 },
	[TOK_EVENT]		= { 0x61, 8, 24, 8, 11 },
	[TOK_EVENT_SYNC]	= { 0xe1, 8, 32, 8, 11 },
	[TOK_UNKNOWN]		= { 0x00, 0, 4, 0, 0 },
};

static const char *const op_names[128] = {
	[0] = "salu", [1] = "smem_rd", [2] = "smem_wr", [3] = "branch_taken",
	[4] = "branch_not_taken", [5] = "jump", [6] = "trap", [7] = "salu_no_exec",
	[8] = "fatal_halt", [9] = "message", [10] = "valu_1", [11] = "valut_4",
	[12] = "valub_1", [13] = "valub_2", [14] = "valub_4", [15] = "valub_16",
	[16] = "valub_dfdp", [17] = "valub_dfdp_derate", [18] = "vinterp", [19] = "barrier",
	[20] = "expreq_gds", [21] = "expreq_gfx", [28] = "flat_rd_2", [29] = "flat_wr_3",
	[30] = "flat_wr_4", [31] = "flat_wr_5", [32] = "flat_wr_6", [33] = "sgmem_rd_1",
	[34] = "sgmem_rd_2", [35] = "sgmem_wr_1", [36] = "sgmem_wr_2", [37] = "sgmem_wr_3",
	[38] = "sgmem_wr_4", [39] = "sgmem_wr_5", [40] = "sgmem_wr_6", [41] = "lds_rd",
	[42] = "lds_wr_1", [43] = "lds_wr_2", [44] = "lds_wr_3", [45] = "lds_wr_4",
	[46] = "lds_wr_5", [47] = "buf_rd_1", [48] = "buf_rd_2", [49] = "buf_wr_1",
	[50] = "buf_wr_2", [51] = "buf_wr_3", [52] = "buf_wr_4", [53] = "buf_wr_5",
	[54] = "buf_wr_6", [55] = "img_sample_1", [56] = "img_sample_2",
	[57] = "img_sample_3", [58] = "img_sample_4", [59] = "img_sample_5",
	[60] = "img_sample_6", [61] = "img_sample_7", [62] = "img_sample_8",
	[63] = "img_sample_9", [64] = "img_sample_10", [65] = "img_sample_11",
	[66] = "img_sample_12", [67] = "img_sample_reserved", [68] = "img_rd_1",
	[69] = "img_rd_2", [70] = "img_rd_3", [71] = "img_rd_4", [72] = "img_wr_2",
	[73] = "img_wr_3", [74] = "img_wr_4", [75] = "img_wr_5", [76] = "img_wr_6",
	[77] = "img_wr_7", [78] = "img_wr_8", [80] = "lds_other_simd_1",
	[81] = "lds_other_simd_2", [82] = "lds_other_simd_3", [83] = "lds_other_simd_4",
	[84] = "lds_other_simd_5", [85] = "flat_other_simd_2", [86] = "flat_other_simd_3",
	[87] = "flat_other_simd_4", [88] = "flat_other_simd_5", [89] = "flat_other_simd_6",
	[90] = "vmem_other_simd_1", [91] = "vmem_other_simd_2", [92] = "vmem_other_simd_3",
	[93] = "vmem_other_simd_4", [94] = "vmem_other_simd_5", [95] = "vmem_other_simd_6",
	[96] = "vmem_other_simd_7", [97] = "vmem_other_simd_8", [98] = "vmem_other_simd_9",
	[99] = "vmem_other_simd_10", [100] = "vmem_other_simd_11",
	[101] = "vmem_other_simd_12", [103] = "raytrace8", [104] = "raytrace9",
	[105] = "raytrace11", [106] = "raytrace12", [110] = "lds_dir_load",
	[111] = "lds_param_load", [112] = "subv_loop_begin", [113] = "subv_loop_end",
	[114] = "salu_wr_exec", [115] = "valu1_wr_exec", [116] = "valu_b2_wr_exec",
	[117] = "rfe", [118] = "lds_bvh_6", [119] = "lds_other_simd_6",
};

static const struct sqtt_bits fields[TOK_NTYPES][SQTT_NFIELD] = {
	[TOK_HEADER] = { [SQTT_F_SIMD] = { 13, 15 }, [SQTT_F_WGP] = { 15, 18 },
	    [SQTT_F_SA] = { 19, 20 } },
	[TOK_WAVE_START] = { [SQTT_F_SA] = { 7, 8 }, [SQTT_F_SIMD] = { 8, 10 },
	    [SQTT_F_WGP] = { 10, 13 }, [SQTT_F_WAVE] = { 13, 18 } },
	[TOK_WAVE_END] = { [SQTT_F_SA] = { 8, 9 }, [SQTT_F_SIMD] = { 9, 11 },
	    [SQTT_F_WGP] = { 11, 14 }, [SQTT_F_WAVE] = { 15, 20 } },
	[TOK_INST] = { [SQTT_F_WAVE] = { 8, 13 }, [SQTT_F_OP] = { 13, 20 } },
	[TOK_VALU_INST] = { [SQTT_F_WAVE] = { 7, 12 } },
	[TOK_IMM_ONE] = { [SQTT_F_WAVE] = { 7, 12 } },
	[TOK_ALU_EXEC] = { [SQTT_F_OP] = { 6, 8 } },
	[TOK_VMEM_EXEC] = { [SQTT_F_OP] = { 6, 8 } },
};

void
gfx11_tokens(struct sqtt_gen *g)
{
	size_t t, f;

	g->name = "gfx11";
	g->version = 3;
	g->header = 0x68900191;	/* a 7900 XTX's */
	for (t = 0; t < TOK_NTYPES; t++) {
		g->types[t] = types[t];
		for (f = 0; f < SQTT_NFIELD; f++)
			g->fields[t][f] = fields[t][f];
	}
	g->ts_rt = 9;
	g->ts_pl = 8;
	g->ts_value = (struct sqtt_bits){ 12, 48 };
	g->pc_addr = (struct sqtt_bits){ 16, 62 };
	g->immediate_slots = 16;	/* mask [8,24) */
	g->wave_slots = 32;
	g->nops = 128;
	for (t = 0; t < 128; t++)
		g->op_names[t] = op_names[t];
	g->op_unit = gfx11_op_unit;
	g->op_branch_taken = SQTT_OP_BRANCH_TAKEN;
	g->op_jump = SQTT_OP_JUMP;
}
