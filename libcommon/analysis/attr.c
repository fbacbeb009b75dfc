#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attr.h"
#include "codeobj.h"
#include "out.h"
#include "regs.h"
#include "util.h"

/* Outstanding operations on one counter, oldest first: at most the model's counter_depth
 * (past it an older entry must have retired). */
#define FIFO_MAX ISA_COUNTER_DEPTH_MAX
struct fifo {
	unsigned char kind[FIFO_MAX];
	uint64_t pc[FIFO_MAX], issue[FIFO_MAX];	/* for the retired list */
	unsigned head, n;
};

/* The operations the current s_waitcnt retired, as "pc@issue,...". */
#define RETIRED_MAX (ISA_NCOUNTER * FIFO_MAX * 40)

/* A row waiting to be written: rows go out in input order, and an s_barrier's cost is
 * known only when its wave's next row arrives. */
struct qrow {
	struct qrow *next;
	void *data;
	size_t len, cap;	/* cap: data's size */
	struct attr_cost c;
	char *retired;
	int meta, pending;
};

struct wave {
	struct wave *next;	/* the event's waves, in order of their first rows */
	struct wave *hnext;	/* hash chain */
	struct aevent *event;
	uint64_t id;
	uint64_t prev_time, prev_pc;
	int prev_pc_known, prev_taken;
	int skewed;		/* a delta did not match the times: no lifetime to check */
	uint64_t start;		/* WAVE_START: the first row's time minus its delta */
	uint64_t sum_delta, sum_cost;
	int64_t last_issue, below_issue;	/* latest issue time, latest one before it */
	uint64_t prev_last;	/* the last byte of the previous row's instruction, as far as known */
	unsigned prev_busy;	/* cycles the previous row's instruction ran, from its token's op */
	int prev_valu;		/* the previous row was a VALU: valu_in, or its text in valu_text */
	const struct inst *valu_in;	/* the code object's instruction, when the row had one */
	char *valu_text;	/* else a copy of the row's text (valu_cap bytes held) */
	size_t valu_cap;
	struct qrow *barrier;	/* an s_barrier row waiting for this wave's next row */
	struct qrow *held;	/* a row whose cause waits for its length (the next row's pc) */
	struct fifo cnt[ISA_NCOUNTER];
};

/* The latest issues of an event's waves, for what other waves issued inside a gap. */
#define ISSUE_RING 256

struct aevent {
	struct aevent *hnext;
	uint64_t id;
	uint64_t last_time;
	uint64_t ring_time[ISSUE_RING], ring_wave[ISSUE_RING];
	unsigned ring_n, ring_head;	/* entries, and where the next one goes */
	struct wave *waves;
	unsigned nwaves;
	int64_t end_hi, end_below;	/* the same pair over the waves that have ended */
};

#define NBUCKET 1024

/* The kinds of warning, each said at most WARN_CAP times; the rest counted at the end. */
#define WARN_CAP 10
enum akind { A_DEP, A_TIME, A_DELTA, A_BARRIER, A_NOEND, A_NKIND };
static const char *const akind_name[A_NKIND] = {
	[A_DEP] = "unknown dependency", [A_TIME] = "time before an earlier row",
	[A_DELTA] = "delta not the time since the previous row",
	[A_BARRIER] = "s_barrier", [A_NOEND] = "wave with no WAVE_END row",
};

struct attr {
	uint64_t nwarn[A_NKIND];
	int raw;
	attr_out_fn out;
	attr_warn_fn warn;
	attr_bytes_fn bytes;
	void *ctx;
	struct aevent *ebucket[NBUCKET];
	struct wave *wbucket[NBUCKET];
	struct qrow *qhead, *qtail;
	size_t nheld;
	struct qrow *qfree;	/* rows gone out, kept with their data for the next held ones
				 * (at most QFREE_MAX) */
	struct wave *wfree;	/* waves ended, kept for the next (no more than were live) */
	size_t nfree;
	unsigned nwaves;
	int warned_dep;
	int list_retired;
	const struct isa_model *model;	/* the stream's generation: counters, s_delay_alu */
	char retired[RETIRED_MAX];
	size_t retired_len;
	char error[256];
};

static void __attribute__((format(printf, 3, 4)))
warn(struct attr *a, enum akind kind, const char *fmt, ...)
{
	va_list ap;
	char msg[512];

	if (++a->nwarn[kind] > WARN_CAP)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	a->warn(a->ctx, msg);
}

static int __attribute__((format(printf, 2, 3)))
fail(struct attr *a, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(a->error, sizeof(a->error), fmt, ap);
	va_end(ap);
	return -1;
}

struct attr *
attr_new(int raw, attr_out_fn out, attr_warn_fn w, attr_bytes_fn bytes, void *ctx)
{
	struct attr *a = xcalloc(1, sizeof(*a));

	a->raw = raw;
	a->out = out;
	a->warn = w;
	a->bytes = bytes;
	a->ctx = ctx;
	a->list_retired = 1;
	a->model = isa_default_model();
	return a;
}

void attr_model(struct attr *a, const struct isa_model *m) { a->model = m; }

const char *attr_error(const struct attr *a) { return a->error; }
void attr_list_retired(struct attr *a, int on) { a->list_retired = on; }

const char *
attr_meta_line(int raw)
{
	return raw ? "##stall-attr\traw\tcost is the row's delta" :
	    "##stall-attr\tcause\tcost is the row's delta, but the wait after an s_barrier is "
	    "moved onto it (the next row keeps 1 cycle)";
}

/* Output ------------------------------------------------------------------------ */

/* Held rows are made and let go on most rows: those gone out are kept for reuse. */
#define QFREE_MAX 4096

static void
queue_flush(struct attr *a)
{
	struct qrow *q;

	while ((q = a->qhead) != NULL && !q->pending) {
		a->out(a->ctx, q->data, q->len, &q->c, q->retired, q->meta);
		a->qhead = q->next;
		if (a->qhead == NULL)
			a->qtail = NULL;
		free(q->retired);
		a->nheld--;
		if (a->nfree < QFREE_MAX) {
			q->next = a->qfree;
			a->qfree = q;
			a->nfree++;
		} else {
			free(q->data);
			free(q);
		}
	}
}

static struct qrow *
queue_add(struct attr *a, const void *data, size_t len, int meta)
{
	struct qrow *q = a->qfree;

	if (q != NULL) {
		a->qfree = q->next;
		a->nfree--;
	} else {
		q = xcalloc(1, sizeof(*q));
	}
	if (q->cap < len + 1) {
		free(q->data);
		q->cap = len + 1 > 64 ? len + 1 : 64;
		q->data = xreallocarray(NULL, q->cap, 1);
	}
	memcpy(q->data, data, len);
	((char *)q->data)[len] = '\0';
	q->next = NULL;
	q->c = (struct attr_cost){ 0, 0, CAUSE_NONE, CAUSE_NONE };
	q->retired = NULL;
	q->pending = 0;
	q->len = len;
	q->meta = meta;
	if (a->qtail)
		a->qtail->next = q;
	else
		a->qhead = q;
	a->qtail = q;
	a->nheld++;
	return q;
}

void
attr_meta(struct attr *a, const void *data, size_t len)
{
	static const struct attr_cost none = { 0, 0, CAUSE_NONE, CAUSE_NONE };

	if (a->qhead == NULL)
		a->out(a->ctx, data, len, &none, NULL, 1);
	else
		queue_add(a, data, len, 1);
}

/* Waves and events ----------------------------------------------------------- */

static unsigned
hash2(uint64_t a, uint64_t b)
{
	return (unsigned)(((a * 0x9e3779b97f4a7c15ULL) ^ (b * 0xc2b2ae3d27d4eb4fULL)) >> 54) &
	    (NBUCKET - 1);
}

static struct aevent *
event_get(struct attr *a, uint64_t id)
{
	struct aevent **pp = &a->ebucket[hash2(id, 0)], *e;

	for (e = *pp; e; e = e->hnext)
		if (e->id == id)
			return e;
	e = xcalloc(1, sizeof(*e));
	e->id = id;
	e->end_hi = e->end_below = -1;
	e->hnext = *pp;
	*pp = e;
	return e;
}

static void
event_free(struct attr *a, struct aevent *e)
{
	struct aevent **pp;

	for (pp = &a->ebucket[hash2(e->id, 0)]; *pp != e; pp = &(*pp)->hnext)
		;
	*pp = e->hnext;
	free(e);
}

static struct wave *
wave_find(struct attr *a, const struct aevent *e, uint64_t id)
{
	struct wave *w;

	for (w = a->wbucket[hash2(e->id, id)]; w; w = w->hnext)
		if (w->id == id && w->event == e)
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

/* A wave's struct, zero but for its counters' past entries: a new one is 9 KB of
 * memset, at every wave. */
static struct wave *
wave_alloc(struct attr *a)
{
	struct wave *w = a->wfree;
	unsigned i;

	if (w == NULL)
		return xcalloc(1, sizeof(*w));
	a->wfree = w->next;
	memset(w, 0, offsetof(struct wave, cnt));
	for (i = 0; i < ISA_NCOUNTER; i++)
		w->cnt[i].head = w->cnt[i].n = 0;
	return w;
}

static void
wave_free(struct attr *a, struct aevent *e, struct wave *w)
{
	struct wave **pp;

	issue_merge(&e->end_hi, &e->end_below, w->last_issue, w->below_issue);
	for (pp = &e->waves; *pp != w; pp = &(*pp)->next)
		;
	*pp = w->next;
	for (pp = &a->wbucket[hash2(e->id, w->id)]; *pp != w; pp = &(*pp)->hnext)
		;
	*pp = w->hnext;
	free(w->valu_text);
	w->next = a->wfree;
	a->wfree = w;
	e->nwaves--;
	a->nwaves--;
	if (e->waves == NULL)
		event_free(a, e);	/* no later wave can see its issues: all in the past */
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
others_issued(const struct aevent *e, const struct wave *w, uint64_t from, uint64_t to)
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

/* How many issues of waves of e other than w lie strictly inside (from, to); at least
 * ISSUE_RING when the ring no longer reaches back to from. */
static unsigned
others_issues(const struct aevent *e, const struct wave *w, uint64_t from, uint64_t to)
{
	unsigned i, k, n = 0;

	for (k = 0; k < e->ring_n; k++) {
		i = (e->ring_head + ISSUE_RING - 1 - k) % ISSUE_RING;
		if (e->ring_time[i] <= from)
			return n;
		if (e->ring_time[i] < to && e->ring_wave[i] != w->id)
			n++;
	}
	return e->ring_n == ISSUE_RING ? ISSUE_RING : n;
}

static void
ring_push(struct aevent *e, uint64_t time, uint64_t wave)
{
	e->ring_time[e->ring_head] = time;
	e->ring_wave[e->ring_head] = wave;
	e->ring_head = (e->ring_head + 1) % ISSUE_RING;
	if (e->ring_n < ISSUE_RING)
		e->ring_n++;
}

/* Memory counters ------------------------------------------------------------ */

static void
fifo_push(struct fifo *f, unsigned depth, unsigned kind, uint64_t pc, uint64_t issue)
{
	unsigned i;

	if (f->n == depth) {
		f->head = (f->head + 1) % FIFO_MAX;
		f->n--;
	}
	i = (f->head + f->n) % FIFO_MAX;
	f->kind[i] = (unsigned char)kind;
	f->pc[i] = pc;
	f->issue[i] = issue;
	f->n++;
}

/* Retire the oldest until at most n remain, listing them; the kinds retired. */
static unsigned
fifo_wait(struct attr *a, struct fifo *f, unsigned long n)
{
	unsigned kinds = 0;

	while (f->n > n) {
		kinds |= f->kind[f->head];
		if (a->list_retired) {	/* at most 40 bytes each: RETIRED_MAX has room */
			char *p = a->retired + a->retired_len;
			if (a->retired_len)
				*p++ = ',';
			p = fmt_hex(p, f->pc[f->head]);
			*p++ = '@';
			p = fmt_u64(p, f->issue[f->head]);
			*p = '\0';
			a->retired_len = (size_t)(p - a->retired);
		}
		f->head = (f->head + 1) % FIFO_MAX;
		f->n--;
	}
	return kinds;
}

/* Rows -------------------------------------------------------------------------- */

static enum cause
dep_cause(struct attr *a, const char *dep)
{
	switch (a->model->dep_by_name(dep)) {
	case DEP_VALU:
		return CAUSE_VALU_DEP;
	case DEP_TRANS:
		return CAUSE_TRANS_DEP;
	case DEP_SALU:
		return CAUSE_SALU_DEP;
	case DEP_NONE:
		break;
	}
	if (!a->warned_dep)
		warn(a, A_DEP, "dep: unknown dependency '%s', ignored (warned once)", dep);
	a->warned_dep = 1;
	return CAUSE_NONE;
}

static int
is_vmem(const struct attr *a, enum inst_class c)
{
	unsigned kind;

	return a->model->mem_counter(c, "", &kind) >= 0 && kind != MEM_LDS;
}

static int
is_end(const struct attr_row *r)
{
	return r->kind == ROW_WAVE_END;
}

/* An s_sleep's length, -1 for any other instruction: asked of every row, so the first
 * bytes are looked at before the ISA is. */
static long
sleep_of(const struct attr *a, const struct attr_row *r)
{
	return r->cls == IC_IMM && r->inst[2] == 's' ? a->model->sleep_cycles(r->inst) : -1;
}

/* The rules after issue_wait's: what a gap no other wave filled waited for. */
static enum cause
cause_after_issue_wait(struct attr *a, const struct attr_row *r, const struct wave *w)
{
	if (w->prev_taken || (r->pc_known && w->prev_pc_known && r->pc / a->model->fetch_line != w->prev_last / a->model->fetch_line))
		return CAUSE_FETCH;
	if (is_vmem(a, r->cls))
		return CAUSE_VMEM_ISSUE;
	if (r->cls == IC_LDS_LOAD || r->cls == IC_LDS_STORE)
		return CAUSE_LDS_QUEUE;
	return CAUSE_UNEXPLAINED;
}

/* The rules of stall-attr(1), CAUSES, first that fits; a rule that explains only part of
 * the cost gives the rest a second cause (*cost2 cycles of cause *cause2). */
static enum cause
cause_of(struct attr *a, const struct attr_row *r, const struct aevent *e,
    const struct wave *w, int first, int64_t cost, unsigned waited, int64_t *cost2,
    enum cause *cause2)
{
	enum cause c;
	int64_t k;
	long sleep;

	*cost2 = 0;
	*cause2 = CAUSE_NONE;
	if (r->cls == IC_UNTRACED)
		return CAUSE_UNTRACED;
	if (first) {
		/* a first s_sleep's token marks its wake: up to 64 * n cycles of the delta are
		 * the sleep, the rest the launch */
		if ((sleep = sleep_of(a, r)) > 0 && cost > 0) {
			*cost2 = cost < sleep ? cost : sleep;
			*cause2 = CAUSE_SLEEP;
		}
		return CAUSE_WAVE_START;
	}
	if (is_end(r))
		return CAUSE_DRAIN;
	if (sleep_of(a, r) >= 0)
		return CAUSE_SLEEP;
	if (r->cls == IC_BARRIER)
		return CAUSE_BARRIER;
	if (r->cls == IC_WAITCNT)
		return waited || cost > (int64_t)a->model->issue_cycles ? cause_of_kinds(waited) :
		    CAUSE_ISSUE_CYCLE;
	if (r->cls == IC_DEPCTR)
		return CAUSE_DEPCTR;
	if (cost <= (int64_t)a->model->issue_cycles)
		return CAUSE_ISSUE_CYCLE;
	if ((r->dep[0] != '-' || r->dep[1] != '\0') && (c = dep_cause(a, r->dep)) != CAUSE_NONE)
		return c;
	if (w->prev_valu && (is_vmem(a, r->cls) || r->cls == IC_LDS_LOAD ||
	    r->cls == IC_LDS_STORE)) {
		/* a memory instruction that reads what the VALU just before it wrote, or
		 * loads into what it read */
		struct inst in = { .text = r->inst }, prev = { .text = w->valu_text };
		struct regs def, use, vdef, vuse;
		inst_regs(a->model, r->in != NULL ? r->in : &in, &def, &use);
		/* the VALU's registers are parsed here, where a memory row asks, not at
		 * every VALU row */
		inst_regs(a->model, w->valu_in != NULL ? w->valu_in : &prev, &vdef, &vuse);
		if (regs_overlap(&vdef, &use) || regs_overlap(&vuse, &def))
			return CAUSE_VALU_DEP;
	}
	/* the other waves' issues (a cycle each) inside the gap bound what they explain:
	 * issue_wait where they fill at least half of it beyond the row's own cycle, and
	 * then only their cycles and its own; the rest is the next rule's */
	if (others_issued(e, w, w->prev_time, r->time) &&
	    2 * (k = (int64_t)others_issues(e, w, w->prev_time, r->time)) >= cost - 1) {
		if (k < cost - 1) {
			*cost2 = cost - 1 - k;
			*cause2 = cause_after_issue_wait(a, r, w);
		}
		return CAUSE_ISSUE_WAIT;
	}
	return cause_after_issue_wait(a, r, w);
}

/* Cycles are conserved: a wave's costs add up to its deltas, and to its lifetime. */
static int
wave_end(struct attr *a, struct aevent *e, struct wave *w)
{
	uint64_t life = w->prev_time - w->start;

	if (w->sum_cost != w->sum_delta || (!w->skewed && w->sum_cost != life))
		return fail(a, "internal error: wave %" PRIu64 " of event %" PRIu64 ": costs add "
		    "up to %" PRIu64 ", deltas to %" PRIu64 ", lifetime %" PRIu64, w->id, e->id,
		    w->sum_cost, w->sum_delta, life);
	wave_free(a, e, w);
	return 0;
}

/* A barrier whose wave's next row never came keeps its own delta, a held row its cost
 * and cause. */
static void
release(struct wave *w)
{
	if (w->barrier)
		w->barrier->pending = 0;
	if (w->held)
		w->held->pending = 0;
	w->barrier = w->held = NULL;
}

int
attr_row(struct attr *a, const struct attr_row *r, const void *handle)
{
	const void *data;
	size_t len;
	struct aevent *e;
	struct wave *w;
	struct qrow *q;
	uint64_t cost;
	long want[ISA_NCOUNTER], sleep;
	unsigned waited = 0;
	int i, first = 0, end = is_end(r), hold = 0;
	int barrier = !end && r->cls == IC_BARRIER && !a->model->barrier_exit_traced;
	unsigned busy = 0;
	enum cause cause, cause2;
	int64_t cost2;

	if (r->time > INT64_MAX)
		return fail(a, "time: %" PRIu64 " is beyond 2^63-1", r->time);
	if (r->delta > r->time)
		return fail(a, "delta: %" PRIu64 " reaches back before time 0 (time %" PRIu64 ")",
		    r->delta, r->time);
	e = event_get(a, r->event);
	if (r->time < e->last_time)
		warn(a, A_TIME, "time %" PRIu64 " is before an earlier row of event %" PRIu64
		    " (%" PRIu64 ")", r->time, r->event, e->last_time);
	else
		e->last_time = r->time;
	if ((w = wave_find(a, e, r->wave)) == NULL) {
		struct wave **pp;
		unsigned h = hash2(e->id, r->wave);
		if (e->nwaves >= ATTR_MAX_EVENT_WAVES || a->nwaves >= ATTR_MAX_WAVES)
			return fail(a, "wave %" PRIu64 " of event %" PRIu64 ": more than %d waves live "
			    "in the event or %d in all (the limits of stall-attr(1))", r->wave, e->id,
			    ATTR_MAX_EVENT_WAVES, ATTR_MAX_WAVES);
		w = wave_alloc(a);
		w->id = r->wave;
		w->event = e;
		w->last_issue = w->below_issue = -1;
		for (pp = &e->waves; *pp; pp = &(*pp)->next)
			;
		*pp = w;	/* in order of their first rows, for the messages */
		w->hnext = a->wbucket[h];
		a->wbucket[h] = w;
		e->nwaves++;
		a->nwaves++;
		w->start = r->time - r->delta;
		first = 1;
	} else if (r->delta != r->time - w->prev_time || r->time < w->prev_time) {
		warn(a, A_DELTA, "delta %" PRIu64 " is not the time since the wave's previous row "
		    "(%" PRIu64 " - %" PRIu64 ")", r->delta, r->time, w->prev_time);
		w->skewed = 1;
	}

	sleep = sleep_of(a, r);
	cost = r->delta;
	if (w->barrier) {
		/* the barrier's wait shows on the next row: it keeps 1 cycle, an s_sleep what
		 * it slept (its token comes when it wakes, after the barrier let it go) */
		uint64_t keep = r->delta < 1 ? r->delta : 1;
		if (sleep >= 0 && (uint64_t)sleep > keep)
			keep = r->delta < (uint64_t)sleep ? r->delta : (uint64_t)sleep;
		if (__builtin_add_overflow(w->barrier->c.cost, (int64_t)(r->delta - keep),
		    &w->barrier->c.cost))
			return fail(a, "cycles: a sum passes 2^63-1");
		w->sum_cost += r->delta - keep;
		release(w);
		cost = keep;
	}
	if (!first && w->prev_pc_known && !w->prev_taken && r->pc_known && r->pc > w->prev_pc) {
		/* the previous instruction's length: the distance to this one, less the 4 bytes
		 * of the s_delay_alu that announced this row's dep (it emits no token) */
		uint64_t len = r->pc - w->prev_pc;
		if (len >= 8 && (r->dep[0] != '-' || r->dep[1] != '\0'))
			len -= 4;
		if (len <= a->model->inst_max_bytes)	/* longer: instructions without a token */
			w->prev_last = w->prev_pc + len - 1;
	}
	if (w->held) {
		/* the previous row, held for what this one says: how long it ran (its execution
		 * shows in this row's delta and moves onto it, as a barrier's wait does), or its
		 * length (its last byte in another fetch line than its first: fetch) */
		uint64_t move = cost > 0 ? cost - 1 : 0;
		if (w->prev_busy > 0) {
			if (move > w->prev_busy - 1)
				move = w->prev_busy - 1;
			if (move > 0) {
				w->held->c.cost += (int64_t)move;
				w->held->c.cause = CAUSE_EXEC;
				w->sum_cost += move;
				cost -= move;
			}
		} else if (w->prev_last / a->model->fetch_block != w->prev_pc / a->model->fetch_block)
			w->held->c.cause = CAUSE_FETCH;
		release(w);
	}
	if (__builtin_add_overflow(w->sum_delta, r->delta, &w->sum_delta) ||
	    __builtin_add_overflow(w->sum_cost, cost, &w->sum_cost) || w->sum_delta > INT64_MAX)
		return fail(a, "cycles: a sum passes 2^63-1");

	a->retired_len = 0;
	a->retired[0] = '\0';
	if (r->cls == IC_WAITCNT) {
		if (r->in != NULL && r->in->facts)
			for (i = 0; i < ISA_NCOUNTER; i++)
				want[i] = r->in->want[i];
		else
			a->model->waitcnt(r->inst, want);
		for (i = 0; i < ISA_NCOUNTER; i++)
			if (want[i] >= 0 && i != CNT_EXP)
				waited |= fifo_wait(a, &w->cnt[i], (unsigned long)want[i]);
	}
	cause = cause_of(a, r, e, w, first, (int64_t)cost, waited, &cost2, &cause2);
	if (!end && !barrier) {
		unsigned fl = a->model->fetch_block;
		busy = r->busy;
		if (busy > 1 && !a->raw && cause == CAUSE_ISSUE_CYCLE)
			hold = 1;	/* its execution shows on the wave's next row */
		else if ((busy = 0, cost > 1) && r->pc_known && r->kind == ROW_ISSUE &&
		    r->pc % fl + a->model->inst_max_bytes > fl && (cause == CAUSE_VMEM_ISSUE ||
		    cause == CAUSE_LDS_QUEUE || cause == CAUSE_UNEXPLAINED))
			hold = 1;	/* it may straddle a fetch line: the next row's pc says */
	}
	if (!end) {
		unsigned kind;
		int c;
		if (r->in != NULL && r->in->facts)
			c = r->in->mem_counter, kind = r->in->mem_kind;
		else
			c = a->model->mem_counter(r->cls, r->inst, &kind);
		if (c >= 0)
			fifo_push(&w->cnt[c], a->model->counter_depth, kind, r->pc, r->time);
		issue_merge(&w->last_issue, &w->below_issue, (int64_t)r->time, -1);
		ring_push(e, r->time, w->id);
	}
	w->prev_time = r->time;
	w->prev_pc = w->prev_last = r->pc;
	w->prev_busy = busy;
	w->prev_pc_known = r->pc_known;
	w->prev_taken = r->kind == ROW_TAKEN;
	w->prev_valu = !end && r->valu;
	if (w->prev_valu && (w->valu_in = r->in) == NULL) {
		size_t n = strlen(r->inst) + 1;
		if (n > w->valu_cap) {
			w->valu_cap = n < 64 ? 64 : n;
			w->valu_text = xreallocarray(w->valu_text, w->valu_cap, 1);
		}
		memcpy(w->valu_text, r->inst, n);
	}
	data = a->bytes(a->ctx, handle, &len);
	if (a->qhead != NULL || (barrier && !a->raw) || hold) {
		q = queue_add(a, data, len, 0);
		q->c.cost = (int64_t)cost;
		q->c.cause = cause;
		q->c.cost2 = cost2;
		q->c.cause2 = cause2;
		if (a->retired_len)
			q->retired = xstrdup(a->retired);
		if (barrier && !a->raw) {
			q->pending = 1;
			w->barrier = q;
		}
		if (hold) {
			q->pending = 1;
			w->held = q;
		}
	} else {
		struct attr_cost c = { (int64_t)cost, cost2, cause, cause2 };
		a->out(a->ctx, data, len, &c, a->retired_len ? a->retired : NULL, 0);
	}
	if (end && wave_end(a, e, w) != 0)
		return -1;
	if (a->nheld > ATTR_MAX_HELD && a->qhead->pending) {
		/* the oldest barrier's wave has gone quiet: its wait stays on the row */
		struct qrow *q0 = a->qhead;
		struct aevent *x;
		struct wave *y;
		size_t b;
		for (b = 0; b < NBUCKET; b++)
			for (x = a->ebucket[b]; x; x = x->hnext)
				for (y = x->waves; y; y = y->next)
					if (y->barrier == q0 || y->held == q0) {
						warn(a, A_BARRIER, "an s_barrier of wave %" PRIu64 " of event %" PRIu64
						    " waited %u rows for its wave's next row: its wait stays "
						    "on that row", y->id, x->id, ATTR_MAX_HELD);
						release(y);
					}
	}
	queue_flush(a);
	return 0;
}

int
attr_end(struct attr *a)
{
	struct aevent *e, *first;
	struct wave *w;
	size_t b;
	int k;

	for (;;) {	/* the lowest event first, its waves in order of their first rows */
		first = NULL;
		for (b = 0; b < NBUCKET; b++)
			for (e = a->ebucket[b]; e; e = e->hnext)
				if (first == NULL || e->id < first->id)
					first = e;
		if ((e = first) == NULL)
			break;
		w = e->waves;
		warn(a, A_NOEND, "wave %" PRIu64 " of event %" PRIu64 " has no WAVE_END row", w->id, e->id);
		release(w);	/* no next row: it keeps its delta */
		if (wave_end(a, e, w) != 0)
			return -1;
	}
	queue_flush(a);
	for (k = 0; k < A_NKIND; k++)
		if (a->nwarn[k] > WARN_CAP) {
			char msg[128];
			snprintf(msg, sizeof(msg), "%" PRIu64 " more of the kind '%s' not shown",
			    a->nwarn[k] - WARN_CAP, akind_name[k]);
			a->warn(a->ctx, msg);
		}
	return 0;
}

void
attr_free(struct attr *a)
{
	struct qrow *q;
	struct wave *w;
	struct aevent *e;
	size_t i;

	if (a == NULL)
		return;
	while ((q = a->qhead) != NULL) {
		a->qhead = q->next;
		free(q->retired);
		free(q->data);
		free(q);
	}
	while ((q = a->qfree) != NULL) {
		a->qfree = q->next;
		free(q->data);
		free(q);
	}
	while ((w = a->wfree) != NULL) {
		a->wfree = w->next;
		free(w);
	}
	/* a run that failed: the events and waves still live */
	for (i = 0; i < NBUCKET; i++)
		while ((e = a->ebucket[i]) != NULL) {
			a->ebucket[i] = e->hnext;
			while ((w = e->waves) != NULL) {
				e->waves = w->next;
				free(w->valu_text);
				free(w);
			}
			free(e);
		}
	free(a);
}
