/* rowtext: a walker's row as a line of the row stream (pipeline.md): event se kernel wave
 * slot pc time delta token inst class dep tag, the kernel and the tag escaped as ## values
 * are (meta.h).
 * The hot path of sqtt-walk and stall --rows: pieces made once per event and once per
 * instruction, numbers formatted by hand, written through out.h. */
#ifndef ROWTEXT_H
#define ROWTEXT_H
#include "walk.h"

/* The row's line on stdout: its twelve columns, then extra (may be NULL: "\tcost\tcause..."
 * for instance), then its tag and the newline: the tag is always the last column. */
void rowtext_put(const struct walk_row *, const char *extra);
/* The column header line of the row stream: the twelve, extra, then tag. */
void rowtext_header(const char *extra);

#endif
