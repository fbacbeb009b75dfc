#include <err.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "dispatch.h"
#include "html.h"
#include "json.h"
#include "report.h"
#include "tracejson.h"
#include "util.h"

/* the bounds of the page: lanes per kernel, bars in all */
#define TIMELINE_LANES 1024
#define TIMELINE_BARS 200000

struct report {
	struct report_opts o;
	struct timeline *timeline;	/* the rows in time, for --html and --trace-json */
	FILE *html_fp;
	struct tracejson *trace;
	struct dispatches *dispatches;	/* of the watched profile */
	int done;
};

/* At an exit on an error: a half-written page or trace must not look like one. */
static struct report *open_report;

static void
discard_pictures(void)
{
	struct report *r = open_report;

	if (r == NULL || r->done)
		return;
	if (r->html_fp)
		discard_output(r->html_fp, r->o.html);
	if (r->trace)
		tracejson_discard(r->trace);
}

struct report *
report_open(const struct report_opts *o, char *why, size_t whysz)
{
	struct report *r;

	if (o->plain && o->format != REPORT_AUTO && o->format != REPORT_TSV) {
		fail_why(why, whysz, "--plain and --no-header are TSV: not with --json or --pretty");
		return NULL;
	}
	r = xcalloc(1, sizeof(*r));
	r->o = *o;
	if (r->o.format == REPORT_AUTO)
		r->o.format = r->o.plain || !isatty(STDOUT_FILENO) ? REPORT_TSV : REPORT_PRETTY;
	if (o->html || o->trace_json) {
		if (o->html && (r->html_fp = fopen(o->html, "w")) == NULL) {
			fail_why(why, whysz, "%s: %s", o->html, strerror(errno));
			free(r);
			return NULL;
		}
		/* the page begun is discarded, as at any error: no empty page left */
		if (o->trace_json && (r->trace = tracejson_open(o->trace_json, why, whysz)) == NULL) {
			if (r->html_fp)
				discard_output(r->html_fp, o->html);
			free(r);
			return NULL;
		}
		open_report = r;
		atexit(discard_pictures);
		r->timeline = timeline_new(o->html != NULL, TIMELINE_LANES, TIMELINE_BARS);
		if (r->trace)
			timeline_sink(r->timeline, tracejson_row, r->trace);
	}
	return r;
}

static int64_t
dispatch_hook(void *arg, uint64_t event)
{
	return dispatch_of_event(arg, event);
}

void
report_watch(struct report *r, const struct profile *p)
{
	if (r->trace == NULL)
		return;
	if (r->dispatches == NULL)
		r->dispatches = dispatch_new(-1, 0);
	dispatch_watch(r->dispatches, p);
	tracejson_dispatches(r->trace, dispatch_hook, r->dispatches);
}

struct timeline *
report_timeline(struct report *r)
{
	return r->timeline;
}

int
report_option(struct report_opts *o, int ch, const char *arg)
{
	switch (ch) {
	case OPT_HTML:
		o->html = arg;
		return 1;
	case OPT_TRACE_JSON:
		o->trace_json = arg;
		return 1;
	case OPT_PLAIN:
		o->plain |= PROFILE_PUT_PLAIN;
		return 1;
	case 'H':
		o->plain = PROFILE_PUT_PLAIN | PROFILE_PUT_NOHEADER;
		return 1;
	case 'j':
		o->format = REPORT_JSON;
		return 1;
	case 'n':
		o->top = cli_number("--top", arg, 0, LLONG_MAX);
		return 1;
	case 'p':
		o->format = REPORT_PRETTY;
		return 1;
	case 's':
		if (report_sort_key(arg, &o->sort) != 0)
			errx(2, "-s: unknown sort key '%s' (cycles, hits, pc)", arg);
		return 1;
	case 't':
		o->format = REPORT_TSV;
		return 1;
	default:
		return 0;
	}
}

int
report_sort_key(const char *s, enum report_sort *k)
{
	if (strcmp(s, "cycles") == 0)
		*k = REPORT_CYCLES;
	else if (strcmp(s, "hits") == 0)
		*k = REPORT_HITS;
	else if (strcmp(s, "pc") == 0)
		*k = REPORT_PC;
	else
		return -1;
	return 0;
}

/* The page embeds the table exactly as --json writes it to stdout. */
static int
put_html(struct report *r, const struct profile *prof, char *why, size_t whysz)
{
	FILE *mem, *out;
	char *json = NULL;
	size_t len = 0;

	if ((mem = open_memstream(&json, &len)) == NULL)
		return fail_why(why, whysz, "%s", strerror(errno));
	profile_put_json(prof, mem);
	if (fclose(mem) != 0) {
		free(json);
		return fail_why(why, whysz, "%s", strerror(errno));
	}
	html_write(r->html_fp, json, len, r->timeline);
	free(json);
	if (fflush(r->html_fp) != 0 || ferror(r->html_fp))
		return fail_why(why, whysz, "%s: %s", r->o.html, strerror(errno));
	out = r->html_fp;
	r->html_fp = NULL;
	if (fclose(out) != 0)
		return fail_why(why, whysz, "%s: %s", r->o.html, strerror(errno));
	return 0;
}

static int
width_i64(int64_t v)
{
	return snprintf(NULL, 0, "%" PRId64, v);
}

static void
put_pretty(const struct profile *prof)
{
	size_t i, j, c, order[NCAUSE];
	const struct profile_kernel *k;
	char *name;
	int wc, wh, wp;

	if (prof->nkernel == 0)
		printf(" No rows: nothing was counted.\n");
	for (i = 0; i < prof->nkernel; i++) {
		k = &prof->kernels[i];
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
		/* cycles summed over waves, not a duration; hits are issues (and wave ends) */
		printf("%s Kernel %s: %" PRIu64 " wave%s, %" PRId64 " cycles of their lifetimes "
		    "summed, %" PRIu64 " issue%s\n", i ? "\n" : "", name, k->waves,
		    k->waves == 1 ? "" : "s", k->cycles, k->hits, k->hits == 1 ? "" : "s");
		free(name);
		printf(" Counted: %s\n", profile_counted(prof));
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
			printf("; the top %zu of %zu instructions by cycles", k->nshow - k->nspecial,
			    k->nline - k->nspecial);
		printf("\n\n");
		printf(" %7s  %*s  %*s  %-*s  %-12s  %s\n", "Percent", wc, "Cycles", wh, "Hits",
		    wp, "Address", "Cause", "Instruction");
		for (j = 0; j < k->nshow; j++) {
			const struct profile_line *l = k->lines[j];
			char *pc = text_printable(l->kind == LINE_INST ? l->pc : ""),
			    *inst = text_printable(l->inst);
			printf(" %7.2f  %*" PRId64 "  %*" PRIu64 "  %-*s  %-12s  %s\n",
			    profile_pct(l->cycles, k->cycles), wc, l->cycles, wh, l->hits, wp, pc,
			    cause_info[profile_line_dominant(l)].name, inst);
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

/* A result that matched nothing is an error, not an empty table: no row, or no kernel of
 * the name chosen.  The kernel kept is moved to the front; the others are not shown.  A
 * kernel of untraced waves only is no empty result: its TOTAL row says so. */
static int
select_kernel(const struct report *r, struct profile *prof, const char *from, char *why,
    size_t whysz)
{
	long k;

	if (r->o.kernel != NULL) {
		if ((k = profile_find(prof, r->o.kernel)) < 0)
			return fail_why(why, whysz, "-k %s: no kernel of that name in %s (%zu kernel%s)",
			    r->o.kernel, from, prof->nkernel, prof->nkernel == 1 ? "" : "s");
		if (k > 0) {
			struct profile_kernel t = prof->kernels[0];
			prof->kernels[0] = prof->kernels[k];
			prof->kernels[k] = t;
		}
		prof->nkernel = 1;
	}
	if (prof->nkernel == 0)
		return fail_why(why, whysz, "%s: no rows: nothing to count", from);
	return 0;
}

int
report_finish(struct report *r, struct profile *prof, const char *from, char *why,
    size_t whysz)
{
	int (*cmp)(const void *, const void *);
	size_t j, n, shown;

	/* a malformed ##event line the trace's clocks met (its events' dispatches unknown) */
	if (r->dispatches != NULL && dispatch_error(r->dispatches) != NULL)
		return fail_why(why, whysz, "%s: %s", from, dispatch_error(r->dispatches));
	profile_finish(prof);
	if (select_kernel(r, prof, from, why, whysz) != 0)
		return -1;
	cmp = r->o.sort == REPORT_HITS ? profile_cmp_hits : r->o.sort == REPORT_PC ?
	    profile_cmp_pc : profile_cmp_cycles;
	for (j = 0; j < prof->nkernel; j++) {
		struct profile_kernel *k = &prof->kernels[j];
		struct profile_line *special[3];
		n = k->nline - k->nspecial;	/* the instructions */
		if (n == 0)
			continue;	/* a kernel with only untraced waves */
		shown = n;
		if (r->o.top > 0 && (size_t)r->o.top < n)
			shown = (size_t)r->o.top;	/* the rest stay in the TOTAL row */
		profile_sort_top(k->lines, n, shown, profile_cmp_cycles);
		if (cmp != profile_cmp_cycles)	/* (a total order: sorted once is enough) */
			xqsort(k->lines, shown, sizeof(*k->lines), cmp);
		/* the launch and drain lines after the instructions shown, whatever --top */
		memcpy(special, k->lines + n, k->nspecial * sizeof(*special));
		memmove(k->lines + shown + k->nspecial, k->lines + shown,
		    (n - shown) * sizeof(*k->lines));
		memcpy(k->lines + shown, special, k->nspecial * sizeof(*special));
		k->nshow = shown + k->nspecial;
	}
	xqsort(prof->kernels, prof->nkernel, sizeof(*prof->kernels), profile_cmp_kernel);
	prof->top = r->o.top;
	if (r->timeline && timeline_rows(r->timeline) == 0)
		return fail_why(why, whysz, "%s: no rows: no timeline to draw", from);

	if (r->o.format == REPORT_JSON)
		profile_put_json(prof, stdout);
	else if (r->o.format == REPORT_PRETTY)
		put_pretty(prof);
	else
		profile_put_tsv_as(prof, stdout, r->o.plain);
	if (fflush(stdout) != 0 || ferror(stdout))
		return fail_why(why, whysz, "stdout: %s", strerror(errno));
	if (r->o.html && put_html(r, prof, why, whysz) != 0)
		return -1;
	if (r->trace && tracejson_close(r->trace, why, whysz) != 0)
		return -1;
	r->done = 1;
	timeline_free(r->timeline);
	dispatch_free(r->dispatches);
	if (open_report == r)
		open_report = NULL;
	free(r);
	return 0;
}
