/* gfx9walk: the walk of a CDNA (gfx9, gfx950) buffer.  Its tokens (trace/gfx9) made into
 * each wave's instruction records as AMD's gfx9 decoder makes them: an ISSUE token's
 * per-slot state opens a record (inst: the wave issued; immed: an immediate issued, its
 * record complete; stall: the wave waited), the wave's next INST token gives the oldest
 * open record its category and its duration; the records then stitched, in order, onto
 * the code object's instructions from the wave's entry (sqtt-gfx12.md section 8,
 * sqtt-walk(1) GFX9).  Only the waves of the traced CU (CU 0 of SH 0) are walked.
 * A trap (a context save announced by a SAVE_CONTEXT MISC and the two WAVE_STARTs of
 * its save and restore, or an INST go_to_trap) is one TRAP record until the wave's
 * next INST pc, whose INST_PC gives the pc it resumes at; the wave's tokens in between
 * make no record, as in AMD's decoder.
 * Times are on the clock of AMD's walk (the token's time less 4). */
#ifndef GFX9WALK_H
#define GFX9WALK_H
#include <stddef.h>
#include <stdint.h>

#include "codeobj.h"
#include "gfx9.h"

/* What a record is, by its token (AMD's categories). */
enum g9_cat {
	G9C_OPEN,	/* issued, its INST not seen yet */
	G9C_SMEM, G9C_SALU, G9C_VMEM, G9C_FLAT, G9C_LDS, G9C_VALU, G9C_JUMP, G9C_NEXT,
	G9C_IMMED, G9C_MESSAGE,
	G9C_TRAP,	/* in a trap: a context save and restore, or a trap handler; no pc */
	G9C_NCAT
};
const char *gfx9walk_cat_name(enum g9_cat);

struct g9_record {
	int64_t time;		/* when the wave began to wait for it (issue - stall) */
	int64_t stall, duration;	/* duration: stall + issue, AMD's gfx9 meaning */
	enum g9_cat cat;
	uint64_t pc;		/* ELF address, 0: not stitched */
	const struct inst *in;	/* the instruction at pc, NULL when not stitched */
};

struct g9_wave {
	unsigned simd, slot;
	int64_t begin, end;	/* WAVE_START, WAVE_END (end: -1 when the buffer ended first) */
	const struct g9_record *rec;
	size_t nrec;
	size_t nstitched;	/* records placed on a pc, from the first */
};
typedef void (*gfx9walk_fn)(void *ctx, const struct g9_wave *);

struct gfx9walk;

/* Is a WAVE_START's or WAVE_END's wave (its fields) on the traced unit, walked? */
int gfx9walk_is_traced(const struct gfx9_fields *);

/* A buffer's walk: co (NULL: no code object, nothing stitched) with the kernel's entry at
 * entry and loaded at base (an INST_PC's address less base is the ELF address).  fn gets
 * every wave with at least one record, as it ends (then those still open at the end). */
struct gfx9walk *gfx9walk_new(const struct codeobj *co, uint64_t entry, uint64_t base,
    gfx9walk_fn fn, void *ctx);
/* The most records a buffer's live waves hold at once (a wave's records are held until
 * its WAVE_END, to be stitched): 56 bytes each. */
#define GFX9WALK_RECORDS_MAX (1u << 21)
/* 0, or -1 once the buffer's live waves hold more than GFX9WALK_RECORDS_MAX records
 * (the token is not walked, nor any after it). */
int gfx9walk_token(struct gfx9walk *, const struct gfx9_token *);
void gfx9walk_end(struct gfx9walk *);
void gfx9walk_free(struct gfx9walk *);

#endif
