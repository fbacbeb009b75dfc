/* util: allocation that cannot fail quietly: out of memory is "prog: ..." and exit 2.
 *
 * Errors and exits, the convention of the whole library (issue 18):
 * - Only the programs of cmd/ exit.  A library call that can fail returns it (-1 or
 *   NULL) with its error as text, the one line the program then prints after "prog: "
 *   before it exits 2: walk_error, attr_error, pipeline_error, the why buffers of
 *   capture_open, load_profile, profile_read_tsv, profile_read_json, rgp_write,
 *   packet_read, timeline_row, dispatch_kernel and the profile's row hooks,
 *   input_open_why; "FILE:LINE: ..." of a stream's line is tsv_why's.  A worker thread
 *   records its error and ends; pipeline_run returns the first (nothing a worker calls
 *   exits).
 * - Inside a reader (capture/, the base parsers it uses: tsv, meta, input), an error
 *   deep in the parse is die(): under a fatal_catch, which every entry point that reads
 *   a whole input arms (capture_open, profile_read_tsv, rgp_write, capture_dump_*), die
 *   frees what fatal_push registered since the catch, newest first, and returns there
 *   with the message; the entry point returns it.  What a program calls line by line
 *   (tsv_next, tsv_u64, meta_parse) raises to the program's own catch: every main is
 *   CLI_MAIN's (cli.h), which prints the line and exits 2.  Outside any catch (a
 *   harness's call), die prints the line and exits 2 itself.
 * - Fatal everywhere, on purpose: out of memory in the x* allocators (err(3), exit 2:
 *   every caller would otherwise carry a path that no test reaches, and a process out
 *   of memory has nothing better to do), and internal errors (a broken invariant, not
 *   an input's fault).  cli.c's usage and option errors are the programs' own exits. */
#ifndef UTIL_H
#define UTIL_H
#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

void *xcalloc(size_t n, size_t size);
/* qsort of n things, n 0 too: qsort itself takes no NULL array even then. */
void xqsort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *));

/* Blocks of many small objects that all go at once (a profile's lines, a pickle's values):
 * carved from chunks, freed with the arena, none alone.  Zero it to start.  arena_alloc:
 * size bytes at a multiple of align (a power of two, at most 16), not zeroed, NULL when out
 * of memory; arena_zalloc: zeroed, 16-byte aligned, exits when out. */
struct arena {
	struct arena_chunk *chunk;
	char *next, *end;
};
void *arena_alloc(struct arena *, size_t size, size_t align);
void *arena_zalloc(struct arena *, size_t size);
void arena_free(struct arena *);
void *xreallocarray(void *p, size_t n, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* Names looked up by hash, for the fixed tables every row asks (causes, instruction
 * classes, token types, INST ops): an open-addressed index of the n names name(i) gives,
 * NULL for a gap, made by name_index_build (before threads, if any, ask). */
struct name_index {
	short bucket[512];
	unsigned char len[512];
	const char *name[512];
	int ready;
};
void name_index_build(struct name_index *, int n, const char *(*name)(int));
/* The index of s, -1 if it is none of the names. */
int name_index_find(const struct name_index *, const char *s);

/* A hex digit's value, -1 for a byte that is none (one table, for the hot readers too). */
extern const signed char util_hexval[256];
static inline int
hex_digit(unsigned char c)
{
	return util_hexval[c];
}

/* A hash of the n bytes at p, eight at a time (the keys of the per-row lookups are tens
 * of bytes: one multiply per byte was most of a lookup). */
uint64_t mem_hash(const void *p, size_t n, uint64_t seed);

/* Pointers by a 64-bit key (trace buffers by their number), open-addressed. */
struct u64map {
	uint64_t *key;
	void **val;		/* NULL: an empty slot */
	size_t n, cap;
};
/* The slot of key's value.  A new key's slot holds NULL: the caller stores the value
 * there before the next call. */
void **u64map_slot(struct u64map *, uint64_t key);
/* key's value, NULL when the map has none (nothing is added). */
void *u64map_get(const struct u64map *, uint64_t key);
void u64map_free(struct u64map *);	/* the map, not the values */

/* "prog: warning: MESSAGE" on stderr after what stdout holds (out.h's buffer and
 * stdio's): the one way every program warns. */
void warning_out(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A reader's error: returned to the innermost fatal_catch of the thread (fatal_arm);
 * with none, "prog: MESSAGE" on stderr after what stdout holds, exit 2.  Either way it
 * first frees what the readers have registered as half-made (fatal_push), newest
 * first, so that a caller that goes on after it is left holding nothing. */
void die(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
/* An error returned rather than raised: MESSAGE into why (whysz bytes), then -1. */
int fail_why(char *why, size_t whysz, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* "prog: WHAT: strerror(errno)", exit 2, as die (err(3)'s line); what NULL: the reason
 * alone. */
void die_errno(const char *what) __attribute__((noreturn));
/* fn(arg) if a fatal error comes before the matching fatal_pop(arg): what a reader
 * allocates, registered for as long as it is half-made or its own (at most FATAL_MAX at
 * once, an internal error past that), of the thread that calls.  fatal_pop drops the
 * newest of arg's, an internal error if there is none. */
#define FATAL_MAX 32
void fatal_push(void (*fn)(void *), void *arg);
void fatal_pop(void *arg);
/* A catch of die() (the convention above): fatal_arm(&fc, why, whysz), then
 * `if (setjmp(fc.back) != 0)` the error path (why holds the line, the catch is gone,
 * what was pushed since the arm is freed), else the call and fatal_disarm(&fc).
 * Catches nest; each is of the thread that arms it.  Locals changed between the arm and
 * the die must be volatile to be read after it (setjmp(3)). */
struct fatal_catch {
	jmp_buf back;
	char *why;
	size_t whysz;
	int depth;			/* what was pushed before: not freed */
	struct fatal_catch *outer;
};
void fatal_arm(struct fatal_catch *, char *why, size_t whysz);
void fatal_disarm(struct fatal_catch *);
/* For fatal_push(fatal_free_at, &p): free(p), for a pointer that moves (realloc). */
void fatal_free_at(void *pp);
/* Close an output left unfinished and remove it, if it is a regular file (never
 * /dev/null or a pipe). */
void discard_output(FILE *fp, const char *path);

#endif
