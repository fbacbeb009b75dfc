/* gfx11 (RDNA3): the default backend, every field filled: its tokens
 * (gfx11/gfx11-token.c), its instruction model (gen/isa.c) and its processors. */
#include "gen.h"

/* LLVM's gfx11 processors and their EF_AMDGPU_MACH values (BinaryFormat/ELF.h). */
static struct isa_target targets[] = {
	{ "gfx1100", 0x041, NULL }, { "gfx1101", 0x046, NULL }, { "gfx1102", 0x047, NULL },
	{ "gfx1103", 0x044, NULL }, { "gfx1150", 0x043, NULL }, { "gfx1151", 0x04a, NULL },
	{ "gfx1152", 0x055, NULL }, { "gfx1153", 0x058, NULL },
};
static struct isa_target generic = { "gfx11-generic", 0x054, NULL };

void
gfx11_backend(struct gen_backend *b)
{
	gfx11_tokens(&b->tokens);
	gfx11_model(&b->isa);
	b->slots = NULL;	/* its streams have a HEADER */
	gen_set_targets(b, "gfx11", targets, sizeof(targets) / sizeof(targets[0]), &generic);
}
