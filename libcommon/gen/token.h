/* token: the SQTT token vocabulary of a generation: the token types and their table
 * (patterns, lengths, time deltas), the fields and where tokens keep them, the INST op
 * codes, their names and units.  gfx11 (HEADER version 3) facts from sqtt-format.md. */
#ifndef TOKEN_H
#define TOKEN_H
#include <stddef.h>
#include <stdint.h>

enum sqtt_type {
	TOK_NOP, TOK_TIME, TOK_REG, TOK_IMM_ONE, TOK_ALU_EXEC, TOK_VMEM_EXEC, TOK_INST,
	TOK_VALU_INST, TOK_IMMEDIATE, TOK_WAVE_READY, TOK_WAVE_START, TOK_WAVE_START_EXT,
	TOK_WAVE_ALLOC, TOK_WAVE_END, TOK_SHADER_DATA, TOK_SHADER_DATA_SHORT, TOK_TIMESTAMP,
	TOK_HEADER, TOK_NEW_PC, TOK_UTIL_COUNTER, TOK_MISC, TOK_REG_INIT, TOK_EVENT,
	TOK_EVENT_SYNC, TOK_UNKNOWN, TOK_NTYPES
};

struct sqtt_typeinfo {
	const char *name;
	uint8_t pattern, plen;	/* low plen bits of the token equal pattern */
	uint8_t bits;		/* token length */
	uint8_t dlo, dhi;	/* time delta field [dlo,dhi), dhi == 0: none */
};
extern const struct sqtt_typeinfo sqtt_types[TOK_NTYPES];

struct sqtt_token {
	uint64_t nib;		/* nibble offset in the stream */
	uint64_t time;		/* after this token's own delta */
	uint64_t raw;		/* the token's bits */
	enum sqtt_type type;
};

/* Where a token keeps its fields: bits [lo,hi) of the token, hi 0 where it has none.
 * The one table the decoder reads fields with and the encoder writes them with. */
enum sqtt_field { SQTT_F_WAVE, SQTT_F_SIMD, SQTT_F_WGP, SQTT_F_SA, SQTT_F_OP, SQTT_NFIELD };
struct sqtt_bits {
	uint8_t lo, hi;
};
extern const struct sqtt_bits sqtt_field_bits[TOK_NTYPES][SQTT_NFIELD];
/* NEW_PC: the wave slot and the absolute address it carries; IMMEDIATE: the mask of the
 * slots that issued an immediate. */
void sqtt_new_pc(uint64_t raw, unsigned *slot, uint64_t *addr);
unsigned sqtt_immediate_mask(uint64_t raw);

/* Fields of a token, -1 where the token lacks one.  op: INST op code, or the src of
 * ALU_EXEC / VMEM_EXEC. */
struct sqtt_fields {
	int wave, simd, wgp, sa, op;
};
void sqtt_fields(const struct sqtt_token *, struct sqtt_fields *);
/* INST op codes the walker and the instruction model name (sqtt-format.md section 6). */
enum {
	SQTT_OP_SALU = 0, SQTT_OP_SMEM_RD = 1, SQTT_OP_SMEM_WR = 2, SQTT_OP_BRANCH_TAKEN = 3,
	SQTT_OP_BRANCH_NOT_TAKEN = 4, SQTT_OP_JUMP = 5, SQTT_OP_TRAP = 6,
	SQTT_OP_SALU_NO_EXEC = 7, SQTT_OP_MESSAGE = 9, SQTT_OP_BARRIER = 19,
	SQTT_OP_SALU_WR_EXEC = 114, SQTT_OP_VALU1_WR_EXEC = 115, SQTT_OP_VALU_B2_WR_EXEC = 116
};
/* The unit an INST op issues to, by op family. */
enum sqtt_unit {
	SQTT_UNIT_NONE, SQTT_UNIT_VALU, SQTT_UNIT_VMEM_RD, SQTT_UNIT_VMEM_WR, SQTT_UNIT_LDS,
	SQTT_UNIT_IMAGE,
	SQTT_UNIT_OTHER_SIMD	/* *_other_simd_*: a memory issue of another SIMD's wave */
};
enum sqtt_unit sqtt_op_unit(int op);
/* INST op name ("salu", "sgmem_rd_1"...) or NULL for an op the table lacks. */
const char *sqtt_op_name(unsigned op);
/* Op code by name (also "0x%02x"), -1 if unknown. */
int sqtt_op_code(const char *name);
enum sqtt_type sqtt_type_by_name(const char *name);	/* TOK_NTYPES if unknown */
static inline uint64_t
tok_bits(uint64_t raw, unsigned lo, unsigned hi)
{
	return (raw >> lo) & ((1ULL << (hi - lo)) - 1);
}

/* Delta carried by the token's bits (TIME: field + 4; TIMESTAMP: its delta or 0): on
 * every token's path, so inline. */
static inline uint64_t
sqtt_delta(enum sqtt_type t, uint64_t raw)
{
	const struct sqtt_typeinfo *ti = &sqtt_types[t];

	if (t == TOK_TIME)
		return tok_bits(raw, 4, 8) + 4;
	if (t == TOK_TIMESTAMP)
		return tok_bits(raw, 9, 10) ? 0 : tok_bits(raw, 12, 48);
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
uint64_t sqtt_pgm_addr(const struct sqtt_pgm *);

/* The HEADER: the unit whose waves emit instruction tokens. */
struct sqtt_header {
	unsigned version, simd, wgp, sa;
};
void sqtt_header(uint64_t raw, struct sqtt_header *);
/* The name lookups (sqtt_op_code, sqtt_type_by_name), made before threads use them. */
void sqtt_names_prepare(void);

#endif
