/* occupancy: waves in flight per SIMD from WAVE_START and WAVE_END (occupancy.h). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "occupancy.h"
#include "token.h"
#include "util.h"
#include "walk.h"

/* +1 at a start, -1 at an end; an end sorts before a start of the same cycle (a slot
 * freed and taken again is not two waves at once). */
struct step {
	uint32_t buf;		/* the buffer's index */
	uint32_t unit;		/* sa << 16 | wgp << 8 | simd */
	int64_t time;
	int delta;
};

struct buf {
	uint64_t event;
	int se;
	char *kernel;
};

struct occupancy {
	struct buf *buf;
	size_t nbuf;
	struct step *step;
	size_t nstep, cap;
	size_t sorted;		/* the first steps in cmp_step's order (occupancy_settle) */
	struct u64map open;	/* the current buffer's waves in flight: start time + 1 by
				 * unit and slot */
	int64_t first;		/* the current buffer's first token time, -1: none yet */
	uint64_t waves;
	char why[128];
};

struct occupancy *
occupancy_new(void)
{
	return xcalloc(1, sizeof(struct occupancy));
}

void
occupancy_free(struct occupancy *o)
{
	size_t i;

	if (o == NULL)
		return;
	for (i = 0; i < o->nbuf; i++)
		free(o->buf[i].kernel);
	free(o->buf);
	free(o->step);
	u64map_free(&o->open);
	free(o);
}

static int
cmp_step(const void *pa, const void *pb)
{
	const struct step *a = pa, *b = pb;

	if (a->buf != b->buf)
		return a->buf < b->buf ? -1 : 1;
	if (a->unit != b->unit)
		return a->unit < b->unit ? -1 : 1;
	if (a->time != b->time)
		return a->time < b->time ? -1 : 1;
	return a->delta - b->delta;
}

/* The steps seen so far in order (those of a buffer come together, in buffer order:
 * the steps sorted before stay first). */
void
occupancy_settle(struct occupancy *o)
{
	if (o->nstep > o->sorted)	/* no offset from a NULL array */
		xqsort(o->step + o->sorted, o->nstep - o->sorted, sizeof(*o->step), cmp_step);
	o->sorted = o->nstep;
}

void
occupancy_buffer(struct occupancy *o, uint64_t event, int se, const char *kernel)
{
	o->buf = xreallocarray(o->buf, o->nbuf + 1, sizeof(*o->buf));
	o->buf[o->nbuf].event = event;
	o->buf[o->nbuf].se = se;
	o->buf[o->nbuf].kernel = xstrdup(kernel ? kernel : "-");
	o->nbuf++;
	u64map_free(&o->open);
	memset(&o->open, 0, sizeof(o->open));
	o->first = -1;
}

static int
add_step(struct occupancy *o, uint32_t unit, int64_t time, int delta)
{
	if (o->nstep == OCCUPANCY_MAX) {
		snprintf(o->why, sizeof(o->why), "occupancy: more than %u wave starts and ends",
		    OCCUPANCY_MAX);
		return -1;
	}
	if (o->nstep == o->cap) {
		o->cap = o->cap ? 2 * o->cap : 1024;
		o->step = xreallocarray(o->step, o->cap, sizeof(*o->step));
	}
	o->step[o->nstep++] = (struct step){ (uint32_t)(o->nbuf - 1), unit, time, delta };
	return 0;
}

int
occupancy_packet(struct occupancy *o, const struct walk_packet *pk)
{
	enum sqtt_kind kind = sqtt_type_kind(pk->type);
	uint32_t unit;
	void **v;

	if (o->nbuf == 0)
		return 0;
	if (o->first < 0)
		o->first = (int64_t)pk->time;
	if ((kind != SQTT_K_WAVE_START && kind != SQTT_K_WAVE_END) || pk->wave < 0 ||
	    pk->simd < 0 || pk->wgp < 0 || pk->sa < 0)
		return 0;
	unit = (uint32_t)(pk->sa & 0xff) << 16 | (uint32_t)(pk->wgp & 0xff) << 8 |
	    (uint32_t)(pk->simd & 0xff);
	v = u64map_slot(&o->open, (uint64_t)unit << 8 | (uint64_t)(pk->wave & 0xff));
	if (kind == SQTT_K_WAVE_START) {
		if (*v != NULL && add_step(o, unit, (int64_t)pk->time, -1) < 0)
			return -1;	/* a slot started again: its wave ended unseen */
		*v = (void *)(uintptr_t)(pk->time + 1);
		o->waves++;
		return add_step(o, unit, (int64_t)pk->time, 1);
	}
	if (*v == NULL) {	/* in flight when the buffer began */
		o->waves++;
		if (add_step(o, unit, o->first, 1) < 0)
			return -1;
	}
	*v = NULL;
	return add_step(o, unit, (int64_t)pk->time, -1);
}

int
occupancy_merge(struct occupancy *dst, struct occupancy *src)
{
	size_t n = dst->nbuf + src->nbuf, i, d, k;
	uint32_t *dmap, *smap;
	struct buf *buf;
	struct step *step;

	if (dst->nstep + src->nstep > OCCUPANCY_MAX) {
		snprintf(dst->why, sizeof(dst->why), "occupancy: more than %u wave starts and ends",
		    OCCUPANCY_MAX);
		occupancy_free(src);
		return -1;
	}
	occupancy_settle(dst);
	occupancy_settle(src);
	dmap = xcalloc(dst->nbuf + 1, sizeof(*dmap));
	smap = xcalloc(src->nbuf + 1, sizeof(*smap));
	buf = xcalloc(n + 1, sizeof(*buf));
	for (i = d = k = 0; k < n; k++)	/* both in event order: one list in event order */
		if (i < dst->nbuf && (d == src->nbuf || dst->buf[i].event <= src->buf[d].event)) {
			dmap[i] = (uint32_t)k;
			buf[k] = dst->buf[i++];
		} else {
			smap[d] = (uint32_t)k;
			buf[k] = src->buf[d++];
		}
	/* each list's steps in buffer order, its buffers' places still in order: the two
	 * merged by buffer keep every buffer's steps sorted */
	step = xcalloc(dst->nstep + src->nstep + 1, sizeof(*step));
	for (i = d = k = 0; i < dst->nstep || d < src->nstep; k++)
		if (d == src->nstep || (i < dst->nstep &&
		    dmap[dst->step[i].buf] < smap[src->step[d].buf])) {
			step[k] = dst->step[i++];
			step[k].buf = dmap[step[k].buf];
		} else {
			step[k] = src->step[d++];
			step[k].buf = smap[step[k].buf];
		}
	free(dst->step);
	dst->step = step;
	dst->nstep = dst->cap = dst->sorted = k;
	free(dst->buf);
	dst->buf = buf;
	dst->nbuf = n;
	dst->waves += src->waves;
	u64map_free(&dst->open);	/* no token may come after a merge */
	memset(&dst->open, 0, sizeof(dst->open));
	dst->first = -1;
	src->nbuf = 0;
	occupancy_free(src);
	free(dmap);
	free(smap);
	return 0;
}

const char *
occupancy_error(const struct occupancy *o)
{
	return o->why;
}

uint64_t
occupancy_waves(const struct occupancy *o)
{
	return o->waves;
}

/* The steps in order, and per SIMD its lines: a time and the count after its steps. */
static void
walk_simds(const struct occupancy *o, void (*fn)(void *ctx, const struct step *first,
    const int64_t *t, const long *w, size_t n), void *ctx)
{
	struct step *s = xcalloc(o->nstep + 1, sizeof(*s));
	int64_t *t = xcalloc(o->nstep + 1, sizeof(*t));
	long *w = xcalloc(o->nstep + 1, sizeof(*w));
	size_t i, j, n;
	long live;

	memcpy(s, o->step, o->nstep * sizeof(*s));
	xqsort(s + o->sorted, o->nstep - o->sorted, sizeof(*s), cmp_step);
	for (i = 0; i < o->nstep; i = j) {
		for (j = i, n = 0, live = 0; j < o->nstep && s[j].buf == s[i].buf &&
		    s[j].unit == s[i].unit; j++) {
			live += s[j].delta;
			if (j + 1 < o->nstep && s[j + 1].buf == s[j].buf && s[j + 1].unit ==
			    s[j].unit && s[j + 1].time == s[j].time)
				continue;	/* one line a cycle */
			if (n > 0 && w[n - 1] == live)
				continue;	/* no change */
			t[n] = s[j].time;
			w[n++] = live;
		}
		fn(ctx, &s[i], t, w, n);
	}
	free(s);
	free(t);
	free(w);
}

struct put { const struct occupancy *o; FILE *fp; int pretty, nth; };

static void
put_simd(void *ctx, const struct step *s, const int64_t *t, const long *w, size_t n)
{
	struct put *p = ctx;
	const struct buf *b = &p->o->buf[s->buf];
	unsigned sa = s->unit >> 16, wgp = s->unit >> 8 & 0xff, simd = s->unit & 0xff;
	size_t i;

	if (p->pretty) {
		long most = 0;
		double busy = 0;
		char *name = text_printable(b->kernel);
		for (i = 0; i < n; i++) {
			if (w[i] > most)
				most = w[i];
			if (i + 1 < n)
				busy += (double)w[i] * (double)(t[i + 1] - t[i]);
		}
		fprintf(p->fp, "%sevent %" PRIu64 " SE%d SA%u WGP%u SIMD%u, kernel %s: at most %ld "
		    "waves at once, %.2f on average over cycles %" PRId64 " to %" PRId64 "\n",
		    p->nth++ ? "\n" : "", b->event, b->se, sa, wgp, simd, name, most,
		    n > 1 && t[n - 1] > t[0] ? busy / (double)(t[n - 1] - t[0]) : 0.0, t[0],
		    t[n - 1]);
		free(name);
		fprintf(p->fp, "  %12s  %5s\n", "Cycle", "Waves");
		for (i = 0; i < n; i++)
			fprintf(p->fp, "  %12" PRId64 "  %5ld  %.*s\n", t[i], w[i],
			    (int)(w[i] > 64 ? 64 : w[i] < 0 ? 0 : w[i]),
			    "################################################################");
		return;
	}
	for (i = 0; i < n; i++)
		fprintf(p->fp, "%" PRIu64 "\t%d\t%s\t%u\t%u\t%u\t%" PRId64 "\t%ld\n", b->event, b->se,
		    b->kernel, sa, wgp, simd, t[i], w[i]);
}

void
occupancy_put(const struct occupancy *o, FILE *fp, int pretty)
{
	struct put p = { o, fp, pretty, 0 };

	if (!pretty)
		fprintf(fp, "#event\tse\tkernel\tsa\twgp\tsimd\ttime\twaves\n");
	walk_simds(o, put_simd, &p);
}

struct each {
	const struct occupancy *o;
	void (*fn)(void *, uint64_t, unsigned, unsigned, unsigned, const int64_t *,
	    const long *, size_t);
	void *ctx;
};

static void
each_simd(void *ctx, const struct step *s, const int64_t *t, const long *w, size_t n)
{
	struct each *e = ctx;

	e->fn(e->ctx, e->o->buf[s->buf].event, s->unit >> 16, s->unit >> 8 & 0xff,
	    s->unit & 0xff, t, w, n);
}

void
occupancy_each(const struct occupancy *o, void (*fn)(void *ctx, uint64_t event,
    unsigned sa, unsigned wgp, unsigned simd, const int64_t *times, const long *counts,
    size_t n), void *ctx)
{
	struct each e = { o, fn, ctx };

	walk_simds(o, each_simd, &e);
}
