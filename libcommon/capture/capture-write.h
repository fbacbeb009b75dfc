/* capture-write: a capture directory written from a packet stream (sqtt-encode -d), as
 * rocprofv3 --att writes a run (rocprof.h: its file names and results) with the index
 * capture.tsv that capture_open reads first.  The stream's context lines (##source,
 * ##target, ##code, ##event: capture_put_meta writes them) say what the directory holds
 * beside the buffers: the code objects, the kernels and the dispatches.  Errors come back
 * as -1 with the message in err ("PATH: reason", "PATH:LINE: reason" for a malformed
 * context line); nothing here exits. */
#ifndef CAPTURE_WRITE_H
#define CAPTURE_WRITE_H
#include <stdint.h>
#include <stdio.h>

#include "rocprof.h"

struct tsv;
struct capture_writer;

/* A writer into dir (NULL: the context lines are only read, for the target and their
 * errors).  index: write capture.tsv (else one left there is removed); l: rocpd and
 * kernel_trace as the user chose. */
struct capture_writer *capture_writer_new(const char *dir, int index,
    const struct rocprof_layout *l, char *err, size_t errsize);
void capture_writer_free(struct capture_writer *);
/* A '##' line of the stream, already meta_parse'd; a malformed one is -1 with
 * "PATH:LINE: ..." in err. */
int capture_writer_meta(struct capture_writer *, const struct tsv *);
/* The stream's ##target, NULL if it named none. */
const char *capture_writer_target(const struct capture_writer *);
/* The '#' header was read: the index's first lines. */
int capture_writer_header(struct capture_writer *);
/* The code objects (once, before the first buffer and at the end). */
int capture_writer_codes(struct capture_writer *);
/* The file of event's buffer of shader engine se opened for writing (*path is the
 * writer's until the buffer is closed). */
FILE *capture_writer_open(struct capture_writer *, long event, int se, const char **path);
/* The buffer's file closed and its ##event line written. */
int capture_writer_close(struct capture_writer *, long event, int se, FILE *);
/* The code objects if not yet, the results, the index closed. */
int capture_writer_finish(struct capture_writer *);

#endif
