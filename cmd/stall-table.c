/* stall-table: the row stream summed per (kernel, pc): hits, cycles, percent of the
 * kernel, the dominant cause and the cycles of every cause (stall-table(1)). */
#include <err.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "json.h"
#include "meta.h"
#include "tsv.h"
#include "util.h"

/* The causes stall-attr(1) writes, in the order of the table's columns.  The column
 * names are part of the output format: never rename one, append new ones before "-". */
static const struct cause {
	const char *name, *col;
} causes[] = {
	{ "wave start", "c_wave_start" },
	{ "mem", "c_mem" },
	{ "smem", "c_smem" },
	{ "lds", "c_lds" },
	{ "mem+smem", "c_mem_smem" },
	{ "mem+lds", "c_mem_lds" },
	{ "smem+lds", "c_smem_lds" },
	{ "mem+smem+lds", "c_mem_smem_lds" },
	{ "barrier", "c_barrier" },
	{ "depctr", "c_depctr" },
	{ "valu dep", "c_valu_dep" },
	{ "trans dep", "c_trans_dep" },
	{ "salu dep", "c_salu_dep" },
	{ "issue wait", "c_issue_wait" },
	{ "fetch", "c_fetch" },
	{ "vmem issue", "c_vmem_issue" },
	{ "lds queue", "c_lds_queue" },
	{ "drain", "c_drain" },
	{ "issue", "c_issue" },
	{ "untraced", "c_untraced" },
	{ "-", "c_none" },	/* rows without a cause column */
	{ "other", "c_other" },	/* a cause this table does not know */
};
#define NCAUSE (sizeof(causes) / sizeof(causes[0]))
#define CAUSE_NONE (NCAUSE - 2)
#define CAUSE_OTHER (NCAUSE - 1)
#define CAUSE_UNTRACED (NCAUSE - 3)
static const size_t cause_untraced = CAUSE_UNTRACED;
static int opt_untraced;

/* One instruction of one kernel. */
struct line {
	struct line *hnext;
	uint64_t hash;
	size_t kernel;
	char *pc, *inst;
	uint64_t pcv;		/* for sorting; UINT64_MAX when pc is not a number */
	uint64_t hits;
	int64_t cycles;
	int64_t cyc[NCAUSE];
	uint64_t hit[NCAUSE];
};

struct kernel {
	char *name;
	int64_t cycles;
	uint64_t hits, waves;
	int64_t cyc[NCAUSE];
	uint64_t hit[NCAUSE];
	struct line **lines;
	size_t nline, cap;
	size_t ninst;		/* distinct pcs, before --top */
	uint64_t untraced_waves;	/* left out: waves without instruction tokens */
	int64_t untraced_cycles;
};

enum format { F_TSV, F_PRETTY, F_JSON };
enum sortkey { S_CYCLES, S_HITS, S_PC };

static enum format format;
static int format_given, opt_strict;
static enum sortkey sortkey = S_CYCLES;
static long long opt_top;

static struct kernel *kernels;
static size_t nkernel, capkernel;
static struct line **htab;
static size_t hsize, hcount;
static char **metas;
static size_t nmeta, capmeta;
static const char *view;	/* cause, raw, delta, unknown, mixed */

static void __attribute__((noreturn))
usage(void)
{
	fprintf(stderr, "usage: %s [-hjpt] [-n top] [-s cycles|hits|pc] [--strict] [--untraced] [file ...]\n",
	    getprogname());
	exit(2);
}

/* Counting ------------------------------------------------------------------------ */

static uint64_t
hash_str(uint64_t h, const char *s)
{
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

/* Kernels by a hash of their name: a stream may name many. */
static size_t *ktab;
static size_t ksize;

static size_t
kernel_get(const char *name)
{
	static size_t last;
	uint64_t h;
	size_t i, slot;

	if (last < nkernel && strcmp(kernels[last].name, name) == 0)
		return last;
	if (nkernel >= ksize / 2) {
		size_t n = ksize ? 2 * ksize : 64;
		free(ktab);
		ktab = xcalloc(n, sizeof(*ktab));
		ksize = n;
		for (i = 0; i < nkernel; i++) {
			for (slot = hash_str(14695981039346656037ULL, kernels[i].name) & (n - 1);
			    ktab[slot]; slot = (slot + 1) & (n - 1))
				;
			ktab[slot] = i + 1;
		}
	}
	h = hash_str(14695981039346656037ULL, name);
	for (slot = h & (ksize - 1); ktab[slot]; slot = (slot + 1) & (ksize - 1))
		if (strcmp(kernels[ktab[slot] - 1].name, name) == 0)
			return last = ktab[slot] - 1;
	if (nkernel == capkernel) {
		capkernel = capkernel ? 2 * capkernel : 8;
		kernels = xreallocarray(kernels, capkernel, sizeof(*kernels));
	}
	memset(&kernels[nkernel], 0, sizeof(kernels[nkernel]));
	kernels[nkernel].name = xstrdup(name);
	ktab[slot] = nkernel + 1;
	return last = nkernel++;
}

/* A line is a (kernel, pc, inst): the inst keeps apart the pseudo-row an untraced
 * wave leaves at its entry pc from the instruction there.  The inst is hashed too, or
 * a stream with many texts at one pc would make one long chain. */
static uint64_t
hash_of(size_t kernel, const char *pc, const char *inst)
{
	return hash_str(hash_str(14695981039346656037ULL ^ kernel, pc) * 31, inst);
}

static void
hash_grow(void)
{
	size_t i, n = hsize ? 2 * hsize : 1024;
	struct line **t = calloc(n, sizeof(*t)), *l, *next;

	if (t == NULL)
		err(2, NULL);
	for (i = 0; i < hsize; i++)
		for (l = htab[i]; l; l = next) {
			next = l->hnext;
			l->hnext = t[l->hash & (n - 1)];
			t[l->hash & (n - 1)] = l;
		}
	free(htab);
	htab = t;
	hsize = n;
}

static struct line *
line_get(size_t kernel, const char *pc, const char *inst)
{
	uint64_t h = hash_of(kernel, pc, inst);
	struct line *l;
	char *end;

	if (hsize)
		for (l = htab[h & (hsize - 1)]; l; l = l->hnext)
			if (l->hash == h && l->kernel == kernel && strcmp(l->pc, pc) == 0 &&
			    strcmp(l->inst, inst) == 0)
				return l;
	if (hcount >= hsize)
		hash_grow();
	if ((l = calloc(1, sizeof(*l))) == NULL)
		err(2, NULL);
	l->hash = h;
	l->kernel = kernel;
	l->pc = xstrdup(pc);
	l->inst = xstrdup(inst);
	l->pcv = strtoull(pc, &end, 0);
	if (end == pc || *end != '\0')
		l->pcv = UINT64_MAX;
	l->hnext = htab[h & (hsize - 1)];
	htab[h & (hsize - 1)] = l;
	hcount++;
	return l;
}

static unsigned
cause_hash(const char *s)
{
	unsigned h = 2166136261u;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h & 63;
}

static size_t
cause_index(const struct tsv *t, const char *name)
{
	static int16_t bucket[64];	/* causes by a hash of their name: every row asks */
	static int ready, warned;
	unsigned h;
	size_t i;

	if (!ready) {
		for (h = 0; h < 64; h++)
			bucket[h] = -1;
		for (i = 0; i < CAUSE_OTHER; i++) {
			for (h = cause_hash(causes[i].name); bucket[h] >= 0; h = (h + 1) & 63)
				;
			bucket[h] = (int16_t)i;
		}
		ready = 1;
	}
	for (h = cause_hash(name); bucket[h] >= 0; h = (h + 1) & 63)
		if (strcmp(causes[bucket[h]].name, name) == 0)
			return (size_t)bucket[h];
	if (opt_strict)
		tsv_fail(t, "cause: unknown cause '%s'", name);
	if (!warned) {
		fflush(stdout);
		warnx("warning: %s:%lu: unknown cause '%s' counted as 'other' (warned once)",
		    t->path, t->line, name);
	}
	warned = 1;
	return CAUSE_OTHER;
}

/* Cycles are summed in 63 bits: a sum that would pass them is an error, not a
 * negative count. */
static void
add_cycles(const struct tsv *t, int64_t *sum, int64_t v)
{
	if (__builtin_add_overflow(*sum, v, sum))
		tsv_fail(t, "cycles: the sum passes 2^63-1");
}

static void
set_view(const char *v)
{
	if (view == NULL)
		view = v;
	else if (strcmp(view, v) != 0)
		view = "mixed";
}

static void
count(const char *path)
{
	struct tsv t;
	FILE *fp;
	const char *name = path, *file_view = NULL;
	int c_kernel = -1, c_pc = -1, c_inst = -1, c_token = -1, c_cost = -1, c_cause = -1;
	int header_seen = 0;
	struct kernel *k;
	struct line *l;
	size_t ki, ci;
	int64_t cost;

	if (strcmp(path, "-") == 0) {
		fp = stdin;
		name = "stdin";
	} else if ((fp = fopen(path, "r")) == NULL)
		err(2, "%s", path);
	tsv_open(&t, fp, name);
	for (;;) {
		enum tsv_kind kind = tsv_next(&t);

		if (kind == TSV_EOF)
			break;
		if (kind == TSV_META) {
			char *s;
			size_t i, len = 3;

			if (strcmp(t.field[0], "stall-attr") == 0 && t.nfield > 1)
				file_view = strcmp(t.field[1], "raw") == 0 ? "raw" :
				    strcmp(t.field[1], "cause") == 0 ? "cause" : "unknown";
			for (i = 0; i < t.nfield; i++)
				len += strlen(t.field[i]) + 1;
			if ((s = malloc(len)) == NULL)
				err(2, NULL);
			strlcpy(s, "##", len);
			for (i = 0; i < t.nfield; i++) {
				if (i)
					strlcat(s, "\t", len);
				strlcat(s, t.field[i], len);
			}
			if (nmeta == capmeta) {
				capmeta = capmeta ? 2 * capmeta : 16;
				metas = xreallocarray(metas, capmeta, sizeof(*metas));
			}
			metas[nmeta++] = s;
			continue;
		}
		if (kind == TSV_HEADER) {
			c_kernel = tsv_need(&t, "kernel");
			c_pc = tsv_need(&t, "pc");
			c_inst = tsv_need(&t, "inst");
			c_token = tsv_need(&t, "token");
			c_cause = tsv_col(&t, "cause");
			if ((c_cost = tsv_col(&t, "cost")) < 0) {
				c_cost = tsv_need(&t, "delta");
				set_view("delta");
			} else
				set_view(file_view ? file_view : "unknown");
			header_seen = 1;
			continue;
		}
		cost = tsv_i64(&t, c_cost);
		if (cost < 0)
			tsv_fail(&t, "%s: %" PRId64 " is negative", t.col[c_cost], cost);
		ci = c_cause < 0 ? CAUSE_NONE : cause_index(&t, t.field[c_cause]);
		ki = kernel_get(t.field[c_kernel]);
		k = &kernels[ki];
		if (ci == cause_untraced && !opt_untraced) {
			/* the lifetime of a wave that says nothing of its instructions would
			 * only dilute the percentages of those that do */
			k->untraced_waves++;
			add_cycles(&t, &k->untraced_cycles, cost);
			continue;
		}
		add_cycles(&t, &k->cycles, cost);
		k->hits++;
		add_cycles(&t, &k->cyc[ci], cost);
		k->hit[ci]++;
		if (strcmp(t.field[c_token], "WAVE_END") == 0)
			k->waves++;
		l = line_get(ki, t.field[c_pc], t.field[c_inst]);
		l->hits++;
		add_cycles(&t, &l->cycles, cost);
		add_cycles(&t, &l->cyc[ci], cost);
		l->hit[ci]++;
	}
	if (!header_seen) {
		fflush(stdout);
		errx(2, "%s: no '#' column header line: not a row stream", name);
	}
	tsv_close(&t);
	if (fp != stdin)
		fclose(fp);
}

/* Ordering --------------------------------------------------------------------- */

static int
cmp_pc(const struct line *a, const struct line *b)
{
	if (a->pcv != b->pcv)
		return a->pcv < b->pcv ? -1 : 1;
	return strcmp(a->pc, b->pc);
}

static int
cmp_cycles(const void *pa, const void *pb)
{
	const struct line *a = *(struct line *const *)pa, *b = *(struct line *const *)pb;

	if (a->cycles != b->cycles)
		return a->cycles > b->cycles ? -1 : 1;
	return cmp_pc(a, b);
}

static int
cmp_hits(const void *pa, const void *pb)
{
	const struct line *a = *(struct line *const *)pa, *b = *(struct line *const *)pb;

	if (a->hits != b->hits)
		return a->hits > b->hits ? -1 : 1;
	return cmp_cycles(pa, pb);
}

static int
cmp_pcs(const void *pa, const void *pb)
{
	return cmp_pc(*(struct line *const *)pa, *(struct line *const *)pb);
}

static int
cmp_kernel(const void *pa, const void *pb)
{
	const struct kernel *a = pa, *b = pb;

	if (a->cycles != b->cycles)
		return a->cycles > b->cycles ? -1 : 1;
	return strcmp(a->name, b->name);
}

/* The cause with the most cycles; ties go to the most hits, then to the table order. */
static size_t
dominant(const int64_t *cyc, const uint64_t *hit)
{
	size_t i, best = 0;

	for (i = 1; i < NCAUSE; i++)
		if (cyc[i] > cyc[best] || (cyc[i] == cyc[best] && hit[i] > hit[best]))
			best = i;
	return best;
}

static double
pct(int64_t part, int64_t whole)
{
	return whole > 0 ? 100.0 * (double)part / (double)whole : 0.0;
}

/* Output ------------------------------------------------------------------------ */

static const char *
counted(void)
{
	if (strcmp(view, "delta") == 0)
		return "delta (rows without a cost column: every row charged its delta, no causes)";
	if (strcmp(view, "cause") == 0)
		return "cost (stall-attr cause view: barrier waits moved onto the s_barrier)";
	if (strcmp(view, "raw") == 0)
		return "cost (stall-attr raw view: every row charged its delta)";
	return "cost";
}

static void
put_tsv(void)
{
	size_t i, j, c, n;
	struct kernel *k;

	for (i = 0; i < nmeta; i++)
		printf("%s\n", metas[i]);
	printf("##stall-table\tcounted\t%s\n", counted());
	printf("##stall-table\tpct\tpercent of the kernel's cycles, the sum of its waves' "
	    "lifetimes\n");
	if (opt_top > 0)
		printf("##stall-table\ttop\t%lld\n", opt_top);
	for (i = 0; i < nkernel; i++) {
		k = &kernels[i];
		meta_begin(stdout, "stall-table");
		meta_str(stdout, "kernel");
		meta_str(stdout, k->name);	/* a ## value: escaped, as every one */
		printf("\tcycles\t%" PRId64 "\twaves\t%" PRIu64 "\thits\t%" PRIu64, k->cycles,
		    k->waves, k->hits);
		if (k->untraced_waves)
			printf("\tuntraced_waves\t%" PRIu64 "\tuntraced_cycles\t%" PRId64,
			    k->untraced_waves, k->untraced_cycles);
		printf("\n");
	}
	printf("#kernel\tpc\thits\tcycles\tpct\tcause");
	for (c = 0; c < NCAUSE; c++)
		printf("\t%s", causes[c].col);
	printf("\tinst\n");
	for (i = 0; i < nkernel; i++) {
		k = &kernels[i];
		n = k->nline;
		for (j = 0; j < n; j++) {
			const struct line *l = k->lines[j];
			printf("%s\t%s\t%" PRIu64 "\t%" PRId64 "\t%.2f\t%s", k->name, l->pc,
			    l->hits, l->cycles, pct(l->cycles, k->cycles),
			    causes[dominant(l->cyc, l->hit)].name);
			for (c = 0; c < NCAUSE; c++)
				printf("\t%" PRId64, l->cyc[c]);
			printf("\t%s\n", l->inst);
		}
		printf("%s\tTOTAL\t%" PRIu64 "\t%" PRId64 "\t%.2f\t%s", k->name, k->hits,
		    k->cycles, pct(k->cycles, k->cycles), causes[dominant(k->cyc, k->hit)].name);
		for (c = 0; c < NCAUSE; c++)
			printf("\t%" PRId64, k->cyc[c]);
		printf("\t-\n");
	}
}

static void
json_causes(const int64_t *cyc)
{
	size_t c;
	int n = 0;

	putchar('{');
	for (c = 0; c < NCAUSE; c++) {
		if (cyc[c] == 0)
			continue;
		if (n++)
			printf(", ");
		json_string(stdout, causes[c].name);
		printf(": %" PRId64, cyc[c]);
	}
	putchar('}');
}

static void
put_json(void)
{
	size_t i, j;
	struct kernel *k;

	printf("{\"version\": 1, \"view\": ");
	json_string(stdout, view);
	printf(", \"top\": %lld, \"kernels\": [", opt_top);
	for (i = 0; i < nkernel; i++) {
		k = &kernels[i];
		printf("%s\n  {\"kernel\": ", i ? "," : "");
		json_string(stdout, k->name);
		printf(", \"cycles\": %" PRId64 ", \"waves\": %" PRIu64 ", \"hits\": %" PRIu64
		    ", \"untraced_waves\": %" PRIu64 ", \"untraced_cycles\": %" PRId64
		    ", \"cause\": ", k->cycles, k->waves, k->hits, k->untraced_waves,
		    k->untraced_cycles);
		json_string(stdout, causes[dominant(k->cyc, k->hit)].name);
		printf(", \"causes\": ");
		json_causes(k->cyc);
		printf(", \"rows\": [");
		for (j = 0; j < k->nline; j++) {
			const struct line *l = k->lines[j];
			printf("%s\n    {\"pc\": ", j ? "," : "");
			json_string(stdout, l->pc);
			printf(", \"hits\": %" PRIu64 ", \"cycles\": %" PRId64 ", \"pct\": %.2f"
			    ", \"cause\": ", l->hits, l->cycles, pct(l->cycles, k->cycles));
			json_string(stdout, causes[dominant(l->cyc, l->hit)].name);
			printf(", \"causes\": ");
			json_causes(l->cyc);
			printf(", \"inst\": ");
			json_string(stdout, l->inst);
			putchar('}');
		}
		printf("%s]}", k->nline ? "\n  " : "");
	}
	printf("%s]}\n", nkernel ? "\n" : "");
}

static int
width_i64(int64_t v)
{
	return snprintf(NULL, 0, "%" PRId64, v);
}

static void
put_pretty(void)
{
	size_t i, j, c, order[NCAUSE];
	struct kernel *k;
	int wc, wh, wp;
	char *safe;

	if (nkernel == 0)
		printf(" No rows: nothing was counted.\n");
	for (i = 0; i < nkernel; i++) {
		k = &kernels[i];
		wc = width_i64(k->cycles);
		wh = width_i64((int64_t)k->hits);
		wp = 7;
		for (j = 0; j < k->nline; j++)
			if ((int)strlen(k->lines[j]->pc) > wp)
				wp = (int)strlen(k->lines[j]->pc);
		if (wc < 6)
			wc = 6;
		if (wh < 4)
			wh = 4;
		safe = text_printable(k->name);
		printf("%s Kernel %s: %" PRId64 " cycles in %" PRIu64 " wave%s, %" PRIu64 " row%s\n",
		    i ? "\n" : "", safe, k->cycles, k->waves, k->waves == 1 ? "" : "s",
		    k->hits, k->hits == 1 ? "" : "s");
		printf(" Counted: %s\n", counted());
		if (k->untraced_waves)
			printf(" Left out: %" PRIu64 " wave%s without instruction tokens, %" PRId64
			    " cycles (--untraced counts them)\n", k->untraced_waves,
			    k->untraced_waves == 1 ? "" : "s", k->untraced_cycles);
		free(safe);
		if (k->hits == 0) {
			printf(" No instruction-traced wave: nothing to show per instruction\n");
			continue;
		}
		printf(" Percent of the kernel's cycles");
		if (k->nline < k->ninst)
			printf("; the top %zu of %zu instructions by cycles", k->nline, k->ninst);
		printf("\n\n");
		printf(" %7s  %*s  %*s  %-*s  %-12s  %s\n", "Percent", wc, "Cycles", wh, "Hits",
		    wp, "Address", "Cause", "Instruction");
		for (j = 0; j < k->nline; j++) {
			const struct line *l = k->lines[j];
			char *pc = text_printable(l->pc), *inst = text_printable(l->inst);
			printf(" %7.2f  %*" PRId64 "  %*" PRIu64 "  %-*s  %-12s  %s\n",
			    pct(l->cycles, k->cycles), wc, l->cycles, wh, l->hits, wp, pc,
			    causes[dominant(l->cyc, l->hit)].name, inst);
			free(pc);
			free(inst);
		}
		printf(" %7.2f  %*" PRId64 "  %*" PRIu64 "  %-*s  total\n\n", pct(k->cycles,
		    k->cycles), wc, k->cycles, wh, k->hits, wp, "");
		printf(" By cause:\n");
		for (c = 0; c < NCAUSE; c++)
			order[c] = c;
		/* a few entries: insertion sort by cycles, table order on ties */
		for (c = 1; c < NCAUSE; c++)
			for (j = c; j > 0 && k->cyc[order[j]] > k->cyc[order[j - 1]]; j--) {
				size_t tmp = order[j];
				order[j] = order[j - 1];
				order[j - 1] = tmp;
			}
		for (c = 0; c < NCAUSE; c++)
			if (k->hit[order[c]])
				printf(" %7.2f  %*" PRId64 "  %*" PRIu64 "  %s\n",
				    pct(k->cyc[order[c]], k->cycles), wc, k->cyc[order[c]], wh,
				    k->hit[order[c]], causes[order[c]].name);
	}
}

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "json", no_argument, NULL, 'j' },
		{ "top", required_argument, NULL, 'n' },
		{ "pretty", no_argument, NULL, 'p' },
		{ "sort", required_argument, NULL, 's' },
		{ "strict", no_argument, NULL, 'S' },
		{ "tsv", no_argument, NULL, 't' },
		{ "untraced", no_argument, NULL, 'U' },
		{ NULL, 0, NULL, 0 }
	};
	const char *errstr;
	int ch, i;
	size_t j, n;
	struct line *l;
	int (*cmp)(const void *, const void *);

	while ((ch = getopt_long(argc, argv, "hjn:ps:t", longopts, NULL)) != -1) {
		switch (ch) {
		case 'h':
			printf("usage: %s [-hjpt] [-n top] [-s cycles|hits|pc] [--strict] [--untraced] [file ...]\n"
			    "Sum a row stream per (kernel, pc): hits, cycles, percent of the kernel,\n"
			    "the dominant cause and the cycles of every cause.\n\n"
			    "  -n, --top N     the N instructions of each kernel with the most cycles\n"
			    "  -s, --sort KEY  order rows by cycles (default), hits or pc\n"
			    "  -j, --json      JSON (version 1)\n"
			    "  -p, --pretty    aligned text for people (default on a terminal)\n"
			    "  -t, --tsv       TSV (default when stdout is not a terminal)\n"
			    "      --strict    a warning is an error (exit 2)\n"
			    "      --untraced  count waves without instruction tokens too\n"
			    "  -h, --help      this text\n"
			    "See stall-table(1).\n", getprogname());
			exit(0);
		case 'j':
			format = F_JSON;
			format_given = 1;
			break;
		case 'n':
			opt_top = strtonum(optarg, 0, LLONG_MAX, &errstr);
			if (errstr)
				errx(2, "--top is %s: %s", errstr, optarg);
			break;
		case 'p':
			format = F_PRETTY;
			format_given = 1;
			break;
		case 's':
			if (strcmp(optarg, "cycles") == 0)
				sortkey = S_CYCLES;
			else if (strcmp(optarg, "hits") == 0)
				sortkey = S_HITS;
			else if (strcmp(optarg, "pc") == 0)
				sortkey = S_PC;
			else
				errx(2, "-s: unknown sort key '%s' (cycles, hits, pc)", optarg);
			break;
		case 'S':
			opt_strict = 1;
			break;
		case 'U':
			opt_untraced = 1;
			break;
		case 't':
			format = F_TSV;
			format_given = 1;
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (!format_given)
		format = isatty(STDOUT_FILENO) ? F_PRETTY : F_TSV;

	if (argc == 0)
		count("-");
	for (i = 0; i < argc; i++)
		count(argv[i]);

	for (j = 0; j < hsize; j++)
		for (l = htab[j]; l; l = l->hnext) {
			struct kernel *k = &kernels[l->kernel];
			if (k->nline == k->cap) {
				k->cap = k->cap ? 2 * k->cap : 64;
				k->lines = xreallocarray(k->lines, k->cap, sizeof(*k->lines));
			}
			k->lines[k->nline++] = l;
		}
	cmp = sortkey == S_HITS ? cmp_hits : sortkey == S_PC ? cmp_pcs : cmp_cycles;
	for (j = 0; j < nkernel; j++) {
		struct kernel *k = &kernels[j];
		n = k->ninst = k->nline;
		if (n == 0)
			continue;	/* only untraced rows: no lines, and qsort wants an array */
		qsort(k->lines, n, sizeof(*k->lines), cmp_cycles);
		if (opt_top > 0 && (size_t)opt_top < n)
			k->nline = (size_t)opt_top;	/* the rest stay in the TOTAL row */
		qsort(k->lines, k->nline, sizeof(*k->lines), cmp);
	}
	if (nkernel > 0)
		qsort(kernels, nkernel, sizeof(*kernels), cmp_kernel);
	if (view == NULL)
		view = "unknown";

	if (format == F_JSON)
		put_json();
	else if (format == F_PRETTY)
		put_pretty();
	else
		put_tsv();
	if (fflush(stdout) != 0 || ferror(stdout))
		err(2, "stdout");
	return 0;
}
