#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "gfx9.h"

static const struct {
	const char *name;
	uint8_t bits;
} types[G9_NTYPES] = {
	[G9_MISC] = { "MISC", 16 }, [G9_TIME] = { "TIME", 64 }, [G9_REG] = { "REG", 64 },
	[G9_WAVE_START] = { "WAVE_START", 32 }, [G9_WAVE_ALLOC] = { "WAVE_ALLOC", 16 },
	[G9_REG_CS] = { "REG_CS", 48 }, [G9_WAVE_END] = { "WAVE_END", 16 },
	[G9_EVENT] = { "EVENT", 16 }, [G9_EVENT_CS] = { "EVENT_CS", 16 },
	[G9_EVENT_GFX1] = { "EVENT_GFX1", 16 }, [G9_INST] = { "INST", 16 },
	[G9_INST_PC] = { "INST_PC", 64 }, [G9_SHADERDATA] = { "SHADERDATA", 48 },
	[G9_ISSUE] = { "ISSUE", 32 }, [G9_PERF] = { "PERF", 64 },
	[G9_REG_CS_PRIV] = { "REG_CS_PRIV", 48 },
};

static const char *const inst_names[] = {
	"smem_rd", "salu_32", "vmem_rd", "vmem_wr", "flat_wr", "valu_32", "lds", "pc",
	"expreq_gds", "expreq_gfx", "expgnt_par_col", "expgnt_pos_gds", "jump", "next",
	"flat_rd", "other_msg", "smem_wr", "salu_64", "valu_64", "smem_rd_replay",
	"smem_wr_replay", "vmem_rd_replay", "vmem_wr_replay", "flat_wr_replay",
	"flat_rd_replay", "fatal_halt", "didt_stall_start", "didt_stall_end", "valu_mai",
	"go_to_trap",
};

static const char *const misc_names[] = {
	"time", "time_reset", "packet_lost", "surf_sync", "ttrace_stall_begin",
	"ttrace_stall_end",
};

const char *
gfx9_type_name(enum gfx9_type t)
{
	return t < G9_NTYPES ? types[t].name : "UNKNOWN";
}

enum gfx9_type
gfx9_type_by_name(const char *name)
{
	unsigned t;

	for (t = 0; t < G9_NTYPES; t++)
		if (strcmp(types[t].name, name) == 0)
			return (enum gfx9_type)t;
	return G9_NTYPES;
}

unsigned
gfx9_token_bits(enum gfx9_type t)
{
	return types[t & 15].bits;
}

const char *
gfx9_inst_name(unsigned t)
{
	return t < sizeof(inst_names) / sizeof(inst_names[0]) ? inst_names[t] : NULL;
}

const char *
gfx9_misc_name(unsigned t)
{
	return t < sizeof(misc_names) / sizeof(misc_names[0]) ? misc_names[t] : NULL;
}

static inline uint64_t
bits(uint64_t raw, unsigned lo, unsigned hi)
{
	return (raw >> lo) & ((1ULL << (hi - lo)) - 1);
}

void
gfx9_fields(const struct gfx9_token *tok, struct gfx9_fields *f)
{
	uint64_t r = tok->raw;

	f->wave = f->simd = f->wgp = f->sa = f->op = -1;
	switch (tok->type) {
	case G9_WAVE_START:
	case G9_WAVE_ALLOC:
	case G9_WAVE_END:
	case G9_SHADERDATA:
		f->sa = (int)bits(r, 5, 6);
		f->wgp = (int)bits(r, 6, 10);
		f->wave = (int)bits(r, 10, 14);
		f->simd = (int)bits(r, 14, 16);
		break;
	case G9_INST:
		f->wave = (int)bits(r, 5, 9);
		f->simd = (int)bits(r, 9, 11);
		f->op = (int)bits(r, 11, 16);
		break;
	case G9_INST_PC:
		f->wave = (int)bits(r, 5, 9);
		f->simd = (int)bits(r, 9, 11);
		break;
	case G9_ISSUE:
		f->simd = (int)bits(r, 5, 7);
		break;
	case G9_MISC:
		f->sa = (int)bits(r, 12, 13);
		f->op = (int)bits(r, 13, 16);
		break;
	case G9_PERF:
		f->sa = (int)bits(r, 5, 6);
		f->wgp = (int)bits(r, 6, 10);
		break;
	default:
		break;
	}
}

unsigned
gfx9_issue_state(uint64_t raw, unsigned slot)
{
	return (unsigned)bits(raw, 8 + 2 * slot, 10 + 2 * slot);
}

uint64_t
gfx9_inst_pc(uint64_t raw)
{
	return raw >> 16;
}

void
gfx9_init(struct gfx9_decoder *d, const uint8_t *data, size_t len)
{
	memset(d, 0, sizeof(*d));
	d->data = data;
	d->len = len;
}

/* The token at pos: 1 with its type, length and bits; 0 when the end cuts it (or none is
 * left). */
static int
token_at(const struct gfx9_decoder *d, size_t pos, enum gfx9_type *t, size_t *nbytes,
    uint64_t *raw)
{
	size_t n, i;
	uint64_t v = 0;

	if (pos >= d->len)
		return 0;
	*t = (enum gfx9_type)(d->data[pos] & 15);
	n = types[*t].bits / 8;
	if (d->len - pos < n)
		return 0;
	for (i = 0; i < n; i++)
		v |= (uint64_t)d->data[pos + i] << (8 * i);
	*nbytes = n;
	*raw = v;
	return 1;
}

static int64_t
delta_of(enum gfx9_type t, uint64_t raw)
{
	return 4 * (int64_t)(t == G9_MISC ? bits(raw, 4, 12) : bits(raw, 4, 5));
}

/* A TIME's clock value: bits [16,64), held as AMD's reader holds it, 46 bits signed. */
static int64_t
time_value(uint64_t raw)
{
	return (int64_t)((raw >> 16) << 18) >> 18;
}

static int
is_reset(enum gfx9_type t, uint64_t raw)
{
	return t == G9_MISC && bits(raw, 13, 16) == G9_MISC_TIME_RESET;
}

/* After a TIME_RESET: the next TIME re-bases the clock (the first one fixes the base so
 * that the clock steps back 4, rounded down to 4), unless another TIME_RESET comes first.
 * A token cut by the end counts as a TIME of value 0, as in AMD's reader. */
static void
rebase(struct gfx9_decoder *d)
{
	size_t pos = d->pos, n;
	enum gfx9_type t;
	uint64_t raw;
	int64_t T;

	for (;;) {
		if (!token_at(d, pos, &t, &n, &raw)) {
			if (pos >= d->len)
				return;
			T = 0;
			break;
		}
		if (is_reset(t, raw)) {
			d->skip = pos;
			d->skipping = 1;
			return;
		}
		if (t == G9_TIME) {
			T = time_value(raw);
			d->skip = pos;
			d->skipping = 1;
			break;
		}
		pos += n;
	}
	if (d->base == 0)
		d->base = T - d->now + 4;
	if (T > d->base)
		d->now = (T - d->base) & ~(int64_t)3;
}

int
gfx9_next(struct gfx9_decoder *d, struct gfx9_token *tok)
{
	enum gfx9_type t;
	uint64_t raw;
	size_t n;

	while (token_at(d, d->pos, &t, &n, &raw)) {
		size_t at = d->pos;

		d->pos += n;
		if (d->skipping && at == d->skip) {
			d->skipping = 0;
			continue;
		}
		d->now += delta_of(t, raw);
		if (is_reset(t, raw)) {
			rebase(d);
			continue;
		}
		if (t == G9_TIME)
			continue;
		tok->off = at;
		tok->time = (int64_t)((uint64_t)d->now << 18) >> 18;
		tok->raw = raw;
		tok->type = t;
		d->ntokens++;
		return 1;
	}
	d->pos = d->len;
	return 0;
}

int
gfx9_is_stream(const uint8_t *data, size_t len)
{
	uint32_t w;

	if (len < 8)
		return 0;
	w = (uint32_t)data[0] | (uint32_t)data[1] << 8 | (uint32_t)data[2] << 16;
	return w == 0x0f8011;
}

static char *
put_field(char *p, int v)
{
	*p++ = '\t';
	if (v < 0)
		*p++ = '-';
	else
		p += sprintf(p, "%d", v);
	return p;
}

char *
gfx9_put(char *p, const struct gfx9_token *t)
{
	struct gfx9_fields f;
	const char *op = NULL;
	unsigned s;

	gfx9_fields(t, &f);
	p += sprintf(p, "%" PRIu64 "\t%" PRId64 "\t%s", 2 * t->off, t->time,
	    gfx9_type_name(t->type));
	p = put_field(p, f.wave);
	p = put_field(p, f.simd);
	p = put_field(p, f.wgp);
	p = put_field(p, f.sa);
	*p++ = '\t';
	if (t->type == G9_INST)
		op = gfx9_inst_name((unsigned)f.op);
	else if (t->type == G9_MISC)
		op = gfx9_misc_name((unsigned)f.op);
	if (t->type == G9_ISSUE) {
		for (s = 0; s < G9_ISSUE_SLOTS; s++)
			*p++ = "-SIM"[gfx9_issue_state(t->raw, s)];
	} else if (op != NULL) {
		p += sprintf(p, "%s", op);
	} else if (f.op >= 0) {
		p += sprintf(p, "0x%02x", f.op);
	} else
		*p++ = '-';
	p += sprintf(p, "\t0x%" PRIx64 "\n", t->raw);
	return p;
}

int
gfx9_wave_start_is_trap(const struct gfx9_token *tok)
{
	return tok->type == G9_WAVE_START && bits(tok->raw, 22, 29) > 64;
}
