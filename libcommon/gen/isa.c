#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa.h"
#include "util.h"

static int pfx(const char *s, const char *p) { return strncmp(s, p, strlen(p)) == 0; }

enum isa_family
isa_gfx11_family(uint32_t w0)
{
	switch (w0 >> 23) {	/* the scalar formats with a 9-bit tag */
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
	switch (w0 >> 24) {	/* 8-bit tags */
	case 0xcc: return ENC_VOP3P;
	case 0xcd: return ENC_VINTERP;
	case 0xce: return ENC_LDSDIR;
	}
	switch (w0 >> 26) {	/* 6-bit tags */
	case 0x32: return ENC_VOPD;
	case 0x35: return ENC_VOP3;
	case 0x36: return ENC_DS;
	case 0x37: return ENC_FLAT;
	case 0x38: return ENC_MUBUF;
	case 0x3a: return ENC_MTBUF;
	case 0x3c: return ENC_MIMG;
	case 0x3d: return ENC_SMEM;
	case 0x3e: return ENC_EXP;
	}
	if ((w0 >> 28) == 0xb)
		return ENC_SOPK;
	if ((w0 >> 30) == 2)
		return ENC_SOP2;
	return ENC_UNKNOWN;
}

/* Source operand codes that add a dword after the instruction. */
enum { SRC_LITERAL = 255, SRC_DPP16 = 250, SRC_DPP8 = 233, SRC_DPP8_FI = 234 };

static int
is_dpp(unsigned src)
{
	return src == SRC_DPP16 || src == SRC_DPP8 || src == SRC_DPP8_FI;
}

unsigned
isa_gfx11_length(const uint8_t *p, size_t n)
{
	uint8_t b[8] = { 0 };
	uint32_t w0, w1;
	unsigned op;

	memcpy(b, p, n < 8 ? n : 8);
	w0 = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
	w1 = (uint32_t)b[4] | (uint32_t)b[5] << 8 | (uint32_t)b[6] << 16 | (uint32_t)b[7] << 24;
	switch (isa_gfx11_family(w0)) {
	case ENC_SOPP:
	case ENC_LDSDIR:
	case ENC_UNKNOWN:
		return 4;
	case ENC_SOP1:
		return (w0 & 0xff) == SRC_LITERAL ? 8 : 4;
	case ENC_SOP2:
	case ENC_SOPC:
		return (w0 & 0xff) == SRC_LITERAL || (w0 >> 8 & 0xff) == SRC_LITERAL ? 8 : 4;
	case ENC_SOPK:
		return (w0 >> 23 & 0x1f) == 0x13 ? 8 : 4;	/* s_setreg_imm32_b32 */
	case ENC_VOP1:
	case ENC_VOPC:
		return (w0 & 0x1ff) == SRC_LITERAL || is_dpp(w0 & 0x1ff) ? 8 : 4;
	case ENC_VOP2:
		op = w0 >> 25 & 0x3f;	/* v_fmamk/v_fmaak f32 and f16 carry a constant */
		if (op == 0x2c || op == 0x2d || op == 0x37 || op == 0x38)
			return 8;
		return (w0 & 0x1ff) == SRC_LITERAL || is_dpp(w0 & 0x1ff) ? 8 : 4;
	case ENC_VOP3:
	case ENC_VOP3P:
		if (is_dpp(w1 & 0x1ff))
			return 12;
		return (w1 & 0x1ff) == SRC_LITERAL || (w1 >> 9 & 0x1ff) == SRC_LITERAL ||
		    (w1 >> 18 & 0x1ff) == SRC_LITERAL ? 12 : 8;
	case ENC_VOPD: {
		unsigned opx = w0 >> 22 & 0xf, opy = w0 >> 17 & 0x1f;
		/* one literal, shared: a 255 source or a fmaak/fmamk half */
		return (w0 & 0x1ff) == SRC_LITERAL || (w1 & 0x1ff) == SRC_LITERAL ||
		    opx == 1 || opx == 2 || opy == 1 || opy == 2 ? 12 : 8;
	}
	case ENC_MIMG:
		return w0 & 1 ? 12 : 8;	/* NSA: the addresses after the first in one dword */
	case ENC_VINTERP:
	case ENC_DS:
	case ENC_FLAT:
	case ENC_MUBUF:
	case ENC_MTBUF:
	case ENC_SMEM:
	case ENC_EXP:
	case ENC_NFAMILY:
		break;
	}
	return 8;
}

static long
gfx11_sleep_cycles(const char *inst)
{
	unsigned long v;
	char *end;

	if (strncmp(inst, "s_sleep", 7) != 0 || (inst[7] != ' ' && inst[7] != '\0'))
		return -1;
	v = strtoul(inst + 7, &end, 0);
	return 64 * (long)(v & 0x7f);
}

/* ---- classification ---- */

static const char *const class_names[IC_NCLASS] = {
	[IC_UNKNOWN] = "unknown", [IC_SALU] = "salu", [IC_SALU_EXEC] = "salu_exec",
	[IC_SMEM] = "smem", [IC_SMEM_STORE] = "smem_store", [IC_VALU] = "valu",
	[IC_VALU_TRANS] = "valu_trans", [IC_VALU_SHIFT64] = "valu_shift64",
	[IC_VALU_MAD64] = "valu_mad64", [IC_VALU_F64] = "valu_f64", [IC_VALU_CMPX] = "valu_cmpx",
	[IC_VINTERP] = "vinterp", [IC_GLOBAL_LOAD] = "global_load",
	[IC_GLOBAL_STORE] = "global_store", [IC_FLAT_LOAD] = "flat_load",
	[IC_FLAT_STORE] = "flat_store", [IC_BUF_LOAD] = "buf_load", [IC_BUF_STORE] = "buf_store",
	[IC_IMAGE] = "image", [IC_LDS_LOAD] = "lds_load", [IC_LDS_STORE] = "lds_store",
	[IC_BRANCH] = "branch", [IC_JUMP] = "jump", [IC_BARRIER] = "barrier",
	[IC_MESSAGE] = "message", [IC_WAITCNT] = "waitcnt", [IC_DEPCTR] = "depctr",
	[IC_CLAUSE] = "clause", [IC_IMM] = "imm", [IC_DELAY_ALU] = "delay_alu",
	[IC_ENDPGM] = "endpgm", [IC_UNTRACED] = "untraced",
	[IC_BARRIER_SIGNAL] = "barrier_signal", [IC_WAIT_ALU] = "wait_alu",
};

const char *inst_class_name(enum inst_class c)
{
	if ((unsigned)c >= IC_NCLASS || !class_names[c])
		return "invalid";
	return class_names[c];
}

static const char *
class_name_of(int i)
{
	return class_names[i];
}

enum inst_class inst_class_by_name(const char *name)
{
	static struct name_index index;
	int i;

	if (!index.ready)
		name_index_build(&index, IC_NCLASS, class_name_of);
	i = name_index_find(&index, name);
	return i < 0 ? IC_NCLASS : (enum inst_class)i;
}

static int in_list(const char *s, const char *const *list)
{
	for (; *list; list++)
		if (strcmp(s, *list) == 0)
			return 1;
	return 0;
}

/* the text has operand/modifier word w (e.g. "glc"), delimited by space or comma */
int isa_has_word(const char *text, const char *w)
{
	size_t n = strlen(w);

	for (const char *p = strstr(text, w); p; p = strstr(p + 1, w))
		if ((p == text || p[-1] == ' ' || p[-1] == ',') &&
		    (p[n] == 0 || p[n] == ' ' || p[n] == ','))
			return 1;
	return 0;
}

/* VALU mnemonic without its encoding suffix (_e32, _e64, _dpp, _sdwa) */
static void valu_base(const char *mn, char *out, size_t outsz)
{
	static const char *const sfx[] = { "_e64_dpp", "_e32", "_e64", "_dpp", "_sdwa", NULL };
	size_t n = strlen(mn);

	if (n >= outsz)
		n = outsz - 1;
	memcpy(out, mn, n);
	out[n] = 0;
	for (const char *const *s = sfx; *s; s++) {
		size_t k = strlen(*s);
		if (n > k && strcmp(out + n - k, *s) == 0) {
			out[n - k] = 0;
			break;
		}
	}
}

static enum inst_class classify_valu(const char *mn)
{
	/* Transcendentals run on the TRANS unit (s_delay_alu TRANS32_DEP_n).  The f64 ones
	 * (v_rcp_f64, v_rsq_f64, v_sqrt_f64) could equally be IC_VALU_F64; LLVM marks them
	 * TRANS (SIInstrInfo::isTRANS, and AMDGPUInsertDelayAlu uses TRANS32_DEP for them),
	 * so they are IC_VALU_TRANS here. */
	static const char *const trans[] = {
		"v_exp_f32", "v_log_f32", "v_rcp_f32", "v_rcp_iflag_f32", "v_rsq_f32",
		"v_sqrt_f32", "v_sin_f32", "v_cos_f32",
		"v_exp_f16", "v_log_f16", "v_rcp_f16", "v_rsq_f16", "v_sqrt_f16", "v_sin_f16",
		"v_cos_f16",
		"v_rcp_f64", "v_rsq_f64", "v_sqrt_f64", NULL };
	static const char *const shift64[] = {
		"v_lshlrev_b64", "v_lshrrev_b64", "v_ashrrev_i64", "v_lshl_b64", "v_lshr_b64",
		"v_ashr_i64", NULL };
	static const char *const mad64[] = { "v_mad_u64_u32", "v_mad_i64_i32", NULL };
	char base[64];

	if (pfx(mn, "v_dual_"))		/* VOPD: "v_dual_x ... :: v_dual_y ..." */
		return IC_VALU;
	if (pfx(mn, "v_cmpx_"))
		return IC_VALU_CMPX;
	if (pfx(mn, "v_interp"))
		return IC_VINTERP;
	valu_base(mn, base, sizeof base);
	if (in_list(base, trans))
		return IC_VALU_TRANS;
	if (in_list(base, shift64))
		return IC_VALU_SHIFT64;
	if (in_list(base, mad64))
		return IC_VALU_MAD64;
	if (strstr(base, "_f64"))
		return IC_VALU_F64;
	return IC_VALU;
}

static enum inst_class classify_salu(const char *mn, uint32_t w0)
{
	static const char *const jump[] = {
		"s_setpc_b64", "s_swappc_b64", "s_call_b64", "s_rfe_b64", NULL };
	static const char *const imm[] = {
		"s_nop", "s_sleep", "s_wait_idle", "s_wait_event", "s_set_inst_prefetch_distance",
		"s_inst_prefetch", "s_code_end", "s_trap", "s_version", "s_icache_inv",
		"s_setprio", "s_sethalt", "s_setkill", "s_ttracedata", "s_ttracedata_imm",
		"s_incperflevel", "s_decperflevel", "s_round_mode", "s_denorm_mode", NULL };
	static const char *const waits[] = {
		"s_waitcnt", "s_waitcnt_vscnt", "s_waitcnt_vmcnt", "s_waitcnt_lgkmcnt",
		"s_waitcnt_expcnt", NULL };

	if (strcmp(mn, "s_waitcnt_depctr") == 0)
		return IC_DEPCTR;
	if (in_list(mn, waits))
		return IC_WAITCNT;
	if (strcmp(mn, "s_delay_alu") == 0)
		return IC_DELAY_ALU;
	if (strcmp(mn, "s_clause") == 0)
		return IC_CLAUSE;
	if (pfx(mn, "s_endpgm"))
		return IC_ENDPGM;
	if (strcmp(mn, "s_barrier") == 0)
		return IC_BARRIER;
	if (strcmp(mn, "s_branch") == 0 || pfx(mn, "s_cbranch_"))
		return IC_BRANCH;
	if (in_list(mn, jump))
		return IC_JUMP;
	if (pfx(mn, "s_sendmsg"))
		return IC_MESSAGE;
	if (strstr(mn, "_saveexec_") || strstr(mn, "_wrexec_"))
		return IC_SALU_EXEC;
	if (pfx(mn, "s_load") || pfx(mn, "s_buffer_load") || pfx(mn, "s_scratch_load") ||
	    pfx(mn, "s_dcache_") || strcmp(mn, "s_gl1_inv") == 0 || pfx(mn, "s_memtime") ||
	    pfx(mn, "s_memrealtime") || pfx(mn, "s_atc_probe"))
		return IC_SMEM;
	if (pfx(mn, "s_store") || pfx(mn, "s_buffer_store") || pfx(mn, "s_scratch_store") ||
	    pfx(mn, "s_atomic") || pfx(mn, "s_buffer_atomic"))
		return IC_SMEM_STORE;
	if (in_list(mn, imm))
		return IC_IMM;
	/* any other SOPP (encoding 0b101111111 in [31:23]) is an immediate-only op */
	if ((w0 & 0xff800000u) == 0xbf800000u)
		return IC_IMM;
	return IC_SALU;	/* includes s_getpc_b64: it does not change control flow */
}

enum inst_class isa_gfx11_classify(const char *mn, const char *text, uint32_t w0)
{
	int ret = isa_has_word(text, "glc");	/* atomics: glc = returns the old value */

	if (strcmp(mn, "v_illegal") == 0)	/* what LLVM makes of a zero word */
		return IC_UNKNOWN;
	if (pfx(mn, "v_"))
		return classify_valu(mn);
	if (pfx(mn, "s_"))
		return classify_salu(mn, w0);
	if (pfx(mn, "global_load"))
		return IC_GLOBAL_LOAD;
	if (pfx(mn, "global_store"))
		return IC_GLOBAL_STORE;
	if (pfx(mn, "global_atomic"))
		return ret ? IC_GLOBAL_LOAD : IC_GLOBAL_STORE;
	if (pfx(mn, "global_"))
		return IC_GLOBAL_STORE;
	if (pfx(mn, "flat_load") || pfx(mn, "scratch_load"))
		return IC_FLAT_LOAD;
	if (pfx(mn, "flat_store") || pfx(mn, "scratch_store"))
		return IC_FLAT_STORE;
	if (pfx(mn, "flat_atomic"))
		return ret ? IC_FLAT_LOAD : IC_FLAT_STORE;
	if (pfx(mn, "buffer_load") || pfx(mn, "tbuffer_load"))
		return IC_BUF_LOAD;
	if (pfx(mn, "buffer_store") || pfx(mn, "tbuffer_store"))
		return IC_BUF_STORE;
	if (pfx(mn, "buffer_atomic"))
		return ret ? IC_BUF_LOAD : IC_BUF_STORE;
	if (pfx(mn, "buffer_"))		/* buffer_gl0_inv, buffer_gl1_inv: no data back */
		return IC_BUF_STORE;
	if (pfx(mn, "image_"))
		return IC_IMAGE;
	if (pfx(mn, "ds_load") || pfx(mn, "ds_read"))
		return IC_LDS_LOAD;
	if (pfx(mn, "ds_"))
		return IC_LDS_STORE;
	if (pfx(mn, "lds_param_load") || pfx(mn, "lds_direct_load"))
		return IC_LDS_LOAD;
	return IC_UNKNOWN;	/* also "exp" (exports have no class; compute never uses them) */
}

/* A word LLVM cannot read: the class of its encoding family, so that the token it emits
 * still fits (memory families as loads: the fit rules take a load for a store token). */
const enum inst_class isa_family_classes[ENC_NFAMILY] = {
	[ENC_SOP1] = IC_SALU, [ENC_SOP2] = IC_SALU, [ENC_SOPC] = IC_SALU, [ENC_SOPK] = IC_SALU,
	[ENC_SOPP] = IC_IMM, [ENC_SMEM] = IC_SMEM,
	[ENC_VOP1] = IC_VALU, [ENC_VOP2] = IC_VALU, [ENC_VOPC] = IC_VALU, [ENC_VOP3] = IC_VALU,
	[ENC_VOP3P] = IC_VALU, [ENC_VOPD] = IC_VALU, [ENC_VINTERP] = IC_VINTERP,
	[ENC_LDSDIR] = IC_LDS_LOAD, [ENC_DS] = IC_LDS_STORE, [ENC_FLAT] = IC_FLAT_LOAD,
	[ENC_MUBUF] = IC_BUF_LOAD, [ENC_MTBUF] = IC_BUF_LOAD, [ENC_MIMG] = IC_IMAGE,
};

enum inst_class
isa_family_class_by(const enum inst_class classes[ENC_NFAMILY], enum isa_family f,
    uint32_t w0, unsigned seg_lo)
{
	if ((unsigned)f >= ENC_NFAMILY)
		return IC_UNKNOWN;
	if (f == ENC_FLAT && (w0 >> seg_lo & 3) == 2)	/* SEG: 0 flat, 1 scratch, 2 global */
		return IC_GLOBAL_LOAD;
	return classes[f];
}

enum inst_class isa_gfx11_family_class(uint32_t w0)
{
	return isa_family_class_by(isa_family_classes, isa_gfx11_family(w0), w0, 16);
}


long
isa_count_at(const char *s)
{
	char *end;
	long v;

	while (*s == ' ' || *s == ',')
		s++;
	if (*s < '0' || *s > '9')
		return -1;
	v = strtol(s, &end, 0);
	return end == s || v < 0 ? -1 : v;
}

static const long counter_max[ISA_NCOUNTER] = { [CNT_VM] = 63, [CNT_VS] = 63,
	[CNT_LGKM] = 63, [CNT_EXP] = 7 };

/* A counter waited down to v: -1 when v is its maximum (no wait). */
static long
wait_to(int c, long v)
{
	return v >= counter_max[c] ? -1 : v;
}

static void
gfx11_waitcnt(const char *inst, long want[ISA_NCOUNTER])
{
	static const struct { const char *name; int c; } sopk[] = {
		{ "s_waitcnt_vmcnt", CNT_VM }, { "s_waitcnt_vscnt", CNT_VS },
		{ "s_waitcnt_lgkmcnt", CNT_LGKM }, { "s_waitcnt_expcnt", CNT_EXP },
	};
	size_t i, n = strcspn(inst, " ");
	const char *p, *comma;
	long v;
	int named = 0;

	for (i = 0; i < ISA_NCOUNTER; i++)
		want[i] = -1;
	for (i = 0; i < sizeof(sopk) / sizeof(sopk[0]); i++) {
		if (strlen(sopk[i].name) != n || strncmp(inst, sopk[i].name, n) != 0)
			continue;
		/* SOPK "s_waitcnt_vscnt null, 0x0": the count is the last operand; with an
		 * SGPR instead of null the count is unknown, at most the immediate */
		comma = strrchr(inst, ',');
		v = isa_count_at(comma ? comma + 1 : inst + n);
		want[sopk[i].c] = v < 0 ? 0 : wait_to(sopk[i].c, v);
		if (want[sopk[i].c] < 0 && !pfx(inst + n, " null"))
			want[sopk[i].c] = counter_max[sopk[i].c];
		return;
	}
	if (n == strlen("s_waitcnt") && strncmp(inst, "s_waitcnt", n) == 0) {
		if ((p = strstr(inst, "vmcnt(")) != NULL)
			named = 1, want[CNT_VM] = wait_to(CNT_VM, isa_count_at(p + 6));
		if ((p = strstr(inst, "lgkmcnt(")) != NULL)
			named = 1, want[CNT_LGKM] = wait_to(CNT_LGKM, isa_count_at(p + 8));
		if ((p = strstr(inst, "expcnt(")) != NULL)
			named = 1, want[CNT_EXP] = wait_to(CNT_EXP, isa_count_at(p + 7));
		if (named)
			return;
		/* "s_waitcnt 0": the gfx11 simm16, vmcnt [15:10], lgkmcnt [9:4], expcnt [2:0] */
		if ((v = isa_count_at(inst + n)) >= 0) {
			want[CNT_VM] = wait_to(CNT_VM, (v >> 10) & 63);
			want[CNT_LGKM] = wait_to(CNT_LGKM, (v >> 4) & 63);
			want[CNT_EXP] = wait_to(CNT_EXP, v & 7);
			return;
		}
	}
	/* s_wait_idle, or a text not understood: wait for everything */
	for (i = 0; i < ISA_NCOUNTER; i++)
		want[i] = 0;
}

unsigned
isa_wait_bits_by(void (*waitcnt)(const char *, long[ISA_NCOUNTER]),
    const unsigned bit[ISA_NCOUNTER], const char *inst)
{
	long want[ISA_NCOUNTER];
	unsigned w = 0;
	int c;

	waitcnt(inst, want);
	for (c = 0; c < ISA_NCOUNTER; c++)
		if (want[c] >= 0)
			w |= bit[c];
	return w;
}

static unsigned
gfx11_wait_bits(const char *inst)
{
	static const unsigned bit[ISA_NCOUNTER] = { [CNT_VM] = WAIT_VM, [CNT_VS] = WAIT_VS,
		[CNT_LGKM] = WAIT_LGKM, [CNT_EXP] = WAIT_EXP };

	return isa_wait_bits_by(gfx11_waitcnt, bit, inst);
}

int
isa_mem_counter_by(const struct isa_mem_counters *t, enum inst_class c, const char *mnemonic,
    unsigned *kind)
{
	*kind = MEM_VMEM;
	switch (c) {
	case IC_GLOBAL_LOAD: case IC_FLAT_LOAD: case IC_BUF_LOAD:
		return t->load;
	case IC_IMAGE:
		return t->image(mnemonic);
	case IC_GLOBAL_STORE: case IC_FLAT_STORE: case IC_BUF_STORE:
		return t->store;
	case IC_SMEM: case IC_SMEM_STORE:
		*kind = MEM_SMEM;
		return t->smem;
	case IC_LDS_LOAD: case IC_LDS_STORE:
		*kind = MEM_LDS;
		return t->lds;
	default:
		return -1;
	}
}

static int
gfx11_image_counter(const char *mnemonic)
{
	return pfx(mnemonic, "image_store") ? CNT_VS : CNT_VM;
}

static int
gfx11_mem_counter(enum inst_class c, const char *mnemonic, unsigned *kind)
{
	static const struct isa_mem_counters t = { CNT_VM, CNT_VS, CNT_LGKM, CNT_LGKM,
		gfx11_image_counter };

	return isa_mem_counter_by(&t, c, mnemonic, kind);
}

static const char *const dep_names[] = { "-", "VALU_DEP_1", "VALU_DEP_2", "VALU_DEP_3",
	"VALU_DEP_4", "TRANS32_DEP_1", "TRANS32_DEP_2", "TRANS32_DEP_3", "FMA_ACCUM_CYCLE_1",
	"SALU_CYCLE_1", "SALU_CYCLE_2", "SALU_CYCLE_3" };

static const char *
gfx11_dep_name(unsigned id)
{
	return id < sizeof(dep_names) / sizeof(dep_names[0]) ? dep_names[id] : "-";
}

static int
gfx11_dep_of_id(unsigned id, enum inst_dep *dep, unsigned *arg)
{
	if (id >= 1 && id <= 4)
		*dep = DEP_VALU, *arg = id;
	else if (id >= 5 && id <= 7)
		*dep = DEP_TRANS, *arg = id - 4;
	else if (id == 8)	/* FMA_ACCUM_CYCLE_1: a VALU dependency of one cycle */
		*dep = DEP_VALU, *arg = 1;
	else if (id >= 9 && id <= 11)
		*dep = DEP_SALU, *arg = id - 8;
	else
		return -1;
	return 0;
}

static enum inst_dep
gfx11_dep_by_name(const char *name)
{
	enum inst_dep d;
	unsigned id, arg;

	for (id = 1; id < sizeof(dep_names) / sizeof(dep_names[0]); id++)
		if (strcmp(name, dep_names[id]) == 0 && gfx11_dep_of_id(id, &d, &arg) == 0)
			return d;
	return DEP_NONE;
}

int
isa_class_is_valu(enum inst_class c)
{
	return c == IC_VALU || c == IC_VALU_TRANS || c == IC_VALU_SHIFT64 ||
	    c == IC_VALU_MAD64 || c == IC_VALU_F64 || c == IC_VALU_CMPX || c == IC_VINTERP;
}

int
isa_class_is_imm(enum inst_class c)
{
	return c == IC_WAITCNT || c == IC_DEPCTR || c == IC_CLAUSE || c == IC_IMM;
}

/* The table of sqtt-format.md section 7, read by families so that a capture which reports
 * a VALU op under a neighbouring token still walks. */
static int
gfx11_token_fits(enum inst_class c, const char *mnemonic, enum sqtt_type type, int op)
{
	switch (type) {
	case TOK_VALU_INST:
		return isa_class_is_valu(c);
	case TOK_IMM_ONE:
	case TOK_IMMEDIATE:
		/* v_permlane64_b32 does nothing in wave32 and issues as an immediate there
		 * (20260314_profile_ops_run_0, pc 0x14bc) */
		return isa_class_is_imm(c) || strcmp(mnemonic, "v_permlane64_b32") == 0;
	case TOK_INST:
		break;
	default:
		return 0;
	}
	switch (op) {
	case SQTT_OP_SALU: case SQTT_OP_SALU_NO_EXEC:
		/* the SOPK waits (s_waitcnt_vmcnt s0, 0x0) issue as SALUs: with an SGPR the
		 * count is read from it (discover_ops captures of issue 20) */
		return c == IC_SALU || c == IC_SALU_EXEC ||
		    (c == IC_WAITCNT && pfx(mnemonic, "s_waitcnt_"));
	case SQTT_OP_SMEM_RD:
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
	case SQTT_OP_BARRIER:
		return c == IC_BARRIER;
	case SQTT_OP_SALU_WR_EXEC:
		return c == IC_SALU_EXEC || c == IC_SALU;
	case SQTT_OP_VALU1_WR_EXEC: case SQTT_OP_VALU_B2_WR_EXEC:
		return isa_class_is_valu(c);
	}
	switch (gfx11_op_unit(op)) {
	case SQTT_UNIT_VALU:
		return isa_class_is_valu(c);
	case SQTT_UNIT_VMEM_RD:
		return c == IC_GLOBAL_LOAD || c == IC_FLAT_LOAD || c == IC_BUF_LOAD;
	case SQTT_UNIT_VMEM_WR:	/* atomics count as loads when they return */
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

/* May the instruction leave EXEC zero: a v_cmpx, an s_*_saveexec, or a scalar write of
 * exec, exec_lo or exec_hi. */
static int
gfx11_exec_write(enum inst_class c, const char *text)
{
	const char *op;

	if (c == IC_VALU_CMPX || c == IC_SALU_EXEC)
		return 1;
	if (c != IC_SALU || (op = strchr(text, ' ')) == NULL)
		return 0;
	return pfx(op + 1, "exec");
}

/* With EXEC zero a VALU that honours EXEC issues as IMM_ONE (20260314_profile_ops_run_0
 * and the other discover_ops captures of issue 20); those that write an SGPR or ignore
 * EXEC still issue as VALUs: v_div_scale, v_mad_*64, v_*_co_*, v_readlane,
 * v_readfirstlane, v_writelane, v_wmma, and the v_cmp/v_cmpx that write VCC or EXEC. */
static int
gfx11_exec_zero_fits(enum inst_class c, const char *mn, enum sqtt_type type, int op)
{
	(void)op;
	if ((type != TOK_IMM_ONE && type != TOK_IMMEDIATE) || !isa_class_is_valu(c) || c == IC_VALU_MAD64)
		return 0;
	return !(pfx(mn, "v_div_scale") || strstr(mn, "_co_") != NULL || pfx(mn, "v_readlane") ||
	    pfx(mn, "v_readfirstlane") || pfx(mn, "v_writelane") || pfx(mn, "v_wmma") ||
	    pfx(mn, "v_cmp"));
}

int
isa_exec_zero_imm(const struct isa_model *m, enum inst_class c, const char *mnemonic)
{
	return m->exec_zero_fits != NULL && m->exec_zero_fits(c, mnemonic, TOK_IMM_ONE, -1);
}

static int
gfx11_disasm_unsafe(const uint8_t *p, size_t n)
{
	uint32_t w0, lit;
	unsigned op;

	if (n < 8)
		return 0;
	w0 = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
	lit = (uint32_t)p[4] | (uint32_t)p[5] << 8 | (uint32_t)p[6] << 16 | (uint32_t)p[7] << 24;
	if (isa_gfx11_family(w0) != ENC_VOP2)
		return 0;
	op = w0 >> 25 & 0x3f;
	return (op == 0x37 || op == 0x38) && lit == 0xff;
}

/* s_delay_alu's simm16: instid0 [3:0], instskip [6:4], instid1 [10:7]. */
static void
gfx11_delay_fields(unsigned simm16, unsigned *id0, unsigned *skip, unsigned *id1)
{
	*id0 = simm16 & 0xf;
	*skip = simm16 >> 4 & 7;
	*id1 = *skip > 5 ? 0 : simm16 >> 7 & 0xf;	/* instskip 6, 7: reserved */
}

/* ---- the default model ---- */

/* The VALU operations with a v_dual_* form on gfx11 (RDNA3 ISA guide, VOPD). */
static const char *const vopd_ops[] = { "v_fmac_f32", "v_fmaak_f32", "v_fmamk_f32",
	"v_mul_f32", "v_add_f32", "v_sub_f32", "v_subrev_f32", "v_mul_dx9_zero_f32",
	"v_mov_b32", "v_cndmask_b32", "v_max_f32", "v_min_f32", "v_dot2acc_f32_f16",
	"v_add_nc_u32", "v_lshlrev_b32", "v_and_b32", NULL };

static const struct isa_model gfx11 = {
	.counter_names = { [CNT_VM] = "vmcnt", [CNT_VS] = "vscnt", [CNT_LGKM] = "lgkmcnt",
	    [CNT_EXP] = "expcnt" },
	.fetch_line = 64,
	/* The gfx11 fixtures: the 12 8-byte instructions that straddle into a new 256-byte
	 * block cost 261 cycles (median), the 69 that straddle only a 64-byte line 2 (75% at
	 * most 4), as much as an instruction inside a line (stall-attr(1), fetch). */
	.fetch_block = 256,
	.inst_max_bytes = 12,	/* 4, 8 or 12 */
	.issue_cycles = 1,
	.counter_depth = 64,
	.regs = { .vgprs = 256, .sgprs = 128, .vcc = 106, .exec = 126, .vgpr_banks = 4,
	    .vopd_ops = vopd_ops },
	.classify = isa_gfx11_classify,
	.family_class = isa_gfx11_family_class,
	.token_fits = gfx11_token_fits,
	.waitcnt = gfx11_waitcnt,
	.wait_bits = gfx11_wait_bits,
	.mem_counter = gfx11_mem_counter,
	.dep_name = gfx11_dep_name,
	.dep_of_id = gfx11_dep_of_id,
	.dep_by_name = gfx11_dep_by_name,
	.delay_fields = gfx11_delay_fields,
	.disasm_unsafe = gfx11_disasm_unsafe,
	.length = isa_gfx11_length,
	.sleep_cycles = gfx11_sleep_cycles,
	.exec_write = gfx11_exec_write,
	.exec_zero_fits = gfx11_exec_zero_fits,
};

void
gfx11_model(struct isa_model *m)
{
	*m = gfx11;
}
