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

#include "cause.h"
#include "html.h"
#include "json.h"
#include "timeline.h"
#include "tracejson.h"
#include "tsv.h"
#include "util.h"

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
static struct timeline *timeline;	/* the rows in time, for --html and --trace-json */
static const char *html_path;
static FILE *html_fp;
/* the bounds of the page: lanes per kernel, bars in all */
#define TIMELINE_LANES 1024
#define TIMELINE_BARS 200000
static const char *trace_path;
static struct tracejson *trace;
static int pictures_done;

static void __attribute__((noreturn))
usage(void)
{
	fprintf(stderr, "usage: %s [-hjpt] [-n top] [-s cycles|hits|pc] [--strict] [--untraced]\n"
	    "       [--html out.html] [--trace-json out.json] [file ...]\n", getprogname());
	exit(2);
}

/* Counting ------------------------------------------------------------------------ */

static size_t
kernel_get(const char *name)
{
	static size_t last;
	size_t i;

	if (last < nkernel && strcmp(kernels[last].name, name) == 0)
		return last;
	for (i = 0; i < nkernel; i++)
		if (strcmp(kernels[i].name, name) == 0)
			return last = i;
	if (nkernel == capkernel) {
		capkernel = capkernel ? 2 * capkernel : 8;
		kernels = xreallocarray(kernels, capkernel, sizeof(*kernels));
	}
	memset(&kernels[nkernel], 0, sizeof(kernels[nkernel]));
	kernels[nkernel].name = xstrdup(name);
	return last = nkernel++;
}

/* A line is a (kernel, pc, inst): the inst keeps apart the pseudo-row an untraced
 * wave leaves at its entry pc from the instruction there.  Only the pc is hashed (the
 * inst of a pc is nearly always the same): the hash is on every row's path. */
static uint64_t
hash_of(size_t kernel, const char *pc)
{
	uint64_t h = 14695981039346656037ULL ^ kernel;

	for (; *pc; pc++)
		h = (h ^ (unsigned char)*pc) * 1099511628211ULL;
	return h;
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
	uint64_t h = hash_of(kernel, pc);
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

static size_t
cause_index(const struct tsv *t, const char *name)
{
	static int warned;
	enum cause c = cause_by_name(name);

	if (c != CAUSE_OTHER)
		return c;
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
			if (timeline)
				timeline_header(timeline, &t);
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
			k->untraced_cycles += cost;
			continue;
		}
		if (timeline)
			timeline_row(timeline, &t, cost, cause_info[ci].name);
		k->cycles += cost;
		k->hits++;
		k->cyc[ci] += cost;
		k->hit[ci]++;
		if (strcmp(t.field[c_token], "WAVE_END") == 0)
			k->waves++;
		l = line_get(ki, t.field[c_pc], t.field[c_inst]);
		l->hits++;
		l->cycles += cost;
		l->cyc[ci] += cost;
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
		printf("##stall-table\tkernel\t%s\tcycles\t%" PRId64 "\twaves\t%" PRIu64
		    "\thits\t%" PRIu64, k->name, k->cycles, k->waves, k->hits);
		if (k->untraced_waves)
			printf("\tuntraced_waves\t%" PRIu64 "\tuntraced_cycles\t%" PRId64,
			    k->untraced_waves, k->untraced_cycles);
		printf("\n");
	}
	printf("#kernel\tpc\thits\tcycles\tpct\tcause");
	for (c = 0; c < CAUSE_BEFORE_INST; c++)
		printf("\t%s", cause_info[c].col);
	printf("\tinst");
	for (; c < NCAUSE; c++)
		printf("\t%s", cause_info[c].col);
	printf("\n");
	for (i = 0; i < nkernel; i++) {
		k = &kernels[i];
		n = k->nline;
		for (j = 0; j < n; j++) {
			const struct line *l = k->lines[j];
			printf("%s\t%s\t%" PRIu64 "\t%" PRId64 "\t%.2f\t%s", k->name, l->pc,
			    l->hits, l->cycles, pct(l->cycles, k->cycles),
			    cause_info[dominant(l->cyc, l->hit)].name);
			for (c = 0; c < CAUSE_BEFORE_INST; c++)
				printf("\t%" PRId64, l->cyc[c]);
			printf("\t%s", l->inst);
			for (; c < NCAUSE; c++)
				printf("\t%" PRId64, l->cyc[c]);
			printf("\n");
		}
		printf("%s\tTOTAL\t%" PRIu64 "\t%" PRId64 "\t%.2f\t%s", k->name, k->hits,
		    k->cycles, pct(k->cycles, k->cycles), cause_info[dominant(k->cyc, k->hit)].name);
		for (c = 0; c < CAUSE_BEFORE_INST; c++)
			printf("\t%" PRId64, k->cyc[c]);
		printf("\t-");
		for (; c < NCAUSE; c++)
			printf("\t%" PRId64, k->cyc[c]);
		printf("\n");
	}
}

static void
json_string(const char *s)
{
	json_put_string(stdout, s);
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
		json_string(cause_info[c].name);
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
	json_string(view);
	printf(", \"top\": %lld, \"kernels\": [", opt_top);
	for (i = 0; i < nkernel; i++) {
		k = &kernels[i];
		printf("%s\n  {\"kernel\": ", i ? "," : "");
		json_string(k->name);
		printf(", \"cycles\": %" PRId64 ", \"waves\": %" PRIu64 ", \"hits\": %" PRIu64
		    ", \"untraced_waves\": %" PRIu64 ", \"untraced_cycles\": %" PRId64
		    ", \"cause\": ", k->cycles, k->waves, k->hits, k->untraced_waves,
		    k->untraced_cycles);
		json_string(cause_info[dominant(k->cyc, k->hit)].name);
		printf(", \"causes\": ");
		json_causes(k->cyc);
		printf(", \"rows\": [");
		for (j = 0; j < k->nline; j++) {
			const struct line *l = k->lines[j];
			printf("%s\n    {\"pc\": ", j ? "," : "");
			json_string(l->pc);
			printf(", \"hits\": %" PRIu64 ", \"cycles\": %" PRId64 ", \"pct\": %.2f"
			    ", \"cause\": ", l->hits, l->cycles, pct(l->cycles, k->cycles));
			json_string(cause_info[dominant(l->cyc, l->hit)].name);
			printf(", \"causes\": ");
			json_causes(l->cyc);
			printf(", \"inst\": ");
			json_string(l->inst);
			putchar('}');
		}
		printf("%s]}", k->nline ? "\n  " : "");
	}
	printf("%s]}\n", nkernel ? "\n" : "");
}

/* At an exit on an error: a half-written page or trace must not look like one. */
static void
discard_pictures(void)
{
	if (pictures_done)
		return;
	if (html_fp)
		discard_output(html_fp, html_path);
	if (trace)
		tracejson_discard(trace);
}

/* The page embeds the table exactly as --json writes it to stdout. */
static void
put_html(void)
{
	FILE *out = stdout, *mem;
	char *json = NULL;
	size_t len = 0;

	if ((mem = open_memstream(&json, &len)) == NULL)
		err(2, NULL);
	stdout = mem;
	put_json();
	stdout = out;
	if (fclose(mem) != 0)
		err(2, NULL);
	html_write(html_fp, json, len, timeline);
	if (fflush(html_fp) != 0 || ferror(html_fp))
		err(2, "%s", html_path);
	out = html_fp;
	html_fp = NULL;
	if (fclose(out) != 0)
		err(2, "%s", html_path);
	free(json);
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
		printf("%s Kernel %s: %" PRId64 " cycles in %" PRIu64 " wave%s, %" PRIu64 " row%s\n",
		    i ? "\n" : "", k->name, k->cycles, k->waves, k->waves == 1 ? "" : "s",
		    k->hits, k->hits == 1 ? "" : "s");
		printf(" Counted: %s\n", counted());
		if (k->untraced_waves)
			printf(" Left out: %" PRIu64 " wave%s without instruction tokens, %" PRId64
			    " cycles (--untraced counts them)\n", k->untraced_waves,
			    k->untraced_waves == 1 ? "" : "s", k->untraced_cycles);
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
			printf(" %7.2f  %*" PRId64 "  %*" PRIu64 "  %-*s  %-12s  %s\n",
			    pct(l->cycles, k->cycles), wc, l->cycles, wh, l->hits, wp, l->pc,
			    cause_info[dominant(l->cyc, l->hit)].name, l->inst);
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
				    k->hit[order[c]], cause_info[order[c]].name);
	}
}

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "html", required_argument, NULL, 'H' },
		{ "json", no_argument, NULL, 'j' },
		{ "top", required_argument, NULL, 'n' },
		{ "pretty", no_argument, NULL, 'p' },
		{ "sort", required_argument, NULL, 's' },
		{ "strict", no_argument, NULL, 'S' },
		{ "trace-json", required_argument, NULL, 'T' },
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
			printf("usage: %s [-hjpt] [-n top] [-s cycles|hits|pc] [--strict] [--untraced]\n"
			    "       [--html out.html] [--trace-json out.json] [file ...]\n"
			    "Sum a row stream per (kernel, pc): hits, cycles, percent of the kernel,\n"
			    "the dominant cause and the cycles of every cause.\n\n"
			    "  -n, --top N     the N instructions of each kernel with the most cycles\n"
			    "  -s, --sort KEY  order rows by cycles (default), hits or pc\n"
			    "  -j, --json      JSON (version 1)\n"
			    "  -p, --pretty    aligned text for people (default on a terminal)\n"
			    "  -t, --tsv       TSV (default when stdout is not a terminal)\n"
			    "      --strict    a warning is an error (exit 2)\n"
			    "      --untraced  count waves without instruction tokens too\n"
			    "      --html OUT  also write the timeline of the waves and the table as a\n"
			    "                  self-contained HTML page\n"
			    "      --trace-json OUT  also write the rows as Chrome trace events (Perfetto)\n"
			    "  -h, --help      this text\n"
			    "See stall-table(1).\n", getprogname());
			exit(0);
		case 'H':
			html_path = optarg;
			break;
		case 'T':
			trace_path = optarg;
			break;
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
	if (html_path || trace_path) {
		if (html_path && (html_fp = fopen(html_path, "w")) == NULL)
			err(2, "%s", html_path);
		if (trace_path)
			trace = tracejson_open(trace_path);
		atexit(discard_pictures);
		timeline = timeline_new(html_path != NULL, TIMELINE_LANES, TIMELINE_BARS);
		if (trace)
			timeline_sink(timeline, tracejson_row, trace);
	}

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
		qsort(k->lines, n, sizeof(*k->lines), cmp_cycles);
		if (opt_top > 0 && (size_t)opt_top < n)
			k->nline = (size_t)opt_top;	/* the rest stay in the TOTAL row */
		qsort(k->lines, k->nline, sizeof(*k->lines), cmp);
	}
	if (nkernel > 0)
		qsort(kernels, nkernel, sizeof(*kernels), cmp_kernel);
	if (view == NULL)
		view = "unknown";
	if (timeline && timeline_rows(timeline) == 0)
		errx(2, "%s: no rows: no timeline to draw", argc ? argv[argc - 1] : "stdin");

	if (format == F_JSON)
		put_json();
	else if (format == F_PRETTY)
		put_pretty();
	else
		put_tsv();
	if (fflush(stdout) != 0 || ferror(stdout))
		err(2, "stdout");
	if (html_path)
		put_html();
	if (trace)
		tracejson_close(trace);
	pictures_done = 1;
	timeline_free(timeline);
	return 0;
}
