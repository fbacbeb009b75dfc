/* cause: the toolkit's vocabulary of stall causes, the one list that stall-attr writes,
 * stall-table and its kin read, and the man pages name.  The order is the order of the
 * table's cause columns: a new cause is appended (before NCAUSE), never inserted. */
#ifndef CAUSE_H
#define CAUSE_H

enum cause {
	CAUSE_WAVE_START, CAUSE_MEM, CAUSE_SMEM, CAUSE_LDS, CAUSE_MEM_SMEM, CAUSE_MEM_LDS,
	CAUSE_SMEM_LDS, CAUSE_MEM_SMEM_LDS, CAUSE_BARRIER, CAUSE_DEPCTR, CAUSE_VALU_DEP,
	CAUSE_TRANS_DEP, CAUSE_SALU_DEP, CAUSE_ISSUE_WAIT, CAUSE_FETCH, CAUSE_VMEM_ISSUE,
	CAUSE_LDS_QUEUE, CAUSE_DRAIN, CAUSE_UNEXPLAINED, CAUSE_UNTRACED,
	CAUSE_NONE,		/* "-": a row without a cause column */
	CAUSE_OTHER,		/* a name this vocabulary does not know */
	CAUSE_SLEEP,
	CAUSE_ISSUE_CYCLE,	/* the one cycle an issue takes: it issued at once */
	CAUSE_EXEC,		/* the instruction's own execution, as its token's op says */
	NCAUSE
};
/* stall-table's TSV had its inst column after the causes up to here: the causes added
 * since are appended after it, so that no column ever moves. */
#define CAUSE_BEFORE_INST CAUSE_SLEEP

/* The kinds of memory operation a wait can be on, as bits of CAUSE_MEM..CAUSE_MEM_SMEM_LDS. */
enum { KIND_MEM = 1, KIND_SMEM = 2, KIND_LDS = 4 };

struct cause_info {
	const char *name;	/* in the row stream's cause column, e.g. "valu_dep" */
	const char *col;	/* its column in stall-table's TSV, e.g. "c_valu_dep" */
	const char *what;	/* one line: when a row gets it */
};
extern const struct cause_info cause_info[NCAUSE];

/* A cause by name, or by the name an older version gave it ("issue" is
 * CAUSE_UNEXPLAINED); CAUSE_OTHER for a name not in the vocabulary. */
enum cause cause_by_name(const char *name);
/* The column an older version wrote for c ("c_issue"), NULL if it had none other. */
const char *cause_col_was(enum cause c);
/* The cause of a wait on the given KIND_* bits; CAUSE_UNEXPLAINED when none. */
enum cause cause_of_kinds(unsigned kinds);
static inline const char *cause_name(enum cause c) { return cause_info[c].name; }

#endif
