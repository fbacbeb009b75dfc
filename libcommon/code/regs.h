/* regs: the registers an instruction writes and reads, from the operands of its LLVM
 * disassembly, and the pairs of VALU instructions that could issue as one VOPD. */
#ifndef REGS_H
#define REGS_H
#include <stdint.h>

#include "codeobj.h"

/* v0-v255 and s0-s127 at most (the model's register file, isa.h, says how many and where
 * vcc and exec are: gfx11 s106 and s126) */
#define REGS_VGPRS 256
#define REGS_SGPRS 128
struct regs {
	uint64_t v[REGS_VGPRS / 64], s[REGS_SGPRS / 64];
};

/* What in writes and reads, in model's register file.  The first operand is written
 * unless the instruction stores, compares into SCC, branches or waits; v_fmac and
 * v_dot2acc read what they write. */
void inst_regs(const struct isa_model *model, const struct inst *in, struct regs *def,
    struct regs *use);
int regs_overlap(const struct regs *, const struct regs *);
int regs_empty(const struct regs *);
/* Could a and b (a just before b, both VALU, wave32) issue as one v_dual_*: both have a
 * VOPD form in model, b reads and writes nothing a writes, their destinations are one
 * even VGPR and one odd, and their first and second sources come from different VGPR
 * banks (the register number modulo the model's vgpr_banks, 4 on gfx11). */
int vopd_pair(const struct isa_model *model, const struct inst *a, const struct inst *b);

#endif
