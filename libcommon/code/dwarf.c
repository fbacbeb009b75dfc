/* dwarf: pc to source line through libdw (dwarf.h). */

#include <elfutils/libdw.h>
#include <gelf.h>
#include <libelf.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dwarf.h"
#include "util.h"

/* elfutils' <dwarf.h> is shadowed by this module's own header */
#define AT_COMP_DIR 0x1b

/* One row of a line table: from addr up to the next row, file:line; end: the row that
 * ends a sequence (no line from addr on). */
struct lrow {
	uint64_t addr;
	size_t order;		/* its place in the CUs' tables, for a stable order */
	const char *file;
	int line, end;
};

struct srclines {
	Elf *elf;
	Dwarf *dw;		/* NULL: no debug information */
	char *image;		/* libelf wants a writable buffer */
	struct lrow *row;	/* every CU's line table, by address */
	size_t nrow;
	struct fname *names;	/* the file names as llvm-addr2line gives them */
	size_t nname;
};

/* A file name libdw gives, and the name it is given as. */
struct fname {
	const char *dw;
	char *name;
};

/* libdw joins a file's name to its include directory, but not a relative directory to
 * the unit's compilation directory, as the DWARF says it is relative to (and as
 * llvm-addr2line and addr2line join it): "./scale.h" of a unit compiled in
 * "fixtures/annotate" is "fixtures/annotate/./scale.h".  A name already under the
 * compilation directory (a file of directory 0) is left as it is. */
static const char *
file_name(struct srclines *s, const char *f, const char *comp)
{
	size_t i, n;

	if (f[0] == '/' || comp == NULL || comp[0] == '\0')
		return f;
	n = strlen(comp);
	if (strncmp(f, comp, n) == 0 && (f[n] == '/' || (n > 0 && comp[n - 1] == '/')))
		return f;
	for (i = 0; i < s->nname; i++)
		if (s->names[i].dw == f)
			return s->names[i].name;
	if ((s->nname & (s->nname - 1)) == 0)
		s->names = xreallocarray(s->names, s->nname ? 2 * s->nname : 4, sizeof(*s->names));
	s->names[s->nname].dw = f;
	s->names[s->nname].name = xcalloc(1, n + strlen(f) + 2);
	sprintf(s->names[s->nname].name, "%s%s%s", comp, comp[n - 1] == '/' ? "" : "/", f);
	return s->names[s->nname++].name;
}

static int
lrow_cmp(const void *a, const void *b)
{
	const struct lrow *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if (x->end != y->end)
		return x->end ? -1 : 1;	/* a sequence ending where the next begins */
	return (x->order > y->order) - (x->order < y->order);
}

/* The line table of every compilation unit, walked with dwarf_nextcu: .debug_aranges,
 * which dwarf_addrdie needs, is not emitted by clang unless asked for. */
static int
read_tables(struct srclines *s, char *why, size_t whysz)
{
	Dwarf_Off off = 0, next;
	size_t hsize, cap = 0;

	while (dwarf_nextcu(s->dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu;
		Dwarf_Lines *lines;
		Dwarf_Attribute at;
		const char *comp;
		size_t n, i;

		if (dwarf_offdie(s->dw, off + hsize, &cu) == NULL ||
		    dwarf_getsrclines(&cu, &lines, &n) != 0) {
			off = next;
			continue;	/* a unit without a line table */
		}
		comp = dwarf_formstring(dwarf_attr(&cu, AT_COMP_DIR, &at));
		for (i = 0; i < n; i++) {
			Dwarf_Line *l = dwarf_onesrcline(lines, i);
			Dwarf_Addr addr;
			bool end = false;
			const char *f;
			int ln;
			if (l == NULL || dwarf_lineaddr(l, &addr) != 0 ||
			    dwarf_lineendsequence(l, &end) != 0)
				continue;
			if ((f = dwarf_linesrc(l, NULL, NULL)) == NULL || dwarf_lineno(l, &ln) != 0) {
				if (!end)
					continue;
				f = "??";
				ln = 0;
			} else if (ln < 0) {
				/* libdw's unsigned line past INT_MAX: no line, not a negative one */
				f = "??";
				ln = 0;
			}
			if (s->nrow == cap) {
				if (cap >= DWARF_ROWS_MAX) {
					snprintf(why, whysz, "DWARF: more than %u line table rows",
					    DWARF_ROWS_MAX);
					return -1;
				}
				cap = cap ? 2 * cap : 64;
				s->row = xreallocarray(s->row, cap, sizeof(*s->row));
			}
			s->row[s->nrow].addr = addr;
			s->row[s->nrow].order = s->nrow;
			s->row[s->nrow].file = end || ln == 0 ? f : file_name(s, f, comp);
			s->row[s->nrow].line = ln;
			s->row[s->nrow].end = end;
			s->nrow++;
		}
		off = next;
	}
	xqsort(s->row, s->nrow, sizeof(*s->row), lrow_cmp);
	return 0;
}

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
	if (s->dw != NULL && read_tables(s, why, whysz) < 0) {
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
	free(s->row);
	while (s->nname > 0)
		free(s->names[--s->nname].name);
	free(s->names);
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
	size_t lo = 0, hi = s->nrow;

	*file = "??";
	*line = 0;
	/* the last row at or before pc; pc is in no sequence when that row ends one */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (s->row[mid].addr <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0 || s->row[lo - 1].end)
		return;
	*file = s->row[lo - 1].file;
	*line = s->row[lo - 1].line;
}
