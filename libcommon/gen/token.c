#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "token.h"
#include "util.h"

static const char *const type_names[TOK_NTYPES] = {
	[TOK_NOP] = "NOP", [TOK_TIME] = "TIME", [TOK_REG] = "REG", [TOK_IMM_ONE] = "IMM_ONE",
	[TOK_ALU_EXEC] = "ALU_EXEC", [TOK_VMEM_EXEC] = "VMEM_EXEC", [TOK_INST] = "INST",
	[TOK_VALU_INST] = "VALU_INST", [TOK_IMMEDIATE] = "IMMEDIATE",
	[TOK_WAVE_READY] = "WAVE_READY", [TOK_WAVE_START] = "WAVE_START",
	[TOK_WAVE_START_EXT] = "WAVE_START_EXT", [TOK_WAVE_ALLOC] = "WAVE_ALLOC",
	[TOK_WAVE_END] = "WAVE_END", [TOK_SHADER_DATA] = "SHADER_DATA",
	[TOK_SHADER_DATA_SHORT] = "SHADER_DATA_SHORT", [TOK_TIMESTAMP] = "TIMESTAMP",
	[TOK_HEADER] = "HEADER", [TOK_NEW_PC] = "NEW_PC", [TOK_UTIL_COUNTER] = "UTIL_COUNTER",
	[TOK_MISC] = "MISC", [TOK_REG_INIT] = "REG_INIT", [TOK_EVENT] = "EVENT",
	[TOK_EVENT_SYNC] = "EVENT_SYNC", [TOK_EXEC_POPCOUNT1] = "EXEC_POPCOUNT1",
	[TOK_EXEC_POPCOUNT3] = "EXEC_POPCOUNT3", [TOK_UNKNOWN] = "UNKNOWN",
};

const uint8_t sqtt_kind_of[TOK_NTYPES + 1] = {
	[TOK_HEADER] = SQTT_K_HEADER, [TOK_REG] = SQTT_K_REG,
	[TOK_WAVE_START] = SQTT_K_WAVE_START, [TOK_WAVE_END] = SQTT_K_WAVE_END,
	[TOK_INST] = SQTT_K_ISSUE, [TOK_VALU_INST] = SQTT_K_VALU, [TOK_IMM_ONE] = SQTT_K_IMM,
	[TOK_IMMEDIATE] = SQTT_K_IMM_MASK, [TOK_NEW_PC] = SQTT_K_NEW_PC,
};

const char *
sqtt_type_name(enum sqtt_type t)
{
	return (unsigned)t < TOK_NTYPES ? type_names[t] : "UNKNOWN";
}

enum sqtt_unit
sqtt_op_unit(const struct sqtt_gen *g, int op)
{
	return g->op_unit(op);
}

int
sqtt_op_branch_taken(const struct sqtt_gen *g, int op)
{
	return op == g->op_branch_taken;
}

int
sqtt_op_moves_pc(const struct sqtt_gen *g, int op)
{
	return op == g->op_branch_taken || op == g->op_jump;
}

int
sqtt_token_valu(const char *token)
{
	return strcmp(token, sqtt_type_name(TOK_VALU_INST)) == 0 ||
	    strncmp(token, "INST:valu", 9) == 0;
}

unsigned
sqtt_token_busy(const char *token)
{
	const char *op, *u;
	unsigned n = 0;

	if (strncmp(token, "INST:", 5) != 0)
		return 0;
	op = token + 5;
	if ((u = strrchr(op, '_')) == NULL || u[1] == '\0' || strstr(op, "other_simd") != NULL)
		return 0;
	for (u++; *u; u++) {
		if (*u < '0' || *u > '9' || n > 1000)
			return 0;
		n = n * 10 + (unsigned)(*u - '0');
	}
	return n;
}

const char *
sqtt_op_name(const struct sqtt_gen *g, unsigned op)
{
	return op < g->nops ? g->op_names[op] : NULL;
}

/* Name lookups are on the hot path of every reader of the packet stream. */
static struct name_index type_index;

static const char *
type_name_of(int i)
{
	return type_names[i];
}

int
sqtt_op_code(const struct sqtt_gen *g, const char *name)
{
	char *end;
	long v;
	int i;

	if ((i = name_index_find(&g->op_index, name)) >= 0)
		return i;
	if (name[0] == '0' && name[1] == 'x') {
		v = strtol(name, &end, 16);
		if (*end == '\0' && end != name + 2 && v >= 0 && v < (long)g->nops)
			return (int)v;
	}
	return -1;
}

enum sqtt_type
sqtt_type_by_name(const char *name)
{
	int i;

	if (!type_index.ready)
		name_index_build(&type_index, TOK_NTYPES, type_name_of);
	i = name_index_find(&type_index, name);
	return i < 0 ? TOK_NTYPES : (enum sqtt_type)i;
}

void
sqtt_new_pc(const struct sqtt_gen *g, uint64_t raw, unsigned raw_hi, unsigned *slot,
    uint64_t *addr)
{
	uint64_t dw = raw >> g->pc_addr.lo;

	if (g->pc_addr.hi > 64)
		dw |= (uint64_t)raw_hi << (64 - g->pc_addr.lo);
	dw &= (1ULL << (g->pc_addr.hi - g->pc_addr.lo)) - 1;
	*slot = (unsigned)tok_bits(raw, 11, 16);
	*addr = dw * 4;	/* in dwords */
}

int
sqtt_raw_parse(const char *s, uint64_t *raw, unsigned *raw_hi)
{
	size_t n, i;
	uint64_t lo = 0;
	unsigned hi = 0;

	if (s[0] != '0' || (s[1] != 'x' && s[1] != 'X'))
		return -1;
	s += 2;
	n = strlen(s);
	if (n == 0 || n > 18)
		return -1;
	for (i = 0; i < n; i++) {
		int v = hex_digit(s[i]);
		if (v < 0)
			return -1;
		hi = (hi << 4 | (unsigned)(lo >> 60)) & 0xff;
		lo = lo << 4 | (uint64_t)v;
	}
	*raw = lo;
	*raw_hi = hi;
	return 0;
}

unsigned
sqtt_immediate_mask(uint64_t raw)
{
	return (unsigned)tok_bits(raw, 8, 24);
}

void
sqtt_reg(uint64_t raw, struct sqtt_reg *r)
{
	r->compute = (int)tok_bits(raw, 15, 16);
	r->addr = (unsigned)tok_bits(raw, 16, 32);
	r->data = (uint32_t)(raw >> 32);
}

void
sqtt_pgm_feed(struct sqtt_pgm *p, uint64_t raw)
{
	struct sqtt_reg r;

	sqtt_reg(raw, &r);
	if (!r.compute)
		return;
	if (r.addr == SQTT_REG_COMPUTE_PGM_LO) {
		p->lo = r.data;
		p->seen |= 1;
	} else if (r.addr == SQTT_REG_COMPUTE_PGM_HI) {
		p->hi = r.data & 0xff;
		p->seen |= 2;
	}
}

uint64_t
sqtt_pgm_addr(const struct sqtt_pgm *p)
{
	if (p->seen != 3)
		return 0;
	return ((uint64_t)p->hi << 32 | p->lo) << 8;
}

