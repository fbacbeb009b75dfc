/* codeload: the code object a stream's ##code line names: read from its file, or, when
 * the file is "-", from the capture named by the stream's ##source line. */
#ifndef CODELOAD_H
#define CODELOAD_H
#include <stddef.h>
#include <stdint.h>

/* The image, malloc'd (free it), or NULL and a one-line reason in why.  Fatal (exit 2)
 * when the capture cannot be read at all (capture_open's rule). */
uint8_t *codeload(const char *source, const char *name, const char *file, size_t *len,
    char *why, size_t whysz);

#endif
