/* capture-dump: a capture's buffers into the packet stream (capture-dump.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "capture-dump.h"
#include "input.h"
#include "meta.h"
#include "out.h"
#include "sqtt.h"
#include "tsv.h"
#include "util.h"

static int __attribute__((format(printf, 2, 3)))
fail(struct capture_dump *d, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(d->err, sizeof(d->err), fmt, ap);
	va_end(ap);
	return -1;
}

static int
fail_errno(struct capture_dump *d, const char *path)
{
	return fail(d, "%s: %s", path, strerror(errno));
}

int
capture_dump_types(struct capture_dump *d, char *arg)
{
	return packet_filter_types(&d->f, arg, d->err, sizeof(d->err));
}

int
capture_dump_start(struct capture_dump *d)
{
	if (d->xdir != NULL && mkdir(d->xdir, 0777) != 0 && errno != EEXIST)
		return fail_errno(d, d->xdir);
	if (d->sdir != NULL && mkdir(d->sdir, 0777) != 0 && errno != EEXIST)
		return fail_errno(d, d->sdir);
	return 0;
}

void
capture_dump_free(struct capture_dump *d)
{
	size_t i;

	for (i = 0; i < d->nwritten; i++)
		free(d->written[i]);
	free(d->written);
	d->written = NULL;
	d->nwritten = 0;
}

/* -x: program i's code object as DIR/NAME.hsaco */
static int
write_code(struct capture_dump *d, struct capture *c, size_t i)
{
	char *path, *name;
	size_t len, n, j;
	const uint8_t *code = capture_code(c, i, &len);
	FILE *fp;
	int r = 0;

	if (code == NULL)
		return 0;
	/* two programs of one name (or one file name) get NAME.hsaco, NAME~2.hsaco, ...:
	 * none is written over another ('~' is never in an escaped name) */
	name = meta_file_name(c->prog[i].name);
	for (n = 1, j = 0; j < d->nwritten; j++)
		if (strcmp(d->written[j], name) == 0)
			n++;
	d->written = xreallocarray(d->written, d->nwritten + 1, sizeof(*d->written));
	d->written[d->nwritten++] = name;
	if ((n == 1 ? asprintf(&path, "%s/%s.hsaco", d->xdir, name) :
	    asprintf(&path, "%s/%s~%zu.hsaco", d->xdir, name, n)) < 0)
		die("out of memory");
	if ((fp = fopen(path, "wb")) == NULL)
		r = fail_errno(d, path);
	else if (fwrite(code, 1, len, fp) != len)
		r = fail_errno(d, path), fclose(fp);
	else if (fclose(fp) != 0)
		r = fail_errno(d, path);
	free(path);
	return r;
}

/* -X: the event's stream as it is in the capture, for other decoders. */
static int
write_stream(struct capture_dump *d, const struct event *e, unsigned ev)
{
	char *path;
	FILE *fp;
	uint8_t buf[1 << 16];
	size_t n;
	int r = 0;

	if (asprintf(&path, "%s/%u.att", d->sdir, ev) < 0)
		die("out of memory");
	if ((fp = fopen(path, "wb")) == NULL) {
		r = fail_errno(d, path);
		free(path);
		return r;
	}
	if (e->blob != NULL) {
		if (fwrite(e->blob, 1, e->len, fp) != e->len)
			r = fail_errno(d, path);
	} else {
		struct input *in = input_open(e->file);
		while (r == 0 && (n = input_read(in, buf, sizeof(buf))) > 0)
			if (fwrite(buf, 1, n, fp) != n)
				r = fail_errno(d, path);
		input_close(in);
	}
	if (fclose(fp) != 0 && r == 0)
		r = fail_errno(d, path);
	free(path);
	return r;
}

struct selection {
	const struct capture_opts *o;
	unsigned offset;
};

static int
selected_event(const struct capture *c, const struct event *e, void *arg)
{
	const struct selection *s = arg;

	return capture_selects(s->o, c, e, s->offset);
}

static int
dump_meta(struct capture_dump *d, struct capture *c, const struct capture_opts *o,
    unsigned offset)
{
	struct selection s = { o, offset };
	size_t i;

	capture_put_meta(stdout, c, offset, selected_event, &s);
	for (i = 0; d->xdir != NULL && i < c->nprog; i++)
		if (write_code(d, c, i) != 0)
			return -1;
	if (!d->header_done) {
		if (d->f.counts)
			printf("#event\tse\ttype\tcount\n");
		else
			tsv_put_header(stdout, tsv_packet_col, PKT_NCOL, NULL);
		d->header_done = 1;
	}
	return 0;
}

static int
dump_event(struct capture_dump *d, const struct capture *c, const struct event *e,
    const char *path, unsigned ev)
{
	struct sqtt_decoder dec;
	struct capture_stream src;
	uint64_t seen = 0;
	const uint8_t *g9;
	uint8_t *own;
	size_t g9len;

	d->nselected++;
	d->nnoprog += capture_program(c, e) == NULL;
	if (d->sdir != NULL && write_stream(d, e, ev) != 0)
		return -1;
	packet_start(&d->po, ev, e->se);
	if ((g9 = capture_gfx9_stream(e, &g9len, &own)) != NULL) {	/* CDNA: no HEADER */
		packet_dump_cdna(&d->po, &d->f, g9, g9len);
		free(own);
		return 0;
	}
	capture_decoder(e, &dec, &src);
	if (packet_dump(&d->po, &d->f, &dec, &seen) < 0) {
		if (e->blob != NULL)
			fail(d, "%s: event %u: %s", path, ev, dec.error);
		else
			fail(d, "%s: %s", e->file, dec.error);
		capture_decoder_end(&dec, &src);
		return -1;
	}
	if (sqtt_is_noise(dec.unknown, seen)) {
		fail(d, "%s: event %u: %" PRIu64 " of %" PRIu64 " tokens UNKNOWN: random bytes "
		    "or a damaged stream, not %s SQTT", e->blob ? path : e->file, ev,
		    dec.unknown, seen, dec.gen->name);
		capture_decoder_end(&dec, &src);
		return -1;
	}
	d->unknown += dec.unknown;
	if (dec.unknown)
		d->unknown_gen = dec.gen->name;
	d->lost += dec.lost;
	capture_decoder_end(&dec, &src);
	return 0;
}

/* The readers' errors below (die: a stream file that cannot be read, a code object
 * that cannot be named) come back here, into d->err. */
int
capture_dump_meta(struct capture_dump *d, struct capture *c, const struct capture_opts *o,
    unsigned offset)
{
	struct fatal_catch fc;
	int r;

	fatal_arm(&fc, d->err, sizeof(d->err));
	if (setjmp(fc.back) != 0)
		return -1;
	r = dump_meta(d, c, o, offset);
	fatal_disarm(&fc);
	return r;
}

int
capture_dump_event(struct capture_dump *d, const struct capture *c, const struct event *e,
    const char *path, unsigned ev)
{
	struct fatal_catch fc;
	int r;

	fatal_arm(&fc, d->err, sizeof(d->err));
	if (setjmp(fc.back) != 0)
		return -1;
	r = dump_event(d, c, e, path, ev);
	fatal_disarm(&fc);
	return r;
}
