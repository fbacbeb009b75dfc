/* diffout: a diff of two profiles written out (diffout.h). */
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cause.h"
#include "diffout.h"
#include "json.h"
#include "meta.h"
#include "util.h"

/* A name from an input as one field of one line: escaped as ## values are when it holds
 * a control byte or a backslash, else as it is.  The last few are kept, for one printf. */
static const char *
esc(const char *s)
{
	static char *ring[8];
	static unsigned at;
	const unsigned char *p;

	for (p = (const unsigned char *)s; *p; p++)
		if (*p < 0x20 || *p == 0x7f || *p == '\\')
			break;
	if (*p == '\0')
		return s;
	at = (at + 1) % 8;
	free(ring[at]);
	return ring[at] = meta_escape(s);
}

/* "-0.00" is "0.00": a difference too small to show has no sign. */
static const char *
num(char *buf, size_t len, double v, int sign)
{
	snprintf(buf, len, sign ? "%+.2f" : "%.2f", v);
	if (strcmp(buf, "-0.00") == 0 || strcmp(buf, "+0.00") == 0 || strcmp(buf, "0.00") == 0)
		snprintf(buf, len, sign ? "+0.00" : "0.00");
	return buf;
}

static const char *
pct(char *buf, size_t len, double a, double b, int sign)
{
	if (a <= 0)
		return "-";
	return num(buf, len, 100.0 * (b - a) / a, sign);
}

static const char *
kname(const struct diff_kernel *kp)
{
	static char buf[1024];

	/* a copy: the ring of esc turns over within a kernel's lines */
	snprintf(buf, sizeof(buf), "%s", esc(kp->a ? kp->a->name : kp->b->name));
	if (kp->a && kp->b && strcmp(kp->a->name, kp->b->name) != 0) {
		strlcat(buf, "=", sizeof(buf));
		strlcat(buf, esc(kp->b->name), sizeof(buf));
	}
	return buf;
}

static int
cause_of(const struct profile_line *l)
{
	return profile_line_dominant(l);
}

static double
row_a(const struct diff_kernel *kp, const struct diff_row *r)
{
	return r->a ? diff_per_wave(r->a->cycles, kp->a) : 0;
}

static double
row_b(const struct diff_kernel *kp, const struct diff_row *r)
{
	return r->b ? diff_per_wave(r->b->cycles, kp->b) : 0;
}

/* The lines shown, as indices into kp->rows: all in order, or those that changed (that
 * count, or renumbered) by |delta|, the largest first, ties in order. */
struct shown {
	size_t i;
	double mag;
};

static int
cmp_shown(const void *x, const void *y)
{
	const struct shown *p = x, *q = y;

	if (p->mag != q->mag)
		return p->mag > q->mag ? -1 : 1;
	return p->i < q->i ? -1 : p->i > q->i;
}

static size_t *
rows_shown(const struct diff *d, const struct diff_kernel *kp, unsigned how, size_t *n)
{
	size_t *idx = xcalloc(kp->nrow + 1, sizeof(*idx)), i, k = 0;
	struct shown *s;

	if (!(how & DIFF_CHANGED)) {
		for (i = 0; i < kp->nrow; i++)
			idx[i] = i;
		*n = kp->nrow;
		return idx;
	}
	s = xcalloc(kp->nrow + 1, sizeof(*s));
	for (i = 0; i < kp->nrow; i++) {
		const struct diff_row *r = &kp->rows[i];
		if (r->edit == ALIGN_RENUMBERED || diff_row_counts(d, kp, r))
			s[k++] = (struct shown){ i, fabs(row_b(kp, r) - row_a(kp, r)) };
	}
	xqsort(s, k, sizeof(*s), cmp_shown);
	for (i = 0; i < k; i++)
		idx[i] = s[i].i;
	free(s);
	*n = k;
	return idx;
}

/* A cause's line: shown when it has cycles on a side, and in the changed view only when
 * beyond the floor. */
static int
cause_shown(const struct diff *d, const struct diff_kernel *kp, int c, unsigned how)
{
	const struct profile_kernel *a = kp->a, *b = kp->b;

	if ((!a || a->cyc[c] == 0) && (!b || b->cyc[c] == 0))
		return 0;
	if (!(how & DIFF_CHANGED) || !a || !b)
		return 1;
	return diff_floor_beyond(d, kp, diff_per_wave(a->cyc[c], a), diff_per_wave(b->cyc[c], b));
}

/* TSV -------------------------------------------------------------------------------- */

static void
tsv_figures(FILE *fp, double a, int has_a, double b, int has_b)
{
	char x[64], y[64], d[64], p[64];

	fprintf(fp, "\t%s\t%s\t%s\t%s", has_a ? num(x, sizeof(x), a, 0) : "-",
	    has_b ? num(y, sizeof(y), b, 0) : "-", num(d, sizeof(d), b - a, 0),
	    has_a ? pct(p, sizeof(p), a, b, 0) : "-");
}

static void
tsv_stat(const struct diff_kernel *kp, FILE *fp)
{
	const struct profile_kernel *a = kp->a, *b = kp->b;

	fprintf(fp, "##stall-diff\tstat\t%s", kname(kp));
	tsv_figures(fp, a ? diff_per_wave(a->cycles, a) : 0, a != NULL,
	    b ? diff_per_wave(b->cycles, b) : 0, b != NULL);
	fprintf(fp, "\tadded\t%zu\tremoved\t%zu\tmoved\t%zu\trenumbered\t%zu\tslower\t%zu"
	    "\tfaster\t%zu\tdiffers\t%d\n", kp->added, kp->removed, kp->moved, kp->renumbered,
	    kp->slower, kp->faster, kp->differs);
}

void
diff_put_tsv(const struct diff *d, FILE *fp, unsigned how)
{
	size_t i, j, n, *idx;
	int c;

	fprintf(fp, "##stall-diff\ta\t%s\n##stall-diff\tb\t%s\n", esc(d->path_a), esc(d->path_b));
	fprintf(fp, "##stall-diff\tcycles\tper wave: a kernel's cycles over its instruction-traced "
	    "waves; delta is b - a, pct is percent of a; WALL rows are cycles, not per wave\n");
	fprintf(fp, "##stall-diff\tthreshold\t%g%s\n", d->threshold, d->threshold_pct ? "%" : "");
	for (i = 0; i < d->npair; i++) {
		const struct diff_kernel *kp = &d->pairs[i];
		fprintf(fp, "##stall-diff\tkernel\t%s", kp->a ? esc(kp->a->name) : "-");
		fprintf(fp, "\t%s", kp->b ? esc(kp->b->name) : "-");
		fprintf(fp, "\twaves\t%" PRIu64 "\t%" PRIu64, kp->a ? kp->a->waves : 0,
		    kp->b ? kp->b->waves : 0);
		fprintf(fp, "\tcycles\t%" PRId64 "\t%" PRId64 "\n", kp->a ? kp->a->cycles : 0,
		    kp->b ? kp->b->cycles : 0);
	}
	if (how & DIFF_CHANGED)
		for (i = 0; i < d->npair; i++)
			tsv_stat(&d->pairs[i], fp);
	fprintf(fp, "#kernel\tedit\tpc_a\tpc_b\tcyc_a\tcyc_b\tdelta\tpct\tcause_a\tcause_b\t"
	    "cause_changed\tinst\n");
	for (i = 0; i < d->npair; i++) {
		const struct diff_kernel *kp = &d->pairs[i];
		const struct profile_kernel *a = kp->a, *b = kp->b;
		const char *name = kname(kp);
		int ca, cb;

		idx = rows_shown(d, kp, how, &n);
		for (j = 0; j < n; j++) {
			const struct diff_row *r = &kp->rows[idx[j]];
			fprintf(fp, "%s\t%s\t%s", name, align_mark[r->edit], r->a ? esc(r->a->pc) : "-");
			fprintf(fp, "\t%s", r->b ? esc(r->b->pc) : "-");
			tsv_figures(fp, row_a(kp, r), r->a != NULL, row_b(kp, r), r->b != NULL);
			ca = r->a ? cause_of(r->a) : -1;
			cb = r->b ? cause_of(r->b) : -1;
			fprintf(fp, "\t%s\t%s\t%s\t%s\n", ca >= 0 ? cause_info[ca].name : "-",
			    cb >= 0 ? cause_info[cb].name : "-", ca < 0 || cb < 0 ? "-" : ca != cb ?
			    "1" : "0", esc((r->a ? r->a : r->b)->inst));
		}
		free(idx);
		ca = a ? profile_dominant(a->cyc, a->hit) : -1;
		cb = b ? profile_dominant(b->cyc, b->hit) : -1;
		fprintf(fp, "%s\t%s\tTOTAL\tTOTAL", name, a && b ? "=" : a ? "-" : "+");
		tsv_figures(fp, a ? diff_per_wave(a->cycles, a) : 0, a != NULL,
		    b ? diff_per_wave(b->cycles, b) : 0, b != NULL);
		fprintf(fp, "\t%s\t%s\t%s\t-\n", ca >= 0 ? cause_info[ca].name : "-",
		    cb >= 0 ? cause_info[cb].name : "-", ca < 0 || cb < 0 ? "-" : ca != cb ? "1" : "0");
		fprintf(fp, "%s\t%s\tWALL\tWALL", name, a && b ? "=" : a ? "-" : "+");
		if (a && b && a->wall >= 0 && b->wall >= 0)
			tsv_figures(fp, (double)a->wall, 1, (double)b->wall, 1);
		else {
			char x[32] = "-", y[32] = "-";
			if (a && a->wall >= 0)
				snprintf(x, sizeof(x), "%" PRId64 ".00", a->wall);
			if (b && b->wall >= 0)
				snprintf(y, sizeof(y), "%" PRId64 ".00", b->wall);
			fprintf(fp, "\t%s\t%s\t-\t-", x, y);
		}
		fprintf(fp, "\t-\t-\t-\t-\n");
		for (c = 0; c < NCAUSE; c++) {
			if (!cause_shown(d, kp, c, how))
				continue;
			fprintf(fp, "%s\t%s\tCAUSE\tCAUSE", name, a && b ? "=" : a ? "-" : "+");
			tsv_figures(fp, a ? diff_per_wave(a->cyc[c], a) : 0, a != NULL,
			    b ? diff_per_wave(b->cyc[c], b) : 0, b != NULL);
			fprintf(fp, "\t%s\t%s\t-\t-\n", cause_info[c].name, cause_info[c].name);
		}
	}
}

/* JSON ------------------------------------------------------------------------------- */

static void
json_num(FILE *fp, double v, int has)
{
	char buf[64];

	if (!has)
		fprintf(fp, "null");
	else
		fprintf(fp, "%s", num(buf, sizeof(buf), v, 0));
}

static void
json_count(FILE *fp, int has, int64_t v)
{
	if (has)
		fprintf(fp, "%" PRId64, v);
	else
		fprintf(fp, "null");
}

static void
json_cause(FILE *fp, int c)
{
	if (c < 0)
		fprintf(fp, "null");
	else
		json_put_string(fp, cause_info[c].name);
}

static void
json_figures(FILE *fp, double a, int has_a, double b, int has_b)
{
	char p[64];

	fprintf(fp, "\"a\": ");
	json_num(fp, a, has_a);
	fprintf(fp, ", \"b\": ");
	json_num(fp, b, has_b);
	fprintf(fp, ", \"delta\": ");
	json_num(fp, b - a, 1);
	fprintf(fp, ", \"pct\": %s", has_a && a > 0 ? pct(p, sizeof(p), a, b, 0) : "null");
}

void
diff_put_json(const struct diff *d, FILE *fp, unsigned how)
{
	size_t i, j, n, *idx;
	int c, k;

	fprintf(fp, "{\"version\": 1, \"a\": ");
	json_put_string(fp, d->path_a);
	fprintf(fp, ", \"b\": ");
	json_put_string(fp, d->path_b);
	fprintf(fp, ", \"threshold\": %g, \"threshold_unit\": \"%s\", \"differs\": %s, ",
	    d->threshold, d->threshold_pct ? "percent" : "cycles", d->differs ? "true" : "false");
	if (how & DIFF_CHANGED)
		fprintf(fp, "\"view\": \"changed\", ");
	fprintf(fp, "\"kernels\": [");
	for (i = 0; i < d->npair; i++) {
		const struct diff_kernel *kp = &d->pairs[i];
		const struct profile_kernel *a = kp->a, *b = kp->b;
		int ca = a ? profile_dominant(a->cyc, a->hit) : -1;
		int cb = b ? profile_dominant(b->cyc, b->hit) : -1;

		fprintf(fp, "%s\n  {\"kernel_a\": ", i ? "," : "");
		if (a)
			json_put_string(fp, a->name);
		else
			fprintf(fp, "null");
		fprintf(fp, ", \"kernel_b\": ");
		if (b)
			json_put_string(fp, b->name);
		else
			fprintf(fp, "null");
		fprintf(fp, ", \"edit\": \"%s\", \"waves_a\": ", a && b ? "=" : a ? "-" : "+");
		json_count(fp, a != NULL, a ? (int64_t)a->waves : 0);
		fprintf(fp, ", \"waves_b\": ");
		json_count(fp, b != NULL, b ? (int64_t)b->waves : 0);
		fprintf(fp, ", \"wall_a\": ");
		json_count(fp, a && a->wall >= 0, a ? a->wall : 0);
		fprintf(fp, ", \"wall_b\": ");
		json_count(fp, b && b->wall >= 0, b ? b->wall : 0);
		fprintf(fp, ", ");
		json_figures(fp, a ? diff_per_wave(a->cycles, a) : 0, a != NULL,
		    b ? diff_per_wave(b->cycles, b) : 0, b != NULL);
		fprintf(fp, ", \"cause_a\": ");
		json_cause(fp, ca);
		fprintf(fp, ", \"cause_b\": ");
		json_cause(fp, cb);
		if (how & DIFF_CHANGED)
			fprintf(fp, ", \"differs\": %s, \"added\": %zu, \"removed\": %zu, \"moved\": "
			    "%zu, \"renumbered\": %zu, \"slower\": %zu, \"faster\": %zu",
			    kp->differs ? "true" : "false", kp->added, kp->removed, kp->moved,
			    kp->renumbered, kp->slower, kp->faster);
		fprintf(fp, ", \"causes\": [");
		for (c = 0, k = 0; c < NCAUSE; c++) {
			if (!cause_shown(d, kp, c, how))
				continue;
			fprintf(fp, "%s{\"cause\": ", k++ ? ", " : "");
			json_cause(fp, c);
			fprintf(fp, ", ");
			json_figures(fp, a ? diff_per_wave(a->cyc[c], a) : 0, a != NULL,
			    b ? diff_per_wave(b->cyc[c], b) : 0, b != NULL);
			fputc('}', fp);
		}
		fprintf(fp, "], \"rows\": [");
		idx = rows_shown(d, kp, how, &n);
		for (j = 0; j < n; j++) {
			const struct diff_row *r = &kp->rows[idx[j]];
			int ra = r->a ? cause_of(r->a) : -1, rb = r->b ? cause_of(r->b) : -1;

			fprintf(fp, "%s\n    {\"edit\": \"%s\", \"pc_a\": ", j ? "," : "",
			    align_mark[r->edit]);
			if (r->a)
				json_put_string(fp, r->a->pc);
			else
				fprintf(fp, "null");
			fprintf(fp, ", \"pc_b\": ");
			if (r->b)
				json_put_string(fp, r->b->pc);
			else
				fprintf(fp, "null");
			fprintf(fp, ", ");
			json_figures(fp, row_a(kp, r), r->a != NULL, row_b(kp, r), r->b != NULL);
			fprintf(fp, ", \"cause_a\": ");
			json_cause(fp, ra);
			fprintf(fp, ", \"cause_b\": ");
			json_cause(fp, rb);
			fprintf(fp, ", \"cause_changed\": %s, \"inst\": ",
			    ra >= 0 && rb >= 0 && ra != rb ? "true" : "false");
			json_put_string(fp, (r->a ? r->a : r->b)->inst);
			fputc('}', fp);
		}
		free(idx);
		fprintf(fp, "%s]}", n ? "\n  " : "");
	}
	fprintf(fp, "%s]}\n", d->npair ? "\n" : "");
}

/* Aligned text ----------------------------------------------------------------------- */

static void
pretty_figures(FILE *fp, int wc, int wp, double a, int has_a, double b, int has_b)
{
	char x[64], y[64], d[64], p[64];

	fprintf(fp, "  %*s  %*s  %*s  %*s", wc, has_a ? num(x, sizeof(x), a, 0) : "-", wc,
	    has_b ? num(y, sizeof(y), b, 0) : "-", wc, num(d, sizeof(d), b - a, 1), wp,
	    has_a ? pct(p, sizeof(p), a, b, 1) : "-");
}

static void
pretty_stat(const struct diff_kernel *kp, FILE *fp)
{
	const struct profile_kernel *a = kp->a, *b = kp->b;
	char x[64], y[64], dd[64], p[64];

	if (a == NULL || b == NULL) {
		fprintf(fp, " %s: only in %s\n", kname(kp), a ? "a" : "b");
		return;
	}
	fprintf(fp, " %s: %s -> %s cycles a wave (%s, %s%%): %s; %zu added, %zu removed, "
	    "%zu moved, %zu renumbered, %zu slower, %zu faster\n", kname(kp),
	    num(x, sizeof(x), diff_per_wave(a->cycles, a), 0),
	    num(y, sizeof(y), diff_per_wave(b->cycles, b), 0),
	    num(dd, sizeof(dd), diff_per_wave(b->cycles, b) - diff_per_wave(a->cycles, a), 1),
	    pct(p, sizeof(p), diff_per_wave(a->cycles, a), diff_per_wave(b->cycles, b), 1),
	    kp->differs ? "differs" : "same", kp->added, kp->removed, kp->moved, kp->renumbered,
	    kp->slower, kp->faster);
}

void
diff_put_pretty(const struct diff *d, FILE *fp, unsigned how)
{
	size_t i, j, n, *idx;
	int c;

	fprintf(fp, " a: %s\n", esc(d->path_a));
	fprintf(fp, " b: %s\n Cycles per wave (a kernel's cycles over its "
	    "instruction-traced waves); delta = b - a, percent of a\n", esc(d->path_b));
	fprintf(fp, " Marks: = aligned, m moved, - only in a, + only in b, r registers "
	    "renumbered; * the cause changed\n");
	if (how & DIFF_CHANGED) {
		fprintf(fp, "\n");
		for (i = 0; i < d->npair; i++)
			pretty_stat(&d->pairs[i], fp);
	}
	for (i = 0; i < d->npair; i++) {
		const struct diff_kernel *kp = &d->pairs[i];
		const struct profile_kernel *a = kp->a, *b = kp->b;
		char buf[64];
		int wpc = 4, wc = 8, w;

		if (a == NULL || b == NULL) {
			const struct profile_kernel *k = a ? a : b;
			fprintf(fp, "\n Kernel %s: only in %s (%" PRIu64 " wave%s, %s cycles a wave)\n",
			    esc(k->name), a ? "a" : "b", k->waves, k->waves == 1 ? "" : "s",
			    num(buf, sizeof(buf), diff_per_wave(k->cycles, k), 0));
			continue;
		}
		idx = rows_shown(d, kp, how, &n);
		for (j = 0; j < n; j++) {
			const struct diff_row *r = &kp->rows[idx[j]];
			if (r->a && (w = (int)strlen(esc(r->a->pc))) > wpc)
				wpc = w;
			if (r->b && (w = (int)strlen(esc(r->b->pc))) > wpc)
				wpc = w;
		}
		w = (int)strlen(num(buf, sizeof(buf), diff_per_wave(a->cycles > b->cycles ?
		    a->cycles : b->cycles, a->waves < b->waves ? a : b), 1));
		if (w > wc)
			wc = w;
		fprintf(fp, "\n Kernel %s: a %" PRIu64 " wave%s, b %" PRIu64 " wave%s\n", kname(kp),
		    a->waves, a->waves == 1 ? "" : "s", b->waves, b->waves == 1 ? "" : "s");
		if (a->wall >= 0 && b->wall >= 0)
			fprintf(fp, " Wall time (first wave_start to last wave end): a %" PRId64
			    ", b %" PRId64 " cycles (%+" PRId64 ")\n", a->wall, b->wall,
			    b->wall - a->wall);
		fprintf(fp, "\n      %-*s  %-*s  %*s  %*s  %*s  %8s  %-12s  %-12s  %s\n", wpc, "pc a",
		    wpc, "pc b", wc, "a", wc, "b", wc, "delta", "percent", "cause a", "cause b",
		    "instruction");
		for (j = 0; j < n; j++) {
			const struct diff_row *r = &kp->rows[idx[j]];
			int ra = r->a ? cause_of(r->a) : -1, rb = r->b ? cause_of(r->b) : -1;

			fprintf(fp, "  %s%c  %-*s", align_mark[r->edit],
			    ra >= 0 && rb >= 0 && ra != rb ? '*' : ' ', wpc, r->a ? esc(r->a->pc) : "-");
			fprintf(fp, "  %-*s", wpc, r->b ? esc(r->b->pc) : "-");
			pretty_figures(fp, wc, 8, row_a(kp, r), r->a != NULL, row_b(kp, r),
			    r->b != NULL);
			fprintf(fp, "  %-12s  %-12s  %s\n", ra >= 0 ? cause_info[ra].name : "-",
			    rb >= 0 ? cause_info[rb].name : "-", esc((r->a ? r->a : r->b)->inst));
		}
		free(idx);
		fprintf(fp, "      %-*s  %-*s", wpc, "", wpc, "");
		pretty_figures(fp, wc, 8, diff_per_wave(a->cycles, a), 1, diff_per_wave(b->cycles, b),
		    1);
		fprintf(fp, "  total\n\n By cause:\n");
		for (c = 0, w = 0; c < NCAUSE; c++) {
			if (!cause_shown(d, kp, c, how))
				continue;
			w++;
			fprintf(fp, "      %-*s  %-*s", wpc, "", wpc, "");
			pretty_figures(fp, wc, 8, diff_per_wave(a->cyc[c], a), 1,
			    diff_per_wave(b->cyc[c], b), 1);
			fprintf(fp, "  %s\n", cause_info[c].name);
		}
		if (w == 0)
			fprintf(fp, "      none changed\n");
	}
}
