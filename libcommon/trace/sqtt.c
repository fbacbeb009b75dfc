#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gfx9.h"
#include "sqtt.h"
#include "util.h"

/* Token type by the low byte of the window, per generation: the longest matching pattern
 * wins; and the token's length in nibbles by that byte. */
#define MAXGEN GEN_MAX
static uint8_t type_of[MAXGEN][256], nibs_of[MAXGEN][256];
/* One step of the counting loop by the next 12 bits: two short tokens at once (a token of
 * 8 bits and one whose type its low nibble alone gives, every byte of that low nibble of
 * one type, of a fixed length and no TIMESTAMP), else the one token the low byte gives (t2
 * TOK_NTYPES: none); the bits it steps over; slow for a gfx12 WAVE_START_EXT, whose
 * length a later nibble tells.  A TIMESTAMP's flags lie in the 12 bits. */
static struct step { uint8_t t1, t2, bits, slow; } step_of[MAXGEN][4096];
static int table_ready;

static void
build_gen(const struct sqtt_gen *g)
{
	int b, t;

	if (g->ts_rt >= 12 || g->ts_pl >= 12)	/* a backend's mistake, not the input's */
		errx(2, "internal error: a %s TIMESTAMP's flags lie past its first 12 bits",
		    g->name);

	for (b = 0; b < 256; b++) {
		int best = TOK_UNKNOWN, bestlen = 0;
		for (t = 0; t < TOK_UNKNOWN; t++) {
			const struct sqtt_typeinfo *ti = &g->types[t];
			if (ti->plen > bestlen && (b & ((1 << ti->plen) - 1)) == ti->pattern) {
				best = t;
				bestlen = ti->plen;
			}
		}
		if (g->types[best].bits < 4)	/* the loops would never step past it */
			errx(2, "internal error: a %s token of byte 0x%02x has no length", g->name,
			    (unsigned)b);
		type_of[g->index][b] = (uint8_t)best;
		nibs_of[g->index][b] = (uint8_t)(g->types[best].bits / 4);
	}
	for (b = 0; b < 4096; b++) {
		unsigned t1 = type_of[g->index][b & 0xff], lo = (unsigned)b >> 8, t2, k;
		struct step *pe = &step_of[g->index][b];

		pe->t1 = (uint8_t)t1;
		pe->t2 = TOK_NTYPES;
		pe->bits = (uint8_t)(nibs_of[g->index][b & 0xff] * 4);
		pe->slow = t1 == TOK_WAVE_START_EXT && g->start_ext_more;
		if (nibs_of[g->index][b & 0xff] != 2 || t1 == TOK_TIMESTAMP ||
		    t1 == TOK_WAVE_START_EXT || t1 == TOK_UNKNOWN)
			continue;
		t2 = type_of[g->index][lo];
		for (k = 1; k < 16; k++)
			if (type_of[g->index][lo | k << 4] != t2)
				break;
		if (k < 16 || t2 == TOK_TIMESTAMP || t2 == TOK_WAVE_START_EXT ||
		    t2 == TOK_UNKNOWN)
			continue;
		pe->t2 = (uint8_t)t2;
		pe->bits = (uint8_t)((2 + nibs_of[g->index][lo]) * 4);
	}
}

static void
build_table(void)
{
	unsigned v;
	const struct sqtt_gen *g;

	for (v = 0; v < 64; v++)
		if ((g = sqtt_gen_for_version(v)) != NULL && g->index < MAXGEN)
			build_gen(g);
	table_ready = 1;
}

/* nibble n of data */
static inline unsigned
nibble(const uint8_t *data, uint64_t n)
{
	return (data[n >> 1] >> ((n & 1) * 4)) & 0xf;
}

static inline uint64_t
window(const uint8_t *data, uint64_t nib)
{
	const uint8_t *b = data + (nib >> 1);
	uint64_t w;

	memcpy(&w, b, 8);
	if (nib & 1)
		w = (w >> 4) | ((uint64_t)b[8] << 60);
	return w;
}

/* A token's length: its type's, and on gfx12 a WAVE_START_EXT followed by a nibble with
 * bit 0 set has 8 more bits (sqtt-gfx12.md section 3).  data holds at least 11 nibbles
 * from pos. */
static inline unsigned
token_bits(const struct sqtt_gen *g, enum sqtt_type t, const uint8_t *data, uint64_t pos)
{
	unsigned n = g->types[t].bits;

	if (t == TOK_WAVE_START_EXT && g->start_ext_more && (nibble(data, pos + n / 4) & 1))
		n += 8;
	return n;
}

int
sqtt_is_noise(uint64_t unknown, uint64_t tokens)
{
	return unknown > tokens / 100;
}

const char *
sqtt_check_header(const uint8_t *data, size_t len, struct sqtt_header *h)
{
	uint64_t w = 0;

	if (!table_ready)
		build_table();
	if (len == 0)
		return "empty stream";
	if (len < 8)
		return "stream cut inside its first token (shorter than a HEADER)";
	memcpy(&w, data, 8);
	if (type_of[sqtt_gen_default()->index][w & 0xff] != TOK_HEADER)
		return "no HEADER token at the start: not an SQTT stream";
	sqtt_header(w, h);
	/* a generation's traces are read when a backend's streams carry this version */
	if (sqtt_gen_for_version(h->version) == NULL) {
		static char msg[160];
		char known[96];
		sqtt_gen_versions(known, sizeof(known));
		snprintf(msg, sizeof(msg), "HEADER version %u%s: this build reads versions %s",
		    h->version, h->version == 2 ? " (gfx10)" : "", known);
		return msg;
	}
	return NULL;
}

/* A stream's bytes read 128 KiB at a time: a window that stays in the core's cache as it
 * is written and decoded.  1 MiB took 1.04x the CPU time of stall on the bench stream, 64
 * and 32 KiB no less than 128. */

void
sqtt_prepare(void)
{
	if (!table_ready)
		build_table();
	sqtt_names_prepare();
}

void
sqtt_init_mem(struct sqtt_decoder *d, const uint8_t *data, size_t len)
{
	if (!table_ready)
		build_table();
	memset(d, 0, sizeof(*d));
	d->gen = sqtt_gen_default();
	d->data = data;
	d->len = len;
	d->total = len;
	d->eof = 1;
}

/* A decoder of cap bytes of window (and 16 for the loads past its end) fed by ctx. */
static void
init_window(struct sqtt_decoder *d, size_t cap, void *ctx)
{
	if (!table_ready)
		build_table();
	memset(d, 0, sizeof(*d));
	d->gen = sqtt_gen_default();
	d->cap = cap;
	if ((d->buf = malloc(d->cap + 16)) == NULL)
		err(2, NULL);
	d->data = d->buf;
	d->ctx = ctx;
}

void
sqtt_init_stream(struct sqtt_decoder *d, sqtt_refill_fn refill, void *ctx)
{
	init_window(d, SQTT_CHUNK + SQTT_BLOCK_PAD, ctx);	/* a chunk and the bytes before it */
	d->refill = refill;
}

void
sqtt_init_blocks(struct sqtt_decoder *d, sqtt_block_fn block, void *ctx)
{
	init_window(d, SQTT_BLOCK_PAD, ctx);	/* a last block's tail */
	d->block = block;
}

void
sqtt_free(struct sqtt_decoder *d)
{
	free(d->buf);
	d->buf = NULL;
}

/* Block mode: the bytes not yet decoded (fewer than 18 nibbles' worth) put before the
 * next block, in its room, the block then decoded where it is; at the end, in buf. */
static void
fill_block(struct sqtt_decoder *d)
{
	size_t keep = d->len - (size_t)(d->pos >> 1), n;
	uint8_t tail[SQTT_BLOCK_PAD], *p;

	memcpy(tail, d->data + (d->pos >> 1), keep);
	d->base += (d->pos >> 1) * 2;
	d->pos &= 1;
	n = d->block(d->ctx, &p);
	if (n == 0) {
		d->eof = 1;
		p = d->buf + SQTT_BLOCK_PAD;
	}
	memcpy(p - keep, tail, keep);
	d->data = p - keep;
	d->len = keep + n;
	d->total += n;
}

static void
fill(struct sqtt_decoder *d)
{
	size_t keep = d->len - (size_t)(d->pos >> 1), n;

	if (d->block != NULL) {
		fill_block(d);
		return;
	}
	memmove(d->buf, d->data + (d->pos >> 1), keep);
	d->base += (d->pos >> 1) * 2;
	d->pos &= 1;
	d->data = d->buf;
	d->len = keep;
	while (d->len < keep + SQTT_CHUNK && !d->eof) {
		n = d->refill(d->ctx, d->buf + d->len, keep + SQTT_CHUNK - d->len);
		if (n == 0)
			d->eof = 1;
		d->len += n;
		d->total += n;
	}
}

static int
fail(struct sqtt_decoder *d, const char *fmt, unsigned long long a, const char *s)
{
	snprintf(d->errbuf, sizeof(d->errbuf), fmt, a, s);
	d->error = d->errbuf;
	return -1;
}

/* Fewer than 16 nibbles remain and no more will come: decode what is left from a zeroed
 * copy, token by token, as long as a whole token fits (AMD decodes to the last nibble).
 * 1: a token in *w and *t; 0: the end.  A token cut by the end of a stream whose length is
 * not a whole number of the 32-byte lines hardware writes is an error (-1): the stream was
 * cut; in a stream of whole lines the cut token is what the hardware left unwritten. */
static int
tail_token(struct sqtt_decoder *d, uint64_t *w, enum sqtt_type *t, unsigned *hi,
    unsigned *nbits)
{
	uint8_t tail[24] = { 0 };
	uint64_t left = d->len * 2 - d->pos;
	size_t nb = d->len - (size_t)(d->pos >> 1);

	if (d->ntokens == 0 && nb < 8) {
		struct sqtt_header h;
		const char *why = sqtt_check_header(d->data + (d->pos >> 1), nb, &h);
		d->error = why ? why : "stream cut inside its first token";
		return -1;
	}
	if (left == 0)
		return 0;
	memcpy(tail, d->data + (d->pos >> 1), nb);
	*w = window(tail, d->pos & 1);
	*t = (enum sqtt_type)type_of[d->gen->index][*w & 0xff];
	*nbits = token_bits(d->gen, *t, tail, d->pos & 1);
	*hi = *nbits > 64 ? nibble(tail, (d->pos & 1) + 16) | nibble(tail, (d->pos & 1) + 17) << 4 :
	    0;
	if (*nbits / 4 <= left)
		return 1;
	if (d->total % 32 == 0)
		return 0;
	return fail(d, "stream cut inside a token at nibble %llu%s",
	    (unsigned long long)(d->base + d->pos),
	    " (its length is not a whole number of 32-byte lines)");
}

/* A token's time delta (none for an UNKNOWN), an UNKNOWN and a TIMESTAMP that flags lost
 * packets counted: what every reader of tokens keeps of one, made or stepped over. */
static inline uint64_t
token_delta(const struct sqtt_gen *g, enum sqtt_type t, uint64_t raw, uint64_t *unknown,
    uint64_t *lost)
{
	if (t == TOK_UNKNOWN) {
		++*unknown;
		return 0;
	}
	if (t == TOK_TIMESTAMP && !tok_bits(raw, g->ts_rt, g->ts_rt + 1) &&
	    tok_bits(raw, g->ts_pl, g->ts_pl + 1))
		++*lost;
	return sqtt_delta(g, t, raw);
}

/* The token at d->pos (its window w, type t, length nbits, nibbles 16-17 in hi) out to
 * tok, the decoder past it. */
static inline void
emit(struct sqtt_decoder *d, uint64_t w, enum sqtt_type t, unsigned nbits, unsigned hi,
    struct sqtt_token *tok)
{
	const struct sqtt_gen *g = d->gen;
	uint64_t raw = nbits >= 64 ? w : w & ((1ULL << nbits) - 1);
	uint64_t delta = token_delta(g, t, raw, &d->unknown, &d->lost);
	tok->nib = d->base + d->pos;
	tok->raw_hi = (uint8_t)(nbits > 64 ? hi : 0);
	d->pos += nbits / 4;
	d->time += delta;
	tok->time = d->time;
	tok->raw = raw;
	tok->type = t;
	d->ntokens++;
}

int
sqtt_next(struct sqtt_decoder *d, struct sqtt_token *tok)
{
	uint64_t w;
	enum sqtt_type t;
	unsigned nbits, hi = 0;
	int r;

	for (;;) {
		/* 18 nibbles: the longest token (gfx12 NEW_PC) */
		if (d->len * 2 - d->pos < 18) {
			if (!d->eof) {
				fill(d);
				continue;
			}
			if ((r = tail_token(d, &w, &t, &hi, &nbits)) <= 0)
				return r;
		} else {
			w = window(d->data, d->pos);
			t = (enum sqtt_type)type_of[d->gen->index][w & 0xff];
			nbits = token_bits(d->gen, t, d->data, d->pos);
			hi = nbits > 64 ? nibble(d->data, d->pos + 16) |
			    nibble(d->data, d->pos + 17) << 4 : 0;
		}
		if (d->ntokens == 0) {
			struct sqtt_header h;
			const char *why = sqtt_check_header(d->data + (d->pos >> 1), 8, &h);
			if (why) {
				d->error = why;
				return -1;
			}
			d->gen = sqtt_gen_for_version(h.version);
			d->header = h;
		}
		emit(d, w, t, nbits, hi, tok);
		return 1;
	}
}

/* Does want[] take a token of type t and bits raw? */
static inline int
wanted(const uint8_t want[TOK_NTYPES], enum sqtt_type t, uint64_t raw)
{
	return want[t] == SQTT_WANT_ALL || (want[t] == SQTT_WANT_PGM && sqtt_reg_is_pgm(raw));
}

/* The next token want[] marks into tok, from the bytes at hand (no refill: the loop stops
 * 18 nibbles short of their end); the ones before it stepped over, their time deltas and
 * counts kept.  1: a token made.  What it changes of d is kept in locals until it returns
 * (the token's bytes stored would make the compiler read d again: 5% of the walk's
 * decode).  Where the next 12 bits hold two short tokens (the counting loop's step) and
 * the first is not wanted, one window and one lookup serve both (0.85x the time on the
 * bench stream).  The branches stay (on the nibble's parity in window(), on the type): the
 * predicted ones let the core start the next token's load before this token's bytes
 * arrive.  Measured on the bench stream, decode_test walk: a window without the parity
 * branch 1.08x the time; every token made without a branch into a queue only a wanted one
 * keeps 1.3x, and with its starts found first by the counting loop's steps 1.4x. */
static inline int
collect(struct sqtt_decoder *d, struct sqtt_token *tok, const uint8_t want[TOK_NTYPES])
{
	const struct sqtt_gen *g = d->gen;
	const uint8_t *nibs = nibs_of[g->index], *data = d->data;
	const struct step *step = step_of[g->index], *pe;
	uint64_t pos = d->pos, end = d->len * 2, time = d->time, n = 0, w, raw;
	uint64_t unknown = d->unknown, lost = d->lost, base = d->base;
	unsigned nbits;
	enum sqtt_type t;
	int made = 0;

	while (pos + 18 <= end) {
		w = window(data, pos);
		pe = &step[w & 0xfff];
		t = (enum sqtt_type)pe->t1;
		if (pe->t2 != TOK_NTYPES && want[t] == SQTT_WANT_NONE &&
		    (pe->bits <= 64 || pos + 20 <= end)) {
			/* two tokens at a step, the first stepped over */
			time += sqtt_delta(g, t, w & 0xff);
			n++;
			pos += 2;
			w = pe->bits <= 64 ? w >> 8 : window(data, pos);
			t = (enum sqtt_type)pe->t2;
			nbits = pe->bits - 8u;
		} else if (t == TOK_WAVE_START_EXT)
			nbits = token_bits(g, t, data, pos);
		else
			nbits = nibs[w & 0xff] * 4u;
		raw = nbits >= 64 ? w : w & ((1ULL << nbits) - 1);
		time += token_delta(g, t, raw, &unknown, &lost);
		if (wanted(want, t, raw)) {
			tok->nib = base + pos;
			tok->time = time;
			tok->raw = raw;
			tok->raw_hi = (uint8_t)(nbits > 64 ? nibble(data, pos + 16) |
			    nibble(data, pos + 17) << 4 : 0);
			tok->type = t;
			pos += nbits / 4;
			n++;
			made = 1;
			break;
		}
		pos += nbits / 4;
		n++;
	}
	d->pos = pos;
	d->time = time;
	d->ntokens += n;
	d->unknown = unknown;
	d->lost = lost;
	return made;
}

int
sqtt_next_of(struct sqtt_decoder *d, struct sqtt_token *tok, const uint8_t want[TOK_NTYPES])
{
	int r;

	for (;;) {
		if (d->ntokens != 0 && collect(d, tok, want))
			return 1;
		if ((r = sqtt_next(d, tok)) <= 0 || wanted(want, tok->type, tok->raw))
			return r;
	}
}

/* The counting loop's steps of one window from *pos: the tokens that start in its first
 * 52 bits (the next 12 bits all a step needs: no load on the path from one token's length
 * to the next one's type), none in the last 18 nibbles before end, which the tail's checks
 * read.  A step is counted by its 12 bits, the types added up after: one add a step, and
 * not to the few counters of the common types, each a chain of adds to one address. */
static inline void
count_window(const struct sqtt_decoder *d, const struct step *step, uint64_t *pos,
    uint64_t end, uint32_t *hits)
{
	uint64_t w = window(d->data, *pos), v = w;
	unsigned cmax = end - *pos - 18 < 13 ? (unsigned)(end - *pos - 18) * 4 : 52, c = 0;
	const struct step *pe;

	do {
		pe = &step[v & 0xfff];
		if (pe->slow) {
			if (c != 0)	/* read it from a window of its own */
				break;
			hits[v & 0xfff]++;
			c = token_bits(d->gen, TOK_WAVE_START_EXT, d->data, *pos);
			break;
		}
		hits[v & 0xfff]++;
		c += pe->bits;
		v >>= pe->bits & 63;	/* 64 bits or more end the window */
	} while (c <= cmax);
	*pos += c / 4;
}

/* The second half of a pass is counted at once with the first, from its middle nibble
 * as if a token started there: two chains of loads, not one, for the core to run side by
 * side.  Where the first half's tokens reach a token boundary of the second's first steps
 * (a stream is read the same from any boundary on), the second's steps before it are taken
 * back; where they reach none of them, the second half's counts are dropped and the first
 * chain counts on alone. */
#define COUNT_SPLIT (1u << 14)	/* a pass of fewer nibbles: one chain */
#define COUNT_SYNC 64		/* the second chain's steps kept for its boundaries */
struct sync_step {
	uint64_t start, mid, end;	/* mid: the second token of a two-token step, else 0 */
	unsigned idx;
};

/* The first chain's tokens from *pos, one at a time, counted into local, until a boundary
 * of the second chain's first steps s[0..ns): its steps before it taken back from hits2.
 * 1, or 0 when the tokens passed them all (the second chain's counts are then wrong);
 * *pos past the tokens counted, either way. */
static int
count_sync(struct sqtt_decoder *d, const struct step *step, uint64_t *pos,
    const struct sync_step *s, size_t ns, uint32_t *hits2, uint64_t *local, uint64_t ts_mask,
    uint64_t ts_lost)
{
	const struct sqtt_gen *g = d->gen;
	uint64_t p = *pos, w;
	size_t j, k = 0;
	unsigned t;
	int synced = 0;

	for (;;) {
		while (k < ns && s[k].end < p)
			k++;
		if (k == ns)
			break;
		/* p against step k's boundaries: its start, its middle, its end */
		if (p == s[k].start || p == s[k].end || (s[k].mid != 0 && p == s[k].mid)) {
			size_t upto = p == s[k].end ? k + 1 : k;
			for (j = 0; j < upto; j++)
				hits2[s[j].idx]--;
			if (p != s[k].start && p != s[k].end) {	/* the middle of step k */
				hits2[s[k].idx]--;
				local[step[s[k].idx].t2]++;
			}
			synced = 1;
			break;
		}
		w = window(d->data, p);
		t = type_of[g->index][w & 0xff];
		local[t]++;
		if (t == TOK_TIMESTAMP && (w & ts_mask) == ts_lost)
			d->lost++;
		p += token_bits(g, (enum sqtt_type)t, d->data, p) / 4;
	}
	*pos = p;
	return synced;
}

int
sqtt_count(struct sqtt_decoder *d, uint64_t counts[TOK_NTYPES])
{
	struct sqtt_token tok;
	uint64_t pos, pos2, end, stop, mid, local[TOK_NTYPES + 1] = { 0 };
	uint32_t hits[4096] = { 0 }, hits2[4096] = { 0 };
	struct sync_step sync[COUNT_SYNC];
	const struct step *step;
	uint64_t ts_mask, ts_lost;
	unsigned i;
	int r, t;

	/* the first token through sqtt_next: it checks the HEADER */
	if (d->ntokens == 0) {
		if ((r = sqtt_next(d, &tok)) <= 0)
			return r;
		counts[tok.type]++;
	}
	step = step_of[d->gen->index];
	ts_mask = 1ULL << d->gen->ts_rt | 1ULL << d->gen->ts_pl;
	ts_lost = 1ULL << d->gen->ts_pl;
	for (;;) {
		pos = d->pos;
		end = d->len * 2;
		/* fewer steps in a pass than a hit count holds */
		stop = end - pos > (1ULL << 30) ? pos + (1ULL << 30) : end;
		if (stop - pos >= COUNT_SPLIT + 18) {
			/* the second half's first steps kept, one at a time (they end well
			 * before its last 18 nibbles), then the halves side by side */
			mid = pos + (stop - pos - 18) / 2;
			for (pos2 = mid, i = 0; i < COUNT_SYNC; i++) {
				uint64_t w = window(d->data, pos2);
				const struct step *pe = &step[w & 0xfff];
				unsigned bits = pe->slow ? token_bits(d->gen, TOK_WAVE_START_EXT,
				    d->data, pos2) : pe->bits;
				sync[i] = (struct sync_step){ pos2, pe->t2 != TOK_NTYPES ?
				    pos2 + 2 : 0, pos2 + bits / 4, (unsigned)(w & 0xfff) };
				hits2[w & 0xfff]++;
				pos2 += bits / 4;
			}
			while (pos < mid && pos2 + 18 <= end && pos2 < stop) {
				count_window(d, step, &pos, end, hits);
				count_window(d, step, &pos2, end, hits2);
			}
			while (pos < mid)
				count_window(d, step, &pos, end, hits);
			if (count_sync(d, step, &pos, sync, COUNT_SYNC, hits2, local, ts_mask,
			    ts_lost)) {
				while (pos2 + 18 <= end && pos2 < stop)
					count_window(d, step, &pos2, end, hits2);
				pos = pos2;
			} else {	/* the first chain counts the second half again */
				memset(hits2, 0, sizeof(hits2));
			}
		}
		while (pos + 18 <= end && pos < stop)
			count_window(d, step, &pos, end, hits);
		d->ntokens += 1;	/* only "some tokens were seen" matters from here */
		d->pos = pos;
		/* the steps by their 12 bits: the types, and the delta TIMESTAMPs flagging
		 * lost packets (their flags within the 12 bits, build_gen checked) */
		for (i = 0; i < 4096; i++) {
			uint64_t h = (uint64_t)hits[i] + hits2[i];
			local[step[i].t1] += h;
			local[step[i].t2] += h;
			if (step[i].t1 == TOK_TIMESTAMP && (i & ts_mask) == ts_lost)
				d->lost += h;
			hits[i] = hits2[i] = 0;
		}
		if (pos + 18 <= end)
			continue;
		if (d->eof)
			break;
		fill(d);
	}
	for (t = 0; t < TOK_NTYPES; t++)
		counts[t] += local[t];
	d->unknown += local[TOK_UNKNOWN];
	while ((r = sqtt_next(d, &tok)) > 0)	/* the last 17 nibbles */
		counts[tok.type]++;
	return r;
}

uint64_t
sqtt_entry_addr(struct sqtt_decoder *d)
{
	struct sqtt_token tok;
	struct sqtt_pgm pgm = { 0 };
	uint64_t addr = 0;

	while (sqtt_next(d, &tok) > 0) {
		if (tok.type == TOK_REG) {
			sqtt_pgm_feed(&pgm, tok.raw);
			if (sqtt_pgm_addr(&pgm) != 0)
				addr = sqtt_pgm_addr(&pgm);
		} else if (tok.type == TOK_WAVE_START && addr != 0) {
			break;
		}
	}
	return addr;
}

void
sqtt_want_by(struct sqtt_want *w, int (*wants)(enum sqtt_type))
{
	for (int t = 0; t < TOK_NTYPES; t++)
		w->type[t] = (uint8_t)wants((enum sqtt_type)t);
}

int
sqtt_stream_headerless(const uint8_t *data, size_t len)
{
	return gfx9_is_stream(data, len);
}
