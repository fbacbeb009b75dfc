#include <err.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "profile.h"
#include "timeline.h"
#include "tracejson.h"
#include "util.h"

/* A dispatch's clock: where its cycle 0 is in the file's. */
struct clock {
	int64_t dispatch, offset;
};

struct tracejson {
	FILE *fp;
	char *path;
	uint64_t events;
	int64_t (*dispatch_of)(void *, uint64_t);
	void *arg;
	struct clock *clock;
	size_t nclock;
	int64_t *offset;	/* by process (a buffer of a kernel) */
	size_t noffset;
	int64_t end;		/* the last end of a slice, on the file's clock */
};

struct tracejson *
tracejson_open(const char *path, char *why, size_t whysz)
{
	struct tracejson *tj = xcalloc(1, sizeof(*tj));

	if ((tj->fp = fopen(path, "w")) == NULL) {
		snprintf(why, whysz, "%s: %s", path, strerror(errno));
		free(tj);
		return NULL;
	}
	tj->path = xstrdup(path);
	fprintf(tj->fp, "{\"displayTimeUnit\": \"ns\", \"otherData\": {\"generator\": "
	    "\"stall-table\", \"time\": \"ts and dur are GPU cycles / %d: one nanosecond shown is "
	    "one cycle; the buffers of a dispatch share its clock, each dispatch starts %d cycles "
	    "after the one before ends\", \"cycles_per_ts\": %d, \"dispatch_gap_cycles\": %d},\n"
	    "\"traceEvents\": [", TRACEJSON_CYCLES_PER_TS, TRACEJSON_GAP, TRACEJSON_CYCLES_PER_TS,
	    TRACEJSON_GAP);
	return tj;
}

void
tracejson_dispatches(struct tracejson *tj, int64_t (*dispatch_of)(void *, uint64_t), void *arg)
{
	tj->dispatch_of = dispatch_of;
	tj->arg = arg;
}

/* The clock of a new process's dispatch: a dispatch seen first starts after the end of
 * all so far. */
static int64_t
clock_of(struct tracejson *tj, int64_t dispatch)
{
	size_t i;

	for (i = 0; i < tj->nclock; i++)
		if (tj->clock[i].dispatch == dispatch)
			return tj->clock[i].offset;
	tj->clock = xreallocarray(tj->clock, tj->nclock + 1, sizeof(*tj->clock));
	tj->clock[tj->nclock].dispatch = dispatch;
	tj->clock[tj->nclock].offset = tj->nclock ? tj->end + TRACEJSON_GAP : 0;
	return tj->clock[tj->nclock++].offset;
}

/* Cycles as the format's microseconds, exactly: cycles / 1000 with three decimals. */
static void
put_ts(FILE *fp, int64_t cycles)
{
	fprintf(fp, "%" PRId64 ".%03" PRId64, cycles / TRACEJSON_CYCLES_PER_TS,
	    cycles % TRACEJSON_CYCLES_PER_TS);
}

static void
sep(struct tracejson *tj)
{
	fputs(tj->events++ ? ",\n" : "\n", tj->fp);
}

void
tracejson_row(void *arg, const struct tl_row *r)
{
	struct tracejson *tj = arg;
	FILE *fp = tj->fp;
	int64_t start;
	char *name;

	if (r->new_process) {
		int64_t d = tj->dispatch_of ? tj->dispatch_of(tj->arg, r->event) : -1;
		if (r->process >= tj->noffset) {
			size_t n = r->process + 1 > 2 * tj->noffset ? r->process + 1 : 2 * tj->noffset;
			tj->offset = xreallocarray(tj->offset, n, sizeof(*tj->offset));
			tj->noffset = n;
		}
		tj->offset[r->process] = clock_of(tj, d);
		sep(tj);
		fprintf(fp, "{\"ph\": \"M\", \"name\": \"process_name\", \"pid\": %" PRIu64
		    ", \"tid\": 0, \"args\": {\"name\": ", r->process);
		if ((d < 0 ? asprintf(&name, "%s SE%" PRIu64 " (event %" PRIu64 ")", r->kernel,
		    r->se, r->event) : asprintf(&name, "%s SE%" PRIu64 " (event %" PRIu64
		    ", dispatch %" PRId64 ")", r->kernel, r->se, r->event, d)) < 0)
			err(2, NULL);
		json_put_string(fp, name);
		free(name);
		fprintf(fp, "}}");
		sep(tj);
		fprintf(fp, "{\"ph\": \"M\", \"name\": \"process_labels\", \"pid\": %" PRIu64
		    ", \"tid\": 0, \"args\": {\"labels\": \"SE %" PRIu64 ", event %" PRIu64
		    "\"}}", r->process, r->se, r->event);
		sep(tj);
		fprintf(fp, "{\"ph\": \"M\", \"name\": \"process_sort_index\", \"pid\": %" PRIu64
		    ", \"tid\": 0, \"args\": {\"sort_index\": %" PRIu64 "}}", r->process,
		    r->process);
	}
	if (r->first) {
		sep(tj);
		fprintf(fp, "{\"ph\": \"M\", \"name\": \"thread_name\", \"pid\": %" PRIu64
		    ", \"tid\": %" PRIu64 ", \"args\": {\"name\": \"slot %" PRIu64 " wave %"
		    PRIu64 "\"}}", r->process, r->thread, r->slot, r->wave);
	}
	sep(tj);
	fputs("{\"ph\": \"X\", \"name\": ", fp);
	json_put_string(fp, r->inst);
	fputs(", \"cat\": ", fp);
	json_put_string(fp, r->cause);
	start = tj->offset[r->process] + r->start;
	if (start + r->cost > tj->end)
		tj->end = start + r->cost;
	fputs(", \"ts\": ", fp);
	put_ts(fp, start);
	fputs(", \"dur\": ", fp);
	put_ts(fp, r->cost);
	fprintf(fp, ", \"pid\": %" PRIu64 ", \"tid\": %" PRIu64 ", \"args\": {", r->process,
	    r->thread);
	if (r->kind == LINE_INST) {	/* a launch or a drain has no pc and no instruction */
		fputs("\"pc\": ", fp);
		json_put_string(fp, r->pc);
		fputs(", \"inst\": ", fp);
		json_put_string(fp, r->inst);
		fputs(", ", fp);
	}
	fputs("\"cause\": ", fp);
	json_put_string(fp, r->cause);
	fprintf(fp, ", \"cycles\": %" PRId64 ", \"issue\": %" PRId64, r->cost, r->time);
	if (r->cause2 == NULL) {
		fputs("}}", fp);
		return;
	}
	/* a second cause: named in the row's args, and its part, the row's last cost2
	 * cycles, a slice of its own inside the row's (one level down in a viewer) */
	fputs(", \"cause2\": ", fp);
	json_put_string(fp, r->cause2);
	fprintf(fp, ", \"cycles2\": %" PRId64 "}}", r->cost2);
	sep(tj);
	fputs("{\"ph\": \"X\", \"name\": ", fp);
	json_put_string(fp, r->cause2);
	fputs(", \"cat\": ", fp);
	json_put_string(fp, r->cause2);
	fputs(", \"ts\": ", fp);
	put_ts(fp, start + r->cost - r->cost2);
	fputs(", \"dur\": ", fp);
	put_ts(fp, r->cost2);
	fprintf(fp, ", \"pid\": %" PRIu64 ", \"tid\": %" PRIu64 ", \"args\": {\"cause2\": ",
	    r->process, r->thread);
	json_put_string(fp, r->cause2);
	fprintf(fp, ", \"cycles2\": %" PRId64 ", \"issue\": %" PRId64 "}}", r->cost2, r->time);
}

int
tracejson_close(struct tracejson *tj, char *why, size_t whysz)
{
	FILE *fp = tj->fp;

	fputs("\n]}\n", fp);
	if (fflush(fp) != 0 || ferror(fp)) {
		snprintf(why, whysz, "%s: %s", tj->path, strerror(errno));
		return -1;
	}
	tj->fp = NULL;
	if (fclose(fp) != 0) {
		snprintf(why, whysz, "%s: %s", tj->path, strerror(errno));
		return -1;
	}
	free(tj->path);
	free(tj->clock);
	free(tj->offset);
	free(tj);
	return 0;
}

void
tracejson_discard(struct tracejson *tj)
{
	if (tj->fp)
		discard_output(tj->fp, tj->path);
	free(tj->path);
	free(tj->clock);
	free(tj->offset);
	free(tj);
}
