#include <err.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "meta.h"
#include "out.h"
#include "tsv.h"
#include "util.h"

static int
needs_escape(unsigned char c)
{
	return c < 0x20 || c == 0x7f || c == '\\';
}

void
meta_begin(FILE *fp, const char *key)
{
	fputs("##", fp);
	fputs(key, fp);
}

static void
put_escaped(FILE *fp, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	for (; *p; p++) {
		if (!needs_escape(*p))
			putc(*p, fp);
		else if (*p == '\\')
			fputs("\\\\", fp);
		else if (*p == '\t')
			fputs("\\t", fp);
		else if (*p == '\n')
			fputs("\\n", fp);
		else
			fprintf(fp, "\\x%02x", *p);
	}
}

char meta_dash[] = "-";

static void
put_value(FILE *fp, const char *value)
{
	if (strcmp(value, "-") == 0)
		fputs("\\x2d", fp);	/* a name "-" is not the placeholder */
	else
		put_escaped(fp, value);
}

void
meta_str(FILE *fp, const char *value)
{
	putc('\t', fp);
	put_value(fp, value);
}

void
meta_none(FILE *fp)
{
	fputs("\t-", fp);
}

void
meta_str_or_none(FILE *fp, const char *value)
{
	if (value == NULL)
		meta_none(fp);
	else
		meta_str(fp, value);
}

char *
meta_dup(const char *field)
{
	return meta_is_none(field) ? NULL : xstrdup(field);
}

void
meta_end(FILE *fp)
{
	if (putc('\n', fp) == EOF)
		die_errno("writing a ## line");
}

char *
meta_escape(const char *s)
{
	char *d = NULL;
	size_t n = 0;
	FILE *fp = open_memstream(&d, &n);

	if (fp == NULL)
		die_errno(NULL);
	put_value(fp, s);
	if (fclose(fp) != 0)
		die_errno(NULL);
	return d;
}

int
meta_unescape(char *s)
{
	char *d = s;
	int hi, lo;

	for (; *s; s++) {
		if (*s != '\\') {
			*d++ = *s;
			continue;
		}
		switch (*++s) {
		case '\\':
			*d++ = '\\';
			break;
		case 't':
			*d++ = '\t';
			break;
		case 'n':
			*d++ = '\n';
			break;
		case 'x':
			if ((hi = hex_digit((unsigned char)s[1])) < 0 ||
			    (lo = hex_digit((unsigned char)s[2])) < 0 || (hi | lo) == 0)
				return -1;
			*d++ = (char)(hi << 4 | lo);
			s += 2;
			break;
		default:
			return -1;
		}
	}
	*d = '\0';
	return 0;
}

int
meta_parse_why(struct tsv *t, char *why, size_t whysz)
{
	size_t i;

	for (i = 0; i < t->nfield; i++)
		if (i > 0 && strcmp(t->field[i], "-") == 0)
			t->field[i] = meta_dash;
		else if (meta_unescape(t->field[i]) < 0)
			return tsv_why(t, why, whysz, "##%s: a malformed escape in field %zu (\\\\, "
			    "\\t, \\n and \\xHH are the escapes)", t->field[0], i);
	return 0;
}

void
meta_parse(struct tsv *t)
{
	char why[4096];

	if (meta_parse_why(t, why, sizeof(why)) != 0) {
		out_flush();
		fflush(stdout);
		die("%s", why);
	}
}

int
meta_get_u64(const struct tsv *t, size_t i, const char *what, uint64_t max, uint64_t *vp,
    char *why, size_t whysz)
{
	const char *s = t->field[i], *p;
	uint64_t v = 0, d;
	int hex = s[0] == '0' && s[1] == 'x';

	p = hex ? s + 2 : s;
	if (*p == '\0')
		goto bad;
	for (; *p; p++) {
		if (hex) {
			int h = hex_digit((unsigned char)*p);
			if (h < 0 || v >> 60)
				goto bad;
			v = v << 4 | (uint64_t)h;
		} else {
			if (*p < '0' || *p > '9')
				goto bad;
			d = (uint64_t)(*p - '0');
			if (v > (UINT64_MAX - d) / 10)
				goto bad;
			v = v * 10 + d;
		}
	}
	if (v <= max) {
		*vp = v;
		return 0;
	}
bad:
	return tsv_why(t, why, whysz, "##%s: %s: '%s' is not a number in 0..%" PRIu64,
	    t->field[0], what, s, max);
}

uint64_t
meta_u64(const struct tsv *t, size_t i, const char *what, uint64_t max)
{
	char why[4096];
	uint64_t v = 0;

	if (meta_get_u64(t, i, what, max, &v, why, sizeof(why)) != 0) {
		out_flush();
		fflush(stdout);
		die("%s", why);
	}
	return v;
}

int
meta_plain_name(const char *name)
{
	return name[0] != '\0' && strchr(name, '/') == NULL && strcmp(name, ".") != 0 &&
	    strcmp(name, "..") != 0;
}

char *
meta_file_name(const char *name)
{
	const unsigned char *p = (const unsigned char *)name;
	char *d = xcalloc(3 * strlen(name) + 1, 1), *q = d;

	for (; *p; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || *p == '_' || *p == '+' || *p == '-' ||
		    (*p == '.' && p != (const unsigned char *)name))
			*q++ = (char)*p;
		else
			q += snprintf(q, 4, "%%%02X", *p);
	}
	*q = '\0';
	return d;
}

int
meta_path_within(const char *path, const char *dir)
{
	char *p = realpath(path, NULL), *d = realpath(dir, NULL);
	size_t n;
	int in;

	in = p != NULL && d != NULL && (n = strlen(d), strncmp(p, d, n) == 0) &&
	    (p[n] == '/' || (n == 1 && d[0] == '/'));
	free(p);
	free(d);
	return in;
}

