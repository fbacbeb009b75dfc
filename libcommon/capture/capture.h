/* capture: what sqtt-dump reads. A tinygrad profile pickle (plain or .gz), a directory
 * written by sqtt-encode -d (rocprofv3-style file names and a capture.tsv index), or raw
 * stream files.  Fatal errors: "prog: PATH: reason", exit 2. */
#ifndef CAPTURE_H
#define CAPTURE_H
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

#include "capture-model.h"

/* The most of a --raw stream read from a pipe or standard input (held in memory: a file
 * is read as it is decoded). */
#define CAPTURE_PIPE_MAX (256UL << 20)

/* --base ADDR, or ID=ADDR for code object ID of a rocprofv3 run, into o; a malformed one
 * is fatal ("prog: --base ...", exit 2). */
void capture_parse_base(struct capture_opts *o, const char *arg);

/* The options that say how to read a capture, the same in every program that reads one
 * (sqtt-dump, stall): their names for struct cli, and their parser, which takes them into
 * o and returns 1 (0 for any other option). */
#define CAPTURE_OPTIONS "raw se code/c base name event/e kernel/k dispatch"
int capture_option(struct capture_opts *o, int ch, const char *arg);
/* Does o select event e of c?  offset: the events of the captures given before c. */
int capture_selects(const struct capture_opts *o, const struct capture *c,
    const struct event *e, unsigned offset);
/* The error of a selection that matched none of nev buffers, into why: "[PATH: ]no
 * trace buffer matches -e N -k NAME (NEV in all, numbered from 0)".  path may be NULL. */
void capture_selects_none_why(const struct capture_opts *o, const char *path, size_t nev,
    char *why, size_t whysz);

/* The capture at path read: 0, or -1 with why holding the one line of its error
 * ("PATH: problem", what a program says after "prog: " before exit 2); c is then left
 * empty (capture_close of it does nothing).  Every reader's error deep in the parse
 * comes back here (a fatal_catch, util.h): nothing in it exits. */
int capture_open(struct capture *, const char *path, const struct capture_opts *,
    char *why, size_t whysz);
void capture_close(struct capture *);
/* The program an event traced, or NULL. */
const struct program *capture_program(const struct capture *, const struct event *);
/* The context lines of the packet stream (pipeline.md): ##source, ##target, a ##code per
 * program and an ##event per event that selected(c, e, arg) takes (every event when it is
 * NULL), numbered from event_offset. */
void capture_put_meta(FILE *, const struct capture *, unsigned event_offset,
    int (*selected)(const struct capture *, const struct event *, void *), void *arg);


#endif
