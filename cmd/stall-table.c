/* stall-table: the row stream summed per (kernel, pc): hits, cycles, percent of the
 * kernel, the dominant cause and the cycles of every cause (stall-table(1)).  The sums and
 * the TSV and JSON tables are the profile module's; the aligned text for people is here. */
#include <err.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cause.h"
#include "html.h"
#include "json.h"
#include "profile.h"
#include "timeline.h"
#include "tracejson.h"
#include "tsv.h"
#include "util.h"

enum format { F_TSV, F_PRETTY, F_JSON };
enum sortkey { S_CYCLES, S_HITS, S_PC };

static enum format format;
static int format_given;
static enum sortkey sortkey = S_CYCLES;
static long long opt_top;
static struct profile prof;
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
	    "       [--dispatch n | --by-dispatch] [--html out.html] [--trace-json out.json]\n"
	    "       [file ...]\n", getprogname());
	exit(2);
}

static void
count(const char *path)
{
	struct tsv t;
	FILE *fp;
	const char *name = path;

	if (strcmp(path, "-") == 0) {
		fp = stdin;
		name = "stdin";
	} else if ((fp = fopen(path, "r")) == NULL)
		err(2, "%s", path);
	tsv_open(&t, fp, name);
	if (profile_read_tsv(&prof, &t) < 0) {
		fflush(stdout);
		errx(2, "%s: no '#' column header line: not a row stream", name);
	}
	tsv_close(&t);
	if (fp != stdin)
		fclose(fp);
}

/* The rows in time go to the timeline as they are counted. */
static void
timeline_header_hook(void *arg, const struct tsv *t)
{
	timeline_header(arg, t);
}

static void
timeline_row_hook(void *arg, const struct tsv *t, int64_t cost, int cause)
{
	timeline_row(arg, t, cost, cause_info[cause].name);
}

/* Dispatches ---------------------------------------------------------------------- */

/* --dispatch and --by-dispatch: each trace buffer's dispatch, from the ##event lines the
 * rows carry (sqtt-dump(1): the dispatch id is their last field, "-" where unknown). */
struct dispatch {
	int64_t id;		/* -1: unknown */
	char *kernel;
	char key[32];		/* the name the profile counts the dispatch under */
};
static long long opt_dispatch = -1;
static int opt_by_dispatch;
static struct dispatch *disp;
static size_t ndisp;
static struct { uint64_t event; int64_t dispatch; } *evdisp;
static size_t nevdisp, metas_seen;
static uint64_t rows_kept;

static void
take_events(void)
{
	for (; metas_seen < prof.nmeta; metas_seen++) {
		char *line, *p, *f[12];
		size_t n = 0;
		if (strncmp(prof.metas[metas_seen], "##event\t", 8) != 0)
			continue;
		line = p = xstrdup(prof.metas[metas_seen]);
		while (n < 12 && (f[n] = strsep(&p, "\t")) != NULL)
			n++;
		evdisp = xreallocarray(evdisp, nevdisp + 1, sizeof(*evdisp));
		evdisp[nevdisp].event = strtoull(f[1], NULL, 10);
		evdisp[nevdisp++].dispatch = n > 10 && strcmp(f[10], "-") != 0 ?
		    (int64_t)strtoull(f[10], NULL, 10) : -1;
		free(line);
	}
}

static int64_t
event_dispatch(const struct tsv *t)
{
	static size_t last;
	uint64_t ev;
	int c = tsv_col(t, "event");
	size_t i;

	if (c < 0)
		tsv_fail(t, "--dispatch and --by-dispatch want the rows' event column");
	ev = tsv_u64(t, c);
	if (prof.nmeta > metas_seen)
		take_events();
	/* rows come in runs of one buffer: the last match first; a later line wins */
	if (last < nevdisp && evdisp[last].event == ev)
		return evdisp[last].dispatch;
	for (i = nevdisp; i-- > 0;)
		if (evdisp[i].event == ev) {
			last = i;
			return evdisp[i].dispatch;
		}
	return -1;
}

static const char *
dispatch_kernel(void *arg, const struct tsv *t, const char *kernel)
{
	int64_t d = event_dispatch(t);
	size_t i;

	(void)arg;
	if (!opt_by_dispatch) {
		if (d != opt_dispatch)
			return NULL;
		rows_kept++;
		return kernel;
	}
	rows_kept++;
	for (i = ndisp; i-- > 0;)
		if (disp[i].id == d && strcmp(disp[i].kernel, kernel) == 0)
			return disp[i].key;
	disp = xreallocarray(disp, ndisp + 1, sizeof(*disp));
	disp[ndisp].id = d;
	disp[ndisp].kernel = xstrdup(kernel);
	snprintf(disp[ndisp].key, sizeof(disp[ndisp].key), "%zu", ndisp);
	return disp[ndisp++].key;
}

static int
cmp_dispatch(const void *a, const void *b)
{
	const struct dispatch *x = a, *y = b;

	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return strcmp(x->kernel, y->kernel);
}

/* One line per dispatch: its kernel, the waves traced, cycles, wall time, the cause with
 * the most cycles and its share, the instruction with the most cycles. */
static void
put_by_dispatch(void)
{
	size_t i, j;
	int pretty = format == F_PRETTY;

	qsort(disp, ndisp, sizeof(*disp), cmp_dispatch);
	if (pretty)
		printf("%8s  %-24s  %6s  %12s  %12s  %-12s  %6s  %-8s  %s\n", "Dispatch", "Kernel",
		    "Waves", "Cycles", "Wall", "Top cause", "Share", "Hottest", "Instruction");
	else
		printf("#dispatch\tkernel\twaves\tcycles\twall\tcause\tcause_pct\tpc\tinst\n");
	for (i = 0; i < ndisp; i++) {
		long k = profile_find(&prof, disp[i].key);
		const struct profile_kernel *pk;
		const struct profile_line *hot = NULL;
		char id[24], *name, *inst;
		int c;
		if (k < 0)
			continue;
		pk = &prof.kernels[k];
		for (j = 0; j < pk->nline; j++)
			if (hot == NULL || pk->lines[j]->cycles > hot->cycles)
				hot = pk->lines[j];
		c = profile_dominant(pk->cyc, pk->hit);
		if (disp[i].id < 0)
			snprintf(id, sizeof(id), "-");
		else
			snprintf(id, sizeof(id), "%" PRId64, disp[i].id);
		name = pretty ? text_printable(disp[i].kernel) : xstrdup(disp[i].kernel);
		inst = hot ? (pretty ? text_printable(hot->inst) : xstrdup(hot->inst)) : xstrdup("-");
		if (pretty)
			printf("%8s  %-24s  %6" PRIu64 "  %12" PRId64 "  %12" PRId64 "  %-12s  %5.1f%%  "
			    "%-8s  %s\n", id, name, pk->waves, pk->cycles, pk->wall,
			    cause_info[c].name, profile_pct(pk->cyc[c], pk->cycles),
			    hot ? hot->pc : "-", inst);
		else
			printf("%s\t%s\t%" PRIu64 "\t%" PRId64 "\t%" PRId64 "\t%s\t%.2f\t%s\t%s\n", id,
			    name, pk->waves, pk->cycles, pk->wall, cause_info[c].name,
			    profile_pct(pk->cyc[c], pk->cycles), hot ? hot->pc : "-", inst);
		free(name);
		free(inst);
	}
}

/* Output ------------------------------------------------------------------------ */

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
	FILE *mem, *out;
	char *json = NULL;
	size_t len = 0;

	if ((mem = open_memstream(&json, &len)) == NULL)
		err(2, NULL);
	profile_put_json(&prof, mem);
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
	struct profile_kernel *k;
	char *name;
	int wc, wh, wp;

	if (prof.nkernel == 0)
		printf(" No rows: nothing was counted.\n");
	for (i = 0; i < prof.nkernel; i++) {
		k = &prof.kernels[i];
		wc = width_i64(k->cycles);
		wh = width_i64((int64_t)k->hits);
		wp = 7;
		for (j = 0; j < k->nshow; j++)
			if ((int)strlen(k->lines[j]->pc) > wp)
				wp = (int)strlen(k->lines[j]->pc);
		if (wc < 6)
			wc = 6;
		if (wh < 4)
			wh = 4;
		name = text_printable(k->name);
		printf("%s Kernel %s: %" PRId64 " cycles in %" PRIu64 " wave%s, %" PRIu64 " row%s\n",
		    i ? "\n" : "", name, k->cycles, k->waves, k->waves == 1 ? "" : "s",
		    k->hits, k->hits == 1 ? "" : "s");
		free(name);
		printf(" Counted: %s\n", profile_counted(&prof));
		if (k->untraced_waves)
			printf(" Left out: %" PRIu64 " wave%s without instruction tokens, %" PRId64
			    " cycles (--untraced counts them)\n", k->untraced_waves,
			    k->untraced_waves == 1 ? "" : "s", k->untraced_cycles);
		if (k->hits == 0) {
			printf(" No instruction-traced wave: nothing to show per instruction\n");
			continue;
		}
		printf(" Percent of the kernel's cycles");
		if (k->nshow < k->nline)
			printf("; the top %zu of %zu instructions by cycles", k->nshow, k->nline);
		printf("\n\n");
		printf(" %7s  %*s  %*s  %-*s  %-12s  %s\n", "Percent", wc, "Cycles", wh, "Hits",
		    wp, "Address", "Cause", "Instruction");
		for (j = 0; j < k->nshow; j++) {
			const struct profile_line *l = k->lines[j];
			char *pc = text_printable(l->pc), *inst = text_printable(l->inst);
			printf(" %7.2f  %*" PRId64 "  %*" PRIu64 "  %-*s  %-12s  %s\n",
			    profile_pct(l->cycles, k->cycles), wc, l->cycles, wh, l->hits, wp, pc,
			    cause_info[profile_dominant(l->cyc, l->hit)].name, inst);
			free(pc);
			free(inst);
		}
		printf(" %7.2f  %*" PRId64 "  %*" PRIu64 "  %-*s  total\n\n", profile_pct(k->cycles,
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
				    profile_pct(k->cyc[order[c]], k->cycles), wc, k->cyc[order[c]], wh,
				    k->hit[order[c]], cause_info[order[c]].name);
	}
}

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "by-dispatch", no_argument, NULL, 'B' },
		{ "dispatch", required_argument, NULL, 'D' },
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
	int (*cmp)(const void *, const void *);
	int flags = 0;

	while ((ch = getopt_long(argc, argv, "hjn:ps:t", longopts, NULL)) != -1) {
		switch (ch) {
		case 'h':
			printf("usage: %s [-hjpt] [-n top] [-s cycles|hits|pc] [--strict] [--untraced]\n"
			    "       [--dispatch n | --by-dispatch] [--html out.html] [--trace-json out.json]\n"
			    "       [file ...]\n"
			    "Sum a row stream per (kernel, pc): hits, cycles, percent of the kernel,\n"
			    "the dominant cause and the cycles of every cause.\n\n"
			    "  -n, --top N     the N instructions of each kernel with the most cycles\n"
			    "  -s, --sort KEY  order rows by cycles (default), hits or pc\n"
			    "  -j, --json      JSON (version 1)\n"
			    "  -p, --pretty    aligned text for people (default on a terminal)\n"
			    "  -t, --tsv       TSV (default when stdout is not a terminal)\n"
			    "      --strict    a warning is an error (exit 2)\n"
			    "      --untraced  count waves without instruction tokens too\n"
			    "      --dispatch N  only the rows of dispatch N (rocprofv3's dispatch id)\n"
			    "      --by-dispatch one line per dispatch: kernel, waves, cycles, wall time,\n"
			    "                  top cause and its share, the hottest instruction\n"
			    "      --html OUT  also write the timeline of the waves and the table as a\n"
			    "                  self-contained HTML page\n"
			    "      --trace-json OUT  also write the rows as Chrome trace events (Perfetto)\n"
			    "  -h, --help      this text\n"
			    "See stall-table(1).\n", getprogname());
			exit(0);
		case 'H':
			html_path = optarg;
			break;
		case 'B':
			opt_by_dispatch = 1;
			break;
		case 'D':
			opt_dispatch = strtonum(optarg, 0, LLONG_MAX, &errstr);
			if (errstr)
				errx(2, "--dispatch is %s: %s", errstr, optarg);
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
			flags |= PROFILE_STRICT;
			break;
		case 'U':
			flags |= PROFILE_UNTRACED;
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

	if (opt_by_dispatch && (opt_dispatch >= 0 || format == F_JSON || html_path || trace_path))
		errx(2, "--by-dispatch is a table of its own: not with --dispatch, --json, --html "
		    "or --trace-json");
	if (opt_by_dispatch)
		flags |= PROFILE_WALL;
	profile_init(&prof, flags);
	if (opt_by_dispatch || opt_dispatch >= 0) {
		prof.row_kernel = dispatch_kernel;
		prof.kernel_hook = NULL;
	}
	if (timeline) {
		prof.on_header = timeline_header_hook;
		prof.on_row = timeline_row_hook;
		prof.hook = timeline;
	}
	if (argc == 0)
		count("-");
	for (i = 0; i < argc; i++)
		count(argv[i]);
	profile_finish(&prof);
	if ((opt_by_dispatch || opt_dispatch >= 0) && rows_kept == 0) {
		if (opt_dispatch >= 0)
			errx(2, "%s: no rows of dispatch %lld", argc ? argv[argc - 1] : "stdin",
			    opt_dispatch);
		errx(2, "%s: no rows: no dispatch to show", argc ? argv[argc - 1] : "stdin");
	}
	if (opt_by_dispatch) {
		put_by_dispatch();
		if (fflush(stdout) != 0 || ferror(stdout))
			err(2, "stdout");
		return 0;
	}

	cmp = sortkey == S_HITS ? profile_cmp_hits : sortkey == S_PC ? profile_cmp_pc :
	    profile_cmp_cycles;
	for (j = 0; j < prof.nkernel; j++) {
		struct profile_kernel *k = &prof.kernels[j];
		n = k->nline;
		if (n == 0)
			continue;	/* a kernel with only untraced waves */
		qsort(k->lines, n, sizeof(*k->lines), profile_cmp_cycles);
		if (opt_top > 0 && (size_t)opt_top < n)
			k->nshow = (size_t)opt_top;	/* the rest stay in the TOTAL row */
		qsort(k->lines, k->nshow, sizeof(*k->lines), cmp);
	}
	if (prof.nkernel > 0)
		qsort(prof.kernels, prof.nkernel, sizeof(*prof.kernels), profile_cmp_kernel);
	prof.top = opt_top;
	if (timeline && timeline_rows(timeline) == 0)
		errx(2, "%s: no rows: no timeline to draw", argc ? argv[argc - 1] : "stdin");

	if (format == F_JSON)
		profile_put_json(&prof, stdout);
	else if (format == F_PRETTY)
		put_pretty();
	else
		profile_put_tsv(&prof, stdout);
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
