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

#include "cli.h"
#include "cause.h"
#include "dispatch.h"
#include "out.h"
#include "profile.h"
#include "report.h"
#include "timeline.h"
#include "tsv.h"
#include "util.h"

static struct report_opts ro = { .format = REPORT_AUTO, .sort = REPORT_CYCLES };
static struct profile prof;
static long long opt_dispatch = -1;
static int opt_by_dispatch, opt_occupancy;

static const struct cli cli = {
	.synopsis = {
		"[-Hhjpt] [-k kernel] [-n top] [-s cycles|hits|pc] [--plain] [--strict] [--untraced]",
		"\t[--dispatch n | --by-dispatch | --occupancy] [--html out.html] [--trace-json out.json]",
		"\t[file ...]",
		NULL
	},
	.options = "by-dispatch dispatch kernel/k occupancy strict untraced " REPORT_OPTIONS,
	.help =
	    "Sum a row stream per (kernel, pc): hits, cycles, percent of the kernel,\n"
	    "the dominant cause and the cycles of every cause.\n"
	    "\n"
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
	    "      --occupancy the waves in flight over time on each traced SIMD\n"
	    "      --html OUT  also write the timeline of the waves and the table as a\n"
	    "                  self-contained HTML page\n"
	    "      --trace-json OUT  also write the rows as Chrome trace events (Perfetto)\n"
	    "  -k, --kernel NAME  only kernel NAME (an error if there is none)\n"
	    "      --plain     TSV for other tools: no ## lines, no TOTAL rows, a bare header\n"
	    "  -H, --no-header the same without the header line\n"
	    "  -h, --help      this text\n"
	    "      --version   the version\n"
	    "See stall-table(1).\n",
};

static void
count(const char *path)
{
	static char why[4096];
	struct tsv t;
	const char *name = path;

	tsv_open_path(&t, path);
	name = t.path;
	switch (profile_read_tsv(&prof, &t, why, sizeof(why))) {
	case -2:
		fflush(stdout);
		errx(2, "%s", why);
	case -1:
		fflush(stdout);
		errx(2, "%s: no '#' column header line: not a row stream", name);
	}
	tsv_close(&t);
}

/* The rows in time go to the timeline as they are counted; a row it cannot place ends
 * the read (the reader's line, profile_read_tsv's error). */
static int
timeline_header_hook(void *arg, const struct tsv *t, char *why, size_t whysz)
{
	return timeline_header(arg, t, why, whysz);
}

static int
timeline_row_hook(void *arg, const struct tsv *t, int64_t cost, int cause, int64_t cost2,
    int cause2, char *why, size_t whysz)
{
	return timeline_row(arg, t, cost, cause_info[cause].name, cost2,
	    cost2 > 0 ? cause_info[cause2].name : NULL, why, whysz);
}

static int
run(int argc, char *argv[])
{
	struct report *rep;
	struct timeline *timeline;
	struct dispatches *ds = NULL;
	const char *from;
	char why[4096];
	int ch, i;
	int flags = 0;

	while ((ch = cli_getopt(argc, argv, &cli)) != -1) {
		switch (ch) {
		case OPT_BY_DISPATCH:
			opt_by_dispatch = 1;
			break;
		case OPT_OCCUPANCY:
			opt_occupancy = 1;
			break;
		case OPT_DISPATCH:
			opt_dispatch = cli_number("--dispatch", optarg, 0, LLONG_MAX);
			break;
		case 'k':
			ro.kernel = optarg;
			break;
		case OPT_UNTRACED:
			flags |= PROFILE_UNTRACED;
			break;
		default:
			if (!report_option(&ro, ch, optarg))
				cli_usage(&cli);
		}
	}
	cli_operands(&cli, &argc, &argv, 0, -1);
	if (cli_strict)
		flags |= PROFILE_STRICT;
	from = argc ? argv[argc - 1] : "stdin";
	if (opt_by_dispatch && (opt_dispatch >= 0 || ro.format == REPORT_JSON || ro.html ||
	    ro.trace_json))
		errx(2, "--by-dispatch is a table of its own: not with --dispatch, --json, --html "
		    "or --trace-json");
	if (opt_occupancy && (opt_by_dispatch || ro.format == REPORT_JSON || ro.html ||
	    ro.trace_json || ro.plain))
		errx(2, "--occupancy is a table of its own: not with --by-dispatch, --json, --html, "
		    "--trace-json or --plain");
	if (opt_by_dispatch)
		flags |= PROFILE_WALL;
	rep = NULL;
	if (!opt_by_dispatch && !opt_occupancy && (rep = report_open(&ro, why, sizeof(why))) == NULL)
		errx(2, "%s", why);
	timeline = rep ? report_timeline(rep) : opt_occupancy ? timeline_new(0, 0, 2) : NULL;
	profile_init(&prof, flags);
	if (rep)
		report_watch(rep, &prof);
	if (opt_by_dispatch || opt_dispatch >= 0) {
		ds = dispatch_new(opt_dispatch, opt_by_dispatch);
		dispatch_watch(ds, &prof);
		if (opt_by_dispatch)
			dispatch_only_kernel(ds, ro.kernel);
		prof.row_kernel = dispatch_row_hook;
		prof.kernel_hook = ds;
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
	if (ds != NULL && dispatch_rows(ds) == 0) {
		if (opt_by_dispatch && ro.kernel != NULL)
			errx(2, "-k %s: no kernel of that name in %s", ro.kernel, from);
		if (opt_dispatch >= 0)
			errx(2, "%s: no rows of dispatch %lld", from, opt_dispatch);
		errx(2, "%s: no rows: no dispatch to show", from);
	}
	if (opt_occupancy) {
		if (timeline_lives(timeline) == 0)
			errx(2, "%s: no wave ended: no occupancy to show", from);
		if (timeline_occupancy(timeline, ro.kernel, stdout, ro.format == REPORT_PRETTY ||
		    (ro.format == REPORT_AUTO && isatty(STDOUT_FILENO))) == 0)
			errx(2, "-k %s: no kernel of that name in %s", ro.kernel, from);
		if (fflush(stdout) != 0 || ferror(stdout))
			err(2, "stdout");
		timeline_free(timeline);
		dispatch_free(ds);
		profile_free(&prof);
		return 0;
	}
	if (opt_by_dispatch) {
		profile_finish(&prof);
		dispatch_put(ds, &prof, ro.format == REPORT_PRETTY ||
		    (ro.format == REPORT_AUTO && isatty(STDOUT_FILENO)), stdout);
		if (fflush(stdout) != 0 || ferror(stdout))
			err(2, "stdout");
		dispatch_free(ds);
		profile_free(&prof);
		return 0;
	}
	if (report_finish(rep, &prof, from, why, sizeof(why)) != 0)
		errx(2, "%s", why);
	dispatch_free(ds);
	profile_free(&prof);
	return 0;
}

CLI_MAIN(run)
