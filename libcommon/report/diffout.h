/* diffout: a diff of two profiles (align.h) written as stall-diff(1) shows it: TSV, JSON
 * (version 1) or aligned text; every line, or with DIFF_CHANGED a summary line per kernel
 * first and only the lines that changed, by |delta|.  Names from the inputs are escaped
 * (meta.h) so that none can forge a line or a field. */
#ifndef DIFFOUT_H
#define DIFFOUT_H
#include <stdio.h>

#include "align.h"

#define DIFF_CHANGED 1

void diff_put_tsv(const struct diff *, FILE *, unsigned how);
void diff_put_json(const struct diff *, FILE *, unsigned how);
void diff_put_pretty(const struct diff *, FILE *, unsigned how);

#endif
