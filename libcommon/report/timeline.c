#include <err.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "timeline.h"
#include "tsv.h"
#include "util.h"

#define MAX_CAUSE 64	/* the causes of stall-attr(1) are about twenty */

struct bar {
	int64_t start, len, longest;	/* longest: the cost of its longest row */
	uint32_t inst, rows;		/* inst: of its longest row */
	uint8_t cause;			/* of its longest row */
};

struct lane {
	size_t kernel;
	uint64_t event, se, slot, wave, rows;
	struct bar *bar;
	size_t nbar, cap;
};

struct kernel {
	char *name;
	uint64_t waves, rows, lanes, rows_drawn;
	int64_t t0, t1;		/* the drawn lanes' first start and last end */
};

/* A live wave (wave != NOWAVE) or a (kernel, event) pair, in one hash table. */
#define NOWAVE UINT64_MAX
struct entry {
	struct entry *next;
	size_t kernel;
	uint64_t event, wave, id;
	uint64_t process;	/* a wave's (kernel, event) pair */
	int64_t cursor;		/* where the wave's next row starts */
	struct lane *lane;	/* NULL: not drawn */
};

struct inst {
	struct inst *next;
	char *pc, *text;
	uint64_t hash;
	uint32_t index;
};

struct timeline {
	int keep_bars;
	size_t max_lanes, max_bars;
	tl_sink *sink;
	void *sink_arg;
	int c_event, c_se, c_kernel, c_wave, c_slot, c_pc, c_time, c_delta, c_token, c_inst;

	struct kernel *kernel;
	size_t nkernel, capkernel, lastkernel;
	struct entry **htab;
	size_t hsize, hcount;
	uint64_t nprocess, nthread, rows;

	struct lane **lane;
	size_t nlane, caplane;
	size_t nbar;		/* over all lanes */
	uint32_t rows_per_bar;

	struct inst **itab, **insts;
	size_t isize, ninst;
	char *cause[MAX_CAUSE];
	size_t ncause;
	char error[160];
};

const char *timeline_error(const struct timeline *tl) { return tl->error; }

struct timeline *
timeline_new(int keep_bars, size_t max_lanes, size_t max_bars)
{
	struct timeline *tl = xcalloc(1, sizeof(*tl));

	tl->keep_bars = keep_bars;
	tl->max_lanes = max_lanes;
	tl->max_bars = max_bars < 2 ? 2 : max_bars;
	tl->rows_per_bar = 1;
	tl->c_event = -1;
	return tl;
}

void
timeline_sink(struct timeline *tl, tl_sink *sink, void *arg)
{
	tl->sink = sink;
	tl->sink_arg = arg;
}

void
timeline_header(struct timeline *tl, const struct tsv *t)
{
	tl->c_event = tsv_need(t, "event");
	tl->c_se = tsv_need(t, "se");
	tl->c_kernel = tsv_need(t, "kernel");
	tl->c_wave = tsv_need(t, "wave");
	tl->c_slot = tsv_need(t, "slot");
	tl->c_pc = tsv_need(t, "pc");
	tl->c_time = tsv_need(t, "time");
	tl->c_delta = tsv_need(t, "delta");
	tl->c_token = tsv_need(t, "token");
	tl->c_inst = tsv_need(t, "inst");
}

static size_t
kernel_get(struct timeline *tl, const char *name)
{
	size_t i;

	if (tl->lastkernel < tl->nkernel && strcmp(tl->kernel[tl->lastkernel].name, name) == 0)
		return tl->lastkernel;
	for (i = 0; i < tl->nkernel; i++)
		if (strcmp(tl->kernel[i].name, name) == 0)
			return tl->lastkernel = i;
	if (tl->nkernel == tl->capkernel) {
		tl->capkernel = tl->capkernel ? 2 * tl->capkernel : 8;
		tl->kernel = xreallocarray(tl->kernel, tl->capkernel, sizeof(*tl->kernel));
	}
	memset(&tl->kernel[tl->nkernel], 0, sizeof(tl->kernel[0]));
	tl->kernel[tl->nkernel].name = xstrdup(name);
	return tl->lastkernel = tl->nkernel++;
}

static uint64_t
mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
	return h * 0xff51afd7ed558ccdULL;
}

static size_t
entry_slot(const struct timeline *tl, size_t kernel, uint64_t event, uint64_t wave)
{
	uint64_t h = mix(mix(mix(0, kernel), event), wave);

	return (size_t)(h ^ (h >> 29)) & (tl->hsize - 1);
}

static void
entry_grow(struct timeline *tl)
{
	struct entry **old = tl->htab, *e, *next;
	size_t i, n = tl->hsize;

	tl->hsize = n ? 2 * n : 256;
	tl->htab = xcalloc(tl->hsize, sizeof(*tl->htab));
	for (i = 0; i < n; i++)
		for (e = old[i]; e; e = next) {
			size_t s = entry_slot(tl, e->kernel, e->event, e->wave);
			next = e->next;
			e->next = tl->htab[s];
			tl->htab[s] = e;
		}
	free(old);
}

/* The entry of (kernel, event, wave); *isnew says it was made now. */
static struct entry *
entry_get(struct timeline *tl, size_t kernel, uint64_t event, uint64_t wave, int *isnew)
{
	struct entry *e;
	size_t s;

	*isnew = 0;
	if (tl->hsize) {
		s = entry_slot(tl, kernel, event, wave);
		for (e = tl->htab[s]; e; e = e->next)
			if (e->kernel == kernel && e->event == event && e->wave == wave)
				return e;
	}
	if (tl->hcount >= tl->hsize / 4 * 3)
		entry_grow(tl);
	s = entry_slot(tl, kernel, event, wave);
	e = xcalloc(1, sizeof(*e));
	e->kernel = kernel;
	e->event = event;
	e->wave = wave;
	e->next = tl->htab[s];
	tl->htab[s] = e;
	tl->hcount++;
	*isnew = 1;
	return e;
}

static void
entry_drop(struct timeline *tl, struct entry *gone)
{
	struct entry **p = &tl->htab[entry_slot(tl, gone->kernel, gone->event, gone->wave)];

	for (; *p; p = &(*p)->next)
		if (*p == gone) {
			*p = gone->next;
			free(gone);
			tl->hcount--;
			return;
		}
}

/* The index of the instruction (pc, text): one copy of each distinct instruction. */
static uint32_t
inst_get(struct timeline *tl, const char *pc, const char *text)
{
	uint64_t h = 14695981039346656037ULL;
	const char *s;
	struct inst *in, *next, **old;
	size_t i, n;

	for (s = pc; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	h = (h ^ '\t') * 1099511628211ULL;
	for (s = text; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	if (tl->isize)
		for (in = tl->itab[h & (tl->isize - 1)]; in; in = in->next)
			if (in->hash == h && strcmp(in->pc, pc) == 0 && strcmp(in->text, text) == 0)
				return in->index;
	if (tl->ninst >= UINT32_MAX)
		errx(2, "timeline: more than %" PRIu32 " distinct instructions", UINT32_MAX);
	if (tl->ninst >= tl->isize / 4 * 3) {
		old = tl->itab;
		n = tl->isize;
		tl->isize = n ? 2 * n : 1024;
		tl->itab = xcalloc(tl->isize, sizeof(*tl->itab));
		for (i = 0; i < n; i++)
			for (in = old[i]; in; in = next) {
				next = in->next;
				in->next = tl->itab[in->hash & (tl->isize - 1)];
				tl->itab[in->hash & (tl->isize - 1)] = in;
			}
		free(old);
		tl->insts = xreallocarray(tl->insts, tl->isize, sizeof(*tl->insts));
	}
	in = xcalloc(1, sizeof(*in));
	in->pc = xstrdup(pc);
	in->text = xstrdup(text);
	in->hash = h;
	in->index = (uint32_t)tl->ninst;
	in->next = tl->itab[h & (tl->isize - 1)];
	tl->itab[h & (tl->isize - 1)] = in;
	tl->insts[tl->ninst++] = in;
	return in->index;
}

static uint8_t
cause_get(struct timeline *tl, const char *name)
{
	size_t i;

	for (i = 0; i < tl->ncause; i++)
		if (strcmp(tl->cause[i], name) == 0)
			return (uint8_t)i;
	if (tl->ncause == MAX_CAUSE - 1) {
		/* the caller names its causes from a fixed list: this is only a guard */
		tl->cause[tl->ncause++] = xstrdup("other");
		return (uint8_t)(tl->ncause - 1);
	}
	if (tl->ncause == MAX_CAUSE)
		return MAX_CAUSE - 1;
	tl->cause[tl->ncause++] = xstrdup(name);
	return (uint8_t)(tl->ncause - 1);
}

static void
bar_merge(struct bar *a, const struct bar *b)
{
	a->len = b->start + b->len - a->start;
	a->rows += b->rows;
	if (b->longest > a->longest) {
		a->longest = b->longest;
		a->inst = b->inst;
		a->cause = b->cause;
	}
}

/* Too many bars: every bar now stands for twice as many rows. */
static void
coarsen(struct timeline *tl)
{
	size_t i, j, k;
	struct lane *l;

	tl->rows_per_bar *= 2;
	tl->nbar = 0;
	for (i = 0; i < tl->nlane; i++) {
		l = tl->lane[i];
		for (j = k = 0; j < l->nbar; j += 2, k++) {
			l->bar[k] = l->bar[j];
			if (j + 1 < l->nbar)
				bar_merge(&l->bar[k], &l->bar[j + 1]);
		}
		l->nbar = k;
		tl->nbar += k;
	}
}

static void
lane_add(struct timeline *tl, struct lane *l, const struct tl_row *r)
{
	struct bar b, *last = l->nbar ? &l->bar[l->nbar - 1] : NULL;
	struct kernel *k = &tl->kernel[l->kernel];

	b.start = r->start;
	b.len = b.longest = r->cost;
	b.rows = 1;
	b.inst = inst_get(tl, r->pc, r->inst);
	b.cause = cause_get(tl, r->cause);
	if (k->rows_drawn == 0 || r->start < k->t0)
		k->t0 = r->start;
	if (k->rows_drawn == 0 || r->start + r->cost > k->t1)
		k->t1 = r->start + r->cost;
	k->rows_drawn++;
	l->rows++;
	if (last && last->rows < tl->rows_per_bar) {
		bar_merge(last, &b);
		return;
	}
	if (l->nbar == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 16;
		l->bar = xreallocarray(l->bar, l->cap, sizeof(*l->bar));
	}
	l->bar[l->nbar++] = b;
	if (++tl->nbar > tl->max_bars)
		coarsen(tl);
}

static struct lane *
lane_new(struct timeline *tl, const struct tl_row *r, size_t kernel)
{
	struct lane *l = xcalloc(1, sizeof(*l));

	l->kernel = kernel;
	l->event = r->event;
	l->se = r->se;
	l->slot = r->slot;
	l->wave = r->wave;
	if (tl->nlane == tl->caplane) {
		tl->caplane = tl->caplane ? 2 * tl->caplane : 64;
		tl->lane = xreallocarray(tl->lane, tl->caplane, sizeof(*tl->lane));
	}
	tl->lane[tl->nlane++] = l;
	tl->kernel[kernel].lanes++;
	return l;
}

void
timeline_row(struct timeline *tl, const struct tsv *t, int64_t cost, const char *cause)
{
	struct tl_row r;

	if (tl->c_event < 0)
		tsv_fail(t, "no column header before the rows");
	r.kernel = t->field[tl->c_kernel];
	r.pc = t->field[tl->c_pc];
	r.inst = t->field[tl->c_inst];
	r.cause = cause;
	r.event = tsv_u64(t, tl->c_event);
	r.se = tsv_u64(t, tl->c_se);
	r.wave = tsv_u64(t, tl->c_wave);
	r.slot = tsv_u64(t, tl->c_slot);
	r.time = tsv_i64(t, tl->c_time);
	r.delta = tsv_i64(t, tl->c_delta);
	r.cost = cost;
	if (r.time < 0 || r.delta < 0)
		tsv_fail(t, "%s: %" PRId64 " is negative", r.time < 0 ? "time" : "delta",
		    r.time < 0 ? r.time : r.delta);
	if (r.wave == NOWAVE)
		tsv_fail(t, "wave: %" PRIu64 " is out of range", r.wave);
	if (timeline_add(tl, &r, strcmp(t->field[tl->c_token], "WAVE_END") == 0) != 0)
		tsv_fail(t, "%s", tl->error);
}

int
timeline_add(struct timeline *tl, struct tl_row *rp, int wave_end)
{
	struct tl_row r = *rp;
	struct entry *e, *p;
	size_t ki;
	int isnew;

	ki = kernel_get(tl, r.kernel);
	e = entry_get(tl, ki, r.event, r.wave, &isnew);
	r.first = isnew;
	r.new_process = 0;
	if (isnew) {
		if (r.delta > r.time) {
			snprintf(tl->error, sizeof(tl->error), "delta %" PRId64 " is more than the "
			    "time %" PRId64 ": the wave would start before cycle 0", r.delta, r.time);
			return -1;
		}
		e->cursor = r.time - r.delta;
		e->id = ++tl->nthread;
		tl->kernel[ki].waves++;
		if (tl->keep_bars && tl->kernel[ki].lanes < tl->max_lanes)
			e->lane = lane_new(tl, &r, ki);
		p = entry_get(tl, ki, r.event, NOWAVE, &r.new_process);
		if (r.new_process)
			p->id = ++tl->nprocess;
		e->process = p->id;
	}
	r.process = e->process;
	r.thread = e->id;
	r.start = e->cursor;
	if (__builtin_add_overflow(r.start, r.cost, &e->cursor)) {
		snprintf(tl->error, sizeof(tl->error), "the wave's cycles add up beyond range");
		return -1;
	}
	tl->kernel[ki].rows++;
	tl->rows++;
	if (e->lane)
		lane_add(tl, e->lane, &r);
	if (tl->sink)
		tl->sink(tl->sink_arg, &r);
	if (wave_end)
		entry_drop(tl, e);
	return 0;
}

uint64_t
timeline_rows(const struct timeline *tl)
{
	return tl->rows;
}

static int
cmp_lane(const void *pa, const void *pb)
{
	const struct lane *a = *(struct lane *const *)pa, *b = *(struct lane *const *)pb;

	if (a->kernel != b->kernel)
		return a->kernel < b->kernel ? -1 : 1;
	if (a->event != b->event)
		return a->event < b->event ? -1 : 1;
	if (a->slot != b->slot)
		return a->slot < b->slot ? -1 : 1;
	if (a->wave != b->wave)
		return a->wave < b->wave ? -1 : 1;
	return 0;
}

void
timeline_json(const struct timeline *tl, FILE *fp)
{
	struct lane **lane = xcalloc(tl->nlane, sizeof(*lane));
	const struct kernel *k;
	const struct lane *l;
	const struct bar *b;
	size_t i, j, ki;
	int group_open;

	fprintf(fp, "{\"version\": 1, \"time\": \"cycles\", \"max_lanes\": %zu, \"max_bars\": %zu"
	    ", \"rows_per_bar\": %" PRIu32 ", \"causes\": [", tl->max_lanes, tl->max_bars,
	    tl->rows_per_bar);
	for (i = 0; i < tl->ncause; i++) {
		if (i)
			fputs(", ", fp);
		json_put_string(fp, tl->cause[i]);
	}
	fputs("],\n\"insts\": [", fp);
	for (i = 0; i < tl->ninst; i++) {
		fputs(i ? ",\n [" : "\n [", fp);
		json_put_string(fp, tl->insts[i]->pc);
		fputs(", ", fp);
		json_put_string(fp, tl->insts[i]->text);
		fputc(']', fp);
	}
	fputs("],\n\"kernels\": [", fp);
	if (tl->nlane)
		memcpy(lane, tl->lane, tl->nlane * sizeof(*lane));
	qsort(lane, tl->nlane, sizeof(*lane), cmp_lane);
	for (ki = 0, j = 0; ki < tl->nkernel; ki++) {
		k = &tl->kernel[ki];
		fputs(ki ? ",\n{\"kernel\": " : "\n{\"kernel\": ", fp);
		json_put_string(fp, k->name);
		fprintf(fp, ", \"t0\": %" PRId64 ", \"t1\": %" PRId64 ", \"waves\": %" PRIu64
		    ", \"rows\": %" PRIu64 ", \"waves_drawn\": %" PRIu64 ", \"rows_drawn\": %"
		    PRIu64 ", \"groups\": [", k->t0, k->t1, k->waves, k->rows, k->lanes,
		    k->rows_drawn);
		group_open = 0;
		for (; j < tl->nlane && lane[j]->kernel == ki; j++) {
			l = lane[j];
			if (!group_open || l->event != lane[j - 1]->event) {
				fprintf(fp, "%s\n {\"event\": %" PRIu64 ", \"se\": %" PRIu64
				    ", \"lanes\": [", group_open ? "]}," : "", l->event, l->se);
				group_open = 1;
			} else
				fputc(',', fp);
			fprintf(fp, "\n  {\"wave\": %" PRIu64 ", \"slot\": %" PRIu64 ", \"rows\": %"
			    PRIu64 ", \"bars\": [", l->wave, l->slot, l->rows);
			for (i = 0; i < l->nbar; i++) {
				b = &l->bar[i];
				fprintf(fp, "%s%" PRId64 ",%" PRId64 ",%" PRIu32 ",%u,%" PRIu32 ",%"
				    PRId64, i ? "," : "", b->start - k->t0, b->len, b->inst,
				    (unsigned)b->cause, b->rows, b->longest);
			}
			fputs("]}", fp);
		}
		fputs(group_open ? "]}]}" : "]}", fp);
	}
	fputs("]}", fp);
	free(lane);
}

void
timeline_free(struct timeline *tl)
{
	struct entry *e, *next;
	struct inst *in, *inext;
	size_t i;

	if (tl == NULL)
		return;
	for (i = 0; i < tl->hsize; i++)
		for (e = tl->htab[i]; e; e = next) {
			next = e->next;
			free(e);
		}
	for (i = 0; i < tl->isize; i++)
		for (in = tl->itab[i]; in; in = inext) {
			inext = in->next;
			free(in->pc);
			free(in->text);
			free(in);
		}
	for (i = 0; i < tl->nlane; i++) {
		free(tl->lane[i]->bar);
		free(tl->lane[i]);
	}
	for (i = 0; i < tl->nkernel; i++)
		free(tl->kernel[i].name);
	for (i = 0; i < tl->ncause; i++)
		free(tl->cause[i]);
	free(tl->htab);
	free(tl->itab);
	free(tl->insts);
	free(tl->lane);
	free(tl->kernel);
	free(tl);
}
