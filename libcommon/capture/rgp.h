/* rgp: Radeon GPU Profiler files (.rgp), read into a capture and written from one.
 * sqtt-dump(1), RGP FILES, says what of the format is relied on and where it comes from.
 * Errors: "prog: PATH: reason", exit 2. */
#ifndef RGP_H
#define RGP_H
#include <stddef.h>
#include <stdint.h>

struct capture;

/* The file's first four bytes, "B00P" (the magic 0x50303042, little-endian). */
#define RGP_MAGIC 0x50303042u

/* c->data holds the whole file (c->len bytes): its shader engines' streams become
 * events (one per dispatch: an SQTT_DATA chunk may hold several streams back to back),
 * its code objects at their load addresses programs. */
void rgp_open(struct capture *c);

/* Write the events of capture c that selected(c, e, arg) takes (all, selected NULL) as an
 * RGP file at path:
 * their streams (a shader engine's one after another in one SQTT_DATA chunk), the code
 * objects of their programs, the load addresses and kernel names.  Returns the number
 * of streams written, or 0 and the error's line in why (none to write is one too); the
 * file is then removed (if it is a regular one). */
struct event;
size_t rgp_write(struct capture *c, const char *path,
    int (*selected)(const struct capture *, const struct event *, void *), void *arg,
    char *why, size_t whysz);

#endif
