/* capture-model: what a capture holds (its programs and trace buffers) and how readers of
 * capture formats add to it; capture.h opens and selects, one reader per kind. */
#ifndef CAPTURE_MODEL_H
#define CAPTURE_MODEL_H
#include <stddef.h>
#include <stdint.h>

#include "util.h"

/* The largest code object read (sqtt-dump -x, sqtt-encode -d): far beyond a real one. */
#define CAPTURE_CODE_MAX (64 << 20)

struct program {
	char *name;
	int64_t tag;		/* -1: none (older pickles match events by name) */
	uint64_t base;		/* load address */
	const uint8_t *code;	/* the code object, NULL if it lives in file */
	size_t size;
	char *file;		/* code object file, NULL if in the capture itself */
	int borrowed;		/* code is an earlier program's, read from the same file */
};

struct event {
	unsigned index;		/* trace buffer number in the capture */
	int se;
	int itrace;		/* instruction tokens enabled on this SE */
	int prog;		/* index into capture.prog, -1: no program */
	const uint8_t *blob;	/* the stream in memory, or NULL if in file */
	size_t len;
	char *file;		/* the stream's file */
	int64_t dispatch;	/* the dispatch it traced (rocprofv3's dispatch id), -1: unknown */
};

struct capture {
	char *path;
	char *target;		/* "gfx1100", or "-" */
	struct program *prog;
	size_t nprog;
	struct event *ev;
	size_t nev;
	uint8_t *data;		/* private: the whole file (pickles) */
	uint8_t **owned;	/* private: bytes a protocol 2 pickle held as latin-1 text */
	size_t nowned;
	size_t len;
	struct pickle *pk;
	struct u64map code_of;	/* private: a code object file's first program read, by
				 * the hash of its path */
};

/* --base ID=ADDR: the load address of code object ID of a rocprofv3 run */
struct capture_base {
	long id;
	uint64_t addr;
};

struct capture_opts {
	int raw;		/* paths are raw stream files */
	int se;			/* raw: the SE number */
	const char *code;	/* raw: a code object file */
	uint64_t base;		/* raw: its load address (a run: of its only code object) */
	const char *kernel;	/* raw: the kernel's name */
	struct capture_base *bases;	/* a run: load addresses given by hand */
	size_t nbases;
	/* which trace buffers: -e (numbered across the captures given), -k, --dispatch */
	int event_set, dispatch_set;
	long event;
	long long dispatch;
	const char *select_kernel;
};

/* For the readers of capture formats (capture.c, rocprof.c). */
struct program *capture_add_program(struct capture *);
struct event *capture_add_event(struct capture *);
/* name (relative to the capture directory) as a path, if it is a regular file inside the
 * directory; else fatal. */
char *capture_dir_file(const struct capture *, const char *name);
/* What a capture holds, read: */
/* A program's code object bytes (read from its file if need be; cached). */
const uint8_t *capture_code(struct capture *, size_t prog, size_t *len);
/* "event lines": the first 8 bytes of an event's stream (HEADER), 0 if unavailable. */
int capture_peek(const struct capture *, const struct event *, uint8_t head[8], size_t *got);
/* A decoder over an event's stream, in memory or read from its file (through zlib);
 * capture_decoder_end frees what it took. */
struct sqtt_decoder;
struct prefetch;
struct capture_stream {
	struct input *in;	/* NULL: the stream is in memory */
	struct prefetch *pf;	/* NULL: read by the decoder's thread */
};
void capture_decoder(const struct event *, struct sqtt_decoder *, struct capture_stream *);
/* The same, its errors returned (a worker's way: nothing there ends the process): -1
 * with why ("FILE: reason") when the file cannot be opened; a read's error ends the
 * tokens, and capture_stream_error says it (NULL: none).  Ask it after every
 * sqtt_next: a token after a failed read is not the stream's. */
int capture_decoder_why(const struct event *, struct sqtt_decoder *, struct capture_stream *,
    char *why, size_t whysz);
/* The same, a file's stream read ahead by a thread of its own into blocks the decoder
 * decodes where they are (a core to spare: the read's copy off the decoder's thread);
 * read by the decoder's thread where that thread cannot start. */
int capture_decoder_ahead(const struct event *, struct sqtt_decoder *, struct capture_stream *,
    char *why, size_t whysz);
const char *capture_stream_error(const struct capture_stream *);
void capture_decoder_end(struct sqtt_decoder *, struct capture_stream *);
/* A gfx9 (CDNA) stream (trace/gfx9: no HEADER, read from memory) of an event: its
 * bytes in memory, a file's read whole (at most CAPTURE_GFX9_MAX bytes, more is fatal);
 * *own is what the caller frees (NULL when nothing).  NULL when the stream is not
 * gfx9's. */
#define CAPTURE_GFX9_MAX (256UL << 20)
const uint8_t *capture_gfx9_stream(const struct event *, size_t *len, uint8_t **own);
/* The same, its errors returned: 1 with *bytes set for a gfx9 stream, 0 for another,
 * -1 with why ("FILE: reason") when the file cannot be read. */
int capture_gfx9_read(const struct event *, const uint8_t **bytes, size_t *len,
    uint8_t **own, char *why, size_t whysz);
/* The program address an event's dispatch wrote (COMPUTE_PGM_LO/HI) as its first wave
 * started: the writes before it may be another dispatch's or 0.  0 if none. */
uint64_t capture_entry(const struct event *);

/* file in dir (file itself when absolute), allocated. */
char *capture_join(const char *dir, const char *file);

#endif
