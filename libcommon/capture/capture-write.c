/* capture-write: a capture directory written from a packet stream (capture-write.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "capture.h"
#include "capture-write.h"
#include "elfsym.h"
#include "input.h"
#include "meta.h"
#include "rocprof.h"
#include "tsv.h"
#include "util.h"

/* The most event number a stream may give (sqtt-encode(1), LIMITS). */
#define EVENT_MAX (1 << 30)

/* What the ## lines of the input said. */
struct meta_code { char *name, *tag, *base, *file, *where; };	/* where: "PATH:LINE" */
/* ##event EVENT SE KERNEL TAG ITRACE SA WGP SIMD FILE [DISPATCH]: the fields after SE */
enum { EV_KERNEL, EV_TAG, EV_ITRACE, EV_SA, EV_WGP, EV_SIMD, EV_NFIELD };
struct meta_event { uint64_t event; size_t order; char *f[EV_NFIELD]; int64_t dispatch; };
/* The run as rocprofv3's results have it: code objects, kernels, dispatches. */
struct run_code { char *name, *tag; uint64_t base, entry, kd, size; int has_entry; };
struct run_dispatch { int64_t id; char *kernel, *tag; };

struct capture_writer {
	char *dir;			/* NULL: only the context lines read */
	struct rocprof_layout layout;
	FILE *index;
	char *source, *target;
	struct meta_code *codes;
	size_t ncodes;
	int codes_done;
	struct meta_event *ev;
	size_t nev;
	int ev_sorted;
	struct run_code *rcode;
	size_t nrcode;
	struct run_dispatch *rdisp;
	size_t nrdisp;
	struct { int se; int64_t dispatch; } *written;	/* the streams written */
	size_t nwritten;
	char *path;			/* the open stream's */
	char *err;
	size_t errsize;
};

static int __attribute__((format(printf, 2, 3)))
fail(struct capture_writer *w, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(w->err, w->errsize, fmt, ap);
	va_end(ap);
	return -1;
}

/* "PATH: reason" of errno */
static int
fail_errno(struct capture_writer *w, const char *path)
{
	return fail(w, "%s: %s", path, strerror(errno));
}

struct capture_writer *
capture_writer_new(const char *dir, int index, const struct rocprof_layout *l, char *err,
    size_t errsize)
{
	struct capture_writer *w = xcalloc(1, sizeof(*w));
	char *ipath;
	int r = 0;

	w->err = err;
	w->errsize = errsize;
	w->layout = *l;
	if (dir == NULL)
		return w;
	w->dir = xstrdup(dir);
	if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
		fail_errno(w, dir);
		goto bad;
	}
	if (asprintf(&ipath, "%s/capture.tsv", dir) < 0)
		die("out of memory");
	rocprof_layout_init(&w->layout, dir);
	if (!index) {
		if (unlink(ipath) != 0 && errno != ENOENT)
			r = fail_errno(w, ipath);
	} else if ((w->index = fopen(ipath, "w")) == NULL) {
		r = fail_errno(w, ipath);
	}
	free(ipath);
	if (r == 0)
		return w;
bad:
	capture_writer_free(w);
	return NULL;
}

void
capture_writer_free(struct capture_writer *w)
{
	size_t i;
	int j;

	if (w == NULL)
		return;
	if (w->index != NULL)
		fclose(w->index);
	rocprof_layout_free(&w->layout);
	for (i = 0; i < w->ncodes; i++) {
		free(w->codes[i].name);
		free(w->codes[i].tag);
		free(w->codes[i].base);
		free(w->codes[i].file);
		free(w->codes[i].where);
	}
	for (i = 0; i < w->nev; i++)
		for (j = 0; j < EV_NFIELD; j++)
			free(w->ev[i].f[j]);
	for (i = 0; i < w->nrdisp; i++) {
		free(w->rdisp[i].kernel);
		free(w->rdisp[i].tag);
	}
	free(w->codes);
	free(w->ev);
	free(w->rcode);
	free(w->rdisp);
	free(w->written);
	free(w->source);
	free(w->target);
	free(w->path);
	free(w->dir);
	free(w);
}

const char *
capture_writer_target(const struct capture_writer *w)
{
	return w->target;
}

int
capture_writer_meta(struct capture_writer *w, const struct tsv *t)
{
	struct meta_event *m;
	uint64_t v;
	int j;

	if (strcmp(t->field[0], "source") == 0 && t->nfield >= 2) {
		free(w->source);
		w->source = meta_dup(t->field[1]);
	} else if (strcmp(t->field[0], "target") == 0 && t->nfield >= 2) {
		free(w->target);
		w->target = meta_dup(t->field[1]);
	} else if (strcmp(t->field[0], "code") == 0) {
		if (t->nfield < 5)
			return tsv_why(t, w->err, w->errsize, "##code wants NAME TAG BASE SIZE [FILE]");
		w->codes = xreallocarray(w->codes, w->ncodes + 1, sizeof(*w->codes));
		w->codes[w->ncodes].name = meta_dup(t->field[1]);
		w->codes[w->ncodes].tag = meta_dup(t->field[2]);
		w->codes[w->ncodes].base = meta_dup(t->field[3]);
		w->codes[w->ncodes].file = t->nfield > 5 ? meta_dup(t->field[5]) : NULL;
		if (asprintf(&w->codes[w->ncodes].where, "%s:%lu", t->path, t->line) < 0)
			die("out of memory");
		w->ncodes++;
	} else if (strcmp(t->field[0], "event") == 0) {
		if (t->nfield < 3 + EV_NFIELD)
			return tsv_why(t, w->err, w->errsize, "##event wants EVENT SE KERNEL TAG "
			    "ITRACE SA WGP SIMD [FILE]");
		if (meta_get_u64(t, 1, "event", EVENT_MAX, &v, w->err, w->errsize) != 0)
			return -1;
		w->ev = xreallocarray(w->ev, w->nev + 1, sizeof(*w->ev));
		m = &w->ev[w->nev++];
		m->event = v;
		m->order = w->nev;
		m->dispatch = -1;
		for (j = 0; j < EV_NFIELD; j++)
			m->f[j] = meta_dup(t->field[3 + j]);
		w->ev_sorted = 0;
		if (t->nfield > 10 && !meta_is_none(t->field[10])) {
			if (meta_get_u64(t, 10, "dispatch", INT64_MAX, &v, w->err, w->errsize) != 0)
				return -1;
			m->dispatch = (int64_t)v;
		}
	}
	return 0;
}

int
capture_writer_header(struct capture_writer *w)
{
	if (w->index == NULL)
		return 0;
	meta_begin(w->index, "stall-capture");
	meta_str(w->index, "1");
	meta_end(w->index);
	meta_begin(w->index, "target");
	meta_str_or_none(w->index, w->target);
	meta_end(w->index);
	return 0;
}

static int
cmp_event_number(const void *a, const void *b)
{
	const struct meta_event *x = a, *y = b;

	return (x->event > y->event) - (x->event < y->event);
}

static int
cmp_ev(const void *a, const void *b)
{
	const struct meta_event *x = a, *y = b;
	int c = cmp_event_number(a, b);

	return c ? c : (x->order > y->order) - (x->order < y->order);
}

/* The ##event line of an event (the first of its number), or NULL. */
static const struct meta_event *
event_meta(struct capture_writer *w, long event)
{
	struct meta_event key = { .event = (uint64_t)event }, *m;

	if (!w->ev_sorted) {
		/* once: the ##event lines come before the rows; the first of a number wins */
		xqsort(w->ev, w->nev, sizeof(*w->ev), cmp_ev);
		w->ev_sorted = 1;
	}
	m = w->nev ? bsearch(&key, w->ev, w->nev, sizeof(*w->ev), cmp_event_number) : NULL;
	while (m != NULL && m > w->ev && m[-1].event == key.event)
		m--;
	return m;
}

/* The dispatch an event's stream is named by, as rocprofv3 names its streams: the
 * ##event line's dispatch, else the event number. */
static int64_t
event_dispatch(struct capture_writer *w, long event)
{
	const struct meta_event *m = event_meta(w, event);

	return m != NULL && m->dispatch >= 0 ? m->dispatch : event;
}

static void
run_dispatch(struct capture_writer *w, int64_t id, const char *kernel, const char *tag)
{
	size_t i;

	for (i = 0; i < w->nrdisp; i++)
		if (w->rdisp[i].id == id)
			return;
	w->rdisp = xreallocarray(w->rdisp, w->nrdisp + 1, sizeof(*w->rdisp));
	w->rdisp[w->nrdisp].id = id;
	w->rdisp[w->nrdisp].kernel = kernel ? xstrdup(kernel) : NULL;
	w->rdisp[w->nrdisp++].tag = tag ? xstrdup(tag) : NULL;
}

/* The kernel (program) a dispatch ran: by name and tag, as sqtt-walk matches them. */
static long
run_kernel(const struct capture_writer *w, const struct run_dispatch *d)
{
	size_t i;

	for (i = w->nrcode; d->kernel != NULL && i-- > 0;)
		if (w->rcode[i].name != NULL && strcmp(w->rcode[i].name, d->kernel) == 0 &&
		    (d->tag == NULL || (w->rcode[i].tag != NULL &&
		    strcmp(w->rcode[i].tag, d->tag) == 0)))
			return (long)i;
	return -1;
}

FILE *
capture_writer_open(struct capture_writer *w, long event, int se, const char **path)
{
	int64_t d = event_dispatch(w, event);
	char *name = rocprof_stream_name(&w->layout, se, d);
	size_t i;
	FILE *fp;

	if (asprintf(&w->path, "%s/%s", w->dir, name) < 0)
		die("out of memory");
	free(name);
	for (i = 0; i < w->nwritten; i++)
		if (w->written[i].se == se && w->written[i].dispatch == d) {
			fail(w, "%s: a second buffer of dispatch %" PRId64 " on shader engine %d",
			    w->path, d, se);
			return NULL;
		}
	w->written = xreallocarray(w->written, w->nwritten + 1, sizeof(*w->written));
	w->written[w->nwritten].se = se;
	w->written[w->nwritten++].dispatch = d;
	if ((fp = fopen(w->path, "wb")) == NULL) {
		fail_errno(w, w->path);
		return NULL;
	}
	*path = w->path;
	return fp;
}

int
capture_writer_close(struct capture_writer *w, long event, int se, FILE *fp)
{
	static const char *const none[EV_NFIELD] = { NULL, NULL, "1", NULL, NULL, NULL };
	const char *const *f = none;
	const struct meta_event *m = event_meta(w, event);
	int64_t d = event_dispatch(w, event);
	char *file;
	int j, r = 0;

	if (m != NULL)
		f = (const char *const *)m->f;
	run_dispatch(w, d, f[EV_KERNEL], f[EV_TAG]);
	if (w->index != NULL) {
		meta_begin(w->index, "event");
		fprintf(w->index, "\t%ld\t%d", event, se);
		for (j = 0; j < EV_NFIELD; j++)
			meta_str_or_none(w->index, f[j]);
		file = rocprof_stream_name(&w->layout, se, d);
		meta_str(w->index, file);
		free(file);
		fprintf(w->index, "\t%" PRId64, d);
		meta_end(w->index);
	}
	if (fclose(fp) != 0)
		r = fail_errno(w, w->path);
	free(w->path);
	w->path = NULL;
	return r;
}

static int
write_file(struct capture_writer *w, const uint8_t *data, size_t len, const char *to)
{
	FILE *fp;

	if ((fp = fopen(to, "wb")) == NULL)
		return fail_errno(w, to);
	if (fwrite(data, 1, len, fp) != len) {
		fclose(fp);
		return fail_errno(w, to);
	}
	if (fclose(fp) != 0)
		return fail_errno(w, to);
	return 0;
}

/* A code object a ##code line names.  The stream is data: what it names is read only if
 * it is an ELF file of at most CAPTURE_CODE_MAX bytes, so a forged line cannot copy
 * another file (a key, /etc/passwd, /dev/zero) into the capture. */
static uint8_t *
read_code(struct capture_writer *w, const struct meta_code *m, size_t *len)
{
	const char *path = m->file;
	char why[256];
	struct input *in = input_open_why(path, why, sizeof(why));
	uint8_t head[4];
	size_t n = 0, got;

	if (in == NULL) {	/* the line that named it said first */
		fail(w, "%s: %s", m->where, why);
		return NULL;
	}

	while (n < 4 && (got = input_read(in, head + n, 4 - n)) > 0)
		n += got;
	if (n < 4 || memcmp(head, "\177ELF", 4) != 0) {
		input_close(in);
		fail(w, "%s: %s: not an ELF file: not a code object", m->where, path);
		return NULL;
	}
	return input_slurp_rest(in, head, n, CAPTURE_CODE_MAX, "a code object", len);
}

/* The directory's code objects: from the files the ##code lines name, or from the
 * ##source capture when they live inside it. */
int
capture_writer_codes(struct capture_writer *w)
{
	struct capture cap;
	int have_cap = 0, r = 0;
	size_t i, j, len;
	char *path, *name, why[160];

	if (w->dir == NULL || w->codes_done)
		return 0;
	w->codes_done = 1;
	w->layout.target = w->target;
	for (i = 0; i < w->ncodes && r == 0; i++) {
		const uint8_t *data = NULL;
		uint8_t *owned = NULL;
		struct meta_code *m = &w->codes[i];
		struct run_code *rc;
		if (m->file != NULL) {
			if ((data = owned = read_code(w, m, &len)) == NULL)
				return -1;
		} else if (w->source != NULL) {
			if (!have_cap) {
				if (capture_open(&cap, w->source, NULL, w->err, w->errsize) != 0)
					return -1;
				have_cap = 1;
			}
			for (j = 0; j < cap.nprog; j++)
				if (m->name != NULL && strcmp(cap.prog[j].name, m->name) == 0)
					data = capture_code(&cap, j, &len);
		}
		if (data == NULL) {
			r = w->source ? fail(w, "%s: no code object for program %s: the ##code line "
			    "names no file, and the ##source capture %s has no program of that name",
			    m->where, m->name ? m->name : "-", w->source) :
			    fail(w, "%s: no code object for program %s: the ##code line names no "
			    "file, and there is no ##source capture", m->where, m->name ? m->name :
			    "-");
			break;
		}
		name = rocprof_code_name(&w->layout, i);
		if (asprintf(&path, "%s/%s", w->dir, name) < 0)
			die("out of memory");
		r = write_file(w, data, len, path);
		w->rcode = xreallocarray(w->rcode, w->nrcode + 1, sizeof(*w->rcode));
		rc = memset(&w->rcode[w->nrcode], 0, sizeof(*w->rcode));
		rc->name = m->name;
		rc->tag = m->tag;
		rc->base = m->base ? strtoull(m->base, NULL, 0) : 0;
		rc->has_entry = m->name != NULL && elfsym_kernel(data, len, m->name, &rc->entry,
		    &rc->kd, why, sizeof(why)) == 1;
		rc->size = elfsym_load_size(data, len);
		w->nrcode++;
		if (r == 0 && w->index != NULL) {
			meta_begin(w->index, "code");
			meta_str_or_none(w->index, m->name);
			meta_str_or_none(w->index, m->tag);
			meta_str_or_none(w->index, m->base);
			fprintf(w->index, "\t%zu", len);
			meta_str(w->index, name);
			meta_end(w->index);
		}
		free(name);
		free(path);
		free(owned);
	}
	if (have_cap)
		capture_close(&cap);
	return r;
}

/* The run's results (rocprof.h): the code objects with their load bases, a kernel
 * symbol for each program, the dispatches with the kernel each ran. */
int
capture_writer_finish(struct capture_writer *w)
{
	struct rocprof_kernel *k;
	struct rocprof_run_dispatch *d;
	size_t i;

	if (w->dir == NULL)
		return 0;
	if (capture_writer_codes(w) != 0)
		return -1;
	w->layout.target = w->target;
	k = xcalloc(w->nrcode + 1, sizeof(*k));
	d = xcalloc(w->nrdisp + 1, sizeof(*d));
	for (i = 0; i < w->nrcode; i++) {
		k[i].name = w->rcode[i].name;
		k[i].base = w->rcode[i].base;
		k[i].size = w->rcode[i].size;
		k[i].entry = w->rcode[i].entry;
		k[i].kd = w->rcode[i].kd;
		k[i].has_entry = w->rcode[i].has_entry;
	}
	for (i = 0; i < w->nrdisp; i++) {
		d[i].id = w->rdisp[i].id;
		d[i].kernel = run_kernel(w, &w->rdisp[i]);
	}
	rocprof_write_results(w->dir, &w->layout, k, w->nrcode, d, w->nrdisp);
	free(k);
	free(d);
	if (w->index != NULL) {
		FILE *fp = w->index;
		w->index = NULL;
		if (fclose(fp) != 0)
			return fail(w, "%s/capture.tsv: %s", w->dir, strerror(errno));
	}
	return 0;
}
