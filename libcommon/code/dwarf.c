/* dwarf: pc to source line through libdw (dwarf.h). */
#include <elfutils/libdw.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dwarf.h"
#include "util.h"

struct srclines {
	Elf *elf;
	Dwarf *dw;		/* NULL: no debug information */
	char *image;		/* libelf wants a writable buffer */
};

/* A code object with no .debug_info has no line table to read; one with a .debug_info
 * that libdw refuses is malformed. */
static int
has_debug_info(Elf *elf)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	size_t shstrndx;
	const char *name;

	if (elf_getshdrstrndx(elf, &shstrndx) != 0)
		return 0;
	while ((scn = elf_nextscn(elf, scn)) != NULL)
		if (gelf_getshdr(scn, &sh) != NULL &&
		    (name = elf_strptr(elf, shstrndx, sh.sh_name)) != NULL &&
		    strcmp(name, ".debug_info") == 0)
			return 1;
	return 0;
}

struct srclines *
srclines_open(const void *image, size_t size, char *why, size_t whysz)
{
	static const char zero_ident[SELFMAG];
	struct srclines *s;

	if (elf_version(EV_CURRENT) == EV_NONE) {
		snprintf(why, whysz, "libelf: %s", elf_errmsg(-1));
		return NULL;
	}
	s = xcalloc(1, sizeof(*s));
	s->image = xcalloc(1, size ? size : 1);
	memcpy(s->image, image, size);
	/* a code object stored with its identification zeroed, in whole or in part, is
	 * ELF64 little-endian (as codeobj reads it): say so, for libelf */
	if (size >= EI_NIDENT && (memcmp(s->image, zero_ident, SELFMAG) == 0 ||
	    memcmp(s->image, ELFMAG, SELFMAG) == 0)) {
		memcpy(s->image, ELFMAG, SELFMAG);
		if (s->image[EI_CLASS] == ELFCLASSNONE)
			s->image[EI_CLASS] = ELFCLASS64;
		if (s->image[EI_DATA] == ELFDATANONE)
			s->image[EI_DATA] = ELFDATA2LSB;
		if (s->image[EI_VERSION] == EV_NONE)
			s->image[EI_VERSION] = EV_CURRENT;
	} else {
		snprintf(why, whysz, "not an ELF file");
		srclines_close(s);
		return NULL;
	}
	if ((s->elf = elf_memory(s->image, size)) == NULL || elf_kind(s->elf) != ELF_K_ELF)
		return s;	/* libelf cannot read it (codeobj reads its raw headers): no lines */
	if ((s->dw = dwarf_begin_elf(s->elf, DWARF_C_READ, NULL)) == NULL &&
	    has_debug_info(s->elf)) {
		snprintf(why, whysz, "DWARF: %s", dwarf_errmsg(-1));
		srclines_close(s);
		return NULL;
	}
	return s;
}

void
srclines_close(struct srclines *s)
{
	if (s == NULL)
		return;
	if (s->dw)
		dwarf_end(s->dw);
	if (s->elf)
		elf_end(s->elf);
	free(s->image);
	free(s);
}

int
srclines_any(const struct srclines *s)
{
	return s->dw != NULL;
}

void
srclines_at(struct srclines *s, uint64_t pc, const char **file, int *line)
{
	Dwarf_Die cu;
	Dwarf_Line *l;
	const char *f;
	int n;

	*file = "??";
	*line = 0;
	if (s->dw == NULL || dwarf_addrdie(s->dw, pc, &cu) == NULL)
		return;
	if ((l = dwarf_getsrc_die(&cu, pc)) == NULL)
		return;
	if ((f = dwarf_linesrc(l, NULL, NULL)) == NULL || dwarf_lineno(l, &n) != 0)
		return;
	*file = f;
	*line = n;
}
