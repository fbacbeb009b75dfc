/* gfx12 (RDNA4): the defaults with its tokens (gfx12/gfx12-token.c), its instruction
 * model (gfx12/gfx12-isa.c) and its processors. */
#include "gen.h"

/* LLVM's gfx12 processors and their EF_AMDGPU_MACH values (BinaryFormat/ELF.h). */
static struct isa_target targets[] = { { "gfx1200", 0x048, NULL }, { "gfx1201", 0x04e, NULL } };
static struct isa_target generic = { "gfx12-generic", 0x059, NULL };

void
gfx12_backend(struct gen_backend *b)
{
	gfx12_tokens(&b->tokens);
	gfx12_model(&b->isa);
	gen_set_targets(b, "gfx12", targets, sizeof(targets) / sizeof(targets[0]), &generic);
}
