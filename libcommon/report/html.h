/* html: the page stall-table --html writes: one self-contained HTML file (no network,
 * no external script or font) with the timeline of the waves drawn on a canvas, the
 * per-instruction table and the totals by cause.  Its data is embedded as JSON: the
 * table as stall-table --json writes it, and the timeline (timeline.h). */
#ifndef HTML_H
#define HTML_H
#include <stddef.h>
#include <stdio.h>

#include "timeline.h"

/* The page, from the JSON of the table (len bytes; any '<' in it is written as \u003c,
 * so no "</script>" can close its script element) and the timeline. */
void html_write(FILE *fp, const char *table_json, size_t len, const struct timeline *tl);

#endif
