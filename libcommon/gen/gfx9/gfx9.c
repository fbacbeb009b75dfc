/* gfx9 (CDNA3: gfx942, gfx950): the defaults with its instruction model
 * (gfx9/gfx9-isa.c) and its processors.  Its streams have no HEADER (token version 0,
 * which no HEADER lookup matches): trace/gfx9 decodes them, with a token vocabulary of
 * its own, whose ISSUE-slot facts the walk reads (gfx9/gfx9-slots.c); the default
 * token table stays for what a writer of its packet stream asks. */
#include "gen.h"

/* LLVM's CDNA3 processors and their EF_AMDGPU_MACH values (BinaryFormat/ELF.h). */
static struct isa_target targets[] = { { "gfx950", 0x04f, NULL }, { "gfx942", 0x04c, NULL } };
static struct isa_target generic = { "gfx9-4-generic", 0x05f, NULL };

static struct slot_gen slots;

void
gfx9_backend(struct gen_backend *b)
{
	gfx9_slots(&slots);
	b->slots = &slots;
	b->tokens.version = 0;
	gfx9_model(&b->isa);
	gen_set_targets(b, "gfx9", targets, sizeof(targets) / sizeof(targets[0]), &generic);
}
