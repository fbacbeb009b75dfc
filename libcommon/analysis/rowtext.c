#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "meta.h"
#include "out.h"
#include "rowtext.h"
#include "tsv.h"
#include "util.h"

/* Short strings are copied sixteen bytes at a time from copies with room after them:
 * memcpy of a length known only at run time was a quarter of the walk (rep movs). The
 * output buffer has OUT_LINEMAX bytes of room. */
#define COPY_PAD 16
static inline char *
copy_padded(char *p, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i += 16)
		memcpy(p + i, s + i, 16);
	return p + n;
}

static char *
padded_dup(const char *s, size_t n)
{
	char *d = xcalloc(n + COPY_PAD, 1);

	memcpy(d, s, n);
	return d;
}

/* "event\tse\tkernel\t", the same for every row of a buffer */
static struct {
	long event;
	const char *kernel;
	char *text;
	size_t len;
} prefix = { -1, NULL, NULL, 0 };

/* "\tinst\tclass\tdep", the same for every issue of an instruction: by program number,
 * by instruction index */
struct tails {
	char **text;
	size_t *len, n;
};
static struct tails *tails;
static size_t ntails;

static size_t
make_tail(char *buf, size_t sz, const struct inst *in)
{
	int n = snprintf(buf, sz, "\t%s\t%s\t%s", in->text, inst_class_name(in->cls),
	    in->dep_name);

	return n < 0 ? 0 : (size_t)n >= sz ? sz - 1 : (size_t)n;
}

static void
make_prefix(const struct walk_row *r)
{
	char buf[64], *kernel = meta_escape(r->kernel);
	size_t kl = strlen(kernel);
	int n;

	if (r->se < 0)
		n = snprintf(buf, sizeof(buf), "%ld\t-\t", r->event);
	else
		n = snprintf(buf, sizeof(buf), "%ld\t%d\t", r->event, r->se);
	free(prefix.text);
	prefix.len = (size_t)n + kl + 1;
	prefix.text = xcalloc(prefix.len + COPY_PAD, 1);
	memcpy(prefix.text, buf, (size_t)n);
	memcpy(prefix.text + n, kernel, kl);
	prefix.text[prefix.len - 1] = '\t';
	prefix.event = r->event;
	prefix.kernel = r->kernel;
	free(kernel);
}

static const char *
tail_of(const struct walk_row *r, size_t *len)
{
	static char buf[OUT_LINEMAX / 2];
	struct tails *t;

	if (r->idx == SIZE_MAX) {
		*len = make_tail(buf, sizeof(buf), r->in);
		return buf;
	}
	if (r->prog >= ntails) {
		tails = xreallocarray(tails, r->prog + 1, sizeof(*tails));
		memset(tails + ntails, 0, (r->prog + 1 - ntails) * sizeof(*tails));
		ntails = r->prog + 1;
	}
	t = &tails[r->prog];
	if (r->idx >= t->n) {
		size_t n = r->idx + 1 > 2 * t->n ? r->idx + 1 : 2 * t->n;
		t->text = xreallocarray(t->text, n, sizeof(*t->text));
		t->len = xreallocarray(t->len, n, sizeof(*t->len));
		memset(t->text + t->n, 0, (n - t->n) * sizeof(*t->text));
		t->n = n;
	}
	if (t->text[r->idx] == NULL) {
		t->len[r->idx] = make_tail(buf, sizeof(buf), r->in);
		t->text[r->idx] = padded_dup(buf, t->len[r->idx]);
	}
	*len = t->len[r->idx];
	return t->text[r->idx];
}

void
rowtext_put(const struct walk_row *r, const char *extra)
{
	const char *tail;
	size_t tl, el = extra ? strlen(extra) : 0;
	char *p;

	if (r->event != prefix.event || r->kernel != prefix.kernel || prefix.text == NULL)
		make_prefix(r);
	tail = tail_of(r, &tl);
	if (prefix.len + tl + el > OUT_LINEMAX - 256) {	/* a long name: the slow path */
		out_flush();
		printf("%s%u\t%u\t0x%" PRIx64 "\t%" PRIu64 "\t%" PRIu64 "\t%s%s%s\n", prefix.text,
		    r->wave, r->slot, r->pc, r->time, r->delta, r->token, tail, extra ? extra : "");
		return;
	}
	p = out_reserve();
	p = copy_padded(p, prefix.text, prefix.len);
	p = fmt_u64(p, r->wave);
	*p++ = '\t';
	p = fmt_u64(p, r->slot);
	*p++ = '\t';
	p = fmt_hex(p, r->pc);
	*p++ = '\t';
	p = fmt_u64(p, r->time);
	*p++ = '\t';
	p = fmt_u64(p, r->delta);
	*p++ = '\t';
	p = fmt_str(p, r->token);
	p = r->idx == SIZE_MAX ? (char *)memcpy(p, tail, tl) + tl : copy_padded(p, tail, tl);
	if (el) {
		memcpy(p, extra, el);
		p += el;
	}
	*p++ = '\n';
	out_commit(p);
}

void
rowtext_header(const char *extra)
{
	out_flush();
	tsv_put_header(stdout, tsv_row_col, ROW_COST, extra);
}
