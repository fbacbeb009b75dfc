/* codeobj: one program's code object (an AMDGPU ELF) decoded once: its kernel entry and
 * every instruction of its text, with size, disassembly and class.  Built with libelf and
 * LLVM's C disassembler (triple amdgcn-amd-amdhsa, the stream target's processor), the
 * classes and dependencies by that processor's instruction model (isa.h). */
#ifndef CODEOBJ_H
#define CODEOBJ_H
#include <stddef.h>
#include <stdint.h>

#include "gen.h"

struct inst {
	uint64_t pc;		/* ELF virtual address */
	const char *text;	/* LLVM's disassembly, whitespace-normalised, e.g. "s_waitcnt vmcnt(0)" */
	const char *mnemonic;	/* first word of text */
	int64_t target;		/* IC_BRANCH: pc + 4 + 4*simm16; else -1 */
	const char *dep_name;	/* dep_id's name ("VALU_DEP_1"), "-" for none */
	int32_t want[ISA_NCOUNTER];	/* IC_WAITCNT: waitcnt of its text */
	uint32_t index;		/* its number in the object, 0 up in the order they were read */
	/* the small ones in bit-fields: one is kept for every instruction a trace reaches */
	unsigned size : 8;	/* bytes: 4, 8 or 12 */
	enum inst_class cls : 8;
	enum inst_dep dep : 8;	/* announced by a preceding s_delay_alu */
	unsigned dep_arg : 8;	/* VALU_DEP_n / TRANS32_DEP_n / SALU_CYCLE_n: n */
	unsigned dep_id : 8;	/* the raw s_delay_alu instid (1-11; 8 = FMA_ACCUM_CYCLE_1, given
				 * as DEP_VALU 1), 0 when dep is DEP_NONE */
	unsigned wait : 8;	/* IC_WAITCNT: WAIT_* bits of the counters it waits on */
	/* what the model says of it, asked once (isa.h), when facts is 1 (0: a pseudo-row's
	 * instruction; ask the model): */
	uint8_t facts;
	uint8_t exec_write;	/* exec_write: it may leave EXEC zero */
	uint8_t exec0_valu;	/* exec_zero_fits(IMM_ONE): with EXEC zero it issues as IMM_ONE */
	int8_t mem_counter;	/* mem_counter of its text: CNT_*, -1 for none */
	uint8_t mem_kind;	/* and the MEM_* kind */
	uint8_t last;		/* the last of the instructions read with it: none follows it
				 * in memory (codeobj_at_near) */
};

/* Code is disassembled when it is first reached, a region at a time: from a function
 * symbol's address (or the start of an executable section) to the next one, so that a
 * small kernel of a library's object costs its own instructions only (about 4 us and
 * under 200 bytes each).  Executable bytes an object may have at most (a code object file
 * is at most 64 MiB), and of one region (4M instructions); beyond, it is refused with one
 * line when opened. */
#define CODEOBJ_CODE_MAX (64u << 20)
#define CODEOBJ_REGION_MAX (16u << 20)

struct codeobj;

/* Open a code object held in memory (image must stay valid until codeobj_close) for the
 * stream's target (NULL: the stream said none; the object's own processor of the default
 * model, gfx1100 if it says none).  On failure: NULL and a one-line reason in err, e.g.
 * "not an ELF file", "not an AMDGPU code object (e_machine 62)", "no .text section",
 * "code object is gfx942, the stream's target is gfx1100". */
struct codeobj *codeobj_open(const void *image, size_t size, const char *kernel,
    const struct isa_target *target, char *err, size_t errsz);
void codeobj_close(struct codeobj *);
/* libelf and LLVM set up, and the disassembler of target (NULL: the default), before
 * threads open code objects at once. */
void codeobj_prepare(const struct isa_target *target);
/* Regions read by up to n threads at once (1 at first; at most CODEOBJ_THREADS_MAX), each
 * given at least min_bytes of code (0: CODEOBJ_SPLIT_MIN), for every code object from
 * now on.  What is read is the same whatever the threads. */
#define CODEOBJ_THREADS_MAX 8
#define CODEOBJ_SPLIT_MIN (256u << 10)
void codeobj_threads(unsigned n, size_t min_bytes);
/* The instruction model its instructions were classified by. */
const struct isa_model *codeobj_model(const struct codeobj *);
/* The kernel's first instruction (from its kernel descriptor, else its function symbol,
 * else the start of .text). kernel may be NULL (the first kernel). */
uint64_t codeobj_entry(const struct codeobj *);
/* The instruction that starts at pc, NULL if none does. O(1) or O(log n). */
const struct inst *codeobj_at(const struct codeobj *, uint64_t pc);
/* The same, looked for first at near (an instruction of the object, or NULL) and the one
 * after it: a wave's next pc is most often there. */
static inline const struct inst *
codeobj_at_near(const struct codeobj *co, const struct inst *near, uint64_t pc)
{
	if (near != NULL) {
		if (near->pc == pc)
			return near;
		if (!near->last && near[1].pc == pc)
			return near + 1;
	}
	return codeobj_at(co, pc);
}
/* All instructions in pc order, every region read (for a reader of the whole code; the
 * walker asks codeobj_at).  Where the code is of several regions the array is a copy:
 * compare instructions by pc, not by address, with those codeobj_at gives. */
const struct inst *codeobj_insts(const struct codeobj *, size_t *n);
/* Instructions disassembled so far. */
size_t codeobj_read(const struct codeobj *);
/* Parts of regions read by threads of their own so far (codeobj_threads). */
size_t codeobj_parts(const struct codeobj *);

#endif
