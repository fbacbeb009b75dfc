/* attr: the cost and cause of every row (pipeline.md, Costs and causes; stall-attr(1) the
 * rules and their evidence).  Rows go in in stream order and come out in the same order
 * with their cost and cause; an s_barrier row is held until its wave's next row says what
 * the barrier waited, and the rows after it with it (at most ATTR_MAX_HELD of them).
 * Memory follows the live waves and the held rows. */
#ifndef ATTR_H
#define ATTR_H
#include <stddef.h>
#include <stdint.h>

#include "cause.h"
#include "gen.h"
#include "rowkind.h"

/* Cycles are counted in 63 bits: a time beyond, a delta that reaches back before time 0
 * or a sum that passes 2^63-1 is refused. */
/* Rows held behind one waiting s_barrier at most; past that its wait stays on the row. */
#define ATTR_MAX_HELD (1u << 17)
/* Live waves of one trace buffer, and of all, at most (a traced unit has 32 slots). */
#define ATTR_MAX_EVENT_WAVES 1024
#define ATTR_MAX_WAVES 65536

/* What the rules need of a row. */
struct attr_row {
	uint64_t event, wave, time, delta;
	int pc_known;
	uint64_t pc;
	const char *token;	/* "WAVE_END", "INST:branch_taken"... (for what is said) */
	enum row_kind kind;	/* what the token is, typed: the rules read this */
	unsigned valu;		/* the token marks a VALU issue */
	unsigned busy;		/* cycles the instruction ran as its token's op says, 0: none */
	const char *inst;	/* the disassembly */
	enum inst_class cls;
	const char *dep;	/* what s_delay_alu announced, "-" for nothing */
	const struct inst *in;	/* the instruction, its model's answers asked once; NULL
				 * when the row knows only its text */
};

/* What a row is charged: cost cycles, of which cost2 (0 <= cost2 <= cost) are a second
 * cause's, cause2 (CAUSE_NONE when cost2 is 0), and the rest the row's cause
 * (stall-attr(1), COSTS: a row's two causes). */
struct attr_cost {
	int64_t cost, cost2;
	enum cause cause, cause2;
};

/* A row out: the bytes it came in with (data, len), its cost and causes, and for an
 * s_waitcnt the memory operations it retired as "pc@issue,..." (NULL for none); or a meta
 * line (meta set, the rest meaningless) passed through in order. */
typedef void (*attr_out_fn)(void *ctx, const void *data, size_t len,
    const struct attr_cost *, const char *retired, int meta);
/* A warning about the row just given. */
typedef void (*attr_warn_fn)(void *ctx, const char *msg);
/* The bytes of a row given to attr_row as handle, asked for once the rules have read the
 * row's strings: a text reader may then reuse the buffer they were in. */
typedef const void *(*attr_bytes_fn)(void *ctx, const void *handle, size_t *len);

struct attr;

/* raw: every row costs its delta (no wait moved). */
struct attr *attr_new(int raw, attr_out_fn, attr_warn_fn, attr_bytes_fn, void *ctx);
void attr_free(struct attr *);
/* The instruction model of the rows' generation (by default the default model's). */
void attr_model(struct attr *, const struct isa_model *);
/* Whether s_waitcnt rows list what they retired (on by default; it costs a little). */
void attr_list_retired(struct attr *, int on);
/* 0, or -1 with attr_error saying why the row cannot be taken.  Its bytes (through the
 * attr_bytes_fn) are copied when the row has to be held. */
int attr_row(struct attr *, const struct attr_row *, const void *handle);
void attr_meta(struct attr *, const void *data, size_t len);
/* The end of an input: waves without a WAVE_END row end here (a warning each). */
int attr_end(struct attr *);
const char *attr_error(const struct attr *);
/* The ##stall-attr line (without its newline) that says what the costs are. */
const char *attr_meta_line(int raw);

#endif
