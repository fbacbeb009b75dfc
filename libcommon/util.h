/* util: allocation that cannot fail quietly: out of memory is "prog: ..." and exit 2. */
#ifndef UTIL_H
#define UTIL_H
#include <stddef.h>
#include <stdio.h>

void *xcalloc(size_t n, size_t size);
void *xreallocarray(void *p, size_t n, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* "prog: MESSAGE" on stderr after what stdout holds, exit 2. */
void die(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
/* Close an output left unfinished and remove it, if it is a regular file (never
 * /dev/null or a pipe). */
void discard_output(FILE *fp, const char *path);

#endif
