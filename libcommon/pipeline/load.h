/* load: a profile from what a user names on the command line: a row stream, a stall table
 * (TSV or JSON), or a capture, which is run through the pipeline in process (pipeline.h:
 * the rows `stall --rows` would write); "-" is standard input (a stream or a table). */
#ifndef LOAD_H
#define LOAD_H
#include <stdio.h>
#include <sys/types.h>

#include "profile.h"
#include "tsv.h"

/* Reads path into p (profile_init'ed with PROFILE_TABLES) and finishes it.  Trouble is
 * fatal, one line, exit 2; an input with no kernel is trouble too. */
void load_profile(struct profile *p, const char *path);

/* The rows of a capture as a stream: t reads what `stall --rows ARGS -- path` writes
 * (args NULL-terminated, a few options such as -k NAME; NULL: none).  load_rows_close
 * waits for the driver; its failure is fatal (exit 2: it has said why, in one line). */
struct load_rows {
	struct tsv t;
	FILE *fp;
	pid_t pid;
};
void load_rows_open(struct load_rows *, const char *path, const char *const *args);
void load_rows_close(struct load_rows *);

#endif
