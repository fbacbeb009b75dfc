/* load: a profile from what a user names on the command line: a row stream, a stall table
 * (TSV or JSON), or a capture, which is run through `stall --rows` (the driver beside the
 * program, else the one in PATH); "-" is standard input (a stream or a table). */
#ifndef LOAD_H
#define LOAD_H
#include "profile.h"

/* Reads path into p (profile_init'ed with PROFILE_TABLES) and finishes it.  Trouble is
 * fatal, one line, exit 2; an input with no kernel is trouble too. */
void load_profile(struct profile *p, const char *path);

#endif
