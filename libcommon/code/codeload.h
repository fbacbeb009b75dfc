/* codeload: the code object a stream's ##code line names: read from its file, or, when
 * the file is "-", from the capture named by the stream's ##source line, the program
 * found there by its identity (name, tag). */
#ifndef CODELOAD_H
#define CODELOAD_H
#include <stddef.h>
#include <stdint.h>

/* The capture last read from, kept open: a capture of many programs is parsed once, not
 * once per program.  One per reader (not shared between threads). */
struct codeload;

struct codeload *codeload_new(void);
void codeload_free(struct codeload *);
/* The image of program (name, tag) (tag "-" or NULL: the first of that name), malloc'd
 * (free it), or NULL and a one-line reason in why.  When the capture cannot be read at
 * all, codeload_broken gives capture_open's error (why holds as much of it as fits): the
 * reader's error, not the program's (its caller ends the run with that line, as
 * capture_open's callers do). */
uint8_t *codeload_program(struct codeload *, const char *source, const char *name,
    const char *tag, const char *file, size_t *len, char *why, size_t whysz);
/* Why the last codeload_program's capture could not be read, NULL if it could. */
const char *codeload_broken(const struct codeload *);
/* The same by name only (the first program of that name), through a cache of the
 * process's: for a reader that knows no tag. */
uint8_t *codeload(const char *source, const char *name, const char *file, size_t *len,
    char *why, size_t whysz);

#endif
