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

/* Reads path into p (profile_init'ed with PROFILE_TABLES) and finishes it: 0, or -1
 * with why holding the one line a program says after "prog: " (and exits 2 with); an
 * input with no kernel is an error too.  The table readers' errors come back too
 * (profile_read_tsv, profile_read_json). */
int load_profile(struct profile *p, const char *path, char *why, size_t whysz);

/* The costed rows of the capture at path, run through the pipeline in process (what
 * `stall --rows` writes, as values): its context lines to annotate_meta, then every row
 * to annotate_put, in stream order; copt selects the buffers (-k, --dispatch).  0, or -1
 * with why, as load_profile; the pipeline's warnings are said on standard error. */
int load_annotate(struct annotate *, const char *path, const struct capture_opts *copt,
    char *why, size_t whysz);

#endif
