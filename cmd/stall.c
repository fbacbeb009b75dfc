/* stall: where the waves of a capture wait.  The stages of pipeline.md, decode, walk,
 * attr and profile, in one process with rows passed as structs: its output is what
 *   sqtt-dump CAPTURE | sqtt-walk | stall-attr | stall-table
 * writes, for a fraction of the work.  The stages are the library's pipeline (pipeline.h);
 * this is its options, its output and its exit status.  See stall(1). */
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "out.h"
#include "pipeline.h"
#include "profile.h"
#include "report.h"
#include "rowtext.h"
#include "util.h"

static const struct cli cli = {
	.synopsis = {
		"[-aHhjpt] [-e event] [-k kernel] [-n top] [-s key] [--rows | --by-dispatch |",
		"\t--occupancy] [--plain]",
		"\t[--deltas] [--strict] [--untraced] [--dispatch n] [--base [id=]addr] [--threads n]",
		"\t[--html out.html] [--trace-json out.json] capture",
		"[options] --raw [--se n] [-c code --base addr [--name kernel]] stream",
		NULL
	},
	.options = "all/a by-dispatch deltas occupancy strict rows threads untraced "
	    CAPTURE_OPTIONS " " REPORT_OPTIONS,
	.help =
	    "Where the waves of a capture wait: sqtt-dump | sqtt-walk | stall-attr | stall-table,\n"
	    "in one process.\n\n"
	    "  -n, --top N        the N instructions of each kernel with the most cycles"
	    " (default 10)\n"
	    "  -a, --all          every instruction\n"
	    "      --deltas       charge every row its own delta (stall-attr --deltas)\n"
	    "  -j, --json         JSON (stall-table --json)\n"
	    "  -e, --event N      only trace buffer N (sqtt-dump -e)\n"
	    "  -k, --kernel NAME  only the trace buffers of kernel NAME (sqtt-dump -k)\n"
	    "      --dispatch N   only the trace buffers of dispatch N (sqtt-dump --dispatch)\n"
	    "      --by-dispatch  one line per dispatch (stall-table --by-dispatch)\n"
	    "      --occupancy    the waves in flight over time on every SIMD of each buffer\n"
	    "                     (its WAVE_START and WAVE_END tokens), not the table\n"
	    "      --base ID=ADDR a rocprofv3 run: code object ID is loaded at ADDR\n"
	    "      --raw          the capture is a raw stream file (sqtt-dump --raw), and\n"
	    "      --se N         its shader engine (default 0)\n"
	    "  -c, --code FILE    its code object (--base ADDR its load address)\n"
	    "      --name KERNEL  its kernel\n"
	    "  -s, --sort KEY     order by cycles (default), hits or pc\n"
	    "  -p, --pretty       aligned text (the default on a terminal)\n"
	    "  -t, --tsv          TSV (the default otherwise)\n"
	    "      --plain        TSV for other tools: no ## lines, no TOTAL rows, a bare header\n"
	    "  -H, --no-header    the same without the header line\n"
	    "      --strict       a warning is an error (exit 2)\n"
	    "      --rows         the row stream stall-attr writes, not the table\n"
	    "      --untraced     count waves without instruction tokens too\n"
	    "      --html OUT     also write the timeline and the table as one HTML page\n"
	    "      --trace-json OUT  also write the rows as Chrome trace events (Perfetto)\n"
	    "      --threads N    trace buffers walked N at a time (default: the cores)\n"
	    "  -h, --help         this text\n"
	    "      --version      the version\n"
	    "See stall(1).\n",
};

/* A signal ends the run at once, as an error: exit 2, and no half-written picture left.
 * Only a picture this run created is removed, and only while it is the regular file the
 * run made (lstat(2), unlink(2) and _exit(2) are safe in a handler). */
struct picture {
	const char *path;
	dev_t dev;
	ino_t ino;
	int existed;		/* there before the run: never removed */
};
static struct picture picture[2];
static volatile sig_atomic_t pictures_armed;	/* a page or trace is being made */

static void
remove_pictures(void)
{
	struct stat st;
	size_t i;

	for (i = 0; i < 2; i++)
		if (picture[i].path != NULL && !picture[i].existed &&
		    lstat(picture[i].path, &st) == 0 && S_ISREG(st.st_mode) &&
		    st.st_dev == picture[i].dev && st.st_ino == picture[i].ino)
			unlink(picture[i].path);
}

static void
on_signal(int sig)
{
	static const char broken[] = "stall: stdout: the reader went away before the page "
	    "was written\n";

	if (pictures_armed) {
		remove_pictures();
		if (sig == SIGPIPE) {	/* the table was cut short, and the page with it */
			ssize_t r = write(STDERR_FILENO, broken, sizeof(broken) - 1);
			(void)r;
			_exit(2);
		}
	}
	_exit(sig == SIGPIPE ? 0 : 2);	/* a reader that went away took what it wanted */
}

static void
catch_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGPIPE, &sa, NULL);
}

/* Before the pictures are opened: whether each is there already. */
static void
pictures_before(const char *html, const char *trace_json)
{
	struct stat st;

	picture[0].path = html;
	picture[1].path = trace_json;
	for (size_t i = 0; i < 2; i++)
		if (picture[i].path != NULL)
			picture[i].existed = lstat(picture[i].path, &st) == 0 || errno != ENOENT;
}

/* Once opened: the files this run made, removed should a signal end it. */
static void
pictures_made(void)
{
	struct stat st;

	for (size_t i = 0; i < 2; i++)
		if (picture[i].path != NULL && !picture[i].existed) {
			if (lstat(picture[i].path, &st) == 0 && S_ISREG(st.st_mode)) {
				picture[i].dev = st.st_dev;
				picture[i].ino = st.st_ino;
			} else
				picture[i].existed = 1;	/* not a file of ours */
		}
	pictures_armed = picture[0].path != NULL || picture[1].path != NULL;
}

/* --rows: a costed row of the pipeline, a line of the row stream. */
static void
put_row(void *ctx, const struct pipeline_row *r)
{
	char extra[128];

	(void)ctx;
	if (r->retired == NULL || strlen(r->retired) < sizeof(extra) - 96) {
		snprintf(extra, sizeof(extra), "\t%" PRId64 "\t%s\t%s\t%" PRId64 "\t%s", r->cost,
		    cause_name(r->cause), r->retired ? r->retired : "-", r->cost2,
		    cause_name(r->cause2));
		rowtext_put(r->walk, extra);
	} else {
		char *big;
		if (asprintf(&big, "\t%" PRId64 "\t%s\t%s\t%" PRId64 "\t%s", r->cost,
		    cause_name(r->cause), r->retired, r->cost2, cause_name(r->cause2)) < 0)
			err(2, NULL);
		rowtext_put(r->walk, big);
		free(big);
	}
}

static void
put_warnings(const struct pipeline *pl, size_t *n)
{
	const char *const *w;
	uint64_t more;
	size_t i;

	w = pipeline_warnings(pl, n, &more);
	for (i = 0; i < *n; i++)
		warning_out("%s", w[i]);
	if (more)
		warning_out("%" PRIu64 " more warning%s", more, more == 1 ? "" : "s");
	*n += (size_t)more;
}

static int
run(int argc, char *argv[])
{
	struct report_opts ro = { .top = 10, .format = REPORT_AUTO, .sort = REPORT_CYCLES };
	struct pipeline_opts po = { 0 };
	struct report *rep = NULL;
	struct occupancy *occ = NULL;	/* the --occupancy table's, or the page's */
	int occ_table = 0;
	struct pipeline *pl;
	struct profile prof;
	const char *path;
	char why[1024];
	int ch, flags = 0;
	size_t nwarnings;

	while ((ch = cli_getopt(argc, argv, &cli)) != -1) {
		switch (ch) {
		case 'a':
			ro.top = 0;
			break;
		case 'r':
			po.deltas = 1;
			break;
		case OPT_BY_DISPATCH:
			po.by_dispatch = 1;
			break;
		case OPT_ROWS:
			po.rows = 1;
			break;
		case OPT_OCCUPANCY:
			occ = occupancy_new();
			occ_table = 1;
			break;
		case OPT_UNTRACED:
			flags |= PROFILE_UNTRACED;
			break;
		case OPT_THREADS:
			po.threads = (long)cli_number("--threads", optarg, 1, PIPELINE_MAX_WORKERS);
			break;
		default:
			if (!capture_option(&po.copt, ch, optarg) && !report_option(&ro, ch, optarg))
				cli_usage(&cli);
		}
	}
	cli_operands(&cli, &argc, &argv, 1, 1);
	if (cli_strict)
		flags |= PROFILE_STRICT;
	if (po.rows && (ro.html || ro.trace_json))
		errx(2, "--rows writes the row stream: no --html or --trace-json with it");
	if (po.by_dispatch && (po.rows || po.copt.dispatch_set || ro.format == REPORT_JSON ||
	    ro.html || ro.trace_json))
		errx(2, "--by-dispatch is a table of its own: not with --rows, --dispatch, --json, "
		    "--html or --trace-json");
	if (occ_table && (po.rows || po.by_dispatch || ro.format == REPORT_JSON || ro.html ||
	    ro.trace_json))
		errx(2, "--occupancy is a table of its own: not with --rows, --by-dispatch, --json, "
		    "--html or --trace-json");
	path = argv[0];
	catch_signals();

	if ((pl = pipeline_open(path, &po, why, sizeof(why))) == NULL) {
		fflush(stdout);
		errx(2, "%s", why);
	}
	pipeline_occupancy(pl, occ);
	profile_init(&prof, flags);
	if (!po.rows && !po.by_dispatch && !occ_table) {
		pictures_before(ro.html, ro.trace_json);
		if ((rep = report_open(&ro, why, sizeof(why))) == NULL)
			errx(2, "%s", why);
		pictures_made();
		report_watch(rep, &prof);	/* its ##event lines: the dispatches' clocks */
		pipeline_draw(pl, report_timeline(rep));
		if (ro.html && report_timeline(rep) != NULL) {
			/* the page's occupancy bands of every SIMD, from the tokens */
			occ = occupancy_new();
			pipeline_occupancy(pl, occ);
			timeline_set_occupancy(report_timeline(rep), occ);
		}
	}
	if (po.rows) {
		out_flush();
		pipeline_put_context(pl, stdout);
		rowtext_header("\tcost\tcause\tretired\tcost2\tcause2");
	}
	if (pipeline_run(pl, &prof, put_row, NULL) != 0) {
		out_flush();
		errx(2, "%s", pipeline_error(pl));
	}
	if (po.rows) {
		out_flush();
		if (fflush(stdout) != 0 || ferror(stdout))
			err(2, "stdout");
	} else if (occ_table) {
		if (occupancy_waves(occ) == 0)
			errx(2, "%s: no WAVE_START or WAVE_END: no occupancy to show", path);
		occupancy_put(occ, stdout, ro.format == REPORT_PRETTY ||
		    (ro.format == REPORT_AUTO && isatty(STDOUT_FILENO)));
		if (fflush(stdout) != 0 || ferror(stdout))
			err(2, "stdout");
	} else if (po.by_dispatch) {
		profile_finish(&prof);
		if (prof.nkernel == 0)
			errx(2, "%s: no rows: no dispatch to show", path);
		dispatch_put(pipeline_dispatches(pl), &prof, ro.format == REPORT_PRETTY ||
		    (ro.format == REPORT_AUTO && isatty(STDOUT_FILENO)), stdout);
		if (fflush(stdout) != 0 || ferror(stdout))
			err(2, "stdout");
	} else {
		if (report_finish(rep, &prof, path, why, sizeof(why)) != 0)
			errx(2, "%s", why);
		pictures_armed = 0;
	}
	put_warnings(pl, &nwarnings);
	if (cli_strict && nwarnings)
		errx(2, "%s: --strict: %zu warning%s", path, nwarnings, nwarnings == 1 ? "" : "s");
	profile_free(&prof);
	pipeline_close(pl);
	occupancy_free(occ);
	free(po.copt.bases);
	return 0;
}

CLI_MAIN(run)
