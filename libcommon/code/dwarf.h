/* dwarf: the source line of a pc, from a code object's DWARF line table, read with libdw
 * (elfutils).  A code object without debug information answers "??", line 0 for every pc,
 * as addr2line does. */
#ifndef DWARF_H
#define DWARF_H
#include <stddef.h>
#include <stdint.h>

struct srclines;

/* The image is copied.  NULL and a one-line reason in why when the image is not an ELF
 * file or its DWARF is malformed (libdw's own words).  An image whose identification is
 * zeroed is read as ELF64 little-endian; one libelf still cannot read has no lines. */
struct srclines *srclines_open(const void *image, size_t size, char *why, size_t whysz);
void srclines_close(struct srclines *);
/* Does the code object carry a line table at all? */
int srclines_any(const struct srclines *);
/* The file and line of pc: file "??" and line 0 where the table has none. */
void srclines_at(struct srclines *, uint64_t pc, const char **file, int *line);

#endif
