/* stall-diff: two profiles of the same kernels, instruction by instruction: the
 * instructions aligned by their text (a longest common subsequence), cycles per wave in
 * each, the delta, the causes; exit 0 when nothing differs, 1 when something does
 * (stall-diff(1)). */
#include <err.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cause.h"
#include "json.h"
#include "load.h"
#include "profile.h"
#include "util.h"

/* At most this many cells in the table of the alignment: 32 MiB.  Common head and tail
 * are not in it, so only the instructions between the first and the last edit count. */
#define ALIGN_CELLS (1u << 24)

enum format { F_TSV, F_PRETTY, F_JSON };
enum edit { E_SAME, E_MOVED, E_OLD, E_NEW };	/* =, m, - (only in a), + (only in b) */
static const char *const edit_mark[] = { "=", "m", "-", "+" };

/* One line of the diff: an instruction of a, of b, or of both. */
struct drow {
	enum edit edit;
	const struct profile_line *a, *b;
};

/* Two kernels, one of each input, compared. */
struct kpair {
	const struct profile_kernel *a, *b;	/* NULL: the kernel is only in the other */
	struct drow *rows;
	size_t nrow;
};

static enum format format;
static double threshold;
static int threshold_pct;
static const char *path_a, *path_b;
static struct profile pa, pb;
static struct kpair *pairs;
static size_t npair;
static int differs;

static const struct cli cli = {
	.synopsis = {
		"[-hjpt] [-k kernel[=kernel]] [-T threshold[%]] [--strict] a b",
		NULL
	},
	.options = "json/j kernel/k pretty/p strict threshold/T tsv/t",
	.help =
	    "Compare two profiles instruction by instruction: the instructions of\n"
	    "each kernel aligned by their text, cycles per wave in a and b, the\n"
	    "delta and the causes.  a and b are row streams, stall tables (TSV or\n"
	    "JSON) or captures; - is standard input.  Exit 0 when nothing differs,\n"
	    "1 when something does, 2 on trouble.\n"
	    "\n"
	    "  -k, --kernel A[=B]  compare kernel A of a with B of b (default: every\n"
	    "                      kernel of both, by name); repeatable\n"
	    "  -T, --threshold N   a difference of up to N cycles a wave, or N%\n"
	    "                      of a, is no difference (default 0)\n"
	    "  -j, --json          JSON (version 1)\n"
	    "  -p, --pretty        aligned text (default on a terminal)\n"
	    "  -t, --tsv           TSV (default when stdout is not a terminal)\n"
	    "      --strict        an unknown cause is an error\n"
	    "  -h, --help          this text\n"
	    "      --version       the version\n"
	    "See stall-diff(1).\n",
};


/* Alignment -------------------------------------------------------------------------- */

struct textref {
	const char *text;
	int side;
	size_t index;
};

static int
cmp_text(const void *pa_, const void *pb_)
{
	const struct textref *x = pa_, *y = pb_;

	return strcmp(x->text, y->text);
}

/* The instruction texts of both kernels as small numbers: equal text, equal number. */
static void
text_ids(const struct profile_kernel *a, const struct profile_kernel *b, size_t *ida,
    size_t *idb)
{
	size_t n = a->nline + b->nline, i, id = 0;
	struct textref *r = xcalloc(n, sizeof(*r));

	for (i = 0; i < a->nline; i++)
		r[i] = (struct textref){ a->lines[i]->inst, 0, i };
	for (i = 0; i < b->nline; i++)
		r[a->nline + i] = (struct textref){ b->lines[i]->inst, 1, i };
	qsort(r, n, sizeof(*r), cmp_text);
	for (i = 0; i < n; i++) {
		if (i > 0 && strcmp(r[i].text, r[i - 1].text) != 0)
			id++;
		(r[i].side ? idb : ida)[r[i].index] = id;
	}
	free(r);
}

static void
add_row(struct kpair *kp, enum edit e, const struct profile_line *a,
    const struct profile_line *b)
{
	kp->rows[kp->nrow++] = (struct drow){ e, a, b };
}

/* Align the instructions of a and b (each in pc order) by their text: a longest common
 * subsequence, then the lines left over on both sides with the same text are one
 * instruction that moved.  A move across one instruction is a swap: both moved. */
static void
align(struct kpair *kp)
{
	const struct profile_kernel *a = kp->a, *b = kp->b;
	size_t na = a->nline, nb = b->nline, pre = 0, suf = 0, n, m, i, j, k;
	size_t *ida = xcalloc(na + 1, sizeof(*ida)), *idb = xcalloc(nb + 1, sizeof(*idb));
	long *ma = xcalloc(na + 1, sizeof(*ma)), *mb = xcalloc(nb + 1, sizeof(*mb));
	long *mva = xcalloc(na + 1, sizeof(*mva)), *mvb = xcalloc(nb + 1, sizeof(*mvb));
	char *swapped = xcalloc(na + 1, 1);
	uint16_t *L;

	text_ids(a, b, ida, idb);
	for (i = 0; i < na; i++)
		ma[i] = mva[i] = -1;
	for (j = 0; j < nb; j++)
		mb[j] = mvb[j] = -1;
	while (pre < na && pre < nb && ida[pre] == idb[pre]) {
		ma[pre] = (long)pre;
		mb[pre] = (long)pre;
		pre++;
	}
	while (suf < na - pre && suf < nb - pre && ida[na - 1 - suf] == idb[nb - 1 - suf]) {
		ma[na - 1 - suf] = (long)(nb - 1 - suf);
		mb[nb - 1 - suf] = (long)(na - 1 - suf);
		suf++;
	}
	n = na - pre - suf;
	m = nb - pre - suf;
	if (n > 0 && m > 0) {
		if ((n + 1) > ALIGN_CELLS / (m + 1))
			die("kernel %s: %zu and %zu instructions between the first and the last "
			    "difference: too many to align", a->name, n, m);
		/* L[i][j]: the longest common subsequence of a[i..] and b[j..] (of the middle) */
		L = xcalloc((n + 1) * (m + 1), sizeof(*L));
		for (i = n; i-- > 0;)
			for (j = m; j-- > 0;) {
				uint16_t *c = &L[i * (m + 1) + j];
				if (ida[pre + i] == idb[pre + j])
					*c = (uint16_t)(c[m + 2] + 1);
				else
					*c = c[m + 1] > c[1] ? c[m + 1] : c[1];
			}
		for (i = 0, j = 0; i < n && j < m;) {
			if (ida[pre + i] == idb[pre + j]) {
				ma[pre + i] = (long)(pre + j);
				mb[pre + j] = (long)(pre + i);
				i++, j++;
			} else if (L[(i + 1) * (m + 1) + j] >= L[i * (m + 1) + j + 1])
				i++;
			else
				j++;
		}
		free(L);
	}
	/* moves: a line left over in a, another in b, the same text */
	for (j = pre; j < pre + m; j++) {
		if (mb[j] >= 0)
			continue;
		for (i = pre; i < pre + n; i++)
			if (ma[i] < 0 && mva[i] < 0 && ida[i] == idb[j]) {
				mva[i] = (long)j;
				mvb[j] = (long)i;
				break;
			}
	}
	for (i = pre; i < pre + n; i++) {
		size_t crossed = 0, with = 0;
		if (mva[i] < 0)
			continue;
		j = (size_t)mva[i];
		for (k = pre; k < pre + n; k++)
			if (ma[k] >= 0 && ((k < i && (size_t)ma[k] > j) || (k > i && (size_t)ma[k] < j))) {
				crossed++;
				with = k;
			}
		if (crossed == 1)
			swapped[with] = 1;
	}
	/* in the order of b, each line of a only before the next line of both */
	kp->rows = xcalloc(na + nb + 1, sizeof(*kp->rows));
	for (i = 0, j = 0; i < na || j < nb;) {
		if (i < na && ma[i] < 0) {
			if (mva[i] < 0)
				add_row(kp, E_OLD, a->lines[i], NULL);
			i++;
		} else if (j < nb && mb[j] < 0) {
			if (mvb[j] >= 0)
				add_row(kp, E_MOVED, a->lines[mvb[j]], b->lines[j]);
			else
				add_row(kp, E_NEW, NULL, b->lines[j]);
			j++;
		} else {
			add_row(kp, swapped[i] ? E_MOVED : E_SAME, a->lines[i], b->lines[j]);
			i++, j++;
		}
	}
	free(ida), free(idb), free(ma), free(mb), free(mva), free(mvb), free(swapped);
}

/* Figures ---------------------------------------------------------------------------- */

static double
per_wave(int64_t cycles, const struct profile_kernel *k)
{
	return (double)cycles / (double)k->waves;
}

/* Beyond the threshold: more cycles apart than it, or more percent of a. */
static int
beyond(double a, double b)
{
	double d = fabs(b - a);

	if (threshold_pct)
		return a > 0 ? 100.0 * d / a > threshold : d > 0;
	return d > threshold;
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
kname(const struct kpair *kp)
{
	static char buf[1024];

	if (kp->a == NULL)
		return kp->b->name;
	if (kp->b == NULL || strcmp(kp->a->name, kp->b->name) == 0)
		return kp->a->name;
	snprintf(buf, sizeof(buf), "%s=%s", kp->a->name, kp->b->name);
	return buf;
}

static int
cause_of(const struct profile_line *l)
{
	return profile_dominant(l->cyc, l->hit);
}

/* What differs: rows added, removed or moved, and figures beyond the threshold. */
static void
judge(void)
{
	size_t i, j;
	int c;

	for (i = 0; i < npair; i++) {
		const struct kpair *kp = &pairs[i];
		if (kp->a == NULL || kp->b == NULL) {
			differs = 1;
			continue;
		}
		if (beyond(per_wave(kp->a->cycles, kp->a), per_wave(kp->b->cycles, kp->b)))
			differs = 1;
		for (c = 0; c < NCAUSE; c++)
			if (beyond(per_wave(kp->a->cyc[c], kp->a), per_wave(kp->b->cyc[c], kp->b)))
				differs = 1;
		for (j = 0; j < kp->nrow; j++) {
			const struct drow *r = &kp->rows[j];
			if (r->edit != E_SAME || beyond(r->a ? per_wave(r->a->cycles, kp->a) : 0,
			    r->b ? per_wave(r->b->cycles, kp->b) : 0))
				differs = 1;
		}
	}
}

/* TSV -------------------------------------------------------------------------------- */

static void
tsv_figures(double a, int has_a, double b, int has_b)
{
	char x[64], y[64], d[64], p[64];

	printf("\t%s\t%s\t%s\t%s", has_a ? num(x, sizeof(x), a, 0) : "-",
	    has_b ? num(y, sizeof(y), b, 0) : "-", num(d, sizeof(d), b - a, 0),
	    has_a ? pct(p, sizeof(p), a, b, 0) : "-");
}

static void
put_tsv(void)
{
	size_t i, j;
	int c;

	printf("##stall-diff\ta\t%s\n##stall-diff\tb\t%s\n", path_a, path_b);
	printf("##stall-diff\tcycles\tper wave: a kernel's cycles over its instruction-traced "
	    "waves; delta is b - a, pct is percent of a; WALL rows are cycles, not per wave\n");
	printf("##stall-diff\tthreshold\t%g%s\n", threshold, threshold_pct ? "%" : "");
	for (i = 0; i < npair; i++) {
		const struct kpair *kp = &pairs[i];
		printf("##stall-diff\tkernel\t%s\t%s", kp->a ? kp->a->name : "-",
		    kp->b ? kp->b->name : "-");
		printf("\twaves\t%" PRIu64 "\t%" PRIu64, kp->a ? kp->a->waves : 0,
		    kp->b ? kp->b->waves : 0);
		printf("\tcycles\t%" PRId64 "\t%" PRId64 "\n", kp->a ? kp->a->cycles : 0,
		    kp->b ? kp->b->cycles : 0);
	}
	printf("#kernel\tedit\tpc_a\tpc_b\tcyc_a\tcyc_b\tdelta\tpct\tcause_a\tcause_b\t"
	    "cause_changed\tinst\n");
	for (i = 0; i < npair; i++) {
		const struct kpair *kp = &pairs[i];
		const struct profile_kernel *a = kp->a, *b = kp->b;
		const char *name = kname(kp);
		int ca, cb;

		for (j = 0; j < kp->nrow; j++) {
			const struct drow *r = &kp->rows[j];
			printf("%s\t%s\t%s\t%s", name, edit_mark[r->edit], r->a ? r->a->pc : "-",
			    r->b ? r->b->pc : "-");
			tsv_figures(r->a ? per_wave(r->a->cycles, a) : 0, r->a != NULL,
			    r->b ? per_wave(r->b->cycles, b) : 0, r->b != NULL);
			ca = r->a ? cause_of(r->a) : -1;
			cb = r->b ? cause_of(r->b) : -1;
			printf("\t%s\t%s\t%s\t%s\n", ca >= 0 ? cause_info[ca].name : "-",
			    cb >= 0 ? cause_info[cb].name : "-", ca < 0 || cb < 0 ? "-" : ca != cb ? "1" :
			    "0", (r->a ? r->a : r->b)->inst);
		}
		ca = a ? profile_dominant(a->cyc, a->hit) : -1;
		cb = b ? profile_dominant(b->cyc, b->hit) : -1;
		printf("%s\t%s\tTOTAL\tTOTAL", name, a && b ? "=" : a ? "-" : "+");
		tsv_figures(a ? per_wave(a->cycles, a) : 0, a != NULL, b ? per_wave(b->cycles, b) :
		    0, b != NULL);
		printf("\t%s\t%s\t%s\t-\n", ca >= 0 ? cause_info[ca].name : "-",
		    cb >= 0 ? cause_info[cb].name : "-", ca < 0 || cb < 0 ? "-" : ca != cb ? "1" : "0");
		printf("%s\t%s\tWALL\tWALL", name, a && b ? "=" : a ? "-" : "+");
		if (a && b && a->wall >= 0 && b->wall >= 0)
			tsv_figures((double)a->wall, 1, (double)b->wall, 1);
		else {
			char x[32] = "-", y[32] = "-";
			if (a && a->wall >= 0)
				snprintf(x, sizeof(x), "%" PRId64 ".00", a->wall);
			if (b && b->wall >= 0)
				snprintf(y, sizeof(y), "%" PRId64 ".00", b->wall);
			printf("\t%s\t%s\t-\t-", x, y);
		}
		printf("\t-\t-\t-\t-\n");
		for (c = 0; c < NCAUSE; c++) {
			if ((!a || a->cyc[c] == 0) && (!b || b->cyc[c] == 0))
				continue;
			printf("%s\t%s\tCAUSE\tCAUSE", name, a && b ? "=" : a ? "-" : "+");
			tsv_figures(a ? per_wave(a->cyc[c], a) : 0, a != NULL,
			    b ? per_wave(b->cyc[c], b) : 0, b != NULL);
			printf("\t%s\t%s\t-\t-\n", cause_info[c].name, cause_info[c].name);
		}
	}
}

/* JSON ------------------------------------------------------------------------------- */

static void
json_num(double v, int has)
{
	char buf[64];

	if (!has)
		printf("null");
	else
		printf("%s", num(buf, sizeof(buf), v, 0));
}

static void
json_count(int has, int64_t v)
{
	if (has)
		printf("%" PRId64, v);
	else
		printf("null");
}

static void
json_cause(int c)
{
	if (c < 0)
		printf("null");
	else
		json_put_string(stdout, cause_info[c].name);
}

static void
json_figures(double a, int has_a, double b, int has_b)
{
	char p[64];

	printf("\"a\": ");
	json_num(a, has_a);
	printf(", \"b\": ");
	json_num(b, has_b);
	printf(", \"delta\": ");
	json_num(b - a, 1);
	printf(", \"pct\": %s", has_a && a > 0 ? pct(p, sizeof(p), a, b, 0) : "null");
}

static void
put_json(void)
{
	size_t i, j;
	int c, n;

	printf("{\"version\": 1, \"a\": ");
	json_put_string(stdout, path_a);
	printf(", \"b\": ");
	json_put_string(stdout, path_b);
	printf(", \"threshold\": %g, \"threshold_unit\": \"%s\", \"differs\": %s, \"kernels\": [",
	    threshold, threshold_pct ? "percent" : "cycles", differs ? "true" : "false");
	for (i = 0; i < npair; i++) {
		const struct kpair *kp = &pairs[i];
		const struct profile_kernel *a = kp->a, *b = kp->b;
		int ca = a ? profile_dominant(a->cyc, a->hit) : -1;
		int cb = b ? profile_dominant(b->cyc, b->hit) : -1;

		printf("%s\n  {\"kernel_a\": ", i ? "," : "");
		if (a)
			json_put_string(stdout, a->name);
		else
			printf("null");
		printf(", \"kernel_b\": ");
		if (b)
			json_put_string(stdout, b->name);
		else
			printf("null");
		printf(", \"edit\": \"%s\", \"waves_a\": ", a && b ? "=" : a ? "-" : "+");
		json_count(a != NULL, a ? (int64_t)a->waves : 0);
		printf(", \"waves_b\": ");
		json_count(b != NULL, b ? (int64_t)b->waves : 0);
		printf(", \"wall_a\": ");
		json_count(a && a->wall >= 0, a ? a->wall : 0);
		printf(", \"wall_b\": ");
		json_count(b && b->wall >= 0, b ? b->wall : 0);
		printf(", ");
		json_figures(a ? per_wave(a->cycles, a) : 0, a != NULL,
		    b ? per_wave(b->cycles, b) : 0, b != NULL);
		printf(", \"cause_a\": ");
		json_cause(ca);
		printf(", \"cause_b\": ");
		json_cause(cb);
		printf(", \"causes\": [");
		for (c = 0, n = 0; c < NCAUSE; c++) {
			if ((!a || a->cyc[c] == 0) && (!b || b->cyc[c] == 0))
				continue;
			printf("%s{\"cause\": ", n++ ? ", " : "");
			json_cause(c);
			printf(", ");
			json_figures(a ? per_wave(a->cyc[c], a) : 0, a != NULL,
			    b ? per_wave(b->cyc[c], b) : 0, b != NULL);
			putchar('}');
		}
		printf("], \"rows\": [");
		for (j = 0; j < kp->nrow; j++) {
			const struct drow *r = &kp->rows[j];
			int ra = r->a ? cause_of(r->a) : -1, rb = r->b ? cause_of(r->b) : -1;

			printf("%s\n    {\"edit\": \"%s\", \"pc_a\": ", j ? "," : "",
			    edit_mark[r->edit]);
			if (r->a)
				json_put_string(stdout, r->a->pc);
			else
				printf("null");
			printf(", \"pc_b\": ");
			if (r->b)
				json_put_string(stdout, r->b->pc);
			else
				printf("null");
			printf(", ");
			json_figures(r->a ? per_wave(r->a->cycles, a) : 0, r->a != NULL,
			    r->b ? per_wave(r->b->cycles, b) : 0, r->b != NULL);
			printf(", \"cause_a\": ");
			json_cause(ra);
			printf(", \"cause_b\": ");
			json_cause(rb);
			printf(", \"cause_changed\": %s, \"inst\": ",
			    ra >= 0 && rb >= 0 && ra != rb ? "true" : "false");
			json_put_string(stdout, (r->a ? r->a : r->b)->inst);
			putchar('}');
		}
		printf("%s]}", kp->nrow ? "\n  " : "");
	}
	printf("%s]}\n", npair ? "\n" : "");
}

/* Aligned text ----------------------------------------------------------------------- */

static void
pretty_figures(int wc, int wp, double a, int has_a, double b, int has_b)
{
	char x[64], y[64], d[64], p[64];

	printf("  %*s  %*s  %*s  %*s", wc, has_a ? num(x, sizeof(x), a, 0) : "-", wc,
	    has_b ? num(y, sizeof(y), b, 0) : "-", wc, num(d, sizeof(d), b - a, 1), wp,
	    has_a ? pct(p, sizeof(p), a, b, 1) : "-");
}

static void
put_pretty(void)
{
	size_t i, j;
	int c;

	printf(" a: %s\n b: %s\n Cycles per wave (a kernel's cycles over its "
	    "instruction-traced waves); delta = b - a, percent of a\n", path_a, path_b);
	printf(" Marks: = aligned, m moved, - only in a, + only in b; * the cause changed\n");
	for (i = 0; i < npair; i++) {
		const struct kpair *kp = &pairs[i];
		const struct profile_kernel *a = kp->a, *b = kp->b;
		char buf[64];
		int wpc = 4, wc = 8, w;

		if (a == NULL || b == NULL) {
			const struct profile_kernel *k = a ? a : b;
			printf("\n Kernel %s: only in %s (%" PRIu64 " wave%s, %s cycles a wave)\n",
			    k->name, a ? "a" : "b", k->waves, k->waves == 1 ? "" : "s",
			    num(buf, sizeof(buf), per_wave(k->cycles, k), 0));
			continue;
		}
		for (j = 0; j < kp->nrow; j++) {
			const struct drow *r = &kp->rows[j];
			if (r->a && (w = (int)strlen(r->a->pc)) > wpc)
				wpc = w;
			if (r->b && (w = (int)strlen(r->b->pc)) > wpc)
				wpc = w;
		}
		w = (int)strlen(num(buf, sizeof(buf), per_wave(a->cycles > b->cycles ? a->cycles :
		    b->cycles, a->waves < b->waves ? a : b), 1));
		if (w > wc)
			wc = w;
		printf("\n Kernel %s: a %" PRIu64 " wave%s, b %" PRIu64 " wave%s\n", kname(kp),
		    a->waves, a->waves == 1 ? "" : "s", b->waves, b->waves == 1 ? "" : "s");
		if (a->wall >= 0 && b->wall >= 0)
			printf(" Wall time (first wave_start to last wave end): a %" PRId64
			    ", b %" PRId64 " cycles (%+" PRId64 ")\n", a->wall, b->wall,
			    b->wall - a->wall);
		printf("\n      %-*s  %-*s  %*s  %*s  %*s  %8s  %-12s  %-12s  %s\n", wpc, "pc a", wpc,
		    "pc b", wc, "a", wc, "b", wc, "delta", "percent", "cause a", "cause b",
		    "instruction");
		for (j = 0; j < kp->nrow; j++) {
			const struct drow *r = &kp->rows[j];
			int ra = r->a ? cause_of(r->a) : -1, rb = r->b ? cause_of(r->b) : -1;

			printf("  %s%c  %-*s  %-*s", edit_mark[r->edit],
			    ra >= 0 && rb >= 0 && ra != rb ? '*' : ' ', wpc, r->a ? r->a->pc : "-",
			    wpc, r->b ? r->b->pc : "-");
			pretty_figures(wc, 8, r->a ? per_wave(r->a->cycles, a) : 0, r->a != NULL,
			    r->b ? per_wave(r->b->cycles, b) : 0, r->b != NULL);
			printf("  %-12s  %-12s  %s\n", ra >= 0 ? cause_info[ra].name : "-",
			    rb >= 0 ? cause_info[rb].name : "-", (r->a ? r->a : r->b)->inst);
		}
		printf("      %-*s  %-*s", wpc, "", wpc, "");
		pretty_figures(wc, 8, per_wave(a->cycles, a), 1, per_wave(b->cycles, b), 1);
		printf("  total\n\n By cause:\n");
		for (c = 0; c < NCAUSE; c++) {
			if (a->cyc[c] == 0 && b->cyc[c] == 0)
				continue;
			printf("      %-*s  %-*s", wpc, "", wpc, "");
			pretty_figures(wc, 8, per_wave(a->cyc[c], a), 1, per_wave(b->cyc[c], b), 1);
			printf("  %s\n", cause_info[c].name);
		}
	}
}

/* Kernels ---------------------------------------------------------------------------- */

static int
comparable(const struct profile_kernel *k, const char *side, int named)
{
	if (k->waves > 0)
		return 1;
	if (named)
		die("%s: kernel %s has no instruction-traced wave: nothing to compare",
		    side, k->name);
	warning_out("%s: kernel %s has no instruction-traced wave: not compared", side,
	    k->name);
	return 0;
}

static void
add_pair(const struct profile_kernel *a, const struct profile_kernel *b, int named)
{
	struct kpair *kp;

	if (a && !comparable(a, path_a, named))
		return;
	if (b && !comparable(b, path_b, named))
		return;
	if ((a && a->cut) || (b && b->cut))
		die("%s: kernel %s: the table was cut by --top: not every instruction is in it",
		    a && a->cut ? path_a : path_b, a && a->cut ? a->name : b->name);
	pairs = xreallocarray(pairs, npair + 1, sizeof(*pairs));
	kp = &pairs[npair++];
	memset(kp, 0, sizeof(*kp));
	kp->a = a;
	kp->b = b;
	if (a && b) {
		qsort(a->lines, a->nline, sizeof(*a->lines), profile_cmp_pc);
		qsort(b->lines, b->nline, sizeof(*b->lines), profile_cmp_pc);
		align(kp);
	}
}

static int
cmp_name(const void *x, const void *y)
{
	return strcmp(((const struct profile_kernel *)x)->name,
	    ((const struct profile_kernel *)y)->name);
}

static void
pair_kernels(char **names, size_t nnames)
{
	size_t i;
	long ia, ib;

	if (nnames > 0) {
		for (i = 0; i < nnames; i++) {
			char *eq = strchr(names[i], '=');
			const char *na = names[i], *nb = eq ? eq + 1 : names[i];
			if (eq)
				*eq = '\0';
			if ((ia = profile_find(&pa, na)) < 0)
				die("%s: no kernel '%s'", path_a, na);
			if ((ib = profile_find(&pb, nb)) < 0)
				die("%s: no kernel '%s'", path_b, nb);
			add_pair(&pa.kernels[ia], &pb.kernels[ib], 1);
		}
		return;
	}
	qsort(pa.kernels, pa.nkernel, sizeof(*pa.kernels), cmp_name);
	qsort(pb.kernels, pb.nkernel, sizeof(*pb.kernels), cmp_name);
	for (i = 0; i < pa.nkernel; i++) {
		ib = profile_find(&pb, pa.kernels[i].name);
		add_pair(&pa.kernels[i], ib >= 0 ? &pb.kernels[ib] : NULL, 0);
	}
	for (i = 0; i < pb.nkernel; i++)
		if (profile_find(&pa, pb.kernels[i].name) < 0)
			add_pair(NULL, &pb.kernels[i], 0);
	for (i = 0; i < npair; i++)
		if (pairs[i].a && pairs[i].b)
			return;
	die("no kernel of %s is in %s (pair two names with -k a=b)", path_a, path_b);
}

static void
parse_threshold(const char *s)
{
	char *end;

	threshold = strtod(s, &end);
	if (end == s || !isfinite(threshold) || threshold < 0)
		errx(2, "-T: '%s' is not a number of cycles or a percent", s);
	if (*end == '%') {
		threshold_pct = 1;
		end++;
	}
	if (*end != '\0')
		errx(2, "-T: '%s' is not a number of cycles or a percent", s);
}

int
main(int argc, char *argv[])
{
	char **names = NULL;
	size_t nnames = 0;
	int ch, format_given = 0, flags = PROFILE_TABLES | PROFILE_WALL;

	while ((ch = cli_getopt(argc, argv, &cli)) != -1) {
		switch (ch) {
		case 'j':
			format = F_JSON;
			format_given = 1;
			break;
		case 'k':
			names = xreallocarray(names, nnames + 1, sizeof(*names));
			names[nnames++] = optarg;
			if (*optarg == '\0' || *optarg == '=' ||
			    optarg[strlen(optarg) - 1] == '=')
				errx(2, "-k: '%s' is not a kernel name or a pair a=b", optarg);
			break;
		case 'p':
			format = F_PRETTY;
			format_given = 1;
			break;
		case 'T':
			parse_threshold(optarg);
			break;
		case 't':
			format = F_TSV;
			format_given = 1;
			break;
		default:
			cli_usage(&cli);
		}
	}
	cli_operands(&cli, &argc, &argv, 2, 2);
	if (cli_strict)
		flags |= PROFILE_STRICT;
	if (strcmp(argv[0], "-") == 0 && strcmp(argv[1], "-") == 0)
		errx(2, "a and b are both standard input");
	if (!format_given)
		format = isatty(STDOUT_FILENO) ? F_PRETTY : F_TSV;
	path_a = argv[0];
	path_b = argv[1];

	profile_init(&pa, flags);
	profile_init(&pb, flags);
	load_profile(&pa, path_a);
	load_profile(&pb, path_b);
	if (strcmp(pa.view, pb.view) != 0)
		warning_out("%s is of the %s view, %s of the %s view: their costs differ in "
		    "kind", path_a, pa.view, path_b, pb.view);
	pair_kernels(names, nnames);
	judge();

	if (format == F_JSON)
		put_json();
	else if (format == F_PRETTY)
		put_pretty();
	else
		put_tsv();
	if (fflush(stdout) != 0 || ferror(stdout))
		err(2, "stdout");
	return differs ? 1 : 0;
}
