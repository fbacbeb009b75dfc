#include <err.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "out.h"
#include "tsv.h"

void
tsv_open(struct tsv *t, FILE *fp, const char *path)
{
	memset(t, 0, sizeof(*t));
	t->fp = fp;
	t->path = path;
}

void
tsv_close(struct tsv *t)
{
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

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	out_flush();
	fflush(stdout);
	errx(2, "%s:%lu: %s", t->path, t->line, msg);
}

static void
split(struct tsv *t, char *s)
{
	t->nfield = 0;
	for (;;) {
		if (t->nfield == t->maxfield) {
			t->maxfield = t->maxfield ? 2 * t->maxfield : 16;
			t->field = reallocarray(t->field, t->maxfield, sizeof(*t->field));
			if (t->field == NULL)
				err(2, NULL);
		}
		t->field[t->nfield++] = s;
		s = strchr(s, '\t');
		if (s == NULL)
			break;
		*s++ = '\0';
	}
}

enum tsv_kind
tsv_next(struct tsv *t)
{
	ssize_t n;

	n = getline(&t->buf, &t->cap, t->fp);
	if (n < 0) {
		if (ferror(t->fp))
			err(2, "%s", t->path);
		return TSV_EOF;
	}
	t->line++;
	if (n > 0 && t->buf[n - 1] == '\n')
		t->buf[--n] = '\0';
	if (memchr(t->buf, '\0', n) != NULL)
		tsv_fail(t, "NUL byte in line: not a text stream");
	t->text = t->buf;
	t->len = n;
	if (n >= 2 && t->buf[0] == '#' && t->buf[1] == '#') {
		split(t, t->buf + 2);
		return TSV_META;
	}
	if (n >= 1 && t->buf[0] == '#') {
		size_t i;
		if (t->ncol)
			tsv_fail(t, "second column header line");
		free(t->colbuf);
		if ((t->colbuf = strdup(t->buf + 1)) == NULL)
			err(2, NULL);
		split(t, t->colbuf);
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
	split(t, t->buf);
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

uint64_t
tsv_u64(const struct tsv *t, int i)
{
	const char *s = t->field[i];
	char *end;
	uint64_t v;

	if (*s < '0' || *s > '9')
		tsv_fail(t, "%s: '%s' is not a number", t->col[i], s);
	errno = 0;
	v = strtoull(s, &end, (s[0] == '0' && s[1] == 'x') ? 16 : 10);
	if (errno || *end != '\0' || end == s)
		tsv_fail(t, "%s: '%s' is not a number", t->col[i], s);
	return v;
}

int64_t
tsv_i64(const struct tsv *t, int i)
{
	const char *s = t->field[i];
	char *end;
	int64_t v;

	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno || *end != '\0' || end == s)
		tsv_fail(t, "%s: '%s' is not a number", t->col[i], s);
	return v;
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
