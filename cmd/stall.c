/* stall: where the waves of a capture wait.  The stages of pipeline.md, decode, walk,
 * attr and profile, in one process with rows passed as structs: its output is what
 *   sqtt-dump CAPTURE | sqtt-walk | stall-attr | stall-table
 * writes, for a fraction of the work.  See stall(1). */
#include <err.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <threads.h>
#include <sys/stat.h>
#include <unistd.h>

#include "attr.h"
#include "capture.h"
#include "cli.h"
#include "dispatch.h"
#include "input.h"
#include "meta.h"
#include "out.h"
#include "profile.h"
#include "report.h"
#include "rowtext.h"
#include "sqtt.h"
#include "util.h"
#include "walk.h"

static const struct cli cli = {
	.synopsis = {
		"[-aHhjpt] [-e event] [-k kernel] [-n top] [-s key] [--rows | --by-dispatch] [--plain]",
		"\t[--deltas] [--strict] [--untraced] [--dispatch n] [--base [id=]addr] [--threads n]",
		"\t[--html out.html] [--trace-json out.json] capture",
		"[options] --raw [--se n] [-c code --base addr [--name kernel]] stream",
		NULL
	},
	.options = "all/a by-dispatch deltas strict rows threads untraced "
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

static const char *capture_path;
static int opt_deltas, opt_rows, opt_by_dispatch, profile_flags;
/* --by-dispatch: each buffer's dispatch key, made before the workers start (they only
 * read it), by event number */
static struct dispatches *dispatches;
static const char **event_key;
static struct capture cap;
/* The capture's target (gfx1100 when it says none, target_said 0). */
static const struct isa_target *target;
static int target_said;
static struct timeline *timeline;	/* with one worker only */
static mtx_t lock;		/* the warnings and the first error, of every worker */

/* The instruction's profile line, made once per (program, index). */
struct lines {
	struct profile_line **line;
	const char **kernel;	/* the escaped kernel the line was made for */
	size_t n;
};

/* The stages for some of the trace buffers: a walker, costs and causes, and the sums of
 * its rows.  Buffers are independent: several workers run at once and their sums are
 * added at the end. */
struct worker {
	struct walker *walker;
	struct attr *attr;
	struct profile prof;
	const char *escaped_of, *escaped;	/* the kernel column as rows have it (escaped) */
	char **escapes;				/* every one made, freed at the end */
	size_t nescapes;
	long key_event;				/* --by-dispatch: the event escaped is of */
	size_t escaped_kernel;			/* and its profile kernel */
	struct lines *lines;			/* by program number */
	size_t nlines;
	size_t *events, nevents;		/* indexes into cap.ev */
	uint64_t bytes;
};

#define MAX_WORKERS 16

/* Warnings wait for the end of the run: a run that fails says one line, its error.  At
 * most MAX_WARNINGS are kept, the rest counted. */
#define MAX_WARNINGS 1000
static char **warnings;
static size_t nwarnings;
static uint64_t warnings_dropped;
static char *first_error;	/* a program that could not be walked: the run fails */

static void
keep_warning(void *ctx, const char *msg, int error)
{
	(void)ctx;
	mtx_lock(&lock);
	if (error) {
		if (first_error == NULL && asprintf(&first_error, "%s", msg) < 0)
			err(2, NULL);
	} else if (nwarnings == MAX_WARNINGS) {
		warnings_dropped++;
	} else {
		warnings = xreallocarray(warnings, nwarnings + 1, sizeof(*warnings));
		if (asprintf(&warnings[nwarnings], "%s", msg) < 0)
			err(2, NULL);
		nwarnings++;
	}
	mtx_unlock(&lock);
}

static void
put_warnings(void)
{
	size_t i;

	for (i = 0; i < nwarnings; i++)
		warning_out("%s", warnings[i]);
	if (warnings_dropped)
		warning_out("%" PRIu64 " more warnings", warnings_dropped);
}

static struct profile_line *
line_of(struct worker *wk, const struct walk_row *r, const char *pc)
{
	struct lines *ls;

	if (r->idx == SIZE_MAX)
		return profile_line(&wk->prof, wk->escaped_kernel, pc, r->in->text);
	if (r->prog >= wk->nlines) {
		wk->lines = xreallocarray(wk->lines, r->prog + 1, sizeof(*wk->lines));
		memset(wk->lines + wk->nlines, 0, (r->prog + 1 - wk->nlines) * sizeof(*wk->lines));
		wk->nlines = r->prog + 1;
	}
	ls = &wk->lines[r->prog];
	if (r->idx >= ls->n) {
		size_t n = r->idx + 1 > 2 * ls->n ? r->idx + 1 : 2 * ls->n;
		ls->line = xreallocarray(ls->line, n, sizeof(*ls->line));
		ls->kernel = xreallocarray(ls->kernel, n, sizeof(*ls->kernel));
		memset(ls->line + ls->n, 0, (n - ls->n) * sizeof(*ls->line));
		memset(ls->kernel + ls->n, 0, (n - ls->n) * sizeof(*ls->kernel));
		ls->n = n;
	}
	if (ls->line[r->idx] == NULL || ls->kernel[r->idx] != wk->escaped) {
		ls->line[r->idx] = profile_line(&wk->prof, wk->escaped_kernel, pc, r->in->text);
		ls->kernel[r->idx] = wk->escaped;
	}
	return ls->line[r->idx];
}

/* A signal ends the run at once, as an error: exit 2, and no half-written picture left
 * (unlink(2) and _exit(2) are safe in a handler). */
static const char *volatile picture[2];

static void
on_signal(int sig)
{
	if (picture[0])
		unlink(picture[0]);
	if (picture[1])
		unlink(picture[1]);
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


/* Stage 3 out: a costed row, to the row stream or to the profile. */
static void
costed(void *ctx, const void *data, size_t len, int64_t cost, enum cause cause,
    const char *retired, int meta)
{
	struct worker *wk = ctx;
	const struct walk_row *r = data;
	struct profile_row pr;
	char pc[24], extra[64];

	(void)len;
	if (meta)
		return;
	if (r->kernel != wk->escaped_of || (event_key != NULL && r->event != wk->key_event)) {
		/* kept: lines remember it; with --by-dispatch each dispatch a kernel of its own */
		if (event_key != NULL) {
			wk->escaped = event_key[r->event];
		} else {
			char *e = meta_escape(r->kernel);
			wk->escapes = xreallocarray(wk->escapes, wk->nescapes + 1,
			    sizeof(*wk->escapes));
			wk->escapes[wk->nescapes++] = e;
			wk->escaped = e;
		}
		wk->escaped_of = r->kernel;
		wk->key_event = r->event;
		if (!opt_rows)
			wk->escaped_kernel = profile_kernel(&wk->prof, wk->escaped);
	}
	if (opt_rows) {
		if (retired == NULL || strlen(retired) < sizeof(extra) - 48) {
			snprintf(extra, sizeof(extra), "\t%" PRId64 "\t%s\t%s", cost, cause_name(cause),
			    retired ? retired : "-");
			rowtext_put(r, extra);
		} else {
			char *big;
			if (asprintf(&big, "\t%" PRId64 "\t%s\t%s", cost, cause_name(cause),
			    retired) < 0)
				err(2, NULL);
			rowtext_put(r, big);
			free(big);
		}
		return;
	}
	*fmt_hex(pc, r->pc) = '\0';
	pr.kernel = wk->escaped;
	pr.pc = pc;
	pr.inst = r->in->text;
	pr.cause = cause;
	pr.cost = cost;
	pr.wave_end = r->token[0] == 'W' && strcmp(r->token, "WAVE_END") == 0;
	pr.timed = 1;
	pr.event = (uint64_t)r->event;
	pr.start = (int64_t)(r->time - r->delta);
	pr.end = (int64_t)r->time;
	if (timeline && (cause != CAUSE_UNTRACED || (profile_flags & PROFILE_UNTRACED))) {
		struct tl_row t = { 0 };
		t.kernel = wk->escaped;
		t.pc = pc;
		t.inst = r->in->text;
		t.cause = cause_name(cause);
		t.event = (uint64_t)r->event;
		t.se = (uint64_t)(r->se < 0 ? 0 : r->se);
		t.wave = r->wave;
		t.slot = r->slot;
		t.time = (int64_t)r->time;
		t.delta = (int64_t)r->delta;
		t.cost = cost;
		if (timeline_add(timeline, &t, pr.wave_end) != 0)
			errx(2, "%s: %s", capture_path, timeline_error(timeline));
	}
	if (profile_add(&wk->prof, wk->escaped_kernel, cause == CAUSE_UNTRACED &&
	    !(profile_flags & PROFILE_UNTRACED) ? NULL : line_of(wk, r, pc), &pr) != 0)
		errx(2, "%s: kernel %s: cycles: the sum passes 2^63-1", capture_path, wk->escaped);
}

/* attr holds the walker's row structs themselves while a barrier waits */
static const void *
row_bytes(void *ctx, const void *handle, size_t *len)
{
	(void)ctx;
	*len = sizeof(struct walk_row);
	return handle;
}

static void
attr_warning(void *ctx, const char *msg)
{
	char *m;

	if (asprintf(&m, "%s: %s", capture_path, msg) < 0)
		err(2, NULL);
	keep_warning(ctx, m, 0);
	free(m);
}

/* Stage 2 out: a row of the walk, to stage 3. */
static void
walked(void *ctx, const struct walk_row *r)
{
	struct worker *wk = ctx;
	struct attr_row a;

	a.event = (uint64_t)r->event;
	a.wave = r->wave;
	a.time = r->time;
	a.delta = r->delta;
	a.pc_known = 1;
	a.pc = r->pc;
	a.token = r->token;
	a.inst = r->in->text;
	a.cls = r->in->cls;
	a.dep = r->in->dep_name;
	if (attr_row(wk->attr, &a, r) != 0)
		errx(2, "%s: event %ld: %s", capture_path, r->event, attr_error(wk->attr));
}

/* The tokens the walk needs; the rest of a stream is decoded and passed over. */
static int
walked_type(enum sqtt_type t)
{
	switch (t) {
	case TOK_HEADER: case TOK_REG: case TOK_WAVE_START: case TOK_WAVE_END: case TOK_INST:
	case TOK_VALU_INST: case TOK_IMM_ONE: case TOK_IMMEDIATE: case TOK_NEW_PC:
		return 1;
	default:
		return 0;
	}
}

/* Stage 1: one trace buffer decoded, its tokens to stage 2. */
static void
walk_buffer(struct worker *wk, const struct event *e)
{
	struct sqtt_decoder d;
	struct sqtt_token tok;
	struct sqtt_fields f;
	struct walk_packet pk;
	struct capture_stream src;
	int r;

	capture_decoder(e, &d, &src);
	pk.event = (long)e->index;
	pk.se = e->se;
	while ((r = sqtt_next(&d, &tok)) > 0) {
		if (!walked_type(tok.type))
			continue;
		sqtt_fields(d.gen, &tok, &f);
		pk.time = tok.time;
		pk.type = tok.type;
		pk.wave = f.wave;
		pk.simd = f.simd;
		pk.wgp = f.wgp;
		pk.sa = f.sa;
		pk.op = f.op;
		pk.raw = tok.raw;
		pk.raw_hi = tok.raw_hi;
		if (walk_packet(wk->walker, &pk) != 0)
			errx(2, "%s: event %u: %s", capture_path, e->index, walk_error(wk->walker));
	}
	if (r < 0) {
		out_flush();
		if (e->blob != NULL)
			errx(2, "%s: event %u: %s", capture_path, e->index, d.error);
		errx(2, "%s: %s", e->file, d.error);
	}
	if (sqtt_is_noise(d.unknown, d.ntokens))
		errx(2, "%s: event %u: %" PRIu64 " of %" PRIu64 " tokens UNKNOWN: random bytes or a "
		    "damaged stream, not gfx11 SQTT", e->blob ? capture_path : e->file, e->index,
		    d.unknown, d.ntokens);
	if (d.unknown) {
		char *m;
		if (asprintf(&m, "%s: event %u: %" PRIu64 " UNKNOWN tokens (not a gfx11 stream, "
		    "or damaged)", capture_path, e->index, d.unknown) < 0)
			err(2, NULL);
		keep_warning(NULL, m, 0);
		free(m);
	}
	if (d.lost) {
		char *m;
		if (asprintf(&m, "%s: event %u: %" PRIu64 " TIMESTAMP tokens report lost packets",
		    capture_path, e->index, d.lost) < 0)
			err(2, NULL);
		keep_warning(NULL, m, 0);
		free(m);
	}
	capture_decoder_end(&d, &src);
}

static struct capture_opts copt;

static int
selected(const struct capture *c, const struct event *e, void *arg)
{
	(void)arg;
	return capture_selects(&copt, c, e, 0);
}

static void
tag_of(const struct program *p, char *buf, size_t sz)
{
	if (p == NULL || p->tag < 0)
		snprintf(buf, sz, "-");
	else
		snprintf(buf, sz, "%" PRId64, p->tag);
}

/* The context lines the pipeline would carry: the capture's, then stall-attr's; into
 * the row stream, or kept for the table. */
static void
put_context(struct profile *prof)
{
	char *text = NULL, *line, *next;
	size_t len = 0;
	FILE *mem;

	if ((mem = open_memstream(&text, &len)) == NULL)
		err(2, NULL);
	capture_put_meta(mem, &cap, 0, selected, NULL);
	fprintf(mem, "%s\n", attr_meta_line(opt_deltas));
	if (fclose(mem) != 0)
		err(2, NULL);
	if (opt_rows) {
		out_flush();
		fwrite(text, 1, len, stdout);
		rowtext_header("\tcost\tcause\tretired");
	} else {
		for (line = text; *line; line = next) {
			next = strchr(line, '\n');
			*next++ = '\0';
			profile_keep_line(prof, line);
		}
		profile_set_view(prof, opt_deltas ? "raw" : "cause");
	}
	free(text);
}

static void
worker_init(struct worker *wk)
{
	size_t i;

	memset(wk, 0, sizeof(*wk));
	profile_init(&wk->prof, profile_flags);
	wk->walker = walk_new(walked, wk);
	walk_set_warn(wk->walker, keep_warning, NULL);
	wk->key_event = -1;
	wk->attr = attr_new(opt_deltas, costed, attr_warning, row_bytes, wk);
	attr_list_retired(wk->attr, opt_rows);
	attr_model(wk->attr, target->model);
	walk_target(wk->walker, target_said ? target : NULL);
	walk_source(wk->walker, cap.path);
	for (i = 0; i < cap.nprog; i++) {
		const struct program *p = &cap.prog[i];
		size_t len = 0;
		const uint8_t *img = capture_code(&cap, i, &len);
		char tag[24];

		tag_of(p, tag, sizeof(tag));
		walk_program(wk->walker, p->name, tag, p->base, p->file, img, len);
	}
	for (i = 0; i < cap.nev; i++) {
		const struct program *p = capture_program(&cap, &cap.ev[i]);
		char tag[24];

		tag_of(p, tag, sizeof(tag));
		if (selected(&cap, &cap.ev[i], NULL))
			walk_event(wk->walker, (long)cap.ev[i].index, p ? p->name : "-", tag);
	}
}

static void
worker_free(struct worker *wk)
{
	size_t i;

	walk_free(wk->walker);
	attr_free(wk->attr);
	profile_free(&wk->prof);
	for (i = 0; i < wk->nlines; i++) {
		free(wk->lines[i].line);
		free(wk->lines[i].kernel);
	}
	free(wk->lines);
	for (i = 0; i < wk->nescapes; i++)
		free(wk->escapes[i]);
	free(wk->escapes);
	free(wk->events);
}

/* A worker's buffers through the stages. */
static int
work(void *arg)
{
	struct worker *wk = arg;
	size_t i;

	for (i = 0; i < wk->nevents; i++)
		walk_buffer(wk, &cap.ev[wk->events[i]]);
	if (walk_end(wk->walker) != 0) {	/* the wrong code object */
		out_flush();
		errx(2, "%s: %s", capture_path, walk_error(wk->walker));
	}
	if (attr_end(wk->attr) != 0)
		errx(2, "%s: %s", capture_path, attr_error(wk->attr));
	return 0;
}

/* The selected buffers shared out, the largest first to the least loaded worker.  One
 * worker for the row stream and the pictures (their rows go out in stream order), and,
 * unless --threads asked for more, for captures too small to pay for a second. */
#define PARALLEL_MIN (4u << 20)
/* A buffer's weight: its length, or its file's (a stream read from a file has no length
 * until it is read). */
static uint64_t
weight(const struct event *e)
{
	struct stat st;

	if (e->blob != NULL || e->file == NULL)
		return e->len;
	return stat(e->file, &st) == 0 ? (uint64_t)st.st_size : 1;
}

static size_t
share_out(struct worker *w, size_t nworkers, int asked)
{
	size_t i, j, k, n = 0, *order;
	uint64_t total = 0, *wt;

	order = xcalloc(cap.nev + 1, sizeof(*order));
	wt = xcalloc(cap.nev + 1, sizeof(*wt));
	for (i = 0; i < cap.nev; i++)
		if (selected(&cap, &cap.ev[i], NULL)) {
			wt[i] = weight(&cap.ev[i]);
			order[n++] = i;
			total += wt[i];
		}
	if (n < 2 || (total < PARALLEL_MIN && !asked))
		nworkers = 1;
	if (nworkers > n && n > 0)
		nworkers = n;
	for (i = 1; nworkers > 1 && i < n; i++)	/* by size, largest first */
		for (j = i; j > 0 && wt[order[j]] > wt[order[j - 1]]; j--) {
			size_t t = order[j];
			order[j] = order[j - 1];
			order[j - 1] = t;
		}
	for (i = 0; i < n; i++) {
		for (k = 0, j = 1; j < nworkers; j++)
			if (w[j].bytes < w[k].bytes)
				k = j;
		w[k].events = xreallocarray(w[k].events, w[k].nevents + 1, sizeof(size_t));
		w[k].events[w[k].nevents++] = order[i];
		w[k].bytes += wt[order[i]];
	}
	for (k = 0; k < nworkers; k++)	/* each worker's buffers in stream order */
		for (i = 1; i < w[k].nevents; i++)
			for (j = i; j > 0 && w[k].events[j] < w[k].events[j - 1]; j--) {
				size_t t = w[k].events[j];
				w[k].events[j] = w[k].events[j - 1];
				w[k].events[j - 1] = t;
			}
	free(order);
	free(wt);
	return nworkers;
}

int
main(int argc, char *argv[])
{
	struct report_opts ro = { .top = 10, .format = REPORT_AUTO, .sort = REPORT_CYCLES };
	struct report *rep = NULL;
	struct worker w[MAX_WORKERS];
	thrd_t thread[MAX_WORKERS];
	struct profile *prof = &w[0].prof;
	char why[512];
	size_t i, nselected = 0, nworkers, ninit;
	uint64_t nrows;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN), opt_threads = 0;
	int ch;

	while ((ch = cli_getopt(argc, argv, &cli)) != -1) {
		switch (ch) {
		case 'a':
			ro.top = 0;
			break;
		case 'r':
			opt_deltas = 1;
			break;
		case OPT_BY_DISPATCH:
			opt_by_dispatch = 1;
			break;
		case OPT_ROWS:
			opt_rows = 1;
			break;
		case OPT_UNTRACED:
			profile_flags |= PROFILE_UNTRACED;
			break;
		case OPT_THREADS:
			opt_threads = cli_number("--threads", optarg, 1, MAX_WORKERS);
			break;
		default:
			if (!capture_option(&copt, ch, optarg) && !report_option(&ro, ch, optarg))
				cli_usage(&cli);
		}
	}
	cli_operands(&cli, &argc, &argv, 1, 1);
	if (cli_strict)
		profile_flags |= PROFILE_STRICT;
	if (opt_rows && (ro.html || ro.trace_json))
		errx(2, "--rows writes the row stream: no --html or --trace-json with it");
	if (opt_by_dispatch && (opt_rows || copt.dispatch_set || ro.format == REPORT_JSON ||
	    ro.html || ro.trace_json))
		errx(2, "--by-dispatch is a table of its own: not with --rows, --dispatch, --json, "
		    "--html or --trace-json");
	capture_path = argv[0];
	picture[0] = ro.html;
	picture[1] = ro.trace_json;
	catch_signals();

	capture_open(&cap, capture_path, &copt);
	if ((target = isa_stream_target(cap.target, &target_said, why, sizeof(why))) == NULL)
		errx(2, "%s: %s", capture_path, why);
	for (i = 0; i < cap.nev; i++)
		nselected += selected(&cap, &cap.ev[i], NULL);
	if (nselected == 0)
		capture_selects_none(&copt, capture_path, cap.nev);
	if (opt_by_dispatch) {
		dispatches = dispatch_new(-1, 1);
		event_key = xcalloc(cap.nev + 1, sizeof(*event_key));
		for (i = 0; i < cap.nev; i++) {
			const struct program *p = capture_program(&cap, &cap.ev[i]);
			char *name = meta_escape(p ? p->name : "-");
			dispatch_event(dispatches, cap.ev[i].index, cap.ev[i].dispatch);
			event_key[cap.ev[i].index] = dispatch_kernel(dispatches, cap.ev[i].index, name);
			free(name);
		}
		profile_flags |= PROFILE_WALL;
	}
	if (mtx_init(&lock, mtx_plain) != thrd_success)
		errx(2, "cannot make a lock");
	if (!opt_rows && !opt_by_dispatch) {
		rep = report_open(&ro);
		timeline = report_timeline(rep);
	}
	nworkers = opt_threads ? (size_t)opt_threads : ncpu > 0 ? (size_t)ncpu : 1;
	if (nworkers > MAX_WORKERS)
		nworkers = MAX_WORKERS;
	if (opt_rows || timeline)
		nworkers = 1;
	for (i = 0; i < nworkers; i++)
		worker_init(&w[i]);
	ninit = nworkers;
	nworkers = share_out(w, nworkers, opt_threads > 0);
	put_context(prof);
	sqtt_prepare();
	walk_prepare(target_said ? target : NULL);
	for (i = 1; i < nworkers; i++)
		if (thrd_create(&thread[i], work, &w[i]) != thrd_success)
			errx(2, "cannot start a thread");
	work(&w[0]);
	for (i = 1; i < nworkers; i++) {
		thrd_join(thread[i], NULL);
		if (profile_merge(prof, &w[i].prof) != 0)
			errx(2, "%s: cycles: a sum passes 2^63-1", capture_path);
	}
	if (first_error != NULL) {
		out_flush();
		errx(2, "%s", first_error);
	}
	for (i = 0, nrows = 0; i < nworkers; i++)
		nrows += walk_nrows(w[i].walker);
	if (nrows == 0) {	/* a walk with nothing to show, whatever made it so */
		out_flush();
		errx(2, "%s: %s", capture_path, walk_nothing(w[0].walker));
	}
	if (opt_rows) {
		out_flush();
		if (fflush(stdout) != 0 || ferror(stdout))
			err(2, "stdout");
	} else if (opt_by_dispatch) {
		profile_finish(prof);
		if (prof->nkernel == 0)
			errx(2, "%s: no rows: no dispatch to show", capture_path);
		dispatch_put(dispatches, prof, ro.format == REPORT_PRETTY ||
		    (ro.format == REPORT_AUTO && isatty(STDOUT_FILENO)), stdout);
		if (fflush(stdout) != 0 || ferror(stdout))
			err(2, "stdout");
	} else {
		report_finish(rep, prof, capture_path);
		picture[0] = picture[1] = NULL;
	}
	put_warnings();
	if (cli_strict && (nwarnings || warnings_dropped))
		errx(2, "%s: --strict: %zu warnings", capture_path, nwarnings +
		    (size_t)warnings_dropped);
	for (i = 0; i < ninit; i++)
		worker_free(&w[i]);
	for (i = 0; i < nwarnings; i++)
		free(warnings[i]);
	free(warnings);
	dispatch_free(dispatches);
	free(event_key);
	capture_close(&cap);
	free(copt.bases);
	mtx_destroy(&lock);
	return 0;
}
