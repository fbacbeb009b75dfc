/* pipeline: decode, walk, attr and profile in one process (pipeline.h). */
#include <inttypes.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <threads.h>
#include <sys/stat.h>
#include <unistd.h>

#include "attr.h"
#include "codeobj.h"
#include "gen.h"
#include "input.h"
#include "meta.h"
#include "out.h"
#include "pipeline.h"
#include "sqtt.h"
#include "util.h"

/* The instruction's profile line, made once per (program, index). */
struct lines {
	struct profile_line **line;	/* each of the kernel it was made for (its
					 * kernel field) */
	size_t n;
};

/* The stages for some of the trace buffers: a walker, costs and causes, and the sums of
 * its rows.  Buffers are independent: several workers run at once and their sums are
 * added at the end. */
struct worker {
	struct pipeline *pl;
	struct walker *walker;
	struct attr *attr;
	struct row_token_memo tokens;	/* what the walker's token strings say */
	struct profile own, *prof;		/* prof: own, or the caller's for the first */
	const char *escaped_of, *escaped;	/* the kernel column as rows have it (escaped) */
	char **escapes;				/* every one made, freed at the end */
	size_t nescapes;
	long key_event;				/* --by-dispatch: the event escaped is of */
	size_t escaped_kernel;			/* and its profile kernel */
	struct lines *lines;			/* by program number */
	size_t nlines;
	/* a line by (program, index) is new to the profile, and made without a lookup
	 * (profile_line_new), when the profile had none as the run began and its kernel's
	 * lines by index all come from one program: kprog, by profile kernel, that program
	 * + 1 (0: none yet, UINT32_MAX: several) */
	int lines_new;
	uint32_t *kprog;
	size_t nkprog;
	size_t *events, nevents;		/* indexes into cap.ev */
	uint64_t bytes;
	atomic_int failed;			/* the worker stopped: pl->fatal says why */
	struct hand *hand;			/* stages 3 and 4 on a thread of their own,
						 * or NULL */
	int walk_failed;			/* with a hand: stages 1 and 2 stopped, their
						 * error handed over */
	int two_threads;			/* give stages 3 and 4 a thread (a hand) */
	struct timeline *timeline;		/* the rows drawn, or NULL: the caller's for
						 * the first worker, the others' merged into
						 * it at the end */
	struct occupancy *occ;			/* the same for the tokens' occupancy */
};

/* A worker given two cores runs stages 3 and 4 (costs and causes, the sums) on a thread of
 * their own.  The walk's rows, and its warnings and errors, go over in batches and in the
 * order the walk made them, so that what comes out is what one thread makes: the same
 * rows, warnings and first error.  Memory: HAND_NBATCH batches, whatever the trace
 * (256 KiB).  A batch is a lock and often a wake on each side: batches of 256 rows took
 * 1.2x the time of 1024 on the bench's stream, 2048 no less. */
#define HAND_BATCH 1024
#define HAND_NBATCH 8
enum hand_kind { HAND_ROW, HAND_WIDE, HAND_TOKEN, HAND_EVENT, HAND_SE, HAND_WARNING,
	HAND_ERROR, HAND_FAIL };
/* A row goes over without what its buffer says (a HAND_EVENT and a HAND_SE before it
 * do), its token as a number the walk's side gave it (a HAND_TOKEN before its first row
 * says which string), its delta in 32 bits, its pc its instruction's: 32 bytes an item,
 * which the two cores pass between them (at 64, a cache line an item, stall took 1.11x
 * the time on the bench's stream: the walk's side waits on each line it writes).  A row
 * whose delta, slot, pc or token does not fit goes over wide: a HAND_WIDE before it
 * carries them.  The tokens are the walker's labels, one string each (about 155 a
 * generation); past HAND_TOKENS of them in one worker, the rows go wide. */
#define HAND_TOKENS 255		/* the token numbers; this one: the row is wide */
struct hand_row {
	const struct inst *in;
	uint64_t time;
	uint32_t delta;
	uint32_t idx;		/* UINT32_MAX: SIZE_MAX (an inst's index is 32 bits) */
};
struct hand_wide {	/* its slot in .wave */
	uint64_t delta, pc;
	const char *token;
};
struct hand_event {	/* its program's number in .wave; its se in a HAND_SE's */
	long event;
	const char *kernel, *tag;
};
struct hand_item {
	union {
		struct hand_row row;
		struct hand_wide wide;
		struct hand_event ev;
		const char *token;	/* HAND_TOKEN: the string of token number .token */
		char *msg;	/* a warning, an error or the walk's failure (NULL: out of
				 * memory) */
	} u;
	unsigned wave;		/* HAND_ROW's, and see above */
	uint8_t slot;		/* HAND_ROW's */
	uint8_t row_kind;	/* HAND_ROW's enum row_kind */
	uint8_t token;		/* HAND_ROW's and HAND_TOKEN's token number */
	uint8_t kind;		/* enum hand_kind */
};
_Static_assert(sizeof(struct hand_item) <= 32, "a hand item is 32 bytes");
struct hand_batch {	/* a batch's items start a cache line of their own */
	_Alignas(64) struct hand_item item[HAND_BATCH];
	size_t n;
};
struct hand {
	struct hand_batch batch[HAND_NBATCH];
	size_t filled, taken;	/* batches given over and batches done, counted; the
				 * walk fills batch[filled % HAND_NBATCH] */
	struct hand_item *cur, *end;	/* the walk's side: where it fills that batch
					 * (its n is set as it is given over) */
	struct walk_row last;	/* the walk's side: what the last HAND_EVENT said */
	int said;		/* and whether one was sent */
	const char *token[HAND_TOKENS];	/* the walk's side: the tokens numbered */
	unsigned ntoken;
	/* and a token's number by its string's address, direct-mapped */
	struct { const char *token; unsigned number; } token_memo[64];
	int closed;		/* no more batches will come */
	int walk_waits, costs_wait;	/* a side sleeps: the other wakes it, once half
					 * the batches are free (or full) */
	mtx_t mtx;
	cnd_t cnd;
	thrd_t thread;
};
/* Set on the thread that runs stages 3 and 4 of a hand. */
static _Thread_local int on_hand_thread;

struct pipeline {
	struct pipeline_opts o;
	const char *path;
	struct timeline *timeline;	/* the rows drawn too, or NULL */
	struct occupancy *occ;		/* every SIMD's waves in flight too, or NULL */
	struct capture cap;
	const struct isa_target *target;	/* gfx1100 when the capture says none */
	int target_said;
	/* --by-dispatch: each buffer's dispatch key, made before the workers start (they
	 * only read it), by event number */
	struct dispatches *dispatches;
	const char **event_key;
	/* the run, as the workers see it */
	struct profile *prof;
	pipeline_row_fn row_fn;
	void *row_ctx;
	mtx_t lock;		/* the warnings and the errors, of every worker */
	atomic_int stop;	/* a worker failed: the others stop too */
	char **warnings;
	size_t nwarnings;
	uint64_t warnings_dropped;
	char *first_error;	/* a program that could not be walked: the run fails */
	char *fatal;		/* a worker's error: the run fails with it first */
	int fatal_oom;		/* or it could not be said: "out of memory" */
	char *error;		/* what pipeline_error says */
	int error_oom;		/* or it says "out of memory" */
};

static char * __attribute__((format(printf, 1, 2)))
xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;
	int r;

	va_start(ap, fmt);
	r = vasprintf(&s, fmt, ap);
	va_end(ap);
	return r < 0 ? NULL : s;	/* NULL: out of memory */
}

/* The run's error, once: the first said wins (NULL: out of memory). */
static void
set_error(struct pipeline *pl, char *msg)
{
	if (pl->error == NULL && !pl->error_oom) {
		pl->error = msg;
		pl->error_oom = msg == NULL;
	} else
		free(msg);
}

static void
keep_warning(void *ctx, const char *msg, int error)
{
	struct pipeline *pl = ctx;

	mtx_lock(&pl->lock);
	if (error) {
		if (pl->first_error == NULL)
			pl->first_error = xstrdup(msg);
	} else if (pl->nwarnings == PIPELINE_MAX_WARNINGS) {
		pl->warnings_dropped++;
	} else {
		pl->warnings = xreallocarray(pl->warnings, pl->nwarnings + 1,
		    sizeof(*pl->warnings));
		pl->warnings[pl->nwarnings++] = xstrdup(msg);
	}
	mtx_unlock(&pl->lock);
}

/* The walk's side: the batch it fills, full, given over; while every batch is full it
 * waits for half of them to be done. */
static void __attribute__((noinline))
hand_full(struct hand *h)
{
	struct hand_batch *b = &h->batch[h->filled % HAND_NBATCH];

	b->n = HAND_BATCH;
	mtx_lock(&h->mtx);
	h->filled++;
	if (h->costs_wait && h->filled - h->taken >= HAND_NBATCH / 2)
		cnd_broadcast(&h->cnd);
	while (h->filled - h->taken >= HAND_NBATCH) {
		h->walk_waits = 1;
		cnd_wait(&h->cnd, &h->mtx);
	}
	h->walk_waits = 0;
	mtx_unlock(&h->mtx);
	b = &h->batch[h->filled % HAND_NBATCH];
	h->cur = b->item;
	h->end = b->item + HAND_BATCH;
}

/* The walk's side of a hand: the next item of the batch it fills. */
static inline struct hand_item *
hand_item(struct hand *h)
{
	if (h->cur == h->end)
		hand_full(h);
	return h->cur++;
}

/* The walk's last batch given over: no more will come. */
static void
hand_close(struct hand *h)
{
	struct hand_batch *b = &h->batch[h->filled % HAND_NBATCH];

	b->n = (size_t)(h->cur - b->item);
	mtx_lock(&h->mtx);
	if (b->n > 0)
		h->filled++;
	h->closed = 1;
	cnd_broadcast(&h->cnd);
	mtx_unlock(&h->mtx);
}

/* The costs' side: the next batch given over (NULL: no more).  Run dry, it waits for
 * half the batches to be filled, or the last. */
static struct hand_batch *
hand_take(struct hand *h)
{
	struct hand_batch *b = NULL;

	mtx_lock(&h->mtx);
	if (h->taken == h->filled)
		while (h->filled - h->taken < HAND_NBATCH / 2 && !h->closed) {
			h->costs_wait = 1;
			cnd_wait(&h->cnd, &h->mtx);
		}
	h->costs_wait = 0;
	if (h->taken < h->filled)
		b = &h->batch[h->taken % HAND_NBATCH];
	mtx_unlock(&h->mtx);
	return b;
}

static void
hand_done(struct hand *h)
{
	mtx_lock(&h->mtx);
	h->taken++;
	if (h->walk_waits && h->filled - h->taken <= HAND_NBATCH / 2)
		cnd_broadcast(&h->cnd);
	mtx_unlock(&h->mtx);
}

/* A message of the walk's side handed over (msg NULL: out of memory). */
static void
hand_message(struct worker *wk, enum hand_kind kind, char *msg)
{
	struct hand_item *it = hand_item(wk->hand);

	it->kind = kind;
	it->u.msg = msg;
}

/* Is the walk's side stopped: failed itself, or the costs' side did. */
static int
walk_stopped(const struct worker *wk)
{
	return wk->walk_failed || atomic_load(&wk->failed);
}

/* The worker's error msg (NULL: out of memory) kept, and the worker stops. */
static void
fail_with(struct worker *wk, char *msg)
{
	struct pipeline *pl = wk->pl;

	mtx_lock(&pl->lock);
	if (pl->fatal == NULL && !pl->fatal_oom) {
		if (msg == NULL)
			pl->fatal_oom = 1;
		pl->fatal = msg;
	} else
		free(msg);
	mtx_unlock(&pl->lock);
	atomic_store(&pl->stop, 1);
	wk->failed = 1;
}

/* A warning (or, error set, a program that could not be walked) of the walk's side: kept,
 * or with a hand handed over in the walk's order. */
static void
walk_warning(void *ctx, const char *msg, int error)
{
	struct worker *wk = ctx;

	if (wk->hand != NULL && !on_hand_thread)
		hand_message(wk, error ? HAND_ERROR : HAND_WARNING, xstrdup(msg));
	else
		keep_warning(wk->pl, msg, error);
}

/* A worker's error: kept (the first of every worker), and the worker stops. */
static void __attribute__((format(printf, 2, 3)))
worker_fail(struct worker *wk, const char *fmt, ...)
{
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;	/* said as "out of memory" */
	va_end(ap);
	if (wk->hand != NULL && !on_hand_thread) {	/* said in the walk's order */
		hand_message(wk, HAND_FAIL, msg);
		wk->walk_failed = 1;
		return;
	}
	fail_with(wk, msg);
}

/* Do the current kernel's lines by index all come from program prog (this one's line of an
 * instruction index, never made, is then new to the profile)? */
static int
one_program(struct worker *wk, unsigned prog)
{
	size_t k = wk->escaped_kernel;

	if (!wk->lines_new)
		return 0;
	if (k >= wk->nkprog) {
		size_t n = k + 1 > 2 * wk->nkprog ? k + 1 : 2 * wk->nkprog;
		wk->kprog = xreallocarray(wk->kprog, n, sizeof(*wk->kprog));
		memset(wk->kprog + wk->nkprog, 0, (n - wk->nkprog) * sizeof(*wk->kprog));
		wk->nkprog = n;
	}
	if (wk->kprog[k] == 0)
		wk->kprog[k] = prog + 1;
	else if (wk->kprog[k] != prog + 1)
		wk->kprog[k] = UINT32_MAX;
	return wk->kprog[k] == prog + 1;
}

static struct profile_line *
line_of(struct worker *wk, const struct walk_row *r)
{
	struct lines *ls;
	char pc[24];

	if (r->idx == SIZE_MAX) {
		*fmt_hex(pc, r->pc) = '\0';
		return profile_line(wk->prof, wk->escaped_kernel, pc, r->in->text);
	}
	if (r->prog >= wk->nlines) {
		wk->lines = xreallocarray(wk->lines, r->prog + 1, sizeof(*wk->lines));
		memset(wk->lines + wk->nlines, 0, (r->prog + 1 - wk->nlines) * sizeof(*wk->lines));
		wk->nlines = r->prog + 1;
	}
	ls = &wk->lines[r->prog];
	if (r->idx >= ls->n) {
		size_t n = r->idx + 1 > 2 * ls->n ? r->idx + 1 : 2 * ls->n;
		ls->line = xreallocarray(ls->line, n, sizeof(*ls->line));
		memset(ls->line + ls->n, 0, (n - ls->n) * sizeof(*ls->line));
		ls->n = n;
	}
	if (ls->line[r->idx] == NULL || ls->line[r->idx]->kernel != wk->escaped_kernel) {
		/* the text borrowed from the code object: the walker is kept with the
		 * profile it adds to (worker_free) */
		int kept = wk->prof == wk->pl->prof;
		*fmt_hex(pc, r->pc) = '\0';
		if (ls->line[r->idx] == NULL && one_program(wk, r->prog))
			ls->line[r->idx] = profile_line_new(wk->prof, wk->escaped_kernel, pc,
			    r->in->text, kept);
		else
			ls->line[r->idx] = kept ?
			    profile_line_kept(wk->prof, wk->escaped_kernel, pc, r->in->text) :
			    profile_line(wk->prof, wk->escaped_kernel, pc, r->in->text);
	}
	return ls->line[r->idx];
}

/* Stage 3 out: a costed row, to the row function or to the profile. */
static void
costed(void *ctx, const void *data, size_t len, const struct attr_cost *c,
    const char *retired, int meta)
{
	int64_t cost = c->cost;
	enum cause cause = c->cause;
	struct worker *wk = ctx;
	struct pipeline *pl = wk->pl;
	const struct walk_row *r = data;
	struct profile_row pr;
	struct profile_line *line;
	char pc[24];
	int untraced_too;

	(void)len;
	if (meta || wk->failed)
		return;
	if (r->kernel != wk->escaped_of ||
	    (pl->event_key != NULL && r->event != wk->key_event)) {
		/* kept: lines remember it; with --by-dispatch each dispatch a kernel of its own */
		if (pl->event_key != NULL) {
			wk->escaped = pl->event_key[r->event];
		} else {
			char *e = meta_escape(r->kernel);
			wk->escapes = xreallocarray(wk->escapes, wk->nescapes + 1,
			    sizeof(*wk->escapes));
			wk->escapes[wk->nescapes++] = e;
			wk->escaped = e;
		}
		wk->escaped_of = r->kernel;
		wk->key_event = r->event;
		if (!pl->o.rows) {
			if (wk->prof->nkernel >= PROFILE_MAX_KERNELS &&
			    profile_find(wk->prof, wk->escaped) < 0) {	/* profile_kernel's limit */
				worker_fail(wk, "%s%smore than %d kernels: the limit of a profile",
				    wk->prof->path ? wk->prof->path : "",
				    wk->prof->path ? ": " : "", PROFILE_MAX_KERNELS);
				return;
			}
			wk->escaped_kernel = profile_kernel(wk->prof, wk->escaped);
		}
	}
	if (pl->o.rows) {
		struct pipeline_row row = { r, cost, cause, retired, c->cost2, c->cause2 };
		pl->row_fn(pl->row_ctx, &row);
		return;
	}
	untraced_too = (wk->prof->flags & PROFILE_UNTRACED) != 0;
	line = cause == CAUSE_UNTRACED && !untraced_too ? NULL : line_of(wk, r);
	pr.kernel = wk->escaped;
	pr.pc = NULL;	/* profile_add needs none: the line is known */
	pr.inst = r->in->text;
	pr.cause = cause;
	pr.cost = cost;
	pr.cost2 = c->cost2;
	pr.cause2 = c->cause2;
	pr.wave_end = r->kind == ROW_WAVE_END;
	pr.timed = 1;
	pr.event = (uint64_t)r->event;
	pr.start = (int64_t)(r->time - r->delta);
	pr.end = (int64_t)r->time;
	if (wk->timeline && (cause != CAUSE_UNTRACED || untraced_too)) {
		struct tl_row t = { 0 };
		t.kernel = wk->escaped;
		if (line != NULL) {	/* the line's text, and the line for the instruction */
			t.pc = line->pc;
			t.key = line;
		} else {
			*fmt_hex(pc, r->pc) = '\0';
			t.pc = pc;
		}
		t.inst = r->in->text;
		t.cause = cause_name(cause);
		t.event = (uint64_t)r->event;
		t.se = (uint64_t)(r->se < 0 ? 0 : r->se);
		t.wave = r->wave;
		t.slot = r->slot;
		t.time = (int64_t)r->time;
		t.delta = (int64_t)r->delta;
		t.cost = cost;
		t.cost2 = c->cost2;
		t.cause2 = c->cost2 > 0 ? cause_name(c->cause2) : NULL;
		if (timeline_add(wk->timeline, &t, pr.wave_end) != 0) {
			worker_fail(wk, "%s: %s", pl->path, timeline_error(wk->timeline));
			return;
		}
	}
	if (profile_add(wk->prof, wk->escaped_kernel, line, &pr) != 0)
		worker_fail(wk, "%s: kernel %s: cycles: the sum passes 2^63-1", pl->path,
		    wk->escaped);
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
	struct worker *wk = ctx;
	char *m = xasprintf("%s: %s", wk->pl->path, msg);

	if (m != NULL)
		keep_warning(wk->pl, m, 0);
	free(m);
}

/* A row of the walk into stage 3. */
static void
attr_take(struct worker *wk, const struct walk_row *r)
{
	struct attr_row a;
	struct row_token tk;

	if (wk->failed)
		return;
	a.event = (uint64_t)r->event;
	a.wave = r->wave;
	a.time = r->time;
	a.delta = r->delta;
	a.pc_known = 1;
	a.pc = r->pc;
	a.token = r->token;
	a.kind = r->kind;
	tk = row_token_memo(&wk->tokens, r->token);
	a.valu = tk.valu;
	a.busy = tk.busy;
	a.inst = r->in->text;
	a.cls = r->in->cls;
	a.dep = r->in->dep_name;
	a.in = r->in;
	if (attr_row(wk->attr, &a, r) != 0)
		worker_fail(wk, "%s: event %ld: %s", wk->pl->path, r->event,
		    attr_error(wk->attr));
}

/* A token's number for the hand (a HAND_TOKEN handed over when it is new), HAND_TOKENS
 * when all are taken. */
static unsigned
hand_token(struct hand *h, const char *token)
{
	size_t m = ((uintptr_t)token >> 3) % 64;
	struct hand_item *it;
	unsigned i;

	if (h->token_memo[m].token == token)
		return h->token_memo[m].number;
	for (i = 0; i < h->ntoken && h->token[i] != token; i++)
		;
	if (i == h->ntoken) {
		if (h->ntoken == HAND_TOKENS)
			return HAND_TOKENS;
		h->token[h->ntoken++] = token;
		it = hand_item(h);
		it->kind = HAND_TOKEN;
		it->u.token = token;
		it->token = (uint8_t)i;
	}
	h->token_memo[m].token = token;
	h->token_memo[m].number = i;
	return i;
}

/* Stage 2 out: a row of the walk, to stage 3 or handed over to its thread. */
static void
walked(void *ctx, const struct walk_row *r)
{
	struct worker *wk = ctx;
	struct hand_item *it;
	struct hand *h;
	unsigned token;

	if (wk->hand == NULL) {
		attr_take(wk, r);
		return;
	}
	if (walk_stopped(wk))
		return;
	h = wk->hand;
	if (!h->said || r->event != h->last.event || r->kernel != h->last.kernel ||
	    r->tag != h->last.tag || r->se != h->last.se || r->prog != h->last.prog) {
		it = hand_item(h);
		it->kind = HAND_EVENT;
		it->u.ev = (struct hand_event){ r->event, r->kernel, r->tag };
		it->wave = r->prog;
		it = hand_item(h);
		it->kind = HAND_SE;
		it->wave = (unsigned)r->se;
		h->last = *r;
		h->said = 1;
	}
	token = hand_token(h, r->token);
	if (token == HAND_TOKENS || r->delta > UINT32_MAX || r->slot > UINT8_MAX ||
	    r->pc != r->in->pc) {
		it = hand_item(h);
		it->kind = HAND_WIDE;
		it->u.wide = (struct hand_wide){ r->delta, r->pc, r->token };
		it->wave = r->slot;
		token = HAND_TOKENS;
	}
	it = hand_item(h);
	it->kind = HAND_ROW;
	it->u.row = (struct hand_row){ r->in, r->time, (uint32_t)r->delta,
	    r->idx == SIZE_MAX ? UINT32_MAX : (uint32_t)r->idx };
	it->wave = r->wave;
	it->slot = (uint8_t)r->slot;
	it->row_kind = (uint8_t)r->kind;
	it->token = (uint8_t)token;
}

/* Stages 3 and 4 of a hand, on their thread: the walk's rows, warnings and errors in the
 * order it made them; once the worker failed, the rest only freed. */
static int
costs(void *arg)
{
	struct worker *wk = arg;
	struct hand *h = wk->hand;
	struct hand_batch *b;
	struct walk_row r = { 0 };
	struct hand_wide wide = { 0 };
	unsigned wide_slot = 0;
	const char *token[HAND_TOKENS] = { 0 };
	size_t i;

	on_hand_thread = 1;
	while ((b = hand_take(h)) != NULL) {
		for (i = 0; i < b->n; i++) {
			struct hand_item *it = &b->item[i];
			int failed = atomic_load(&wk->failed);

			switch (it->kind) {
			case HAND_EVENT:
				r.event = it->u.ev.event;
				r.kernel = it->u.ev.kernel;
				r.tag = it->u.ev.tag;
				r.prog = it->wave;
				break;
			case HAND_SE:
				r.se = (int)it->wave;
				break;
			case HAND_TOKEN:
				token[it->token] = it->u.token;
				break;
			case HAND_WIDE:
				wide = it->u.wide;
				wide_slot = it->wave;
				break;
			case HAND_ROW:
				if (failed)
					break;
				r.in = it->u.row.in;
				r.time = it->u.row.time;
				r.idx = it->u.row.idx == UINT32_MAX ? SIZE_MAX : it->u.row.idx;
				r.wave = it->wave;
				r.kind = (enum row_kind)it->row_kind;
				if (it->token == HAND_TOKENS) {
					r.token = wide.token;
					r.delta = wide.delta;
					r.pc = wide.pc;
					r.slot = wide_slot;
				} else {
					r.token = token[it->token];
					r.delta = it->u.row.delta;
					r.pc = r.in->pc;
					r.slot = it->slot;
				}
				attr_take(wk, &r);
				break;
			case HAND_WARNING:
			case HAND_ERROR:
				if (!failed && it->u.msg != NULL)
					keep_warning(wk->pl, it->u.msg, it->kind == HAND_ERROR);
				free(it->u.msg);
				break;
			case HAND_FAIL:
				if (!failed)
					fail_with(wk, it->u.msg);
				else
					free(it->u.msg);
				break;
			}
		}
		hand_done(h);
	}
	return 0;
}

/* A CDNA buffer's wave start or end, to the occupancy count. */
static int
occupancy_wave(void *ctx, const struct walk_packet *pk)
{
	return occupancy_packet(ctx, pk);
}

/* Stage 1: one trace buffer decoded, its tokens to stage 2.  0, or -1 when the worker
 * failed. */
static int
walk_buffer(struct worker *wk, const struct event *e)
{
	struct pipeline *pl = wk->pl;
	struct sqtt_decoder d;
	struct sqtt_token tok;
	struct walk_packet pk;
	struct capture_stream src;
	int r;
	struct sqtt_want want;
	const uint8_t *g9;
	uint8_t *own;
	size_t len;
	uint64_t total = 0;
	int eof = 0;
	char why[INPUT_WHY_MAX];

	if ((r = capture_gfx9_read(e, &g9, &len, &own, why, sizeof(why))) < 0) {
		worker_fail(wk, "%s", why);
		return -1;
	}
	if (wk->occ != NULL) {
		const struct program *p = capture_program(&pl->cap, e);
		char *name = meta_escape(p ? p->name : "-");
		occupancy_buffer(wk->occ, e->index, e->se, name);
		free(name);
	}
	if (r > 0) {	/* CDNA: no HEADER */
		r = walk_headerless_buffer(wk->walker, (long)e->index, e->se, g9, len,
		    &wk->failed, wk->occ != NULL ? occupancy_wave : NULL, wk->occ);
		if (r == -1)
			worker_fail(wk, "%s: event %u: %s", pl->path, e->index,
			    walk_error(wk->walker));
		else if (r == -2)
			worker_fail(wk, "%s: event %u: %s", pl->path, e->index,
			    occupancy_error(wk->occ));
		free(own);
		return walk_stopped(wk) ? -1 : 0;
	}
	sqtt_want_by(&want, walk_wants);
	/* a hand's worker has a core to spare for the reads too: the costs' thread waits
	 * on the walk's more than the walk's on it */
	if ((wk->two_threads ? capture_decoder_ahead : capture_decoder_why)(e, &d, &src, why,
	    sizeof(why)) != 0) {
		worker_fail(wk, "%s", why);
		return -1;
	}
	pk.event = (long)e->index;
	pk.se = e->se;
	while ((r = sqtt_next_of(&d, &tok, want.type)) > 0) {
		/* a read failed: the tokens end (asked after each refill, which the total or
		 * the end say) */
		if ((d.total != total || d.eof != eof) &&
		    (total = d.total, eof = d.eof, capture_stream_error(&src) != NULL))
			break;
		packet_of_token(d.gen, &tok, &pk);
		if (wk->occ != NULL && occupancy_packet(wk->occ, &pk) != 0) {
			worker_fail(wk, "%s: event %u: %s", pl->path, e->index,
			    occupancy_error(wk->occ));
			break;
		}
		if (walk_packet(wk->walker, &pk) != 0) {
			worker_fail(wk, "%s: event %u: %s", pl->path, e->index,
			    walk_error(wk->walker));
			break;
		}
		if (walk_stopped(wk))
			break;
	}
	if (walk_stopped(wk))
		goto out;
	if (capture_stream_error(&src) != NULL) {
		worker_fail(wk, "%s", capture_stream_error(&src));
		goto out;
	}
	if (r < 0) {
		if (e->blob != NULL)
			worker_fail(wk, "%s: event %u: %s", pl->path, e->index, d.error);
		else
			worker_fail(wk, "%s: %s", e->file, d.error);
		goto out;
	}
	if (sqtt_is_noise(d.unknown, d.ntokens)) {
		worker_fail(wk, "%s: event %u: %" PRIu64 " of %" PRIu64 " tokens UNKNOWN: random "
		    "bytes or a damaged stream, not %s SQTT", e->blob ? pl->path : e->file,
		    e->index, d.unknown, d.ntokens, d.gen->name);
		goto out;
	}
	if (d.unknown) {
		char *m = xasprintf("%s: event %u: %" PRIu64 " UNKNOWN tokens (not a %s "
		    "stream, or damaged)", pl->path, e->index, d.unknown, d.gen->name);
		if (m != NULL)
			walk_warning(wk, m, 0);
		free(m);
	}
	if (d.lost) {
		char *m = xasprintf("%s: event %u: %" PRIu64 " TIMESTAMP tokens report lost "
		    "packets", pl->path, e->index, d.lost);
		if (m != NULL)
			walk_warning(wk, m, 0);
		free(m);
	}
out:
	capture_decoder_end(&d, &src);
	return walk_stopped(wk) ? -1 : 0;
}

static int
selected(const struct capture *c, const struct event *e, void *arg)
{
	const struct pipeline *pl = arg;

	return capture_selects(&pl->o.copt, c, e, 0);
}

static void
tag_of(const struct program *p, char *buf, size_t sz)
{
	if (p == NULL || p->tag < 0)
		snprintf(buf, sz, "-");
	else
		snprintf(buf, sz, "%" PRId64, p->tag);
}

void
pipeline_put_context(const struct pipeline *pl, FILE *fp)
{
	capture_put_meta(fp, &pl->cap, 0, selected, (void *)pl);
	fprintf(fp, "%s\n", attr_meta_line(pl->o.deltas));
}

/* The context lines kept for the table. */
static int
keep_context(struct pipeline *pl, struct profile *prof)
{
	char *text = NULL, *line, *next;
	size_t len = 0;
	FILE *mem;

	if ((mem = open_memstream(&text, &len)) == NULL)
		return -1;
	pipeline_put_context(pl, mem);
	if (fclose(mem) != 0) {
		free(text);
		return -1;
	}
	for (line = text; *line; line = next) {
		next = strchr(line, '\n');
		*next++ = '\0';
		profile_keep_line(prof, line);
	}
	profile_set_view(prof, pl->o.deltas ? "raw" : "cause");
	free(text);
	return 0;
}

static void
worker_init(struct pipeline *pl, struct worker *wk, struct profile *prof)
{
	struct capture *cap = &pl->cap;
	size_t i;

	memset(wk, 0, sizeof(*wk));
	wk->pl = pl;
	if (prof != NULL) {
		wk->prof = prof;
	} else {
		profile_init(&wk->own, pl->prof ? pl->prof->flags : 0);
		wk->prof = &wk->own;
	}
	wk->lines_new = wk->prof->nall == 0;
	wk->walker = walk_new(walked, wk);
	walk_set_warn(wk->walker, walk_warning, wk);
	wk->key_event = -1;
	wk->attr = attr_new(pl->o.deltas, costed, attr_warning, row_bytes, wk);
	attr_list_retired(wk->attr, pl->o.rows);
	attr_model(wk->attr, pl->target->model);
	walk_target(wk->walker, pl->target_said ? pl->target : NULL);
	walk_source(wk->walker, cap->path);
	for (i = 0; i < cap->nprog; i++) {
		const struct program *p = &cap->prog[i];
		size_t len = 0;
		const uint8_t *img = capture_code(cap, i, &len);
		char tag[24];

		tag_of(p, tag, sizeof(tag));
		walk_program(wk->walker, p->name, tag, p->base, p->file, img, len);
	}
	for (i = 0; i < cap->nev; i++) {
		const struct program *p = capture_program(cap, &cap->ev[i]);
		char tag[24];

		tag_of(p, tag, sizeof(tag));
		if (selected(cap, &cap->ev[i], pl))
			walk_event(wk->walker, (long)cap->ev[i].index, p ? p->name : "-", tag);
	}
}

static void
release_walker(void *walker)
{
	walk_free(walker);
}

static void
worker_free(struct worker *wk)
{
	size_t i;

	if (wk->prof != NULL && wk->prof == wk->pl->prof)	/* its lines borrow the code's text */
		profile_keep(wk->prof, wk->walker, release_walker);
	else
		walk_free(wk->walker);
	attr_free(wk->attr);
	if (wk->prof == &wk->own)
		profile_free(&wk->own);
	for (i = 0; i < wk->nlines; i++) {
		free(wk->lines[i].line);
	}
	free(wk->lines);
	free(wk->kprog);
	for (i = 0; i < wk->nescapes; i++)
		free(wk->escapes[i]);
	free(wk->escapes);
	free(wk->events);
	if (wk->timeline != wk->pl->timeline)
		timeline_free(wk->timeline);
	if (wk->occ != wk->pl->occ)
		occupancy_free(wk->occ);
}

/* Stages 3 and 4 started on a thread of their own: 0, or -1 (the worker then runs them
 * itself). */
static int
hand_start(struct worker *wk)
{
	/* aligned_alloc wants a size that is a multiple of the alignment: the struct's own
	 * alignment, 64, makes its size one */
	_Static_assert(sizeof(struct hand) % 64 == 0, "a hand is whole cache lines");
	struct hand *h = aligned_alloc(64, sizeof(*h));

	if (h == NULL)
		return -1;
	memset(h, 0, sizeof(*h));
	h->cur = h->batch[0].item;
	h->end = h->cur + HAND_BATCH;
	if (mtx_init(&h->mtx, mtx_plain) != thrd_success) {
		free(h);
		return -1;
	}
	if (cnd_init(&h->cnd) != thrd_success) {
		mtx_destroy(&h->mtx);
		free(h);
		return -1;
	}
	wk->hand = h;
	if (thrd_create(&h->thread, costs, wk) != thrd_success) {
		wk->hand = NULL;
		cnd_destroy(&h->cnd);
		mtx_destroy(&h->mtx);
		free(h);
		return -1;
	}
	return 0;
}

/* The walk's end given over, and its thread waited for: every row has its costs. */
static void
hand_finish(struct worker *wk)
{
	struct hand *h = wk->hand;

	hand_close(h);
	thrd_join(h->thread, NULL);
	wk->hand = NULL;
	cnd_destroy(&h->cnd);
	mtx_destroy(&h->mtx);
	free(h);
}

/* A worker's buffers through the stages. */
static int
work(void *arg)
{
	struct worker *wk = arg;
	struct pipeline *pl = wk->pl;
	size_t i;
	int stopped = 0;

	if (wk->two_threads)
		(void)hand_start(wk);
	for (i = 0; i < wk->nevents && !stopped; i++)
		stopped = atomic_load(&pl->stop) ||
		    walk_buffer(wk, &pl->cap.ev[wk->events[i]]) != 0;
	if (!stopped && walk_end(wk->walker) != 0) {	/* the wrong code object */
		worker_fail(wk, "%s: %s", pl->path, walk_error(wk->walker));
		stopped = 1;
	}
	if (wk->hand != NULL)
		hand_finish(wk);
	if (!stopped && !atomic_load(&wk->failed) && attr_end(wk->attr) != 0)
		worker_fail(wk, "%s: %s", pl->path, attr_error(wk->attr));
	if (wk->occ != NULL)	/* sorted here, side by side, not after the join */
		occupancy_settle(wk->occ);
	return 0;
}

/* The selected buffers shared out, the largest first to the least loaded worker.  One
 * worker for the row stream and the trace events (their rows go out in stream order; a
 * worker's drawing and occupancy are merged, not written), and, unless --threads asked
 * for more, for captures too small to pay for a second. */
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
share_out(struct pipeline *pl, struct worker *w, size_t nworkers, int asked)
{
	const struct capture *cap = &pl->cap;
	size_t i, j, k, n = 0, *order;
	uint64_t total = 0, *wt;

	order = xcalloc(cap->nev + 1, sizeof(*order));
	wt = xcalloc(cap->nev + 1, sizeof(*wt));
	for (i = 0; i < cap->nev; i++)
		if (selected(cap, &cap->ev[i], pl)) {
			wt[i] = weight(&cap->ev[i]);
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

/* --by-dispatch: each buffer's dispatch key.  0, or -1 with why (past the dispatches'
 * limit, dispatch_kernel's error). */
static int
dispatch_keys(struct pipeline *pl, char *why, size_t whysz)
{
	size_t i;
	int r;

	pl->dispatches = dispatch_new(-1, 1);
	pl->event_key = xcalloc(pl->cap.nev + 1, sizeof(*pl->event_key));
	for (i = 0; i < pl->cap.nev; i++) {
		const struct event *e = &pl->cap.ev[i];
		const struct program *p = capture_program(&pl->cap, e);
		char *name = meta_escape(p ? p->name : "-");

		dispatch_event(pl->dispatches, e->index, e->dispatch);
		r = dispatch_kernel(pl->dispatches, e->index, name, &pl->event_key[e->index], why,
		    whysz);
		free(name);
		if (r < 0)
			return -1;
	}
	return 0;
}

struct pipeline *
pipeline_open(const char *path, const struct pipeline_opts *o, char *why, size_t whysz)
{
	struct pipeline *pl = xcalloc(1, sizeof(*pl));
	char twhy[512];
	size_t i, nselected = 0;

	pl->o = *o;
	pl->path = path;
	if (mtx_init(&pl->lock, mtx_plain) != thrd_success) {
		snprintf(why, whysz, "cannot make a lock");
		free(pl);
		return NULL;
	}
	if (capture_open(&pl->cap, path, &pl->o.copt, why, whysz) != 0) {
		mtx_destroy(&pl->lock);
		free(pl);
		return NULL;
	}
	if ((pl->target = isa_stream_target(pl->cap.target, &pl->target_said, twhy,
	    sizeof(twhy))) == NULL) {
		snprintf(why, whysz, "%s: %s", path, twhy);
		pipeline_close(pl);
		return NULL;
	}
	for (i = 0; i < pl->cap.nev; i++)
		nselected += selected(&pl->cap, &pl->cap.ev[i], pl);
	if (nselected == 0) {
		capture_selects_none_why(&pl->o.copt, path, pl->cap.nev, why, whysz);
		pipeline_close(pl);
		return NULL;
	}
	if (pl->o.by_dispatch && dispatch_keys(pl, why, whysz) != 0) {
		pipeline_close(pl);
		return NULL;
	}
	return pl;
}

void
pipeline_close(struct pipeline *pl)
{
	size_t i;

	if (pl == NULL)
		return;
	for (i = 0; i < pl->nwarnings; i++)
		free(pl->warnings[i]);
	free(pl->warnings);
	free(pl->first_error);
	free(pl->fatal);
	free(pl->error);
	dispatch_free(pl->dispatches);
	free(pl->event_key);
	capture_close(&pl->cap);
	mtx_destroy(&pl->lock);
	free(pl);
}

/* A worker's drawing and occupancy merged into the run's, and freed: a merge's failure
 * is the run's.  None once the run failed (worker_free frees them). */
static void
merge_pictures(struct pipeline *pl, struct worker *wk)
{
	const char *why = NULL;

	if (pl->fatal != NULL || pl->fatal_oom)
		return;
	if (wk->timeline != pl->timeline && timeline_merge(pl->timeline, wk->timeline) != 0)
		why = timeline_error(pl->timeline);
	wk->timeline = pl->timeline;	/* merged, freed: no longer the worker's */
	if (why == NULL && wk->occ != pl->occ) {
		if (occupancy_merge(pl->occ, wk->occ) != 0)
			why = occupancy_error(pl->occ);
		wk->occ = pl->occ;
	}
	if (why != NULL)
		pl->fatal_oom = (pl->fatal = xasprintf("%s: %s", pl->path, why)) == NULL;
}

int
pipeline_run(struct pipeline *pl, struct profile *prof, pipeline_row_fn fn, void *ctx)
{
	struct worker w[PIPELINE_MAX_WORKERS];
	thrd_t thread[PIPELINE_MAX_WORKERS];
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	size_t i, nworkers, ninit, started, cores;
	uint64_t nrows, bytes;
	char limit[160];
	int merged;

	pl->prof = pl->o.rows ? NULL : prof;
	pl->row_fn = fn;
	pl->row_ctx = ctx;
	if (pl->prof != NULL && pl->o.by_dispatch)
		pl->prof->flags |= PROFILE_WALL;
	nworkers = pl->o.threads > 0 ? (size_t)pl->o.threads : ncpu > 0 ? (size_t)ncpu : 1;
	if (nworkers > PIPELINE_MAX_WORKERS)
		nworkers = PIPELINE_MAX_WORKERS;
	cores = nworkers;
	if (pl->o.rows || (pl->timeline && timeline_ordered(pl->timeline)))
		nworkers = 1;
	for (i = 0; i < nworkers; i++) {
		worker_init(pl, &w[i], i == 0 ? pl->prof : NULL);
		/* each its own drawing and occupancy, merged into the first in the end */
		w[i].timeline = i == 0 || !pl->timeline ? pl->timeline : timeline_fork(pl->timeline);
		w[i].occ = i == 0 || !pl->occ ? pl->occ : occupancy_new();
	}
	if (pl->prof == NULL)	/* rows: the first worker's profile is never added to */
		w[0].prof = &w[0].own, profile_init(&w[0].own, 0);
	ninit = nworkers;
	nworkers = share_out(pl, w, nworkers, pl->o.threads > 0);
	/* cores to spare: each worker's stages on two threads (the walk's, the costs') */
	for (i = 0, bytes = 0; i < nworkers; i++)
		bytes += w[i].bytes;
	for (i = 0; i < nworkers; i++)
		w[i].two_threads = 2 * nworkers <= cores &&
		    (bytes >= PARALLEL_MIN || pl->o.threads > 0);
	if (pl->prof != NULL && keep_context(pl, pl->prof) != 0)
		worker_fail(&w[0], "out of memory");
	sqtt_prepare();
	codeobj_threads((unsigned)cores, 0);	/* a big function is read by all the cores */
	walk_prepare(pl->target_said ? pl->target : NULL);
	for (started = 1; started < nworkers && !w[0].failed; started++)
		if (thrd_create(&thread[started], work, &w[started]) != thrd_success) {
			worker_fail(&w[0], "cannot start a thread");
			break;
		}
	if (!w[0].failed)
		work(&w[0]);
	for (i = 1; i < started; i++) {
		thrd_join(thread[i], NULL);
		if (pl->fatal == NULL && !pl->fatal_oom && pl->prof != NULL &&
		    (merged = profile_merge(pl->prof, &w[i].own)) != 0) {
			if (merged == -2)
				profile_full_why(pl->prof, limit, sizeof(limit));
			pl->fatal_oom = (pl->fatal = merged == -2 ? xasprintf("%s", limit) :
			    xasprintf("%s: cycles: a sum passes 2^63-1", pl->path)) == NULL;
		}
		merge_pictures(pl, &w[i]);
	}
	if (pl->fatal_oom)
		set_error(pl, xstrdup("out of memory"));
	else if (pl->fatal != NULL)
		set_error(pl, xstrdup(pl->fatal));
	else if (pl->first_error != NULL)
		set_error(pl, xstrdup(pl->first_error));
	else {
		for (i = 0, nrows = 0; i < nworkers; i++)
			nrows += walk_nrows(w[i].walker);
		if (nrows == 0)	/* a walk with nothing to show, whatever made it so */
			set_error(pl, xasprintf("%s: %s", pl->path, walk_nothing(w[0].walker)));
	}
	for (i = 0; i < ninit; i++)
		worker_free(&w[i]);
	return pl->error != NULL || pl->error_oom ? -1 : 0;
}

const char *
pipeline_error(const struct pipeline *pl)
{
	return pl->error ? pl->error : pl->error_oom ? "out of memory" : "no error";
}

const char *const *
pipeline_warnings(const struct pipeline *pl, size_t *n, uint64_t *more)
{
	*n = pl->nwarnings;
	*more = pl->warnings_dropped;
	return (const char *const *)pl->warnings;
}

void
pipeline_draw(struct pipeline *pl, struct timeline *tl)
{
	pl->timeline = tl;
}

void
pipeline_occupancy(struct pipeline *pl, struct occupancy *occ)
{
	pl->occ = occ;
}

struct dispatches *
pipeline_dispatches(const struct pipeline *pl)
{
	return pl->dispatches;
}
