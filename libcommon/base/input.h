/* input: files read through zlib, so that gzip-compressed input is transparent.
 * An input opened by input_open_why returns its errors ("PATH: reason": input_error,
 * the why of input_slurp_why); one opened by input_open, for a program's own reads, dies
 * of them: "prog: PATH: reason", exit 2 (util.h).  Past 32 MiB a gzip file may not
 * decompress to more than 64 times what it has consumed (no gzip bombs). */
#ifndef INPUT_H
#define INPUT_H
#include <stddef.h>
#include <stdint.h>

struct input;

/* The longest error kept; longer ones are cut. */
#define INPUT_WHY_MAX 4096

/* PATH "-" is standard input.  NULL with why ("PATH: reason") when it cannot be opened. */
struct input *input_open_why(const char *path, char *why, size_t whysz);
/* The same, its errors fatal. */
struct input *input_open(const char *path);
/* Up to max bytes; 0 at the end, or at an error (input_error says it). */
size_t input_read(struct input *, void *dst, size_t max);
/* The error that ended the reads ("PATH: reason"), NULL while there is none. */
const char *input_error(const struct input *);
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
/* The same, the errors returned: NULL with why (the input closed either way). */
uint8_t *input_slurp_why(struct input *, const uint8_t *head, size_t nhead, size_t max,
    const char *what, size_t *len, char *why, size_t whysz);

#endif
