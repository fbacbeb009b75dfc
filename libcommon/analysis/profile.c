#include <err.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "meta.h"
#include "profile.h"
#include "rowkind.h"
#include "util.h"

/* Where a kernel's waves ran in one trace buffer (each buffer has its own clock). */
struct profile_span {
	size_t kernel;
	uint64_t event;
	int64_t first, last;
	int used;
};

const char *const profile_kind_name[3] = { "inst", "launch", "drain" };
const char *const profile_kind_inst[3] = { "-", "(launch)", "(drain)" };

/* What a kernel read from a table has had: its ## line, its TOTAL row. */
#define TAB_META 1
#define TAB_TOTAL 2

void
profile_init(struct profile *p, int flags)
{
	memset(p, 0, sizeof(*p));
	p->flags = flags;
}

void
profile_free(struct profile *p)
{
	size_t i;

	arena_free(&p->mem);
	for (i = 0; i < p->nkernel; i++) {
		free(p->kernels[i].name);
		free(p->kernels[i].lines);
	}
	for (i = 0; i < p->nmeta; i++)
		free(p->metas[i]);
	free(p->metas);
	free(p->kernels);
	free(p->all);
	free(p->ltab);
	free(p->spans);
	free(p->khash);
	free(p->kpos);
	for (i = 0; i < p->nkept; i++)
		p->kept[i].release(p->kept[i].obj);
	free(p->kept);
	memset(p, 0, sizeof(*p));
}

static uint64_t
str_hash(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
	return h;
}

static void
khash_build(struct profile *p)
{
	size_t i, h;

	for (p->khsize = 16; p->khsize < 2 * p->capkernel + 2; p->khsize *= 2)
		;
	free(p->khash);
	free(p->kpos);
	p->khash = xcalloc(p->khsize, sizeof(*p->khash));
	p->kpos = xcalloc(p->khsize, sizeof(*p->kpos));
	for (i = 0; i < p->nkernel; i++) {
		for (h = str_hash(p->kernels[i].name) & (p->khsize - 1); p->khash[h] != 0;
		    h = (h + 1) & (p->khsize - 1))
			;
		p->khash[h] = i + 1;
		p->kpos[i] = p->kernels[i].name;
	}
}

long
profile_find(const struct profile *cp, const char *name)
{
	struct profile *p = (struct profile *)cp;	/* the index is a cache */
	size_t h, n;
	int pass, stale;

	for (pass = 0; pass < 2; pass++) {
		if (p->khash == NULL || p->khsize < 2 * p->nkernel + 2)
			khash_build(p);
		stale = 0;
		for (h = str_hash(name) & (p->khsize - 1); (n = p->khash[h]) != 0;
		    h = (h + 1) & (p->khsize - 1)) {
			if (n > p->nkernel || p->kernels[n - 1].name != p->kpos[n - 1]) {
				stale = 1;
				break;
			}
			if (strcmp(p->kernels[n - 1].name, name) == 0)
				return (long)(n - 1);
		}
		if (!stale)
			return -1;
		khash_build(p);
	}
	return -1;
}

int
profile_full_why(const struct profile *p, char *why, size_t whysz)
{
	return fail_why(why, whysz, "%s%smore than %d kernels: the limit of a profile",
	    p->path ? p->path : "", p->path ? ": " : "", PROFILE_MAX_KERNELS);
}

size_t
profile_kernel(struct profile *p, const char *name)
{
	long i;

	if (p->lastkernel < p->nkernel && strcmp(p->kernels[p->lastkernel].name, name) == 0)
		return p->lastkernel;
	if ((i = profile_find(p, name)) >= 0)
		return p->lastkernel = (size_t)i;
	if (p->nkernel >= PROFILE_MAX_KERNELS)
		return PROFILE_FULL;
	if (p->nkernel == p->capkernel) {
		p->capkernel = p->capkernel ? 2 * p->capkernel : 8;
		p->kernels = xreallocarray(p->kernels, p->capkernel, sizeof(*p->kernels));
	}
	memset(&p->kernels[p->nkernel], 0, sizeof(p->kernels[p->nkernel]));
	p->kernels[p->nkernel].name = xstrdup(name);
	p->kernels[p->nkernel].wall = -1;
	p->nkernel++;
	if (p->khsize < 2 * p->nkernel + 2) {
		khash_build(p);
	} else {
		size_t h, j = p->nkernel - 1;
		for (h = str_hash(name) & (p->khsize - 1); p->khash[h] != 0;
		    h = (h + 1) & (p->khsize - 1))
			;
		p->khash[h] = j + 1;
		p->kpos[j] = p->kernels[j].name;
	}
	return p->lastkernel = p->nkernel - 1;
}


/* Only the pc is hashed (the inst of a pc is nearly always the same): the hash is on
 * every row's path. */
static uint64_t
hash_of(size_t kernel, const char *pc, size_t pclen, const char *inst, size_t instlen)
{
	return mem_hash(inst, instlen, mem_hash(pc, pclen, kernel));
}

static void
hash_grow(struct profile *p)
{
	size_t i, j, n = p->lsize ? 2 * p->lsize : 1024;
	struct line_slot *t = xcalloc(n, sizeof(*t));

	for (i = 0; i < p->lsize; i++) {
		if (p->ltab[i].index1 == 0)
			continue;
		for (j = p->ltab[i].tag & (n - 1); t[j].index1 != 0; j = (j + 1) & (n - 1))
			;
		t[j] = p->ltab[i];
	}
	free(p->ltab);
	p->ltab = t;
	p->lsize = n;
}

/* Room in the index for one more line: it is grown before it would pass 3/4 full. */
static void
index_room(struct profile *p)
{
	if (4 * (p->nindexed + 1) > 3 * p->lsize)
		hash_grow(p);
}

/* The slot of a line not in the index (tag: its hash's top 32 bits) for it. */
static size_t
slot_for(struct profile *p, uint32_t tag)
{
	size_t j, probes = 0;

	index_room(p);
	for (j = tag & (p->lsize - 1); p->ltab[j].index1 != 0; j = (j + 1) & (p->lsize - 1))
		if (++probes > p->lsize)	/* hash_grow keeps a free slot: only a bug fills it */
			errx(2, "internal error: the profile's line index is full");
	return j;
}

/* The lines made without the index (profile_line_new) put in it. */
static void
index_made(struct profile *p)
{
	struct profile_line *l;
	uint32_t tag;
	size_t j;

	for (; p->iscan < p->nall; p->iscan++) {
		if ((l = p->all[p->iscan])->indexed)
			continue;
		tag = (uint32_t)(hash_of(l->kernel, l->pc, l->pclen, l->inst, l->instlen) >> 32);
		j = slot_for(p, tag);
		p->ltab[j].tag = tag;
		p->ltab[j].index1 = (uint32_t)(p->iscan + 1);
		l->indexed = 1;
		p->nindexed++;
	}
}

/* A new line at the end of p->all, its text copied (inst borrowed when kept). */
static struct profile_line *
line_make(struct profile *p, size_t kernel, const char *pc, size_t pclen, const char *inst,
    size_t instlen, int kept)
{
	struct profile_line *l;
	char *end;

	if (p->nall >= UINT32_MAX - 1)
		errx(2, "out of memory: more than %u lines in a profile", UINT32_MAX - 2);
	if (p->nall == p->capall) {
		p->capall = p->capall ? 2 * p->capall : 1024;
		p->all = xreallocarray(p->all, p->capall, sizeof(*p->all));
	}
	l = arena_zalloc(&p->mem, sizeof(*l) + pclen + 1 + (kept ? 0 : instlen + 1));
	p->all[p->nall++] = l;
	l->kernel = kernel;
	l->pc = memcpy((char *)(l + 1), pc, pclen + 1);
	l->inst = kept ? inst : memcpy(l->pc + pclen + 1, inst, instlen + 1);
	l->pclen = pclen;
	l->instlen = instlen;
	l->pcv = strtoull(pc, &end, 0);
	if (end == pc || *end != '\0')
		l->pcv = UINT64_MAX;
	return l;
}

/* The line of (kernel, pc, inst), made when new.  Those made without the index go in it
 * first, unless the pc is PROFILE_NO_PC (profile_special's), which none of them has. */
static struct profile_line *
line_of(struct profile *p, size_t kernel, const char *pc, const char *inst, int kept)
{
	size_t pclen = strlen(pc), instlen = strlen(inst), j, probes = 0;
	uint32_t tag = (uint32_t)(hash_of(kernel, pc, pclen, inst, instlen) >> 32);
	struct profile_line *l;

	if (strcmp(pc, PROFILE_NO_PC) != 0)
		index_made(p);
	index_room(p);
	for (j = tag & (p->lsize - 1); p->ltab[j].index1 != 0; j = (j + 1) & (p->lsize - 1)) {
		if (++probes > p->lsize)	/* hash_grow keeps a free slot: only a bug fills it */
			errx(2, "internal error: the profile's line index is full");
		if (p->ltab[j].tag != tag)
			continue;
		l = p->all[p->ltab[j].index1 - 1];
		if (l->kernel == kernel && l->pclen == pclen && l->instlen == instlen &&
		    memcmp(l->pc, pc, pclen) == 0 && memcmp(l->inst, inst, instlen) == 0)
			return l;
	}
	l = line_make(p, kernel, pc, pclen, inst, instlen, kept);
	p->ltab[j].tag = tag;
	p->ltab[j].index1 = (uint32_t)p->nall;
	l->indexed = 1;		/* index_made steps over it */
	p->nindexed++;
	return l;
}

struct profile_line *
profile_line_new(struct profile *p, size_t kernel, const char *pc, const char *inst, int kept)
{
	if (strcmp(pc, PROFILE_NO_PC) == 0)	/* kept out of the index's lag (line_of) */
		return line_of(p, kernel, pc, inst, kept);
	return line_make(p, kernel, pc, strlen(pc), inst, strlen(inst), kept);
}

struct profile_line *
profile_line(struct profile *p, size_t kernel, const char *pc, const char *inst)
{
	return line_of(p, kernel, pc, inst, 0);
}

struct profile_line *
profile_line_kept(struct profile *p, size_t kernel, const char *pc, const char *inst)
{
	return line_of(p, kernel, pc, inst, 1);
}

void
profile_keep(struct profile *p, void *obj, void (*release)(void *))
{
	p->kept = xreallocarray(p->kept, p->nkept + 1, sizeof(*p->kept));
	p->kept[p->nkept].obj = obj;
	p->kept[p->nkept++].release = release;
}

struct profile_cause *
profile_line_cause(struct profile *p, struct profile_line *l, int cause)
{
	struct profile_cause *c;
	unsigned i;

	for (i = 0; i < l->ncause; i++)
		if (l->causes[i].cause == cause)
			return &l->causes[i];
	if (l->ncause == l->capcause) {
		if (l->capcause == 0) {	/* the first: in the line */
			l->capcause = 1;
			l->causes = &l->one;
		} else {
			/* the old array stays in the arena: at most as big as the new */
			struct profile_cause *c0 = l->causes;
			l->capcause = l->capcause * 2 > NCAUSE ? NCAUSE : l->capcause * 2;
			l->causes = arena_zalloc(&p->mem, l->capcause * sizeof(*l->causes));
			memcpy(l->causes, c0, l->ncause * sizeof(*l->causes));
		}
	}
	c = &l->causes[l->ncause++];
	c->cyc = 0;
	c->hit = 0;
	c->cause = (uint8_t)cause;
	return c;
}

void
profile_line_dense(const struct profile_line *l, int64_t *cyc, uint64_t *hit)
{
	unsigned i;

	if (cyc)
		memset(cyc, 0, NCAUSE * sizeof(*cyc));
	if (hit)
		memset(hit, 0, NCAUSE * sizeof(*hit));
	for (i = 0; i < l->ncause; i++) {
		if (cyc)
			cyc[l->causes[i].cause] = l->causes[i].cyc;
		if (hit)
			hit[l->causes[i].cause] = l->causes[i].hit;
	}
}

int
profile_line_dominant(const struct profile_line *l)
{
	int64_t cyc[NCAUSE];
	uint64_t hit[NCAUSE];

	profile_line_dense(l, cyc, hit);
	return profile_dominant(cyc, hit);
}

struct profile_line *
profile_special(struct profile *p, size_t kernel, enum profile_kind kind)
{
	struct profile_kernel *k = &p->kernels[kernel];

	if (k->special[kind] == NULL) {
		k->special[kind] = profile_line(p, kernel, PROFILE_NO_PC, profile_kind_inst[kind]);
		k->special[kind]->kind = kind;
	}
	return k->special[kind];
}

static void
span_grow(struct profile *p)
{
	size_t i, j, n = p->spansize ? 2 * p->spansize : 64;
	struct profile_span *t = xcalloc(n, sizeof(*t));

	for (i = 0; i < p->spansize; i++) {
		if (!p->spans[i].used)
			continue;
		for (j = (p->spans[i].kernel * 31 + p->spans[i].event) & (n - 1); t[j].used;
		    j = (j + 1) & (n - 1))
			;
		t[j] = p->spans[i];
	}
	free(p->spans);
	p->spans = t;
	p->spansize = n;
}

static void
span_add(struct profile *p, size_t kernel, uint64_t event, int64_t start, int64_t end)
{
	struct profile_span *s;
	size_t j;

	/* the rows of a buffer come kernel after kernel: the last span first */
	if (p->lastspan < p->spansize && (s = &p->spans[p->lastspan])->used &&
	    s->kernel == kernel && s->event == event)
		goto found;
	if (2 * (p->nspan + 1) > p->spansize)
		span_grow(p);
	for (j = (kernel * 31 + event) & (p->spansize - 1);; j = (j + 1) & (p->spansize - 1)) {
		s = &p->spans[j];
		if (!s->used) {
			s->used = 1;
			s->kernel = kernel;
			s->event = event;
			s->first = start;
			s->last = end;
			p->nspan++;
			p->lastspan = j;
			return;
		}
		if (s->kernel == kernel && s->event == event)
			break;
	}
	p->lastspan = j;
found:
	if (start < s->first)
		s->first = start;
	if (end > s->last)
		s->last = end;
}

int
profile_add_row(struct profile *p, const struct profile_row *r)
{
	size_t ki = profile_kernel(p, r->kernel);

	if (ki == PROFILE_FULL)
		return -2;
	if (r->cause == CAUSE_UNTRACED && !(p->flags & PROFILE_UNTRACED))
		return profile_add(p, ki, NULL, r);
	return profile_add(p, ki, profile_line(p, ki, r->pc, r->inst), r);
}

int
profile_add(struct profile *p, size_t ki, struct profile_line *l, const struct profile_row *r)
{
	struct profile_kernel *k = &p->kernels[ki];
	struct profile_line *sl = NULL, *l2;
	int64_t s1, s2, s3, s4, c1 = r->cost - r->cost2;
	struct profile_cause *pc2;

	if (r->cause == CAUSE_UNTRACED && !(p->flags & PROFILE_UNTRACED)) {
		/* the lifetime of a wave that says nothing of its instructions would only
		 * dilute the percentages of those that do */
		if (__builtin_add_overflow(k->untraced_cycles, r->cost, &s1))
			return -1;
		if (r->timed)
			span_add(p, ki, r->event, r->start, r->end);
		k->untraced_waves++;
		k->untraced_cycles = s1;
		return 0;
	}
	if (r->cause == CAUSE_WAVE_START || r->cause == CAUSE_DRAIN) {
		/* the instruction keeps the row (a hit), the wave's launch or drain its cycles */
		sl = profile_special(p, ki, profile_kind_of(r->cause));
		k = &p->kernels[ki];
		if (sl == l)
			sl = NULL;
	}
	if (r->cost2 > 0) {
		/* a second cause's part of the cost: on the launch or drain line for those
		 * causes, on the instruction's for the others; no hit */
		l2 = r->cause2 == CAUSE_WAVE_START || r->cause2 == CAUSE_DRAIN ?
		    profile_special(p, ki, profile_kind_of(r->cause2)) : l;
		k = &p->kernels[ki];
		pc2 = profile_line_cause(p, l2, r->cause2);
		if (__builtin_add_overflow(k->cyc[r->cause2], r->cost2, &k->cyc[r->cause2]) ||
		    __builtin_add_overflow(l2->cycles, r->cost2, &l2->cycles) ||
		    __builtin_add_overflow(pc2->cyc, r->cost2, &pc2->cyc) ||
		    __builtin_add_overflow(k->cycles, r->cost2, &k->cycles))
			return -1;
	}
	if (__builtin_add_overflow(k->cycles, c1, &s1) ||
	    __builtin_add_overflow(k->cyc[r->cause], c1, &s2) ||
	    __builtin_add_overflow((sl ? sl : l)->cycles, c1, &s3) ||
	    __builtin_add_overflow(profile_line_cyc(sl ? sl : l, r->cause), c1, &s4))
		return -1;
	if (r->timed)
		span_add(p, ki, r->event, r->start, r->end);
	k->cycles = s1;
	k->hits++;
	k->cyc[r->cause] = s2;
	k->hit[r->cause]++;
	if (r->wave_end)
		k->waves++;
	l->hits++;
	profile_line_cause(p, l, r->cause)->hit++;
	if (sl) {
		sl->hits++;
		profile_line_cause(p, sl, r->cause)->hit++;
		l = sl;
	}
	l->cycles = s3;
	profile_line_cause(p, l, r->cause)->cyc = s4;
	return 0;
}

int
profile_merge(struct profile *p, const struct profile *from)
{
	const struct profile_line *fl;
	struct profile_line *l;
	size_t i, j, ki;
	int c;

	for (i = 0; i < from->nkernel; i++) {
		const struct profile_kernel *fk = &from->kernels[i];
		struct profile_kernel *k;

		if ((ki = profile_kernel(p, fk->name)) == PROFILE_FULL)
			return -2;
		k = &p->kernels[ki];
		if (__builtin_add_overflow(k->cycles, fk->cycles, &k->cycles) ||
		    __builtin_add_overflow(k->untraced_cycles, fk->untraced_cycles,
		    &k->untraced_cycles))
			return -1;
		k->hits += fk->hits;
		k->waves += fk->waves;
		k->untraced_waves += fk->untraced_waves;
		for (c = 0; c < NCAUSE; c++) {
			if (__builtin_add_overflow(k->cyc[c], fk->cyc[c], &k->cyc[c]))
				return -1;
			k->hit[c] += fk->hit[c];
		}
	}
	for (j = 0; j < from->nall; j++) {
		fl = from->all[j];
		if ((ki = profile_kernel(p, from->kernels[fl->kernel].name)) == PROFILE_FULL)
			return -2;
		l = fl->kind != LINE_INST ? profile_special(p, ki, fl->kind) :
		    profile_line(p, ki, fl->pc, fl->inst);
		if (__builtin_add_overflow(l->cycles, fl->cycles, &l->cycles))
			return -1;
		l->hits += fl->hits;
		for (c = 0; c < fl->ncause; c++) {
			struct profile_cause *lc = profile_line_cause(p, l, fl->causes[c].cause);
			if (__builtin_add_overflow(lc->cyc, fl->causes[c].cyc, &lc->cyc))
				return -1;
			lc->hit += fl->causes[c].hit;
		}
	}
	for (j = 0; j < from->spansize; j++) {
		const struct profile_span *sp = &from->spans[j];
		if (!sp->used)
			continue;
		if ((ki = profile_kernel(p, from->kernels[sp->kernel].name)) == PROFILE_FULL)
			return -2;
		span_add(p, ki, sp->event, sp->first, sp->last);
	}
	return 0;
}

/* Reading ------------------------------------------------------------------------ */

void
profile_set_view(struct profile *p, const char *v)
{
	if (p->view == NULL)
		p->view = v;
	else if (strcmp(p->view, v) != 0)
		p->view = "mixed";
}

void
profile_keep_line(struct profile *p, const char *line)
{
	if (p->nmeta == p->capmeta) {
		p->capmeta = p->capmeta ? 2 * p->capmeta : 16;
		p->metas = xreallocarray(p->metas, p->capmeta, sizeof(*p->metas));
	}
	p->metas[p->nmeta++] = xstrdup(line);
}

static void
keep_meta(struct profile *p, const struct tsv *t)
{
	char *s, *at;
	size_t i, n, len = 3;

	for (i = 0; i < t->nfield; i++)
		len += strlen(t->field[i]) + 1;
	s = xcalloc(1, len);
	memcpy(s, "##", 2);
	at = s + 2;
	for (i = 0; i < t->nfield; i++) {	/* each field once: a long line's fields add up */
		if (i)
			*at++ = '\t';
		n = strlen(t->field[i]);
		memcpy(at, t->field[i], n);
		at += n;
	}
	*at = '\0';
	profile_keep_line(p, s);
	free(s);
}

static int
cause_code(const char *name)
{
	return (int)cause_by_name(name);
}

/* The cause of field col, or -1 with the line in why (PROFILE_STRICT's unknown cause). */
static int
row_cause(struct profile *p, struct tsv *t, int col, char *why, size_t whysz)
{
	const char *name = t->field[col];
	int ci = tsv_memo(t, col, cause_code);

	if (ci != CAUSE_OTHER)
		return ci;
	if (p->flags & PROFILE_STRICT)
		return tsv_why(t, why, whysz, "cause: unknown cause '%s'", name);
	if (!p->warned) {
		warning_out("%s:%lu: unknown cause '%s' counted as 'other' (warned once)",
		    t->path, t->line, name);
	}
	p->warned = 1;
	return CAUSE_OTHER;
}

struct rowcols {
	int kernel, pc, inst, token, cost, cause, event, time, delta, cost2, cause2;
};

/* Field i as a number into *v: 0, or -1 with the line in why (tsv_i64's error). */
static inline int
row_i64(const struct tsv *t, int i, int64_t *v, char *why, size_t whysz)
{
	if (__builtin_expect(!tsv_get_i64(t, i, v), 0))
		return tsv_why(t, why, whysz, "%s: '%s' is not a number", t->col[i], t->field[i]);
	return 0;
}

/* One row of a row stream counted: 0, or -1 with its line in why. */
static int
read_row(struct profile *p, struct tsv *t, const struct rowcols *c, char *why, size_t whysz)
{
	struct profile_row r;
	int64_t time, delta;
	int k;

	if (row_i64(t, c->cost, &r.cost, why, whysz) != 0)
		return -1;
	if (r.cost < 0)
		return tsv_why(t, why, whysz, "%s: %" PRId64 " is negative", t->col[c->cost],
		    r.cost);
	r.cause = CAUSE_NONE;
	if (c->cause >= 0 && (r.cause = row_cause(p, t, c->cause, why, whysz)) < 0)
		return -1;
	r.cost2 = 0;
	r.cause2 = CAUSE_NONE;
	if (c->cost2 >= 0 && c->cause2 >= 0) {
		if (row_i64(t, c->cost2, &r.cost2, why, whysz) != 0)
			return -1;
		if (r.cost2 != 0) {
			if (r.cost2 < 0 || r.cost2 > r.cost)
				return tsv_why(t, why, whysz, "%s: %" PRId64 " is not within the "
				    "cost %" PRId64, t->col[c->cost2], r.cost2, r.cost);
			if ((r.cause2 = row_cause(p, t, c->cause2, why, whysz)) < 0)
				return -1;
		}
	}
	r.kernel = t->field[c->kernel];
	if (p->row_kernel != NULL &&
	    (k = p->row_kernel(p->kernel_hook, t, &r.kernel, why, whysz)) <= 0)
		return k;
	r.pc = t->field[c->pc];
	r.inst = t->field[c->inst];
	r.wave_end = tsv_memo(t, c->token, row_kind_code) == ROW_WAVE_END;
	r.timed = c->event >= 0 && c->time >= 0 && c->delta >= 0;
	if (r.timed) {
		if (!tsv_get_u64(t, c->event, &r.event))
			return tsv_why(t, why, whysz, "%s: '%s' is not a number",
			    t->col[c->event], t->field[c->event]);
		if (row_i64(t, c->time, &time, why, whysz) != 0 ||
		    row_i64(t, c->delta, &delta, why, whysz) != 0)
			return -1;
		if (delta < 0 || delta > time)
			return tsv_why(t, why, whysz, "delta: %" PRId64 " is not within the time "
			    "%" PRId64, delta, time);
		r.start = time - delta;
		r.end = time;
	}
	if (p->on_row && (r.cause != CAUSE_UNTRACED || (p->flags & PROFILE_UNTRACED)) &&
	    p->on_row(p->hook, t, r.cost, r.cause, r.cost2, r.cause2, why, whysz) != 0)
		return -1;
	switch (profile_add_row(p, &r)) {
	case 0:
		return 0;
	case -2:
		return profile_full_why(p, why, whysz);
	default:
		return tsv_why(t, why, whysz, "cycles: the sum passes 2^63-1");
	}
}

struct tabcols {
	int kernel, pc, hits, cycles, cause, inst, row;
	int cyc[NCAUSE];
};

/* Field i as a count into *v: 0, or -1 with the line in why. */
static int
nonneg(const struct tsv *t, int i, int64_t *v, char *why, size_t whysz)
{
	if (!tsv_get_i64(t, i, v))
		return tsv_why(t, why, whysz, "%s: '%s' is not a number", t->col[i], t->field[i]);
	if (*v < 0)
		return tsv_why(t, why, whysz, "%s: %" PRId64 " is negative", t->col[i], *v);
	return 0;
}

/* A cause a table names: "other" is one of its columns, an unknown name is not. */
static int
known_cause(const char *name)
{
	int ci = cause_by_name(name);

	return ci != CAUSE_OTHER || strcmp(name, cause_info[CAUSE_OTHER].name) == 0 ? ci : -1;
}

static int
table_cause(const struct tsv *t, int i, int *ci, char *why, size_t whysz)
{
	if ((*ci = known_cause(t->field[i])) < 0)
		return tsv_why(t, why, whysz, "cause: unknown cause '%s'", t->field[i]);
	return 0;
}

/* "##stall-table kernel NAME cycles N waves N hits N [untraced_waves N untraced_cycles N]" */
static int
table_kernel_meta(struct profile *p, const struct tsv *t, char *why, size_t whysz)
{
	struct profile_kernel *k;
	size_t i, ki;
	char *end;
	int seen = 0;

	if (t->nfield < 3 || t->nfield % 2 != 1)
		return tsv_why(t, why, whysz, "a '##stall-table kernel' line without name and "
		    "figures");
	/* before &p->kernels: it may move them */
	if ((ki = profile_kernel(p, t->field[2])) == PROFILE_FULL)
		return profile_full_why(p, why, whysz);
	k = &p->kernels[ki];
	if (k->tab & TAB_META)
		return tsv_why(t, why, whysz, "kernel '%s' twice", t->field[2]);
	k->tab |= TAB_META;
	for (i = 3; i + 1 < t->nfield; i += 2) {
		const char *key = t->field[i], *val = t->field[i + 1];
		unsigned long long v;

		if (*val < '0' || *val > '9' || (v = strtoull(val, &end, 10), *end != '\0') ||
		    v > INT64_MAX)
			return tsv_why(t, why, whysz, "kernel '%s': %s '%s' is not a number",
			    k->name, key, val);
		if (strcmp(key, "cycles") == 0)
			k->meta_cycles = (int64_t)v, seen |= 1;
		else if (strcmp(key, "waves") == 0)
			k->waves = v, seen |= 2;
		else if (strcmp(key, "hits") == 0)
			k->meta_hits = v, seen |= 4;
		else if (strcmp(key, "untraced_waves") == 0)
			k->untraced_waves = v;
		else if (strcmp(key, "untraced_cycles") == 0)
			k->untraced_cycles = (int64_t)v;
	}
	if (seen != 7)
		return tsv_why(t, why, whysz, "kernel '%s': no cycles, waves or hits", k->name);
	return 0;
}

/* A table of an earlier version charged the launch and the drain to the instruction of
 * the row: their cycles (c_wave_start, c_drain) are moved to the lines of their own, with
 * the instruction's hits as the waves. */
static void
table_specials(struct profile *p, size_t ki, struct profile_line *l)
{
	enum profile_kind kind;
	int cause;

	for (kind = LINE_LAUNCH; kind <= LINE_DRAIN; kind++) {
		struct profile_line *sl;
		cause = kind == LINE_LAUNCH ? CAUSE_WAVE_START : CAUSE_DRAIN;
		int64_t lc = profile_line_cyc(l, cause);
		if (l->kind != LINE_INST || lc == 0)
			continue;
		sl = profile_special(p, ki, kind);
		sl->hits += l->hits;
		profile_line_cause(p, sl, cause)->hit += l->hits;
		sl->cycles += lc;
		profile_line_cause(p, sl, cause)->cyc += lc;
		l->cycles -= lc;
		profile_line_cause(p, l, cause)->cyc = 0;
	}
}

/* A line's cycles by cause, as a table gives them all. */
static void
line_set_cyc(struct profile *p, struct profile_line *l, const int64_t *cyc)
{
	int i;

	for (i = 0; i < NCAUSE; i++)
		if (cyc[i] != 0 || profile_line_find(l, i) != NULL)
			profile_line_cause(p, l, i)->cyc = cyc[i];
}

static int
read_table_row(struct profile *p, struct tsv *t, const struct tabcols *c, char *why,
    size_t whysz)
{
	size_t ki = profile_kernel(p, t->field[c->kernel]);
	struct profile_kernel *k;
	int64_t cyc[NCAUSE], sum = 0, cycles;
	uint64_t hits;
	int i, cause;

	if (ki == PROFILE_FULL)
		return profile_full_why(p, why, whysz);
	k = &p->kernels[ki];

	if (!tsv_get_u64(t, c->hits, &hits))
		return tsv_why(t, why, whysz, "%s: '%s' is not a number", t->col[c->hits],
		    t->field[c->hits]);
	if (nonneg(t, c->cycles, &cycles, why, whysz) != 0 ||
	    table_cause(t, c->cause, &cause, why, whysz) != 0)
		return -1;
	for (i = 0; i < NCAUSE; i++) {
		cyc[i] = 0;
		if (c->cyc[i] >= 0 && nonneg(t, c->cyc[i], &cyc[i], why, whysz) != 0)
			return -1;
		if (cyc[i] > INT64_MAX - sum)
			return tsv_why(t, why, whysz, "the cycles of the causes overflow");
		sum += cyc[i];
	}
	if (sum != cycles)
		return tsv_why(t, why, whysz, "the causes add up to %" PRId64 ", not to the %"
		    PRId64 " cycles", sum, cycles);
	if (strcmp(t->field[c->pc], "TOTAL") == 0) {
		if (k->tab & TAB_TOTAL)
			return tsv_why(t, why, whysz, "a second TOTAL row for kernel '%s'",
			    k->name);
		k->tab |= TAB_TOTAL;
		k->cycles = cycles;
		k->hits = hits;
		memcpy(k->cyc, cyc, sizeof(cyc));
		k->hit[cause] = hits;
		return 0;
	}
	if (k->tab & TAB_TOTAL)
		return tsv_why(t, why, whysz, "a row of kernel '%s' after its TOTAL row", k->name);
	enum profile_kind kind = LINE_INST;
	if (c->row >= 0 && strcmp(t->field[c->row], profile_kind_name[LINE_INST]) != 0) {
		if (strcmp(t->field[c->row], profile_kind_name[LINE_LAUNCH]) == 0)
			kind = LINE_LAUNCH;
		else if (strcmp(t->field[c->row], profile_kind_name[LINE_DRAIN]) == 0)
			kind = LINE_DRAIN;
		else
			return tsv_why(t, why, whysz, "row: '%s' is none of inst, launch, drain, "
			    "total", t->field[c->row]);
		if (k->special[kind] != NULL)
			return tsv_why(t, why, whysz, "kernel '%s': a second %s row", k->name,
			    profile_kind_name[kind]);
	}
	struct profile_line *l = kind != LINE_INST ? profile_special(p, ki, kind) :
	    profile_line(p, ki, t->field[c->pc], t->field[c->inst]);
	k = &p->kernels[ki];
	if (l->hits)
		return tsv_why(t, why, whysz, "kernel '%s' pc %s: a second row", k->name, l->pc);
	if (hits == 0)
		return tsv_why(t, why, whysz, "hits: 0: a row of nothing");
	l->hits = hits;
	l->cycles = cycles;
	line_set_cyc(p, l, cyc);
	profile_line_cause(p, l, cause)->hit = hits;
	k->table_cycles += cycles;
	if (kind == LINE_INST)
		k->table_hits += hits;	/* a launch's or drain's hits are waves, not rows */
	table_specials(p, ki, l);
	return 0;
}

/* A kernel of a table is whole: its ## line and TOTAL row agree with its rows. */
static int
table_check(struct profile *p, const char *path, char *why, size_t whysz)
{
	size_t i;

	for (i = 0; i < p->nkernel; i++) {
		struct profile_kernel *k = &p->kernels[i];

		if (!(k->tab & TAB_META) || !(k->tab & TAB_TOTAL)) {
			return fail_why(why, whysz, "%s: kernel '%s' has no %s", path, k->name,
			    k->tab & TAB_META ? "TOTAL row" : "'##stall-table kernel' line");
		}
		if (k->meta_cycles != k->cycles || k->meta_hits != k->hits ||
		    k->table_cycles > k->cycles || k->table_hits > k->hits ||
		    (p->top == 0 && (k->table_cycles != k->cycles || k->table_hits != k->hits))) {
			return fail_why(why, whysz, "%s: kernel '%s': its rows, TOTAL row and "
			    "'##stall-table kernel' line do not agree", path, k->name);
		}
		k->cut = p->top > 0 && k->table_hits < k->hits;
	}
	return 0;
}

/* 0, -1 without a header, -2 with the error of a row or a table in why (the stream's own
 * errors, tsv_next's and tsv_need's, are raised: profile_read_tsv catches them). */
static int
read_tsv(struct profile *p, struct tsv *t, char *why, size_t whysz)
{
	const char *file_view = NULL;
	struct rowcols rc = { -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1 };
	struct tabcols tc = { 0 };
	int header_seen = 0, table = 0, i;

	p->path = t->path;
	for (;;) {
		enum tsv_kind kind = tsv_next(t);

		if (kind == TSV_EOF)
			break;
		if (kind == TSV_META) {
			if (strcmp(t->field[0], "stall-attr") == 0 && t->nfield > 1)
				file_view = strcmp(t->field[1], "raw") == 0 ? "raw" :
				    strcmp(t->field[1], "cause") == 0 ? "cause" : "unknown";
			if (strcmp(t->field[0], "stall-table") != 0 ||
			    !(p->flags & PROFILE_TABLES)) {
				keep_meta(p, t);
				continue;
			}
			if (t->nfield > 1 && strcmp(t->field[1], "kernel") == 0) {
				if (table_kernel_meta(p, t, why, whysz) != 0)
					return -2;
			} else if (t->nfield > 2 && strcmp(t->field[1], "top") == 0) {
				const char *errstr;
				p->top = strtonum(t->field[2], 1, LLONG_MAX, &errstr);
				if (errstr) {
					tsv_why(t, why, whysz, "top: '%s' is %s", t->field[2], errstr);
					return -2;
				}
			} else if (t->nfield > 2 && strcmp(t->field[1], "counted") == 0 &&
			    strncmp(t->field[2], "delta", 5) == 0)
				file_view = "delta";
			continue;
		}
		if (kind == TSV_HEADER) {
			header_seen = 1;
			if ((p->flags & PROFILE_TABLES) && tsv_col(t, "token") < 0 &&
			    tsv_col(t, "pct") >= 0) {
				table = 1;
				tc.kernel = tsv_need(t, "kernel");
				tc.pc = tsv_need(t, "pc");
				tc.hits = tsv_need(t, "hits");
				tc.cycles = tsv_need(t, "cycles");
				tc.cause = tsv_need(t, "cause");
				tc.inst = tsv_need(t, "inst");
				tc.row = tsv_col(t, "row");
				for (i = 0; i < NCAUSE; i++)
					if ((tc.cyc[i] = tsv_col(t, cause_info[i].col)) < 0 &&
					    cause_col_was(i) != NULL)
						tc.cyc[i] = tsv_col(t, cause_col_was(i));
				profile_set_view(p, file_view ? file_view : "unknown");
				continue;
			}
			rc.kernel = tsv_need(t, "kernel");
			rc.pc = tsv_need(t, "pc");
			rc.inst = tsv_need(t, "inst");
			rc.token = tsv_need(t, "token");
			rc.cause = tsv_col(t, "cause");
			rc.cost2 = tsv_col(t, "cost2");
			rc.cause2 = tsv_col(t, "cause2");
			if (p->flags & PROFILE_WALL) {
				rc.event = tsv_col(t, "event");
				rc.time = tsv_col(t, "time");
				rc.delta = tsv_col(t, "delta");
			}
			if ((rc.cost = tsv_col(t, "cost")) < 0) {
				rc.cost = tsv_need(t, "delta");
				profile_set_view(p, "delta");
			} else
				profile_set_view(p, file_view ? file_view : "unknown");
			if (p->on_header && p->on_header(p->hook, t, why, whysz) != 0)
				return -2;
			continue;
		}
		if (table) {
			if (read_table_row(p, t, &tc, why, whysz) != 0)
				return -2;
		} else if (read_row(p, t, &rc, why, whysz) != 0)
			return -2;
	}
	if (table && table_check(p, t->path, why, whysz) != 0)
		return -2;
	p->path = NULL;		/* the stream's, which its reader frees */
	return header_seen ? 0 : -1;
}

/* The stream's errors (tsv_next, tsv_need: raised in base/tsv.c) come back here. */
int
profile_read_tsv(struct profile *p, struct tsv *t, char *why, size_t whysz)
{
	struct fatal_catch fc;
	int r;

	fatal_arm(&fc, why, whysz);
	if (setjmp(fc.back) != 0) {
		p->path = NULL;
		return -2;
	}
	r = read_tsv(p, t, why, whysz);
	fatal_disarm(&fc);
	if (r == -2)
		p->path = NULL;
	return r;
}

/* JSON tables ---------------------------------------------------------------------- */

/* A JSON table's reader: the path and the first error's line. */
struct jread {
	struct profile *p;
	const char *path;
	char *why;
	size_t whysz;
};

static int
jfail(struct jread *j, const struct json *v, const char *what, const char *name)
{
	return fail_why(j->why, j->whysz, "%s: line %lu: %s%s%s", j->path, v ? v->line : 0UL,
	    what, name ? " " : "", name ? name : "");
}

/* obj's member key of type into *out: 0, or -1 with why. */
static int
jmember(struct jread *j, const struct json *obj, const char *key, enum json_type type,
    const struct json **out)
{
	const struct json *v = json_get(obj, key);
	char what[80];

	if (v == NULL || v->type != type) {
		snprintf(what, sizeof(what), "\"%s\" is missing or not a%s", key,
		    type == JSON_STRING ? " string" : type == JSON_ARRAY ? "n array" :
		    type == JSON_OBJECT ? "n object" : " number");
		return jfail(j, obj, what, NULL);
	}
	*out = v;
	return 0;
}

static int
jcount(struct jread *j, const struct json *obj, const char *key, int64_t *n)
{
	const struct json *v;

	if (jmember(j, obj, key, JSON_NUMBER, &v) != 0)
		return -1;
	if (!v->is_int || v->i < 0)
		return jfail(j, v, key, "is not a count");
	*n = v->i;
	return 0;
}

/* As jcount, for a count kept unsigned. */
static int
jucount(struct jread *j, const struct json *obj, const char *key, uint64_t *n)
{
	int64_t v;

	if (jcount(j, obj, key, &v) != 0)
		return -1;
	*n = (uint64_t)v;
	return 0;
}

/* "causes": {name: cycles}; they add up to cycles. */
static int
jcauses(struct jread *j, const struct json *obj, int64_t cycles, int64_t *cyc)
{
	const struct json *c, *m;
	int64_t sum = 0;
	int ci;

	if (jmember(j, obj, "causes", JSON_OBJECT, &m) != 0)
		return -1;
	memset(cyc, 0, NCAUSE * sizeof(*cyc));
	for (c = m->child; c; c = c->next) {
		if ((ci = known_cause(c->key)) < 0)
			return jfail(j, c, "unknown cause", c->key);
		if (c->type != JSON_NUMBER || !c->is_int || c->i < 0 || cyc[ci] != 0 ||
		    c->i > INT64_MAX - sum)
			return jfail(j, c, "bad cycles of cause", c->key);
		cyc[ci] = c->i;
		sum += c->i;
	}
	if (sum != cycles)
		return jfail(j, obj, "the causes do not add up to the cycles", NULL);
	return 0;
}

/* The cause of obj, or -1 with why. */
static int
jcause(struct jread *j, const struct json *obj)
{
	const struct json *v;
	int ci;

	if (jmember(j, obj, "cause", JSON_STRING, &v) != 0)
		return -1;
	if ((ci = known_cause(v->str)) < 0)
		return jfail(j, v, "unknown cause", v->str);
	return ci;
}

/* A line's hits, cycles, causes and cause (a row or a launch or drain entry). */
static int
jline(struct jread *j, const struct json *obj, struct profile_line *l, const char *what,
    const char *name)
{
	int64_t cyc[NCAUSE];
	int ci;

	if (jucount(j, obj, "hits", &l->hits) != 0)
		return -1;
	if (l->hits == 0)
		return jfail(j, obj, what, name);
	if (jcount(j, obj, "cycles", &l->cycles) != 0 ||
	    jcauses(j, obj, l->cycles, cyc) != 0 || (ci = jcause(j, obj)) < 0)
		return -1;
	line_set_cyc(j->p, l, cyc);
	profile_line_cause(j->p, l, ci)->hit = l->hits;
	return 0;
}

static int
jkernel(struct profile *p, struct jread *j, const struct json *kj)
{
	const struct json *name, *rows, *rj;
	struct profile_kernel *k;
	size_t ki;
	int kind, ci;

	if (kj->type != JSON_OBJECT)
		return jfail(j, kj, "a kernel that is not an object", NULL);
	if (jmember(j, kj, "kernel", JSON_STRING, &name) != 0)
		return -1;
	if ((ki = profile_kernel(p, name->str)) == PROFILE_FULL)
		return profile_full_why(p, j->why, j->whysz);
	k = &p->kernels[ki];
	if (k->tab)
		return jfail(j, kj, "a second entry for kernel", name->str);
	k->tab = TAB_META | TAB_TOTAL;
	if (jcount(j, kj, "cycles", &k->cycles) != 0 ||
	    jucount(j, kj, "waves", &k->waves) != 0 ||
	    jucount(j, kj, "hits", &k->hits) != 0 ||
	    jucount(j, kj, "untraced_waves", &k->untraced_waves) != 0 ||
	    jcount(j, kj, "untraced_cycles", &k->untraced_cycles) != 0)
		return -1;
	k->meta_cycles = k->cycles;
	k->meta_hits = k->hits;
	if (jcauses(j, kj, k->cycles, k->cyc) != 0 || (ci = jcause(j, kj)) < 0)
		return -1;
	k->hit[ci] = k->hits;
	for (kind = LINE_LAUNCH; kind <= LINE_DRAIN; kind++) {
		const struct json *sj = json_get(kj, profile_kind_name[kind]);
		struct profile_line *l;
		if (sj == NULL)
			continue;
		if (sj->type != JSON_OBJECT)
			return jfail(j, sj, profile_kind_name[kind], "is not an object");
		l = profile_special(p, ki, kind);
		k = &p->kernels[ki];
		if (jline(j, sj, l, profile_kind_name[kind], "of no hits") != 0)
			return -1;
		k->table_cycles += l->cycles;
	}
	if (jmember(j, kj, "rows", JSON_ARRAY, &rows) != 0)
		return -1;
	for (rj = rows->child; rj; rj = rj->next) {
		const struct json *pc, *inst;
		struct profile_line *l;

		if (rj->type != JSON_OBJECT)
			return jfail(j, rj, "a row that is not an object", NULL);
		if (jmember(j, rj, "pc", JSON_STRING, &pc) != 0 ||
		    jmember(j, rj, "inst", JSON_STRING, &inst) != 0)
			return -1;
		l = profile_line(p, ki, pc->str, inst->str);
		if (l->hits)
			return jfail(j, rj, "a second row for pc", pc->str);
		if (jline(j, rj, l, "a row of no hits at pc", pc->str) != 0)
			return -1;
		k->table_cycles += l->cycles;
		k->table_hits += l->hits;
		table_specials(p, ki, l);
		k = &p->kernels[ki];
		if (k->table_cycles < 0)
			return jfail(j, rj, "the cycles overflow", NULL);
	}
	return 0;
}

static int
read_json(struct profile *p, struct jread *j, const struct json *root)
{
	const struct json *v, *kj;
	int64_t top;

	if (root->type != JSON_OBJECT)
		return jfail(j, root, "not a stall table: not an object", NULL);
	if (jmember(j, root, "version", JSON_NUMBER, &v) != 0)
		return -1;
	if (!v->is_int || v->i != 1)
		return jfail(j, v, "not a stall table of version 1", NULL);
	if (jmember(j, root, "view", JSON_STRING, &v) != 0)
		return -1;
	profile_set_view(p, strcmp(v->str, "cause") == 0 ? "cause" : strcmp(v->str, "raw") == 0 ?
	    "raw" : strcmp(v->str, "delta") == 0 ? "delta" : "unknown");
	if (jcount(j, root, "top", &top) != 0)
		return -1;
	if (top > 0)
		p->top = top;
	if (jmember(j, root, "kernels", JSON_ARRAY, &v) != 0)
		return -1;
	for (kj = v->child; kj; kj = kj->next)
		if (jkernel(p, j, kj) != 0)
			return -1;
	return 0;
}

int
profile_read_json(struct profile *p, const char *path, const char *buf, size_t len,
    char *why, size_t whysz)
{
	struct jread j = { p, path, why, whysz };
	char err[256];
	struct json *root = json_parse(buf, len, err, sizeof(err));
	int r;

	if (root == NULL)
		return fail_why(why, whysz, "%s: %s", path, err);
	p->path = path;
	r = read_json(p, &j, root);
	json_free(root);
	if (r == 0)
		r = table_check(p, path, why, whysz);
	p->path = NULL;
	return r;
}

/* Ordering ------------------------------------------------------------------------- */

static int
cmp_line_pc(const struct profile_line *a, const struct profile_line *b)
{
	int c;

	if (a->kind != b->kind)	/* the instructions, then the launch, then the drain */
		return a->kind < b->kind ? -1 : 1;
	if (a->pcv != b->pcv)
		return a->pcv < b->pcv ? -1 : 1;
	if ((c = strcmp(a->pc, b->pc)) != 0)
		return c;
	return strcmp(a->inst, b->inst);	/* an untraced wave's row at an instruction's pc */
}

int
profile_cmp_cycles(const void *pa, const void *pb)
{
	const struct profile_line *a = *(struct profile_line *const *)pa;
	const struct profile_line *b = *(struct profile_line *const *)pb;

	if (a->cycles != b->cycles)
		return a->cycles > b->cycles ? -1 : 1;
	return cmp_line_pc(a, b);
}

int
profile_cmp_hits(const void *pa, const void *pb)
{
	const struct profile_line *a = *(struct profile_line *const *)pa;
	const struct profile_line *b = *(struct profile_line *const *)pb;

	if (a->hits != b->hits)
		return a->hits > b->hits ? -1 : 1;
	return profile_cmp_cycles(pa, pb);
}

/* Program order; the lines of one pc by their text. */
int
profile_cmp_pc(const void *pa, const void *pb)
{
	const struct profile_line *a = *(struct profile_line *const *)pa;
	const struct profile_line *b = *(struct profile_line *const *)pb;
	int c = cmp_line_pc(a, b);

	return c ? c : strcmp(a->inst, b->inst);
}

/* lines[i]'s subtree a heap again: each line after (in cmp's order) those below it */
static void
sift_down(struct profile_line **h, size_t n, size_t i, int (*cmp)(const void *, const void *))
{
	struct profile_line *t;
	size_t m, c;

	for (;;) {
		m = i;
		c = 2 * i + 1;
		if (c < n && cmp(&h[c], &h[m]) > 0)
			m = c;
		if (c + 1 < n && cmp(&h[c + 1], &h[m]) > 0)
			m = c + 1;
		if (m == i)
			return;
		t = h[i], h[i] = h[m], h[m] = t;
		i = m;
	}
}

void
profile_sort_top(struct profile_line **lines, size_t n, size_t k,
    int (*cmp)(const void *, const void *))
{
	struct profile_line *t;
	size_t i;

	if (k > n)
		k = n;
	if (k > 0 && k < n) {
		/* a heap of the first k so far, the last of them at its root */
		for (i = k / 2; i-- > 0;)
			sift_down(lines, k, i, cmp);
		for (i = k; i < n; i++)
			if (cmp(&lines[i], &lines[0]) < 0) {
				t = lines[0], lines[0] = lines[i], lines[i] = t;
				sift_down(lines, k, 0, cmp);
			}
	}
	xqsort(lines, k, sizeof(*lines), cmp);
}

int
profile_cmp_kernel(const void *pa, const void *pb)
{
	const struct profile_kernel *a = pa, *b = pb;

	if (a->cycles != b->cycles)
		return a->cycles > b->cycles ? -1 : 1;
	return strcmp(a->name, b->name);
}

static void
line_append(struct profile_kernel *k, struct profile_line *l)
{
	if (k->nline == k->cap) {
		k->cap = k->cap ? 2 * k->cap : 64;
		k->lines = xreallocarray(k->lines, k->cap, sizeof(*k->lines));
	}
	k->lines[k->nline++] = l;
}

void
profile_finish(struct profile *p)
{
	struct profile_line *l;
	size_t j;

	for (j = 0; j < p->nall; j++)
		if ((l = p->all[j])->kind == LINE_INST)
			line_append(&p->kernels[l->kernel], l);
	for (j = 0; j < p->nkernel; j++) {
		struct profile_kernel *k = &p->kernels[j];
		enum profile_kind kind;
		for (kind = LINE_LAUNCH; kind <= LINE_DRAIN; kind++)
			if (k->special[kind] != NULL) {
				line_append(k, k->special[kind]);
				k->nspecial++;
			}
		k->nshow = k->nline;
	}
	for (j = 0; j < p->spansize; j++) {
		struct profile_span *s = &p->spans[j];
		if (s->used && s->last - s->first > p->kernels[s->kernel].wall)
			p->kernels[s->kernel].wall = s->last - s->first;
	}
	if (p->view == NULL)
		p->view = "unknown";
}

int
profile_dominant(const int64_t *cyc, const uint64_t *hit)
{
	int i, best = 0;

	for (i = 1; i < NCAUSE; i++)
		if (cyc[i] > cyc[best] || (cyc[i] == cyc[best] && hit[i] > hit[best]))
			best = i;
	return best;
}

double
profile_pct(int64_t part, int64_t whole)
{
	return whole > 0 ? 100.0 * (double)part / (double)whole : 0.0;
}

const char *
profile_counted(const struct profile *p)
{
	if (strcmp(p->view, "delta") == 0)
		return "delta (rows without a cost column: every row charged its delta, no causes)";
	if (strcmp(p->view, "cause") == 0)
		return "cost (stall-attr cause view: barrier waits moved onto the s_barrier)";
	if (strcmp(p->view, "raw") == 0)
		return "cost (stall-attr raw view: every row charged its delta)";
	return "cost";
}

/* Writing -------------------------------------------------------------------------- */

void
profile_put_tsv(const struct profile *p, FILE *fp)
{
	profile_put_tsv_as(p, fp, 0);
}

/* The table; its last column, row, says what each row is: inst (an instruction) or total
 * (the kernel's TOTAL row), so that no script has to know the pc column's TOTAL. */
void
profile_put_tsv_as(const struct profile *p, FILE *fp, unsigned how)
{
	size_t i, j;
	int c;
	const struct profile_kernel *k;

	for (i = 0; i < p->nmeta && !(how & PROFILE_PUT_PLAIN); i++)
		fprintf(fp, "%s\n", p->metas[i]);
	if (!(how & PROFILE_PUT_PLAIN)) {
		fprintf(fp, "##stall-table\tcounted\t%s\n", profile_counted(p));
		fprintf(fp, "##stall-table\tpct\tpercent of the kernel's cycles, the sum of its "
		    "waves' lifetimes\n");
		if (p->top > 0)
			fprintf(fp, "##stall-table\ttop\t%lld\n", p->top);
	}
	for (i = 0; i < p->nkernel && !(how & PROFILE_PUT_PLAIN); i++) {
		/* one field count for every kernel: the untraced ones are 0 when there are none */
		k = &p->kernels[i];
		meta_begin(fp, "stall-table");
		meta_str(fp, "kernel");
		meta_str(fp, k->name);
		fprintf(fp, "\tcycles\t%" PRId64 "\twaves\t%" PRIu64 "\thits\t%" PRIu64
		    "\tuntraced_waves\t%" PRIu64 "\tuntraced_cycles\t%" PRId64 "\n", k->cycles,
		    k->waves, k->hits, k->untraced_waves, k->untraced_cycles);
	}
	if (!(how & PROFILE_PUT_NOHEADER)) {
		fprintf(fp, "%skernel\tpc\thits\tcycles\tpct\tcause", how & PROFILE_PUT_PLAIN ? "" : "#");
		for (c = 0; c < CAUSE_BEFORE_INST; c++)
			fprintf(fp, "\t%s", cause_info[c].col);
		fprintf(fp, "\tinst");
		for (; c < NCAUSE; c++)
			fprintf(fp, "\t%s", cause_info[c].col);
		fprintf(fp, "\trow\n");
	}
	for (i = 0; i < p->nkernel; i++) {
		k = &p->kernels[i];
		for (j = 0; j < k->nshow; j++) {
			const struct profile_line *l = k->lines[j];
			int64_t lcyc[NCAUSE];
			uint64_t lhit[NCAUSE];

			profile_line_dense(l, lcyc, lhit);
			fprintf(fp, "%s\t%s\t%" PRIu64 "\t%" PRId64 "\t%.2f\t%s", k->name, l->pc,
			    l->hits, l->cycles, profile_pct(l->cycles, k->cycles),
			    cause_info[profile_dominant(lcyc, lhit)].name);
			for (c = 0; c < CAUSE_BEFORE_INST; c++)
				fprintf(fp, "\t%" PRId64, lcyc[c]);
			fprintf(fp, "\t%s", l->inst);
			for (; c < NCAUSE; c++)
				fprintf(fp, "\t%" PRId64, lcyc[c]);
			fprintf(fp, "\t%s\n", profile_kind_name[l->kind]);
		}
		if (how & PROFILE_PUT_PLAIN)
			continue;
		fprintf(fp, "%s\tTOTAL\t%" PRIu64 "\t%" PRId64 "\t%.2f\t%s", k->name, k->hits,
		    k->cycles, profile_pct(k->cycles, k->cycles),
		    cause_info[profile_dominant(k->cyc, k->hit)].name);
		for (c = 0; c < CAUSE_BEFORE_INST; c++)
			fprintf(fp, "\t%" PRId64, k->cyc[c]);
		fprintf(fp, "\t-");
		for (; c < NCAUSE; c++)
			fprintf(fp, "\t%" PRId64, k->cyc[c]);
		fprintf(fp, "\ttotal\n");
	}
}

static void
json_causes(FILE *fp, const int64_t *cyc)
{
	int c, n = 0;

	putc('{', fp);
	for (c = 0; c < NCAUSE; c++) {
		if (cyc[c] == 0)
			continue;
		if (n++)
			fprintf(fp, ", ");
		json_put_string(fp, cause_info[c].name);
		fprintf(fp, ": %" PRId64, cyc[c]);
	}
	putc('}', fp);
}

void
profile_put_json(const struct profile *p, FILE *fp)
{
	size_t i, j, n;
	int kind;
	const struct profile_kernel *k;

	fprintf(fp, "{\"version\": 1, \"view\": ");
	json_put_string(fp, p->view);
	fprintf(fp, ", \"top\": %lld, \"kernels\": [", p->top);
	for (i = 0; i < p->nkernel; i++) {
		k = &p->kernels[i];
		fprintf(fp, "%s\n  {\"kernel\": ", i ? "," : "");
		json_put_string(fp, k->name);
		fprintf(fp, ", \"cycles\": %" PRId64 ", \"waves\": %" PRIu64 ", \"hits\": %" PRIu64
		    ", \"untraced_waves\": %" PRIu64 ", \"untraced_cycles\": %" PRId64
		    ", \"cause\": ", k->cycles, k->waves, k->hits, k->untraced_waves,
		    k->untraced_cycles);
		json_put_string(fp, cause_info[profile_dominant(k->cyc, k->hit)].name);
		fprintf(fp, ", \"causes\": ");
		json_causes(fp, k->cyc);
		for (kind = LINE_LAUNCH; kind <= LINE_DRAIN; kind++) {
			const struct profile_line *l = k->special[kind];
			int64_t lcyc[NCAUSE];
			uint64_t lhit[NCAUSE];

			if (l == NULL)
				continue;
			profile_line_dense(l, lcyc, lhit);
			fprintf(fp, ", \"%s\": {\"hits\": %" PRIu64 ", \"cycles\": %" PRId64
			    ", \"pct\": %.2f, \"cause\": ", profile_kind_name[kind], l->hits, l->cycles,
			    profile_pct(l->cycles, k->cycles));
			json_put_string(fp, cause_info[profile_dominant(lcyc, lhit)].name);
			fprintf(fp, ", \"causes\": ");
			json_causes(fp, lcyc);
			putc('}', fp);
		}
		fprintf(fp, ", \"rows\": [");
		for (j = n = 0; j < k->nshow; j++) {
			const struct profile_line *l = k->lines[j];
			int64_t lcyc[NCAUSE];
			uint64_t lhit[NCAUSE];

			profile_line_dense(l, lcyc, lhit);
			if (l->kind != LINE_INST)
				continue;
			fprintf(fp, "%s\n    {\"pc\": ", n++ ? "," : "");
			json_put_string(fp, l->pc);
			fprintf(fp, ", \"hits\": %" PRIu64 ", \"cycles\": %" PRId64 ", \"pct\": %.2f"
			    ", \"cause\": ", l->hits, l->cycles, profile_pct(l->cycles, k->cycles));
			json_put_string(fp, cause_info[profile_dominant(lcyc, lhit)].name);
			fprintf(fp, ", \"causes\": ");
			json_causes(fp, lcyc);
			fprintf(fp, ", \"inst\": ");
			json_put_string(fp, l->inst);
			putc('}', fp);
		}
		fprintf(fp, "%s]}", n ? "\n  " : "");
	}
	fprintf(fp, "%s]}\n", p->nkernel ? "\n" : "");
}
