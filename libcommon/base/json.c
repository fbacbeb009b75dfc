#include <err.h>
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "util.h"

/* Length of the valid UTF-8 sequence at s (2..4), 0 if there is none. */
static size_t
utf8_len(const unsigned char *s)
{
	unsigned c = s[0];

	if (c >= 0xc2 && c <= 0xdf)
		return (s[1] & 0xc0) == 0x80 ? 2 : 0;
	if (c >= 0xe0 && c <= 0xef) {
		/* no overlongs (e0 a0..), no surrogates (ed 80..9f) */
		unsigned lo = c == 0xe0 ? 0xa0 : 0x80, hi = c == 0xed ? 0x9f : 0xbf;
		if (s[1] < lo || s[1] > hi || (s[2] & 0xc0) != 0x80)
			return 0;
		return 3;
	}
	if (c >= 0xf0 && c <= 0xf4) {
		unsigned lo = c == 0xf0 ? 0x90 : 0x80, hi = c == 0xf4 ? 0x8f : 0xbf;
		if (s[1] < lo || s[1] > hi || (s[2] & 0xc0) != 0x80 || (s[3] & 0xc0) != 0x80)
			return 0;
		return 4;
	}
	return 0;
}

size_t
utf8_seq(const unsigned char *s)
{
	return s[0] < 0x80 ? 1 : utf8_len(s);
}

char *
text_printable(const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	char *d = xcalloc(strlen(str) + 1, 1), *p = d;
	size_t n;

	while (*s) {
		/* C1 controls (U+0080..U+009F) too: some terminals take U+009B as CSI */
		if (*s < 0x20 || *s == 0x7f || (n = utf8_seq(s)) == 0 ||
		    (s[0] == 0xc2 && s[1] < 0xa0)) {
			*p++ = '?';
			s++;
		} else {
			memcpy(p, s, n);
			p += n;
			s += n;
		}
	}
	*p = '\0';
	return d;
}

void
json_put_string(FILE *fp, const char *str)
{
	const unsigned char *s = (const unsigned char *)str, *run = s;
	size_t n;

	putc('"', fp);
	for (;;) {
		unsigned c = *s;

		if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\' && c != '<' && c != '>' &&
		    c != '&') {
			s++;
			continue;
		}
		if (c >= 0x80 && (n = utf8_len(s)) != 0 &&
		    !(n == 3 && s[0] == 0xe2 && s[1] == 0x80 && (s[2] == 0xa8 || s[2] == 0xa9))) {
			s += n;
			continue;
		}
		fwrite(run, 1, (size_t)(s - run), fp);
		if (c == 0)
			break;
		if (c == '"' || c == '\\')
			fprintf(fp, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", fp);
		else if (c == '\t')
			fputs("\\t", fp);
		else if (c < 0x80)
			fprintf(fp, "\\u%04x", c);
		else if (c == 0xe2 && utf8_len(s) == 3) {
			fprintf(fp, "\\u%04x", 0x2000u | ((s[1] & 0x3fu) << 6) | (s[2] & 0x3fu));
			s += 2;
		} else
			fputs("\\ufffd", fp);
		run = ++s;
	}
	putc('"', fp);
}

/* Reading ------------------------------------------------------------------------------ */

#define JSON_DEPTH 64
#define JSON_VALUES (1 << 21)	/* ~180 MiB of nodes: a table of 100000 instructions */

struct parser {
	const char *p, *end;
	unsigned long line;
	char *err;
	size_t errlen;
	int failed;
	size_t nvalue;
};

static void
fail(struct parser *ps, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (ps->failed)
		return;
	ps->failed = 1;
	n = snprintf(ps->err, ps->errlen, "line %lu: ", ps->line);
	va_start(ap, fmt);
	if (n >= 0 && (size_t)n < ps->errlen)
		vsnprintf(ps->err + n, ps->errlen - (size_t)n, fmt, ap);
	va_end(ap);
}

static void
skip_space(struct parser *ps)
{
	for (; ps->p < ps->end; ps->p++) {
		if (*ps->p == '\n')
			ps->line++;
		else if (*ps->p != ' ' && *ps->p != '\t' && *ps->p != '\r')
			break;
	}
}

static int
hex4(struct parser *ps, unsigned *v)
{
	int i;

	*v = 0;
	if (ps->end - ps->p < 4)
		return 0;
	for (i = 0; i < 4; i++) {
		int d = hex_digit((unsigned char)*ps->p++);
		if (d < 0)
			return 0;
		*v = *v << 4 | (unsigned)d;
	}
	return 1;
}

/* A string after its opening quote; the text is at most as long as the source. */
static char *
string(struct parser *ps)
{
	const char *q;
	char *s, *d;
	unsigned u, lo;

	for (q = ps->p; q < ps->end && *q != '"'; q++)
		if (*q == '\\' && q + 1 < ps->end)
			q++;
	s = d = xcalloc(1, (size_t)(q - ps->p) + 1);
	for (;;) {
		if (ps->p >= ps->end) {
			fail(ps, "a string is not closed");
			break;
		}
		unsigned char c = (unsigned char)*ps->p++;
		if (c == '"')
			return s;
		if (c < 0x20) {
			fail(ps, "a control character in a string");
			break;
		}
		if (c != '\\') {
			*d++ = (char)c;
			continue;
		}
		if (ps->p >= ps->end) {
			fail(ps, "a string is not closed");
			break;
		}
		c = (unsigned char)*ps->p++;
		switch (c) {
		case '"': case '\\': case '/':
			*d++ = (char)c;
			continue;
		case 'b': *d++ = '\b'; continue;
		case 'f': *d++ = '\f'; continue;
		case 'n': *d++ = '\n'; continue;
		case 'r': *d++ = '\r'; continue;
		case 't': *d++ = '\t'; continue;
		case 'u':
			break;
		default:
			fail(ps, "unknown escape '\\%c' in a string", c);
			free(s);
			return NULL;
		}
		if (!hex4(ps, &u)) {
			fail(ps, "a \\u escape without four hex digits");
			break;
		}
		if (u >= 0xd800 && u < 0xdc00) {
			if (ps->end - ps->p < 2 || ps->p[0] != '\\' || ps->p[1] != 'u' ||
			    (ps->p += 2, !hex4(ps, &lo)) || lo < 0xdc00 || lo >= 0xe000) {
				fail(ps, "a lone surrogate in a \\u escape");
				break;
			}
			u = 0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00);
		} else if (u >= 0xdc00 && u < 0xe000) {
			fail(ps, "a lone surrogate in a \\u escape");
			break;
		}
		if (u == 0) {
			fail(ps, "\\u0000 in a string");
			break;
		}
		/* at most 4 bytes for the 6 or 12 of the escape */
		if (u < 0x80)
			*d++ = (char)u;
		else if (u < 0x800) {
			*d++ = (char)(0xc0 | u >> 6);
			*d++ = (char)(0x80 | (u & 0x3f));
		} else if (u < 0x10000) {
			*d++ = (char)(0xe0 | u >> 12);
			*d++ = (char)(0x80 | ((u >> 6) & 0x3f));
			*d++ = (char)(0x80 | (u & 0x3f));
		} else {
			*d++ = (char)(0xf0 | u >> 18);
			*d++ = (char)(0x80 | ((u >> 12) & 0x3f));
			*d++ = (char)(0x80 | ((u >> 6) & 0x3f));
			*d++ = (char)(0x80 | (u & 0x3f));
		}
	}
	free(s);
	return NULL;
}

static void
number(struct parser *ps, struct json *v)
{
	const char *s = ps->p;
	char buf[64], *end;
	size_t n;
	int frac = 0;

	if (ps->p < ps->end && *ps->p == '-')
		ps->p++;
	if (ps->p >= ps->end || *ps->p < '0' || *ps->p > '9') {
		fail(ps, "not a value");
		return;
	}
	if (*ps->p == '0' && ps->p + 1 < ps->end && ps->p[1] >= '0' && ps->p[1] <= '9') {
		fail(ps, "a number with a leading zero");
		return;
	}
	while (ps->p < ps->end && strchr("0123456789.eE+-", *ps->p) != NULL) {
		if (strchr(".eE", *ps->p) != NULL)
			frac = 1;
		ps->p++;
	}
	n = (size_t)(ps->p - s);
	if (n >= sizeof(buf)) {
		fail(ps, "a number of %zu characters", n);
		return;
	}
	memcpy(buf, s, n);
	buf[n] = '\0';
	v->type = JSON_NUMBER;
	errno = 0;
	if (!frac) {
		long long i = strtoll(buf, &end, 10);
		if (*end == '\0' && errno == 0) {
			v->is_int = 1;
			v->i = i;
			v->num = (double)i;
			return;
		}
	}
	errno = 0;
	v->num = strtod(buf, &end);
	if (*end != '\0' || errno == ERANGE)
		fail(ps, "'%s' is not a number", buf);
}

static struct json *value(struct parser *, int depth);

/* The elements of an array or the members of an object, after its opening bracket. */
static void
elements(struct parser *ps, struct json *v, int depth, char close)
{
	struct json **tail = &v->child, *e;
	char *key = NULL;

	skip_space(ps);
	if (ps->p < ps->end && *ps->p == close) {
		ps->p++;
		return;
	}
	for (;;) {
		skip_space(ps);
		if (close == '}') {
			if (ps->p >= ps->end || *ps->p != '"') {
				fail(ps, "an object member without a name");
				return;
			}
			ps->p++;
			if ((key = string(ps)) == NULL)
				return;
			skip_space(ps);
			if (ps->p >= ps->end || *ps->p != ':') {
				fail(ps, "no ':' after the name \"%.40s\"", key);
				free(key);
				return;
			}
			ps->p++;
		}
		if ((e = value(ps, depth + 1)) == NULL) {
			free(key);
			return;
		}
		e->key = key;
		key = NULL;
		*tail = e;
		tail = &e->next;
		skip_space(ps);
		if (ps->p < ps->end && *ps->p == ',') {
			ps->p++;
			continue;
		}
		if (ps->p < ps->end && *ps->p == close) {
			ps->p++;
			return;
		}
		fail(ps, "no ',' or '%c' after an element", close);
		return;
	}
}

static struct json *
value(struct parser *ps, int depth)
{
	struct json *v;

	if (depth > JSON_DEPTH) {
		fail(ps, "nested deeper than %d", JSON_DEPTH);
		return NULL;
	}
	skip_space(ps);
	if (ps->p >= ps->end) {
		fail(ps, "the text ends where a value should be");
		return NULL;
	}
	if (++ps->nvalue > JSON_VALUES) {
		fail(ps, "more than %d values", JSON_VALUES);
		return NULL;
	}
	v = xcalloc(1, sizeof(*v));
	v->line = ps->line;
	switch (*ps->p) {
	case '{':
		ps->p++;
		v->type = JSON_OBJECT;
		elements(ps, v, depth, '}');
		break;
	case '[':
		ps->p++;
		v->type = JSON_ARRAY;
		elements(ps, v, depth, ']');
		break;
	case '"':
		ps->p++;
		v->type = JSON_STRING;
		v->str = string(ps);
		break;
	default:
		if (ps->end - ps->p >= 4 && memcmp(ps->p, "true", 4) == 0) {
			v->type = JSON_BOOL;
			v->num = 1;
			ps->p += 4;
		} else if (ps->end - ps->p >= 5 && memcmp(ps->p, "false", 5) == 0) {
			v->type = JSON_BOOL;
			ps->p += 5;
		} else if (ps->end - ps->p >= 4 && memcmp(ps->p, "null", 4) == 0) {
			v->type = JSON_NULL;
			ps->p += 4;
		} else
			number(ps, v);
	}
	if (ps->failed) {
		json_free(v);
		return NULL;
	}
	return v;
}

struct json *
json_parse(const char *buf, size_t len, char *err, size_t errlen)
{
	struct parser ps = { buf, buf + len, 1, err, errlen, 0, 0 };
	struct json *v;

	if (memchr(buf, '\0', len) != NULL) {
		const char *z = memchr(buf, '\0', len);
		const char *q;
		for (q = buf; q < z; q++)
			if (*q == '\n')
				ps.line++;
		fail(&ps, "a NUL byte: not a text file");
		return NULL;
	}
	if ((v = value(&ps, 0)) == NULL)
		return NULL;
	skip_space(&ps);
	if (ps.p != ps.end) {
		fail(&ps, "text after the value");
		json_free(v);
		return NULL;
	}
	return v;
}

void
json_free(struct json *v)
{
	struct json *c, *next;

	if (v == NULL)
		return;
	for (c = v->child; c; c = next) {
		next = c->next;
		json_free(c);
	}
	free(v->key);
	free(v->str);
	free(v);
}

const struct json *
json_get(const struct json *obj, const char *key)
{
	const struct json *c;

	if (obj == NULL || obj->type != JSON_OBJECT)
		return NULL;
	for (c = obj->child; c; c = c->next)
		if (strcmp(c->key, key) == 0)
			return c;
	return NULL;
}

