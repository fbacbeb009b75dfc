/* encode: packet-stream rows into raw SQTT bytes by the generation's tables. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "encode.h"
#include "tsv.h"

/* A row error; a failed write said first, as it happened first. */
static enum sqtt_enc_status __attribute__((format(printf, 2, 3)))
fail(struct sqtt_encoder *e, const char *fmt, ...)
{
	va_list ap;

	if (e->failed)
		return SQTT_ENC_IO;
	va_start(ap, fmt);
	vsnprintf(e->err, sizeof(e->err), fmt, ap);
	va_end(ap);
	return SQTT_ENC_ROW;
}

static int
u64(struct sqtt_encoder *e, const struct tsv *t, int c, uint64_t *v)
{
	if (!tsv_get_u64(t, c, v))
		return fail(e, "%s: '%s' is not a number", t->col[c], t->field[c]);
	return 0;
}

static void
flush(struct sqtt_encoder *e)
{
	if (e->len && !e->failed && fwrite(e->buf, 1, e->len, e->fp) != e->len) {
		snprintf(e->err, sizeof(e->err), "%s: %s", e->path, strerror(errno));
		e->failed = 1;
	}
	e->len = 0;
}

static inline void
put(struct sqtt_encoder *e, unsigned v)
{
	if (e->nib & 1) {
		if (e->len == sizeof(e->buf))
			flush(e);
		e->buf[e->len++] = (uint8_t)(e->half | (v << 4));
	} else {
		e->half = (uint8_t)(v & 15);
	}
	e->nib++;
}

static void
put_token(struct sqtt_encoder *e, uint64_t raw, unsigned bits)
{
	unsigned i;

	for (i = 0; i < bits && i < 64; i += 4)
		put(e, (unsigned)((raw >> i) & 15));
	for (; i < bits; i += 4)
		put(e, (e->raw_hi >> (i - 64)) & 15);
	e->raw_hi = 0;
}

void
sqtt_encoder_put(struct sqtt_encoder *e, uint64_t raw, unsigned bits)
{
	put_token(e, raw, bits);
}

void
sqtt_encoder_start(struct sqtt_encoder *e, const struct sqtt_gen *gen, FILE *fp,
    const char *path)
{
	memset(e, 0, sizeof(*e));
	e->gen = gen;
	e->fp = fp;
	e->path = path;
}

static void
put_headerless(void *e, uint64_t raw, unsigned bits)
{
	put_token(e, raw, bits);
}

void
sqtt_encoder_start_headerless(struct sqtt_encoder *e, FILE *fp, const char *path, int se)
{
	sqtt_encoder_start(e, sqtt_gen_default(), fp, path);
	e->headerless = 1;
	gfx9_encode_begin(&e->g9, se, put_headerless, e);
}

/* A row of a stream with no HEADER: its type, time and raw bits, as gfx9-encode takes
 * them. */
static enum sqtt_enc_status
headerless_row(struct sqtt_encoder *e, const struct tsv *t, const int *c)
{
	uint64_t time, raw;
	char why[160];

	if (c[PKT_RAW] < 0)
		return fail(e, "a gfx9 token needs its raw bits");
	if (u64(e, t, c[PKT_RAW], &raw) || u64(e, t, c[PKT_TIME], &time))
		return SQTT_ENC_ROW;
	if (gfx9_encode_line(&e->g9, t->field[c[PKT_TYPE]], time, raw, why, sizeof(why)) != 0)
		return fail(e, "%s", why);
	return SQTT_ENC_OK;
}

/* The rest of the stream: zero nibbles that decode as NOP padding, at least the 16 that
 * let the last token decode, up to a whole 32-byte line as hardware writes. */
enum sqtt_enc_status
sqtt_encoder_finish(struct sqtt_encoder *e)
{
	unsigned i;

	for (i = 0; i < 16; i++)
		put(e, 0);
	while (e->nib % 64)
		put(e, 0);
	flush(e);
	return e->failed ? SQTT_ENC_IO : SQTT_ENC_OK;
}

static inline uint64_t
setbits(uint64_t raw, unsigned lo, unsigned hi, uint64_t v)
{
	uint64_t mask = ((1ULL << (hi - lo)) - 1) << lo;

	return (raw & ~mask) | ((v << lo) & mask);
}

/* Column c into bits [lo,hi) of raw; a value that does not fit is an error, never
 * masked into the bits. */
static int
put_field(struct sqtt_encoder *e, const struct tsv *t, int c, uint64_t *raw, unsigned lo,
    unsigned hi)
{
	uint64_t v;

	if (c < 0 || tsv_dash(t, c))
		return 0;
	if (u64(e, t, c, &v))
		return -1;
	if (v >> (hi - lo))
		return fail(e, "%s: %" PRIu64 " does not fit the token's %u bits", t->col[c], v,
		    hi - lo);
	*raw = setbits(*raw, lo, hi, v);
	return 0;
}

static int
put_fields(struct sqtt_encoder *e, const struct tsv *t, const int *c,
    const struct sqtt_bits *fb, uint64_t *raw, int op_done)
{
	const int col[SQTT_NFIELD] = { [SQTT_F_WAVE] = c[PKT_WAVE], [SQTT_F_SIMD] = c[PKT_SIMD],
		[SQTT_F_WGP] = c[PKT_WGP], [SQTT_F_SA] = c[PKT_SA], [SQTT_F_OP] = c[PKT_OP] };
	int f;

	for (f = 0; f < SQTT_NFIELD; f++)
		if (fb[f].hi && !(f == SQTT_F_OP && op_done) &&
		    put_field(e, t, col[f], raw, fb[f].lo, fb[f].hi))
			return -1;
	return 0;
}

/* A token's bits from its fields, for rows written without raw. */
static int
build(struct sqtt_encoder *e, const struct tsv *t, const int *c, enum sqtt_type type,
    uint64_t *out)
{
	const struct sqtt_gen *gen = e->gen;
	const struct sqtt_bits *fb = gen->fields[type];
	uint64_t raw = gen->types[type].pattern;
	int v;

	switch (type) {
	case TOK_HEADER:
		/* as the generation's hardware writes it (gfx11: the 7900 XTX's, one SA of 4
		 * WGPs), in its version */
		raw = setbits(gen->header, 7, 13, gen->version);
		break;
	case TOK_WAVE_START:
		raw = setbits(raw, 23, 24, 1);	/* me */
		break;
	case TOK_INST:
		if (c[PKT_OP] < 0 || tsv_dash(t, c[PKT_OP]))
			return fail(e, "INST without op");
		if ((v = sqtt_op_code(gen, t->field[c[PKT_OP]])) < 0)
			return fail(e, "unknown INST op '%s'", t->field[c[PKT_OP]]);
		raw = setbits(raw, fb[SQTT_F_OP].lo, fb[SQTT_F_OP].hi, (uint64_t)v);
		break;
	default:
		break;
	}
	switch (type) {
	case TOK_HEADER: case TOK_WAVE_START: case TOK_WAVE_END: case TOK_INST:
	case TOK_VALU_INST: case TOK_IMM_ONE: case TOK_ALU_EXEC: case TOK_VMEM_EXEC:
		/* every field the token has, by the decoder's own table */
		if (put_fields(e, t, c, fb, &raw, type == TOK_INST))
			return -1;
		break;
	case TOK_TIME:
	case TOK_TIMESTAMP:
	case TOK_NOP:
	case TOK_MISC:
	case TOK_EVENT:
		break;
	default:
		return fail(e, "%s needs its raw bits", sqtt_type_name(type));
	}
	*out = raw;
	return 0;
}

/* Time that must pass before a token: TIME tokens for short gaps, TIMESTAMP deltas (36
 * bits each) for long ones. */
static void
fill_gap(struct sqtt_encoder *e, uint64_t gap)
{
	const struct sqtt_typeinfo *ts = &e->gen->types[TOK_TIMESTAMP];

	while (gap > 0) {
		if (gap >= 4 && gap <= 19) {
			put_token(e, e->gen->types[TOK_TIME].pattern | ((gap - 4) << 4), 8);
			gap = 0;
		} else {
			uint64_t v = gap > 0xfffffffffULL ? 0xfffffffffULL : gap;
			if (gap - v > 0 && gap - v < 4)
				v -= 4;	/* leave what a TIME can carry */
			put_token(e, ts->pattern | (v << 12), ts->bits);
			gap -= v;
		}
	}
}

/* Raw bits given in the row must be a token of the row's type: the type column and the
 * bits never disagree in silence. */
static int
raw_of(struct sqtt_encoder *e, const struct tsv *t, const int *c, enum sqtt_type type,
    uint64_t *out)
{
	const struct sqtt_gen *gen = e->gen;
	const struct sqtt_typeinfo *ti = &gen->types[type];
	const char *name = sqtt_type_name(type);
	const char *text = t->field[c[PKT_RAW]];
	uint64_t raw;
	unsigned hi;
	int u;

	if (ti->bits > 64) {
		if (sqtt_raw_parse(text, &raw, &hi) != 0 || (hi >> (ti->bits - 64)) != 0)
			return fail(e, "raw %s is not a %u-bit %s token", text, ti->bits, name);
		e->raw_hi = hi;
	} else if (u64(e, t, c[PKT_RAW], &raw)) {
		return -1;
	}
	*out = raw;
	if (type == TOK_UNKNOWN)
		return 0;
	if (ti->plen == 0)
		return fail(e, "%s is no %s token", name, gen->name);
	if (ti->bits < 64 && raw >> ti->bits)
		return fail(e, "raw %s is longer than a %s token (%u bits)", text, name, ti->bits);
	if ((raw & ((1ULL << ti->plen) - 1)) != ti->pattern)
		return fail(e, "raw %s is not a %s token", text, name);
	for (u = 0; u < TOK_UNKNOWN; u++)
		if (gen->types[u].plen > ti->plen &&
		    (raw & ((1ULL << gen->types[u].plen) - 1)) == gen->types[u].pattern)
			return fail(e, "raw %s is a %s token, not %s", text, sqtt_type_name(u),
			    name);
	return 0;
}

/* placed: exactly these bits at exactly this nibble */
static enum sqtt_enc_status
place(struct sqtt_encoder *e, const struct tsv *t, const int *c, enum sqtt_type type,
    uint64_t time)
{
	const struct sqtt_typeinfo *ti = &e->gen->types[type];
	uint64_t nib, raw;

	if (u64(e, t, c[PKT_NIB], &nib))
		return SQTT_ENC_ROW;
	if (nib < e->nib)
		return fail(e, "nibble %" PRIu64 " overlaps the previous token (which ends at %"
		    PRIu64 ")", nib, e->nib);
	if (nib - e->nib > SQTT_ENC_NIB_GAP_MAX || nib + ti->bits / 4 > SQTT_ENC_NIB_MAX)
		return fail(e, "nib %" PRIu64 ": more than %llu nibbles after the previous "
		    "token, or past nibble %llu (the limits of sqtt-encode(1))", nib,
		    SQTT_ENC_NIB_GAP_MAX, SQTT_ENC_NIB_MAX);
	if (c[PKT_RAW] < 0 || tsv_dash(t, c[PKT_RAW]))
		return fail(e, "a token with a nib needs its raw bits");
	if (raw_of(e, t, c, type, &raw))
		return SQTT_ENC_ROW;
	while (e->nib < nib)
		put(e, 0);
	put_token(e, raw, ti->bits);
	e->time += sqtt_delta(e->gen, type, raw);
	if (e->time != time)
		return fail(e, "time %" PRIu64 ", but the token's delta makes it %" PRIu64, time,
		    e->time);
	e->tokens++;
	return e->failed ? SQTT_ENC_IO : SQTT_ENC_OK;
}

enum sqtt_enc_status
sqtt_encode_row(struct sqtt_encoder *e, const struct tsv *t, const int *c)
{
	const struct sqtt_gen *gen = e->gen;
	enum sqtt_type type;
	const struct sqtt_typeinfo *ti;
	uint64_t raw, time, delta;

	if (e->headerless)
		return headerless_row(e, t, c);
	if (e->failed)
		return SQTT_ENC_IO;
	type = sqtt_type_by_name(t->field[c[PKT_TYPE]]);
	if (type == TOK_NTYPES)
		return fail(e, "unknown token type '%s'", t->field[c[PKT_TYPE]]);
	ti = &gen->types[type];
	if (u64(e, t, c[PKT_TIME], &time))
		return SQTT_ENC_ROW;
	if (!tsv_dash(t, c[PKT_NIB]))
		return place(e, t, c, type, time);
	/* packed: deltas computed from time */
	if (time < e->time)
		return fail(e, "time %" PRIu64 " goes back (previous token at %" PRIu64 ")", time,
		    e->time);
	if (c[PKT_RAW] >= 0 && !tsv_dash(t, c[PKT_RAW]) ? raw_of(e, t, c, type, &raw) :
	    build(e, t, c, type, &raw))
		return SQTT_ENC_ROW;
	delta = time - e->time;
	if (delta > SQTT_ENC_TIME_GAP_MAX)
		return fail(e, "time %" PRIu64 ": more than %llu cycles after the previous token "
		    "(the limit of sqtt-encode(1))", time, SQTT_ENC_TIME_GAP_MAX);
	if (e->nib > SQTT_ENC_NIB_MAX)
		return fail(e, "the stream passes nibble %llu (the limit of sqtt-encode(1))",
		    SQTT_ENC_NIB_MAX);
	if (type == TOK_NOP || type == TOK_UNKNOWN) {
		fill_gap(e, delta);
	} else if (type == TOK_TIMESTAMP) {
		raw = setbits(raw, gen->ts_rt, gen->ts_rt + 1, 0);
		if (delta > 0xfffffffffULL) {
			fill_gap(e, delta - 0xfffffffffULL);
			delta = 0xfffffffffULL;
		}
		raw = setbits(raw, gen->ts_value.lo, gen->ts_value.hi, delta);
	} else if (type == TOK_TIME) {
		if (delta < 4)
			return fail(e, "a TIME token advances time by 4 to 19, not %" PRIu64, delta);
		if (delta > 19)
			fill_gap(e, delta - 19), delta = 19;
		raw = setbits(raw, 4, 8, delta - 4);
	} else if (ti->dhi == 0) {
		fill_gap(e, delta);
	} else {
		uint64_t max = (1ULL << (ti->dhi - ti->dlo)) - 1;
		if (delta > max) {
			fill_gap(e, delta);
			delta = 0;
		}
		raw = setbits(raw, ti->dlo, ti->dhi, delta);
	}
	if (ti->bits < 64)
		raw &= (1ULL << ti->bits) - 1;
	if (type != TOK_UNKNOWN)
		put_token(e, raw, ti->bits);
	else
		put(e, (unsigned)(raw & 15));
	e->time = time;
	e->tokens++;
	return e->failed ? SQTT_ENC_IO : SQTT_ENC_OK;
}
