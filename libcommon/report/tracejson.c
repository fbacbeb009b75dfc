#include <err.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "out.h"
#include "profile.h"
#include "timeline.h"
#include "tracejson.h"
#include "util.h"

/* A dispatch's clock: where its cycle 0 is in the file's. */
struct clock {
	int64_t dispatch, offset;
};

#define TRACEJSON_BLOCK (1u << 16)

/* A string's JSON, kept by its address: the strings of a row of a key (timeline.h) stay
 * while the trace is written, and their escaping was a third of its time. */
#define MEMO_SLOTS 4096
#define MEMO_MAX 512	/* longer ones escaped each time */
struct memo {
	const char *str;
	char *json;
	size_t len;
};

struct tracejson {
	FILE *fp;
	struct out_block o;	/* the slices' text, before fp */
	char *path;
	uint64_t events;
	int64_t (*dispatch_of)(void *, uint64_t);
	void *arg;
	struct clock *clock;
	size_t nclock;
	int64_t *offset;	/* by process (a buffer of a kernel) */
	size_t noffset;
	int64_t end;		/* the last end of a slice, on the file's clock */
	struct memo *memo;	/* MEMO_SLOTS, by address */
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
	tj->o.fp = tj->fp;
	tj->o.buf = xcalloc(1, TRACEJSON_BLOCK);
	tj->o.cap = TRACEJSON_BLOCK;
	tj->memo = xcalloc(MEMO_SLOTS, sizeof(*tj->memo));
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
static char *
put_ts(char *p, int64_t cycles)
{
	int64_t frac = cycles % TRACEJSON_CYCLES_PER_TS;

	if (cycles < 0)		/* no row makes one; C's division, as printf showed it */
		return p + sprintf(p, "%" PRId64 ".%03" PRId64, cycles / TRACEJSON_CYCLES_PER_TS,
		    frac);
	p = fmt_u64(p, (uint64_t)(cycles / TRACEJSON_CYCLES_PER_TS));
	*p++ = '.';
	p[0] = (char)('0' + frac / 100);
	p[1] = (char)('0' + frac / 10 % 10);
	p[2] = (char)('0' + frac % 10);
	return p + 3;
}

#define LIT(p, s) (memcpy((p), (s), sizeof(s) - 1), (p) + sizeof(s) - 1)

/* Room for the numbers and words of a slice between its strings. */
#define SLICE_ROOM 256

static void
sep(struct tracejson *tj)
{
	char *p = out_block_room(&tj->o, 2);

	p = tj->events++ ? LIT(p, ",\n") : LIT(p, "\n");
	out_block_end(&tj->o, p);
}

/* The names of a process or a thread: rare, through stdio after the slices before. */
static void
put_names(struct tracejson *tj, const struct tl_row *r)
{
	FILE *fp = tj->fp;
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
		out_block_flush(&tj->o);
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
		out_block_flush(&tj->o);
		fprintf(fp, "{\"ph\": \"M\", \"name\": \"process_labels\", \"pid\": %" PRIu64
		    ", \"tid\": 0, \"args\": {\"labels\": \"SE %" PRIu64 ", event %" PRIu64
		    "\"}}", r->process, r->se, r->event);
		sep(tj);
		out_block_flush(&tj->o);
		fprintf(fp, "{\"ph\": \"M\", \"name\": \"process_sort_index\", \"pid\": %" PRIu64
		    ", \"tid\": 0, \"args\": {\"sort_index\": %" PRIu64 "}}", r->process,
		    r->process);
	}
	if (r->first) {
		sep(tj);
		out_block_flush(&tj->o);
		fprintf(fp, "{\"ph\": \"M\", \"name\": \"thread_name\", \"pid\": %" PRIu64
		    ", \"tid\": %" PRIu64 ", \"args\": {\"name\": \"slot %" PRIu64 " wave %"
		    PRIu64 "\"}}", r->process, r->thread, r->slot, r->wave);
	}
}

/* s as a JSON string; stable: s stays unchanged at its address while tj lives. */
static void
put_string(struct tracejson *tj, const char *s, int stable)
{
	struct out_block *o = &tj->o;
	struct memo *m;
	size_t len, at;

	if (!stable) {
		json_block_string(o, s);
		return;
	}
	m = &tj->memo[((uintptr_t)s >> 3) * UINT64_C(0x9e3779b97f4a7c15) >> 52];
	if (m->str == s) {
		if (o->n + m->len <= o->cap) {
			out_block_end(o, out_copy(o->buf + o->n, m->json, m->len));
			return;
		}
		out_block_put(o, m->json, m->len);
		return;
	}
	if ((len = strlen(s)) > MEMO_MAX) {
		json_block_string(o, s);
		return;
	}
	/* escaped where it goes, with room for the longest escaping: no block written in
	 * between */
	out_block_room(o, 6 * len + 2);
	at = o->n;
	json_block_string(o, s);
	free(m->json);
	m->len = o->n - at;
	m->json = xreallocarray(NULL, m->len, 1);
	memcpy(m->json, o->buf + at, m->len);
	m->str = s;
}

/* A complete slice up to the opening of its args: its name, category, time, length and
 * ids. */
static char *
slice_head(struct tracejson *tj, const struct tl_row *r, const char *name, const char *cat,
    int64_t ts, int64_t dur, int stable)
{
	struct out_block *o = &tj->o;
	char *p;

	sep(tj);
	p = out_block_room(o, SLICE_ROOM);
	out_block_end(o, LIT(p, "{\"ph\": \"X\", \"name\": "));
	put_string(tj, name, stable);
	p = out_block_room(o, SLICE_ROOM);
	out_block_end(o, LIT(p, ", \"cat\": "));
	put_string(tj, cat, stable);
	p = out_block_room(o, SLICE_ROOM);
	p = LIT(p, ", \"ts\": ");
	p = put_ts(p, ts);
	p = LIT(p, ", \"dur\": ");
	p = put_ts(p, dur);
	p = LIT(p, ", \"pid\": ");
	p = fmt_u64(p, r->process);
	p = LIT(p, ", \"tid\": ");
	p = fmt_u64(p, r->thread);
	return LIT(p, ", \"args\": {");
}

void
tracejson_row(void *arg, const struct tl_row *r)
{
	struct tracejson *tj = arg;
	struct out_block *o = &tj->o;
	int64_t start;
	int stable = r->key != NULL;
	char *p;

	if (r->new_process || r->first)
		put_names(tj, r);
	start = tj->offset[r->process] + r->start;
	if (start + r->cost > tj->end)
		tj->end = start + r->cost;
	p = slice_head(tj, r, r->inst, r->cause, start, r->cost, stable);
	if (r->kind == LINE_INST) {	/* a launch or a drain has no pc and no instruction */
		out_block_end(o, LIT(p, "\"pc\": "));
		put_string(tj, r->pc, stable);
		p = out_block_room(o, SLICE_ROOM);
		out_block_end(o, LIT(p, ", \"inst\": "));
		put_string(tj, r->inst, stable);
		p = out_block_room(o, SLICE_ROOM);
		p = LIT(p, ", ");
	}
	out_block_end(o, LIT(p, "\"cause\": "));
	put_string(tj, r->cause, stable);
	p = out_block_room(o, SLICE_ROOM);
	p = LIT(p, ", \"cycles\": ");
	p = fmt_i64(p, r->cost);
	p = LIT(p, ", \"issue\": ");
	p = fmt_i64(p, r->time);
	if (r->cause2 == NULL) {
		out_block_end(o, LIT(p, "}}"));
		return;
	}
	/* a second cause: named in the row's args, and its part, the row's last cost2
	 * cycles, a slice of its own inside the row's (one level down in a viewer) */
	out_block_end(o, LIT(p, ", \"cause2\": "));
	put_string(tj, r->cause2, stable);
	p = out_block_room(o, SLICE_ROOM);
	p = LIT(p, ", \"cycles2\": ");
	p = fmt_i64(p, r->cost2);
	out_block_end(o, LIT(p, "}}"));
	p = slice_head(tj, r, r->cause2, r->cause2, start + r->cost - r->cost2, r->cost2,
	    stable);
	out_block_end(o, LIT(p, "\"cause2\": "));
	put_string(tj, r->cause2, stable);
	p = out_block_room(o, SLICE_ROOM);
	p = LIT(p, ", \"cycles2\": ");
	p = fmt_i64(p, r->cost2);
	p = LIT(p, ", \"issue\": ");
	p = fmt_i64(p, r->time);
	out_block_end(o, LIT(p, "}}"));
}

static void
tj_free(struct tracejson *tj)
{
	size_t i;

	for (i = 0; i < MEMO_SLOTS; i++)
		free(tj->memo[i].json);
	free(tj->memo);
	free(tj->o.buf);
	free(tj->path);
	free(tj->clock);
	free(tj->offset);
	free(tj);
}

int
tracejson_close(struct tracejson *tj, char *why, size_t whysz)
{
	FILE *fp = tj->fp;

	out_block_flush(&tj->o);
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
	tj_free(tj);
	return 0;
}

void
tracejson_discard(struct tracejson *tj)
{
	if (tj->fp)
		discard_output(tj->fp, tj->path);
	tj_free(tj);
}
