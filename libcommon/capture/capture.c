#include <dirent.h>
#include <err.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <fcntl.h>

#include "cli.h"
#include "capture.h"
#include "input.h"
#include "meta.h"
#include "pickle.h"
#include "rgp.h"
#include "rocprof.h"
#include "sqtt.h"
#include "tsv.h"
#include "util.h"

#define add_program capture_add_program
#define add_event capture_add_event
#define dir_file capture_dir_file

static int
pk_int(const struct pk_value *v, int64_t *out)
{
	if (v == NULL || (v->type != PK_INT && v->type != PK_BOOL))
		return 0;
	*out = v->u.i;
	return 1;
}

static int
pk_str(const struct pk_value *v, const char **s, size_t *len)
{
	if (v == NULL || v->type != PK_STR)
		return 0;
	*s = v->u.str.s;
	*len = v->u.str.len;
	return 1;
}

/* Bytes: BINBYTES in protocols 3-5; protocol 2 has no bytes type and writes
 * _codecs.encode(TEXT, "latin1") (and builtins.bytes() for empty ones). */
static int
pk_bytes(struct capture *c, const struct pk_value *v, const uint8_t **s, size_t *len)
{
	const struct pk_value *a, *text, *enc;
	const unsigned char *p, *end;
	uint8_t *d;
	size_t n = 0;

	if (v != NULL && v->type == PK_BYTES) {
		*s = (const uint8_t *)v->u.str.s;
		*len = v->u.str.len;
		return 1;
	}
	if (v == NULL || v->type != PK_OBJECT || (a = v->u.obj.args) == NULL ||
	    a->type != PK_TUPLE)
		return 0;
	if ((strcmp(v->u.obj.module, "__builtin__") == 0 ||
	    strcmp(v->u.obj.module, "builtins") == 0) &&
	    strcmp(v->u.obj.name, "bytes") == 0 && a->u.seq.n == 0) {
		*s = (const uint8_t *)"";
		*len = 0;
		return 1;
	}
	if (strcmp(v->u.obj.module, "_codecs") != 0 || strcmp(v->u.obj.name, "encode") != 0 ||
	    a->u.seq.n != 2 || (text = a->u.seq.item[0])->type != PK_STR ||
	    (enc = a->u.seq.item[1])->type != PK_STR || enc->u.str.len != 6 ||
	    memcmp(enc->u.str.s, "latin1", 6) != 0)
		return 0;
	/* code points U+0000..U+00FF, in UTF-8 one or two bytes each */
	p = (const unsigned char *)text->u.str.s;
	end = p + text->u.str.len;
	d = xcalloc(text->u.str.len + 1, 1);
	while (p < end) {
		if (*p < 0x80) {
			d[n++] = *p++;
		} else if ((*p == 0xc2 || *p == 0xc3) && p + 1 < end && (p[1] & 0xc0) == 0x80) {
			d[n++] = (uint8_t)((p[0] & 0x03) << 6 | (p[1] & 0x3f));
			p += 2;
		} else {
			free(d);
			return 0;
		}
	}
	c->owned = xreallocarray(c->owned, c->nowned + 1, sizeof(*c->owned));
	c->owned[c->nowned++] = d;
	*s = d;
	*len = n;
	return 1;
}

static void
target_from_props(struct capture *c, const struct pk_value *dev)
{
	const struct pk_value *props = pk_attr(dev, "props");
	int64_t v;
	char buf[32];

	if (props == NULL || props->type != PK_DICT ||
	    !pk_int(pk_dict_get(props, "gfx_target_version"), &v) || v <= 0 || v > 999999)
		return;
	snprintf(buf, sizeof(buf), "gfx%d%x%x", (int)(v / 10000), (int)(v / 100 % 100),
	    (int)(v % 100));
	free(c->target);
	c->target = xstrndup(buf, strlen(buf));
}

static void
open_pickle(struct capture *c)
{
	struct pk_value *root;
	char why[256];
	size_t i, j, n;
	const char *s;
	int64_t v;

	c->pk = pickle_load(c->data, c->len, &root, why, sizeof(why));
	if (c->pk == NULL)
		die("%s: %s", c->path, why);
	if (root->type != PK_LIST)
		die("%s: not a tinygrad profile (the pickle holds no list of events)", c->path);
	for (i = 0; i < root->u.seq.n; i++) {
		const struct pk_value *o = root->u.seq.item[i], *lib, *blob;
		if (pk_is_object(o, "ProfileDeviceEvent")) {
			target_from_props(c, o);
		} else if (pk_is_object(o, "ProfileProgramEvent")) {
			struct program *p;
			lib = pk_attr(o, "lib");
			if (!pk_str(pk_attr(o, "name"), &s, &n))
				die("%s: program event %zu has no name", c->path, i);
			p = add_program(c);
			p->name = xstrndup(s, n);
			if (pk_int(pk_attr(o, "tag"), &v))
				p->tag = v;
			if (pk_int(pk_attr(o, "base"), &v))
				p->base = (uint64_t)v;
			if (!pk_bytes(c, lib, &p->code, &p->size))
				p->code = NULL, p->size = 0;
		} else if (pk_is_object(o, "ProfileSQTTEvent")) {
			struct event *e;
			const uint8_t *bytes;
			size_t nbytes;
			blob = pk_attr(o, "blob");
			if (!pk_bytes(c, blob, &bytes, &nbytes))
				die("%s: SQTT event %zu has no blob", c->path, i);
			e = add_event(c);
			e->blob = bytes;
			e->len = nbytes;
			if (!pk_int(pk_attr(o, "se"), &v) || v < 0 || v > 255)
				die("%s: SQTT event %zu has no shader engine number 0..255 (se)",
				    c->path, c->nev - 1);
			e->se = (int)v;
			e->itrace = pk_int(pk_attr(o, "itrace"), &v) ? v != 0 : 1;
		}
	}
	/* kern is the program's tag, or in older pickles its name; programs may come later */
	for (i = 0, n = 0; i < root->u.seq.n; i++) {
		const struct pk_value *o = root->u.seq.item[i], *kern;
		size_t klen;
		if (!pk_is_object(o, "ProfileSQTTEvent"))
			continue;
		kern = pk_attr(o, "kern");
		for (j = 0; j < c->nprog; j++)
			if (pk_int(kern, &v) ? c->prog[j].tag == v :
			    pk_str(kern, &s, &klen) && strlen(c->prog[j].name) == klen &&
			    memcmp(c->prog[j].name, s, klen) == 0)
				c->ev[n].prog = (int)j;
		n++;
	}
	if (c->nev == 0)
		die("%s: no SQTT events in the capture (was it recorded with VIZ=-2 and SQTT on?)",
		    c->path);
	/* tinygrad writes a dispatch's buffers one per shader engine, in increasing order:
	 * a new dispatch begins where the engine does not increase or the program changes */
	for (i = 0, v = 0; i < c->nev; i++) {
		if (i == 0 || c->ev[i].se <= c->ev[i - 1].se || c->ev[i].prog != c->ev[i - 1].prog)
			v++;
		c->ev[i].dispatch = v;
	}
}

/* What reading capture.tsv holds until it is read. */
struct index_read {
	char *index;
	int fd;
	FILE *fp;
	struct tsv t;
};

static void
index_read_free(void *arg)
{
	struct index_read *ir = arg;

	tsv_close(&ir->t);
	if (ir->fp != NULL)
		fclose(ir->fp);
	else if (ir->fd >= 0)
		close(ir->fd);
	free(ir->index);
}

/* A directory written by sqtt-encode -d: capture.tsv holds the ## lines of the packet
 * stream, with file names relative to the directory. */
static void
open_dir(struct capture *c, const struct capture_opts *o)
{
	char *index = capture_join(c->path, "capture.tsv");
	struct stat st;
	struct index_read ir = { .fd = -1 };
	struct tsv *t = &ir.t;
	enum tsv_kind k;
	size_t i;
	int64_t tag;

	if (lstat(index, &st) != 0 && errno == ENOENT) {
		free(index);
		rocprof_open(c, o);
		return;
	}
	/* the index is data too: a regular file inside the directory (a FIFO would block,
	 * a link out of it names another's files), checked on what is opened */
	free(index);
	ir.index = capture_dir_file(c, "capture.tsv");
	fatal_push(index_read_free, &ir);
	if ((ir.fd = open(ir.index, O_RDONLY | O_NONBLOCK)) < 0)
		die_errno(ir.index);
	if (fstat(ir.fd, &st) != 0 || !S_ISREG(st.st_mode))
		die("%s: capture.tsv is not a regular file inside the capture directory",
		    c->path);
	if (fcntl(ir.fd, F_SETFL, 0) != 0 || (ir.fp = fdopen(ir.fd, "r")) == NULL)
		die_errno(ir.index);
	tsv_open(t, ir.fp, ir.index);
	while ((k = tsv_next(t)) != TSV_EOF) {
		if (k != TSV_META)
			continue;
		meta_parse(t);
		if (strcmp(t->field[0], "target") == 0 && t->nfield >= 2) {
			free(c->target);
			c->target = xstrdup(t->field[1]);
		} else if (strcmp(t->field[0], "code") == 0) {
			struct program *p;
			if (t->nfield != 6)
				tsv_fail(t, "##code wants NAME TAG BASE SIZE FILE");
			/* the index is data: it names files of its own directory, nothing else */
			if (!meta_plain_name(t->field[5]))
				tsv_fail(t, "##code: '%s' is not a file name in the capture's directory",
				    t->field[5]);
			p = add_program(c);
			p->name = xstrndup(t->field[1], strlen(t->field[1]));
			p->tag = meta_is_none(t->field[2]) ? -1 : (int64_t)meta_u64(t, 2, "tag", INT64_MAX);
			p->base = meta_u64(t, 3, "base", UINT64_MAX);
			p->size = meta_u64(t, 4, "size", CAPTURE_CODE_MAX);
			p->file = dir_file(c, t->field[5]);
		} else if (strcmp(t->field[0], "event") == 0) {
			struct event *e;
			if (t->nfield != 10 && t->nfield != 11)
				tsv_fail(t, "##event wants EVENT SE KERNEL TAG ITRACE SA WGP SIMD FILE [DISPATCH]");
			if (!meta_plain_name(t->field[9]))
				tsv_fail(t, "##event: '%s' is not a file name in the capture's directory",
				    t->field[9]);
			e = add_event(c);
			e->se = (int)meta_u64(t, 2, "se", 255);
			e->itrace = (int)meta_u64(t, 5, "itrace", 1);
			e->file = dir_file(c, t->field[9]);
			if (t->nfield == 11 && !meta_is_none(t->field[10]))
				e->dispatch = (int64_t)meta_u64(t, 10, "dispatch", INT64_MAX);
			/* the program is (name, tag): a capture may hold two versions of one
			 * kernel; a tag "-" takes the last of the name */
			tag = meta_is_none(t->field[4]) ? -1 :
			    (int64_t)meta_u64(t, 4, "tag", INT64_MAX);
			for (i = 0; i < c->nprog && !meta_is_none(t->field[3]); i++)
				if (strcmp(c->prog[i].name, t->field[3]) == 0 &&
				    (tag < 0 || c->prog[i].tag == tag))
					e->prog = (int)i;
		}
	}
	fatal_pop(&ir);
	index_read_free(&ir);
	if (c->nev == 0)
		die("%s: no SQTT events in the capture", c->path);
}

static void
open_raw(struct capture *c, const struct capture_opts *o)
{
	struct event *e = add_event(c);
	struct stat st;

	e->se = o->se;
	e->itrace = 1;
	e->file = xstrndup(c->path, strlen(c->path));
	/* standard input or a FIFO can be read once: the stream is read into memory here,
	 * not opened again to peek at its HEADER and then to decode it */
	if (strcmp(e->file, "-") == 0 || stat(e->file, &st) != 0 || !S_ISREG(st.st_mode)) {
		struct input *in = input_open(e->file);
		struct sqtt_header h;
		uint8_t head[8];
		size_t n = 0, got;
		const char *why;
		fatal_push(input_close_v, in);
		/* its HEADER first: /dev/zero is refused at its first 8 bytes, not read */
		while (n < 8 && (got = input_read(in, head + n, 8 - n)) > 0)
			n += got;
		if ((why = sqtt_check_header(head, n, &h)) != NULL)
			die("%s: %s", c->path, why);
		fatal_pop(in);
		c->data = input_slurp_rest(in, head, n, CAPTURE_PIPE_MAX, "a raw stream read from "
		    "a pipe is held in memory: give a file", &c->len);
		e->blob = c->data;
		e->len = c->len;
	}
	if (o->code != NULL) {
		struct program *p = add_program(c);
		const char *slash = strrchr(o->code, '/');
		p->name = xstrndup(o->kernel ? o->kernel : slash ? slash + 1 : o->code,
		    strlen(o->kernel ? o->kernel : slash ? slash + 1 : o->code));
		p->base = o->base;
		/* absolute, as every ## path; and there, or it is a mistake worth one line now */
		if ((p->file = realpath(o->code, NULL)) == NULL)
			die_errno(o->code);
		if (stat(p->file, &st) == 0 && S_ISREG(st.st_mode))
			p->size = (size_t)st.st_size;	/* as ##code says it of every capture */
		p->tag = 0;
		e->prog = 0;
	}
}

static void
capture_close_v(void *c)
{
	capture_close(c);
}

static int capture_read(struct capture *, const char *path, const struct capture_opts *,
    char *why, size_t whysz);

/* A reader's error closes c first (util.h, fatal_push) and comes back to the catch. */
int
capture_open(struct capture *c, const char *path, const struct capture_opts *o, char *why,
    size_t whysz)
{
	struct fatal_catch fc;

	memset(c, 0, sizeof(*c));
	fatal_arm(&fc, why, whysz);
	if (setjmp(fc.back) != 0)
		return -1;
	fatal_push(capture_close_v, c);
	if (capture_read(c, path, o, why, whysz) != 0) {
		fatal_pop(c);
		fatal_disarm(&fc);
		capture_close(c);
		return -1;
	}
	fatal_pop(c);
	fatal_disarm(&fc);
	return 0;
}

/* 0, or -1 with why for what its first bytes tell (the readers' errors are raised). */
static int
capture_read(struct capture *c, const char *path, const struct capture_opts *o, char *why,
    size_t whysz)
{
	struct stat st;
	struct input *in;
	uint8_t head[4];
	size_t nhead, got;
	char *abs;

	/* absolute, so that the ## lines still find it from another directory */
	abs = realpath(path, NULL);
	c->path = abs ? abs : xstrndup(path, strlen(path));
	c->target = xstrndup("-", 1);
	/* never ignored: "sqtt-dump -c a.pkl b.pkl" once counted tokens, now it is a mistake */
	if (o != NULL && o->code != NULL && !o->raw)
		return fail_why(why, whysz, "-c, --code %s: the code object of a --raw stream, "
		    "not without --raw (token counts are --counts)", o->code);
	if (o != NULL && o->raw) {
		open_raw(c, o);
		return 0;
	}
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		open_dir(c, o);
		return 0;
	}
	/* the first bytes before the rest: a gzip bomb that is no pickle stops here */
	in = input_open(path);
	fatal_push(input_close_v, in);
	for (nhead = 0; nhead < 4 && (got = input_read(in, head + nhead, 4 - nhead)) > 0;)
		nhead += got;
	if (nhead == 0) {
		fatal_pop(in);
		input_close(in);
		return fail_why(why, whysz, "%s: empty file", path);
	}
	if (nhead == 4 && head[0] == (RGP_MAGIC & 0xff) && head[1] == (RGP_MAGIC >> 8 & 0xff) &&
	    head[2] == (RGP_MAGIC >> 16 & 0xff) && head[3] == RGP_MAGIC >> 24) {
		fatal_pop(in);
		c->data = input_slurp_rest(in, head, nhead, SIZE_MAX, "", &c->len);
		rgp_open(c);
		return 0;
	}
	if (head[0] != 0x80 || (nhead >= 2 && (head[1] < 2 || head[1] > 5))) {
		fatal_pop(in);
		input_close(in);
		if (head[0] != 0x80)
			return fail_why(why, whysz, "%s: not a pickle of protocol 2 to 5 (first "
			    "byte 0x%02x); a raw stream wants --raw", path, head[0]);
		return fail_why(why, whysz, "%s: a pickle of protocol %u: tinygrad writes 2 to 5",
		    path, head[1]);
	}
	fatal_pop(in);
	c->data = input_slurp_rest(in, head, nhead, SIZE_MAX, "", &c->len);
	open_pickle(c);
	return 0;
}

void
capture_close(struct capture *c)
{
	size_t i;

	for (i = 0; i < c->nprog; i++) {
		free(c->prog[i].name);
		if (c->prog[i].file != NULL && !c->prog[i].borrowed)
			free((void *)c->prog[i].code);
		free(c->prog[i].file);
	}
	u64map_free(&c->code_of);
	for (i = 0; i < c->nev; i++)
		free(c->ev[i].file);
	free(c->prog);
	free(c->ev);
	for (i = 0; i < c->nowned; i++)
		free(c->owned[i]);
	free(c->owned);
	if (c->pk)
		pickle_free(c->pk);
	free(c->data);
	free(c->target);
	free(c->path);
	memset(c, 0, sizeof(*c));
}

const struct program *
capture_program(const struct capture *c, const struct event *e)
{
	return e->prog >= 0 ? &c->prog[e->prog] : NULL;
}

void
capture_put_meta(FILE *fp, const struct capture *c, unsigned event_offset,
    int (*selected)(const struct capture *, const struct event *, void *), void *arg)
{
	size_t i;

	meta_begin(fp, "source");
	meta_str(fp, c->path);
	meta_end(fp);
	meta_begin(fp, "target");
	meta_str_or_none(fp, strcmp(c->target, "-") ? c->target : NULL);
	meta_end(fp);
	for (i = 0; i < c->nprog; i++) {
		const struct program *p = &c->prog[i];
		meta_begin(fp, "code");
		meta_str(fp, p->name);
		if (p->tag < 0)
			meta_none(fp);
		else
			fprintf(fp, "\t%" PRId64, p->tag);
		fprintf(fp, "\t0x%" PRIx64 "\t%zu", p->base, p->size);
		meta_str_or_none(fp, p->file);
		meta_end(fp);
	}
	for (i = 0; i < c->nev; i++) {
		const struct event *e = &c->ev[i];
		const struct program *p = capture_program(c, e);
		uint8_t head[8];
		size_t got;
		struct sqtt_header h;
		uint64_t raw = 0;

		if (selected != NULL && !selected(c, e, arg))
			continue;
		capture_peek(c, e, head, &got);
		memcpy(&raw, head, 8);
		sqtt_header(raw, &h);
		meta_begin(fp, "event");
		fprintf(fp, "\t%u\t%d", event_offset + e->index, e->se);
		meta_str_or_none(fp, p ? p->name : NULL);
		if (p == NULL || p->tag < 0)
			fprintf(fp, "\t-");
		else
			fprintf(fp, "\t%" PRId64, p->tag);
		if (got == 8 && sqtt_check_header(head, 8, &h) == NULL)
			fprintf(fp, "\t%d\t%u\t%u\t%u", e->itrace, h.sa, h.wgp, h.simd);
		else
			fprintf(fp, "\t%d\t-\t-\t-", e->itrace);
		meta_str_or_none(fp, e->file);
		if (e->dispatch < 0)
			meta_none(fp);
		else
			fprintf(fp, "\t%" PRId64, e->dispatch);
		meta_end(fp);
	}
}

void
capture_parse_base(struct capture_opts *o, const char *arg)
{
	const char *eq = strchr(arg, '=');
	char *end;
	long id = -1;
	uint64_t addr;

	if (eq != NULL) {
		errno = 0;
		id = strtol(arg, &end, 10);
		if (errno || end != eq || end == arg || id < 0)
			die("--base: not ID=ADDR with a code object id: %s", arg);
		arg = eq + 1;
	}
	errno = 0;
	addr = strtoull(arg, &end, 0);
	if (errno || *end != '\0' || end == arg || *arg == '-')
		die("--base is not an address: %s", arg);
	if (id < 0) {
		o->base = addr;
		return;
	}
	o->bases = xreallocarray(o->bases, o->nbases + 1, sizeof(*o->bases));
	o->bases[o->nbases].id = id;
	o->bases[o->nbases++].addr = addr;
}

int
capture_option(struct capture_opts *o, int ch, const char *arg)
{
	switch (ch) {
	case OPT_RAW:
		o->raw = 1;
		return 1;
	case OPT_SE:
		o->se = (int)cli_number("--se", arg, 0, 255);
		return 1;
	case 'e':
		o->event = (long)cli_number("-e", arg, 0, 1 << 30);
		o->event_set = 1;
		return 1;
	case 'k':
		o->select_kernel = arg;
		return 1;
	case OPT_DISPATCH:
		o->dispatch = cli_number("--dispatch", arg, 0, LLONG_MAX);
		o->dispatch_set = 1;
		return 1;
	case 'c':
		o->code = arg;
		return 1;
	case 'b':
		capture_parse_base(o, arg);
		return 1;
	case OPT_NAME:
		o->kernel = arg;
		return 1;
	default:
		return 0;
	}
}

int
capture_selects(const struct capture_opts *o, const struct capture *c, const struct event *e,
    unsigned offset)
{
	const struct program *p;

	if (o->event_set && offset + e->index != (unsigned long)o->event)
		return 0;
	if (o->dispatch_set && e->dispatch != o->dispatch)
		return 0;
	if (o->select_kernel == NULL)
		return 1;
	p = capture_program(c, e);
	return p != NULL && strcmp(p->name, o->select_kernel) == 0;
}

void
capture_selects_none_why(const struct capture_opts *o, const char *path, size_t nev,
    char *why, size_t whysz)
{
	char sel[512] = "";
	char *k = o->select_kernel ? meta_escape(o->select_kernel) : NULL;

	if (o->event_set)
		snprintf(sel, sizeof(sel), " -e %ld", o->event);
	if (k != NULL)
		snprintf(sel + strlen(sel), sizeof(sel) - strlen(sel), " -k %.200s", k);
	if (o->dispatch_set)
		snprintf(sel + strlen(sel), sizeof(sel) - strlen(sel), " --dispatch %lld",
		    o->dispatch);
	free(k);
	snprintf(why, whysz, "%s%sno trace buffer matches%s (%zu in all%s)", path ? path : "",
	    path ? ": " : "", sel, nev, o->event_set && nev ? ", numbered from 0" : "");
}
