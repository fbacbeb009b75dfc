/* slots: what a generation whose streams have no HEADER says about them, for a walk of
 * ISSUE-slot streams (CDNA's, gen/gfx9/): an ISSUE token gives each wave slot of a SIMD
 * its state in one cycle (the wave issued, issued an immediate, or waited), the wave's
 * next INST token says what it issued; the walk's records are AMD's categories.  The
 * trace layer reads the tokens (trace/slotstream), the walk (analysis/slotwalk) reads
 * these facts: it names no token type, op number or generation. */
#ifndef SLOTS_H
#define SLOTS_H
#include <stdint.h>

#include "isa.h"

/* An ISSUE token's state of one wave slot in one cycle. */
enum slot_state { SLOT_NONE, SLOT_STALL, SLOT_ISSUED, SLOT_IMMED };
#define SLOT_ISSUE_MAX 16	/* the most wave slots one ISSUE token covers */

/* What a record is (AMD's categories). */
enum slot_cat {
	SC_OPEN,	/* issued, its INST not seen yet */
	SC_SMEM, SC_SALU, SC_VMEM, SC_FLAT, SC_LDS, SC_VALU, SC_JUMP, SC_NEXT,
	SC_IMMED, SC_MESSAGE,
	SC_TRAP,	/* in a trap: a context save and restore, or a trap handler; no pc */
	SC_NCAT
};

/* What an instruction of the code is to the stitching of records onto it. */
enum slot_line {
	SL_NONE, SL_SMEM, SL_SALU, SL_VMEM, SL_FLAT, SL_LDS, SL_VALU, SL_BRANCH,
	SL_BARRIER, SL_IMMED,
	SL_MFMA_SCALE,	/* an MFMA with its scale load: issued a cycle of issue early */
	SL_DONT_KNOW	/* no record's: stepped over */
};

/* What an INST op means to the walk. */
struct slot_op {
	int8_t cat;		/* its record's category (SC_*), -1: it makes none */
	uint8_t phase;		/* the issue phase it adds (AMD's: scalar 5, vector 2,
				 * other 1, memory 0) */
	int8_t replays;		/* a replay: the op whose last record it lengthens, else -1 */
};
#define SLOT_OPS_MAX 64

struct slot_gen {
	unsigned simds, wave_slots;	/* of the traced unit: SIMDs, wave slots of each */
	int traced_wgp, traced_sa;	/* the unit whose waves are walked (AMD's walk: CU 0 of
					 * SH 0) */
	int64_t start_phase;		/* AMD's issue phase counter at a buffer's start */
	unsigned phases;		/* the issue phase counts modulo this */
	unsigned cycle;			/* a wave's one issue, cycles: a record's least, an
					 * immediate's; the walk's clock is the token's time
					 * less it */
	unsigned message_cycles;	/* a message lasts from the end of the record before
					 * it to this after its ISSUE */
	unsigned pc_bits, pc_shift;	/* INST_PC: the pc field's width, and its unit (dwords:
					 * shifted by 2 to bytes) */
	unsigned ops_tracked;		/* ops below this have their last record kept (for
					 * their replays) */
	struct slot_op ops[SLOT_OPS_MAX];	/* by op (above nops: none) */
	unsigned nops;
	int op_pc;			/* the op whose next record's pc an INST_PC gives (and
					 * that ends a trap) */
	int op_trap;			/* the op that enters a trap handler */
	/* What an instruction (its mnemonic and class) is to the stitching. */
	enum slot_line (*line_of)(const char *mnemonic, enum inst_class cls);
	/* Does the stitching stop at this instruction when the record it is at fits neither
	 * it nor the one after (AMD's: a wait, a load)? */
	int (*stitch_stops)(const char *mnemonic);
};

/* An INST op's meaning (a { -1, 0, -1 } for one the table lacks). */
static inline struct slot_op
slot_op(const struct slot_gen *g, int op)
{
	static const struct slot_op none = { -1, 0, -1 };

	return op >= 0 && (unsigned)op < g->nops ? g->ops[op] : none;
}

/* The backends' (gen/gfx9/). */
void gfx9_slots(struct slot_gen *);

/* The slot facts of the build's generation with ISSUE-slot streams (its backend's: the
 * one whose streams have no HEADER). */
const struct slot_gen *gen_slots(void);

#endif
