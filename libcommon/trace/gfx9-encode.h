/* gfx9-encode: the writer of CDNA (gfx9) SQTT streams, the inverse of trace/gfx9's
 * decoder: tokens given with their time and bits come back from gfx9_next with that
 * time.  The stream begins with the TIME word every hardware buffer begins with (the
 * clock is 4 after it); time is carried by the tokens' own deltas (4 x bit 4; a MISC's
 * bits [4,12)) and, for longer gaps, by MISC time tokens of up to 1020 cycles each.
 * Tokens go out through put (raw, bits), first word lowest. */
#ifndef GFX9_ENCODE_H
#define GFX9_ENCODE_H
#include <stddef.h>
#include <stdint.h>

#include "gfx9.h"

/* The longest gap between two tokens written (MISC tokens of 1020 cycles: at most
 * about 66000 of them for one gap). */
#define GFX9_GAP_MAX (1LL << 26)

struct gfx9_encoder {
	int64_t now;
	void (*put)(void *ctx, uint64_t raw, unsigned bits);
	void *ctx;
	uint64_t ntokens;
};

void gfx9_encode_begin(struct gfx9_encoder *, int se,
    void (*put)(void *ctx, uint64_t raw, unsigned bits), void *ctx);
/* 0, or -1 with a one-line reason in why: a time before the clock, not a multiple of 4,
 * a gap beyond GFX9_GAP_MAX, a TIME token or a TIME_RESET (the writer keeps the clock
 * itself), bits that are not the type's. */
int gfx9_encode_token(struct gfx9_encoder *, enum gfx9_type, int64_t time, uint64_t raw,
    char *why, size_t whysz);

/* The same from a packet stream's line: its type's name, time and raw bits. */
int gfx9_encode_line(struct gfx9_encoder *, const char *type, uint64_t time, uint64_t raw,
    char *why, size_t whysz);

#endif
