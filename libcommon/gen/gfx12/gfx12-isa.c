/* gfx12 (RDNA4): its instruction model, gfx11's with what differs (sqtt-gfx12.md sections
 * 4-6: the split wait counters, s_wait_alu, s_barrier_signal / s_barrier_wait, WMMA, the
 * 12-byte VMEM encodings, the 8-bit INST ops). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "isa.h"

static int pfx(const char *s, const char *p) { return strncmp(s, p, strlen(p)) == 0; }

/* The VMEM encodings (first dword's top byte): VFLAT 0xec, VSCRATCH 0xed, VGLOBAL 0xee,
 * VBUFFER [31:26] 0x31, VIMAGE 0x34, VSAMPLE 0x39; all 12 bytes (llvm-mc-22 -mcpu=gfx1200). */
static enum isa_family
gfx12_vmem_family(uint32_t w0)
{
	switch (w0 >> 24) {
	case 0xec: case 0xed: case 0xee:
		return ENC_FLAT;
	}
	switch (w0 >> 26) {
	case 0x31: return ENC_MUBUF;
	case 0x34: case 0x39: return ENC_MIMG;
	}
	return ENC_UNKNOWN;
}

static unsigned
gfx12_length(const uint8_t *p, size_t n)
{
	uint8_t b[4] = { 0 };
	uint32_t w0;

	memcpy(b, p, n < 4 ? n : 4);
	w0 = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
	if (gfx12_vmem_family(w0) != ENC_UNKNOWN)
		return 12;
	return isa_gfx11_length(p, n);
}

static enum inst_class
gfx12_family_class(uint32_t w0)
{
	switch (gfx12_vmem_family(w0)) {
	case ENC_FLAT:
		return (w0 >> 24) == 0xee ? IC_GLOBAL_LOAD : IC_FLAT_LOAD;
	case ENC_MUBUF:
		return IC_BUF_LOAD;
	case ENC_MIMG:
		return IC_IMAGE;
	default:
		return isa_gfx11_family_class(w0);
	}
}

static const char *const waits[] = { "s_wait_loadcnt", "s_wait_storecnt", "s_wait_samplecnt",
	"s_wait_bvhcnt", "s_wait_expcnt", "s_wait_dscnt", "s_wait_kmcnt", "s_wait_loadcnt_dscnt",
	"s_wait_storecnt_dscnt", NULL };

static int
in_list(const char *s, size_t n, const char *const *list)
{
	for (; *list; list++)
		if (strlen(*list) == n && strncmp(s, *list, n) == 0)
			return 1;
	return 0;
}

static enum inst_class
gfx12_classify(const char *mn, const char *text, uint32_t w0)
{
	/* atomics return the old value with th:TH_ATOMIC_RETURN (gfx11: glc) */
	int ret = strstr(text, "TH_ATOMIC_RETURN") != NULL;

	if (in_list(mn, strlen(mn), waits))
		return IC_WAITCNT;
	if (strcmp(mn, "s_wait_alu") == 0)
		return IC_WAIT_ALU;
	if (pfx(mn, "s_barrier_signal"))
		return IC_BARRIER_SIGNAL;
	if (strcmp(mn, "s_barrier_wait") == 0)
		return IC_BARRIER;
	if (pfx(mn, "global_atomic"))
		return ret ? IC_GLOBAL_LOAD : IC_GLOBAL_STORE;
	if (pfx(mn, "flat_atomic"))
		return ret ? IC_FLAT_LOAD : IC_FLAT_STORE;
	if (pfx(mn, "buffer_atomic"))
		return ret ? IC_BUF_LOAD : IC_BUF_STORE;
	if (strcmp(mn, "global_inv") == 0 || strcmp(mn, "global_wb") == 0 ||
	    strcmp(mn, "global_wbinv") == 0)
		return IC_GLOBAL_STORE;
	/* s_prefetch_data/_inst (SMEM encoding) issue as immediates: IMM_ONE
	 * (20260227_profile_py_run_0, 0x650-0x66c, AMD category IMMED) */
	if (pfx(mn, "s_prefetch_"))
		return IC_IMM;
	return isa_gfx11_classify(mn, text, w0);
}

/* The token table of sqtt-gfx12.md section 5 on the gfx12 INST ops (section 4). */
static int
gfx12_token_fits(enum inst_class c, const char *mnemonic, enum sqtt_type type, int op)
{
	switch (type) {
	case TOK_VALU_INST:
		return isa_class_is_valu(c);
	case TOK_IMM_ONE:
	case TOK_IMMEDIATE:
		return isa_class_is_imm(c) || c == IC_BARRIER ||
		    strcmp(mnemonic, "v_permlane64_b32") == 0;
	case TOK_INST:
		break;
	default:
		return 0;
	}
	switch (op) {
	case SQTT_OP_SALU: case SQTT_OP_SALU_NO_EXEC: case 152: case 155: case 156:
		/* salu, salu_float3, salu2 (s_mul_i32), salu5 */
		return c == IC_SALU || c == IC_SALU_EXEC;
	case SQTT_OP_SMEM_RD: case 150: case 151:	/* smem_rd, icpref, kcpref */
		return c == IC_SMEM;
	case SQTT_OP_SMEM_WR:
		return c == IC_SMEM_STORE;
	case SQTT_OP_BRANCH_TAKEN: case SQTT_OP_BRANCH_NOT_TAKEN:
		return c == IC_BRANCH;
	case SQTT_OP_JUMP:
		return c == IC_JUMP;
	case SQTT_OP_TRAP:
		return pfx(mnemonic, "s_trap");
	case SQTT_OP_MESSAGE:
		return c == IC_MESSAGE;
	case SQTT_OP_BARRIER:	/* barrier_wait */
		return c == IC_BARRIER;
	case SQTT_OP_BARRIER_SIGNAL: case 138:	/* barrier_signal, barrier_join */
		return c == IC_BARRIER_SIGNAL;
	}
	switch (gfx12_op_unit(op)) {
	case SQTT_UNIT_VALU:
		return isa_class_is_valu(c);
	case SQTT_UNIT_VMEM_RD:
		return c == IC_GLOBAL_LOAD || c == IC_FLAT_LOAD || c == IC_BUF_LOAD;
	case SQTT_UNIT_VMEM_WR:
		return c == IC_GLOBAL_STORE || c == IC_FLAT_STORE || c == IC_BUF_STORE ||
		    c == IC_GLOBAL_LOAD || c == IC_FLAT_LOAD;
	case SQTT_UNIT_LDS:
		return c == IC_LDS_LOAD || c == IC_LDS_STORE;
	case SQTT_UNIT_IMAGE:
		return c == IC_IMAGE;
	default:
		return 0;
	}
}

/* The counters each wait names (SOPP 64-73: the count is its operand) and their maxima
 * (gfx12: loadcnt, storecnt, samplecnt, bvhcnt 6 bits; dscnt 6; kmcnt 5; expcnt 3). */
static const struct { const char *name; int c[2]; } wait_of[] = {
	{ "s_wait_loadcnt", { CNT_VM, -1 } }, { "s_wait_storecnt", { CNT_VS, -1 } },
	{ "s_wait_samplecnt", { CNT_SAMPLE, -1 } }, { "s_wait_bvhcnt", { CNT_BVH, -1 } },
	{ "s_wait_expcnt", { CNT_EXP, -1 } }, { "s_wait_dscnt", { CNT_DS, -1 } },
	{ "s_wait_kmcnt", { CNT_KM, -1 } }, { "s_wait_loadcnt_dscnt", { CNT_VM, CNT_DS } },
	{ "s_wait_storecnt_dscnt", { CNT_VS, CNT_DS } },
};
static const long counter_max[ISA_NCOUNTER] = { [CNT_VM] = 63, [CNT_VS] = 63,
	[CNT_SAMPLE] = 63, [CNT_BVH] = 7, [CNT_EXP] = 7, [CNT_DS] = 63, [CNT_KM] = 31,
	[CNT_LGKM] = 0 };

static long
wait_to(int c, long v)
{
	return v >= counter_max[c] ? -1 : v;
}

static void
gfx12_waitcnt(const char *inst, long want[ISA_NCOUNTER])
{
	size_t i, n = strcspn(inst, " ");
	const char *p;
	long v;
	int named = 0;

	for (i = 0; i < ISA_NCOUNTER; i++)
		want[i] = -1;
	for (i = 0; i < sizeof(wait_of) / sizeof(wait_of[0]); i++) {
		if (strlen(wait_of[i].name) != n || strncmp(inst, wait_of[i].name, n) != 0)
			continue;
		if ((v = isa_count_at(inst + n)) < 0)
			v = 0;
		if (wait_of[i].c[1] < 0) {
			want[wait_of[i].c[0]] = wait_to(wait_of[i].c[0], v);
		} else {	/* the combined forms: simm16 = first << 8 | dscnt */
			want[wait_of[i].c[0]] = wait_to(wait_of[i].c[0], v >> 8 & 63);
			want[wait_of[i].c[1]] = wait_to(wait_of[i].c[1], v & 63);
		}
		return;
	}
	/* s_waitcnt is still in LLVM's gfx12 tables: vmcnt = loads, lgkmcnt = LDS and SMEM */
	if (n == strlen("s_waitcnt") && strncmp(inst, "s_waitcnt", n) == 0) {
		if ((p = strstr(inst, "vmcnt(")) != NULL)
			named = 1, want[CNT_VM] = wait_to(CNT_VM, isa_count_at(p + 6));
		if ((p = strstr(inst, "lgkmcnt(")) != NULL) {
			named = 1;
			want[CNT_DS] = wait_to(CNT_DS, isa_count_at(p + 8));
			want[CNT_KM] = wait_to(CNT_KM, isa_count_at(p + 8));
		}
		if ((p = strstr(inst, "expcnt(")) != NULL)
			named = 1, want[CNT_EXP] = wait_to(CNT_EXP, isa_count_at(p + 7));
		if (named)
			return;
	}
	for (i = 0; i < ISA_NCOUNTER; i++)
		if (i != CNT_LGKM)
			want[i] = 0;
}

static unsigned
gfx12_wait_bits(const char *inst)
{
	static const unsigned bit[ISA_NCOUNTER] = { [CNT_VM] = WAIT_VM, [CNT_VS] = WAIT_VS,
		[CNT_SAMPLE] = WAIT_VM, [CNT_BVH] = WAIT_VM, [CNT_DS] = WAIT_LGKM,
		[CNT_KM] = WAIT_LGKM, [CNT_EXP] = WAIT_EXP };

	return isa_wait_bits_by(gfx12_waitcnt, bit, inst);
}

/* gfx12 splits gfx11's counters: images by what they do, SMEM on kmcnt, LDS on dscnt. */
static int
gfx12_image_counter(const char *mnemonic)
{
	if (pfx(mnemonic, "image_store") || pfx(mnemonic, "image_atomic"))
		return CNT_VS;
	if (pfx(mnemonic, "image_bvh"))
		return CNT_BVH;
	if (pfx(mnemonic, "image_sample") || pfx(mnemonic, "image_gather"))
		return CNT_SAMPLE;
	return CNT_VM;
}

static int
gfx12_mem_counter(enum inst_class c, const char *mnemonic, unsigned *kind)
{
	static const struct isa_mem_counters t = { CNT_VM, CNT_VS, CNT_KM, CNT_DS,
		gfx12_image_counter };

	return isa_mem_counter_by(&t, c, mnemonic, kind);
}

/* The VALU operations with a v_dual_* form on gfx12: gfx11's with RDNA4's names
 * (v_max_num_f32, v_min_num_f32 for gfx11's v_max_f32, v_min_f32), less
 * v_dot2acc_f32_f16, which has no VOP2 form on gfx12 to pair (llvm-mc-22 -mcpu=gfx1200
 * assembles v_dual_X for each of these, as X and as Y where gfx11 allows it, and
 * disassembles its VOP2 forms under these names).  Its register file is gfx11's. */
static const char *const vopd_ops[] = { "v_fmac_f32", "v_fmaak_f32", "v_fmamk_f32",
	"v_mul_f32", "v_add_f32", "v_sub_f32", "v_subrev_f32", "v_mul_dx9_zero_f32",
	"v_mov_b32", "v_cndmask_b32", "v_max_num_f32", "v_min_num_f32", "v_add_nc_u32",
	"v_lshlrev_b32", "v_and_b32", NULL };

static int (*gfx11_unsafe)(const uint8_t *, size_t);	/* the model gfx12's is made from */

/* Words LLVM 22 crashes on (a call into its decoder tables), found by decoding random
 * words: gfx11's, and the SOP1 barrier operations 78-82 (s_barrier_signal,
 * s_barrier_signal_isfirst, s_get_barrier_state, s_barrier_init, s_barrier_join) with a
 * literal source.  Shown as words. */
static int
gfx12_disasm_unsafe(const uint8_t *p, size_t n)
{
	uint32_t w0;
	unsigned op;

	if (n < 4)
		return 0;
	w0 = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
	op = w0 >> 8 & 0xff;
	if ((w0 >> 23) == 0x17d && (w0 & 0xff) == 255 && op >= 78 && op <= 82)
		return 1;
	return gfx11_unsafe(p, n);
}

void
gfx12_model(struct isa_model *m)
{
	memset(m->counter_names, 0, sizeof(m->counter_names));
	m->counter_names[CNT_VM] = "loadcnt";
	m->counter_names[CNT_VS] = "storecnt";
	m->counter_names[CNT_SAMPLE] = "samplecnt";
	m->counter_names[CNT_BVH] = "bvhcnt";
	m->counter_names[CNT_DS] = "dscnt";
	m->counter_names[CNT_KM] = "kmcnt";
	m->counter_names[CNT_EXP] = "expcnt";
	m->classify = gfx12_classify;
	m->family_class = gfx12_family_class;
	m->token_fits = gfx12_token_fits;
	m->waitcnt = gfx12_waitcnt;
	m->wait_bits = gfx12_wait_bits;
	m->mem_counter = gfx12_mem_counter;
	m->length = gfx12_length;
	m->fetch_line = 128;	/* LLVM's instruction cache line for gfx12 (stall-attr(1), fetch) */
	m->regs.vopd_ops = vopd_ops;
	gfx11_unsafe = m->disasm_unsafe;
	m->disasm_unsafe = gfx12_disasm_unsafe;
}
