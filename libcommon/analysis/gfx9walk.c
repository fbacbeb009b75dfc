#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gfx9walk.h"
#include "util.h"

/* The traced unit: AMD's walk takes the waves of CU 0 of SH 0 only. */
enum { TRACED_CU = 0, TRACED_SH = 0, NSIMD = 4, NSLOT = 16 };
/* AMD's issue phase counter's value at a buffer's start (its MISQTTParser's member) */
#define CYCLE_START_PHASE 15
/* Stitching gives up after this many instructions in a row that fit no record. */
#define STITCH_MISSES_MAX 1000

static const char *const cat_names[G9C_NCAT] = {
	[G9C_OPEN] = "OPEN", [G9C_SMEM] = "SMEM", [G9C_SALU] = "SALU", [G9C_VMEM] = "VMEM",
	[G9C_FLAT] = "FLAT", [G9C_LDS] = "LDS", [G9C_VALU] = "VALU", [G9C_JUMP] = "JUMP",
	[G9C_NEXT] = "NEXT", [G9C_IMMED] = "IMMED", [G9C_MESSAGE] = "MESSAGE",
	[G9C_TRAP] = "TRAP",
};

const char *
gfx9walk_cat_name(enum g9_cat c)
{
	return (unsigned)c < G9C_NCAT ? cat_names[c] : "?";
}

/* INST's types (gfx9.c's names) that the walk reads */
enum {
	T_SMEM_RD = 0, T_SALU_32 = 1, T_VMEM_RD = 2, T_VMEM_WR = 3, T_FLAT_WR = 4,
	T_VALU_32 = 5, T_LDS = 6, T_PC = 7, T_JUMP = 12, T_NEXT = 13, T_FLAT_RD = 14,
	T_OTHER_MSG = 15, T_SMEM_WR = 16, T_SALU_64 = 17, T_VALU_64 = 18,
	T_SMEM_RD_REPLAY = 19, T_FLAT_RD_REPLAY = 24, T_VALU_MAI = 28, NTYPES_TRACKED = 29,
	T_GO_TO_TRAP = 29
};

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
	struct g9_record *rec;
	size_t nrec, caprec;
	size_t *issued;		/* records issued whose INST is to come, oldest first */
	size_t nissued, capissued, headissued;
	int64_t *stalls;	/* ISSUE stall times not yet given to an instruction */
	size_t nstall, capstall, headstall;
	struct pcinfo *pcs;
	size_t npc, cappc;
	size_t last_of[NTYPES_TRACKED];	/* the last record of an INST type, +1 (0: none) */
};

struct gfx9walk {
	const struct codeobj *co;
	uint64_t entry, base;
	gfx9walk_fn fn;
	void *ctx;
	int64_t phase;		/* AMD's cycle start phase: records issued over an earlier one */
	size_t nlive;		/* records held by the live waves */
	int full;		/* more than GFX9WALK_RECORDS_MAX of them */
	struct wave w[NSIMD][NSLOT];
};

int
gfx9walk_is_traced(const struct gfx9_fields *f)
{
	return f->wgp == TRACED_CU && f->sa == TRACED_SH;
}

struct gfx9walk *
gfx9walk_new(const struct codeobj *co, uint64_t entry, uint64_t base, gfx9walk_fn fn,
    void *ctx)
{
	struct gfx9walk *g = xcalloc(1, sizeof(*g));

	g->co = co;
	g->entry = entry;
	g->base = base;
	g->fn = fn;
	g->ctx = ctx;
	g->phase = CYCLE_START_PHASE;
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
gfx9walk_free(struct gfx9walk *g)
{
	unsigned s, k;

	if (g == NULL)
		return;
	for (s = 0; s < NSIMD; s++)
		for (k = 0; k < NSLOT; k++)
			wave_reset(&g->w[s][k]);
	free(g);
}

#define GROW(p, n, cap) do { \
	if ((n) == (cap)) { \
		(cap) = (cap) ? 2 * (cap) : 16; \
		(p) = xreallocarray((p), (cap), sizeof(*(p))); \
	} \
} while (0)

static struct g9_record *
push_rec(struct gfx9walk *g, struct wave *w, int64_t time, enum g9_cat cat,
    int64_t duration, int64_t stall)
{
	struct g9_record *r;

	GROW(w->rec, w->nrec, w->caprec);
	r = &w->rec[w->nrec++];
	if (++g->nlive > GFX9WALK_RECORDS_MAX)
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
wave_start(struct gfx9walk *g, struct wave *w, unsigned simd, unsigned slot, int64_t time,
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

/* A later record issued before prev's end: prev ends there (at least 4 cycles). */
static void
mend(struct g9_record *prev, int64_t time)
{
	if (time < prev->time + prev->duration) {
		prev->duration = max64(time - prev->time, 4);
		prev->stall = min64(prev->stall, prev->duration);
	}
}

static void
apply_issue(struct gfx9walk *g, struct wave *w, unsigned state, int64_t t)
{
	switch (state) {
	case G9_ISSUE_IMMED: {
		int64_t at = t, cycles;

		if (w->nrec && w->rec[w->nrec - 1].cat != G9C_OPEN) {
			struct g9_record *last = &w->rec[w->nrec - 1];
			mend(last, t);
			at = min64(last->time + last->duration, t);
		}
		cycles = 4 + max64(0, t - at);
		push_rec(g, w, at, G9C_IMMED, cycles, cycles);
		break;
	}
	case G9_ISSUE_STALL:
		GROW(w->stalls, w->nstall, w->capstall);
		w->stalls[w->nstall++] = t;
		break;
	case G9_ISSUE_INST:
		GROW(w->issued, w->nissued, w->capissued);
		w->issued[w->nissued++] = w->nrec;
		push_rec(g, w, t, G9C_OPEN, 0, 0);
		break;
	}
}

/* The category of an INST type and its issue phase (AMD's: scalar 5, vector 2, other 1,
 * memory 0); -1 for a type that makes no record (a replay, an export, a DIDT mark). */
static int
inst_cat(unsigned type, int *phase)
{
	*phase = 0;
	switch (type) {
	case T_SMEM_RD: case T_SMEM_WR: *phase = 5; return G9C_SMEM;
	case T_SALU_32: case T_SALU_64: *phase = 5; return G9C_SALU;
	case T_PC: return G9C_SALU;
	case T_VMEM_RD: case T_VMEM_WR: return G9C_VMEM;
	case T_FLAT_RD: case T_FLAT_WR: return G9C_FLAT;
	case T_LDS: *phase = 1; return G9C_LDS;
	case T_VALU_32: case T_VALU_64: case T_VALU_MAI: *phase = 2; return G9C_VALU;
	case T_JUMP: *phase = 1; return G9C_JUMP;
	case T_NEXT: *phase = 1; return G9C_NEXT;
	case T_OTHER_MSG: *phase = 1; return G9C_MESSAGE;
	case T_GO_TO_TRAP: return G9C_TRAP;
	default: return -1;
	}
}

/* The type a replay repeats (smem_rd_replay 19 .. flat_rd_replay 24), -1 if none. */
static int
replayed(unsigned type)
{
	static const int of[] = { T_SMEM_RD, T_SMEM_WR, T_VMEM_RD, T_VMEM_WR, T_FLAT_WR,
		T_FLAT_RD };

	if (type < T_SMEM_RD_REPLAY || type > T_FLAT_RD_REPLAY)
		return -1;
	return of[type - T_SMEM_RD_REPLAY];
}

static void
apply_inst(struct gfx9walk *g, struct wave *w, unsigned type, int64_t t)
{
	struct g9_record *r;
	size_t idx;
	int cat, ph;
	int64_t phase;

	if (w->trap == TRAP_WAIT_PC && type == T_PC) {
		/* back from the trap: the INST_PC to come is the pc it resumes at */
		push_pc(w, w->nrec, UINT64_MAX);
		w->trap = TRAP_NONE;
		if (w->nrec > 0 && w->rec[w->nrec - 1].cat == G9C_TRAP)
			w->rec[w->nrec - 1].duration = t + 4 - w->rec[w->nrec - 1].time;
		return;
	}
	if (w->trap != TRAP_NONE || w->headissued == w->nissued)
		return;
	idx = w->issued[w->headissued++];
	if (idx >= w->nrec)	/* moved by a replay's removal */
		return;
	r = &w->rec[idx];
	if (w->nrec >= 2) {
		const struct g9_record *p = &w->rec[w->nrec - 2];
		if (r->time < p->time + p->duration)
			g->phase++;
	}
	if (idx > 0)
		mend(&w->rec[idx - 1], r->time);
	phase = (g->phase + w->simd) % 4;
	if (type < NTYPES_TRACKED)
		w->last_of[type] = idx + 1;
	if ((cat = inst_cat(type, &ph)) < 0) {
		int of = replayed(type);

		if (of >= 0) {	/* the replayed instruction lasted until now */
			size_t k = w->last_of[of];

			w->last_of[of] = 0;
			if (k > 0 && k < w->nrec && k < idx) {
				struct g9_record *x = &w->rec[k - 1];
				int64_t d = x->duration;
				x->duration = max64(x->duration, t + 4 - x->time);
				x->stall += x->duration - d;
			}
		}
		memmove(&w->rec[idx], &w->rec[idx + 1], (w->nrec - idx - 1) * sizeof(*w->rec));
		w->nrec--;
		g->nlive--;
		return;
	}
	if (type == T_PC)	/* the next record's pc comes with an INST_PC */
		push_pc(w, idx + 1, UINT64_MAX);
	if (type == T_GO_TO_TRAP) {	/* a pc given the trap goes to the record after it */
		size_t k;

		w->trap = TRAP_WAIT_PC;
		for (k = 0; k < w->npc; k++)
			if (w->pcs[k].at == w->nrec - 1)
				w->pcs[k].at++;
	}
	phase += ph;
	r->cat = (enum g9_cat)cat;
	if (cat == G9C_MESSAGE) {
		/* timed as an immediate is: from the end of the record before (no stall) to
		 * 4 cycles after its ISSUE, whenever its INST comes */
		int64_t issue = r->time;

		if (idx > 0)
			r->time = min64(w->rec[idx - 1].time + w->rec[idx - 1].duration, issue);
		r->duration = 4 + issue - r->time;
	} else
		r->duration = 4 + max64(t - r->time - 4 * (phase / 4), 0);
	if (w->headstall < w->nstall && r->time > w->stalls[w->headstall]) {
		int64_t prev_end = 0, from = r->time;

		if (idx > 0)
			prev_end = w->rec[idx - 1].time + w->rec[idx - 1].duration;
		while (w->headstall < w->nstall && r->time > w->stalls[w->headstall])
			from = max64(w->stalls[w->headstall++], prev_end);
		r->stall = max64(r->time - from, 0);
		r->duration = max64(r->time + r->duration - from, 4);
		r->time = from;
	}
}

static void
apply_pc(struct gfx9walk *g, struct wave *w, uint64_t pc)
{
	size_t i = w->npc;
	uint64_t at = pc << 2;

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

enum line_cat { L_NONE, L_SMEM, L_SALU, L_VMEM, L_FLAT, L_LDS, L_VALU, L_BRANCH,
	L_BARRIER, L_IMMED, L_MFMA_SCALE, L_DONT_KNOW };

static int pfx(const char *s, const char *p) { return strncmp(s, p, strlen(p)) == 0; }

static enum line_cat
line_cat(const struct inst *in)
{
	const char *mn = in->mnemonic;

	if (pfx(mn, "v_mfma_scale"))
		return L_MFMA_SCALE;
	if (pfx(mn, "flat_"))
		return L_FLAT;
	if (pfx(mn, "global_") || pfx(mn, "scratch_") || pfx(mn, "buffer_") ||
	    pfx(mn, "tbuffer_") || pfx(mn, "image_"))
		return L_VMEM;
	if (pfx(mn, "ds_"))
		return L_LDS;
	switch (in->cls) {
	case IC_SMEM: case IC_SMEM_STORE:
		return L_SMEM;
	case IC_SALU: case IC_SALU_EXEC: case IC_JUMP:
		return L_SALU;
	case IC_BRANCH:
		return L_BRANCH;
	case IC_BARRIER:
		return L_BARRIER;
	case IC_WAITCNT: case IC_DEPCTR: case IC_CLAUSE: case IC_IMM: case IC_ENDPGM:
	case IC_MESSAGE:
		return L_IMMED;
	case IC_UNKNOWN:
		return L_DONT_KNOW;
	default:
		return isa_class_is_valu(in->cls) ? L_VALU : L_DONT_KNOW;
	}
}

/* A record's category as the line categories number it (-1: none). */
static int
as_line(enum g9_cat c)
{
	switch (c) {
	case G9C_SMEM: return L_SMEM;
	case G9C_SALU: return L_SALU;
	case G9C_VMEM: return L_VMEM;
	case G9C_FLAT: return L_FLAT;
	case G9C_LDS: return L_LDS;
	case G9C_VALU: return L_VALU;
	case G9C_IMMED: return L_IMMED;
	default: return -1;
	}
}

static int
plain_fit(enum g9_cat c, enum line_cat l)
{
	if (as_line(c) == (int)l)
		return 1;
	if (l == L_BRANCH)
		return c == G9C_NEXT;
	if (c == G9C_MESSAGE)
		return l == L_IMMED;
	if (c == G9C_FLAT)
		return l == L_VMEM;
	return 0;
}

static const struct inst *
after(const struct gfx9walk *g, const struct inst *in)
{
	return in ? codeobj_at(g->co, in->pc + in->size) : NULL;
}

static const struct inst *
branch_to(const struct gfx9walk *g, const struct inst *in)
{
	return in->target >= 0 ? codeobj_at(g->co, (uint64_t)in->target) : NULL;
}

static void
place(struct g9_record *r, const struct inst *in)
{
	r->pc = in->pc;
	r->in = in;
}

static size_t
stitch(struct gfx9walk *g, struct wave *w, int64_t end)
{
	struct g9_record *rec = w->rec;
	size_t n = w->nrec, i = 0, k = 0;
	const struct inst *line, *next = NULL;
	unsigned misses = 0;

	if (g->co == NULL)
		return 0;
	while (i < n && misses < STITCH_MISSES_MAX) {
		const struct inst *given = NULL;
		struct g9_record *r;
		enum line_cat lc;
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
		if (r->cat == G9C_TRAP) {	/* no instruction's: the code is not followed */
			i++;
			continue;
		}
		if (given != NULL) {
			i++;
			place(r, given);
			if (line_cat(given) == L_BARRIER && i < n)
				place(&rec[i++], given);
			next = line_cat(given) == L_BRANCH && r->cat == G9C_JUMP ?
			    branch_to(g, given) : after(g, given);
			continue;
		}
		line = next;
		next = NULL;
		if (line == NULL || r->cat == G9C_OPEN)
			break;
		next = after(g, line);
		lc = line_cat(line);
		if (lc == L_DONT_KNOW)
			continue;
		if (plain_fit(r->cat, lc)) {
		} else if (lc == L_BRANCH) {
			if (r->cat != G9C_JUMP)
				break;
			next = branch_to(g, line);
		} else if (lc == L_MFMA_SCALE && r->cat == G9C_VALU) {
			/* the scale load issues 4 cycles before the MFMA, ending with it */
			int64_t prev_end = i > 0 ? rec[i - 1].time + rec[i - 1].duration : w->begin;
			int64_t next_start = i + 1 < n ? rec[i + 1].time : end;

			r->duration += 4;
			if (r->time > prev_end) {
				r->time -= 4;
				if (r->time + r->duration < next_start)
					r->duration += 4;
			} else if (r->time + r->duration > next_start)
				r->duration -= 4;
		} else if (lc == L_BARRIER) {
			/* a barrier: a MESSAGE as it is entered, an IMMED as it is left */
			if (r->cat == G9C_MESSAGE) {
				i++;
				if (i < n && rec[i].cat == G9C_IMMED)
					place(&rec[i], line);
			} else
				fits = r->cat == G9C_IMMED;
		} else {
			const struct inst *two = after(g, line);

			fits = 0;
			if (i + 1 < n && as_line(rec[i + 1].cat) == (int)lc && two != NULL &&
			    as_line(r->cat) == (int)line_cat(two)) {
				struct g9_record t = rec[i];	/* issued in the other order */
				rec[i] = rec[i + 1];
				rec[i + 1] = t;
				next = line;
			} else if (pfx(line->mnemonic, "s_waitcnt") ||
			    (strstr(line->mnemonic, "_load_") && !pfx(line->mnemonic, "scratch_")))
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
emit(struct gfx9walk *g, struct wave *w, int64_t end)
{
	struct g9_wave out;
	size_t i;

	if (w->nrec == 0)
		return;
	if (end < 0)
		for (i = 0; i < w->nrec; i++)
			end = max64(end, w->rec[i].time + w->rec[i].duration + 4);
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

int
gfx9walk_token(struct gfx9walk *g, const struct gfx9_token *tok)
{
	struct gfx9_fields f;
	struct wave *w;
	int64_t t = tok->time - 4;	/* AMD's walk's clock */
	unsigned s, k;

	if (g->full)
		return -1;
	gfx9_fields(tok, &f);
	switch (tok->type) {
	case G9_WAVE_START:
		if (!gfx9walk_is_traced(&f))
			break;
		w = &g->w[f.simd][f.wave];
		if (gfx9_wave_start_is_trap(tok)) {
			/* a context save's (then its restore's) WAVE_START: the trap's record
			 * begins at the first */
			if (w->live && w->trap == TRAP_REQUESTED) {
				w->trap = TRAP_SAVED;
				push_rec(g, w, t, G9C_TRAP, 4, 0);
			} else if (w->live && w->trap == TRAP_SAVED)
				w->trap = TRAP_WAIT_PC;
			break;
		}
		if (!w->live)
			wave_start(g, w, (unsigned)f.simd, (unsigned)f.wave, t, g->entry);
		break;
	case G9_WAVE_END:
		if (!gfx9walk_is_traced(&f))
			break;
		w = &g->w[f.simd][f.wave];
		if (!w->live || w->trap != TRAP_NONE)	/* in a trap: AMD's walk goes on */
			break;
		emit(g, w, t);
		g->nlive -= w->nrec;
		wave_reset(w);
		break;
	case G9_INST:
		w = &g->w[f.simd][f.wave];
		if (!w->live)	/* its WAVE_START lost: no entry pc */
			wave_start(g, w, (unsigned)f.simd, (unsigned)f.wave, t, UINT64_MAX);
		apply_inst(g, w, (unsigned)f.op, t);
		break;
	case G9_ISSUE:
		for (s = 0; s < G9_ISSUE_SLOTS; s++) {
			unsigned st = gfx9_issue_state(tok->raw, s);
			if (st != G9_ISSUE_NONE && g->w[f.simd][s].live &&
			    g->w[f.simd][s].trap == TRAP_NONE)
				apply_issue(g, &g->w[f.simd][s], st, t);
		}
		break;
	case G9_MISC:
		if (f.op == G9_MISC_SAVE_CONTEXT)	/* every live wave is to be saved */
			for (s = 0; s < NSIMD; s++)
				for (k = 0; k < NSLOT; k++)
					if (g->w[s][k].live)
						g->w[s][k].trap = TRAP_REQUESTED;
		break;
	case G9_INST_PC:
		w = &g->w[f.simd][f.wave];
		if (w->live)
			apply_pc(g, w, gfx9_inst_pc(tok->raw) & ((1ULL << 48) - 1));
		break;
	default:
		break;
	}
	return g->full ? -1 : 0;
}

void
gfx9walk_end(struct gfx9walk *g)
{
	unsigned s, k;

	for (s = 0; s < NSIMD; s++)
		for (k = 0; k < NSLOT; k++)
			if (g->w[s][k].live) {
				emit(g, &g->w[s][k], -1);
				wave_reset(&g->w[s][k]);
			}
}
