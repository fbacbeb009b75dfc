#include <err.h>
#include <stddef.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "out.h"
#include "profile.h"
#include "timeline.h"
#include "rowkind.h"
#include "tsv.h"
#include "util.h"

#define MAX_CAUSE 64	/* the causes of stall-attr(1) are about twenty */
#define IMEMO 4096	/* tl_row.key memo slots */
#define WMEMO 256	/* live waves' entries memo slots: each row looks up its wave's
			 * (stall --html 0.95x the CPU time on the 6 x 9 MiB bench) */

/* Where a kernel, an instruction, a cause, a pair or a lane was first seen: the event of
 * its row, and the things first seen before it in its timeline.  The rows of an event come
 * in order and all to one timeline, so this orders what timelines merged saw as one that
 * saw it all would. */
struct first {
	uint64_t event, seq;
};

static int
first_cmp(struct first a, struct first b)
{
	if (a.event != b.event)
		return a.event < b.event ? -1 : 1;
	return a.seq < b.seq ? -1 : a.seq > b.seq;
}

struct bar {
	int64_t start, len, longest;	/* longest: the cost of its longest row */
	int64_t len2;			/* of its longest row: the second cause's part */
	uint32_t inst, rows;		/* inst: of its longest row */
	uint8_t cause, cause2;		/* of its longest row (cause2: when len2 > 0) */
};

struct lane {
	size_t kernel;
	uint64_t process;
	uint64_t event, se, slot, wave, rows;
	struct first first;
	struct bar *bar;
	size_t nbar, cap;
	int ended;		/* its wave's WAVE_END came: no bar to add */
};

struct kernel {
	char *name;
	const char *key;	/* the name as the caller last gave it */
	size_t next;		/* the next kernel of the same hash, + 1 (0: none) */
	uint64_t waves, rows, lanes, rows_drawn;
	int64_t t0, t1;		/* the drawn lanes' first start and last end */
	struct first first;
};

/* A live wave (wave != NOWAVE) or a (kernel, event) pair, in one hash table. */
#define NOWAVE UINT64_MAX
struct entry {
	struct entry *next;
	size_t kernel;
	uint64_t event, wave, id;
	uint64_t process;	/* a wave's (kernel, event) pair */
	int64_t cursor;		/* where the wave's next row starts */
	int64_t start;		/* its WAVE_START */
	struct lane *lane;	/* NULL: not drawn */
};

/* A wave's lifetime on its SIMD, for the occupancy: whatever tells of one (a row
 * stream's waves now; the walker's waves of other SIMDs may come the same way). */
struct life {
	uint64_t process;	/* the (kernel, event) pair: one traced SIMD */
	int64_t start, end;
};

/* A (kernel, event) pair, by its process id - 1. */
struct proc {
	size_t kernel;
	uint64_t event, se;
	uint64_t lanes;		/* of its waves, those drawn */
	struct first first;
};

struct inst {
	struct inst *next;
	char *pc, *text;
	uint64_t hash;
	uint32_t index;
	struct first first;
};

struct timeline {
	const struct occupancy *occ;	/* every SIMD's waves in flight, or NULL */
	int keep_bars;
	size_t max_lanes, max_bars;
	tl_sink *sink;
	void *sink_arg;
	int c_event, c_se, c_kernel, c_wave, c_slot, c_pc, c_time, c_delta, c_token, c_inst;

	struct kernel *kernel;
	size_t nkernel, capkernel, lastkernel;
	struct u64map kbyname;	/* the first kernel of a name's hash, + 1 */
	struct entry **htab;
	size_t hsize, hcount;
	struct entry *wmemo[WMEMO];	/* a live wave's entry by its number, direct-mapped */
	uint64_t nprocess, nthread, rows;

	struct lane **lane;
	size_t nlane, caplane;
	size_t nbar;		/* over all lanes */
	size_t nmulti;		/* lanes of two bars or more */
	uint32_t rows_per_bar;
	uint64_t now;		/* the event of the row being added */
	uint64_t seen;		/* things first seen */
	int merged;		/* a timeline merged in: no more rows */

	struct life *life;
	size_t nlife, caplife;
	struct proc *proc;
	size_t capproc;

	struct inst **itab, **insts;
	size_t isize, ninst;
	char *cause[MAX_CAUSE];
	const char *cause_key[MAX_CAUSE];	/* each name as the caller gave it first */
	struct first cause_first[MAX_CAUSE];
	size_t ncause;
	/* an instruction's index by the caller's key (tl_row.key), direct-mapped */
	struct { const void *key; uint32_t index; } imemo[IMEMO];
	char error[160];
};

const char *timeline_error(const struct timeline *tl) { return tl->error; }

static struct first
seen(struct timeline *tl)
{
	return (struct first){ tl->now, tl->seen++ };
}

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

/* Column name of t into *c, else "no column 'NAME'" returned (tsv_need's line). */
#define NEED(t, c, name, why, whysz) do {					\
	if ((*(c) = tsv_col((t), (name))) < 0)					\
		return tsv_why((t), (why), (whysz), "no column '%s'", (name));	\
} while (0)

int
timeline_header(struct timeline *tl, const struct tsv *t, char *why, size_t whysz)
{
	NEED(t, &tl->c_event, "event", why, whysz);
	NEED(t, &tl->c_se, "se", why, whysz);
	NEED(t, &tl->c_kernel, "kernel", why, whysz);
	NEED(t, &tl->c_wave, "wave", why, whysz);
	NEED(t, &tl->c_slot, "slot", why, whysz);
	NEED(t, &tl->c_pc, "pc", why, whysz);
	NEED(t, &tl->c_time, "time", why, whysz);
	NEED(t, &tl->c_delta, "delta", why, whysz);
	NEED(t, &tl->c_token, "token", why, whysz);
	NEED(t, &tl->c_inst, "inst", why, whysz);
	return 0;
}

#undef NEED

/* The kernel's index; stable: name is the caller's, unchanged while the timeline lives
 * (looked for by its address first). */
static size_t
kernel_get(struct timeline *tl, const char *name, int stable)
{
	void **slot;
	size_t i;

	if (tl->lastkernel < tl->nkernel && ((stable && tl->kernel[tl->lastkernel].key == name) ||
	    strcmp(tl->kernel[tl->lastkernel].name, name) == 0)) {
		if (stable)
			tl->kernel[tl->lastkernel].key = name;
		return tl->lastkernel;
	}
	slot = u64map_slot(&tl->kbyname, mem_hash(name, strlen(name), 0));
	for (i = (size_t)(uintptr_t)*slot; i != 0; i = tl->kernel[i - 1].next)
		if (strcmp(tl->kernel[i - 1].name, name) == 0)
			return tl->lastkernel = i - 1;
	if (tl->nkernel == tl->capkernel) {
		tl->capkernel = tl->capkernel ? 2 * tl->capkernel : 8;
		tl->kernel = xreallocarray(tl->kernel, tl->capkernel, sizeof(*tl->kernel));
	}
	memset(&tl->kernel[tl->nkernel], 0, sizeof(tl->kernel[0]));
	tl->kernel[tl->nkernel].name = xstrdup(name);
	tl->kernel[tl->nkernel].first = seen(tl);
	tl->kernel[tl->nkernel].next = (size_t)(uintptr_t)*slot;
	*slot = (void *)(uintptr_t)(tl->nkernel + 1);
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
	struct entry *e, **m = &tl->wmemo[wave % WMEMO];
	size_t s;

	*isnew = 0;
	if (*m != NULL && (*m)->wave == wave && (*m)->event == event && (*m)->kernel == kernel)
		return *m;
	if (tl->hsize) {
		s = entry_slot(tl, kernel, event, wave);
		for (e = tl->htab[s]; e; e = e->next)
			if (e->kernel == kernel && e->event == event && e->wave == wave)
				return *m = e;
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
	return *m = e;
}

static void
entry_drop(struct timeline *tl, struct entry *gone)
{
	struct entry **p = &tl->htab[entry_slot(tl, gone->kernel, gone->event, gone->wave)];

	if (tl->wmemo[gone->wave % WMEMO] == gone)
		tl->wmemo[gone->wave % WMEMO] = NULL;

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
	in->first = seen(tl);
	in->next = tl->itab[h & (tl->isize - 1)];
	tl->itab[h & (tl->isize - 1)] = in;
	tl->insts[tl->ninst++] = in;
	return in->index;
}

static uint8_t
cause_get(struct timeline *tl, const char *name, int stable)
{
	size_t i;

	for (i = 0; stable && i < tl->ncause; i++)
		if (tl->cause_key[i] == name)
			return (uint8_t)i;
	for (i = 0; i < tl->ncause; i++)
		if (strcmp(tl->cause[i], name) == 0)
			return (uint8_t)i;
	if (tl->ncause == MAX_CAUSE - 1) {
		/* the caller names its causes from a fixed list: this is only a guard */
		tl->cause_first[tl->ncause] = seen(tl);
		tl->cause[tl->ncause++] = xstrdup("other");
		return (uint8_t)(tl->ncause - 1);
	}
	if (tl->ncause == MAX_CAUSE)
		return MAX_CAUSE - 1;
	tl->cause_key[tl->ncause] = stable ? name : NULL;
	tl->cause_first[tl->ncause] = seen(tl);
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
		a->len2 = b->len2;
		a->cause2 = b->cause2;
	}
}

/* Each run of by bars of l made one: bar i of a lane always holds its rows
 * i * rows_per_bar to (i + 1) * rows_per_bar - 1, whenever it was merged. */
static void
lane_coarsen(struct lane *l, uint32_t by)
{
	size_t j, k, m;

	for (j = k = 0; j < l->nbar; j += by, k++) {
		l->bar[k] = l->bar[j];
		for (m = j + 1; m < j + by && m < l->nbar; m++)
			bar_merge(&l->bar[k], &l->bar[m]);
	}
	l->nbar = k;
}

/* l's bars held in about as much room as they take: twice it while its wave lives, just
 * it once the wave ended.  Else the room each lane once had, at fewer rows a bar, would
 * stay: the room of every lane drawn, growing with the trace. */
static void
lane_fit(struct lane *l)
{
	size_t room = l->ended ? l->nbar : 2 * l->nbar < 16 ? 16 : 2 * l->nbar;

	if (room == 0 || l->cap <= room)
		return;
	l->bar = xreallocarray(l->bar, room, sizeof(*l->bar));
	l->cap = room;
}

static void
count_bars(struct timeline *tl)
{
	size_t i;

	tl->nbar = tl->nmulti = 0;
	for (i = 0; i < tl->nlane; i++) {
		tl->nbar += tl->lane[i]->nbar;
		tl->nmulti += tl->lane[i]->nbar > 1;
	}
}

/* Too many bars: every bar stands for twice as many rows, as often as it takes while
 * a lane has bars to merge.  The number of rows a bar stands for is then the least for
 * the rows and lanes there are, however they came (timeline_merge). */
static void
coarsen(struct timeline *tl)
{
	size_t i;

	while (tl->nbar > tl->max_bars && tl->nmulti > 0) {
		tl->rows_per_bar *= 2;
		for (i = 0; i < tl->nlane; i++) {
			lane_coarsen(tl->lane[i], 2);
			lane_fit(tl->lane[i]);
		}
		count_bars(tl);
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
	if (r->key != NULL && r->kind == LINE_INST) {
		size_t h = ((uintptr_t)r->key >> 4) % IMEMO;
		if (tl->imemo[h].key != r->key) {
			tl->imemo[h].key = r->key;
			tl->imemo[h].index = inst_get(tl, r->pc, r->inst);
		}
		b.inst = tl->imemo[h].index;
	} else {
		b.inst = inst_get(tl, r->pc, r->inst);
	}
	b.cause = cause_get(tl, r->cause, r->key != NULL);
	b.len2 = r->cause2 != NULL ? r->cost2 : 0;
	b.cause2 = b.len2 > 0 ? cause_get(tl, r->cause2, r->key != NULL) : 0;
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
	tl->nmulti += l->nbar == 2;
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
	l->process = r->process;
	l->first = seen(tl);
	if (tl->nlane == tl->caplane) {
		tl->caplane = tl->caplane ? 2 * tl->caplane : 64;
		tl->lane = xreallocarray(tl->lane, tl->caplane, sizeof(*tl->lane));
	}
	tl->lane[tl->nlane++] = l;
	tl->kernel[kernel].lanes++;
	tl->proc[r->process - 1].lanes++;
	return l;
}

/* Field i of t as a number into *v, else tsv_u64's (tsv_i64's) line returned. */
#define NUMBER(get, t, i, v, why, whysz) do {					\
	if (!get((t), (i), (v)))						\
		return tsv_why((t), (why), (whysz), "%s: '%s' is not a number",	\
		    (t)->col[(i)], (t)->field[(i)]);				\
} while (0)

int
timeline_row(struct timeline *tl, const struct tsv *t, int64_t cost, const char *cause,
    int64_t cost2, const char *cause2, char *why, size_t whysz)
{
	struct tl_row r = { 0 };

	if (tl->c_event < 0)
		return tsv_why(t, why, whysz, "no column header before the rows");
	r.kernel = t->field[tl->c_kernel];
	r.pc = t->field[tl->c_pc];
	r.inst = t->field[tl->c_inst];
	r.cause = cause;
	NUMBER(tsv_get_u64, t, tl->c_event, &r.event, why, whysz);
	NUMBER(tsv_get_u64, t, tl->c_se, &r.se, why, whysz);
	NUMBER(tsv_get_u64, t, tl->c_wave, &r.wave, why, whysz);
	NUMBER(tsv_get_u64, t, tl->c_slot, &r.slot, why, whysz);
	NUMBER(tsv_get_i64, t, tl->c_time, &r.time, why, whysz);
	NUMBER(tsv_get_i64, t, tl->c_delta, &r.delta, why, whysz);
	r.cost = cost;
	r.cost2 = cost2;
	r.cause2 = cause2;
	if (r.time < 0 || r.delta < 0)
		return tsv_why(t, why, whysz, "%s: %" PRId64 " is negative",
		    r.time < 0 ? "time" : "delta", r.time < 0 ? r.time : r.delta);
	if (r.wave == NOWAVE)
		return tsv_why(t, why, whysz, "wave: %" PRIu64 " is out of range", r.wave);
	if (timeline_add(tl, &r, row_kind_of(t->field[tl->c_token]) == ROW_WAVE_END) != 0)
		return tsv_why(t, why, whysz, "%s", tl->error);
	return 0;
}

#undef NUMBER

int
timeline_add(struct timeline *tl, struct tl_row *r, int wave_end)
{
	struct entry *e, *p;
	size_t ki;
	int isnew;

	if (tl->merged) {
		snprintf(tl->error, sizeof(tl->error), "a row after a merge");
		return -1;
	}
	tl->now = r->event;
	ki = kernel_get(tl, r->kernel, r->key != NULL);
	if (r->cause2 == NULL || r->cost2 <= 0 || r->cost2 > r->cost) {
		r->cause2 = NULL;	/* one cause (a second one's part is within the cost) */
		r->cost2 = 0;
	}
	r->kind = LINE_INST;
	if ((r->cause[0] == 'w' || r->cause[0] == 'd') && (r->kind = profile_kind_of(
	    cause_by_name(r->cause))) != LINE_INST) {
		/* a launch or a drain is no instruction's */
		r->pc = PROFILE_NO_PC;
		r->inst = profile_kind_inst[r->kind];
	}
	e = entry_get(tl, ki, r->event, r->wave, &isnew);
	r->first = isnew;
	r->new_process = 0;
	if (isnew) {
		if (r->delta > r->time) {
			snprintf(tl->error, sizeof(tl->error), "delta %" PRId64 " is more than the "
			    "time %" PRId64 ": the wave would start before cycle 0", r->delta, r->time);
			return -1;
		}
		e->cursor = r->time - r->delta;
		e->id = ++tl->nthread;
		tl->kernel[ki].waves++;
		e->start = e->cursor;
		p = entry_get(tl, ki, r->event, NOWAVE, &r->new_process);
		if (r->new_process) {
			p->id = ++tl->nprocess;
			if (tl->nprocess > tl->capproc) {
				tl->capproc = tl->capproc ? 2 * tl->capproc : 16;
				tl->proc = xreallocarray(tl->proc, tl->capproc, sizeof(*tl->proc));
			}
			tl->proc[p->id - 1] = (struct proc){ ki, r->event, r->se, 0, seen(tl) };
		}
		e->process = r->process = p->id;
		if (tl->keep_bars && tl->proc[p->id - 1].lanes < tl->max_lanes)
			e->lane = lane_new(tl, r, ki);
	}
	r->process = e->process;
	r->thread = e->id;
	r->start = e->cursor;
	if (__builtin_add_overflow(r->start, r->cost, &e->cursor)) {
		snprintf(tl->error, sizeof(tl->error), "the wave's cycles add up beyond range");
		return -1;
	}
	tl->kernel[ki].rows++;
	tl->rows++;
	if (e->lane)
		lane_add(tl, e->lane, r);
	if (tl->sink)
		tl->sink(tl->sink_arg, r);
	if (wave_end) {
		if (strcmp(r->cause, "untraced") != 0 &&
		    timeline_life(tl, e->process, e->start, e->cursor) != 0)
			return -1;
		if (e->lane) {
			e->lane->ended = 1;
			lane_fit(e->lane);
		}
		entry_drop(tl, e);
	}
	return 0;
}

int
timeline_life(struct timeline *tl, uint64_t process, int64_t start, int64_t end)
{
	if (tl->nlife >= TIMELINE_MAX_LIVES) {
		snprintf(tl->error, sizeof(tl->error), "more than %d waves: the limit of the "
		    "occupancy", TIMELINE_MAX_LIVES);
		return -1;
	}
	if (tl->nlife == tl->caplife) {
		tl->caplife = tl->caplife ? 2 * tl->caplife : 256;
		tl->life = xreallocarray(tl->life, tl->caplife, sizeof(*tl->life));
	}
	tl->life[tl->nlife++] = (struct life){ process, start, end };
	return 0;
}

/* The steps of a traced SIMD's occupancy: +1 at a start, -1 at an end (an end before a
 * start of the same cycle: a slot freed and taken again is not two waves at once). */
struct step {
	uint64_t process;
	int64_t time;
	int delta;
};

static int
cmp_step(const void *pa, const void *pb)
{
	const struct step *a = pa, *b = pb;

	if (a->process != b->process)
		return a->process < b->process ? -1 : 1;
	if (a->time != b->time)
		return a->time < b->time ? -1 : 1;
	return a->delta - b->delta;
}

static struct step *
steps(const struct timeline *tl, size_t *n)
{
	struct step *s = xcalloc(2 * tl->nlife + 1, sizeof(*s));
	size_t i;

	for (i = 0; i < tl->nlife; i++) {
		s[2 * i] = (struct step){ tl->life[i].process, tl->life[i].start, 1 };
		s[2 * i + 1] = (struct step){ tl->life[i].process, tl->life[i].end, -1 };
	}
	*n = 2 * tl->nlife;
	xqsort(s, *n, sizeof(*s), cmp_step);
	return s;
}

size_t
timeline_occupancy(const struct timeline *tl, const char *kernel, FILE *fp, int pretty)
{
	size_t n, i, j, shown = 0;
	struct step *s = steps(tl, &n);

	for (i = 0; i < n; i = j) {
		const struct proc *p = &tl->proc[s[i].process - 1];
		const char *kname = tl->kernel[p->kernel].name;
		int64_t busy = 0, t0 = s[i].time, last = s[i].time, t1;
		long w = 0, max = 0, nwaves = 0;
		size_t k;

		for (j = i; j < n && s[j].process == s[i].process; j++) {
			busy += w * (s[j].time - last);
			last = s[j].time;
			w += s[j].delta;
			nwaves += s[j].delta > 0;
			if (w > max)
				max = w;
		}
		t1 = last;
		if (kernel != NULL && strcmp(kname, kernel) != 0)
			continue;
		if (!pretty && shown == 0)
			fprintf(fp, "#event\tse\tkernel\ttime\twaves\n");
		if (pretty) {
			char *name = text_printable(kname);
			fprintf(fp, "%s SE%" PRIu64 " (event %" PRIu64 "), kernel %s: %ld waves, at most %ld "
			    "at once, %.2f on average over cycles %" PRId64 " to %" PRId64 "\n",
			    shown ? "\n" : "", p->se, p->event, name, nwaves, max, t1 > t0 ?
			    (double)busy / (double)(t1 - t0) : 0.0, t0, t1);
			free(name);
			fprintf(fp, "  %12s  %5s  %s\n", "Cycle", "Waves", "");
		}
		for (k = i, w = 0; k < j; k++) {
			w += s[k].delta;
			if (k + 1 < j && s[k + 1].time == s[k].time)
				continue;	/* one line a cycle: the count after its steps */
			if (pretty)
				fprintf(fp, "  %12" PRId64 "  %5ld  %.*s\n", s[k].time, w, (int)(w > 64 ?
				    64 : w), "################################################################");
			else
				fprintf(fp, "%" PRIu64 "\t%" PRIu64 "\t%s\t%" PRId64 "\t%ld\n", p->event,
				    p->se, kname, s[k].time, w);
		}
		shown++;
	}
	free(s);
	return shown;
}

uint64_t
timeline_lives(const struct timeline *tl)
{
	return tl->nlife;
}

/* The bars' and the occupancy's text gathered and written in blocks (out_block). */
#define BARS_OUT (1u << 16)

/* Per traced SIMD of a kernel: [time from t0, waves, ...] at every change. */
static void
occupancy_json(struct out_block *out, const struct step *s, size_t n, size_t *at,
    uint64_t process, int64_t t0)
{
	FILE *fp = out->fp;
	char *p;
	size_t k;
	long w = 0;
	int first = 1;

	size_t lo = 0, hi = n;

	while (lo < hi) {	/* the first step of process: the groups come in lane order */
		size_t m = lo + (hi - lo) / 2;
		if (s[m].process < process)
			lo = m + 1;
		else
			hi = m;
	}
	*at = lo;
	fputs(", \"occupancy\": [", fp);
	for (k = *at; k < n && s[k].process == process; k++) {
		w += s[k].delta;
		if (k + 1 < n && s[k + 1].process == process && s[k + 1].time == s[k].time)
			continue;
		p = out_block_room(out, 2 * 22);
		if (!first)
			*p++ = ',';
		p = fmt_i64(p, s[k].time - t0);
		*p++ = ',';
		p = fmt_i64(p, w);
		out_block_end(out, p);
		first = 0;
	}
	out_block_flush(out);
	fputc(']', fp);
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
timeline_set_occupancy(struct timeline *tl, const struct occupancy *occ)
{
	tl->occ = occ;
}

/* Every SIMD's occupancy as the page draws it, gathered once: its changes, by event. */
#define SIMD_POINTS 8192	/* of one SIMD, the changes drawn; the rest cut */
struct simd_occ {
	uint64_t event;
	unsigned sa, wgp, simd;
	int64_t *t;
	long *w;
	size_t n, all;
};
struct simd_json {
	struct simd_occ *s;
	size_t n;
};

static void
simd_json_one(void *ctx, uint64_t event, unsigned sa, unsigned wgp, unsigned simd,
    const int64_t *t, const long *w, size_t n)
{
	struct simd_json *sj = ctx;
	struct simd_occ *o;
	size_t m = n < SIMD_POINTS ? n : SIMD_POINTS;

	sj->s = xreallocarray(sj->s, sj->n + 1, sizeof(*sj->s));
	o = &sj->s[sj->n++];
	*o = (struct simd_occ){ event, sa, wgp, simd, xcalloc(m + 1, sizeof(int64_t)),
	    xcalloc(m + 1, sizeof(long)), m, n };
	memcpy(o->t, t, m * sizeof(*t));
	memcpy(o->w, w, m * sizeof(*w));
}

/* "simds": the SIMDs of event (they come in event order), times from t0. */
static void
simd_json_put(struct out_block *out, const struct simd_json *sj, uint64_t event, int64_t t0)
{
	FILE *fp = out->fp;
	size_t i, j, lo = 0, hi = sj->n, nth = 0;
	char *p;

	while (lo < hi) {
		size_t m = lo + (hi - lo) / 2;
		if (sj->s[m].event < event)
			lo = m + 1;
		else
			hi = m;
	}
	fputs(", \"simds\": [", fp);
	for (i = lo; i < sj->n && sj->s[i].event == event; i++) {
		const struct simd_occ *o = &sj->s[i];
		fprintf(fp, "%s\n  {\"sa\": %u, \"wgp\": %u, \"simd\": %u, \"cut\": %s, "
		    "\"occupancy\": [", nth++ ? "," : "", o->sa, o->wgp, o->simd,
		    o->all > o->n ? "true" : "false");
		for (j = 0; j < o->n; j++) {
			p = out_block_room(out, 2 * 22);
			if (j)
				*p++ = ',';
			p = fmt_i64(p, o->t[j] - t0);
			*p++ = ',';
			p = fmt_i64(p, o->w[j]);
			out_block_end(out, p);
		}
		out_block_flush(out);
		fputs("]}", fp);
	}
	fputc(']', fp);
}


void
timeline_json(const struct timeline *tl, FILE *fp)
{
	struct simd_json sj;
	struct lane **lane = xcalloc(tl->nlane, sizeof(*lane));
	size_t nstep, at = 0;
	struct step *st = steps(tl, &nstep);
	struct out_block *out = xcalloc(1, sizeof(*out));
	char *outbuf = xcalloc(1, BARS_OUT);
	const struct kernel *k;
	const struct lane *l;
	const struct bar *b;
	size_t i, j, ki, n2;
	int group_open;

	memset(&sj, 0, sizeof(sj));
	out->fp = fp;
	out->buf = outbuf;
	out->cap = BARS_OUT;
	if (tl->occ != NULL)
		occupancy_each(tl->occ, simd_json_one, &sj);
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
	xqsort(lane, tl->nlane, sizeof(*lane), cmp_lane);
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
				fprintf(fp, "%s\n {\"event\": %" PRIu64 ", \"se\": %" PRIu64,
				    group_open ? "]}," : "", l->event, l->se);
				occupancy_json(out, st, nstep, &at, l->process, k->t0);
				if (tl->occ != NULL)
					simd_json_put(out, &sj, l->event, k->t0);
				fputs(", \"lanes\": [", fp);
				group_open = 1;
			} else
				fputc(',', fp);
			fprintf(fp, "\n  {\"wave\": %" PRIu64 ", \"slot\": %" PRIu64 ", \"rows\": %"
			    PRIu64 ", \"bars\": [", l->wave, l->slot, l->rows);
			for (i = 0; i < l->nbar; i++) {	/* by hand: the page's bulk */
				char *p = out_block_room(out, 6 * 22);
				b = &l->bar[i];
				if (i)
					*p++ = ',';
				p = fmt_i64(p, b->start - k->t0);
				*p++ = ',';
				p = fmt_i64(p, b->len);
				*p++ = ',';
				p = fmt_u64(p, b->inst);
				*p++ = ',';
				p = fmt_u64(p, b->cause);
				*p++ = ',';
				p = fmt_u64(p, b->rows);
				*p++ = ',';
				p = fmt_i64(p, b->longest);
				out_block_end(out, p);
			}
			out_block_flush(out);
			fputc(']', fp);
			/* the bars of one row with a second cause: its part is the bar's end */
			for (i = 0, n2 = 0; i < l->nbar; i++) {
				b = &l->bar[i];
				if (b->rows != 1 || b->len2 <= 0)
					continue;
				fprintf(fp, "%s%zu,%u,%" PRId64, n2++ ? "," : ", \"cause2\": [", i,
				    (unsigned)b->cause2, b->len2);
			}
			fputs(n2 ? "]}" : "}", fp);
		}
		fputs(group_open ? "]}]}" : "]}", fp);
	}
	fputs("]}", fp);
	free(outbuf);
	free(out);
	free(lane);
	free(st);
	for (i = 0; i < sj.n; i++) {
		free(sj.s[i].t);
		free(sj.s[i].w);
	}
	free(sj.s);
}

struct timeline *
timeline_fork(const struct timeline *tl)
{
	return tl->sink != NULL ? NULL : timeline_new(tl->keep_bars, tl->max_lanes, tl->max_bars);
}

int
timeline_ordered(const struct timeline *tl)
{
	return tl->sink != NULL;
}

static struct first
first_at(const void *base, size_t i, size_t sz, size_t off, int deref)
{
	const char *p = (const char *)base + i * sz;

	if (deref)
		p = *(const char *const *)p;
	return *(const struct first *)(p + off);
}

struct ranked {
	struct first first;
	size_t at;
};

static int
cmp_ranked(const void *pa, const void *pb)
{
	const struct ranked *a = pa, *b = pb;

	return first_cmp(a->first, b->first);
}

/* The order of n things of size sz whose struct first is at off (deref: of what each
 * points to): order[new] = old.  No two firsts are equal (one event is one timeline's,
 * and a timeline counts what it sees). */
static size_t *
first_order(const void *base, size_t n, size_t sz, size_t off, int deref)
{
	size_t *order = xcalloc(n + 1, sizeof(*order)), i;
	struct ranked *r = xcalloc(n + 1, sizeof(*r));

	for (i = 0; i < n; i++)
		r[i] = (struct ranked){ first_at(base, i, sz, off, deref), i };
	xqsort(r, n, sizeof(*r), cmp_ranked);
	for (i = 0; i < n; i++)
		order[i] = r[i].at;
	free(r);
	return order;
}

/* The n things of size sz at *arrayp put in the order of their firsts (at off; deref: of
 * what each points to), in a new array of room + 1 of them: to[old] = new, for the caller
 * to free. */
static size_t *
reorder(void *arrayp, size_t n, size_t room, size_t sz, size_t off, int deref)
{
	char **array = arrayp, *sorted = xcalloc(room + 1, sz);
	size_t *order = first_order(*array, n, sz, off, deref);
	size_t *to = xcalloc(n + 1, sizeof(*to)), i;

	for (i = 0; i < n; i++) {
		memcpy(sorted + i * sz, *array + order[i] * sz, sz);
		to[order[i]] = i;
	}
	free(*array);
	*array = sorted;
	free(order);
	return to;
}

/* Kernels, instructions, causes, pairs and lanes in the order they were first seen,
 * every index into them made anew: as one timeline that saw every row would have them. */
static void
settle(struct timeline *tl)
{
	size_t i, j, *to;
	struct first f[MAX_CAUSE];
	char *cname[MAX_CAUSE];
	const char *ckey[MAX_CAUSE];
	struct kernel *k;
	uint8_t cmap[MAX_CAUSE];

	/* kernels */
	to = reorder(&tl->kernel, tl->nkernel, tl->nkernel, sizeof(*tl->kernel),
	    offsetof(struct kernel, first), 0);
	k = tl->kernel;
	tl->capkernel = tl->nkernel + 1;
	u64map_free(&tl->kbyname);
	memset(&tl->kbyname, 0, sizeof(tl->kbyname));
	for (i = 0; i < tl->nkernel; i++) {
		void **slot = u64map_slot(&tl->kbyname, mem_hash(k[i].name, strlen(k[i].name), 0));
		k[i].next = (size_t)(uintptr_t)*slot;
		*slot = (void *)(uintptr_t)(i + 1);
	}
	tl->lastkernel = 0;
	for (i = 0; i < tl->nlane; i++)
		tl->lane[i]->kernel = to[tl->lane[i]->kernel];
	for (i = 0; i < tl->nprocess; i++)
		tl->proc[i].kernel = to[tl->proc[i].kernel];
	free(to);
	/* pairs */
	to = reorder(&tl->proc, tl->nprocess, tl->nprocess, sizeof(*tl->proc),
	    offsetof(struct proc, first), 0);
	tl->capproc = tl->nprocess + 1;
	for (i = 0; i < tl->nlane; i++)
		tl->lane[i]->process = to[tl->lane[i]->process - 1] + 1;
	for (i = 0; i < tl->nlife; i++)
		tl->life[i].process = to[tl->life[i].process - 1] + 1;
	free(to);
	/* instructions: the hash table holds them by pointer, their index moves (each
	 * inst's index is its place: to[index] is its new one) */
	to = reorder(&tl->insts, tl->ninst, tl->isize, sizeof(*tl->insts),
	    offsetof(struct inst, first), 1);
	for (i = 0; i < tl->ninst; i++)
		tl->insts[i]->index = (uint32_t)i;
	memset(tl->imemo, 0, sizeof(tl->imemo));
	/* causes */
	{
		size_t *co = first_order(tl->cause_first, tl->ncause,
		    sizeof(tl->cause_first[0]), 0, 0);
		for (i = 0; i < tl->ncause; i++) {
			cname[i] = tl->cause[co[i]];
			ckey[i] = tl->cause_key[co[i]];
			f[i] = tl->cause_first[co[i]];
			cmap[co[i]] = (uint8_t)i;
		}
		for (i = 0; i < tl->ncause; i++) {
			tl->cause[i] = cname[i];
			tl->cause_key[i] = ckey[i];
			tl->cause_first[i] = f[i];
		}
		free(co);
	}
	for (i = 0; i < tl->nlane; i++)
		for (j = 0; j < tl->lane[i]->nbar; j++) {
			struct bar *b = &tl->lane[i]->bar[j];
			b->inst = (uint32_t)to[b->inst];
			b->cause = cmap[b->cause];
			b->cause2 = cmap[b->cause2];
		}
	free(to);
	/* lanes */
	free(reorder(&tl->lane, tl->nlane, tl->caplane, sizeof(*tl->lane),
	    offsetof(struct lane, first), 1));
	tl->caplane++;
}

int
timeline_merge(struct timeline *dst, struct timeline *src)
{
	size_t i, j, *kmap, *pmap, nold = dst->nlane;
	uint32_t *imap;
	uint8_t cmap[MAX_CAUSE];
	struct entry *e, *next;
	int ret = 0;

	dst->merged = src->merged = 1;
	kmap = xcalloc(src->nkernel + 1, sizeof(*kmap));
	for (i = 0; i < src->nkernel; i++) {
		struct kernel *from = &src->kernel[i], *k;
		size_t n = dst->nkernel;

		kmap[i] = kernel_get(dst, from->name, 0);
		k = &dst->kernel[kmap[i]];
		if (kmap[i] >= n || first_cmp(from->first, k->first) < 0)
			k->first = from->first;
		if (from->rows_drawn > 0) {
			if (k->rows_drawn == 0 || from->t0 < k->t0)
				k->t0 = from->t0;
			if (k->rows_drawn == 0 || from->t1 > k->t1)
				k->t1 = from->t1;
		}
		k->waves += from->waves;
		k->rows += from->rows;
		k->lanes += from->lanes;
		k->rows_drawn += from->rows_drawn;
	}
	imap = xcalloc(src->ninst + 1, sizeof(*imap));
	for (i = 0; i < src->ninst; i++) {
		struct inst *from = src->insts[i];
		size_t n = dst->ninst;

		imap[i] = inst_get(dst, from->pc, from->text);
		if (imap[i] >= n || first_cmp(from->first, dst->insts[imap[i]]->first) < 0)
			dst->insts[imap[i]]->first = from->first;
	}
	for (i = 0; i < src->ncause; i++) {
		size_t n = dst->ncause;

		cmap[i] = cause_get(dst, src->cause[i], 0);
		if (cmap[i] >= n || first_cmp(src->cause_first[i], dst->cause_first[cmap[i]]) < 0)
			dst->cause_first[cmap[i]] = src->cause_first[i];
	}
	pmap = xcalloc(src->nprocess + 1, sizeof(*pmap));
	for (i = 0; i < src->nprocess; i++) {
		if (dst->nprocess == dst->capproc) {
			dst->capproc = dst->capproc ? 2 * dst->capproc : 16;
			dst->proc = xreallocarray(dst->proc, dst->capproc, sizeof(*dst->proc));
		}
		dst->proc[dst->nprocess] = src->proc[i];
		dst->proc[dst->nprocess].kernel = kmap[src->proc[i].kernel];
		pmap[i] = ++dst->nprocess;
	}
	for (i = 0; i < src->nlane; i++) {
		struct lane *l = src->lane[i];

		l->kernel = kmap[l->kernel];
		l->process = pmap[l->process - 1];
		for (j = 0; j < l->nbar; j++) {
			l->bar[j].inst = imap[l->bar[j].inst];
			l->bar[j].cause = cmap[l->bar[j].cause];
			l->bar[j].cause2 = cmap[l->bar[j].cause2];
		}
		if (dst->nlane == dst->caplane) {
			dst->caplane = dst->caplane ? 2 * dst->caplane : 64;
			dst->lane = xreallocarray(dst->lane, dst->caplane, sizeof(*dst->lane));
		}
		dst->lane[dst->nlane++] = l;
	}
	src->nlane = 0;
	for (i = 0; i < src->nlife && ret == 0; i++)
		ret = timeline_life(dst, pmap[src->life[i].process - 1], src->life[i].start,
		    src->life[i].end);
	dst->rows += src->rows;
	dst->nthread += src->nthread;
	/* the bars of both at the coarser one's rows a bar, then as coarse as they must be */
	if (src->rows_per_bar > dst->rows_per_bar)
		for (i = 0; i < nold; i++)
			lane_coarsen(dst->lane[i], src->rows_per_bar / dst->rows_per_bar);
	else if (src->rows_per_bar < dst->rows_per_bar)
		for (i = nold; i < dst->nlane; i++)
			lane_coarsen(dst->lane[i], dst->rows_per_bar / src->rows_per_bar);
	if (src->rows_per_bar > dst->rows_per_bar)
		dst->rows_per_bar = src->rows_per_bar;
	count_bars(dst);
	coarsen(dst);
	/* the waves in flight end here: no row may come after a merge */
	for (i = 0; i < dst->hsize; i++)
		for (e = dst->htab[i]; e; e = next) {
			next = e->next;
			free(e);
		}
	memset(dst->htab, 0, dst->hsize * sizeof(*dst->htab));
	memset(dst->wmemo, 0, sizeof(dst->wmemo));
	dst->hcount = 0;
	settle(dst);
	free(kmap);
	free(imap);
	free(pmap);
	timeline_free(src);
	return ret;
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
	free(tl->life);
	free(tl->proc);
	free(tl->kernel);
	u64map_free(&tl->kbyname);
	free(tl);
}
