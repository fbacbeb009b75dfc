#include <err.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "out.h"
#include "slotwalk.h"
#include "util.h"
#include "walk.h"

#define NSLOT SQTT_SLOTS_MAX	/* room for any generation's (e->gen->wave_slots) */
#define MAX_OTHER (1u << 16)	/* wave slots of other SIMDs followed at once in a buffer */
#define LOOKAHEAD 16	/* instructions searched on the fall-through path to resynchronise */
#define MAX_EVENTS (1u << 20)	/* events of one input: walk(3) state for each */
#define WARN_CAP 10	/* warnings of one kind said; the rest are counted at the end */
#define WRONG_MIN 8	/* misfits before "most tokens do not fit" may be said */
#define HOLD_MAX 4096	/* rows held behind a token waiting for its wave's next one */
#define PEND_MAX 1	/* tokens of one wave waiting for one that says where they go */

/* The kinds of warning, each capped at WARN_CAP. */
enum wkind { W_MISFIT, W_NEWPC, W_ENTRY, W_REOPEN, W_ENDPC, W_NOEND, W_ORPHAN, W_NOCODE,
	W_TRAP, W_LOST, W_NKIND };
static const char *const wkind_name[W_NKIND] = {
	[W_MISFIT] = "token that does not fit", [W_NEWPC] = "NEW_PC outside the program",
	[W_ENTRY] = "dispatch entry", [W_REOPEN] = "WAVE_START of an open slot",
	[W_ENDPC] = "WAVE_END not at an s_endpgm", [W_NOEND] = "wave with no WAVE_END",
	[W_ORPHAN] = "tokens of no open wave", [W_NOCODE] = "buffer with no code object",
	[W_TRAP] = "wave in a trap", [W_LOST] = "waves on other SIMDs with no row",
};

/* A program of some capture, its code object opened on first use. */
struct prog {
	char *source, *name, *tag, *file;
	uint64_t base;
	const uint8_t *image;	/* given by the caller, or owned (own_image) */
	size_t len;
	int own_image;
	struct codeobj *code;
	const struct isa_model *model;	/* code's, for the fit of every token */
	int failed;		/* could not be opened: its events are not walked */
	int entry_said;		/* the trace's entry disagreed with the descriptor: said once */
};

struct wave {
	int alive;
	unsigned number;
	uint64_t pc, last;
	unsigned rows;
	unsigned said;		/* its tokens --packets printed */
	int exec0;		/* an instruction may have left EXEC zero (isa exec_write) */
	/* Tokens that fit no instruction at pc wait for the wave's next tokens to say where
	 * they go (look-ahead): their rows' places in the held rows, their tokens. */
	unsigned pend;
	struct pending {
		uint64_t seq, time;
		enum sqtt_type type;
		int op;
	} pq[PEND_MAX];
	uint64_t unread;	/* the first word LLVM could not read that the wave issued
				 * (its pc + 1), 0: none: from there on its pc is uncertain */
	const struct wevent *ev;	/* its event (untraced: the HEADER's barrier rule) */
	const struct inst *near;	/* the instruction it issued last (NULL: none yet),
					 * its code's, where the next is looked for first */
};

/* A row held in order while an earlier token waits for its wave's next one. */
struct held {
	struct walk_row r;
	int state;		/* H_READY, H_PENDING, H_DROPPED */
	struct wevent *e;	/* H_PENDING: the waiting token's buffer and slot */
	unsigned slot;
};
enum { H_READY, H_PENDING, H_DROPPED };

/* One buffer's walk.  Its waves' slots are allocated while any is alive. */
struct wevent {
	long id;
	int se;
	const char *kernel;
	long prog;		/* index into progs, -1: none */
	int have_header;
	unsigned sa, wgp, simd;
	const struct sqtt_gen *gen;	/* the HEADER's generation (the default before) */
	int no_barrier_wait;	/* the HEADER says s_barrier_wait emits no token */
	struct sqtt_pgm pgm;	/* the dispatch's COMPUTE_PGM writes: where its waves start */
	uint64_t line_time;	/* a headerless text stream's latest token time */
	struct wave *slot;	/* NSLOT, or NULL when no wave is alive */
	unsigned alive;
	/* Waves on other SIMDs, of the traced unit or not (no instruction tokens are traced
	 * there): each open one's start, its row written at its WAVE_END.  other: struct
	 * other_wave by unit and slot, freed when none is open. */
	struct u64map other;
	unsigned other_open;
	unsigned nwaves;	/* traced waves numbered */
	unsigned nuntraced;	/* waves of other SIMDs written (numbered from WALK_UNTRACED_WAVE) */
	uint64_t other_lost;	/* their WAVE_STARTs past MAX_OTHER slots: no row */
	uint64_t other_reopen;	/* their WAVE_STARTs while the slot's wave was open */
	uint64_t orphan;	/* instruction tokens for slots with no open wave */
	uint64_t fit, misfit;	/* instruction tokens placed where the wave was, or not */
	uint64_t dropped;	/* of the misfits: tokens placed nowhere */
	uint64_t ends_ok, ends_bad;	/* WAVE_ENDs of waves with rows at an s_endpgm, or not */
	uint64_t nocode;	/* tokens of waves of a buffer with no code object */
	struct slotwalk *sw;	/* an ISSUE-slot stream's walk (walk_slot_token) */
	struct walker *wk;	/* g9's rows' walker */
};

/* Kernel and tag of a buffer, from walk_event. */
struct evinfo {
	long event;
	char *kernel, *tag;
	long prog;
};

struct walker {
	walk_row_fn emit;
	void *ctx;
	struct prog *progs;
	size_t nprogs;
	char *source;
	struct prog cmdline;	/* walk_use_code */
	const struct isa_target *target;	/* the stream's ##target, NULL: not said */
	int use_cmdline;
	struct evinfo *infos;
	size_t ninfos;
	struct u64map events;	/* struct wevent by id */
	struct wevent *cur;
	long dbg_wave;
	unsigned long dbg_n;
	void (*warn_fn)(void *, const char *, int);
	void *warn_ctx;
	walk_load_fn load_fn;
	void *load_ctx;
	uint64_t nwarn, nrows;
	uint64_t nwarn_kind[W_NKIND];
	size_t nev_seen, nev_nocode;	/* buffers walked; of them, with no code object */
	char *misfit_said[WARN_CAP];	/* said at the end, unless the walk is refused */
	struct held *held;	/* rows in order behind a waiting token: held[i] is row seq base+i */
	size_t hstart, hend, hcap;
	uint64_t hbase;
	unsigned nfailed;
	char error[256];
};

static void other_free(struct wevent *);

/* A warning said: to the caller's function (walk_set_warn), else to standard error. */
static void
say(struct walker *wk, const char *msg)
{
	if (wk->warn_fn) {
		wk->warn_fn(wk->warn_ctx, msg, 0);
		return;
	}
	warning_out("%s", msg);
}

static void __attribute__((format(printf, 3, 4)))
warning(struct walker *wk, enum wkind kind, const char *fmt, ...)
{
	va_list ap;
	char msg[512];

	wk->nwarn++;
	if (++wk->nwarn_kind[kind] > WARN_CAP)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (kind == W_MISFIT) {
		wk->misfit_said[wk->nwarn_kind[kind] - 1] = xstrdup(msg);
		return;
	}
	say(wk, msg);
}

struct walker *
walk_new(walk_row_fn emit, void *ctx)
{
	struct walker *wk = xcalloc(1, sizeof(*wk));

	wk->emit = emit;
	wk->ctx = ctx;
	wk->dbg_wave = -1;
	return wk;
}

static void
prog_free(struct prog *p)
{
	codeobj_close(p->code);
	if (p->own_image)
		free((void *)p->image);
	free(p->source);
	free(p->name);
	free(p->tag);
	free(p->file);
}

void
walk_free(struct walker *wk)
{
	size_t i;

	if (wk == NULL)
		return;
	for (i = 0; i < wk->nprogs; i++)
		prog_free(&wk->progs[i]);
	for (i = 0; i < WARN_CAP; i++)
		free(wk->misfit_said[i]);
	if (wk->use_cmdline)
		prog_free(&wk->cmdline);
	free(wk->progs);
	for (i = 0; i < wk->ninfos; i++) {
		free(wk->infos[i].kernel);
		free(wk->infos[i].tag);
	}
	free(wk->infos);
	free(wk->held);
	for (i = 0; i < wk->events.cap; i++)
		if (wk->events.val[i] != NULL) {
			free(((struct wevent *)wk->events.val[i])->slot);
			slotwalk_free(((struct wevent *)wk->events.val[i])->sw);
			other_free(wk->events.val[i]);
			free(wk->events.val[i]);
		}
	u64map_free(&wk->events);
	free(wk->source);
	free(wk);
}

void
walk_use_code(struct walker *wk, const char *file, uint64_t base, const char *kernel)
{
	struct prog *p = &wk->cmdline;

	p->name = xstrdup(kernel ? kernel : "-");
	p->source = xstrdup(file);
	p->file = xstrdup(file);
	p->tag = xstrdup("-");
	p->base = base;
	wk->use_cmdline = 1;
}

void
walk_target(struct walker *wk, const struct isa_target *target)
{
	wk->target = target;
}

void
walk_source(struct walker *wk, const char *path)
{
	free(wk->source);
	wk->source = xstrdup(path);
}

unsigned
walk_program(struct walker *wk, const char *name, const char *tag, uint64_t base,
    const char *file, const uint8_t *image, size_t len)
{
	struct prog *p;

	wk->progs = xreallocarray(wk->progs, wk->nprogs + 1, sizeof(*wk->progs));
	p = &wk->progs[wk->nprogs];
	memset(p, 0, sizeof(*p));
	p->source = xstrdup(wk->source ? wk->source : "-");
	p->name = xstrdup(name);
	p->tag = xstrdup(tag ? tag : "-");
	p->base = base;
	p->file = xstrdup(file ? file : "-");
	p->image = image;
	p->len = len;
	return (unsigned)wk->nprogs++;
}

void
walk_event(struct walker *wk, long event, const char *kernel, const char *tag)
{
	struct evinfo *e;
	size_t i;

	wk->infos = xreallocarray(wk->infos, wk->ninfos + 1, sizeof(*wk->infos));
	e = &wk->infos[wk->ninfos++];
	e->event = event;
	e->kernel = xstrdup(kernel);
	e->tag = xstrdup(tag ? tag : "-");
	e->prog = -1;
	for (i = wk->nprogs; i-- > 0;)
		if (strcmp(wk->progs[i].name, kernel) == 0 &&
		    (tag == NULL || strcmp(wk->progs[i].tag, tag) == 0)) {
			e->prog = (long)i;
			break;
		}
}

void
walk_set_warn(struct walker *wk, void (*fn)(void *, const char *, int), void *ctx)
{
	wk->warn_fn = fn;
	wk->warn_ctx = ctx;
}

void
walk_set_loader(struct walker *wk, walk_load_fn fn, void *ctx)
{
	wk->load_fn = fn;
	wk->load_ctx = ctx;
}

void
walk_debug(struct walker *wk, long wave, unsigned long n)
{
	wk->dbg_wave = wave;
	wk->dbg_n = n;
}

uint64_t walk_nwarnings(const struct walker *wk) { return wk->nwarn; }
uint64_t walk_nrows(const struct walker *wk) { return wk->nrows; }
unsigned walk_nfailed(const struct walker *wk) { return wk->nfailed; }
const char *walk_error(const struct walker *wk) { return wk->error; }

/* Code objects ------------------------------------------------------------------ */

static void __attribute__((format(printf, 3, 4)))
prog_failed(struct walker *wk, struct prog *p, const char *fmt, ...)
{
	va_list ap;
	char msg[768];

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	p->failed = 1;
	wk->nfailed++;
	if (wk->warn_fn) {
		wk->warn_fn(wk->warn_ctx, msg, 1);
		return;
	}
	out_flush();
	fflush(stdout);
	warnx("%s", msg);
}

static struct codeobj *prog_open(struct walker *, struct prog *);

/* The program's code object, opened on first use (NULL: it could not be). */
static inline struct codeobj *
prog_code(struct walker *wk, struct prog *p)
{
	return p->code != NULL || p->failed ? p->code : prog_open(wk, p);
}

static struct codeobj *
prog_open(struct walker *wk, struct prog *p)
{
	char why[256];
	size_t len = p->len;
	const uint8_t *img = p->image;

	if (p->code != NULL || p->failed)
		return p->code;
	if (img == NULL) {
		why[0] = '\0';
		if (wk->load_fn != NULL)
			img = wk->load_fn(wk->load_ctx, p->source, p->name, p->tag, p->file, &len,
			    why, sizeof(why));
		else
			snprintf(why, sizeof(why), "program %s: no code object given", p->name);
		p->image = img;
		p->own_image = 1;
	}
	if (img == NULL) {
		prog_failed(wk, p, "%s; its events are not walked", why);
		return NULL;
	}
	p->code = codeobj_open(img, len, p->name, wk->target, why, sizeof(why));
	if (p->code == NULL) {
		prog_failed(wk, p, "%s: program %s: %s; its events are not walked",
		    strcmp(p->file, "-") ? p->file : p->source, p->name, why);
		return NULL;
	}
	p->model = codeobj_model(p->code);
	return p->code;
}

/* Events ------------------------------------------------------------------------ */

static struct prog *
event_prog(struct walker *wk, const struct wevent *e)
{
	if (wk->use_cmdline)
		return &wk->cmdline;
	return e->prog >= 0 ? &wk->progs[e->prog] : NULL;
}

static struct codeobj *
event_code(struct walker *wk, const struct wevent *e)
{
	struct prog *p = event_prog(wk, e);

	return p ? prog_code(wk, p) : NULL;
}

static struct wevent * __attribute__((noinline))
event_find(struct walker *wk, long id, int se)
{
	const struct evinfo *info = NULL;
	struct wevent *e;
	void **slot;
	size_t i;

	slot = u64map_slot(&wk->events, (uint64_t)id);
	if (*slot != NULL)
		return wk->cur = *slot;
	if (wk->events.n > MAX_EVENTS) {
		snprintf(wk->error, sizeof(wk->error), "more than %u trace buffers (events) in one "
		    "input", MAX_EVENTS);
		return NULL;
	}
	*slot = e = xcalloc(1, sizeof(*e));
	e->id = id;
	e->se = se;
	e->kernel = "-";
	e->prog = -1;
	e->gen = sqtt_gen_default();
	for (i = wk->ninfos; i-- > 0;)
		if (wk->infos[i].event == id) {
			info = &wk->infos[i];
			e->kernel = info->kernel;
			e->prog = info->prog;
			break;
		}
	if (wk->use_cmdline && info == NULL)
		e->kernel = wk->cmdline.name;
	return wk->cur = e;
}

/* The event of id: the current one, at every token but a buffer's first, inline. */
static inline struct wevent *
event_get(struct walker *wk, long id, int se)
{
	if (wk->cur != NULL && wk->cur->id == id)
		return wk->cur;
	return event_find(wk, id, se);
}

/* Rows -------------------------------------------------------------------------- */

/* A row of wave w made (its delta since the wave's previous row), not yet written.
 * Inlined into put_row's two calls, its stores go straight to the row handed on: stall
 * took 0.97x the wall on the bench stream (perf stat -r 10, in turns). */
static inline __attribute__((always_inline)) void
make_row(struct walker *wk, struct wevent *e, struct wave *w, unsigned slot,
    const struct inst *in, uint64_t pc, uint64_t time, const char *token, enum row_kind kind,
    struct walk_row *r)
{
	const struct prog *p = event_prog(wk, e);

	r->event = e->id;
	r->se = e->se;
	r->kernel = e->kernel;
	r->wave = w->number;
	r->slot = slot;
	r->pc = pc;
	r->time = time;
	r->delta = time - w->last;
	r->token = token;
	r->kind = kind;
	r->tag = p ? p->tag : "-";
	r->in = in;
	r->prog = p == &wk->cmdline ? (unsigned)wk->nprogs : (unsigned)(p - wk->progs);
	r->idx = p && p->code && in && in->facts ? in->index : SIZE_MAX;
	w->last = time;
	w->rows++;
	wk->nrows++;
}

/* The held rows written up to the first that still waits. */
static void
held_flush(struct walker *wk)
{
	struct held *h;

	while (wk->hstart < wk->hend && (h = &wk->held[wk->hstart])->state != H_PENDING) {
		if (h->state == H_READY)
			wk->emit(wk->ctx, &h->r);
		wk->hstart++;
	}
	if (wk->hstart == wk->hend) {
		wk->hbase += wk->hstart;
		wk->hstart = wk->hend = 0;
	}
}

/* A place at the end of the held rows; its sequence number. */
static uint64_t
held_add(struct walker *wk, int state)
{
	if (wk->hend == wk->hcap) {
		if (wk->hstart > 0) {
			memmove(wk->held, wk->held + wk->hstart,
			    (wk->hend - wk->hstart) * sizeof(*wk->held));
			wk->hbase += wk->hstart;
			wk->hend -= wk->hstart;
			wk->hstart = 0;
		} else {
			wk->hcap = wk->hcap ? 2 * wk->hcap : 64;
			wk->held = xreallocarray(wk->held, wk->hcap, sizeof(*wk->held));
		}
	}
	wk->held[wk->hend].state = state;
	return wk->hbase + wk->hend++;
}

static void
put_row(struct walker *wk, struct wevent *e, struct wave *w, unsigned slot,
    const struct inst *in, uint64_t pc, uint64_t time, const char *token, enum row_kind kind)
{
	struct walk_row r;

	if (wk->hstart == wk->hend) {
		make_row(wk, e, w, slot, in, pc, time, token, kind, &r);
		wk->emit(wk->ctx, &r);
		return;
	}
	uint64_t seq = held_add(wk, H_READY);

	make_row(wk, e, w, slot, in, pc, time, token, kind, &wk->held[seq - wk->hbase].r);
}

/* A placed token's row kind: a branch taken or a jump moves the pc elsewhere. */
static enum row_kind
token_kind(const struct sqtt_gen *g, enum sqtt_type type, int op)
{
	return sqtt_type_kind(type) == SQTT_K_ISSUE && sqtt_op_moves_pc(g, op) ? ROW_TAKEN :
	    ROW_ISSUE;
}

/* Never traced: stepped over wherever the wave's pc meets them; and s_barrier_wait where
 * the stream's HEADER excludes its token (gfx12). */
static int
untraced(const struct wevent *e, const struct inst *in)
{
	return in->cls == IC_DELAY_ALU || in->cls == IC_WAIT_ALU ||
	    (e->no_barrier_wait && in->cls == IC_BARRIER);
}

static void
debug_say(struct walker *wk, const struct wevent *e, struct wave *w, unsigned slot,
    const char *token, uint64_t time, uint64_t pc, const struct inst *in, int ok)
{
	/* a token that fit nowhere made no row: counted by the tokens said */
	if ((long)w->number != wk->dbg_wave || w->said >= wk->dbg_n)
		return;
	w->said++;
	fprintf(stderr, "%s: packets: event %ld wave %u slot %u time %" PRIu64 " %-21s pc 0x%" PRIx64
	    " %s%s\n", getprogname(), e->id, w->number, slot, time, token, pc,
	    ok ? "" : "MISS ", in ? in->text : "??");
}

/* --debug's line of a token, when its wave is the one debugged */
static inline void
debug_token(struct walker *wk, const struct wevent *e, struct wave *w, unsigned slot,
    const char *token, uint64_t time, uint64_t pc, const struct inst *in, int ok)
{
	if (wk->dbg_wave >= 0)
		debug_say(wk, e, w, slot, token, time, pc, in, ok);
}

/* Does the token fit instruction in, for wave w (whose EXEC may be zero)? */
static int
fits(const struct isa_model *m, const struct wave *w, const struct inst *in,
    enum sqtt_type type, int op)
{
	if (m->token_fits(in->cls, in->mnemonic, type, op))
		return 1;
	return w->exec0 && m->exec_zero_fits != NULL &&
	    m->exec_zero_fits(in->cls, in->mnemonic, type, op);
}

/* The instruction a token of the wave issued: the one at its pc, past instructions that
 * emit nothing (s_delay_alu always, s_clause when the token is not its own). */
static const struct inst *
place(const struct codeobj *code, const struct isa_model *m, const struct wave *w,
    uint64_t *pc, enum sqtt_type type, int op)
{
	const struct inst *in, *near = w->near;
	unsigned k;

	for (k = 0; k <= LOOKAHEAD && (in = codeobj_at_near(code, near, *pc)) != NULL; k++) {
		if (fits(m, w, in, type, op))
			return in;
		if (!untraced(w->ev, in) && in->cls != IC_CLAUSE)
			return NULL;
		*pc += in->size;
		near = in;
	}
	return NULL;
}

/* The first instruction the token fits on the fall-through path, not past the end of
 * the block; NULL if there is none. */
static const struct inst *
resync(const struct codeobj *code, const struct isa_model *m, const struct wave *w,
    uint64_t *pc, enum sqtt_type type, int op)
{
	const struct inst *in;
	unsigned k;

	for (k = 0; k < LOOKAHEAD && (in = codeobj_at(code, *pc)) != NULL; k++) {
		if (fits(m, w, in, type, op))
			return in;
		if (in->cls == IC_ENDPGM || in->cls == IC_BRANCH || in->cls == IC_JUMP)
			return NULL;
		*pc += in->size;
	}
	return NULL;
}

/* The wave after instruction in (at pc) issued with the token: its next pc, and whether
 * its EXEC may be zero (the model's exec_write; a VALU that issued as a VALU says not). */
static void
advance(const struct isa_model *m, struct wave *w, const struct inst *in, uint64_t pc,
    enum sqtt_type type, int op)
{
	enum sqtt_kind k = sqtt_type_kind(type);

	w->near = in;
	if (in->cls == IC_BRANCH && k == SQTT_K_ISSUE && sqtt_op_branch_taken(m->tokens, op))
		w->pc = (uint64_t)in->target;
	else
		w->pc = pc + in->size;
	(void)m;
	if (in->exec_write)
		w->exec0 = 1;
	else if (k != SQTT_K_IMM && k != SQTT_K_IMM_MASK && in->exec0_valu)
		w->exec0 = 0;
}

/* Would the wave's next token (type, op; end: its WAVE_END) fit at pc, for wave w? */
static int
next_fits(const struct codeobj *code, const struct isa_model *m, const struct wave *w,
    uint64_t pc, enum sqtt_type type, int op, int end)
{
	const struct inst *in;
	unsigned k;

	if (!end)
		return place(code, m, w, &pc, type, op) != NULL;
	for (k = 0; k <= LOOKAHEAD && (in = codeobj_at(code, pc)) != NULL && untraced(w->ev, in); k++)
		pc += in->size;
	return in != NULL && in->cls == IC_ENDPGM;
}

/* "INST:op" for the token column, made once per generation and op: it is on every row's
 * path. */
#define LABEL_GENS GEN_MAX
static const char *
inst_label(const struct sqtt_gen *g, int op)
{
	static char label[LABEL_GENS][SQTT_NOPS][32];
	const char *name;
	char *l;

	op &= SQTT_NOPS - 1;
	l = label[g->index % LABEL_GENS][op];
	if (l[0] == '\0') {
		if ((name = sqtt_op_name(g, (unsigned)op)) != NULL)
			snprintf(l, sizeof(label[0][0]), "INST:%s", name);
		else
			snprintf(l, sizeof(label[0][0]), "INST:0x%02x", op);
	}
	return l;
}

void
walk_prepare(const struct isa_target *target)
{
	const struct sqtt_gen *g;
	unsigned v;
	int op;

	for (v = 0; v < 64; v++)
		if ((g = sqtt_gen_for_version(v)) != NULL)
			for (op = 0; op < SQTT_NOPS; op++)
				(void)inst_label(g, op);
	codeobj_prepare(target);
}

/* The s_barrier_wait instructions a token's placing stepped over where the HEADER excludes
 * their token: the wave waited there, so each gets a row (token "-") at the time of the
 * token that ended the wait, the wait its delta; the instruction of that token follows
 * at the same time.  (AMD's decoder dates its record one cycle after the wave's previous
 * one; a row here cannot be dated before tokens of other waves already written.) */
static void
barrier_rows(struct walker *wk, struct wevent *e, struct wave *w, unsigned slot,
    const struct codeobj *code, uint64_t from, uint64_t to, uint64_t time)
{
	const struct inst *in;

	for (; from < to && (in = codeobj_at(code, from)) != NULL; from += in->size) {
		if (in->cls == IC_BARRIER)
			put_row(wk, e, w, slot, in, from, time, "-", ROW_ISSUE);
	}
}

static struct wave *
wave_in(const struct wevent *e, unsigned slot)
{
	return e->slot != NULL && e->slot[slot].alive ? &e->slot[slot] : NULL;
}

/* A token's time must not go back within its wave: rows are never given made-up times. */
static int
check_time(struct walker *wk, const struct wevent *e, const struct wave *w, unsigned slot,
    uint64_t time)
{
	if (time >= w->last)
		return 0;
	snprintf(wk->error, sizeof(wk->error), "time %" PRIu64 " is before the previous token "
	    "of event %ld wave %u (slot %u), at %" PRIu64, time, e->id, w->number, slot, w->last);
	return -1;
}

static const char *
token_label(const struct wevent *e, enum sqtt_type type, int op)
{
	return sqtt_type_kind(type) == SQTT_K_ISSUE ? inst_label(e->gen, op) :
	    sqtt_type_name(type);
}

/* Where the wave's waiting tokens go if each is the instruction's at the wave's pc in
 * turn (their lengths trusted): the pc after them in t; 0 if the pc leaves the program. */
static int
take_all(const struct codeobj *code, const struct isa_model *m, const struct wave *w,
    struct wave *t)
{
	const struct inst *in;
	uint64_t pc;
	unsigned i;

	*t = *w;
	for (i = 0; i < w->pend; i++) {
		pc = t->pc;
		if ((in = place(code, m, t, &pc, w->pq[i].type, w->pq[i].op)) == NULL) {
			pc = t->pc;
			if ((in = codeobj_at(code, pc)) == NULL)
				return 0;
		}
		advance(m, t, in, pc, w->pq[i].type, w->pq[i].op);
	}
	return 1;
}

/* The wave's waiting tokens placed: each taken by the instruction at the wave's pc
 * (drop 0), or all dropped, or the one resynchronised at pc rs (rs_in). */
static void
settle(struct walker *wk, struct wevent *e, struct wave *w, unsigned slot, int drop,
    const struct inst *rs_in, uint64_t rs, const char *how)
{
	struct prog *p = event_prog(wk, e);
	const struct inst *in, *at;
	struct held *h;
	const char *token;
	uint64_t pc;
	unsigned i;

	for (i = 0; i < w->pend; i++) {
		h = &wk->held[w->pq[i].seq - wk->hbase];
		token = token_label(e, w->pq[i].type, w->pq[i].op);
		at = codeobj_at(p->code, w->pc);
		pc = w->pc;
		in = rs_in;
		if (in != NULL)
			pc = rs;
		else if (!drop && at != NULL && (in = place(p->code, p->model, w, &pc,
		    w->pq[i].type, w->pq[i].op)) == NULL)
			pc = w->pc, in = at;
		if (in != NULL && in == at && pc == w->pc && fits(p->model, w, in, w->pq[i].type, w->pq[i].op))
			;	/* a token after the first that fits where the first left the wave */
		else
			warning(wk, W_MISFIT, "event %ld wave %u (slot %u): %s at time %" PRIu64
			    " does not fit pc 0x%" PRIx64 " (%s); %s", e->id, w->number, slot, token,
			    w->pq[i].time, w->pc, at ? at->text : "no instruction there",
			    in ? how : "token dropped");
		if (in == NULL) {
			h->state = H_DROPPED;
			e->dropped++;
			continue;
		}
		h->state = H_READY;
		debug_token(wk, e, w, slot, token, w->pq[i].time, pc, in, 1);
		make_row(wk, e, w, slot, in, pc, w->pq[i].time, token,
		    token_kind(e->gen, w->pq[i].type, w->pq[i].op), &h->r);
		advance(p->model, w, in, pc, w->pq[i].type, w->pq[i].op);
	}
	w->pend = 0;
	held_flush(wk);
}

/* A wave's waiting tokens placed, now that its next token (type, op; end: its WAVE_END;
 * look 0: none, the end of the input or of the look-ahead) says where they go.  Where
 * the next token fits after them, taken in turn by the instructions at the wave's pc,
 * that is where they were (their lengths trusted: instructions that issued under
 * another token than their class's, as VALUs do with EXEC zero); where the next fits at
 * the pc itself, they were none of the program's and are dropped; where one token and
 * the next fit after an instruction further on the fall-through path, the instructions
 * between emitted nothing.  Otherwise the next token waits with them; 1 when it does. */
static int
resolve(struct walker *wk, struct wevent *e, struct wave *w, unsigned slot, int look,
    enum sqtt_type ntype, int nop, int nend, uint64_t ntime)
{
	struct prog *p = event_prog(wk, e);
	const struct codeobj *code = p->code;
	const struct isa_model *m = p->model;
	const struct inst *in;
	struct wave t;
	uint64_t q;

	if (!look) {
		settle(wk, e, w, slot, 0, NULL, 0, "taken by that instruction (its length trusted)");
		return 0;
	}
	if (take_all(code, m, w, &t) && next_fits(code, m, &t, t.pc, ntype, nop, nend)) {
		settle(wk, e, w, slot, 0, NULL, 0,
		    "taken by that instruction (the next token fits after it)");
		return 0;
	}
	if (next_fits(code, m, w, w->pc, ntype, nop, nend)) {
		settle(wk, e, w, slot, 1, NULL, 0, "token dropped");
		return 0;
	}
	q = w->pc;
	if (w->pend == 1 && (in = resync(code, m, w, &q, w->pq[0].type, w->pq[0].op)) != NULL &&
	    q != w->pc) {
		t = *w;
		advance(m, &t, in, q, w->pq[0].type, w->pq[0].op);
		if (next_fits(code, m, &t, t.pc, ntype, nop, nend)) {
			settle(wk, e, w, slot, 0, in, q, "resynchronised further on");
			return 0;
		}
	}
	if (ntime == w->pq[w->pend - 1].time) {
		/* a wave issues one instruction a cycle: of two tokens at one time that fit
		 * nowhere, the first is none */
		settle(wk, e, w, slot, 1, NULL, 0, "token dropped (the next has its time)");
		return 0;
	}
	if (nend || w->pend == PEND_MAX) {
		settle(wk, e, w, slot, 0, NULL, 0, "taken by that instruction (its length trusted)");
		return 0;
	}
	return 1;
}

/* Too many rows held behind the oldest waiting token: it is placed without its wave's
 * next token (memory follows the live waves, not the trace). */
static void
held_bound(struct walker *wk)
{
	struct held *h;

	while (wk->hend - wk->hstart > HOLD_MAX && (h = &wk->held[wk->hstart])->state == H_PENDING)
		(void)resolve(wk, h->e, &h->e->slot[h->slot], h->slot, 0, SQTT_NO_TOKEN, -1, 0,
		    0);
}

/* One issue of an instruction token by the wave in slot. */
static int
issue(struct walker *wk, struct wevent *e, unsigned slot, enum sqtt_type type, int op,
    uint64_t time)
{
	struct wave *w = wave_in(e, slot);
	struct prog *p = event_prog(wk, e);
	const struct codeobj *code;
	const struct inst *in;
	const char *token;
	uint64_t pc;

	if (w == NULL) {
		e->orphan++;
		return 0;
	}
	if (p == NULL || (code = prog_code(wk, p)) == NULL) {
		e->nocode++;
		return 0;
	}
	if (check_time(wk, e, w, slot, time) != 0)
		return -1;
	token = token_label(e, type, op);
	in = NULL;
	if (!w->pend || !resolve(wk, e, w, slot, 1, type, op, 0, time)) {
		pc = w->pc;	/* where the waiting tokens left the wave */
		in = place(code, p->model, w, &pc, type, op);
	}
	if (in == NULL) {
		e->misfit++;
		if (codeobj_at(code, w->pc) == NULL) {
			e->dropped++;
			warning(wk, W_MISFIT, "event %ld wave %u (slot %u): %s at time %" PRIu64 " does "
			    "not fit pc 0x%" PRIx64 " (no instruction there); token dropped", e->id,
			    w->number, slot, token, time, w->pc);
			debug_token(wk, e, w, slot, token, time, w->pc, NULL, 0);
			return 0;
		}
		debug_token(wk, e, w, slot, token, time, w->pc, codeobj_at(code, w->pc), 0);
		/* past a word LLVM could not read, the wave's pc is a guess (AMD's decoder
		 * loses it there): a token is kept where the pc is, so that every issue keeps
		 * its time */
		if (w->unread && !w->pend) {
			in = codeobj_at(code, w->pc);
			pc = w->pc;
			warning(wk, W_MISFIT, "event %ld wave %u (slot %u): %s at time %" PRIu64 " does "
			    "not fit pc 0x%" PRIx64 " (%s); kept there: the pc is uncertain past the "
			    "word LLVM could not read", e->id, w->number, slot, token, time, w->pc,
			    in->text);
			goto placed;
		}
		struct pending *pq = &w->pq[w->pend++];
		pq->seq = held_add(wk, H_PENDING);
		wk->held[pq->seq - wk->hbase].e = e;
		wk->held[pq->seq - wk->hbase].slot = slot;
		pq->time = time;
		pq->type = type;
		pq->op = op;
		held_bound(wk);
		return 0;
	}
	e->fit++;
	debug_token(wk, e, w, slot, token, time, pc, in, 1);
placed:
	if (e->no_barrier_wait)
		barrier_rows(wk, e, w, slot, code, w->pc, pc, time);
	put_row(wk, e, w, slot, in, pc, time, token, token_kind(e->gen, type, op));
	if (in->mnemonic[0] == '.' && !w->unread)
		w->unread = pc + 1;
	advance(p->model, w, in, pc, type, op);
	held_bound(wk);
	return 0;
}

/* NEW_PC: where a wave went after a jump (s_setpc, s_swappc...), as an absolute address. */
static void
new_pc(struct walker *wk, struct wevent *e, uint64_t raw, unsigned raw_hi)
{
	unsigned slot;
	uint64_t addr, base;
	struct wave *w;
	const struct codeobj *code;

	sqtt_new_pc(e->gen, raw, raw_hi, &slot, &addr);
	if ((w = wave_in(e, slot)) == NULL || (code = event_code(wk, e)) == NULL)
		return;
	base = event_prog(wk, e)->base;
	if (addr < base || codeobj_at(code, addr - base) == NULL) {
		warning(wk, W_NEWPC, "event %ld wave %u (slot %u): NEW_PC 0x%" PRIx64 " is no instruction of "
		    "the program (loaded at 0x%" PRIx64 ")", e->id, w->number, slot, addr, base);
		return;
	}
	w->pc = addr - base;
}

/* Where a new wave starts: the program address the dispatch wrote to COMPUTE_PGM, where
 * the stream has it and it is an instruction of the program; else the kernel descriptor's
 * entry, said once per program.  The trace's entry is the truth: that it is not the
 * descriptor's (hand-written kernels) changes nothing walked and is not said. */
static uint64_t
wave_entry(struct walker *wk, const struct wevent *e, const struct codeobj *code)
{
	struct prog *p = event_prog(wk, e);
	uint64_t desc = codeobj_entry(code), addr = sqtt_pgm_addr(&e->pgm), pc;

	if (addr == 0)
		return desc;
	pc = addr - p->base;
	if (addr < p->base || codeobj_at(code, pc) == NULL) {
		if (!p->entry_said)
			warning(wk, W_ENTRY, "event %ld: program %s: the dispatch's entry 0x%" PRIx64
			    " (COMPUTE_PGM) is no instruction of the program (loaded at 0x%" PRIx64
			    "); the kernel descriptor's entry 0x%" PRIx64 " is used", e->id, p->name,
			    addr, p->base, desc);
		p->entry_said = 1;
		return desc;
	}
	return pc;
}

/* The traced waves' numbers end where the untraced waves' begin. */
static int
traced_limit(struct walker *wk, const struct wevent *e)
{
	snprintf(wk->error, sizeof(wk->error), "event %ld: more than %u waves on the traced "
	    "unit (the limits of sqtt-walk(1))", e->id, WALK_UNTRACED_WAVE);
	return -1;
}

static int
wave_start(struct walker *wk, struct wevent *e, unsigned slot, uint64_t time)
{
	const struct codeobj *code = event_code(wk, e);
	struct wave *w;

	if (e->nwaves == WALK_UNTRACED_WAVE)
		return traced_limit(wk, e);
	if (e->slot == NULL)
		e->slot = xcalloc(NSLOT, sizeof(*e->slot));
	w = &e->slot[slot];
	if (w->alive) {
		warning(wk, W_REOPEN, "event %ld slot %u: WAVE_START while wave %u is still open", e->id,
		    slot, w->number);
		if (w->pend)
			(void)resolve(wk, e, w, slot, 0, SQTT_NO_TOKEN, -1, 0, 0);
	} else
		e->alive++;
	w->exec0 = 0;
	w->alive = 1;
	w->ev = e;
	w->number = e->nwaves++;
	w->last = time;
	w->rows = 0;
	w->said = 0;
	w->unread = 0;
	w->near = NULL;
	w->pc = code ? wave_entry(wk, e, code) : 0;
	return 0;
}

static int
wave_end(struct walker *wk, struct wevent *e, unsigned slot, uint64_t time)
{
	static const struct inst untraced_wave = { .text = "(wave not instruction-traced)",
	    .mnemonic = "", .cls = IC_UNTRACED, .dep_name = "-" };
	static const struct inst no_inst = { .text = "??", .mnemonic = "", .cls = IC_UNKNOWN,
	    .dep_name = "-" };
	struct wave *w = wave_in(e, slot);
	const struct codeobj *code;
	const struct inst *in = NULL;
	uint64_t pc;

	if (w == NULL)
		return 0;
	if (check_time(wk, e, w, slot, time) != 0)
		return -1;
	if (w->pend)
		(void)resolve(wk, e, w, slot, 1, SQTT_NO_TOKEN, -1, 1, time);
	pc = w->pc;
	if ((code = event_code(wk, e)) != NULL) {
		/* the wave's s_endpgm, past instructions that never emit a token */
		while ((in = codeobj_at(code, pc)) != NULL && w->rows > 0 && untraced(e, in))
			pc += in->size;
		in = codeobj_at(code, pc);
		if (w->rows > 0 && in != NULL && in->cls == IC_ENDPGM)
			e->ends_ok++;
		else if (w->rows > 0)
			e->ends_bad++;
		if (w->rows > 0 && in != NULL && in->cls != IC_ENDPGM)
			warning(wk, W_ENDPC, "event %ld wave %u (slot %u): WAVE_END at pc 0x%" PRIx64 " (%s), "
			    "not an s_endpgm", e->id, w->number, slot, pc, in->text);
		if (w->rows == 0 && (in == NULL || in->cls != IC_ENDPGM))
			/* no instruction tokens (a shader engine without instruction tracing):
			 * its lifetime is known, not where it went */
			put_row(wk, e, w, slot, &untraced_wave, pc, time, "WAVE_END",
			    ROW_WAVE_END);
		else
			put_row(wk, e, w, slot, in ? in : &no_inst, pc, time, "WAVE_END",
			    ROW_WAVE_END);
	} else
		e->nocode++;
	w->alive = 0;
	if (--e->alive == 0) {
		free(e->slot);
		e->slot = NULL;
	}
	return 0;
}

/* The waves open on other SIMDs, freed. */
static void
other_free(struct wevent *e)
{
	size_t i;

	for (i = 0; i < e->other.cap; i++)
		free(e->other.val[i]);
	u64map_free(&e->other);
	memset(&e->other, 0, sizeof(e->other));
	e->other_open = 0;
}

/* A wave open on another SIMD: when it started, at what pc. */
struct other_wave {
	int open;
	uint64_t start, pc;
};

/* A wave's start or end on another SIMD (of the traced unit or not: no instruction
 * tokens are traced there).  Every wave whose WAVE_START and WAVE_END the trace has is
 * kept: at its WAVE_END, one row of class untraced, its delta its lifetime, at the
 * kernel's entry, numbered from WALK_UNTRACED_WAVE in the order they end (the traced
 * waves keep theirs).  Memory follows the waves open at once. */
static int
other_wave(struct walker *wk, struct wevent *e, const struct walk_packet *pk, unsigned slot,
    int start)
{
	static const struct inst other_simd = {
	    .text = "(wave on another SIMD of the traced unit, not instruction-traced)",
	    .mnemonic = "", .cls = IC_UNTRACED, .dep_name = "-" };
	static const struct inst other_unit = {
	    .text = "(wave on another unit, not instruction-traced)",
	    .mnemonic = "", .cls = IC_UNTRACED, .dep_name = "-" };
	const struct codeobj *code;
	struct other_wave *o;
	struct wave w;
	uint64_t key;

	if ((code = event_code(wk, e)) == NULL) {
		e->nocode += !start;	/* a wave not walked, as wave_end counts them */
		return 0;
	}
	key = (uint64_t)(pk->sa & 0xff) << 24 | (uint64_t)(pk->wgp & 0xff) << 16 |
	    (uint64_t)(pk->simd & 0xff) << 8 | slot;
	o = u64map_get(&e->other, key);
	if (start) {
		if (o == NULL && e->other.n >= MAX_OTHER) {
			e->other_lost++;
			return 0;
		}
		if (o == NULL)
			o = *u64map_slot(&e->other, key) = xcalloc(1, sizeof(*o));
		if (o->open)
			e->other_reopen++;	/* the earlier wave's end is not in the trace */
		else
			e->other_open++;
		o->open = 1;
		o->start = pk->time;
		o->pc = wave_entry(wk, e, code);
		return 0;
	}
	if (o == NULL || !o->open)
		return 0;	/* it started before the trace: its lifetime is not known */
	if (pk->time < o->start) {
		snprintf(wk->error, sizeof(wk->error), "time %" PRIu64 " is before the WAVE_START of "
		    "event %ld (SA %d WGP %d SIMD %d slot %u), at %" PRIu64, pk->time, e->id, pk->sa,
		    pk->wgp, pk->simd, slot, o->start);
		return -1;
	}
	if (e->nuntraced == UINT_MAX - WALK_UNTRACED_WAVE) {
		snprintf(wk->error, sizeof(wk->error), "event %ld: more than %u waves on other "
		    "SIMDs (the limits of sqtt-walk(1))", e->id, UINT_MAX - WALK_UNTRACED_WAVE);
		return -1;
	}
	memset(&w, 0, sizeof(w));
	w.ev = e;
	w.number = WALK_UNTRACED_WAVE + e->nuntraced++;
	w.last = o->start;
	put_row(wk, e, &w, slot, (unsigned)pk->sa == e->sa && (unsigned)pk->wgp == e->wgp ?
	    &other_simd : &other_unit, o->pc, pk->time, "WAVE_END", ROW_WAVE_END);
	o->open = 0;
	if (--e->other_open == 0)
		other_free(e);
	return 0;
}

int
walk_wants(enum sqtt_type t)
{
	if (sqtt_type_kind(t) == SQTT_K_REG)	/* read by sqtt_pgm_feed alone */
		return SQTT_WANT_PGM;
	return sqtt_type_kind(t) != SQTT_K_OTHER ? SQTT_WANT_ALL : SQTT_WANT_NONE;
}

int
walk_packet(struct walker *wk, const struct walk_packet *pk)
{
	struct wevent *e = event_get(wk, pk->event, pk->se);
	unsigned slot;
	int start;

	if (e == NULL)
		return -1;

	switch (sqtt_type_kind(pk->type)) {
	case SQTT_K_HEADER: {
		struct sqtt_header h;
		sqtt_header(pk->raw, &h);
		e->have_header = 1;
		e->simd = (unsigned)pk->simd;
		e->wgp = (unsigned)pk->wgp;
		e->sa = (unsigned)pk->sa;
		if ((e->gen = sqtt_gen_for_version(h.version)) == NULL)
			e->gen = sqtt_gen_default();
		e->no_barrier_wait = h.exclude_barrier_wait;
		break;
	}
	case SQTT_K_WAVE_START:
	case SQTT_K_WAVE_END:
		start = sqtt_type_kind(pk->type) == SQTT_K_WAVE_START;
		if (!e->have_header)
			break;
		slot = ((unsigned)pk->wave & (e->gen->wave_slots - 1));
		if ((unsigned)pk->simd != e->simd || (unsigned)pk->wgp != e->wgp ||
		    (unsigned)pk->sa != e->sa)
			return other_wave(wk, e, pk, slot, start);
		if (start)
			return wave_start(wk, e, slot, pk->time);
		else
			return wave_end(wk, e, slot, pk->time);
		break;
	case SQTT_K_ISSUE:
		if (sqtt_op_unit(e->gen, pk->op) == SQTT_UNIT_OTHER_SIMD)
			break;	/* another SIMD's memory issue, no wave of ours */
		return issue(wk, e, ((unsigned)pk->wave & (e->gen->wave_slots - 1)), pk->type, pk->op, pk->time);
	case SQTT_K_VALU:
	case SQTT_K_IMM:
		return issue(wk, e, ((unsigned)pk->wave & (e->gen->wave_slots - 1)), pk->type, -1, pk->time);
	case SQTT_K_IMM_MASK: {
		unsigned mask = sqtt_immediate_mask(pk->raw);
		for (slot = 0; slot < e->gen->immediate_slots; slot++)
			if ((mask & (1u << slot)) && issue(wk, e, slot, pk->type, -1, pk->time) != 0)
				return -1;
		break;
	}
	case SQTT_K_NEW_PC:
		new_pc(wk, e, pk->raw, pk->raw_hi);
		break;
	case SQTT_K_REG:
		sqtt_pgm_feed(&e->pgm, pk->raw);
		break;
	default:
		break;
	}
	return 0;
}

static int
event_order(const void *a, const void *b)
{
	const struct wevent *x = *(const struct wevent *const *)a, *y = *(const struct wevent *const *)b;

	return x->id < y->id ? -1 : x->id > y->id;
}

/* A buffer most of whose tokens do not fit its code object, and whose waves do not all
 * end at an s_endpgm: the wrong code object, whose rows would look like a result.  (A
 * walk whose misfits were taken by the instructions at their pcs and that ends every
 * wave at an s_endpgm is the program's.)  Also counts what walk_nothing says. */
static int
check_walk(struct walker *wk, struct wevent **order, size_t n)
{
	size_t i;
	struct wevent *e;
	const struct prog *p;

	wk->nev_seen = n;
	wk->nev_nocode = 0;
	for (i = 0; i < n; i++) {
		e = order[i];
		p = event_prog(wk, e);
		if (e->misfit >= WRONG_MIN && e->misfit > e->fit &&
		    (e->ends_bad > 0 || e->ends_ok == 0)) {
			snprintf(wk->error, sizeof(wk->error), "event %ld (kernel %s): %" PRIu64 " of "
			    "%" PRIu64 " instruction tokens do not fit the code object%s%s: wrong code "
			    "object?", e->id, p ? p->name : e->kernel, e->misfit, e->misfit + e->fit,
			    p && p->file && strcmp(p->file, "-") ? " " : "",
			    p && p->file && strcmp(p->file, "-") ? p->file : "");
			return -1;
		}
		if (p == NULL || p->failed)
			wk->nev_nocode++;
	}
	return 0;
}

/* A walk with nothing to show is an error, not an empty row stream: no buffer, none with
 * a code object, or no wave at all (on any unit) in any. */
const char *
walk_nothing(struct walker *wk)
{
	if (wk->nrows > 0)
		return NULL;
	if (wk->nev_seen == 0)
		snprintf(wk->error, sizeof(wk->error), "no trace buffer: no ##event line and no "
		    "token");
	else if (wk->nev_nocode == wk->nev_seen)
		snprintf(wk->error, sizeof(wk->error), "no trace buffer has a code object "
		    "(%zu buffers, %zu ##code lines%s): no row", wk->nev_seen, wk->nprogs,
		    wk->nprogs ? ", none names their kernels" : "");
	else
		snprintf(wk->error, sizeof(wk->error), "no wave in any trace "
		    "buffer: no row");
	return wk->error;
}

static void slot_flush(struct walker *, struct wevent *);

int
walk_end(struct walker *wk)
{
	struct wevent **order;
	size_t i, n = 0;
	unsigned slot;
	int k, r, some_code = 0;

	if (wk->events.n == 0) {
		order = NULL;
		goto check;
	}
	order = xcalloc(wk->events.n, sizeof(*order));
	for (i = 0; i < wk->events.cap; i++)
		if (wk->events.val[i] != NULL)
			order[n++] = wk->events.val[i];
	xqsort(order, n, sizeof(*order), event_order);
	for (i = 0; i < n; i++)
		slot_flush(wk, order[i]);
	for (i = 0; i < n; i++)
		if (event_prog(wk, order[i]) != NULL)
			some_code = 1;
	while (wk->hstart < wk->hend)	/* tokens still waiting: no next token will come */
		(void)resolve(wk, wk->held[wk->hstart].e, &wk->held[wk->hstart].e->slot[wk->held[wk->hstart].slot],
		    wk->held[wk->hstart].slot, 0, SQTT_NO_TOKEN, -1, 0, 0);
	for (i = 0; i < n; i++) {
		struct wevent *e = order[i];
		for (slot = 0; e->slot != NULL && slot < NSLOT; slot++)
			if (e->slot[slot].alive && event_code(wk, e) != NULL)
				warning(wk, W_NOEND, "event %ld wave %u (slot %u): no WAVE_END before the end of "
				    "the buffer; its %u rows are written, its end is unknown", e->id,
				    e->slot[slot].number, slot, e->slot[slot].rows);
		if (e->other_reopen)
			warning(wk, W_REOPEN, "event %ld: a slot of another SIMD started a wave while "
			    "its wave was open (%" PRIu64 " time%s): the earlier waves' ends are not in "
			    "the trace, they have no row", e->id, e->other_reopen,
			    e->other_reopen == 1 ? "" : "s");
		if (e->other_lost)
			warning(wk, W_LOST, "event %ld: %" PRIu64 " waves on other SIMDs have no row: "
			    "they started while %u wave slots were followed (the limits of "
			    "sqtt-walk(1))", e->id, e->other_lost, MAX_OTHER);
		other_free(e);
		if (e->orphan)
			warning(wk, W_ORPHAN, "event %ld: %" PRIu64 " instruction tokens for slots with no "
			    "open wave (waves that started before the trace)", e->id, e->orphan);
		if (e->nocode && event_prog(wk, e) == NULL && some_code)
			warning(wk, W_NOCODE, "event %ld: no ##code line names its kernel %s: its "
			    "tokens are not walked (%" PRIu64 ")", e->id, e->kernel, e->nocode);
	}
check:
	r = check_walk(wk, order, n);
	free(order);
	for (k = 0; k < WARN_CAP && wk->misfit_said[k] != NULL; k++) {
		if (r == 0)
			say(wk, wk->misfit_said[k]);
		free(wk->misfit_said[k]);
		wk->misfit_said[k] = NULL;
	}
	if (r != 0)
		return r;
	for (k = 0; k < W_NKIND; k++)
		if (wk->nwarn_kind[k] > WARN_CAP) {
			char msg[128];
			snprintf(msg, sizeof(msg), "%" PRIu64 " more of the kind '%s' not shown",
			    wk->nwarn_kind[k] - WARN_CAP, wkind_name[k]);
			say(wk, msg);
		}
	return 0;
}

/* ISSUE-slot streams (CDNA) --------------------------------------------------------- */

static const char *
slot_token_name(enum slot_cat c)
{
	static const char *const name[SC_NCAT] = {
		[SC_SMEM] = "INST:smem", [SC_SALU] = "INST:salu", [SC_VMEM] = "INST:vmem",
		[SC_FLAT] = "INST:flat", [SC_LDS] = "INST:lds", [SC_VALU] = "INST:valu",
		[SC_JUMP] = "INST:jump", [SC_NEXT] = "INST:branch_not_taken",
		[SC_IMMED] = "INST:immed", [SC_MESSAGE] = "INST:message",
	};
	return (unsigned)c < SC_NCAT && name[c] ? name[c] : "INST:other";
}

/* An ISSUE-slot stream wave's records as rows, at their issue times (AMD's time + stall), then its
 * WAVE_END at the s_endpgm.  Records the stitch left without a pc make no row: their
 * cycles go to the next row's delta, so that the wave's cycles stay whole. */
static void
slot_rows(void *ctx, const struct slot_wave *gw)
{
	struct wevent *e = ctx;
	struct walker *wk = e->wk;
	const struct inst *last = NULL;
	struct wave w;
	uint64_t pc = 0, time;
	size_t i, lost = 0, traps = 0;
	int64_t trapped = 0;

	memset(&w, 0, sizeof(w));
	w.alive = 1;
	w.ev = e;
	w.number = e->nwaves++;
	w.last = (uint64_t)(gw->begin > 0 ? gw->begin : 0);
	for (i = 0; i < gw->nrec; i++) {
		const struct slot_record *r = &gw->rec[i];
		int64_t t = r->time + r->stall;

		if (r->cat == SC_TRAP) {	/* no instruction's: its cycles go to the next row */
			traps++;
			trapped += r->duration;
			continue;
		}
		if (r->in == NULL) {
			lost++;
			continue;
		}
		time = t > 0 && (uint64_t)t > w.last ? (uint64_t)t : w.last;
		put_row(wk, e, &w, gw->slot, r->in, r->pc, time, slot_token_name(r->cat),
		    r->cat == SC_JUMP ? ROW_TAKEN : ROW_ISSUE);
		e->fit++;
		last = r->in;
		pc = r->pc;
	}
	if (lost)
		warning(wk, W_MISFIT, "event %ld wave %u (slot %u): %zu of %zu records fit no "
		    "instruction of the code from the wave's entry on", e->id, w.number, gw->slot,
		    lost, gw->nrec);
	e->misfit += lost;
	if (traps)
		warning(wk, W_TRAP, "event %ld wave %u (slot %u): %zu trap%s (a context save or a "
		    "trap handler), %" PRId64 " cycles, in the delta of the row after each", e->id,
		    w.number, gw->slot, traps, traps > 1 ? "s" : "", trapped);
	if (last == NULL)
		return;
	if (gw->end < 0) {
		warning(wk, W_NOEND, "event %ld wave %u (slot %u): no WAVE_END before the end of "
		    "the buffer; its %u rows are written, its end is unknown", e->id, w.number,
		    gw->slot, w.rows);
		return;
	}
	if (last->cls == IC_ENDPGM)
		e->ends_ok++;
	else {
		e->ends_bad++;
		warning(wk, W_ENDPC, "event %ld wave %u (slot %u): WAVE_END at pc 0x%" PRIx64
		    " (%s), not an s_endpgm", e->id, w.number, gw->slot, pc, last->text);
	}
	time = (uint64_t)gw->end > w.last ? (uint64_t)gw->end : w.last;
	put_row(wk, e, &w, gw->slot, last, pc, time, "WAVE_END", ROW_WAVE_END);
}

static void
slot_flush(struct walker *wk, struct wevent *e)
{
	(void)wk;
	if (e->sw != NULL)
		slotwalk_end(e->sw);
}

int
walk_slot_token(struct walker *wk, long event, int se, const struct slot_token *tok)
{
	struct wevent *e = event_get(wk, event, se);

	if (e == NULL)
		return -1;
	if (e->sw == NULL) {
		const struct codeobj *code = event_code(wk, e);
		const struct prog *p = event_prog(wk, e);

		e->wk = wk;
		e->sw = slotwalk_new(code, code ? codeobj_entry(code) : UINT64_MAX,
		    p ? p->base : 0, slot_rows, e);
	}
	if (event_code(wk, e) == NULL) {
		if (tok->kind == SQTT_K_ISSUE || tok->kind == SQTT_K_SLOTS)
			e->nocode++;
		return 0;
	}
	if (tok->kind == SQTT_K_WAVE_START || tok->kind == SQTT_K_WAVE_END) {
		/* a wave of another CU (or SH) is kept as the waves of other units are */
		struct walk_packet pk;

		if (!slotwalk_is_traced(&tok->f) && slot_wave_packet(tok, event, se, &pk)) {
			e->sa = e->wgp = (unsigned)-1;	/* every SIMD of the traced CU is traced */
			if (other_wave(wk, e, &pk, (unsigned)tok->f.wave,
			    tok->kind == SQTT_K_WAVE_START) != 0)
				return -1;
		}
	}
	if (slotwalk_token(e->sw, tok) != 0) {
		snprintf(wk->error, sizeof(wk->error), "event %ld: its live waves hold more than "
		    "%u instruction records (the limits of sqtt-walk(1))", e->id,
		    SLOTWALK_RECORDS_MAX);
		return -1;
	}
	return e->nwaves >= WALK_UNTRACED_WAVE ? traced_limit(wk, e) : 0;
}

int
walk_headerless_line(struct walker *wk, long event, int se, const char *type,
    uint64_t time, uint64_t raw)
{
	struct slot_token tok;
	struct wevent *e;

	/* the decoder's clock only goes forward, in 63 bits: a text stream's must too */
	if (time > INT64_MAX) {
		snprintf(wk->error, sizeof(wk->error), "time %" PRIu64 " is beyond 2^63-1", time);
		return -1;
	}
	if (slot_token_line(type, time, raw, &tok, wk->error, sizeof(wk->error)) != 0 ||
	    (e = event_get(wk, event, se)) == NULL)
		return -1;
	if (time < e->line_time) {
		snprintf(wk->error, sizeof(wk->error), "time %" PRIu64 " is before the previous "
		    "token of event %ld, at %" PRIu64, time, event, e->line_time);
		return -1;
	}
	e->line_time = time;
	return walk_slot_token(wk, event, se, &tok);
}

int
walk_headerless_buffer(struct walker *wk, long event, int se, const uint8_t *data,
    size_t len, const atomic_int *stop, walk_wave_fn on_wave, void *ctx)
{
	struct slot_decoder d;
	struct slot_token t;
	struct walk_packet pk;

	slot_init(&d, data, len);
	while (!*stop && slot_next(&d, &t)) {
		if (on_wave != NULL && slot_wave_packet(&t, event, se, &pk) &&
		    on_wave(ctx, &pk) != 0)
			return -2;
		if (walk_slot_token(wk, event, se, &t) != 0)
			return -1;
	}
	return 0;
}
