/* timeline: the rows of a row stream laid out in time, one lane per wave, for the
 * pictures of stall-table(1) (--html, --trace-json).
 *
 * The cycles charged to a row (its cost) are the wait that ended with its issue, so a
 * wave's rows tile its life: the first starts at WAVE_START (its time minus its delta),
 * each next one where the one before ended, and the last ends at WAVE_END.
 *
 * Memory is bounded whatever the length of the stream: at most max_lanes waves of each
 * kernel in each event get a lane (the first ones seen), and when the lanes hold more than
 * max_bars bars, neighbouring bars are merged pairwise (each bar then stands for 2, 4, ...
 * rows, coloured by its longest row) as often as it takes.  A live wave costs a few words
 * until its WAVE_END.
 *
 * The events of a stream may be shared out among timelines (timeline_fork), each given
 * all the rows of its events in order and its events in stream order; merged back
 * (timeline_merge), they draw what one timeline given every row draws. */
#ifndef TIMELINE_H
#define TIMELINE_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "occupancy.h"

#include "tsv.h"

struct timeline;

/* One row as the timeline saw it.  A row of two causes (stall-attr(1)): the last cost2
 * cycles of its cost are cause2's (NULL: none, cost2 0). */
struct tl_row {
	const char *kernel, *pc, *inst, *cause, *cause2;
	uint64_t event, se, wave, slot;
	int64_t time, delta, cost, cost2;
	int64_t start;		/* where its bar starts: start + cost is its end */
	uint64_t process;	/* 1, 2, ...: the (kernel, event) pair, one traced SIMD */
	uint64_t thread;	/* 1, 2, ...: the wave */
	int kind;		/* enum profile_kind: LINE_LAUNCH and LINE_DRAIN (rows of cause
				 * wave_start and drain) have pc "-" and inst "(launch)", "(drain)" */
	int first;		/* the wave's first row */
	int new_process;	/* the pair's first row */
	const void *key;	/* NULL, or the instruction's identity as the caller knows
				 * it: rows of one key have one pc and inst, and their
				 * kernel and cause strings stay, unchanged, while the
				 * timeline lives (looked up by their address) */
};

typedef void tl_sink(void *arg, const struct tl_row *);

/* keep_bars 0: only place rows for a sink, draw nothing. */
struct timeline *timeline_new(int keep_bars, size_t max_lanes, size_t max_bars);
/* Every row is handed to sink(arg, row) once placed. */
void timeline_sink(struct timeline *, tl_sink *sink, void *arg);
/* The columns of the row stream: event se kernel wave slot pc time delta token inst
 * are needed: 0, or -1 with "FILE:LINE: no column 'NAME'" in why. */
int timeline_header(struct timeline *, const struct tsv *, char *why, size_t whysz);
/* The current record of t, with the cost and cause the caller charged it, and the part
 * of that cost that is a second cause's (cost2 0, cause2 NULL: none): 0, or -1 with
 * "FILE:LINE: ..." in why for a malformed one. */
int timeline_row(struct timeline *, const struct tsv *t, int64_t cost, const char *cause,
    int64_t cost2, const char *cause2, char *why, size_t whysz);
/* The same for a row given as a struct (kernel, pc, inst, cause, cause2, event, se, wave,
 * slot, time, delta, cost, cost2 set), the rest of it filled in as the row is placed: 0,
 * or -1 with timeline_error saying why. */
int timeline_add(struct timeline *, struct tl_row *, int wave_end);
const char *timeline_error(const struct timeline *);
/* A wave's lifetime on the traced SIMD of process (a tl_row's process), from start to
 * end: the rows' waves come this way at their WAVE_END (not those of cause untraced,
 * which ran on another SIMD); any other teller of lifetimes may add its own.  0, or -1
 * past TIMELINE_MAX_LIVES. */
#define TIMELINE_MAX_LIVES (1 << 22)
int timeline_life(struct timeline *, uint64_t process, int64_t start, int64_t end);
uint64_t timeline_lives(const struct timeline *);
/* The waves in flight over time of every traced SIMD (stall-table --occupancy): TSV
 * "event se kernel time waves", a line at every cycle the count changes, or aligned text
 * with a summary per SIMD; of kernel's buffers only when kernel is not NULL.  The number
 * of SIMDs shown. */
size_t timeline_occupancy(const struct timeline *, const char *kernel, FILE *fp, int pretty);
/* Rows placed so far. */
uint64_t timeline_rows(const struct timeline *);
/* Every SIMD's waves in flight from the tokens (the pipeline's), drawn with each group:
 * its "simds" (NULL: none; occ must live until timeline_json). */
void timeline_set_occupancy(struct timeline *, const struct occupancy *occ);
/* The drawing as JSON (see html.h for its fields). */
void timeline_json(const struct timeline *, FILE *fp);
/* An empty timeline of tl's limits, for events of its stream shared out; NULL when tl
 * hands its rows to a sink (timeline_ordered: they must come to it in order). */
struct timeline *timeline_fork(const struct timeline *tl);
int timeline_ordered(const struct timeline *tl);
/* src's rows, lanes and lives into dst, src freed: dst is as if it had seen them too,
 * src's events taking their places by number (no event may be in both).  Neither takes
 * rows after.  0, or -1 past TIMELINE_MAX_LIVES (timeline_error says why). */
int timeline_merge(struct timeline *dst, struct timeline *src);
void timeline_free(struct timeline *);

#endif
