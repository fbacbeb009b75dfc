/* rowtext: a walker's row as a line of the row stream (pipeline.md): event se kernel wave
 * slot pc time delta token inst class dep, the kernel escaped as ## values are (meta.h).
 * The hot path of sqtt-walk and stall --rows: pieces made once per event and once per
 * instruction, numbers formatted by hand, written through out.h. */
#ifndef ROWTEXT_H
#define ROWTEXT_H
#include "walk.h"

/* The row's line on stdout, then extra (may be NULL: "\tcost\tcause..." for instance)
 * and the newline. */
void rowtext_put(const struct walk_row *, const char *extra);
/* The column header line of the row stream, extra columns appended. */
void rowtext_header(const char *extra);

#endif
