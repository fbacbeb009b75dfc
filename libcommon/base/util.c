#include <sys/stat.h>

#include <err.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "out.h"
#include "util.h"

void
xqsort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
	if (n > 1)
		qsort(base, n, size, cmp);
}

void *
xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (p == NULL)
		err(2, NULL);
	return p;
}

#define ARENA_CHUNK (64 * 1024)
struct arena_chunk {
	struct arena_chunk *prev;
	max_align_t data[];
};

void *
arena_alloc(struct arena *a, size_t size, size_t align)
{
	struct arena_chunk *c;
	uintptr_t at = ((uintptr_t)a->next + align - 1) & ~(uintptr_t)(align - 1);
	size_t want, csize;

	if (size > SIZE_MAX / 2)
		return NULL;
	want = (size + align - 1) & ~(align - 1);
	if (a->next != NULL && at <= (uintptr_t)a->end && (uintptr_t)a->end - at >= want) {
		a->next = (char *)at + want;
		return (void *)at;
	}
	/* a block bigger than a quarter chunk gets a chunk of its own, kept behind the
	 * current one, whose room stays */
	csize = want > ARENA_CHUNK / 4 ? want : ARENA_CHUNK;
	if ((c = malloc(sizeof(*c) + csize)) == NULL)
		return NULL;
	if (csize != ARENA_CHUNK && a->chunk != NULL) {
		c->prev = a->chunk->prev;
		a->chunk->prev = c;
		return c->data;
	}
	c->prev = a->chunk;
	a->chunk = c;
	a->next = (char *)c->data + want;
	a->end = (char *)c->data + csize;
	return c->data;
}

void *
arena_zalloc(struct arena *a, size_t size)
{
	void *p = arena_alloc(a, size, 16);

	if (p == NULL)
		err(2, NULL);
	return memset(p, 0, size);
}

void
arena_free(struct arena *a)
{
	struct arena_chunk *c, *prev;

	for (c = a->chunk; c != NULL; c = prev) {
		prev = c->prev;
		free(c);
	}
	memset(a, 0, sizeof(*a));
}

void *
xreallocarray(void *p, size_t n, size_t size)
{
	if ((p = reallocarray(p, n ? n : 1, size ? size : 1)) == NULL)
		err(2, NULL);
	return p;
}

char *
xstrdup(const char *s)
{
	char *d = strdup(s);

	if (d == NULL)
		err(2, NULL);
	return d;
}

char *
xstrndup(const char *s, size_t n)
{
	char *d = strndup(s, n);

	if (d == NULL)
		err(2, NULL);
	return d;
}

void
discard_output(FILE *fp, const char *path)
{
	struct stat st;
	int regular = fstat(fileno(fp), &st) == 0 && S_ISREG(st.st_mode);

	fclose(fp);
	if (regular)
		unlink(path);
}

void
warning_out(const char *fmt, ...)
{
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) < 0)
		err(2, NULL);
	va_end(ap);
	out_flush();
	fflush(stdout);
	warnx("warning: %s", msg);
	free(msg);
}

/* each thread's own (stall's workers read code objects too) */
static _Thread_local struct {
	void (*fn)(void *);
	void *arg;
} fatal_stack[FATAL_MAX];
static _Thread_local int fatal_depth;
static _Thread_local struct fatal_catch *fatal_top;	/* the innermost catch, or NULL */

void
fatal_arm(struct fatal_catch *fc, char *why, size_t whysz)
{
	fc->why = why;
	fc->whysz = whysz;
	fc->depth = fatal_depth;
	fc->outer = fatal_top;
	fatal_top = fc;
}

void
fatal_disarm(struct fatal_catch *fc)
{
	if (fatal_top != fc)
		errx(2, "internal error: a fatal catch disarmed out of order");
	fatal_top = fc->outer;
}

void
fatal_push(void (*fn)(void *), void *arg)
{
	if (fatal_depth == FATAL_MAX)
		die("internal error: more than %d objects half-made", FATAL_MAX);
	fatal_stack[fatal_depth].fn = fn;
	fatal_stack[fatal_depth++].arg = arg;
}

void
fatal_pop(void *arg)
{
	int i = fatal_depth;

	while (i > 0 && fatal_stack[i - 1].arg != arg)
		i--;
	if (i == 0)
		die("internal error: fatal_pop of an object never pushed");
	for (; i < fatal_depth; i++)
		fatal_stack[i - 1] = fatal_stack[i];
	fatal_depth--;
}

void
fatal_free_at(void *pp)
{
	void **p = pp;

	free(*p);
	*p = NULL;
}

/* The message is made before the frees: its arguments may point into what they free. */
static void
die_now(const char *msg) __attribute__((noreturn));

static void
die_now(const char *msg)
{
	struct fatal_catch *fc = fatal_top;

	if (fc != NULL) {	/* returned by the library call that armed it */
		while (fatal_depth > fc->depth) {
			fatal_depth--;
			fatal_stack[fatal_depth].fn(fatal_stack[fatal_depth].arg);
		}
		snprintf(fc->why, fc->whysz, "%s", msg);
		fatal_top = fc->outer;
		longjmp(fc->back, 1);
	}
	while (fatal_depth > 0) {
		fatal_depth--;
		fatal_stack[fatal_depth].fn(fatal_stack[fatal_depth].arg);
	}
	/* err(3)'s line, and exit(3) called from here (not inside libc): a caller that
	 * wraps exit, as the fuzz harnesses and tests/fatal_test.c do, gets it back */
	warnx("%s", msg);
	exit(2);
}

int
fail_why(char *why, size_t whysz, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, whysz, fmt, ap);
	va_end(ap);
	return -1;
}

void
die(const char *fmt, ...)
{
	static _Thread_local char msg[4096];
	va_list ap;

	fflush(stdout);
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	die_now(msg);
}

void
die_errno(const char *what)
{
	static _Thread_local char msg[4096];
	int e = errno;

	fflush(stdout);
	if (what != NULL)
		snprintf(msg, sizeof(msg), "%s: %s", what, strerror(e));
	else
		snprintf(msg, sizeof(msg), "%s", strerror(e));
	die_now(msg);
}

#define H16(x) x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x
const signed char util_hexval[256] = {
	H16(-1), H16(-1), H16(-1),
	0, 1, 2, 3, 4, 5, 6, 7, 8, 9, -1, -1, -1, -1, -1, -1,
	-1, 10, 11, 12, 13, 14, 15, -1, -1, -1, -1, -1, -1, -1, -1, -1, H16(-1),
	-1, 10, 11, 12, 13, 14, 15, -1, -1, -1, -1, -1, -1, -1, -1, -1, H16(-1),
	H16(-1), H16(-1), H16(-1), H16(-1), H16(-1), H16(-1), H16(-1), H16(-1),
};
#undef H16

static size_t
u64_hash(uint64_t key, size_t cap)
{
	return (size_t)((key * 0x9e3779b97f4a7c15ULL) >> 20) & (cap - 1);
}

void **
u64map_slot(struct u64map *m, uint64_t key)
{
	size_t h, i;

	if (2 * (m->n + 1) > m->cap) {
		struct u64map g = { NULL, NULL, m->n, m->cap ? 2 * m->cap : 64 };
		g.key = xcalloc(g.cap, sizeof(*g.key));
		g.val = xcalloc(g.cap, sizeof(*g.val));
		for (i = 0; i < m->cap; i++) {
			if (m->val[i] == NULL)
				continue;
			for (h = u64_hash(m->key[i], g.cap); g.val[h] != NULL; h = (h + 1) & (g.cap - 1))
				;
			g.key[h] = m->key[i];
			g.val[h] = m->val[i];
		}
		u64map_free(m);
		*m = g;
	}
	for (h = u64_hash(key, m->cap); m->val[h] != NULL; h = (h + 1) & (m->cap - 1))
		if (m->key[h] == key)
			return &m->val[h];
	m->key[h] = key;
	m->n++;
	return &m->val[h];
}

void *
u64map_get(const struct u64map *m, uint64_t key)
{
	size_t h;

	if (m->cap == 0)
		return NULL;
	for (h = u64_hash(key, m->cap); m->val[h] != NULL; h = (h + 1) & (m->cap - 1))
		if (m->key[h] == key)
			return m->val[h];
	return NULL;
}

void
u64map_free(struct u64map *m)
{
	free(m->key);
	free(m->val);
	memset(m, 0, sizeof(*m));
}

uint64_t
mem_hash(const void *p, size_t n, uint64_t seed)
{
	const unsigned char *s = p, *end = s + n;
	uint64_t h = seed ^ (n * 0x9e3779b97f4a7c15ULL), w = 0;
	size_t i;

	for (; end - s > 8; s += 8) {
		memcpy(&w, s, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdULL;
		h ^= h >> 32;
	}
	if (n >= 8) {		/* the last eight bytes, overlapping the ones before */
		memcpy(&w, end - 8, 8);
	} else {
		for (w = 0, i = 0; i < n; i++)
			w |= (uint64_t)s[i] << (8 * i);
	}
	h = (h ^ w) * 0xc4ceb9fe1a85ec53ULL;
	h ^= h >> 29;
	h *= 0xff51afd7ed558ccdULL;
	return h ^ (h >> 32);
}

void
name_index_build(struct name_index *x, int n, const char *(*name)(int))
{
	const char *s;
	size_t len;
	unsigned h;
	int i;

	if (n > 256)
		errx(2, "internal error: a name index of %d names", n);
	for (h = 0; h < 512; h++)
		x->bucket[h] = -1;
	for (i = 0; i < n; i++) {
		if ((s = name(i)) == NULL)
			continue;
		if ((len = strlen(s)) > 255)
			errx(2, "internal error: a name of %zu bytes", len);
		for (h = mem_hash(s, len, 0) & 511; x->bucket[h] >= 0; h = (h + 1) & 511)
			;
		x->bucket[h] = (short)i;
		x->len[h] = (unsigned char)len;
		x->name[h] = s;
	}
	x->ready = 1;
}

int
name_index_find(const struct name_index *x, const char *s)
{
	size_t len = strlen(s);
	unsigned h;

	for (h = mem_hash(s, len, 0) & 511; x->bucket[h] >= 0; h = (h + 1) & 511)
		if (x->len[h] == len && memcmp(x->name[h], s, len) == 0)
			return x->bucket[h];
	return -1;
}
