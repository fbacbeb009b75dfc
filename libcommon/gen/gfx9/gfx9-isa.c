/* gfx9 (CDNA3: gfx942, gfx950): its instruction model, gfx11's with what differs: the
 * gfx9 encodings and their lengths, s_waitcnt's gfx9 simm16 (vmcnt [3:0] and [15:14],
 * expcnt [6:4], lgkmcnt [11:8]), stores counted on vmcnt (gfx9 has no vscnt), MFMA as
 * VALU, no s_delay_alu.  Facts: AMD's "AMD Instinct MI300 Instruction Set Architecture"
 * reference guide (encodings, S_WAITCNT), LLVM's AMDGPU target (-mcpu=gfx950). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "isa.h"

static int pfx(const char *s, const char *p) { return strncmp(s, p, strlen(p)) == 0; }

/* The gfx9 encoding families by their first dword. */
static enum isa_family
gfx9_family(uint32_t w0)
{
	switch (w0 >> 23) {
	case 0x17d: return ENC_SOP1;
	case 0x17e: return ENC_SOPC;
	case 0x17f: return ENC_SOPP;
	}
	if ((w0 >> 31) == 0)
		switch (w0 >> 25) {
		case 0x3f: return ENC_VOP1;
		case 0x3e: return ENC_VOPC;
		default: return ENC_VOP2;
		}
	if ((w0 >> 23) == 0x1a7)
		return ENC_VOP3P;
	switch (w0 >> 26) {
	case 0x30: return ENC_SMEM;
	case 0x31: return ENC_EXP;
	case 0x34: return ENC_VOP3;
	case 0x35: return ENC_VINTERP;
	case 0x36: return ENC_DS;
	case 0x37: return ENC_FLAT;
	case 0x38: return ENC_MUBUF;
	case 0x3a: return ENC_MTBUF;
	case 0x3c: return ENC_MIMG;
	}
	if ((w0 >> 28) == 0xb)
		return ENC_SOPK;
	if ((w0 >> 30) == 2)
		return ENC_SOP2;
	return ENC_UNKNOWN;
}

/* Source codes that add a dword: a literal, SDWA and DPP (VOP1/2/C only on gfx9). */
enum { SRC_LITERAL = 255, SRC_SDWA = 249, SRC_DPP = 250, SRC_DPP8 = 233, SRC_DPP8_FI = 234 };

static int
extra_dword(unsigned src)
{
	return src == SRC_LITERAL || src == SRC_SDWA || src == SRC_DPP || src == SRC_DPP8 ||
	    src == SRC_DPP8_FI;
}

static unsigned
gfx9_length(const uint8_t *p, size_t n)
{
	uint8_t b[4] = { 0 };
	uint32_t w0;
	unsigned op;

	memcpy(b, p, n < 4 ? n : 4);
	w0 = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
	switch (gfx9_family(w0)) {
	case ENC_SOPP: case ENC_VINTERP: case ENC_UNKNOWN:
		return 4;
	case ENC_SOP1:
		return (w0 & 0xff) == SRC_LITERAL ? 8 : 4;
	case ENC_SOP2: case ENC_SOPC:
		return (w0 & 0xff) == SRC_LITERAL || (w0 >> 8 & 0xff) == SRC_LITERAL ? 8 : 4;
	case ENC_SOPK:
		return (w0 >> 23 & 0x1f) == 0x14 ? 8 : 4;	/* s_setreg_imm32_b32 */
	case ENC_VOP1: case ENC_VOPC:
		return extra_dword(w0 & 0x1ff) ? 8 : 4;
	case ENC_VOP2:
		op = w0 >> 25 & 0x3f;	/* v_madmk/v_madak f32, f16 and v_fmamk/fmaak carry a constant */
		if (op == 0x17 || op == 0x18 || op == 0x24 || op == 0x25 || op == 0x37 || op == 0x38)
			return 8;
		return extra_dword(w0 & 0x1ff) ? 8 : 4;
	default:
		return 8;
	}
}

/* gfx9's FLAT keeps its SEG field at bits [15:14] (gfx11: [17:16]). */
static enum inst_class
gfx9_family_class(uint32_t w0)
{
	return isa_family_class_by(isa_family_classes, gfx9_family(w0), w0, 14);
}

static enum inst_class
gfx9_classify(const char *mn, const char *text, uint32_t w0)
{
	/* gfx9 atomics return the old value with sc0 on gfx940+ (glc before) */
	int ret = isa_has_word(text, "sc0") || isa_has_word(text, "glc");

	if (pfx(mn, "global_atomic"))
		return ret ? IC_GLOBAL_LOAD : IC_GLOBAL_STORE;
	if (pfx(mn, "flat_atomic"))
		return ret ? IC_FLAT_LOAD : IC_FLAT_STORE;
	if (pfx(mn, "buffer_atomic"))
		return ret ? IC_BUF_LOAD : IC_BUF_STORE;
	if (pfx(mn, "buffer_wbl2") || pfx(mn, "buffer_inv"))
		return IC_BUF_STORE;
	if (pfx(mn, "s_dcache_wb"))
		return IC_SMEM_STORE;
	return isa_gfx11_classify(mn, text, w0);
}

static const long counter_max[ISA_NCOUNTER] = { [CNT_VM] = 63, [CNT_LGKM] = 15,
	[CNT_EXP] = 7 };

static long
wait_to(int c, long v)
{
	return v < 0 ? 0 : v >= counter_max[c] ? -1 : v;
}

static void
gfx9_waitcnt(const char *inst, long want[ISA_NCOUNTER])
{
	size_t i, n = strcspn(inst, " ");
	const char *p;
	long v;
	int named = 0;

	for (i = 0; i < ISA_NCOUNTER; i++)
		want[i] = -1;
	if (n == strlen("s_waitcnt") && strncmp(inst, "s_waitcnt", n) == 0) {
		if ((p = strstr(inst, "vmcnt(")) != NULL)
			named = 1, want[CNT_VM] = wait_to(CNT_VM, isa_count_at(p + 6));
		if ((p = strstr(inst, "lgkmcnt(")) != NULL)
			named = 1, want[CNT_LGKM] = wait_to(CNT_LGKM, isa_count_at(p + 8));
		if ((p = strstr(inst, "expcnt(")) != NULL)
			named = 1, want[CNT_EXP] = wait_to(CNT_EXP, isa_count_at(p + 7));
		if (named)
			return;
		if ((v = isa_count_at(inst + n)) >= 0) {	/* the gfx9 simm16 */
			want[CNT_VM] = wait_to(CNT_VM, (v & 15) | (v >> 14 & 3) << 4);
			want[CNT_EXP] = wait_to(CNT_EXP, v >> 4 & 7);
			want[CNT_LGKM] = wait_to(CNT_LGKM, v >> 8 & 15);
			return;
		}
	}
	want[CNT_VM] = want[CNT_LGKM] = want[CNT_EXP] = 0;
}

static unsigned
gfx9_wait_bits(const char *inst)
{
	static const unsigned bit[ISA_NCOUNTER] = { [CNT_VM] = WAIT_VM, [CNT_LGKM] = WAIT_LGKM,
		[CNT_EXP] = WAIT_EXP };
	long want[ISA_NCOUNTER];
	unsigned w = 0;
	int c;

	gfx9_waitcnt(inst, want);
	for (c = 0; c < ISA_NCOUNTER; c++)
		if (want[c] >= 0)
			w |= bit[c];
	return w;
}

/* Loads and stores both count on vmcnt; flat ones on lgkmcnt too (taken as vmcnt). */
static int
gfx9_mem_counter(enum inst_class c, const char *mnemonic, unsigned *kind)
{
	(void)mnemonic;
	*kind = MEM_VMEM;
	switch (c) {
	case IC_GLOBAL_LOAD: case IC_FLAT_LOAD: case IC_BUF_LOAD: case IC_IMAGE:
	case IC_GLOBAL_STORE: case IC_FLAT_STORE: case IC_BUF_STORE:
		return CNT_VM;
	case IC_SMEM: case IC_SMEM_STORE:
		*kind = MEM_SMEM;
		return CNT_LGKM;
	case IC_LDS_LOAD: case IC_LDS_STORE:
		*kind = MEM_LDS;
		return CNT_LGKM;
	default:
		return -1;
	}
}

/* Words LLVM 22 crashes on, found by decoding random words (none is an instruction):
 * an SDWA VOP1, VOP2 or VOPC (src0 249) with a selector of 7 (BYTE_0 to DWORD are 0 to 6)
 * in its dst_sel (VOP1, VOP2), src0_sel or src1_sel; and for gfx942 a literal (255) where
 * gfx9 has none: a VOP3 or VOP3P source, the SGPR destination of a compare in VOP3, a buffer
 * access's soffset.  Shown as words. */
static int
gfx9_disasm_unsafe(const uint8_t *p, size_t n)
{
	uint32_t w0, w1;
	enum isa_family f;

	if (n < 8)
		return 0;
	w0 = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
	w1 = (uint32_t)p[4] | (uint32_t)p[5] << 8 | (uint32_t)p[6] << 16 | (uint32_t)p[7] << 24;
	f = gfx9_family(w0);
	if (f == ENC_VOP3P)
		return (w1 & 0x1ff) == SRC_LITERAL || (w1 >> 9 & 0x1ff) == SRC_LITERAL ||
		    (w1 >> 18 & 0x1ff) == SRC_LITERAL;
	if (f == ENC_VOP3)
		return (w1 & 0x1ff) == SRC_LITERAL || (w1 >> 9 & 0x1ff) == SRC_LITERAL ||
		    (w1 >> 18 & 0x1ff) == SRC_LITERAL ||
		    ((w0 >> 16 & 0x3ff) < 0x100 && (w0 & 0xff) == SRC_LITERAL);
	if (f == ENC_MUBUF || f == ENC_MTBUF)
		return (w1 >> 24) == SRC_LITERAL;
	if ((f != ENC_VOP1 && f != ENC_VOP2 && f != ENC_VOPC) || (w0 & 0x1ff) != SRC_SDWA)
		return 0;
	return (f != ENC_VOPC && (w1 >> 8 & 7) == 7) || (w1 >> 16 & 7) == 7 || (w1 >> 24 & 7) == 7;
}

void
gfx9_model(struct isa_model *m)
{
	memset(m->counter_names, 0, sizeof(m->counter_names));
	m->counter_names[CNT_VM] = "vmcnt";
	m->counter_names[CNT_LGKM] = "lgkmcnt";
	m->counter_names[CNT_EXP] = "expcnt";
	m->issue_cycles = 4;	/* a wave64 instruction takes 4 passes of a SIMD16 */
	m->barrier_exit_traced = 1;	/* MESSAGE as it waits, IMMED as it goes on */
	m->classify = gfx9_classify;
	m->family_class = gfx9_family_class;
	m->waitcnt = gfx9_waitcnt;
	m->wait_bits = gfx9_wait_bits;
	m->mem_counter = gfx9_mem_counter;
	m->length = gfx9_length;
	m->disasm_unsafe = gfx9_disasm_unsafe;
	m->exec_zero_fits = NULL;
	m->regs.vopd_ops = NULL;	/* CDNA has no VOPD (v_dual_*): no pair to suggest */
}
