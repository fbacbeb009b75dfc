/* meta: the '##' lines of the streams (pipeline.md, Streams), written and read here
 * only.  A value is escaped so that it stays one field of one line and comes back the
 * same: backslash as \\, tab as \t, newline as \n, any other control byte or DEL as
 * \xHH; other bytes (UTF-8) as they are. */
#ifndef META_H
#define META_H
#include <stdint.h>
#include <stdio.h>

struct tsv;

/* "##KEY" */
void meta_begin(FILE *, const char *key);
/* "\tVALUE", escaped */
void meta_str(FILE *, const char *value);
/* "\t-": the placeholder for a value there is none of (a value "-" is written \x2d) */
void meta_none(FILE *);
/* "\tVALUE" escaped, or "\t-" for NULL */
void meta_str_or_none(FILE *, const char *value);
/* "\n"; a write error is fatal */
void meta_end(FILE *);
/* The escaped form of s in a new string. */
char *meta_escape(const char *s);
/* Unescape s in place; -1 on a malformed escape. */
int meta_unescape(char *s);
/* Unescape every field of the current TSV_META line in place (field[0] is the key); a
 * malformed escape is fatal.  A placeholder "-" becomes the string meta_dash (still
 * "-", but told apart from a value "-" by meta_is_none).  tsv_line is no longer valid
 * for the line after it. */
void meta_parse(struct tsv *);
/* The same, its error returned: "FILE:LINE: ..." into why, -1. */
int meta_parse_why(struct tsv *, char *why, size_t whysz);
extern char meta_dash[];
#define meta_is_none(s) ((s) == meta_dash)
/* A copy of a parsed field, NULL for the placeholder. */
char *meta_dup(const char *field);
/* Field i of the current '##' line as a number in [0, max]; anything else is fatal:
 * "prog: FILE:LINE: ##KEY: WHAT: 'abc' is not a number in 0..max". */
uint64_t meta_u64(const struct tsv *, size_t i, const char *what, uint64_t max);
/* The same into *v, its error returned: that line (without "prog: ") into why, -1. */
int meta_get_u64(const struct tsv *, size_t i, const char *what, uint64_t max, uint64_t *v,
    char *why, size_t whysz);
/* A file name that a capture's own index may name: one name in the directory, not a
 * path (no '/', not "", "." or ".."). */
int meta_plain_name(const char *name);

/* Does path (which must exist) lie in directory dir, once both are resolved?  For a
 * reader of '##' lines that opens only files of the capture the user pointed at. */
int meta_path_within(const char *path, const char *dir);
/* A name from a capture as one file name, for files written under a directory the user
 * chose: every byte outside [A-Za-z0-9_+-.], and a leading '.', as %HH.  It round-trips
 * (percent-decoding) and cannot leave the directory. */
char *meta_file_name(const char *name);


#endif
