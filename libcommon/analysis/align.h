/* align: two versions of a kernel's instructions (each in pc order) aligned line by line,
 * as stall-diff(1) shows them: a longest common subsequence of the instructions by opcode
 * and operand shape (registers as their kind and width, so that a recompile that
 * renumbers them still aligns), found in linear space (Myers' middle snake), exact text
 * the tie-break; then the lines left over on both sides with the same text paired as
 * moves.  No file-scope state, no exit: the caller owns the context. */
#ifndef ALIGN_H
#define ALIGN_H
#include <stddef.h>
#include <stdint.h>

#include "profile.h"

enum align_edit {
	ALIGN_SAME,		/* "=": in both, in the same place in the sequence */
	ALIGN_MOVED,		/* "m": in both, moved (or traded places with a move) */
	ALIGN_OLD,		/* "-": only in a */
	ALIGN_NEW,		/* "+": only in b */
	ALIGN_RENUMBERED,	/* "r": in both, in place, its registers renumbered */
};
extern const char *const align_mark[];	/* "=", "m", "-", "+", "r" */

/* One line of the alignment: an instruction of a, of b, or of both (-1: none). */
struct align_row {
	enum align_edit edit;
	long a, b;
};

struct align {
	struct align_row *rows;	/* in the order of b, each line only in a before the
				 * next line of both; a moved line at its place in b */
	size_t nrow;
	/* what it cost: the edits of the shape alignment, and whether it was cut short
	 * (past ALIGN_MAX_COST the alignment is still one, but maybe not the longest) */
	size_t cost;
	int approximate;
};

/* Past this many edits between two halves of a kernel, the middle snake takes the
 * furthest-reaching diagonal instead of searching on: the time stays near linear. */
#define ALIGN_MAX_COST 4096

/* The opcode and operand shape of an instruction text, into buf (len bytes, cut there):
 * "v12" is "v", "s[4:7]" is "s[4]", other words as they are. */
void align_shape(const char *inst, char *buf, size_t len);

/* Align a[0..na) with b[0..nb) into al (zeroed, or freed with align_free first). */
void align_run(struct align *al, const char *const *a, size_t na, const char *const *b,
    size_t nb);
void align_free(struct align *al);

/* Two profiles compared, kernel by kernel (stall-diff(1)) ------------------------------ */

struct diff_row {
	enum align_edit edit;
	const struct profile_line *a, *b;
};

struct diff_kernel {
	const struct profile_kernel *a, *b;	/* NULL: the kernel is only in the other */
	struct diff_row *rows;
	size_t nrow;
	int approximate;	/* the alignment was cut short (align.approximate) */
	/* after diff_judge: what the gate sees, and the counts of the summary line */
	int differs;
	size_t added, removed, moved, renumbered, slower, faster;
};

struct diff {
	/* the gate: a kernel's cycles a wave more than threshold apart (cycles, or with
	 * threshold_pct percent of a's); a line or a cause counts when its cycles a wave
	 * are more than the floor apart: threshold cycles, or threshold percent of its
	 * kernel's cycles a wave in a */
	double threshold;
	int threshold_pct;
	const char *path_a, *path_b;
	struct diff_kernel *pairs;
	size_t npair;
	int differs;
	char error[512];	/* why diff_pair returned -1 */
};

/* Pair the kernels of a and b (by name, or the names given as "A" or "A=B", which are
 * cut at '=') and align the instructions of each pair.  -1, with d->error, on trouble. */
int diff_pair(struct diff *d, struct profile *a, struct profile *b, char **names,
    size_t nnames);
/* What differs (d->differs, and each kernel's figures). */
void diff_judge(struct diff *d);
/* Does this line count: edited (not renumbered), or beyond the floor? */
int diff_row_counts(const struct diff *d, const struct diff_kernel *k,
    const struct diff_row *r);
/* A line's or a cause's figures (cycles a wave in a and b) beyond the floor of k. */
int diff_floor_beyond(const struct diff *d, const struct diff_kernel *k, double a, double b);
double diff_per_wave(int64_t cycles, const struct profile_kernel *k);
void diff_free(struct diff *d);

#endif
