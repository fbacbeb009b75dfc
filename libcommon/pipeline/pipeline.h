/* pipeline: the stages of pipeline.md, decode, walk, attr and profile, in one process on
 * a capture, with rows passed as structs and the trace buffers shared out to a pool of
 * workers: what `sqtt-dump CAPTURE | sqtt-walk | stall-attr | stall-table` computes, for
 * a fraction of the work (stall(1) is its program).  Everything lives in the struct: no
 * file-scope state, and no exit: an error is returned, its text the one line a program
 * says after "prog: ". */
#ifndef PIPELINE_H
#define PIPELINE_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "capture.h"
#include "cause.h"
#include "dispatch.h"
#include "occupancy.h"
#include "profile.h"
#include "timeline.h"
#include "walk.h"

#define PIPELINE_MAX_WORKERS 16
/* Warnings kept for the end of a run; the rest are counted. */
#define PIPELINE_MAX_WARNINGS 1000

struct pipeline_opts {
	struct capture_opts copt;	/* which capture, which trace buffers */
	int deltas;		/* every row costs its own delta (stall-attr --deltas) */
	int rows;		/* rows to the row function, in stream order (one worker) */
	int by_dispatch;	/* each dispatch a kernel of its own (stall --by-dispatch) */
	long threads;		/* workers; 0: the cores (one for rows or a timeline's
				 * sink: timeline_ordered) */
};

/* A costed row: the walk's row, its cost and cause, and for an s_waitcnt what it retired
 * ("pc@issue,...", NULL for none; only with rows). */
struct pipeline_row {
	const struct walk_row *walk;
	int64_t cost;
	enum cause cause;
	const char *retired;
	int64_t cost2;		/* of cost, the cycles of a second cause (stall-attr(1)) */
	enum cause cause2;
};
typedef void (*pipeline_row_fn)(void *ctx, const struct pipeline_row *);

struct pipeline;

/* The capture at path opened, its target read and its buffers selected: NULL and the
 * error in why when it cannot be read (capture_open's error) or walked (no buffer
 * selected, a target refused). */
struct pipeline *pipeline_open(const char *path, const struct pipeline_opts *,
    char *why, size_t whysz);
void pipeline_close(struct pipeline *);
/* The rows drawn on tl too (NULL: none), by one worker in stream order. */
void pipeline_draw(struct pipeline *, struct timeline *tl);
/* Every SIMD's WAVE_START and WAVE_END counted into occ too (NULL: not), by one worker. */
void pipeline_occupancy(struct pipeline *, struct occupancy *occ);
/* The context lines the pipeline's row stream starts with: the capture's (##source,
 * ##target, ##code, ##event), then stall-attr's. */
void pipeline_put_context(const struct pipeline *, FILE *);
/* The run: with rows set, every costed row to fn in stream order; else every row summed
 * into prof (profile_init'ed by the caller; its flags are the workers'), the context
 * lines kept in it and its view set.  0, or -1 with pipeline_error saying why. */
int pipeline_run(struct pipeline *, struct profile *prof, pipeline_row_fn fn, void *ctx);
const char *pipeline_error(const struct pipeline *);
/* The warnings of the run, in the order they came (n of them), and how many more were
 * not kept. */
const char *const *pipeline_warnings(const struct pipeline *, size_t *n, uint64_t *more);
/* With by_dispatch: the dispatches of the buffers (dispatch_put). */
struct dispatches *pipeline_dispatches(const struct pipeline *);

#endif
