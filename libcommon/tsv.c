#include <err.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "out.h"
#include "tsv.h"

void
tsv_open(struct tsv *t, FILE *fp, const char *path)
{
	memset(t, 0, sizeof(*t));
	t->fp = fp;
	t->fd = fileno(fp);
	t->path = path;
	t->cap = 1 << 18;
	if ((t->buf = malloc(t->cap + 1)) == NULL)
		err(2, NULL);
	t->nul = SIZE_MAX;
}

void
tsv_prime(struct tsv *t, const void *bytes, size_t n)
{
	const char *z;

	if (n > t->cap) {
		t->cap = n;
		if ((t->buf = realloc(t->buf, t->cap + 1)) == NULL)
			err(2, NULL);
	}
	memcpy(t->buf, bytes, n);
	t->pos = 0;
	t->blen = n;
	if ((z = memchr(t->buf, '\0', n)) != NULL)
		t->nul = (size_t)(z - t->buf);
}

/* More bytes after the partial line at pos; the block grows only for a longer line. */
static void
refill(struct tsv *t)
{
	size_t keep = t->blen - t->pos;
	ssize_t n;
	char *z;

	memmove(t->buf, t->buf + t->pos, keep);
	if (t->nul != SIZE_MAX)
		t->nul -= t->pos;
	t->pos = 0;
	t->blen = keep;
	if (t->blen == t->cap) {
		t->cap *= 2;
		if ((t->buf = realloc(t->buf, t->cap + 1)) == NULL)
			err(2, NULL);
	}
	do
		n = read(t->fd, t->buf + t->blen, t->cap - t->blen);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		err(2, "%s", t->path);
	if (n == 0) {
		t->eof = 1;
		return;
	}
	/* one look for NUL bytes per block, not one per line */
	if (t->nul == SIZE_MAX && (z = memchr(t->buf + t->blen, '\0', (size_t)n)) != NULL)
		t->nul = (size_t)(z - t->buf);
	t->blen += (size_t)n;
}

void
tsv_open_path(struct tsv *t, const char *path)
{
	FILE *fp;

	if (strcmp(path, "-") == 0) {
		tsv_open(t, stdin, "stdin");
		return;
	}
	if ((fp = fopen(path, "r")) == NULL)
		err(2, "%s", path);
	tsv_open(t, fp, path);
	t->owned = 1;
}

void
tsv_close(struct tsv *t)
{
	if (t->owned && t->fp != NULL)
		fclose(t->fp);
	free(t->buf);
	free(t->field);
	free(t->col);
	free(t->colbuf);
	memset(t, 0, sizeof(*t));
}

void
tsv_fail(const struct tsv *t, const char *fmt, ...)
{
	va_list ap;
	char msg[512];

	char *p;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	/* the message quotes the input: nothing of it may drive the terminal */
	for (p = msg; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
	out_flush();
	fflush(stdout);
	errx(2, "%s:%lu: %s", t->path, t->line, msg);
}

static void
grow_fields(struct tsv *t)
{
	t->maxfield = t->maxfield ? 2 * t->maxfield : 16;
	t->field = reallocarray(t->field, t->maxfield, sizeof(*t->field));
	if (t->field == NULL)
		err(2, NULL);
}

/* Split s[0..n) at tabs in place; a NUL byte in the line is refused.  Fields are a few
 * bytes: eight bytes are looked at a time for tabs (a memchr call per field cost more
 * than the search). */
#define ONES 0x0101010101010101ULL
#define HIGHS 0x8080808080808080ULL
static void
split(struct tsv *t, char *s, size_t n)
{
	char *p = s, *end = s + n;
	uint64_t v, m;

	t->nfield = 0;
	if (t->maxfield == 0)
		grow_fields(t);
	t->field[t->nfield++] = s;
	for (; end - p >= 8; p += 8) {
		memcpy(&v, p, 8);
		v ^= ONES * '\t';
		/* a set high bit where a byte may be a tab (a byte after one may be flagged
		 * too: each is looked at) */
		for (m = (v - ONES) & ~v & HIGHS; m != 0; m &= m - 1) {
			char *tab = p + (__builtin_ctzll(m) >> 3);
			if (*tab != '\t')
				continue;
			*tab = '\0';
			if (t->nfield == t->maxfield)
				grow_fields(t);
			t->field[t->nfield++] = tab + 1;
		}
	}
	for (; p < end; p++) {
		if (*p != '\t')
			continue;
		*p = '\0';
		if (t->nfield == t->maxfield)
			grow_fields(t);
		t->field[t->nfield++] = p + 1;
	}
}

enum tsv_kind
tsv_next(struct tsv *t)
{
	char *line, *nl;
	size_t n, off;

	for (;;) {
		/* a long line through a pipe is searched once, not again after each read */
		nl = memchr(t->buf + t->pos + t->scanned, '\n', t->blen - t->pos - t->scanned);
		if (nl != NULL || t->eof)
			break;
		t->scanned = t->blen - t->pos;
		if (t->scanned > TSV_LINE_MAX) {
			t->line++;
			tsv_fail(t, "a line longer than %d bytes", TSV_LINE_MAX);
		}
		refill(t);
	}
	t->scanned = 0;
	if (nl == NULL && t->pos == t->blen)
		return TSV_EOF;
	off = t->pos;
	line = t->buf + off;
	n = nl ? (size_t)(nl - line) : t->blen - off;
	t->pos = off + n + (nl != NULL);
	line[n] = '\0';	/* the newline, or the spare byte after the block */
	t->line++;
	if (n > TSV_LINE_MAX)
		tsv_fail(t, "a line longer than %d bytes", TSV_LINE_MAX);
	if (t->nul >= off && t->nul < off + n)
		tsv_fail(t, "NUL byte in line: not a text stream");
	if (n > 0 && line[n - 1] == '\r')
		tsv_fail(t, "a CR before the newline (DOS line ends): convert with tr -d '\\r'");
	t->text = line;
	t->len = n;
	if (n >= 2 && line[0] == '#' && line[1] == '#') {
		split(t, line + 2, n - 2);
		return TSV_META;
	}
	if (n >= 1 && line[0] == '#') {
		size_t i;
		if (t->ncol)
			tsv_fail(t, "second column header line");
		free(t->colbuf);
		if ((t->colbuf = strdup(line + 1)) == NULL)
			err(2, NULL);
		split(t, t->colbuf, n - 1);
		t->ncol = t->nfield;
		if ((t->col = calloc(t->ncol, sizeof(*t->col))) == NULL)
			err(2, NULL);
		for (i = 0; i < t->ncol; i++) {
			t->col[i] = t->field[i];
			if (t->col[i][0] == '\0')
				tsv_fail(t, "empty column name");
		}
		return TSV_HEADER;
	}
	if (t->ncol == 0)
		tsv_fail(t, "record before the '#' column header line");
	split(t, line, n);
	if (t->nfield != t->ncol)
		tsv_fail(t, "%zu fields, the header names %zu", t->nfield, t->ncol);
	return TSV_RECORD;
}

int
tsv_col(const struct tsv *t, const char *name)
{
	size_t i;

	for (i = 0; i < t->ncol; i++)
		if (strcmp(t->col[i], name) == 0)
			return (int)i;
	return -1;
}

int
tsv_need(const struct tsv *t, const char *name)
{
	int i = tsv_col(t, name);

	if (i < 0)
		tsv_fail(t, "no column '%s'", name);
	return i;
}

int
tsv_dash(const struct tsv *t, int i)
{
	return strcmp(t->field[i], "-") == 0;
}

/* Numbers by hand: strtoull is most of a reader's time on these streams. */
static int
parse_u64(const char *s, uint64_t *out)
{
	uint64_t v = 0, d;

	if (s[0] == '0' && s[1] == 'x') {
		if (s[2] == '\0')
			return 0;
		for (s += 2; *s; s++) {
			if (*s >= '0' && *s <= '9')
				d = (uint64_t)(*s - '0');
			else if (*s >= 'a' && *s <= 'f')
				d = (uint64_t)(*s - 'a' + 10);
			else if (*s >= 'A' && *s <= 'F')
				d = (uint64_t)(*s - 'A' + 10);
			else
				return 0;
			if (v >> 60)
				return 0;
			v = v << 4 | d;
		}
	} else {
		if (*s == '\0')
			return 0;
		for (; *s; s++) {
			if (*s < '0' || *s > '9')
				return 0;
			d = (uint64_t)(*s - '0');
			if (v > (UINT64_MAX - d) / 10)
				return 0;
			v = v * 10 + d;
		}
	}
	*out = v;
	return 1;
}

uint64_t
tsv_u64(const struct tsv *t, int i)
{
	uint64_t v;

	if (!parse_u64(t->field[i], &v))
		tsv_fail(t, "%s: '%s' is not a number", t->col[i], t->field[i]);
	return v;
}

int64_t
tsv_i64(const struct tsv *t, int i)
{
	const char *s = t->field[i];
	uint64_t v;
	int neg = *s == '-';

	if (!parse_u64(s + neg, &v) || (s[neg] == '0' && s[neg + 1] == 'x') ||
	    v > (uint64_t)INT64_MAX + neg)
		tsv_fail(t, "%s: '%s' is not a number", t->col[i], s);
	return neg ? (int64_t)(0 - v) : (int64_t)v;
}

void
tsv_put_record(const struct tsv *t, FILE *out)
{
	size_t i;

	for (i = 0; i < t->nfield; i++) {
		if (i)
			putc('\t', out);
		fputs(t->field[i], out);
	}
	putc('\n', out);
}

const char *
tsv_line(struct tsv *t)
{
	size_t i;

	for (i = 1; i < t->nfield; i++)
		t->field[i][-1] = '\t';
	t->nfield = t->nfield ? 1 : 0;
	return t->text;
}
