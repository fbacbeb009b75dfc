#include <err.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <endian.h>

#include "out.h"
#include "tsv.h"
#include "util.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* The block and the TSV_PAD zero bytes after it (split looks up to 15 bytes past a line:
 * they must be inside the block and defined). */
#define TSV_PAD 32
static void
set_cap(struct tsv *t, size_t cap)
{
	size_t old = t->buf ? t->cap : 0;

	if ((t->buf = realloc(t->buf, cap + TSV_PAD)) == NULL)
		die_errno(NULL);
	memset(t->buf + old, 0, cap - old + TSV_PAD);
	t->cap = cap;
}

void
tsv_open(struct tsv *t, FILE *fp, const char *path)
{
	memset(t, 0, sizeof(*t));
	t->fp = fp;
	t->fd = fileno(fp);
	t->path = path;
	set_cap(t, 1 << 18);
	t->nul = SIZE_MAX;
}

void
tsv_prime(struct tsv *t, const void *bytes, size_t n)
{
	const char *z;

	if (n > t->cap)
		set_cap(t, n);
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
	if (t->blen == t->cap)
		set_cap(t, 2 * t->cap);
	do
		n = t->fd < 0 ? 0 : read(t->fd, t->buf + t->blen, t->cap - t->blen);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		die_errno(t->path);
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
tsv_open_mem(struct tsv *t, const char *bytes, size_t n, const char *path)
{
	memset(t, 0, sizeof(*t));
	t->fd = -1;
	t->path = path;
	set_cap(t, n > 4096 ? n : 4096);
	t->nul = SIZE_MAX;
	tsv_prime(t, bytes, n);
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
		die_errno(path);
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
	free(t->memo);
	memset(t, 0, sizeof(*t));
}

void
tsv_close_at(void *t)
{
	tsv_close(t);
}

/* "PATH:LINE: msg" into why, the message's control bytes as '?' (it quotes the input:
 * nothing of it may drive the terminal). */
static void
tsv_vwhy(const struct tsv *t, char *why, size_t whysz, const char *fmt, va_list ap)
{
	char msg[512];
	char *p;

	vsnprintf(msg, sizeof(msg), fmt, ap);
	for (p = msg; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
	snprintf(why, whysz, "%s:%lu: %s", t->path, t->line, msg);
}

int
tsv_why(const struct tsv *t, char *why, size_t whysz, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tsv_vwhy(t, why, whysz, fmt, ap);
	va_end(ap);
	return -1;
}

void
tsv_fail(const struct tsv *t, const char *fmt, ...)
{
	va_list ap;
	char why[4096];

	va_start(ap, fmt);
	tsv_vwhy(t, why, sizeof(why), fmt, ap);
	va_end(ap);
	out_flush();
	fflush(stdout);
	die("%s", why);
}

/* Split s[0..n) at tabs in place.  Sixteen bytes are compared at a time (SSE2, which
 * every x86-64 has; one at a time elsewhere): a line has a dozen short fields, and a
 * memchr call per field cost more than the search.  The block has TSV_PAD zero bytes
 * after it, so a look past the line's end stays inside it. */
static void
split(struct tsv *t, char *s, size_t n)
{
	char *p = s, *end = s + n, **field;
	size_t nf = 0;

	/* room for a field per byte, so the loop stores without looking (bounded by
	 * TSV_LINE_MAX) */
	if (t->maxfield < n + 2) {
		t->maxfield = n + 2 > 64 ? n + 2 : 64;
		free(t->field);
		if ((t->field = reallocarray(NULL, t->maxfield, sizeof(*t->field))) == NULL)
			die_errno(NULL);
	}
	field = t->field;
	field[nf++] = s;
	t->fend = end;
#ifdef __SSE2__
	{
		const __m128i tab = _mm_set1_epi8('\t');
		unsigned m;

		for (; p < end; p += 16) {
			m = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(
			    _mm_loadu_si128((const __m128i *)(const void *)p), tab));
			if (end - p < 16)
				m &= (1u << (end - p)) - 1;
			for (; m != 0; m &= m - 1) {
				char *c = p + __builtin_ctz(m);
				*c = '\0';
				field[nf++] = c + 1;
			}
		}
	}
#else
	for (; p < end; p++)
		if (*p == '\t') {
			*p = '\0';
			field[nf++] = p + 1;
		}
#endif
	t->nfield = nf;
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
		if ((t->colbuf = calloc(1, n + TSV_PAD)) == NULL)
			die_errno(NULL);
		memcpy(t->colbuf, line + 1, n - 1);
		split(t, t->colbuf, n - 1);
		t->ncol = t->nfield;
		if ((t->col = calloc(t->ncol, sizeof(*t->col))) == NULL)
			die_errno(NULL);
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

#define MEMO_SLOTS 32
struct tsv_memo {
	uint64_t w0[MEMO_SLOTS], w1[MEMO_SLOTS];
	uint32_t len1[MEMO_SLOTS];	/* the length + 1; 0 for an empty slot */
	int val[MEMO_SLOTS];
};

int
tsv_memo(struct tsv *t, int i, int (*lookup)(const char *))
{
	const char *f = t->field[i];
	size_t n = tsv_len(t, (size_t)i), h;
	struct tsv_memo *m;
	uint64_t w0, w1;

	if (n >= 16)
		return lookup(f);
	if ((size_t)i >= t->nmemo) {
		t->memo = xreallocarray(t->memo, (size_t)i + 1, sizeof(*t->memo));
		memset(t->memo + t->nmemo, 0, ((size_t)i + 1 - t->nmemo) * sizeof(*t->memo));
		t->nmemo = (size_t)i + 1;
	}
	m = &t->memo[i];
	/* sixteen bytes from the field: inside the block, whose padding follows it */
	memcpy(&w0, f, 8);
	memcpy(&w1, f + 8, 8);
	w0 = le64toh(w0);
	w1 = le64toh(w1);
	if (n < 8) {
		w0 &= (1ULL << (8 * n)) - 1;
		w1 = 0;
	} else {
		w1 &= (1ULL << (8 * (n - 8))) - 1;
	}
	h = (size_t)(((w0 * 0x9e3779b97f4a7c15ULL) ^ (w1 * 0xff51afd7ed558ccdULL) ^ n) >> 59);
	if (m->len1[h] != n + 1 || m->w0[h] != w0 || m->w1[h] != w1) {
		m->w0[h] = w0;
		m->w1[h] = w1;
		m->len1[h] = (uint32_t)n + 1;
		m->val[h] = lookup(f);
	}
	return m->val[h];
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

const char *const tsv_packet_col[PKT_NCOL] = { "event", "se", "nib", "time", "type", "wave",
	"simd", "wgp", "sa", "op", "raw" };
const char *const tsv_row_col[ROW_NCOL] = { "event", "se", "kernel", "wave", "slot", "pc",
	"time", "delta", "token", "inst", "class", "dep", "cost", "cause", "retired", "cost2", "cause2", "tag" };

void
tsv_cols(const struct tsv *t, const char *const *names, size_t n, int *cols, unsigned long need)
{
	size_t i;

	for (i = 0; i < n; i++)
		if ((cols[i] = tsv_col(t, names[i])) < 0 && (need & TSV_COL(i)))
			tsv_fail(t, "no column '%s'", names[i]);
}

void
tsv_put_header(FILE *fp, const char *const *names, size_t n, const char *extra)
{
	size_t i;

	for (i = 0; i < n; i++)
		fprintf(fp, "%s%s", i ? "\t" : "#", names[i]);
	fprintf(fp, "%s\n", extra ? extra : "");
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
	return t->field[i][0] == '-' && t->field[i][1] == '\0';
}

/* Numbers by hand, from the field's known length: strtoull was most of a reader's
 * time on these streams.  Up to 19 decimal digits cannot overflow; the 20th is checked. */
/* The n (1 to 8) decimal digits at s, eight bytes read at once: a field is followed by
 * at least eight bytes of its line or of the block's padding. */
static inline int
digits8(const char *s, size_t n, uint64_t *out)
{
	const uint64_t zeros = 0x3030303030303030ULL, highs = 0x8080808080808080ULL;
	uint64_t x, d, mask = n == 8 ? ~0ULL : (1ULL << (8 * n)) - 1;

	memcpy(&x, s, 8);
	x = htole64(x) & mask;
	d = x - (zeros & mask);
	/* a byte below '0' has its high bit set; one above '9' gets it from adding 0x76 */
	if (((d | (d + 0x7676767676767676ULL)) & highs & mask) != 0)
		return 0;
	d <<= 8 * (8 - n);	/* the digits in the high bytes, zeros before them */
	d = (d * 10 + (d >> 8)) & 0x00ff00ff00ff00ffULL;
	d = (d * 100 + (d >> 16)) & 0x0000ffff0000ffffULL;
	d = (d * 10000 + (d >> 32)) & 0xffffffffULL;
	*out = d;
	return 1;
}

static int
parse_u64(const char *s, size_t n, uint64_t *out)
{
	uint64_t v = 0, d;
	size_t i = 0;

	if (n == 1 && (d = (uint64_t)(unsigned char)s[0] - '0') <= 9) {	/* most are */
		*out = d;
		return 1;
	}
	if (n > 2 && s[0] == '0' && s[1] == 'x') {
		for (i = 2; i + 1 < n && s[i] == '0'; i++)
			;
		if (n - i > 16)
			return 0;
		for (; i < n; i++) {
			int x = hex_digit((unsigned char)s[i]);
			if (x < 0)
				return 0;
			v = v << 4 | (uint64_t)x;
		}
	} else {
		while (i + 1 < n && s[i] == '0')
			i++;
		if (n == 0 || n - i > 20)
			return 0;
		/* the first digits, so that the rest are whole groups of eight */
		if ((n - i) % 8 && !digits8(s + i, (n - i) % 8, &v))
			return 0;
		for (i += (n - i) % 8; i < n; i += 8) {
			if (!digits8(s + i, 8, &d))
				return 0;
			if (v > (UINT64_MAX - d) / 100000000)
				return 0;
			v = v * 100000000 + d;
		}
	}
	*out = v;
	return 1;
}

int
tsv_get_u64(const struct tsv *t, int i, uint64_t *v)
{
	return parse_u64(t->field[i], tsv_len(t, (size_t)i), v);
}

int
tsv_get_i64(const struct tsv *t, int i, int64_t *out)
{
	const char *s = t->field[i];
	uint64_t v;
	int neg = *s == '-';

	if (!parse_u64(s + neg, tsv_len(t, (size_t)i) - (size_t)neg, &v) || (s[neg] == '0' && s[neg + 1] == 'x') ||
	    v > (uint64_t)INT64_MAX + neg)
		return 0;
	*out = neg ? (int64_t)(0 - v) : (int64_t)v;
	return 1;
}

uint64_t
tsv_u64(const struct tsv *t, int i)
{
	uint64_t v;

	if (!tsv_get_u64(t, i, &v))
		tsv_fail(t, "%s: '%s' is not a number", t->col[i], t->field[i]);
	return v;
}

int64_t
tsv_i64(const struct tsv *t, int i)
{
	int64_t v;

	if (!tsv_get_i64(t, i, &v))
		tsv_fail(t, "%s: '%s' is not a number", t->col[i], t->field[i]);
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

const char *
tsv_line(struct tsv *t)
{
	size_t i;

	for (i = 1; i < t->nfield; i++)
		t->field[i][-1] = '\t';
	t->nfield = t->nfield ? 1 : 0;
	return t->text;
}
