#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "slotwalk.h"
#include "util.h"

/* Stitching gives up after this many instructions in a row that fit no record. */
#define STITCH_MISSES_MAX 1000

static const char *const cat_names[SC_NCAT] = {
	[SC_OPEN] = "OPEN", [SC_SMEM] = "SMEM", [SC_SALU] = "SALU", [SC_VMEM] = "VMEM",
	[SC_FLAT] = "FLAT", [SC_LDS] = "LDS", [SC_VALU] = "VALU", [SC_JUMP] = "JUMP",
	[SC_NEXT] = "NEXT", [SC_IMMED] = "IMMED", [SC_MESSAGE] = "MESSAGE",
	[SC_TRAP] = "TRAP",
};

const char *
slotwalk_cat_name(enum slot_cat c)
{
	return (unsigned)c < SC_NCAT ? cat_names[c] : "?";
}

/* A wave's way through a trap (AMD's WaveTrapStatus): its tokens are walked only when
 * it is not in one. */
enum { TRAP_NONE, TRAP_REQUESTED, TRAP_SAVED, TRAP_WAIT_PC };

struct pcinfo {
	size_t at;		/* the record it gives the pc of */
	uint64_t pc;		/* ELF address; UINT64_MAX: not known (yet) */
};

struct wave {
	int live;
	int trap;		/* TRAP_* */
	unsigned simd, slot;
	int64_t begin;
	struct slot_record *rec;
	size_t nrec, caprec;
	size_t *issued;		/* records issued whose INST is to come, oldest first */
	size_t nissued, capissued, headissued;
	int64_t *stalls;	/* ISSUE stall times not yet given to an instruction */
	size_t nstall, capstall, headstall;
	struct pcinfo *pcs;
	size_t npc, cappc;
	size_t last_of[SLOT_OPS_MAX];	/* the last record of an INST op, +1 (0: none) */
};

struct slotwalk {
	const struct slot_gen *sg;	/* the generation's facts */
	const struct codeobj *co;
	uint64_t entry, base;
	slotwalk_fn fn;
	void *ctx;
	int64_t phase;		/* AMD's cycle start phase: records issued over an earlier one */
	size_t nlive;		/* records held by the live waves */
	int full;		/* more than SLOTWALK_RECORDS_MAX of them */
	unsigned nsimd, nslot;
	struct wave *w;		/* [simd * nslot + slot] */
};

/* the wave of a SIMD's slot */
#define W(g, s, k) (&(g)->w[(size_t)(s) * (g)->nslot + (k)])

int
slotwalk_is_traced(const struct sqtt_fields *f)
{
	const struct slot_gen *sg = gen_slots();

	return f->wgp == sg->traced_wgp && f->sa == sg->traced_sa;
}

struct slotwalk *
slotwalk_new(const struct codeobj *co, uint64_t entry, uint64_t base, slotwalk_fn fn,
    void *ctx)
{
	struct slotwalk *g = xcalloc(1, sizeof(*g));

	g->sg = gen_slots();
	g->nsimd = g->sg->simds;
	g->nslot = g->sg->wave_slots;
	g->w = xcalloc((size_t)g->nsimd * g->nslot, sizeof(*g->w));
	g->co = co;
	g->entry = entry;
	g->base = base;
	g->fn = fn;
	g->ctx = ctx;
	g->phase = g->sg->start_phase;
	return g;
}

static void
wave_reset(struct wave *w)
{
	free(w->rec);
	free(w->issued);
	free(w->stalls);
	free(w->pcs);
	memset(w, 0, sizeof(*w));
}

void
slotwalk_free(struct slotwalk *g)
{
	unsigned s, k;

	if (g == NULL)
		return;
	for (s = 0; s < g->nsimd; s++)
		for (k = 0; k < g->nslot; k++)
			wave_reset(W(g, s, k));
	free(g->w);
	free(g);
}

#define GROW(p, n, cap) do { \
	if ((n) == (cap)) { \
		(cap) = (cap) ? 2 * (cap) : 16; \
		(p) = xreallocarray((p), (cap), sizeof(*(p))); \
	} \
} while (0)

static struct slot_record *
push_rec(struct slotwalk *g, struct wave *w, int64_t time, enum slot_cat cat,
    int64_t duration, int64_t stall)
{
	struct slot_record *r;

	GROW(w->rec, w->nrec, w->caprec);
	r = &w->rec[w->nrec++];
	if (++g->nlive > SLOTWALK_RECORDS_MAX)
		g->full = 1;
	r->time = time;
	r->cat = cat;
	r->duration = duration;
	r->stall = stall;
	r->pc = 0;
	r->in = NULL;
	return r;
}

static void
push_pc(struct wave *w, size_t at, uint64_t pc)
{
	GROW(w->pcs, w->npc, w->cappc);
	w->pcs[w->npc].at = at;
	w->pcs[w->npc].pc = pc;
	w->npc++;
}

static void
wave_start(struct slotwalk *g, struct wave *w, unsigned simd, unsigned slot, int64_t time,
    uint64_t entry)
{
	wave_reset(w);
	w->live = 1;
	w->simd = simd;
	w->slot = slot;
	w->begin = time;
	push_pc(w, 0, entry);
	(void)g;
}

static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }
static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

/* A later record issued before prev's end: prev ends there (at least a cycle of issue). */
static void
mend(const struct slot_gen *sg, struct slot_record *prev, int64_t time)
{
	if (time < prev->time + prev->duration) {
		prev->duration = max64(time - prev->time, sg->cycle);
		prev->stall = min64(prev->stall, prev->duration);
	}
}

static void
apply_issue(struct slotwalk *g, struct wave *w, unsigned state, int64_t t)
{
	switch (state) {
	case SLOT_IMMED: {
		int64_t at = t, cycles;

		if (w->nrec && w->rec[w->nrec - 1].cat != SC_OPEN) {
			struct slot_record *last = &w->rec[w->nrec - 1];
			mend(g->sg, last, t);
			at = min64(last->time + last->duration, t);
		}
		cycles = g->sg->cycle + max64(0, t - at);
		push_rec(g, w, at, SC_IMMED, cycles, cycles);
		break;
	}
	case SLOT_STALL:
		GROW(w->stalls, w->nstall, w->capstall);
		w->stalls[w->nstall++] = t;
		break;
	case SLOT_ISSUED:
		GROW(w->issued, w->nissued, w->capissued);
		w->issued[w->nissued++] = w->nrec;
		push_rec(g, w, t, SC_OPEN, 0, 0);
		break;
	}
}

/* Record idx removed (a replay's): the issued records after it and the pcs given for
 * them are one lower, so that an INST still goes to the record its ISSUE made when a
 * later ISSUE came before the replay's INST (each INST is the next issued instruction's,
 * in order).  No last_of names one: the records after idx with an INST are all open. */
static void
drop_record(struct wave *w, size_t idx)
{
	size_t j;

	for (j = w->headissued; j < w->nissued; j++)
		if (w->issued[j] > idx)
			w->issued[j]--;
	for (j = 0; j < w->npc; j++)
		if (w->pcs[j].at > idx)
			w->pcs[j].at--;
}

static void
apply_inst(struct slotwalk *g, struct wave *w, unsigned type, int64_t t)
{
	const struct slot_gen *sg = g->sg;
	struct slot_op op = slot_op(sg, (int)type);
	struct slot_record *r;
	size_t idx;
	int cat;
	int64_t phase;

	if (w->trap == TRAP_WAIT_PC && (int)type == sg->op_pc) {
		/* back from the trap: the INST_PC to come is the pc it resumes at */
		push_pc(w, w->nrec, UINT64_MAX);
		w->trap = TRAP_NONE;
		if (w->nrec > 0 && w->rec[w->nrec - 1].cat == SC_TRAP)
			w->rec[w->nrec - 1].duration = t + sg->cycle - w->rec[w->nrec - 1].time;
		return;
	}
	if (w->trap != TRAP_NONE || w->headissued == w->nissued)
		return;
	idx = w->issued[w->headissued++];
	if (idx >= w->nrec)
		return;
	r = &w->rec[idx];
	if (w->nrec >= 2) {
		const struct slot_record *p = &w->rec[w->nrec - 2];
		if (r->time < p->time + p->duration)
			g->phase++;
	}
	if (idx > 0)
		mend(sg, &w->rec[idx - 1], r->time);
	phase = (g->phase + w->simd) % sg->phases;
	if (type < sg->ops_tracked)
		w->last_of[type] = idx + 1;
	if ((cat = op.cat) < 0) {
		int of = op.replays;

		if (of >= 0) {	/* the replayed instruction lasted until now */
			size_t k = w->last_of[of];

			w->last_of[of] = 0;
			if (k > 0 && k < w->nrec && k < idx) {
				struct slot_record *x = &w->rec[k - 1];
				int64_t d = x->duration;
				x->duration = max64(x->duration, t + sg->cycle - x->time);
				x->stall += x->duration - d;
			}
		}
		memmove(&w->rec[idx], &w->rec[idx + 1], (w->nrec - idx - 1) * sizeof(*w->rec));
		w->nrec--;
		g->nlive--;
		drop_record(w, idx);
		return;
	}
	if ((int)type == sg->op_pc)	/* the next record's pc comes with a NEW_PC */
		push_pc(w, idx + 1, UINT64_MAX);
	if ((int)type == sg->op_trap) {	/* a pc given the trap goes to the record after it */
		size_t k;

		w->trap = TRAP_WAIT_PC;
		for (k = 0; k < w->npc; k++)
			if (w->pcs[k].at == w->nrec - 1)
				w->pcs[k].at++;
	}
	phase += op.phase;
	r->cat = (enum slot_cat)cat;
	if (cat == SC_MESSAGE) {
		/* timed as an immediate is: from the end of the record before (no stall) to
		 * message_cycles after its ISSUE, whenever its INST comes */
		int64_t issue = r->time;

		if (idx > 0)
			r->time = min64(w->rec[idx - 1].time + w->rec[idx - 1].duration, issue);
		r->duration = sg->message_cycles + issue - r->time;
	} else
		r->duration = sg->cycle + max64(t - r->time - (int64_t)sg->cycle *
		    (phase / sg->phases), 0);
	if (w->headstall < w->nstall && r->time > w->stalls[w->headstall]) {
		int64_t prev_end = 0, from = r->time;

		if (idx > 0)
			prev_end = w->rec[idx - 1].time + w->rec[idx - 1].duration;
		while (w->headstall < w->nstall && r->time > w->stalls[w->headstall])
			from = max64(w->stalls[w->headstall++], prev_end);
		r->stall = max64(r->time - from, 0);
		r->duration = max64(r->time + r->duration - from, sg->cycle);
		r->time = from;
	}
}

static void
apply_pc(struct slotwalk *g, struct wave *w, uint64_t pc)
{
	size_t i = w->npc;
	uint64_t at = pc << g->sg->pc_shift;

	if (w->npc == 0 || w->trap != TRAP_NONE)
		return;
	while (i > 0 && w->pcs[i - 1].pc == UINT64_MAX)
		i--;
	if (i == w->npc)
		push_pc(w, w->nrec, UINT64_MAX);
	at = at >= g->base ? at - g->base : UINT64_MAX;
	w->pcs[i].pc = g->co && codeobj_at(g->co, at) ? at : UINT64_MAX;
}

/* ---- stitching: the records onto the code ---- */

static enum slot_line
line_cat(const struct slotwalk *g, const struct inst *in)
{
	return g->sg->line_of(in->mnemonic, in->cls);
}

/* A record's category as the line categories number it (-1: none). */
static int
as_line(enum slot_cat c)
{
	switch (c) {
	case SC_SMEM: return SL_SMEM;
	case SC_SALU: return SL_SALU;
	case SC_VMEM: return SL_VMEM;
	case SC_FLAT: return SL_FLAT;
	case SC_LDS: return SL_LDS;
	case SC_VALU: return SL_VALU;
	case SC_IMMED: return SL_IMMED;
	default: return -1;
	}
}

static int
plain_fit(enum slot_cat c, enum slot_line l)
{
	if (as_line(c) == (int)l)
		return 1;
	if (l == SL_BRANCH)
		return c == SC_NEXT;
	if (c == SC_MESSAGE)
		return l == SL_IMMED;
	if (c == SC_FLAT)
		return l == SL_VMEM;
	return 0;
}

static const struct inst *
after(const struct slotwalk *g, const struct inst *in)
{
	return in ? codeobj_at(g->co, in->pc + in->size) : NULL;
}

static const struct inst *
branch_to(const struct slotwalk *g, const struct inst *in)
{
	return in->target >= 0 ? codeobj_at(g->co, (uint64_t)in->target) : NULL;
}

static void
place(struct slot_record *r, const struct inst *in)
{
	r->pc = in->pc;
	r->in = in;
}

static size_t
stitch(struct slotwalk *g, struct wave *w, int64_t end)
{
	struct slot_record *rec = w->rec;
	size_t n = w->nrec, i = 0, k = 0;
	const struct inst *line, *next = NULL;
	unsigned misses = 0;

	if (g->co == NULL)
		return 0;
	while (i < n && misses < STITCH_MISSES_MAX) {
		const struct inst *given = NULL;
		struct slot_record *r;
		enum slot_line lc;
		int fits = 1;

		for (; k < w->npc && w->pcs[k].at <= i; k++) {
			if (w->pcs[k].at != i)
				continue;
			if (w->pcs[k].pc != UINT64_MAX)
				given = codeobj_at(g->co, w->pcs[k].pc);
			else if (k + 1 < w->npc) {	/* an unknown pc: on to the next known one */
				i = w->pcs[k + 1].at;
				if (i >= n)
					return i;
			}
		}
		r = &rec[i];
		if (r->cat == SC_TRAP) {	/* no instruction's: the code is not followed */
			i++;
			continue;
		}
		if (given != NULL) {
			i++;
			place(r, given);
			if (line_cat(g, given) == SL_BARRIER && i < n)
				place(&rec[i++], given);
			next = line_cat(g, given) == SL_BRANCH && r->cat == SC_JUMP ?
			    branch_to(g, given) : after(g, given);
			continue;
		}
		line = next;
		next = NULL;
		if (line == NULL || r->cat == SC_OPEN)
			break;
		next = after(g, line);
		lc = line_cat(g, line);
		if (lc == SL_DONT_KNOW)
			continue;
		if (plain_fit(r->cat, lc)) {
		} else if (lc == SL_BRANCH) {
			if (r->cat != SC_JUMP)
				break;
			next = branch_to(g, line);
		} else if (lc == SL_MFMA_SCALE && r->cat == SC_VALU) {
			/* the scale load issues a cycle of issue before the MFMA, ending with it */
			int64_t prev_end = i > 0 ? rec[i - 1].time + rec[i - 1].duration : w->begin;
			int64_t next_start = i + 1 < n ? rec[i + 1].time : end;

			r->duration += g->sg->cycle;
			if (r->time > prev_end) {
				r->time -= g->sg->cycle;
				if (r->time + r->duration < next_start)
					r->duration += g->sg->cycle;
			} else if (r->time + r->duration > next_start)
				r->duration -= g->sg->cycle;
		} else if (lc == SL_BARRIER) {
			/* a barrier: a MESSAGE as it is entered, an IMMED as it is left */
			if (r->cat == SC_MESSAGE) {
				i++;
				if (i < n && rec[i].cat == SC_IMMED)
					place(&rec[i], line);
			} else
				fits = r->cat == SC_IMMED;
		} else {
			const struct inst *two = after(g, line);

			fits = 0;
			if (i + 1 < n && as_line(rec[i + 1].cat) == (int)lc && two != NULL &&
			    as_line(r->cat) == (int)line_cat(g, two)) {
				struct slot_record t = rec[i];	/* issued in the other order */
				rec[i] = rec[i + 1];
				rec[i + 1] = t;
				next = line;
			} else if (g->sg->stitch_stops(line->mnemonic))
				break;
		}
		if (fits) {	/* r: a barrier's MESSAGE, its IMMED placed above */
			place(r, line);
			i++;
			misses = 0;
		} else
			misses++;
	}
	return i;
}

static void
emit(struct slotwalk *g, struct wave *w, int64_t end)
{
	struct slot_wave out;
	size_t i;

	if (w->nrec == 0)
		return;
	if (end < 0)
		for (i = 0; i < w->nrec; i++)
			end = max64(end, w->rec[i].time + w->rec[i].duration + g->sg->cycle);
	out.simd = w->simd;
	out.slot = w->slot;
	out.begin = w->begin;
	out.end = end;
	out.nstitched = stitch(g, w, end);
	for (i = 0; i < w->nrec; i++)
		if (w->rec[i].in == NULL)
			w->rec[i].pc = 0;
	out.rec = w->rec;
	out.nrec = w->nrec;
	g->fn(g->ctx, &out);
}

/* The wave of a token's SIMD and slot, NULL for one the traced unit has not. */
static struct wave *
wave_of(struct slotwalk *g, int simd, int slot)
{
	if (simd < 0 || slot < 0 || (unsigned)simd >= g->nsimd || (unsigned)slot >= g->nslot)
		return NULL;
	return W(g, simd, slot);
}

int
slotwalk_token(struct slotwalk *g, const struct slot_token *tok)
{
	const struct sqtt_fields *f = &tok->f;
	struct wave *w;
	int64_t t = tok->time - g->sg->cycle;	/* AMD's walk's clock */
	unsigned s, k;

	if (g->full)
		return -1;
	switch (tok->kind) {
	case SQTT_K_WAVE_START:
		if (!slotwalk_is_traced(f) || (w = wave_of(g, f->simd, f->wave)) == NULL)
			break;
		if (tok->trap) {
			/* a context save's (then its restore's) WAVE_START: the trap's record
			 * begins at the first */
			if (w->live && w->trap == TRAP_REQUESTED) {
				w->trap = TRAP_SAVED;
				push_rec(g, w, t, SC_TRAP, g->sg->cycle, 0);
			} else if (w->live && w->trap == TRAP_SAVED)
				w->trap = TRAP_WAIT_PC;
			break;
		}
		if (!w->live)
			wave_start(g, w, (unsigned)f->simd, (unsigned)f->wave, t, g->entry);
		break;
	case SQTT_K_WAVE_END:
		if (!slotwalk_is_traced(f) || (w = wave_of(g, f->simd, f->wave)) == NULL)
			break;
		if (!w->live || w->trap != TRAP_NONE)	/* in a trap: AMD's walk goes on */
			break;
		emit(g, w, t);
		g->nlive -= w->nrec;
		wave_reset(w);
		break;
	case SQTT_K_ISSUE:
		if ((w = wave_of(g, f->simd, f->wave)) == NULL)
			break;
		if (!w->live)	/* its WAVE_START lost: no entry pc */
			wave_start(g, w, (unsigned)f->simd, (unsigned)f->wave, t, UINT64_MAX);
		apply_inst(g, w, (unsigned)f->op, t);
		break;
	case SQTT_K_SLOTS:
		for (s = 0; s < tok->nslots; s++) {
			unsigned st = tok->state[s];
			if (st != SLOT_NONE && (w = wave_of(g, f->simd, (int)s)) != NULL &&
			    w->live && w->trap == TRAP_NONE)
				apply_issue(g, w, st, t);
		}
		break;
	case SQTT_K_SAVE:	/* every live wave is to be saved */
		for (s = 0; s < g->nsimd; s++)
			for (k = 0; k < g->nslot; k++)
				if (W(g, s, k)->live)
					W(g, s, k)->trap = TRAP_REQUESTED;
		break;
	case SQTT_K_NEW_PC:
		if ((w = wave_of(g, f->simd, f->wave)) != NULL && w->live)
			apply_pc(g, w, tok->pc & ((1ULL << g->sg->pc_bits) - 1));
		break;
	default:
		break;
	}
	return g->full ? -1 : 0;
}

void
slotwalk_end(struct slotwalk *g)
{
	unsigned s, k;

	for (s = 0; s < g->nsimd; s++)
		for (k = 0; k < g->nslot; k++)
			if (W(g, s, k)->live) {
				emit(g, W(g, s, k), -1);
				wave_reset(W(g, s, k));
			}
}
