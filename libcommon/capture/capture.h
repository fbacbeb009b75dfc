/* capture: what sqtt-dump reads. A tinygrad profile pickle (plain or .gz), a directory
 * written by sqtt-encode -d (rocprofv3-style file names and a capture.tsv index), or raw
 * stream files.  Fatal errors: "prog: PATH: reason", exit 2. */
#ifndef CAPTURE_H
#define CAPTURE_H
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

#include "capture-model.h"

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
/* The error of a selection that matched none of nev buffers: "[PATH: ]no trace buffer
 * matches -e N -k NAME (NEV in all, numbered from 0)", exit 2.  path may be NULL. */
void capture_selects_none(const struct capture_opts *o, const char *path, size_t nev)
    __attribute__((noreturn));

void capture_open(struct capture *, const char *path, const struct capture_opts *);
void capture_close(struct capture *);
/* The program an event traced, or NULL. */
const struct program *capture_program(const struct capture *, const struct event *);
/* A program's code object bytes (read from its file if need be; cached). */
const uint8_t *capture_code(struct capture *, size_t prog, size_t *len);
/* "event lines": the first 8 bytes of an event's stream (HEADER), 0 if unavailable. */
int capture_peek(const struct capture *, const struct event *, uint8_t head[8], size_t *got);
/* A decoder over an event's stream, in memory or read from its file (through zlib);
 * capture_decoder_end frees what it took. */
struct sqtt_decoder;
struct capture_stream {
	struct input *in;	/* NULL: the stream is in memory */
};
void capture_decoder(const struct event *, struct sqtt_decoder *, struct capture_stream *);
void capture_decoder_end(struct sqtt_decoder *, struct capture_stream *);

/* The context lines of the packet stream (pipeline.md): ##source, ##target, a ##code per
 * program and an ##event per event that selected(c, e, arg) takes (every event when it is
 * NULL), numbered from event_offset. */
void capture_put_meta(FILE *, const struct capture *, unsigned event_offset,
    int (*selected)(const struct capture *, const struct event *, void *), void *arg);


#endif
