/* profile: the row stream summed per (kernel, pc): hits, cycles and the cycles of every
 * cause of each instruction; per kernel the totals by cause, the waves and the wall time.
 * A profile is read from a row stream or from a stall table (TSV or JSON) and written as
 * a stall table (stall-table(1) describes the formats). */
#ifndef PROFILE_H
#define PROFILE_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cause.h"
#include "tsv.h"
#include "util.h"

/* What a line of a kernel is: an instruction, or the launch or the drain of its waves,
 * lines of their own with no pc (stall-table(1)): the cycles of the rows of cause
 * wave_start and drain, which are no instruction's. */
enum profile_kind { LINE_INST, LINE_LAUNCH, LINE_DRAIN };
#define PROFILE_NO_PC "-"
extern const char *const profile_kind_name[3];	/* the table's row column: inst, launch, drain */
extern const char *const profile_kind_inst[3];	/* their inst: -, (launch), (drain) */
/* The line a row of the cause is charged to: LINE_LAUNCH for wave_start, LINE_DRAIN for
 * drain, else LINE_INST. */
static inline enum profile_kind profile_kind_of(int cause)
{
	return cause == CAUSE_WAVE_START ? LINE_LAUNCH : cause == CAUSE_DRAIN ? LINE_DRAIN :
	    LINE_INST;
}

/* The rows of one cause of a line: their cycles and their number. */
struct profile_cause {
	int64_t cyc;
	uint64_t hit;
	uint8_t cause;
};

struct profile;

/* One instruction of one kernel: a (pc, inst); the inst keeps apart the pseudo-row an
 * untraced wave leaves at its entry pc from the instruction there.  A launch or drain
 * line's hits are the waves that started or ended; an instruction's, its rows (the row
 * of a wave's first issue and of its WAVE_END count there, with no cycles). */
struct profile_line {
	char *pc;		/* follows the line in its allocation */
	const char *inst;	/* the same, or borrowed (profile_line_kept) */
	uint64_t pcv;		/* for sorting; UINT64_MAX when pc is not a number */
	uint64_t hits;
	int64_t cycles;
	/* the causes the line's rows had, in the order first seen: most lines have one to
	 * three, so they are kept sparse (profile_line_cyc, profile_line_hit read them) */
	struct profile_cause *causes;
	uint32_t kernel;	/* below PROFILE_MAX_KERNELS */
	uint32_t pclen, instlen;
	uint8_t kind;		/* enum profile_kind */
	uint8_t indexed;	/* in the profile's index (profile_line_new: made without) */
	uint8_t ncause, capcause;
	struct profile_cause one;	/* causes while there is one: no allocation */
};

static inline const struct profile_cause *
profile_line_find(const struct profile_line *l, int cause)
{
	unsigned i;

	for (i = 0; i < l->ncause; i++)
		if (l->causes[i].cause == cause)
			return &l->causes[i];
	return NULL;
}
/* The cycles and the hits of one cause of a line (0 when it had none). */
static inline int64_t
profile_line_cyc(const struct profile_line *l, int cause)
{
	const struct profile_cause *c = profile_line_find(l, cause);

	return c ? c->cyc : 0;
}
static inline uint64_t
profile_line_hit(const struct profile_line *l, int cause)
{
	const struct profile_cause *c = profile_line_find(l, cause);

	return c ? c->hit : 0;
}
/* The sums of a cause of a line, made (zero) when new: valid until the next call. */
struct profile_cause *profile_line_cause(struct profile *, struct profile_line *, int cause);
/* Every cause of a line into dense arrays of NCAUSE (either may be NULL). */
void profile_line_dense(const struct profile_line *, int64_t *cyc, uint64_t *hit);
/* profile_dominant of a line. */
int profile_line_dominant(const struct profile_line *);

struct profile_kernel {
	char *name;
	int64_t cycles;
	uint64_t hits, waves;	/* waves: the instruction-traced ones (their WAVE_END rows) */
	int64_t cyc[NCAUSE];
	uint64_t hit[NCAUSE];
	struct profile_line **lines;	/* after profile_finish: the instructions, then the
					 * launch and drain lines (nspecial: 0 to 2) */
	size_t nline, cap;
	size_t nspecial;
	size_t nshow;		/* the lines a table shows (stall-table --top); nline at first */
	struct profile_line *special[3];	/* by kind: the launch and drain lines, or NULL */
	uint64_t untraced_waves;	/* left out: waves without instruction tokens */
	int64_t untraced_cycles;
	int64_t wall;		/* after profile_finish, with PROFILE_WALL; else -1 */
	int cut;		/* from a table cut by --top: not every instruction is a line */
	/* what a table said of the kernel, checked against its rows */
	int tab;
	int64_t meta_cycles, table_cycles;
	uint64_t meta_hits, table_hits;
};

/* One row of a row stream, as profile_add_row takes it. */
struct profile_row {
	const char *kernel, *pc, *inst;
	int cause;		/* enum cause */
	int64_t cost;
	int wave_end;		/* the row ends its wave (token WAVE_END) */
	int timed;		/* event, start and end are known */
	uint64_t event;		/* the trace buffer: each has its own clock */
	int64_t start, end;	/* the row's span: time - delta, time */
	int cause2;		/* of cost, cost2 cycles are cause2's (stall-attr(1)); 0: none */
	int64_t cost2;
};

struct profile_span;

struct profile {
	struct profile_kernel *kernels;
	size_t nkernel, capkernel, lastkernel;
	/* kernels by name (index + 1, 0 empty), and the name each index had when hashed:
	 * a sort of the kernels makes it stale, which a lookup notices and mends */
	size_t *khash, khsize;
	const char **kpos;
	/* every line in the order made, and an open-addressed index of them: a slot is the
	 * top 32 bits of the line's hash (its place too) and its index + 1 (0: empty) */
	struct profile_line **all;
	size_t nall, capall;
	struct line_slot { uint32_t tag, index1; } *ltab;
	size_t lsize;
	/* the lines made without (profile_line_new) go in at the next lookup by text: those
	 * before iscan are all in, nindexed of them */
	size_t iscan, nindexed;
	struct arena mem;	/* the lines and their causes */
	struct profile_span *spans;	/* per (kernel, event): first start, last end */
	size_t nspan, spansize, lastspan;	/* lastspan: the one a row was last added to */
	char **metas;		/* the ## lines of the inputs, passed through */
	size_t nmeta, capmeta;
	const char *view;	/* cause, raw, delta, unknown, mixed */
	int flags;
	int warned;
	long long top;		/* a table read had been cut by --top this (0: none) */
	/* told of the header and of every row counted, as a row stream is read: 0, or -1
	 * with the line in why, which profile_read_tsv returns */
	int (*on_header)(void *hook, const struct tsv *, char *why, size_t whysz);
	int (*on_row)(void *hook, const struct tsv *, int64_t cost, int cause, int64_t cost2,
	    int cause2, char *why, size_t whysz);
	void *hook;
	/* the kernel a row of a row stream is counted under, asked before on_row (stall-table
	 * --dispatch and --by-dispatch): 1 with *kernel the key it is counted under, 0 for a
	 * row left out, -1 with the line in why */
	int (*row_kernel)(void *hook, const struct tsv *, const char **kernel, char *why,
	    size_t whysz);
	void *kernel_hook;
	const char *path;	/* the input being read, for the messages */
	/* what borrowed texts live in, released with the profile (profile_keep) */
	struct profile_kept { void *obj; void (*release)(void *); } *kept;
	size_t nkept;
};

/* Kernels a profile holds at most (with --by-dispatch, dispatches): more is an error,
 * so that hostile input of many one-row kernels stays within tens of MB. */
#define PROFILE_MAX_KERNELS 32768

#define PROFILE_UNTRACED 1	/* count waves without instruction tokens as rows too */
#define PROFILE_STRICT 2	/* an unknown cause is an error, not a warning */
#define PROFILE_TABLES 4	/* stall tables are input too, not only row streams */
#define PROFILE_WALL 8		/* the wall time of every kernel (costs a third more time) */

void profile_init(struct profile *, int flags);
void profile_free(struct profile *);
/* A kernel by name, added when new; PROFILE_FULL when it is new and the profile holds
 * PROFILE_MAX_KERNELS already (profile_full_why says so). */
size_t profile_kernel(struct profile *, const char *name);
#define PROFILE_FULL ((size_t)-1)
/* "[PATH: ]more than N kernels: the limit of a profile" into why, -1. */
int profile_full_why(const struct profile *, char *why, size_t whysz);
/* The launch or drain line of a kernel (made when new). */
struct profile_line *profile_special(struct profile *, size_t kernel, enum profile_kind);
/* A kernel by name, or -1. */
long profile_find(const struct profile *, const char *name);
struct profile_line *profile_line(struct profile *, size_t kernel, const char *pc,
    const char *inst);
/* The same with inst borrowed, not copied: it lives as long as the profile (in an object
 * given to profile_keep, or static).  A line made so is the one profile_line finds. */
struct profile_line *profile_line_kept(struct profile *, size_t kernel, const char *pc,
    const char *inst);
/* A line the caller knows to be new (no line of kernel, pc and inst is in the profile),
 * inst borrowed as profile_line_kept's when kept: made without a lookup, and put in the
 * index only when a lookup by text comes (profile_line, a merge).  A million lines made
 * so by the pipeline cost no index at all. */
struct profile_line *profile_line_new(struct profile *, size_t kernel, const char *pc,
    const char *inst, int kept);
/* obj released with release(obj) when the profile is freed, after its lines. */
void profile_keep(struct profile *, void *obj, void (*release)(void *));
/* 0, -1 when a sum of cycles would pass 2^63-1, -2 when the row's kernel is one past the
 * limit (profile_kernel); nothing is added then. */
int profile_add_row(struct profile *, const struct profile_row *);
/* The same, with the row's kernel and line already known (profile_kernel, profile_line):
 * for a caller that keeps them per instruction.  l is NULL for an untraced row. */
int profile_add(struct profile *, size_t kernel, struct profile_line *l,
    const struct profile_row *);
/* Everything of a TSV stream: a row stream, or with PROFILE_TABLES a stall table.  0;
 * -1 when the stream had no '#' column header line (an empty stream, or not one of the
 * toolkit's); -2 for malformed input, its line ("FILE:LINE: ...") in why, the profile
 * then only fit to be freed. */
int profile_read_tsv(struct profile *, struct tsv *, char *why, size_t whysz);
/* A stall table in JSON (stall-table --json), the whole text in buf[0..len): 0, or -1
 * with its error ("PATH: line N: ...") in why, the profile then only fit to be freed. */
int profile_read_json(struct profile *, const char *path, const char *buf, size_t len,
    char *why, size_t whysz);
/* Add the sums of another profile (of other trace buffers) to p, before profile_finish
 * of either: 0, -1 when a sum would pass 2^63-1, -2 at the kernel limit (profile_kernel). */
int profile_merge(struct profile *, const struct profile *from);
/* A ## line passed through to the TSV table, as it is. */
void profile_keep_line(struct profile *, const char *line);
/* What the costs are: "cause", "raw", "delta" (views that differ make it "mixed"). */
void profile_set_view(struct profile *, const char *);
/* After the last input: the lines into their kernels (the instructions in no order, then
 * the launch and drain lines), the wall times. */
void profile_finish(struct profile *);

/* qsort orders of kernel lines and of kernels. */
int profile_cmp_cycles(const void *, const void *);
int profile_cmp_hits(const void *, const void *);
int profile_cmp_pc(const void *, const void *);
int profile_cmp_kernel(const void *, const void *);
/* The first k of lines[0..n) in cmp's order (a total one) to lines[0..k), sorted; the
 * others after them, in no order.  In place, n log k steps. */
void profile_sort_top(struct profile_line **lines, size_t n, size_t k,
    int (*cmp)(const void *, const void *));

/* The cause with the most cycles; ties go to the most hits, then to the table order. */
int profile_dominant(const int64_t *cyc, const uint64_t *hit);
double profile_pct(int64_t part, int64_t whole);
/* What the cycles are: a sentence for the tables' headers. */
const char *profile_counted(const struct profile *);

/* The stall table: TSV and JSON (version 1), the first nshow lines of every kernel. */
void profile_put_tsv(const struct profile *, FILE *);
/* The same, for other tools: PROFILE_PUT_PLAIN, no ## lines, no TOTAL rows and a header of
 * bare names; PROFILE_PUT_NOHEADER, no header line either. */
#define PROFILE_PUT_PLAIN 1
#define PROFILE_PUT_NOHEADER 2
void profile_put_tsv_as(const struct profile *, FILE *, unsigned how);
void profile_put_json(const struct profile *, FILE *);

#endif
