/* loops: the innermost loops of a code object, found from its backward branches, and
 * which of them only poll. */
#ifndef LOOPS_H
#define LOOPS_H
#include <stddef.h>

#include "codeobj.h"

struct loop {
	size_t head;	/* index of the branch target, the loop's first instruction */
	size_t tail;	/* index of the backward branch, its last */
	int spin;	/* the body only polls: loads, waits, compares, branches, s_sleep */
};

/* The innermost loops (a range holding no other loop), in address order, disjoint:
 * of two overlapping ranges the one that starts first is kept.  malloc'd; *n loops. */
struct loop *loops_find(const struct inst *insts, size_t ninst, size_t *n);
/* Index of the instruction at pc in insts (sorted by pc), or (size_t)-1. */
size_t inst_index(const struct inst *insts, size_t ninst, uint64_t pc);

#endif
