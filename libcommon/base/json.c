#include <err.h>
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "out.h"
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

/* The bytes written as they are, without a look at the ones after: printable ASCII but
 * for '"', '\\', '<', '>' and '&'. */
#define PLAIN(c) ((c) >= 0x20 && (c) < 0x7f && (c) != '"' && (c) != '\\' && (c) != '<' && \
    (c) != '>' && (c) != '&')
#define PLAIN_ROW(r) PLAIN(r), PLAIN(r + 1), PLAIN(r + 2), PLAIN(r + 3), \
    PLAIN(r + 4), PLAIN(r + 5), PLAIN(r + 6), PLAIN(r + 7), PLAIN(r + 8), \
    PLAIN(r + 9), PLAIN(r + 10), PLAIN(r + 11), PLAIN(r + 12), PLAIN(r + 13), \
    PLAIN(r + 14), PLAIN(r + 15)
static const unsigned char json_plain[256] = {
	PLAIN_ROW(0), PLAIN_ROW(16), PLAIN_ROW(32), PLAIN_ROW(48), PLAIN_ROW(64), PLAIN_ROW(80),
	PLAIN_ROW(96), PLAIN_ROW(112)
};

/* A \u escape of a code point below U+10000: 6 bytes. */
static char *
put_u_escape(char *p, unsigned cp)
{
	static const char hex[] = "0123456789abcdef";

	p[0] = '\\';
	p[1] = 'u';
	p[2] = hex[(cp >> 12) & 15];
	p[3] = hex[(cp >> 8) & 15];
	p[4] = hex[(cp >> 4) & 15];
	p[5] = hex[cp & 15];
	return p + 6;
}

void
json_block_string(struct out_block *o, const char *str)
{
	const unsigned char *s = (const unsigned char *)str, *run = s;
	size_t n;
	char *p;

	p = out_block_room(o, 1);
	*p++ = '"';
	out_block_end(o, p);
	for (;;) {
		unsigned c = *s;

		if (json_plain[c]) {
			s++;
			continue;
		}
		if (c >= 0x80 && (n = utf8_len(s)) != 0 &&
		    !(n == 3 && s[0] == 0xe2 && s[1] == 0x80 && (s[2] == 0xa8 || s[2] == 0xa9))) {
			s += n;
			continue;
		}
		out_block_put(o, (const char *)run, (size_t)(s - run));
		p = out_block_room(o, 7);
		if (c == 0) {
			*p++ = '"';
			out_block_end(o, p);
			return;
		}
		if (c == '"' || c == '\\') {
			*p++ = '\\';
			*p++ = (char)c;
		} else if (c == '\n') {
			*p++ = '\\';
			*p++ = 'n';
		} else if (c == '\t') {
			*p++ = '\\';
			*p++ = 't';
		} else if (c < 0x80)
			p = put_u_escape(p, c);
		else if (c == 0xe2 && utf8_len(s) == 3) {
			p = put_u_escape(p, 0x2000u | ((s[1] & 0x3fu) << 6) | (s[2] & 0x3fu));
			s += 2;
		} else
			p = put_u_escape(p, 0xfffd);
		out_block_end(o, p);
		run = ++s;
	}
}

void
json_put_string(FILE *fp, const char *str)
{
	char buf[512];
	struct out_block o = { fp, buf, 0, sizeof(buf) };

	json_block_string(&o, str);
	out_block_flush(&o);
}

/* Reading ------------------------------------------------------------------------------ */

#define JSON_BLOCK 4096

struct json_block {
	struct json_block *next;
	size_t used;
	struct json node[JSON_BLOCK];
};

/* A document: its root first (json_free is given the root), the blocks of the rest. */
struct json_doc {
	struct json root;
	struct json_block *blocks;
	int root_taken;
};

struct parser {
	const char *p, *end;
	unsigned long line;
	char *err;
	size_t errlen;
	int failed;
	size_t nvalue;
	struct json_doc *doc;
};

static struct json *
node_new(struct parser *ps)
{
	struct json_doc *d = ps->doc;
	struct json_block *b = d->blocks;

	if (!d->root_taken) {
		d->root_taken = 1;
		return &d->root;
	}
	if (b == NULL || b->used == JSON_BLOCK) {
		b = xcalloc(1, sizeof(*b));
		b->next = d->blocks;
		d->blocks = b;
	}
	return &b->node[b->used++];
}

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
	if (n >= 0 && (size_t)n < ps->errlen) {
		/* the text's bytes a message quotes (a name, a number, an escape) are data:
		 * each one that is not printable ASCII is written \xHH */
		char raw[256], *d = ps->err + n, *end = ps->err + ps->errlen - 1;
		const unsigned char *q;
		vsnprintf(raw, sizeof(raw), fmt, ap);
		for (q = (const unsigned char *)raw; *q != '\0' && d < end; q++) {
			if (*q >= 0x20 && *q < 0x7f) {
				*d++ = (char)*q;
			} else if (end - d >= 4) {
				snprintf(d, 5, "\\x%02x", *q);
				d += 4;
			} else {
				break;
			}
		}
		*d = '\0';
	}
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
	v = node_new(ps);
	v->line = (unsigned)ps->line;
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
	if (ps->failed)
		return NULL;	/* its nodes are the document's, freed with it */
	return v;
}

struct json *
json_parse(const char *buf, size_t len, char *err, size_t errlen)
{
	struct parser ps = { buf, buf + len, 1, err, errlen, 0, 0, NULL };
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
	ps.doc = xcalloc(1, sizeof(*ps.doc));
	if ((v = value(&ps, 0)) == NULL) {
		json_free(&ps.doc->root);
		return NULL;
	}
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
	struct json_doc *d = (struct json_doc *)v;	/* the root is the document's start */
	struct json_block *b, *next;
	size_t i;

	if (v == NULL)
		return;
	free(d->root.key);
	free(d->root.str);
	for (b = d->blocks; b != NULL; b = next) {
		next = b->next;
		for (i = 0; i < b->used; i++) {
			free(b->node[i].key);
			free(b->node[i].str);
		}
		free(b);
	}
	free(d);
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

