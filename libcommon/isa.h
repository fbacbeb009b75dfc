/* isa: the gfx11 (RDNA3) instruction encodings, without LLVM: which family a word belongs
 * to and how many bytes the instruction takes, so that a word the disassembler cannot read
 * is still stepped over by its real length.  Facts from AMD's "RDNA3 Instruction Set
 * Architecture" reference guide, section "Microcode Formats". */
#ifndef ISA_H
#define ISA_H
#include <stddef.h>
#include <stdint.h>

enum isa_family {
	ENC_UNKNOWN, ENC_SOP1, ENC_SOPC, ENC_SOPP, ENC_SOPK, ENC_SOP2, ENC_SMEM,
	ENC_VOP1, ENC_VOPC, ENC_VOP2, ENC_VOP3, ENC_VOP3P, ENC_VOPD, ENC_VINTERP,
	ENC_LDSDIR, ENC_DS, ENC_FLAT, ENC_MUBUF, ENC_MTBUF, ENC_MIMG, ENC_EXP, ENC_NFAMILY
};

/* The family of an instruction by its first dword. */
enum isa_family isa_family(uint32_t w0);
const char *isa_family_name(enum isa_family);
/* Its length in bytes (4 to 20), from the words at p (n bytes available; missing bytes
 * read as zero): the family's size, plus a literal dword where a source operand is 255,
 * plus DPP/SDWA and MIMG address dwords. */
unsigned isa_length(const uint8_t *p, size_t n);

/* s_sleep: how long the wave sleeps (64 clocks per unit of SIMM16[6:0]); -1 when the
 * text is not an s_sleep. */
long isa_sleep_cycles(const char *inst);

#endif
