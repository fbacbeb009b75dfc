/* input: files read through zlib, so that gzip-compressed input is transparent.
 * Errors are fatal: "prog: PATH: reason", exit 2.  Past 32 MiB a gzip file may not
 * decompress to more than 64 times what it has consumed (no gzip bombs). */
#ifndef INPUT_H
#define INPUT_H
#include <stddef.h>
#include <stdint.h>

struct input;

/* PATH "-" is standard input. */
struct input *input_open(const char *path);
/* Up to max bytes; 0 at the end. */
size_t input_read(struct input *, void *dst, size_t max);
void input_close(struct input *);
/* The same, of a void * (for fatal_push, util.h). */
void input_close_v(void *);
/* The whole (decompressed) file in one malloc'd buffer, with 16 zero bytes after len. */
uint8_t *input_slurp(const char *path, size_t *len);
/* The same for an input already open (and closed here), after the nhead bytes already
 * read from it; more than max bytes in all is fatal: "prog: PATH: more than MAX bytes
 * (what)". */
uint8_t *input_slurp_rest(struct input *, const uint8_t *head, size_t nhead, size_t max,
    const char *what, size_t *len);

#endif
