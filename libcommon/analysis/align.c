/* align: the instructions of two versions of a kernel aligned (align.h). */
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "align.h"
#include "util.h"

const char *const align_mark[] = { "=", "m", "-", "+", "r" };

static int
word_char(int c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* A register at s: "v12", "s[4:7]", "ttmp3", "a[0:1]": its kind's length (1 or 4), the
 * register's length into *len and its width into *width; 0 when s is no register. */
static size_t
reg_at(const char *s, size_t *len, unsigned long *width)
{
	size_t k = strncmp(s, "ttmp", 4) == 0 ? 4 : (*s == 'v' || *s == 's' || *s == 'a') ? 1 : 0;
	const char *p = s + k;
	char *end;
	unsigned long lo, hi;

	if (k == 0)
		return 0;
	if (isdigit((unsigned char)*p)) {
		while (isdigit((unsigned char)*p))
			p++;
		if (word_char(*p))
			return 0;
		*len = (size_t)(p - s);
		*width = 0;
		return k;
	}
	if (*p != '[' || !isdigit((unsigned char)p[1]))
		return 0;
	lo = strtoul(p + 1, &end, 10);
	if (*end != ':' || !isdigit((unsigned char)end[1]))
		return 0;
	hi = strtoul(end + 1, &end, 10);
	if (*end != ']' || hi < lo)
		return 0;
	*len = (size_t)(end + 1 - s);
	*width = hi - lo + 1;
	return k;
}

void
align_shape(const char *inst, char *buf, size_t len)
{
	size_t o = 0, i = 0, k, rl;
	unsigned long w;
	char tmp[32];

	if (len == 0)
		return;
	while (inst[i] != '\0' && o + 1 < len) {
		if ((i == 0 || !word_char(inst[i - 1])) && (k = reg_at(inst + i, &rl, &w)) > 0) {
			int n = w ? snprintf(tmp, sizeof(tmp), "%.*s[%lu]", (int)k, inst + i, w) :
			    snprintf(tmp, sizeof(tmp), "%.*s", (int)k, inst + i);
			for (int t = 0; t < n && o + 1 < len; t++)
				buf[o++] = tmp[t];
			i += rl;
		} else
			buf[o++] = inst[i++];
	}
	buf[o] = '\0';
}

/* Texts as small numbers: equal text, equal number. -------------------------------- */

struct textref {
	const char *text;
	size_t index;		/* into the joint list: a's, then b's */
};

static int
cmp_text(const void *x, const void *y)
{
	const struct textref *p = x, *q = y;
	int c = strcmp(p->text, q->text);

	return c ? c : p->index < q->index ? -1 : p->index > q->index;
}

static void
number_texts(const char *const *t, size_t n, uint32_t *id)
{
	struct textref *r = xcalloc(n + 1, sizeof(*r));
	size_t i;
	uint32_t k = 0;

	for (i = 0; i < n; i++)
		r[i] = (struct textref){ t[i], i };
	xqsort(r, n, sizeof(*r), cmp_text);
	for (i = 0; i < n; i++) {
		if (i > 0 && strcmp(r[i].text, r[i - 1].text) != 0)
			k++;
		id[r[i].index] = k;
	}
	free(r);
}

/* The longest common subsequence, in linear space -------------------------------------- */

struct lcs {
	const uint32_t *a, *b;	/* shape ids */
	long *ma, *mb;		/* the match of each line, -1 none */
	long *vf, *vb;		/* the furthest x on each diagonal, forward and backward */
	long off;
	size_t cost;
	int approximate;
};

static void
match(struct lcs *c, long i, long j)
{
	c->ma[i] = j;
	c->mb[j] = i;
}

/* The middle snake of a[a0..a1) against b[b0..b1) (no common head or tail): an optimal
 * path's diagonal run from (x, y) to (u, v) that halves its edits, and how many edits the
 * whole path has.  Past ALIGN_MAX_COST, the forward diagonal that reached furthest. */
static long
middle_snake(struct lcs *c, long a0, long a1, long b0, long b1, long *x_, long *y_,
    long *u_, long *v_)
{
	const uint32_t *a = c->a + a0, *b = c->b + b0;
	long n = a1 - a0, m = b1 - b0, delta = n - m, d, k, x, y, x0, y0;
	long *vf = c->vf + c->off, *vb = c->vb + c->off;
	int odd = (int)(delta & 1);

	vf[1] = 0;
	vb[1] = 0;
	for (d = 0; d <= (n + m + 1) / 2; d++) {
		for (k = -d; k <= d; k += 2) {
			if (k == -d || (k != d && vf[k - 1] < vf[k + 1]))
				x = vf[k + 1];
			else
				x = vf[k - 1] + 1;
			y = x - k;
			x0 = x, y0 = y;
			while (x < n && y < m && a[x] == b[y])
				x++, y++;
			vf[k] = x;
			if (odd && delta - k >= -(d - 1) && delta - k <= d - 1 &&
			    vf[k] + vb[delta - k] >= n) {
				*x_ = x0, *y_ = y0, *u_ = x, *v_ = y;
				return 2 * d - 1;
			}
		}
		for (k = -d; k <= d; k += 2) {
			if (k == -d || (k != d && vb[k - 1] < vb[k + 1]))
				x = vb[k + 1];
			else
				x = vb[k - 1] + 1;
			y = x - k;
			x0 = x, y0 = y;
			while (x < n && y < m && a[n - 1 - x] == b[m - 1 - y])
				x++, y++;
			vb[k] = x;
			if (!odd && delta - k >= -d && delta - k <= d && vb[k] + vf[delta - k] >= n) {
				*x_ = n - x, *y_ = m - y, *u_ = n - x0, *v_ = m - y0;
				return 2 * d;
			}
		}
		if (d >= ALIGN_MAX_COST / 2) {
			/* too dear: split where the forward search got furthest */
			long best = -1, bk = 0;

			for (k = -d; k <= d; k += 2) {
				x = vf[k] < n ? vf[k] : n;
				y = x - k;
				if (y < 0 || y > m)
					continue;
				if (x + y > best && x + y < n + m)
					best = x + y, bk = k;
			}
			c->approximate = 1;
			if (best <= 0)
				return -1;
			x = vf[bk] < n ? vf[bk] : n;
			*x_ = *u_ = x;
			*y_ = *v_ = x - bk;
			return 2 * d + 1;
		}
	}
	return -1;	/* not reached: the two searches meet by (n + m + 1) / 2 */
}

static void
lcs(struct lcs *c, long a0, long a1, long b0, long b1)
{
	long x, y, u, v, d, t;

	for (;;) {
		while (a0 < a1 && b0 < b1 && c->a[a0] == c->b[b0])
			match(c, a0++, b0++);
		while (a0 < a1 && b0 < b1 && c->a[a1 - 1] == c->b[b1 - 1])
			match(c, --a1, --b1);
		if (a0 == a1 || b0 == b1) {
			c->cost += (size_t)(a1 - a0 + b1 - b0);
			return;
		}
		if ((d = middle_snake(c, a0, a1, b0, b1, &x, &y, &u, &v)) < 0) {
			c->cost += (size_t)(a1 - a0 + b1 - b0);
			return;	/* nothing in common found within the cost: all edits */
		}
		lcs(c, a0, a0 + x, b0, b0 + y);
		for (t = 0; t < u - x; t++)
			match(c, a0 + x + t, b0 + y + t);
		/* the second half by iteration: the depth stays that of the halvings */
		a0 += u;
		b0 += v;
	}
}

/* Equal shapes, the exact text the tie-break -------------------------------------------- */

struct side {
	long n;
	long *m;		/* this side's matches into the other */
	long *om;		/* the other side's matches into this */
	const uint32_t *sid;	/* shape ids */
	const uint32_t *eid, *oeid;	/* exact ids, this side's and the other's */
};

static int
exact(const struct side *s, long i, long o)
{
	return s->eid[i] == s->oeid[o];
}

/* Slide every run of unmatched lines of one side over the equal shapes around it to the
 * place with the most exact matches; of equally good places, the latest (so that of two
 * equal instructions the earlier is aligned).  1 if anything moved. */
static int
slide(struct side *s)
{
	long p = 0, q, i, best, gain, bestgain, up, down;
	int moved = 0;

	while (p < s->n) {
		if (s->m[p] >= 0) {
			p++;
			continue;
		}
		for (q = p; q < s->n && s->m[q] < 0; q++)
			;
		/* the places: up steps back and down steps on, each keeping the run whole */
		gain = 0, bestgain = 0, best = 0;
		for (up = 0; p - up > 0 && s->m[p - up - 1] >= 0 &&
		    s->sid[p - up - 1] == s->sid[q - up - 1]; up++) {
			long o = s->m[p - up - 1];
			gain += exact(s, q - up - 1, o) - exact(s, p - up - 1, o);
			if (p - up - 1 > 0 && s->m[p - up - 2] < 0) {
				up++;
				if (gain > bestgain)
					bestgain = gain, best = -up;
				break;
			}
			if (gain > bestgain)
				bestgain = gain, best = -(up + 1);
		}
		gain = 0;
		for (down = 0; q + down < s->n && s->m[q + down] >= 0 &&
		    s->sid[p + down] == s->sid[q + down]; down++) {
			long o = s->m[q + down];
			gain += exact(s, p + down, o) - exact(s, q + down, o);
			if (gain >= bestgain)
				bestgain = gain, best = down + 1;
			if (q + down + 1 < s->n && s->m[q + down + 1] < 0)
				break;
		}
		/* apply: the matched lines between the place and now change ends */
		if (best < 0) {
			for (i = 1; i <= -best; i++) {
				long o = s->m[p - i];
				s->m[q - i] = o;
				s->om[o] = q - i;
				s->m[p - i] = -1;
			}
			moved = 1;
		} else if (best > 0) {
			for (i = 0; i < best; i++) {
				long o = s->m[q + i];
				s->m[p + i] = o;
				s->om[o] = p + i;
				s->m[q + i] = -1;
			}
			moved = 1;
			q += best;
			p += best;
		}
		/* then line by line: the earliest line of the run with the shape of the next
		 * aligned line takes its place, so that the line left over is the later one */
		while (q < s->n && s->m[q] >= 0) {
			long o = s->m[q], r;
			for (r = p; r < q; r++)
				if (s->sid[r] == s->sid[q] && exact(s, r, o) >= exact(s, q, o))
					break;
			if (r == q)
				break;
			s->m[r] = o;
			s->om[o] = r;
			s->m[q] = -1;
			moved = 1;
			for (p = r + 1, q++; q < s->n && s->m[q] < 0; q++)
				;
		}
		p = q;
	}
	return moved;
}

/* The alignment --------------------------------------------------------------------- */

static void
add_row(struct align *al, enum align_edit e, long a, long b)
{
	al->rows[al->nrow++] = (struct align_row){ e, a, b };
}

void
align_run(struct align *al, const char *const *ta, size_t na, const char *const *tb,
    size_t nb)
{
	size_t n = na + nb, i, j, len = 0, pos, pass;
	const char **texts = xcalloc(n + 1, sizeof(*texts));
	uint32_t *eid = xcalloc(n + 1, sizeof(*eid)), *sid = xcalloc(n + 1, sizeof(*sid));
	long *ma = xcalloc(na + 1, sizeof(*ma)), *mb = xcalloc(nb + 1, sizeof(*mb));
	long *mva = xcalloc(na + 1, sizeof(*mva)), *mvb = xcalloc(nb + 1, sizeof(*mvb));
	long *before = xcalloc(na + 1, sizeof(*before)), *pairs = xcalloc(na + 1, sizeof(*pairs));
	long *first = NULL, *nextsame = xcalloc(na + 1, sizeof(*nextsame)), npair = 0;
	char *swapped = xcalloc(na + 1, 1), *shapes;
	struct lcs c;
	struct side sa, sb;

	memset(al, 0, sizeof(*al));
	for (i = 0; i < na; i++)
		texts[i] = ta[i];
	for (i = 0; i < nb; i++)
		texts[na + i] = tb[i];
	number_texts(texts, n, eid);
	for (i = 0; i < n; i++)
		len += strlen(texts[i]) + 1;
	shapes = xcalloc(len + 1, 1);
	for (i = 0, pos = 0; i < n; i++) {
		align_shape(texts[i], shapes + pos, len - pos);
		texts[i] = shapes + pos;
		pos += strlen(shapes + pos) + 1;
	}
	number_texts(texts, n, sid);

	for (i = 0; i < na; i++)
		ma[i] = mva[i] = -1;
	for (j = 0; j < nb; j++)
		mb[j] = mvb[j] = -1;
	memset(&c, 0, sizeof(c));
	c.a = sid;
	c.b = sid + na;
	c.ma = ma;
	c.mb = mb;
	c.off = (long)(n / 2) + 2;
	c.vf = xcalloc(2 * (size_t)c.off + 1, sizeof(long));
	c.vb = xcalloc(2 * (size_t)c.off + 1, sizeof(long));
	lcs(&c, 0, (long)na, 0, (long)nb);
	al->cost = c.cost;
	al->approximate = c.approximate;
	free(c.vf), free(c.vb);

	sa = (struct side){ (long)na, ma, mb, sid, eid, eid + na };
	sb = (struct side){ (long)nb, mb, ma, sid + na, eid + na, eid };
	for (pass = 0; pass < 64; pass++)
		if (!(slide(&sa) | slide(&sb)))
			break;

	/* moves: a line left over in a, another in b, the same text; each line of b takes
	 * the first of a's left over with its text */
	first = xcalloc(n + 1, sizeof(*first));
	for (i = 0; i < n + 1; i++)
		first[i] = -1;
	for (i = na; i-- > 0;)
		if (ma[i] < 0) {
			nextsame[i] = first[eid[i]];
			first[eid[i]] = (long)i;
		}
	for (j = 0; j < nb; j++) {
		long k;
		if (mb[j] >= 0 || (k = first[eid[na + j]]) < 0)
			continue;
		first[eid[na + j]] = nextsame[k];
		mva[k] = (long)j;
		mvb[j] = k;
	}
	/* A move across exactly one aligned line is a swap: that line moved too.  The
	 * aligned pairs go up on both sides, so those a move crosses are |before a - before
	 * b| consecutive pairs. */
	for (i = 0; i < na; i++) {
		before[i] = npair;
		if (ma[i] >= 0)
			pairs[npair++] = (long)i;
	}
	{
		long *beforeb = xcalloc(nb + 1, sizeof(*beforeb)), nbp = 0;
		for (j = 0; j < nb; j++) {
			beforeb[j] = nbp;
			nbp += mb[j] >= 0;
		}
		for (i = 0; i < na; i++) {
			long ba, bb;
			if (mva[i] < 0)
				continue;
			ba = before[i];
			bb = beforeb[mva[i]];
			if (ba - bb == 1)
				swapped[pairs[ba - 1]] = 1;
			else if (bb - ba == 1)
				swapped[pairs[ba]] = 1;
		}
		free(beforeb);
	}

	al->rows = xcalloc(na + nb + 1, sizeof(*al->rows));
	for (i = 0, j = 0; i < na || j < nb;) {
		if (i < na && ma[i] < 0) {
			if (mva[i] < 0)
				add_row(al, ALIGN_OLD, (long)i, -1);
			i++;
		} else if (j < nb && mb[j] < 0) {
			if (mvb[j] >= 0)
				add_row(al, ALIGN_MOVED, mvb[j], (long)j);
			else
				add_row(al, ALIGN_NEW, -1, (long)j);
			j++;
		} else {
			add_row(al, swapped[i] ? ALIGN_MOVED : eid[i] == eid[na + j] ? ALIGN_SAME :
			    ALIGN_RENUMBERED, (long)i, (long)j);
			i++, j++;
		}
	}
	free(texts), free(eid), free(sid), free(ma), free(mb), free(mva), free(mvb);
	free(before), free(pairs), free(first), free(nextsame), free(swapped), free(shapes);
}

void
align_free(struct align *al)
{
	free(al->rows);
	memset(al, 0, sizeof(*al));
}

/* Two profiles --------------------------------------------------------------------- */

static int __attribute__((format(printf, 2, 3)))
diff_fail(struct diff *d, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(d->error, sizeof(d->error), fmt, ap);
	va_end(ap);
	return -1;
}

double
diff_per_wave(int64_t cycles, const struct profile_kernel *k)
{
	return (double)cycles / (double)k->waves;
}

/* 1 when comparable, 0 when left out (a warning), -1 on trouble. */
static int
comparable(struct diff *d, const struct profile_kernel *k, const char *side, int named)
{
	if (k->waves > 0)
		return 1;
	if (named)
		return diff_fail(d, "%s: kernel %s has no instruction-traced wave: nothing to "
		    "compare", side, k->name);
	warning_out("%s: kernel %s has no instruction-traced wave: not compared", side,
	    k->name);
	return 0;
}

static int
add_pair(struct diff *d, const struct profile_kernel *a, const struct profile_kernel *b,
    int named)
{
	struct diff_kernel *kp;
	int rc;

	if (a && (rc = comparable(d, a, d->path_a, named)) <= 0)
		return rc;
	if (b && (rc = comparable(d, b, d->path_b, named)) <= 0)
		return rc;
	if ((a && a->cut) || (b && b->cut))
		return diff_fail(d, "%s: kernel %s: the table was cut by --top: not every "
		    "instruction is in it", a && a->cut ? d->path_a : d->path_b,
		    a && a->cut ? a->name : b->name);
	d->pairs = xreallocarray(d->pairs, d->npair + 1, sizeof(*d->pairs));
	kp = &d->pairs[d->npair++];
	memset(kp, 0, sizeof(*kp));
	kp->a = a;
	kp->b = b;
	if (a && b) {
		const char **ta = xcalloc(a->nline + 1, sizeof(*ta));
		const char **tb = xcalloc(b->nline + 1, sizeof(*tb));
		struct align al;
		size_t i;

		xqsort(a->lines, a->nline, sizeof(*a->lines), profile_cmp_pc);
		xqsort(b->lines, b->nline, sizeof(*b->lines), profile_cmp_pc);
		for (i = 0; i < a->nline; i++)
			ta[i] = a->lines[i]->inst;
		for (i = 0; i < b->nline; i++)
			tb[i] = b->lines[i]->inst;
		align_run(&al, ta, a->nline, tb, b->nline);
		kp->rows = xcalloc(al.nrow + 1, sizeof(*kp->rows));
		for (i = 0; i < al.nrow; i++)
			kp->rows[i] = (struct diff_row){ al.rows[i].edit,
			    al.rows[i].a >= 0 ? a->lines[al.rows[i].a] : NULL,
			    al.rows[i].b >= 0 ? b->lines[al.rows[i].b] : NULL };
		kp->nrow = al.nrow;
		kp->approximate = al.approximate;
		align_free(&al);
		free(ta);
		free(tb);
	}
	return 0;
}

static int
cmp_name(const void *x, const void *y)
{
	return strcmp(((const struct profile_kernel *)x)->name,
	    ((const struct profile_kernel *)y)->name);
}

int
diff_pair(struct diff *d, struct profile *pa, struct profile *pb, char **names,
    size_t nnames)
{
	size_t i;
	long ia, ib;

	if (nnames > 0) {
		for (i = 0; i < nnames; i++) {
			char *eq = strchr(names[i], '=');
			const char *na = names[i], *nb = eq ? eq + 1 : names[i];
			if (eq)
				*eq = '\0';
			if ((ia = profile_find(pa, na)) < 0)
				return diff_fail(d, "%s: no kernel '%s'", d->path_a, na);
			if ((ib = profile_find(pb, nb)) < 0)
				return diff_fail(d, "%s: no kernel '%s'", d->path_b, nb);
			if (add_pair(d, &pa->kernels[ia], &pb->kernels[ib], 1) < 0)
				return -1;
		}
		return 0;
	}
	xqsort(pa->kernels, pa->nkernel, sizeof(*pa->kernels), cmp_name);
	xqsort(pb->kernels, pb->nkernel, sizeof(*pb->kernels), cmp_name);
	for (i = 0; i < pa->nkernel; i++) {
		ib = profile_find(pb, pa->kernels[i].name);
		if (add_pair(d, &pa->kernels[i], ib >= 0 ? &pb->kernels[ib] : NULL, 0) < 0)
			return -1;
	}
	for (i = 0; i < pb->nkernel; i++)
		if (profile_find(pa, pb->kernels[i].name) < 0 &&
		    add_pair(d, NULL, &pb->kernels[i], 0) < 0)
			return -1;
	for (i = 0; i < d->npair; i++)
		if (d->pairs[i].a && d->pairs[i].b)
			return 0;
	return diff_fail(d, "no kernel of %s is in %s (pair two names with -k a=b)", d->path_a,
	    d->path_b);
}

/* A kernel's figure beyond the threshold. */
static int
kernel_beyond(const struct diff *d, double a, double b)
{
	double delta = fabs(b - a);

	if (d->threshold_pct)
		return a > 0 ? 100.0 * delta / a > d->threshold : delta > 0;
	return delta > d->threshold;
}

int
diff_floor_beyond(const struct diff *d, const struct diff_kernel *k, double a, double b)
{
	double delta = fabs(b - a);

	if (d->threshold_pct) {
		double whole = diff_per_wave(k->a->cycles, k->a);
		return whole > 0 ? 100.0 * delta / whole > d->threshold : delta > 0;
	}
	return delta > d->threshold;
}

int
diff_row_counts(const struct diff *d, const struct diff_kernel *k, const struct diff_row *r)
{
	if (r->edit == ALIGN_OLD || r->edit == ALIGN_NEW || r->edit == ALIGN_MOVED)
		return 1;
	return diff_floor_beyond(d, k, r->a ? diff_per_wave(r->a->cycles, k->a) : 0,
	    r->b ? diff_per_wave(r->b->cycles, k->b) : 0);
}

void
diff_judge(struct diff *d)
{
	size_t i, j;
	int c;

	d->differs = 0;
	for (i = 0; i < d->npair; i++) {
		struct diff_kernel *kp = &d->pairs[i];
		const struct profile_kernel *a = kp->a, *b = kp->b;

		kp->differs = 0;
		kp->added = kp->removed = kp->moved = kp->renumbered = kp->slower = kp->faster = 0;
		if (a == NULL || b == NULL) {
			kp->differs = d->differs = 1;
			continue;
		}
		if (kernel_beyond(d, diff_per_wave(a->cycles, a), diff_per_wave(b->cycles, b)))
			kp->differs = 1;
		for (c = 0; c < NCAUSE; c++)
			if (diff_floor_beyond(d, kp, diff_per_wave(a->cyc[c], a),
			    diff_per_wave(b->cyc[c], b)))
				kp->differs = 1;
		for (j = 0; j < kp->nrow; j++) {
			const struct diff_row *r = &kp->rows[j];
			double x = r->a ? diff_per_wave(r->a->cycles, a) : 0;
			double y = r->b ? diff_per_wave(r->b->cycles, b) : 0;

			kp->added += r->edit == ALIGN_NEW;
			kp->removed += r->edit == ALIGN_OLD;
			kp->moved += r->edit == ALIGN_MOVED;
			kp->renumbered += r->edit == ALIGN_RENUMBERED;
			if (diff_row_counts(d, kp, r)) {
				kp->differs = 1;
				if (r->a && r->b) {
					kp->slower += y > x;
					kp->faster += y < x;
				}
			}
		}
		d->differs |= kp->differs;
	}
}

void
diff_free(struct diff *d)
{
	size_t i;

	for (i = 0; i < d->npair; i++)
		free(d->pairs[i].rows);
	free(d->pairs);
	d->pairs = NULL;
	d->npair = 0;
}
