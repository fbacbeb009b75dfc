/* slotwalk: the walk of a stream without HEADER whose ISSUE tokens give each wave slot's
 * state (an ISSUE-slot stream: CDNA's, gfx950), its tokens read through trace/slotstream
 * and its generation's facts from its backend (gen/slots.h).  The tokens made into each
 * wave's instruction records as AMD's gfx9 decoder makes them: an ISSUE token's per-slot
 * state opens a record (issued: the wave issued; immed: an immediate issued, its record
 * complete; stall: the wave waited), the wave's next INST token gives the oldest open
 * record its category and its duration; the records then stitched, in order, onto the
 * code object's instructions from the wave's entry (sqtt-gfx12.md section 8,
 * sqtt-walk(1) GFX9).  Only the waves of the traced unit are walked.
 * A trap (a context save announced by a SAVE token and the two WAVE_STARTs of its save
 * and restore, or an INST of the op that enters a trap) is one TRAP record until the
 * wave's next INST pc, whose NEW_PC gives the pc it resumes at; the wave's tokens in
 * between make no record, as in AMD's decoder.
 * Times are on the clock of AMD's walk (the token's time less a cycle of issue). */
#ifndef SLOTWALK_H
#define SLOTWALK_H
#include <stddef.h>
#include <stdint.h>

#include "codeobj.h"
#include "slots.h"
#include "slotstream.h"

const char *slotwalk_cat_name(enum slot_cat);

struct slot_record {
	int64_t time;		/* when the wave began to wait for it (issue - stall) */
	int64_t stall, duration;	/* duration: stall + issue, AMD's gfx9 meaning */
	enum slot_cat cat;
	uint64_t pc;		/* ELF address, 0: not stitched */
	const struct inst *in;	/* the instruction at pc, NULL when not stitched */
};

struct slot_wave {
	unsigned simd, slot;
	int64_t begin, end;	/* WAVE_START, WAVE_END (end: -1 when the buffer ended first) */
	const struct slot_record *rec;
	size_t nrec;
	size_t nstitched;	/* records placed on a pc, from the first */
};
typedef void (*slotwalk_fn)(void *ctx, const struct slot_wave *);

struct slotwalk;

/* Is a WAVE_START's or WAVE_END's wave (its fields) on the traced unit, walked? */
int slotwalk_is_traced(const struct sqtt_fields *);

/* A buffer's walk: co (NULL: no code object, nothing stitched) with the kernel's entry at
 * entry and loaded at base (a NEW_PC's address less base is the ELF address).  fn gets
 * every wave with at least one record, as it ends (then those still open at the end). */
struct slotwalk *slotwalk_new(const struct codeobj *co, uint64_t entry, uint64_t base,
    slotwalk_fn fn, void *ctx);
/* The most records a buffer's live waves hold at once (a wave's records are held until
 * its WAVE_END, to be stitched): 56 bytes each. */
#define SLOTWALK_RECORDS_MAX (1u << 21)
/* 0, or -1 once the buffer's live waves hold more than SLOTWALK_RECORDS_MAX records
 * (the token is not walked, nor any after it). */
int slotwalk_token(struct slotwalk *, const struct slot_token *);
void slotwalk_end(struct slotwalk *);
void slotwalk_free(struct slotwalk *);

#endif
