#include <stdlib.h>
#include <string.h>

#include "isa.h"

static const char *const family_names[ENC_NFAMILY] = {
	[ENC_UNKNOWN] = "unknown", [ENC_SOP1] = "SOP1", [ENC_SOPC] = "SOPC",
	[ENC_SOPP] = "SOPP", [ENC_SOPK] = "SOPK", [ENC_SOP2] = "SOP2", [ENC_SMEM] = "SMEM",
	[ENC_VOP1] = "VOP1", [ENC_VOPC] = "VOPC", [ENC_VOP2] = "VOP2", [ENC_VOP3] = "VOP3",
	[ENC_VOP3P] = "VOP3P", [ENC_VOPD] = "VOPD", [ENC_VINTERP] = "VINTERP",
	[ENC_LDSDIR] = "LDSDIR", [ENC_DS] = "DS", [ENC_FLAT] = "FLAT", [ENC_MUBUF] = "MUBUF",
	[ENC_MTBUF] = "MTBUF", [ENC_MIMG] = "MIMG", [ENC_EXP] = "EXP",
};

const char *
isa_family_name(enum isa_family f)
{
	return (unsigned)f < ENC_NFAMILY ? family_names[f] : "unknown";
}

enum isa_family
isa_family(uint32_t w0)
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
isa_length(const uint8_t *p, size_t n)
{
	uint8_t b[8] = { 0 };
	uint32_t w0, w1;
	unsigned op;

	memcpy(b, p, n < 8 ? n : 8);
	w0 = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
	w1 = (uint32_t)b[4] | (uint32_t)b[5] << 8 | (uint32_t)b[6] << 16 | (uint32_t)b[7] << 24;
	switch (isa_family(w0)) {
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

long
isa_sleep_cycles(const char *inst)
{
	unsigned long v;
	char *end;

	if (strncmp(inst, "s_sleep", 7) != 0 || (inst[7] != ' ' && inst[7] != '\0'))
		return -1;
	v = strtoul(inst + 7, &end, 0);
	return 64 * (long)(v & 0x7f);
}
