/* occupancy: the waves in flight over time on every SIMD of each trace buffer, from its
 * WAVE_START and WAVE_END tokens, which come for every wave of the shader engine, not only
 * those of the traced SIMD (sqtt-format.md).  A SIMD is (sa, wgp, simd) of one buffer; a
 * wave is its slot there from a WAVE_START to the WAVE_END of that slot.  A WAVE_END with
 * no WAVE_START before it is a wave in flight when the buffer began: it counts from the
 * buffer's first token.  Memory: a step per wave start and end, at most OCCUPANCY_MAX. */
#ifndef OCCUPANCY_H
#define OCCUPANCY_H
#include <stdint.h>
#include <stdio.h>

struct walk_packet;

#define OCCUPANCY_MAX (1u << 23)

struct occupancy;

struct occupancy *occupancy_new(void);
void occupancy_free(struct occupancy *);
/* The buffer whose tokens come next: its event number, shader engine and kernel name
 * (escaped as the row stream has it). */
void occupancy_buffer(struct occupancy *, uint64_t event, int se, const char *kernel);
/* One token of that buffer (those but WAVE_START and WAVE_END only move its first
 * time): 0, or -1 past OCCUPANCY_MAX steps (occupancy_error says why). */
int occupancy_packet(struct occupancy *, const struct walk_packet *);
/* The steps of the buffers so far put in order now, on the caller's thread, not when
 * they are merged or drawn (a worker's part of the work). */
void occupancy_settle(struct occupancy *);
/* src's buffers and steps into dst, src freed: as if dst had seen src's buffers too, in
 * their places by event number (each in event order, no event in both).  No token may
 * come after.  0, or -1 past OCCUPANCY_MAX steps in all (occupancy_error says why). */
int occupancy_merge(struct occupancy *dst, struct occupancy *src);
const char *occupancy_error(const struct occupancy *);
/* Waves started or found in flight, of every buffer. */
uint64_t occupancy_waves(const struct occupancy *);
/* The table: TSV "event se kernel sa wgp simd time waves", a line at every cycle a SIMD's
 * count changes (the count after that cycle's steps), SIMDs in (event, sa, wgp, simd)
 * order; or, pretty, aligned text with a summary line per SIMD (its waves, the most at
 * once, the mean over its span). */
void occupancy_put(const struct occupancy *, FILE *, int pretty);
/* Per SIMD, for a drawing: fn(ctx, event, sa, wgp, simd, times, counts, n), times
 * ascending, each count the waves in flight from that time on. */
void occupancy_each(const struct occupancy *, void (*fn)(void *ctx, uint64_t event,
    unsigned sa, unsigned wgp, unsigned simd, const int64_t *times, const long *counts,
    size_t n), void *ctx);

#endif
