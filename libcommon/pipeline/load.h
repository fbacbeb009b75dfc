/* load: a profile from what a user names on the command line: a row stream, a stall table
 * (TSV or JSON), or a capture, which is run through the pipeline in process (pipeline.h:
 * the rows `stall --rows` would write); "-" is standard input (a stream or a table). */
#ifndef LOAD_H
#define LOAD_H
#include <stdio.h>
#include "annotate.h"
#include "capture.h"
#include "profile.h"
#include "tsv.h"

/* Reads path into p (profile_init'ed with PROFILE_TABLES) and finishes it.  Trouble is
 * fatal, one line, exit 2; an input with no kernel is trouble too. */
void load_profile(struct profile *p, const char *path);

/* The costed rows of the capture at path, run through the pipeline in process (what
 * `stall --rows` writes, as values): its context lines to annotate_meta, then every row
 * to annotate_put, in stream order; copt selects the buffers (-k, --dispatch).  Trouble
 * is fatal, one line, exit 2; the pipeline's warnings are said on standard error. */
void load_annotate(struct annotate *, const char *path, const struct capture_opts *copt);

#endif
