/* codeobj: one program's code object (an AMDGPU ELF) decoded once: its kernel entry and
 * every instruction of its text, with size, disassembly and class.  Built with libelf and
 * LLVM's C disassembler (triple amdgcn-amd-amdhsa, cpu gfx1100). */
#ifndef CODEOBJ_H
#define CODEOBJ_H
#include <stddef.h>
#include <stdint.h>

enum inst_class {
	IC_UNKNOWN,	/* could not be decoded */
	IC_SALU,	/* scalar ALU: INST salu */
	IC_SALU_EXEC,	/* s_*_saveexec_*: INST salu_wr_exec */
	IC_SMEM,	/* s_load*, s_buffer_load*: INST smem_rd */
	IC_SMEM_STORE,	/* s_store*, s_buffer_store*: INST smem_wr */
	IC_VALU,	/* VOP1/2/3/3P/C, VOPD: VALU_INST */
	IC_VALU_TRANS,	/* transcendental: INST valut_4 */
	IC_VALU_SHIFT64,/* 64-bit shifts: INST valub_2 */
	IC_VALU_MAD64,	/* v_mad_u64_u32 / v_mad_i64_i32: INST valub_4 */
	IC_VALU_F64,	/* f64 arithmetic: INST valub_16 or valu_1 */
	IC_VALU_CMPX,	/* v_cmpx_*: INST valu1_wr_exec */
	IC_VINTERP,	/* v_interp*: INST vinterp */
	IC_GLOBAL_LOAD,	/* global_load*, global_atomic* with return: INST sgmem_rd_* */
	IC_GLOBAL_STORE,/* global_store*, global_atomic* without return: INST sgmem_wr_* */
	IC_FLAT_LOAD,	/* flat_load*, scratch_load*: INST flat_rd_2 */
	IC_FLAT_STORE,	/* flat_store*, scratch_store*: INST flat_wr_* */
	IC_BUF_LOAD,	/* buffer_load*: INST buf_rd_* */
	IC_BUF_STORE,	/* buffer_store*: INST buf_wr_* */
	IC_IMAGE,	/* image_*: INST img_* */
	IC_LDS_LOAD,	/* ds_read/ds_load*: INST lds_rd */
	IC_LDS_STORE,	/* ds_write/ds_store*, ds atomics: INST lds_wr_* */
	IC_BRANCH,	/* s_branch, s_cbranch_*: INST branch_taken / branch_not_taken */
	IC_JUMP,	/* s_setpc_b64, s_swappc_b64, s_call_b64, s_getpc?: INST jump */
	IC_BARRIER,	/* s_barrier: INST barrier */
	IC_MESSAGE,	/* s_sendmsg*: INST message */
	IC_WAITCNT,	/* s_waitcnt, s_waitcnt_vscnt/vmcnt/expcnt/lgkmcnt: IMM_ONE */
	IC_DEPCTR,	/* s_waitcnt_depctr: IMM_ONE */
	IC_CLAUSE,	/* s_clause: IMM_ONE, sometimes not traced */
	IC_IMM,		/* s_nop, s_sleep, s_wait_idle, s_wait_event, s_set_inst_prefetch_distance,
			 * other immediates: IMM_ONE */
	IC_DELAY_ALU,	/* s_delay_alu: never traced */
	IC_ENDPGM,	/* s_endpgm*: never traced, the wave's WAVE_END follows */
	IC_UNTRACED,	/* not an instruction: the one row of a wave that emitted no
			 * instruction tokens (sqtt-walk) */
	IC_NCLASS
};

/* What an s_waitcnt* waits for: bit set when that counter must drain to the given value. */
enum { WAIT_VM = 1, WAIT_LGKM = 2, WAIT_EXP = 4, WAIT_VS = 8 };

/* The dependency an s_delay_alu announced for an instruction (instid0 for the next one,
 * instid1 for the one instskip further on). */
enum inst_dep { DEP_NONE, DEP_VALU, DEP_TRANS, DEP_SALU };

struct inst {
	uint64_t pc;		/* ELF virtual address */
	unsigned size;		/* bytes: 4, 8 or 12 */
	enum inst_class cls;
	const char *text;	/* LLVM's disassembly, whitespace-normalised, e.g. "s_waitcnt vmcnt(0)" */
	const char *mnemonic;	/* first word of text */
	int64_t target;		/* IC_BRANCH: pc + 4 + 4*simm16; else -1 */
	unsigned wait;		/* IC_WAITCNT: WAIT_* bits of the counters it waits on */
	enum inst_dep dep;	/* announced by a preceding s_delay_alu */
	unsigned dep_arg;	/* VALU_DEP_n / TRANS32_DEP_n / SALU_CYCLE_n: n */
	unsigned dep_id;	/* the raw s_delay_alu instid (1-11; 8 = FMA_ACCUM_CYCLE_1, given
				 * as DEP_VALU 1), 0 when dep is DEP_NONE */
};

struct codeobj;

/* Open a code object held in memory (image must stay valid until codeobj_close).
 * name is used in messages.  On failure: NULL and a one-line reason in err, e.g.
 * "not an ELF file", "not an AMDGPU code object (e_machine 62)", "no .text section". */
struct codeobj *codeobj_open(const void *image, size_t size, const char *kernel,
    char *err, size_t errsz);
void codeobj_close(struct codeobj *);
/* The kernel's first instruction (from its kernel descriptor, else its function symbol,
 * else the start of .text). kernel may be NULL (the first kernel). */
uint64_t codeobj_entry(const struct codeobj *);
/* The instruction that starts at pc, NULL if none does. O(1) or O(log n). */
const struct inst *codeobj_at(const struct codeobj *, uint64_t pc);
/* All instructions in pc order. */
const struct inst *codeobj_insts(const struct codeobj *, size_t *n);
const char *inst_class_name(enum inst_class);

#endif
