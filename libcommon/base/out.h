/* out: fast buffered text output for the streams' hot paths (numbers formatted by hand,
 * one write per 128 KiB).  out_stdout goes to stdout (out_flush before any stdio use);
 * an out_block to any stream. */
#ifndef OUT_H
#define OUT_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define OUT_BUFSZ (1 << 17)
#define OUT_LINEMAX 4096	/* room a caller may fill through out_reserve */

struct out {
	char buf[OUT_BUFSZ + OUT_LINEMAX];
	size_t len;
};
extern struct out out_stdout;
extern const char out_digits2[201];

void out_flush(void);	/* write what is buffered; a write error is fatal (exit 2) */

/* A pointer to at least OUT_LINEMAX free bytes; out_commit(p) after writing up to p. */
static inline char *
out_reserve(void)
{
	if (out_stdout.len > OUT_BUFSZ)
		out_flush();
	return out_stdout.buf + out_stdout.len;
}

static inline void
out_commit(char *end)
{
	out_stdout.len = (size_t)(end - out_stdout.buf);
}

static inline unsigned
out_ndigits(uint64_t v)
{
	unsigned n = 1;

	while (v >= 10000) {
		v /= 10000;
		n += 4;
	}
	return n + (v >= 10) + (v >= 100) + (v >= 1000);
}

/* Text gathered in a buffer of the caller's, cap bytes, and written one fwrite a block: one
 * fprintf or fwrite a field, each with its lock, was most of the time of a picture.  A
 * write error shows in ferror(fp), for the caller's fflush and fclose. */
struct out_block {
	FILE *fp;
	char *buf;
	size_t n, cap;
};

void out_block_flush(struct out_block *);	/* write what is gathered */
void out_block_put(struct out_block *, const char *s, size_t n);	/* any n */

/* Room for need bytes (at most cap) at the end of the text, what is gathered written
 * first when there is not; out_block_end(o, p) after writing up to p. */
static inline char *
out_block_room(struct out_block *o, size_t need)
{
	if (o->n + need > o->cap)
		out_block_flush(o);
	return o->buf + o->n;
}

static inline void
out_block_end(struct out_block *o, char *end)
{
	o->n = (size_t)(end - o->buf);
}

/* Digits written from the end backwards, with no copy. */
static inline char *
fmt_u64(char *p, uint64_t v)
{
	unsigned n = out_ndigits(v);
	char *e = p + n;

	while (v >= 100) {
		e -= 2;
		memcpy(e, out_digits2 + 2 * (v % 100), 2);
		v /= 100;
	}
	if (v >= 10)
		memcpy(e - 2, out_digits2 + 2 * v, 2);
	else
		e[-1] = (char)('0' + v);
	return p + n;
}

static inline char *
fmt_i64(char *p, int64_t v)
{
	if (v >= 0)
		return fmt_u64(p, (uint64_t)v);
	*p++ = '-';
	return fmt_u64(p, 0 - (uint64_t)v);
}

/* "0x" and lowercase hex digits. */
static inline char *
fmt_hex(char *p, uint64_t v)
{
	static const char hex[] = "0123456789abcdef";
	char tmp[20];
	int n = 0;

	do
		tmp[n++] = hex[v & 15];
	while ((v >>= 4) != 0);
	*p++ = '0';
	*p++ = 'x';
	while (n)
		*p++ = tmp[--n];
	return p;
}

/* A number, or "-" when negative. */
static inline char *
fmt_int_or_dash(char *p, long v)
{
	if (v < 0) {
		*p++ = '-';
		return p;
	}
	return fmt_u64(p, (uint64_t)v);
}

/* n bytes from s, in two overlapping moves of a fixed size where n is small: a memcpy of
 * a length known only at run time was compiled to rep movs, slow to start, and the
 * streams' fields are a few bytes each. */
static inline char *
out_copy(char *p, const char *s, size_t n)
{
	if (n > 32)
		memcpy(p, s, n);
	else if (n >= 16) {
		memcpy(p, s, 16);
		memcpy(p + n - 16, s + n - 16, 16);
	} else if (n >= 8) {
		memcpy(p, s, 8);
		memcpy(p + n - 8, s + n - 8, 8);
	} else if (n >= 4) {
		memcpy(p, s, 4);
		memcpy(p + n - 4, s + n - 4, 4);
	} else if (n > 0) {
		p[0] = s[0];
		p[n / 2] = s[n / 2];
		p[n - 1] = s[n - 1];
	}
	return p + n;
}

/* A string of at most OUT_LINEMAX/4 bytes (longer ones are cut). */
static inline char *
fmt_str(char *p, const char *s)
{
	size_t n = strlen(s);

	return out_copy(p, s, n > OUT_LINEMAX / 4 ? OUT_LINEMAX / 4 : n);
}

#endif
