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
	struct loop *all = NULL, *out = NULL;
	size_t nall = 0, nout = 0, i, j, k;

	for (i = 0; i < ninst; i++) {
		const struct inst *b = &insts[i];
		if (b->cls != IC_BRANCH || b->target < 0 || (uint64_t)b->target > b->pc)
			continue;
		if ((j = inst_index(insts, ninst, (uint64_t)b->target)) == (size_t)-1)
			continue;
		all = xreallocarray(all, nall + 1, sizeof(*all));
		all[nall].head = j;
		all[nall].tail = i;
		all[nall].spin = 0;
		nall++;
	}
	/* all is in order of tails; keep those holding no other, then drop overlaps */
	for (i = 0; i < nall; i++) {
		int inner = 1;
		for (j = 0; j < nall && inner; j++)
			if (j != i && all[j].head >= all[i].head && all[j].tail <= all[i].tail &&
			    (all[j].head != all[i].head || all[j].tail != all[i].tail))
				inner = 0;
		if (!inner)
			continue;
		for (j = 0; j < nout; j++)
			if (all[i].head <= out[j].tail && out[j].head <= all[i].tail)
				break;
		if (j < nout) {
			if (all[i].head >= out[j].head)
				continue;
			out[j] = all[i];	/* the one that starts first */
			continue;
		}
		out = xreallocarray(out, nout + 1, sizeof(*out));
		out[nout++] = all[i];
	}
	free(all);
	for (i = 0; i < nout; i++) {
		int reads = 0, only = 1;
		for (k = out[i].head; k <= out[i].tail; k++)
			if (!polls(&insts[k], &reads))
				only = 0;
		out[i].spin = only && reads;
	}
	/* address order */
	for (i = 1; i < nout; i++)
		for (j = i; j > 0 && out[j].head < out[j - 1].head; j--) {
			struct loop t = out[j];
			out[j] = out[j - 1];
			out[j - 1] = t;
		}
	*n = nout;
	return out;
}
