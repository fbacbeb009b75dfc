/* regs: the registers an instruction writes and reads, from the operands of its LLVM
 * disassembly, and the pairs of VALU instructions that could issue as one VOPD. */
#ifndef REGS_H
#define REGS_H
#include <stdint.h>

#include "codeobj.h"

/* v0-v255 and s0-s127 (vcc_lo is s106, vcc_hi s107, exec_lo s126, exec_hi s127) */
struct regs {
	uint64_t v[4], s[2];
};

/* What in writes and reads.  The first operand is written unless the instruction stores,
 * compares into SCC, branches or waits; v_fmac and v_dot2acc read what they write. */
void inst_regs(const struct inst *in, struct regs *def, struct regs *use);
int regs_overlap(const struct regs *, const struct regs *);
int regs_empty(const struct regs *);
/* Could a and b (a just before b, both VALU, wave32) issue as one v_dual_*: both have a
 * VOPD form, b reads and writes nothing a writes, their destinations are one even VGPR
 * and one odd, and their first and second sources come from different VGPR banks (the
 * register number modulo 4). */
int vopd_pair(const struct inst *a, const struct inst *b);

#endif
