/* tracejson: rows as a Chrome trace event file (the JSON Object Format that
 * chrome://tracing and ui.perfetto.dev open): a process per traced SIMD of a kernel
 * (one trace buffer), a thread per wave, a complete ("X") slice per row from its start
 * to its start plus its cost, with pc, inst, cause, cycles and issue time as args; a row
 * of two causes also has cause2 and cycles2 there, and a slice of its own for that part,
 * the row's last cycles, nested in the row's.
 * Time: the trace event format's ts and dur are microseconds and displayTimeUnit is
 * "ns"; they are written as cycles / 1000, so that one nanosecond shown is one cycle
 * (otherData.cycles_per_ts says 1000).  The buffers of one dispatch are on one clock
 * (their own times: each counts from the start of its trace), and each dispatch comes
 * after the one before, TRACEJSON_GAP cycles after its last slice ends, in the order
 * their rows come.  Written as the rows come: memory is the dispatches and buffers. */
#ifndef TRACEJSON_H
#define TRACEJSON_H
#include <stdio.h>

#include "timeline.h"

struct tracejson;

#define TRACEJSON_CYCLES_PER_TS 1000
#define TRACEJSON_GAP 1000

/* Opens path for writing: NULL with why ("PATH: reason") if it cannot be. */
struct tracejson *tracejson_open(const char *path, char *why, size_t whysz);
/* How the dispatch of a buffer is told (-1: unknown; the buffers of unknown dispatch
 * share one clock); without it every buffer is of dispatch -1. */
void tracejson_dispatches(struct tracejson *, int64_t (*dispatch_of)(void *, uint64_t event),
    void *arg);
/* A timeline sink (timeline_sink(tl, tracejson_row, tj)). */
void tracejson_row(void *tj, const struct tl_row *);
/* Closes the file unfinished and removes it (unless it is no regular file). */
void tracejson_discard(struct tracejson *);
/* Ends the file and frees tj: 0, or -1 with why at a write error (tj is then left for
 * tracejson_discard). */
int tracejson_close(struct tracejson *, char *why, size_t whysz);

#endif
