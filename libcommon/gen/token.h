/* token: the SQTT token vocabulary, one table per generation (struct sqtt_gen): the token
 * types and their patterns, lengths and time deltas, the fields and where tokens keep them,
 * the INST op codes, their names and units.  The registry chooses a generation by its
 * HEADER version; each generation's table is the default one (gfx11, HEADER version 3,
 * sqtt-format.md) with its own changes applied (gfx12, version 4: sqtt-gfx12.md).  The
 * tables live in gen/gfx11/ and gen/gfx12/. */
#ifndef TOKEN_H
#define TOKEN_H
#include <stddef.h>
#include <stdint.h>

#include "util.h"

enum sqtt_type {
	TOK_NOP, TOK_TIME, TOK_REG, TOK_IMM_ONE, TOK_ALU_EXEC, TOK_VMEM_EXEC, TOK_INST,
	TOK_VALU_INST, TOK_IMMEDIATE, TOK_WAVE_READY, TOK_WAVE_START, TOK_WAVE_START_EXT,
	TOK_WAVE_ALLOC, TOK_WAVE_END, TOK_SHADER_DATA, TOK_SHADER_DATA_SHORT, TOK_TIMESTAMP,
	TOK_HEADER, TOK_NEW_PC, TOK_UTIL_COUNTER, TOK_MISC, TOK_REG_INIT, TOK_EVENT,
	TOK_EVENT_SYNC, TOK_EXEC_POPCOUNT1, TOK_EXEC_POPCOUNT3, TOK_UNKNOWN, TOK_NTYPES
};

struct sqtt_typeinfo {
	uint8_t pattern, plen;	/* low plen bits of the token equal pattern; plen 0: the
				 * generation has no such token */
	uint8_t bits;		/* token length (at most 72) */
	uint8_t dlo, dhi;	/* time delta field [dlo,dhi), dhi == 0: none */
};

struct sqtt_token {
	uint64_t nib;		/* nibble offset in the stream */
	uint64_t time;		/* after this token's own delta */
	uint64_t raw;		/* the token's bits [0,64) */
	uint8_t raw_hi;		/* bits [64,72) of a longer token (gfx12 NEW_PC) */
	enum sqtt_type type;
};
/* A token type's name ("INST"), the same in every generation. */
const char *sqtt_type_name(enum sqtt_type);

/* What a token means to a walk of waves and issues, the same in every generation (as its
 * name is): the readers above trace/ ask this, never a token type. */
enum sqtt_kind {
	SQTT_K_OTHER,		/* nothing a walk reads */
	SQTT_K_HEADER,		/* the traced unit, the stream's version */
	SQTT_K_REG,		/* a register write (the dispatch's program address) */
	SQTT_K_WAVE_START, SQTT_K_WAVE_END,
	SQTT_K_ISSUE,		/* an instruction issue, its INST op saying what */
	SQTT_K_VALU,		/* a VALU issue */
	SQTT_K_IMM,		/* an immediate issue of one wave */
	SQTT_K_IMM_MASK,	/* immediate issues of the slots of its mask */
	SQTT_K_NEW_PC,		/* a wave's new pc, after a jump (a stream without HEADER:
				 * the pc of the record its last INST announced) */
	SQTT_K_SLOTS,		/* each wave slot's state in one cycle (an ISSUE of a
				 * stream without HEADER, slots.h) */
	SQTT_K_SAVE,		/* every live wave is about to be saved, as for a trap */
	SQTT_NKIND
};
/* No token: a walk's stand-in where none comes (its kind SQTT_K_OTHER). */
#define SQTT_NO_TOKEN ((enum sqtt_type)TOK_NTYPES)
extern const uint8_t sqtt_kind_of[TOK_NTYPES + 1];
static inline enum sqtt_kind
sqtt_type_kind(enum sqtt_type t)
{
	return (enum sqtt_kind)sqtt_kind_of[t];
}

/* Where a token keeps its fields: bits [lo,hi) of the token, hi 0 where it has none.
 * The one table the decoder reads fields with and the encoder writes them with. */
enum sqtt_field { SQTT_F_WAVE, SQTT_F_SIMD, SQTT_F_WGP, SQTT_F_SA, SQTT_F_OP, SQTT_NFIELD };
struct sqtt_bits {
	uint8_t lo, hi;
};

/* INST op codes the walker and the instruction model name (sqtt-format.md section 6);
 * the same numbers on gfx12 except SQTT_OP_BARRIER (gfx12: barrier_wait) and
 * SQTT_OP_BARRIER_SIGNAL, and the wr_exec ones gfx12 lacks. */
enum {
	SQTT_OP_SALU = 0, SQTT_OP_SMEM_RD = 1, SQTT_OP_SMEM_WR = 2, SQTT_OP_BRANCH_TAKEN = 3,
	SQTT_OP_BRANCH_NOT_TAKEN = 4, SQTT_OP_JUMP = 5, SQTT_OP_TRAP = 6,
	SQTT_OP_SALU_NO_EXEC = 7, SQTT_OP_MESSAGE = 9, SQTT_OP_BARRIER = 19,
	SQTT_OP_SALU_WR_EXEC = 114, SQTT_OP_VALU1_WR_EXEC = 115, SQTT_OP_VALU_B2_WR_EXEC = 116,
	SQTT_OP_BARRIER_SIGNAL = 122
};
/* The unit an INST op issues to, by op family. */
enum sqtt_unit {
	SQTT_UNIT_NONE, SQTT_UNIT_VALU, SQTT_UNIT_VMEM_RD, SQTT_UNIT_VMEM_WR, SQTT_UNIT_LDS,
	SQTT_UNIT_IMAGE,
	SQTT_UNIT_OTHER_SIMD	/* *_other_simd_*: a memory issue of another SIMD's wave */
};

#define SQTT_NOPS 256	/* INST ops: 7 bits on gfx11, 8 on gfx12 */
#define SQTT_SLOTS_MAX 32	/* wave slots of a traced unit in any generation */

/* One generation's tokens. */
struct sqtt_gen {
	const char *name;		/* "gfx11" */
	unsigned version;		/* the HEADER version of its streams */
	unsigned index;			/* in the registry */
	struct sqtt_typeinfo types[TOK_NTYPES];
	struct sqtt_bits fields[TOK_NTYPES][SQTT_NFIELD];
	uint8_t ts_rt, ts_pl;		/* TIMESTAMP: real-time sample, lost packets */
	struct sqtt_bits ts_value;	/* TIMESTAMP: its delta unless ts_rt */
	struct sqtt_bits pc_addr;	/* NEW_PC: the address in dwords (up to bit 71) */
	int start_ext_more;		/* WAVE_START_EXT: 8 more bits when the nibble after
					 * it has bit 0 set */
	int pc_op;			/* the packet stream's op of a NEW_PC: its address */
	uint64_t header;		/* the HEADER its hardware writes (the encoder's) */
	unsigned exclude_barrier_bit;	/* HEADER: s_barrier_wait emits no token (0: none) */
	unsigned immediate_slots;	/* the wave slots an IMMEDIATE's mask covers */
	unsigned wave_slots;		/* the wave slots of a traced unit (a power of two, at
					 * most SQTT_SLOTS_MAX): a token's wave field modulo it */
	unsigned nops;			/* INST op codes below this */
	const char *op_names[SQTT_NOPS];
	enum sqtt_unit (*op_unit)(int op);
	int op_branch_taken, op_jump;	/* the INST ops that move the pc to a target */
	struct name_index op_index;	/* op_names by name (the registry makes it) */
};

/* The backends' token tables (each called by its backend's init, gen.h): gfx11's fills
 * every field (the defaults), a later generation's changes a copy of them. */
void gfx11_tokens(struct sqtt_gen *);
void gfx12_tokens(struct sqtt_gen *);
/* Their op_unit hooks, for the instruction models' token fit. */
enum sqtt_unit gfx11_op_unit(int op);
enum sqtt_unit gfx12_op_unit(int op);

/* NEW_PC: the wave slot and the absolute address it carries; IMMEDIATE: the mask of the
 * slots that issued an immediate. */
void sqtt_new_pc(const struct sqtt_gen *, uint64_t raw, unsigned raw_hi, unsigned *slot,
    uint64_t *addr);
unsigned sqtt_immediate_mask(uint64_t raw);
/* A raw column's hex (up to 72 bits) into its low 64 bits and the 8 above; -1 if it is
 * not one. */
int sqtt_raw_parse(const char *s, uint64_t *raw, unsigned *raw_hi);

/* Fields of a token, -1 where the token lacks one.  op: INST op code, or the src of
 * ALU_EXEC / VMEM_EXEC. */
struct sqtt_fields {
	int wave, simd, wgp, sa, op;
};
/* (inline, below: on the path of every token the walk takes) */
enum sqtt_unit sqtt_op_unit(const struct sqtt_gen *, int op);
/* INST op name ("salu", "sgmem_rd_1"...) or NULL for an op the table lacks. */
const char *sqtt_op_name(const struct sqtt_gen *, unsigned op);
/* Op code by name (also "0x%02x"), -1 if unknown. */
int sqtt_op_code(const struct sqtt_gen *, const char *name);
enum sqtt_type sqtt_type_by_name(const char *name);	/* TOK_NTYPES if unknown */
/* Does INST op move the wave's pc to a target: a taken branch (or a jump)? */
int sqtt_op_branch_taken(const struct sqtt_gen *, int op);
int sqtt_op_moves_pc(const struct sqtt_gen *, int op);
/* Whether a token column's text marks a VALU issue ("VALU_INST", "INST:valu..."); and
 * the cycles its instruction ran as its INST op says (valub_16, valut_4, sgmem_wr_6: the
 * count after the op's last '_'), 0 where it says none. */
int sqtt_token_valu(const char *token);
unsigned sqtt_token_busy(const char *token);
static inline uint64_t
tok_bits(uint64_t raw, unsigned lo, unsigned hi)
{
	return hi - lo >= 64 ? raw >> lo : (raw >> lo) & ((1ULL << (hi - lo)) - 1);
}

static inline void
sqtt_fields(const struct sqtt_gen *g, const struct sqtt_token *tok, struct sqtt_fields *f)
{
	const struct sqtt_bits *b = g->fields[tok->type];

#define SQTT_FIELD(i) (b[i].hi ? (int)tok_bits(tok->raw, b[i].lo, b[i].hi) : -1)
	f->wave = SQTT_FIELD(SQTT_F_WAVE);
	f->simd = SQTT_FIELD(SQTT_F_SIMD);
	f->wgp = SQTT_FIELD(SQTT_F_WGP);
	f->sa = SQTT_FIELD(SQTT_F_SA);
	f->op = SQTT_FIELD(SQTT_F_OP);
#undef SQTT_FIELD
}

/* Delta carried by the token's bits (TIME: field + 4; TIMESTAMP: its delta or 0): on
 * every token's path, so inline. */
static inline uint64_t
sqtt_delta(const struct sqtt_gen *g, enum sqtt_type t, uint64_t raw)
{
	const struct sqtt_typeinfo *ti = &g->types[t];

	if (t == TOK_TIME)
		return tok_bits(raw, 4, 8) + 4;
	if (t == TOK_TIMESTAMP)
		return tok_bits(raw, g->ts_rt, g->ts_rt + 1) ? 0 :
		    tok_bits(raw, g->ts_value.lo, g->ts_value.hi);
	return ti->dhi ? tok_bits(raw, ti->dlo, ti->dhi) : 0;
}

/* A REG token: a register write the trace saw.  compute: the address is an offset into
 * the compute registers (SH space from 0x2e00, COMPUTE_DISPATCH_INITIATOR). */
struct sqtt_reg {
	unsigned addr;
	int compute;
	uint32_t data;
};
void sqtt_reg(uint64_t raw, struct sqtt_reg *);

/* The dispatch's program address, from its writes of COMPUTE_PGM_LO (SH register 0x2e0c:
 * bits [39:8] of the address) and COMPUTE_PGM_HI (0x2e0d: bits [47:40]).  Feed it every
 * REG token in stream order; sqtt_pgm_addr is 0 until both halves were written with a
 * non-zero address. */
struct sqtt_pgm {
	uint32_t lo, hi;
	unsigned seen;	/* 1: lo, 2: hi */
};
void sqtt_pgm_feed(struct sqtt_pgm *, uint64_t reg_raw);
/* Does a REG token write COMPUTE_PGM_LO or _HI, the only writes sqtt_pgm_feed reads?  The
 * decoder asks it of every REG token a walk steps over, so inline. */
enum { SQTT_REG_COMPUTE_PGM_LO = 0x0c, SQTT_REG_COMPUTE_PGM_HI = 0x0d };
static inline int
sqtt_reg_is_pgm(uint64_t raw)
{
	unsigned addr = (unsigned)tok_bits(raw, 16, 32);

	return (unsigned)tok_bits(raw, 15, 16) &
	    ((addr == SQTT_REG_COMPUTE_PGM_LO) | (addr == SQTT_REG_COMPUTE_PGM_HI));
}
uint64_t sqtt_pgm_addr(const struct sqtt_pgm *);


#endif
