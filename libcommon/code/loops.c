/* loops: innermost loops from backward branches (loops.h). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "loops.h"
#include "util.h"

size_t
inst_index(const struct inst *insts, size_t ninst, uint64_t pc)
{
	size_t lo = 0, hi = ninst;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (insts[mid].pc < pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < ninst && insts[lo].pc == pc ? lo : (size_t)-1;
}

static int
prefix(const char *s, const char *p)
{
	return strncmp(s, p, strlen(p)) == 0;
}

/* An instruction a poll loop may hold: it reads memory or a flag, compares, waits or
 * branches, and computes nothing else. */
static int
polls(const struct inst *in, int *reads)
{
	const char *m = in->mnemonic;

	switch (in->cls) {
	case IC_GLOBAL_LOAD: case IC_FLAT_LOAD: case IC_BUF_LOAD: case IC_SMEM:
	case IC_LDS_LOAD:
		*reads = 1;
		return 1;
	case IC_WAITCNT: case IC_DEPCTR: case IC_CLAUSE: case IC_DELAY_ALU: case IC_BRANCH:
		return 1;
	case IC_IMM:
		if (strcmp(m, "s_sleep") == 0)
			*reads = 1;
		return 1;
	case IC_SALU: case IC_SALU_EXEC:
		/* compares and the mask logic that turns a compare into a branch condition */
		return prefix(m, "s_cmp") || prefix(m, "s_bitcmp") || prefix(m, "s_and_") ||
		    prefix(m, "s_or_") || prefix(m, "s_andn2_") || prefix(m, "s_and_not1_") ||
		    prefix(m, "s_mov_b32") || prefix(m, "s_mov_b64");
	case IC_VALU: case IC_VALU_CMPX:
		return prefix(m, "v_cmp") || prefix(m, "v_readfirstlane");
	default:
		return 0;
	}
}

struct loop *
loops_find(const struct inst *insts, size_t ninst, size_t *n)
{
	struct loop *out = NULL;
	size_t nout = 0, cap = 0, i, j, k;
	size_t maxhead = 0;
	int any = 0;

	/* Backward branches in order of their tails (one branch an instruction: the tails
	 * are distinct).  A range holds another iff one with an earlier tail has a head at
	 * or after its own: the most such head so far tells it, in one pass.  An innermost
	 * range that overlaps the one kept before it starts after that one's head (else it
	 * would hold it), so it is the later of the two: dropped.  Linear in the branches. */
	for (i = 0; i < ninst; i++) {
		const struct inst *b = &insts[i];
		int inner;
		if (b->cls != IC_BRANCH || b->target < 0 || (uint64_t)b->target > b->pc)
			continue;
		if ((j = inst_index(insts, ninst, (uint64_t)b->target)) == (size_t)-1)
			continue;
		inner = !any || maxhead < j;
		if (!any || j > maxhead)
			maxhead = j;
		any = 1;
		if (!inner || (nout > 0 && j <= out[nout - 1].tail))
			continue;
		if (nout == cap) {
			cap = cap ? 2 * cap : 8;
			out = xreallocarray(out, cap, sizeof(*out));
		}
		out[nout].head = j;
		out[nout].tail = i;
		out[nout].spin = 0;
		nout++;
	}
	for (i = 0; i < nout; i++) {
		int reads = 0, only = 1;
		for (k = out[i].head; k <= out[i].tail; k++)
			if (!polls(&insts[k], &reads))
				only = 0;
		out[i].spin = only && reads;
	}
	*n = nout;
	return out;
}
