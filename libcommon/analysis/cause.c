#include <string.h>

#include "cause.h"
#include "util.h"

const struct cause_info cause_info[NCAUSE] = {
	[CAUSE_WAVE_START] = { "wave_start", "c_wave_start",
	    "the first instruction of a wave: launch and first fetch" },
	[CAUSE_MEM] = { "mem", "c_mem",
	    "an s_waitcnt that retired vector memory operations" },
	[CAUSE_SMEM] = { "smem", "c_smem",
	    "an s_waitcnt that retired scalar memory operations" },
	[CAUSE_LDS] = { "lds", "c_lds", "an s_waitcnt that retired LDS operations" },
	[CAUSE_MEM_SMEM] = { "mem+smem", "c_mem_smem",
	    "an s_waitcnt that retired vector and scalar memory operations" },
	[CAUSE_MEM_LDS] = { "mem+lds", "c_mem_lds",
	    "an s_waitcnt that retired vector memory and LDS operations" },
	[CAUSE_SMEM_LDS] = { "smem+lds", "c_smem_lds",
	    "an s_waitcnt that retired scalar memory and LDS operations" },
	[CAUSE_MEM_SMEM_LDS] = { "mem+smem+lds", "c_mem_smem_lds",
	    "an s_waitcnt that retired all three kinds" },
	[CAUSE_BARRIER] = { "barrier", "c_barrier",
	    "an s_barrier, with the wait the instruction after it showed" },
	[CAUSE_DEPCTR] = { "depctr", "c_depctr", "an s_waitcnt_depctr" },
	[CAUSE_VALU_DEP] = { "valu_dep", "c_valu_dep",
	    "a stall an s_delay_alu announced as VALU_DEP_n or FMA_ACCUM_CYCLE_1" },
	[CAUSE_TRANS_DEP] = { "trans_dep", "c_trans_dep",
	    "a stall an s_delay_alu announced as TRANS32_DEP_n" },
	[CAUSE_SALU_DEP] = { "salu_dep", "c_salu_dep",
	    "a stall an s_delay_alu announced as SALU_CYCLE_n" },
	[CAUSE_ISSUE_WAIT] = { "issue_wait", "c_issue_wait",
	    "other waves of the same SIMD issued during the gap" },
	[CAUSE_FETCH] = { "fetch", "c_fetch",
	    "the first instruction after a taken branch or in a new cache line" },
	[CAUSE_VMEM_ISSUE] = { "vmem_issue", "c_vmem_issue",
	    "a memory instruction whose own issue stalled" },
	[CAUSE_LDS_QUEUE] = { "lds_queue", "c_lds_queue",
	    "an LDS instruction whose own issue stalled" },
	[CAUSE_DRAIN] = { "drain", "c_drain",
	    "the wave's end after its last instruction" },
	[CAUSE_UNEXPLAINED] = { "unexplained", "c_unexplained",
	    "the cycles no other cause explains, more than the one an issue takes" },
	[CAUSE_UNTRACED] = { "untraced", "c_untraced",
	    "a wave without instruction tokens: its lifetime, not where it went" },
	[CAUSE_NONE] = { "-", "c_none", "a row without a cause column" },
	[CAUSE_OTHER] = { "other", "c_other", "a cause this vocabulary does not know" },
	[CAUSE_SLEEP] = { "sleep", "c_sleep", "an s_sleep: the wave slept" },
	[CAUSE_ISSUE_CYCLE] = { "issue_cycle", "c_issue_cycle",
	    "the one cycle an issue takes: it issued at once (a cost of 1, or 0)" },
	[CAUSE_EXEC] = { "exec", "c_exec",
	    "the instruction ran the cycles its token's op says (valub_16, valut_4, sgmem_wr_6)" },
};

/* Names an older version wrote, read as the cause they were renamed to.  "issue" was
 * read as "the instruction's issue"; the cause is the cycles no rule explains. */
static const struct {
	const char *name, *col;
	enum cause cause;
} cause_was[] = {
	{ "issue", "c_issue", CAUSE_UNEXPLAINED },
};
#define NCAUSE_WAS (int)(sizeof(cause_was) / sizeof(cause_was[0]))

/* The names a row may give: the vocabulary's, then the older ones.  "other" is none:
 * it is what an unknown one is counted as. */
static const char *
cause_name_of(int i)
{
	if (i >= NCAUSE)
		return cause_was[i - NCAUSE].name;
	return i == CAUSE_OTHER ? NULL : cause_info[i].name;
}

enum cause
cause_by_name(const char *name)
{
	static struct name_index index;
	int i;

	if (!index.ready)
		name_index_build(&index, NCAUSE + NCAUSE_WAS, cause_name_of);
	i = name_index_find(&index, name);
	if (i >= NCAUSE)
		return cause_was[i - NCAUSE].cause;
	return i < 0 ? CAUSE_OTHER : (enum cause)i;
}

const char *
cause_col_was(enum cause c)
{
	int i;

	for (i = 0; i < NCAUSE_WAS; i++)
		if (cause_was[i].cause == c)
			return cause_was[i].col;
	return NULL;
}

enum cause
cause_of_kinds(unsigned kinds)
{
	static const enum cause by_kinds[8] = { CAUSE_UNEXPLAINED, CAUSE_MEM, CAUSE_SMEM,
		CAUSE_MEM_SMEM, CAUSE_LDS, CAUSE_MEM_LDS, CAUSE_SMEM_LDS, CAUSE_MEM_SMEM_LDS };

	return by_kinds[kinds & 7];
}
