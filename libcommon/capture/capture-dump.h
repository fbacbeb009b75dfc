/* capture-dump: a capture's trace buffers decoded into the packet stream (sqtt-dump(1)):
 * the context lines, the column header, then each selected buffer's tokens (packet.h) or
 * their counts per type; -x the code objects and -X the raw streams written beside.
 * Errors come back as -1 with the message in err ("PATH: reason"); nothing here exits. */
#ifndef CAPTURE_DUMP_H
#define CAPTURE_DUMP_H
#include <stddef.h>
#include <stdint.h>

#include "capture.h"
#include "packet.h"

struct capture_dump {
	struct packet_filter f;		/* what of the tokens is written */
	const char *xdir, *sdir;	/* -x code objects, -X streams (made by capture_dump_start) */
	/* what was written */
	uint64_t unknown, lost;		/* UNKNOWN tokens, lost-packet reports */
	const char *unknown_gen;	/* the generation of a buffer with UNKNOWNs */
	unsigned nselected, nnoprog;	/* buffers dumped; of them, with no program */
	struct packet_out po;
	int header_done;
	char **written;			/* -x: the escaped names written so far */
	size_t nwritten;
	char err[4096];
};

/* --types T,...: into d; -1 on a name no generation has. */
int capture_dump_types(struct capture_dump *d, char *list);
/* The -x and -X directories made. */
int capture_dump_start(struct capture_dump *d);
/* A capture's context lines (its selected events numbered from offset), -x its code
 * objects, and the column header once. */
int capture_dump_meta(struct capture_dump *d, struct capture *c, const struct capture_opts *o,
    unsigned offset);
/* Buffer e of capture c (read from path), as event number ev. */
int capture_dump_event(struct capture_dump *d, const struct capture *c,
    const struct event *e, const char *path, unsigned ev);
void capture_dump_free(struct capture_dump *d);

#endif
