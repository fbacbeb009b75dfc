#include <inttypes.h>
#include <stdio.h>

#include "gfx9-encode.h"

/* The buffer's first word: a TIME of delta 1 with the pattern hardware writes
 * (0x0f8011, the SE in bits 24-27: sqtt-gfx12.md section 8). */
#define FIRST_WORD 0x0f8011ULL

void
gfx9_encode_begin(struct gfx9_encoder *e, int se,
    void (*put)(void *ctx, uint64_t raw, unsigned bits), void *ctx)
{
	e->put = put;
	e->ctx = ctx;
	e->ntokens = 0;
	e->put(e->ctx, FIRST_WORD | (uint64_t)(se & 15) << 24, gfx9_token_bits(G9_TIME));
	e->now = 4;
}

/* MISC time tokens carrying units x 4 cycles. */
static void
fill(struct gfx9_encoder *e, int64_t units)
{
	while (units > 0) {
		int64_t u = units > 255 ? 255 : units;
		e->put(e->ctx, (uint64_t)u << 4, gfx9_token_bits(G9_MISC));
		units -= u;
	}
}

int
gfx9_encode_token(struct gfx9_encoder *e, enum gfx9_type type, int64_t time, uint64_t raw,
    char *why, size_t whysz)
{
	unsigned bits = gfx9_token_bits(type);
	int64_t gap = time - e->now, units;

	if ((unsigned)type >= G9_NTYPES || (raw & 15) != (uint64_t)type ||
	    (bits < 64 && raw >> bits != 0)) {
		snprintf(why, whysz, "raw 0x%" PRIx64 " is not a %s token's bits", raw,
		    gfx9_type_name(type));
		return -1;
	}
	if (type == G9_TIME || (type == G9_MISC && (raw >> 13 & 7) == G9_MISC_TIME_RESET)) {
		snprintf(why, whysz, "%s: the writer keeps the clock itself (its time is the "
		    "tokens' deltas)", type == G9_TIME ? "TIME" : "MISC time_reset");
		return -1;
	}
	if (gap < 0 || gap % 4 != 0 || gap > GFX9_GAP_MAX) {
		snprintf(why, whysz, "time %" PRId64 ": %s (the clock is at %" PRId64 ")", time,
		    gap < 0 ? "before the token before it" : gap % 4 ? "not a multiple of 4 "
		    "cycles after the one before" : "too long after the token before", e->now);
		return -1;
	}
	units = gap / 4;
	if (type == G9_MISC) {
		fill(e, units > 255 ? units - 255 : 0);
		raw = (raw & ~(0xffULL << 4)) | (uint64_t)(units > 255 ? 255 : units) << 4;
	} else {
		fill(e, units > 1 ? units - 1 : 0);
		raw = (raw & ~(1ULL << 4)) | (uint64_t)(units > 0) << 4;
	}
	e->put(e->ctx, raw, bits);
	e->now = time;
	e->ntokens++;
	return 0;
}

int
gfx9_encode_line(struct gfx9_encoder *e, const char *type, uint64_t time, uint64_t raw,
    char *why, size_t whysz)
{
	enum gfx9_type t = gfx9_type_by_name(type);

	if (t == G9_NTYPES) {
		snprintf(why, whysz, "unknown gfx9 token type '%.32s'", type);
		return -1;
	}
	if (time > (uint64_t)INT64_MAX) {
		snprintf(why, whysz, "time %" PRIu64 " is beyond 2^63-1", time);
		return -1;
	}
	return gfx9_encode_token(e, t, (int64_t)time, raw, why, whysz);
}
