/* gfx9 (CDNA3): the facts of its ISSUE-slot streams that the walk reads (slots.h), after
 * AMD's gfx9 decoder (its MISQTTParser; sqtt-gfx12.md section 8, sqtt-walk(1) GFX9). */
#include <string.h>

#include "slots.h"

/* INST's types (trace/gfx9.c names them) */
enum {
	T_SMEM_RD = 0, T_SALU_32 = 1, T_VMEM_RD = 2, T_VMEM_WR = 3, T_FLAT_WR = 4,
	T_VALU_32 = 5, T_LDS = 6, T_PC = 7, T_JUMP = 12, T_NEXT = 13, T_FLAT_RD = 14,
	T_OTHER_MSG = 15, T_SMEM_WR = 16, T_SALU_64 = 17, T_VALU_64 = 18,
	T_SMEM_RD_REPLAY = 19, T_VMEM_RD_REPLAY = 21, T_VMEM_WR_REPLAY = 22,
	T_FLAT_WR_REPLAY = 23, T_SMEM_WR_REPLAY = 20, T_FLAT_RD_REPLAY = 24, T_VALU_MAI = 28,
	T_GO_TO_TRAP = 29, NTYPES_TRACKED = 29
};

static int pfx(const char *s, const char *p) { return strncmp(s, p, strlen(p)) == 0; }

static enum slot_line
gfx9_line_of(const char *mn, enum inst_class cls)
{
	if (pfx(mn, "v_mfma_scale"))
		return SL_MFMA_SCALE;
	if (pfx(mn, "flat_"))
		return SL_FLAT;
	if (pfx(mn, "global_") || pfx(mn, "scratch_") || pfx(mn, "buffer_") ||
	    pfx(mn, "tbuffer_") || pfx(mn, "image_"))
		return SL_VMEM;
	if (pfx(mn, "ds_"))
		return SL_LDS;
	switch (cls) {
	case IC_SMEM: case IC_SMEM_STORE:
		return SL_SMEM;
	case IC_SALU: case IC_SALU_EXEC: case IC_JUMP:
		return SL_SALU;
	case IC_BRANCH:
		return SL_BRANCH;
	case IC_BARRIER:
		return SL_BARRIER;
	case IC_WAITCNT: case IC_DEPCTR: case IC_CLAUSE: case IC_IMM: case IC_ENDPGM:
	case IC_MESSAGE:
		return SL_IMMED;
	case IC_UNKNOWN:
		return SL_DONT_KNOW;
	default:
		return isa_class_is_valu(cls) ? SL_VALU : SL_DONT_KNOW;
	}
}

static int
gfx9_stitch_stops(const char *mn)
{
	return pfx(mn, "s_waitcnt") || (strstr(mn, "_load_") && !pfx(mn, "scratch_"));
}

void
gfx9_slots(struct slot_gen *g)
{
	unsigned i;

	memset(g, 0, sizeof(*g));
	g->simds = 4;
	g->wave_slots = 16;
	g->traced_wgp = 0;
	g->traced_sa = 0;
	g->start_phase = 15;
	g->phases = 4;
	g->cycle = 4;		/* a wave64 instruction takes 4 passes of a SIMD16 */
	g->message_cycles = 4;
	g->pc_bits = 48;
	g->pc_shift = 2;
	g->ops_tracked = NTYPES_TRACKED;
	g->nops = T_GO_TO_TRAP + 1;
	for (i = 0; i < g->nops; i++)	/* a replay, an export, a DIDT mark: no record */
		g->ops[i] = (struct slot_op){ -1, 0, -1 };
#define OP(t, c, ph) g->ops[t] = (struct slot_op){ c, ph, -1 }
	OP(T_SMEM_RD, SC_SMEM, 5); OP(T_SMEM_WR, SC_SMEM, 5);
	OP(T_SALU_32, SC_SALU, 5); OP(T_SALU_64, SC_SALU, 5);
	OP(T_PC, SC_SALU, 0);
	OP(T_VMEM_RD, SC_VMEM, 0); OP(T_VMEM_WR, SC_VMEM, 0);
	OP(T_FLAT_RD, SC_FLAT, 0); OP(T_FLAT_WR, SC_FLAT, 0);
	OP(T_LDS, SC_LDS, 1);
	OP(T_VALU_32, SC_VALU, 2); OP(T_VALU_64, SC_VALU, 2); OP(T_VALU_MAI, SC_VALU, 2);
	OP(T_JUMP, SC_JUMP, 1);
	OP(T_NEXT, SC_NEXT, 1);
	OP(T_OTHER_MSG, SC_MESSAGE, 1);
	OP(T_GO_TO_TRAP, SC_TRAP, 0);
#undef OP
	/* a replay lengthens the last record of the op it repeats */
	g->ops[T_SMEM_RD_REPLAY].replays = T_SMEM_RD;
	g->ops[T_SMEM_WR_REPLAY].replays = T_SMEM_WR;
	g->ops[T_VMEM_RD_REPLAY].replays = T_VMEM_RD;
	g->ops[T_VMEM_WR_REPLAY].replays = T_VMEM_WR;
	g->ops[T_FLAT_WR_REPLAY].replays = T_FLAT_WR;
	g->ops[T_FLAT_RD_REPLAY].replays = T_FLAT_RD;
	g->op_pc = T_PC;
	g->op_trap = T_GO_TO_TRAP;
	g->line_of = gfx9_line_of;
	g->stitch_stops = gfx9_stitch_stops;
}
