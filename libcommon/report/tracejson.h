/* tracejson: rows as a Chrome trace event file (the JSON Object Format that
 * chrome://tracing and ui.perfetto.dev open): a process per traced SIMD of a kernel
 * (one trace buffer), a thread per wave, a complete ("X") slice per row from its start
 * to its start plus its cost, with pc, inst, cause, cycles and issue time as args.
 * Timestamps are cycles, written where microseconds go.  Written as the rows come. */
#ifndef TRACEJSON_H
#define TRACEJSON_H
#include <stdio.h>

#include "timeline.h"

struct tracejson;

/* Opens path for writing (fatal, exit 2, if it cannot be). */
struct tracejson *tracejson_open(const char *path);
/* A timeline sink (timeline_sink(tl, tracejson_row, tj)). */
void tracejson_row(void *tj, const struct tl_row *);
/* Closes the file unfinished and removes it (unless it is no regular file). */
void tracejson_discard(struct tracejson *);
/* Ends the file and frees tj; fatal on a write error (tj is then left for
 * tracejson_discard). */
void tracejson_close(struct tracejson *);

#endif
