/* stall-attr: charge every row of the row stream a cost and label it with a cause
 * (pipeline.md, Costs and causes; the rules and their evidence are in stall-attr(1)). */
#include <err.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa.h"
#include "out.h"
#include "tsv.h"
#include "util.h"

/* Kinds of memory operation, as bits: a wait's cause names the kinds it waited on. */
enum { K_MEM = 1, K_SMEM = 2, K_LDS = 4 };

/* Outstanding operations on one counter, oldest first.  The gfx11 counters are 6 bits
 * wide, so at most 63 can be outstanding: an older entry must have retired. */
#define FIFO_MAX 64
struct fifo {
	unsigned char kind[FIFO_MAX];
	uint64_t pc[FIFO_MAX], issue[FIFO_MAX];	/* for the retired column */
	unsigned head, n;
};

/* The operations the current s_waitcnt retired, as "pc@issue,...", '-' for none. */
#define RETIRED_MAX (3 * FIFO_MAX * 40)	/* three counters */
static char retired[RETIRED_MAX];
static size_t retired_len;

enum { C_VM, C_VS, C_LGKM, NCOUNTER };

/* A row waiting to be written: rows go out in input order, and an s_barrier's cost is
 * known only when its wave's next row arrives. */
struct qrow {
	struct qrow *next;
	char *text;		/* the input line (a '##' line when meta) */
	char *retired;
	int64_t cost;
	const char *cause;
	int meta, pending;
};

struct wave {
	struct wave *next;
	uint64_t id;
	uint64_t prev_time, prev_pc;
	int prev_pc_known, prev_taken;
	int skewed;		/* a delta did not match the times: no lifetime to check */
	int64_t start;		/* WAVE_START: the first row's time minus its delta */
	int64_t sum_delta, sum_cost;
	int64_t last_issue, below_issue;	/* latest issue time, latest one before it */
	struct qrow *barrier;	/* an s_barrier row waiting for this wave's next row */
	struct fifo cnt[NCOUNTER];
};

struct event {
	struct event *next;
	uint64_t id;
	uint64_t last_time;
	struct wave *waves;
	int64_t end_hi, end_below;	/* the same pair over the waves that have ended */
};

static int opt_raw, opt_strict;
static int warned_dep;
static unsigned long nwarn;
static struct event *events;
static struct qrow *qhead, *qtail;
static char *first_header;	/* the first input's '#' line: later inputs must match it */

static int c_event, c_wave, c_pc, c_time, c_delta, c_token, c_inst, c_class, c_dep;

static void __attribute__((noreturn))
usage(void)
{
	fprintf(stderr, "usage: %s [-hr] [--strict] [file ...]\n", getprogname());
	exit(2);
}

static void __attribute__((format(printf, 2, 3)))
warn_row(const struct tsv *t, const char *fmt, ...)
{
	va_list ap;
	char msg[512];

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (opt_strict)
		tsv_fail(t, "%s", msg);
	out_flush();
	fflush(stdout);
	warnx("warning: %s:%lu: %s", t->path, t->line, msg);
	nwarn++;
}

/* Equal strings, the first byte compared inline: most comparisons of a row fail there. */
#define STREQ(a, b) ((a)[0] == (b)[0] && strcmp((a), (b)) == 0)

/* Output ------------------------------------------------------------------------ */

/* A row passed through with its cost and cause: the hot path, formatted by hand. */
static void
put_row(const char *text, size_t len, int64_t cost, const char *cause, const char *ret)
{
	char *p;

	if (len > OUT_LINEMAX / 2 || strlen(ret) > OUT_LINEMAX / 4) {
		out_flush();
		printf("%s\t%" PRId64 "\t%s\t%s\n", text, cost, cause, ret);
		return;
	}
	p = out_reserve();
	memcpy(p, text, len);
	p += len;
	*p++ = '\t';
	if (cost < 0) {
		*p++ = '-';
		cost = -cost;
	}
	p = fmt_u64(p, (uint64_t)cost);
	*p++ = '\t';
	p = fmt_str(p, cause);
	*p++ = '\t';
	p = fmt_str(p, ret);
	*p++ = '\n';
	out_commit(p);
}

static void
queue_flush(void)
{
	struct qrow *q;

	while ((q = qhead) != NULL && !q->pending) {
		if (q->meta) {
			out_flush();
			printf("%s\n", q->text);
		} else {
			put_row(q->text, strlen(q->text), q->cost, q->cause,
			    q->retired ? q->retired : "-");
		}
		qhead = q->next;
		if (qhead == NULL)
			qtail = NULL;
		free(q->text);
		free(q->retired);
		free(q);
	}
}

static struct qrow *
queue_add(char *text, int meta)
{
	struct qrow *q = xcalloc(1, sizeof(*q));

	q->text = text;
	q->meta = meta;
	if (qtail)
		qtail->next = q;
	else
		qhead = q;
	qtail = q;
	return q;
}

/* Waves and events ----------------------------------------------------------- */

static struct event *
event_get(uint64_t id)
{
	struct event *e;

	for (e = events; e; e = e->next)
		if (e->id == id)
			return e;
	e = xcalloc(1, sizeof(*e));
	e->id = id;
	e->end_hi = e->end_below = -1;
	e->next = events;
	events = e;
	return e;
}

static void
event_free(struct event *e)
{
	struct event **pp;

	for (pp = &events; *pp != e; pp = &(*pp)->next)
		;
	*pp = e->next;
	free(e);
}

static struct wave *
wave_find(struct event *e, uint64_t id)
{
	struct wave *w;

	for (w = e->waves; w; w = w->next)
		if (w->id == id)
			return w;
	return NULL;
}

/* Fold one (latest, latest before it) pair of issue times into another. */
static void
issue_merge(int64_t *hi, int64_t *below, int64_t last, int64_t before)
{
	if (last < 0)
		return;
	if (last > *hi) {
		*below = *hi > before ? *hi : before;
		*hi = last;
	} else if (last == *hi) {
		if (before > *below)
			*below = before;
	} else if (last > *below)
		*below = last;
}

static void
wave_free(struct event *e, struct wave *w)
{
	struct wave **pp;

	issue_merge(&e->end_hi, &e->end_below, w->last_issue, w->below_issue);
	for (pp = &e->waves; *pp != w; pp = &(*pp)->next)
		;
	*pp = w->next;
	free(w);
	if (e->waves == NULL)
		event_free(e);	/* no later wave can see its issues: they are all in the past */
}

/* The latest issue time strictly before t, given the latest one and the one before it:
 * rows come in time order, so t is at least the latest. */
static int64_t
issue_before(int64_t last, int64_t below, uint64_t t)
{
	return last >= 0 && (uint64_t)last < t ? last : below;
}

/* Did a wave of e other than w issue strictly inside (from, to)? */
static int
others_issued(const struct event *e, const struct wave *w, uint64_t from, uint64_t to)
{
	const struct wave *x;
	int64_t b;

	b = issue_before(e->end_hi, e->end_below, to);
	if (b >= 0 && (uint64_t)b > from && (uint64_t)b < to)
		return 1;
	for (x = e->waves; x; x = x->next) {
		if (x == w)
			continue;
		b = issue_before(x->last_issue, x->below_issue, to);
		if (b >= 0 && (uint64_t)b > from && (uint64_t)b < to)
			return 1;
	}
	return 0;
}

/* Memory counters ------------------------------------------------------------ */

static void
fifo_push(struct fifo *f, int kind, uint64_t pc, uint64_t issue)
{
	if (f->n == FIFO_MAX) {
		f->head = (f->head + 1) % FIFO_MAX;
		f->n--;
	}
	f->kind[(f->head + f->n) % FIFO_MAX] = (unsigned char)kind;
	f->pc[(f->head + f->n) % FIFO_MAX] = pc;
	f->issue[(f->head + f->n) % FIFO_MAX] = issue;
	f->n++;
}

/* Retire the oldest until at most n remain; the kinds retired. */
static int
fifo_wait(struct fifo *f, unsigned long n)
{
	int kinds = 0;

	while (f->n > n) {
		kinds |= f->kind[f->head];
		retired_len += (size_t)snprintf(retired + retired_len,
		    sizeof(retired) - retired_len, "%s0x%" PRIx64 "@%" PRIu64,
		    retired_len ? "," : "", f->pc[f->head], f->issue[f->head]);
		f->head = (f->head + 1) % FIFO_MAX;
		f->n--;
	}
	return kinds;
}

/* The counter and kind a memory class counts on; -1 for other classes. */
static int
mem_counter(const char *class, const char *inst, int *kind)
{
	*kind = K_MEM;
	if (STREQ(class, "global_load") || STREQ(class, "flat_load") ||
	    STREQ(class, "buf_load"))
		return C_VM;
	if (STREQ(class, "image"))
		return strncmp(inst, "image_store", 11) == 0 ? C_VS : C_VM;
	if (STREQ(class, "global_store") || STREQ(class, "flat_store") ||
	    STREQ(class, "buf_store"))
		return C_VS;
	*kind = K_SMEM;
	if (STREQ(class, "smem") || STREQ(class, "smem_store"))
		return C_LGKM;
	*kind = K_LDS;
	if (STREQ(class, "lds_load") || STREQ(class, "lds_store"))
		return C_LGKM;
	return -1;
}

/* A count in a waitcnt's text: decimal or 0x hex; -1 if there is none. */
static long
count_at(const char *s)
{
	char *end;
	long v;

	while (*s == ' ' || *s == ',')
		s++;
	if (*s < '0' || *s > '9')
		return -1;
	v = strtol(s, &end, 0);
	return end == s || v < 0 ? -1 : v;
}

/* What an s_waitcnt* waits for: the count each counter must come down to, -1 for a
 * counter it does not wait on. */
static void
waitcnt_parse(const char *inst, long want[NCOUNTER])
{
	static const struct { const char *name; int c; } sopk[] = {
		{ "s_waitcnt_vmcnt", C_VM }, { "s_waitcnt_vscnt", C_VS },
		{ "s_waitcnt_lgkmcnt", C_LGKM }, { "s_waitcnt_expcnt", -1 },
	};
	size_t i, n = strcspn(inst, " ");
	const char *p, *comma;
	long v;
	int named = 0;

	want[C_VM] = want[C_VS] = want[C_LGKM] = -1;
	for (i = 0; i < sizeof(sopk) / sizeof(sopk[0]); i++) {
		if (strlen(sopk[i].name) != n || strncmp(inst, sopk[i].name, n) != 0)
			continue;
		/* "s_waitcnt_vscnt null, 0x0": the count is the last operand */
		comma = strrchr(inst, ',');
		v = count_at(comma ? comma + 1 : inst + n);
		if (sopk[i].c >= 0)
			want[sopk[i].c] = v < 0 ? 0 : v;
		return;
	}
	if (n == strlen("s_waitcnt") && strncmp(inst, "s_waitcnt", n) == 0) {
		if ((p = strstr(inst, "vmcnt(")) != NULL)
			named = 1, want[C_VM] = count_at(p + 6);
		if ((p = strstr(inst, "lgkmcnt(")) != NULL)
			named = 1, want[C_LGKM] = count_at(p + 8);
		if (strstr(inst, "expcnt(") != NULL)
			named = 1;
		if (named)
			return;
		/* "s_waitcnt 0": the gfx11 simm16, vmcnt [15:10], lgkmcnt [9:4] */
		if ((v = count_at(inst + n)) >= 0) {
			want[C_VM] = (v >> 10) & 63;
			want[C_LGKM] = (v >> 4) & 63;
			return;
		}
	}
	/* s_wait_idle, or a text not understood: wait for everything */
	want[C_VM] = want[C_VS] = want[C_LGKM] = 0;
}

static const char *
kinds_cause(int kinds)
{
	static const char *name[8] = {
		"issue", "mem", "smem", "mem+smem", "lds", "mem+lds", "smem+lds", "mem+smem+lds",
	};

	return name[kinds & 7];
}

/* Rows -------------------------------------------------------------------------- */

static int
is_class(const char *class, const char *const *list)
{
	for (; *list; list++)
		if (strcmp(class, *list) == 0)
			return 1;
	return 0;
}

static const char *
dep_cause(const struct tsv *t, const char *dep)
{
	if (strncmp(dep, "VALU_DEP_", 9) == 0 || strncmp(dep, "FMA_ACCUM_CYCLE_", 16) == 0)
		return "valu dep";
	if (strncmp(dep, "TRANS32_DEP_", 12) == 0)
		return "trans dep";
	if (strncmp(dep, "SALU_CYCLE_", 11) == 0)
		return "salu dep";
	if (!warned_dep)
		warn_row(t, "dep: unknown dependency '%s', ignored (warned once)", dep);
	warned_dep = 1;
	return NULL;
}

/* The rules of stall-attr(1), CAUSES, first that fits. */
static const char *
cause_of(const struct tsv *t, const struct event *e, const struct wave *w, int first,
    uint64_t time, uint64_t pc, int pc_known, int64_t cost, int waited)
{
	static const char *const vmem[] = { "global_load", "global_store", "flat_load",
		"flat_store", "buf_load", "buf_store", "image", "smem", "smem_store", NULL };
	static const char *const lds[] = { "lds_load", "lds_store", NULL };
	const char *class = t->field[c_class], *dep = t->field[c_dep], *c;

	if (STREQ(class, "untraced"))
		return "untraced";
	if (first)
		return "wave start";
	if (STREQ(t->field[c_token], "WAVE_END"))
		return "drain";
	if (STREQ(class, "barrier"))
		return "barrier";
	if (STREQ(class, "waitcnt"))
		return kinds_cause(waited);
	if (STREQ(class, "depctr"))
		return "depctr";
	if (cost <= 1)
		return "issue";
	if (!STREQ(dep, "-") && (c = dep_cause(t, dep)) != NULL)
		return c;
	if (others_issued(e, w, w->prev_time, time))
		return "issue wait";
	if (w->prev_taken || (pc_known && w->prev_pc_known && pc / 64 != w->prev_pc / 64))
		return "fetch";
	if (is_class(class, vmem))
		return "vmem issue";
	if (is_class(class, lds))
		return "lds queue";
	return "issue";
}

/* Cycles are conserved: a wave's costs add up to its deltas, and to its lifetime. */
static void
wave_end(const struct tsv *t, struct event *e, struct wave *w)
{
	int64_t life = (int64_t)w->prev_time - w->start;

	if (w->sum_cost != w->sum_delta || (!w->skewed && w->sum_cost != life))
		tsv_fail(t, "internal error: wave %" PRIu64 " of event %" PRIu64 ": costs add "
		    "up to %" PRId64 ", deltas to %" PRId64 ", lifetime %" PRId64, w->id, e->id,
		    w->sum_cost, w->sum_delta, life);
	wave_free(e, w);
}

static void
record(struct tsv *t)
{
	const char *token = t->field[c_token];
	uint64_t evid, wid, time, pc = 0;
	int64_t delta, cost;
	struct event *e;
	struct wave *w;
	struct qrow *q = NULL;
	const char *cause;
	long want[NCOUNTER];
	int i, first = 0, pc_known, is_end, is_barrier, waited = 0;
	long sleep;

	evid = tsv_u64(t, c_event);
	wid = tsv_u64(t, c_wave);
	time = tsv_u64(t, c_time);
	delta = tsv_i64(t, c_delta);
	if (delta < 0)
		tsv_fail(t, "delta: %" PRId64 " is negative", delta);
	if ((pc_known = !tsv_dash(t, c_pc)))
		pc = tsv_u64(t, c_pc);
	is_end = STREQ(token, "WAVE_END");
	is_barrier = !is_end && STREQ(t->field[c_class], "barrier");

	e = event_get(evid);
	if (time < e->last_time)
		warn_row(t, "time %" PRIu64 " is before an earlier row of event %" PRIu64
		    " (%" PRIu64 ")", time, evid, e->last_time);
	else
		e->last_time = time;
	if ((w = wave_find(e, wid)) == NULL) {
		struct wave **pp;
		w = xcalloc(1, sizeof(*w));
		w->id = wid;
		w->last_issue = w->below_issue = -1;
		for (pp = &e->waves; *pp; pp = &(*pp)->next)
			;
		*pp = w;	/* in order of their first rows, for the messages */
		w->start = (int64_t)time - delta;
		first = 1;
	} else if ((uint64_t)delta != time - w->prev_time || time < w->prev_time) {
		warn_row(t, "delta %" PRId64 " is not the time since the wave's previous row "
		    "(%" PRIu64 " - %" PRIu64 ")", delta, time, w->prev_time);
		w->skewed = 1;
	}

	sleep = isa_sleep_cycles(t->field[c_inst]);
	cost = delta;
	if (w->barrier) {
		/* the barrier's wait shows on the next row: it keeps 1 cycle, an s_sleep what
		 * it slept (its token comes when it wakes, after the barrier let it go) */
		int64_t keep = delta < 1 ? delta : 1;
		if (sleep > keep)
			keep = delta < sleep ? delta : sleep;
		w->barrier->cost += delta - keep;
		w->barrier->pending = 0;
		w->sum_cost += delta - keep;
		w->barrier = NULL;
		cost = keep;
	}
	w->sum_delta += delta;
	w->sum_cost += cost;

	retired_len = 0;
	if (STREQ(t->field[c_class], "waitcnt")) {
		waitcnt_parse(t->field[c_inst], want);
		for (i = 0; i < NCOUNTER; i++)
			if (want[i] >= 0)
				waited |= fifo_wait(&w->cnt[i], (unsigned long)want[i]);
	}
	cause = sleep >= 0 && !first ? "sleep" : cause_of(t, e, w, first, time, pc, pc_known, cost,
	    waited);
	if (!is_end) {
		int kind, c = mem_counter(t->field[c_class], t->field[c_inst], &kind);
		if (c >= 0)
			fifo_push(&w->cnt[c], kind, pc, time);
		issue_merge(&w->last_issue, &w->below_issue, (int64_t)time, -1);
	}
	w->prev_time = time;
	w->prev_pc = pc;
	w->prev_pc_known = pc_known;
	w->prev_taken = STREQ(token, "INST:branch_taken") || STREQ(token, "INST:jump");

	if (qhead != NULL || (is_barrier && !opt_raw)) {
		q = queue_add(xstrdup(tsv_line(t)), 0);
		q->cost = cost;
		q->cause = cause;
		if (retired_len)
			q->retired = xstrdup(retired);
		if (is_barrier && !opt_raw) {
			q->pending = 1;
			w->barrier = q;
		}
	} else {
		put_row(tsv_line(t), t->len, cost, cause, retired_len ? retired : "-");
	}
	if (is_end)
		wave_end(t, e, w);
	queue_flush();
}

/* The end of an input: waves without a WAVE_END row end here. */
static void
input_end(const struct tsv *t)
{
	struct event *e;
	struct wave *w;

	while ((e = events) != NULL) {
		w = e->waves;
		warn_row(t, "wave %" PRIu64 " of event %" PRIu64 " has no WAVE_END row",
		    w->id, e->id);
		if (w->barrier)
			w->barrier->pending = 0;	/* no next row: it keeps its delta */
		wave_end(t, e, w);
	}
	queue_flush();
}

static void
meta(struct tsv *t)
{
	if (qhead == NULL) {
		out_flush();
		printf("%s\n", tsv_line(t));
	}
	else
		queue_add(xstrdup(tsv_line(t)), 1);
}

static void
header(const struct tsv *t)
{
	c_event = tsv_need(t, "event");
	c_wave = tsv_need(t, "wave");
	c_pc = tsv_need(t, "pc");
	c_time = tsv_need(t, "time");
	c_delta = tsv_need(t, "delta");
	c_token = tsv_need(t, "token");
	c_inst = tsv_need(t, "inst");
	c_class = tsv_need(t, "class");
	c_dep = tsv_need(t, "dep");
	if (tsv_col(t, "cost") >= 0 || tsv_col(t, "cause") >= 0 || tsv_col(t, "retired") >= 0)
		tsv_fail(t, "the rows already have a cost or cause column (stall-attr output?)");
	if (first_header != NULL) {
		if (strcmp(t->text, first_header) != 0)
			tsv_fail(t, "the columns differ from the first input's");
		return;
	}
	first_header = xstrdup(t->text);
	out_flush();
	if (opt_raw)
		printf("##stall-attr\traw\tcost is the row's delta\n");
	else
		printf("##stall-attr\tcause\tcost is the row's delta, but the wait after an "
		    "s_barrier is moved onto it (the next row keeps 1 cycle)\n");
	printf("%s\tcost\tcause\tretired\n", t->text);
}

static void
attribute(const char *path)
{
	struct tsv t;
	FILE *fp;
	const char *name = path;
	int header_seen = 0;

	if (STREQ(path, "-")) {
		fp = stdin;
		name = "stdin";
	} else if ((fp = fopen(path, "r")) == NULL)
		err(2, "%s", path);
	tsv_open(&t, fp, name);
	for (;;) {
		switch (tsv_next(&t)) {
		case TSV_META:
			meta(&t);
			continue;
		case TSV_HEADER:
			header(&t);
			header_seen = 1;
			continue;
		case TSV_RECORD:
			record(&t);
			continue;
		case TSV_EOF:
			break;
		}
		break;
	}
	if (!header_seen) {
		out_flush();
	fflush(stdout);
		errx(2, "%s: no '#' column header line: not a row stream", name);
	}
	input_end(&t);
	tsv_close(&t);
	if (fp != stdin)
		fclose(fp);
}

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "raw", no_argument, NULL, 'r' },
		{ "strict", no_argument, NULL, 'S' },
		{ NULL, 0, NULL, 0 }
	};
	int ch, i;

	while ((ch = getopt_long(argc, argv, "hr", longopts, NULL)) != -1) {
		switch (ch) {
		case 'h':
			printf("usage: %s [-hr] [--strict] [file ...]\n"
			    "Charge every row of a row stream a cost and label it with a cause;\n"
			    "the rows come out in input order with 'cost' and 'cause' appended.\n\n"
			    "  -r, --raw     cost is the row's delta: waits are not moved\n"
			    "      --strict  a warning is an error (exit 2)\n"
			    "  -h, --help    this text\n"
			    "The rules and the evidence for them are in stall-attr(1).\n",
			    getprogname());
			exit(0);
		case 'r':
			opt_raw = 1;
			break;
		case 'S':
			opt_strict = 1;
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;

	if (argc == 0)
		attribute("-");
	for (i = 0; i < argc; i++)
		attribute(argv[i]);
	free(first_header);
	out_flush();
	if (fflush(stdout) != 0 || ferror(stdout))
		err(2, "stdout");
	return 0;
}
