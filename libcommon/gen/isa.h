/* isa: the instruction models, one per generation, without LLVM (only gfx11 exists): the
 * classes of instructions and which trace token fits which class; the waitcnt counters
 * and their decoding; the s_delay_alu dependencies; the encoding families and their
 * lengths, so that a word the disassembler cannot read is still stepped over by its real
 * length; the processors a model covers and their ELF mach values.  gfx11's facts from
 * AMD's "RDNA3 Instruction Set Architecture" reference guide and sqtt-format.md section 7. */
#ifndef ISA_H
#define ISA_H
#include <stddef.h>
#include <stdint.h>

#include "token.h"

/* gfx11's encoding families (by an instruction's first dword). */
enum isa_family {
	ENC_UNKNOWN, ENC_SOP1, ENC_SOPC, ENC_SOPP, ENC_SOPK, ENC_SOP2, ENC_SMEM,
	ENC_VOP1, ENC_VOPC, ENC_VOP2, ENC_VOP3, ENC_VOP3P, ENC_VOPD, ENC_VINTERP,
	ENC_LDSDIR, ENC_DS, ENC_FLAT, ENC_MUBUF, ENC_MTBUF, ENC_MIMG, ENC_EXP, ENC_NFAMILY
};

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
	IC_BARRIER_SIGNAL,	/* gfx12 s_barrier_signal*: INST barrier_signal; the wait is
				 * s_barrier_wait's (IC_BARRIER) */
	IC_WAIT_ALU,	/* gfx12 s_wait_alu: never traced */
	IC_NCLASS
};

/* What an s_waitcnt* waits for: bit set when that counter must drain to the given value. */
enum { WAIT_VM = 1, WAIT_LGKM = 2, WAIT_EXP = 4, WAIT_VS = 8 };

/* The dependency an s_delay_alu announced for an instruction (instid0 for the next one,
 * instid1 for the one instskip further on). */
enum inst_dep { DEP_NONE, DEP_VALU, DEP_TRANS, DEP_SALU };

const char *inst_class_name(enum inst_class);
/* A class by its name; IC_NCLASS for a name that is none. */
enum inst_class inst_class_by_name(const char *name);

/* The wait counters, and the kinds of memory operation counted on them.  gfx11: vmcnt
 * (CNT_VM), vscnt, lgkmcnt, expcnt; gfx12: loadcnt (CNT_VM), storecnt (CNT_VS), samplecnt,
 * bvhcnt, dscnt, kmcnt, expcnt. */
enum { CNT_VM, CNT_VS, CNT_LGKM, CNT_EXP, CNT_SAMPLE, CNT_BVH, CNT_DS, CNT_KM, ISA_NCOUNTER };
#define ISA_COUNTER_DEPTH_MAX 64	/* the deepest wait counter of any generation (counter_depth) */
enum { MEM_VMEM = 1, MEM_SMEM = 2, MEM_LDS = 4 };

struct isa_model;

/* The register file as LLVM's disassembly names it: the SGPRs vcc and exec sit at (their
 * _lo halves; _hi the next), and the VALU operations with a VOPD (v_dual_*) form,
 * NULL-terminated (NULL: the generation has no VOPD). */
struct isa_regfile {
	unsigned vgprs, sgprs;		/* v0.. and s0.. a wave may name */
	unsigned vcc, exec;		/* vcc_lo and exec_lo as SGPR numbers */
	unsigned vgpr_banks;		/* VOPD: the halves' sources come from different banks
					 * (the VGPR number modulo this) */
	const char *const *vopd_ops;
};

/* A processor: its name as LLVM and a stream's ##target say it, its EF_AMDGPU_MACH value
 * in a code object's e_flags, and the model of its generation. */
struct isa_target {
	const char *name;
	unsigned mach;
	const struct isa_model *model;
};

/* One generation's instruction model: what differs from one generation to the next.  The
 * walk, the costs and the tables reach all of it through here, once chosen by a stream's
 * ##target (isa_target_by_name, gen.h) or by default. */
struct isa_model {
	const char *name;		/* "gfx11", its backend's */
	const struct sqtt_gen *tokens;	/* its backend's token table */
	const struct isa_target *targets;	/* its processors; the first is its default */
	size_t ntargets;
	unsigned generic_mach;		/* the generation's generic code objects (gfx11-generic) */
	const struct isa_target *generic;	/* that processor */
	unsigned sqtt_version;		/* the SQTT HEADER version its traces carry (its
					 * tokens', 0: none) */
	const char *counter_names[ISA_NCOUNTER];	/* its wait counters, NULL: none */
	unsigned fetch_line;		/* instruction fetch line, bytes (a new line: fetch) */
	unsigned fetch_block;		/* an instruction whose last byte is in another block
					 * of this many bytes than its first waits on fetch */
	unsigned inst_max_bytes;	/* its longest instruction, bytes */
	unsigned issue_cycles;		/* the fewest cycles between two issues of a wave
					 * (gfx11 1; gfx9 4: wave64 on a SIMD16) */
	int barrier_exit_traced;	/* s_barrier's release has a row of its own that
					 * carries the wait (gfx9's IMMED); else the wait
					 * shows on the wave's next row (gfx11) */
	unsigned counter_depth;		/* the operations one wait counter holds (its width:
					 * 6 bits, 63 outstanding), at most ISA_COUNTER_DEPTH_MAX */
	struct isa_regfile regs;	/* its register file and VOPD forms (code/regs) */

	/* The class of an instruction LLVM disassembled: by its mnemonic, its text (for
	 * atomics' glc) and its first dword (other SOPP). */
	enum inst_class (*classify)(const char *mnemonic, const char *text, uint32_t w0);
	/* The class of a word LLVM could not read: its encoding family's (memory families
	 * as loads, which the fit rules take for a store token too). */
	enum inst_class (*family_class)(uint32_t w0);
	/* Does a token of this type (and INST op) fit an instruction of class c? */
	int (*token_fits)(enum inst_class c, const char *mnemonic, enum sqtt_type type, int op);
	/* What an s_waitcnt* (its disassembly) waits for: the count each counter must come
	 * down to, -1 for a counter it does not wait on. */
	void (*waitcnt)(const char *inst, long want[ISA_NCOUNTER]);
	/* The same as WAIT_* bits. */
	unsigned (*wait_bits)(const char *inst);
	/* The counter a memory instruction counts on (CNT_*) and its kind (MEM_*); -1 for an
	 * instruction that is none. */
	int (*mem_counter)(enum inst_class, const char *mnemonic, unsigned *kind);
	/* s_delay_alu: the name of an instid value (0: "-"), its dependency and argument (-1
	 * for an id that names none), and the dependency a name gives. */
	const char *(*dep_name)(unsigned id);
	int (*dep_of_id)(unsigned id, enum inst_dep *, unsigned *arg);
	enum inst_dep (*dep_by_name)(const char *name);
	/* s_delay_alu's simm16: the instid of the next instruction (id0), how many further
	 * on the second one is (skip, SAME 0, NEXT 1, SKIP_n n+1) and its instid (id1; 0
	 * for none, also when skip is not a valid one). */
	void (*delay_fields)(unsigned simm16, unsigned *id0, unsigned *skip, unsigned *id1);
	/* Words the generation's LLVM disassembler is known to crash on; p holds n bytes.
	 * The caller shows such a word as .long instead. */
	int (*disasm_unsafe)(const uint8_t *p, size_t n);
	/* An instruction's length in bytes, from the words at p (n bytes available; missing
	 * bytes read as zero), for a word the disassembler cannot read. */
	unsigned (*length)(const uint8_t *p, size_t n);
	/* s_sleep: how long the wave sleeps; -1 when the text is not an s_sleep. */
	long (*sleep_cycles)(const char *inst);

	/* EXEC set to zero (the walker, issue 20).  exec_write: may the instruction (class,
	 * text) leave EXEC zero?  exec_zero_fits: does a token of this type (and INST op)
	 * fit an instruction of class c once EXEC may be zero, beyond token_fits (gfx11:
	 * VALUs that honour EXEC emit IMM_ONE then)?  NULL: the generation has no such
	 * behaviour. */
	int (*exec_write)(enum inst_class c, const char *text);
	int (*exec_zero_fits)(enum inst_class c, const char *mnemonic, enum sqtt_type type,
	    int op);
};

/* With EXEC zero, does an instruction of class c issue as an immediate (exec_zero_fits of
 * an IMM_ONE)? */
int isa_exec_zero_imm(const struct isa_model *, enum inst_class c, const char *mnemonic);

/* The longest ##target value looked at; longer ones name no processor. */
#define ISA_TARGET_MAX 64

/* gfx11's hooks: the defaults a later generation's model starts from (a backend copies
 * the gfx11 model and changes what differs, as gen/gfx12/gfx12-isa.c does). */
enum isa_family isa_gfx11_family(uint32_t w0);
enum inst_class isa_gfx11_classify(const char *mnemonic, const char *text, uint32_t w0);
enum inst_class isa_gfx11_family_class(uint32_t w0);
/* The class of a word of encoding family f that LLVM could not read, by a backend's table
 * (isa_family_classes: the one gfx11 and gfx9 share); a FLAT word by its SEG field at bit
 * seg_lo (2: global). */
extern const enum inst_class isa_family_classes[ENC_NFAMILY];
enum inst_class isa_family_class_by(const enum inst_class classes[ENC_NFAMILY],
    enum isa_family f, uint32_t w0, unsigned seg_lo);
unsigned isa_gfx11_length(const uint8_t *p, size_t n);
int isa_class_is_valu(enum inst_class);
int isa_class_is_imm(enum inst_class);
int isa_has_word(const char *text, const char *w);
/* A count in a wait's text (decimal or 0x hex) from s on; -1 if there is none. */
long isa_count_at(const char *s);
/* Shared by the backends' hooks.  wait_bits: the WAIT_* bits of what waitcnt says inst
 * waits for, bit[c] the one of counter c.  mem_counter: by the counters of the kinds of
 * memory instruction (image: the counter of an IC_IMAGE mnemonic). */
unsigned isa_wait_bits_by(void (*waitcnt)(const char *, long[ISA_NCOUNTER]),
    const unsigned bit[ISA_NCOUNTER], const char *inst);
struct isa_mem_counters {
	int load, store, smem, lds;
	int (*image)(const char *mnemonic);
};
int isa_mem_counter_by(const struct isa_mem_counters *, enum inst_class, const char *mnemonic,
    unsigned *kind);
/* The backends' models (each called by its backend's init, gen.h): gfx11's fills every
 * hook and fact (the defaults, gen/isa.c); gfx12's (gen/gfx12/gfx12-isa.c) and gfx9's
 * (CDNA3, gen/gfx9/gfx9-isa.c) change a copy of them.  The processors are the backend's
 * (gen_set_targets). */
void gfx11_model(struct isa_model *);
void gfx12_model(struct isa_model *);
void gfx9_model(struct isa_model *);

#endif
