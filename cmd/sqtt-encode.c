/* sqtt-encode: the packet stream back into raw SQTT bytes (the inverse of sqtt-dump). */
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "gfx9-encode.h"
#include "capture.h"
#include "elfsym.h"
#include "input.h"
#include "isa.h"
#include "rocprof.h"
#include "json.h"
#include "meta.h"
#include "sqtt.h"
#include "tsv.h"
#include "util.h"

static const struct cli cli = {
	.synopsis = {
		"[-h] [-e event] [-o file | -d dir [--no-index | --rocpd [--kernel-trace]]]",
		"\t[packets.tsv]",
		NULL
	},
	.options = "dir/d event/e kernel-trace no-index output/o rocpd",
	.help =
	    "Encode a packet stream (sqtt-dump's output, or one written by hand) into\n"
	    "raw SQTT bytes, gfx11 or gfx12 by the ##target line.\n"
	    "\n"
	    "  -e, --event N    encode only trace buffer N\n"
	    "  -o, --output F   write the stream to F (default: standard output)\n"
	    "  -d, --dir DIR    write a capture directory as rocprofv3 --att writes a run:\n"
	    "                   a .att stream per buffer, named by dispatch and shader\n"
	    "                   engine, the code objects, the results JSON; and\n"
	    "                   capture.tsv, the index sqtt-dump reads first\n"
	    "      --no-index   with -d: no capture.tsv, only what rocprofv3 writes\n"
	    "      --rocpd      with -d: rocprofv3's default run instead: HOST/PID_ names,\n"
	    "                   the rocpd database PID_results.db, no JSON, no capture.tsv\n"
	    "      --kernel-trace  with --rocpd: the dispatches' records too\n"
	    "  -h, --help       this text\n"
	    "      --version    the version\n"
	    "Rows with a nib are placed there with their raw bits; rows with nib '-' are\n"
	    "packed and their deltas computed from time. See sqtt-encode(1).\n",
};

/* Limits (sqtt-encode(1), LIMITS): the NOP padding before a placed token, the stream's
 * length, and the time one row may advance.  Far beyond real captures (their longest
 * NOP run is under 100 nibbles, their longest gap under 2^24 cycles), and they keep a
 * row from writing gigabytes. */
#define NIB_GAP_MAX (1ULL << 24)
#define NIB_MAX (1ULL << 32)
#define TIME_GAP_MAX (1ULL << 40)
#define EVENT_MAX (1 << 30)

/* A nibble writer over one output file. */
struct nibw {
	FILE *fp;
	const char *path;
	uint8_t buf[1 << 16];
	size_t len;		/* whole bytes in buf */
	uint64_t nib;		/* nibbles written so far */
	uint8_t half;		/* pending low nibble when nib is odd */
};

static void
nibw_flush(struct nibw *w)
{
	if (w->len && fwrite(w->buf, 1, w->len, w->fp) != w->len)
		err(2, "%s", w->path);
	w->len = 0;
}

static inline void
nibw_put(struct nibw *w, unsigned v)
{
	if (w->nib & 1) {
		if (w->len == sizeof(w->buf))
			nibw_flush(w);
		w->buf[w->len++] = (uint8_t)(w->half | (v << 4));
	} else {
		w->half = (uint8_t)(v & 15);
	}
	w->nib++;
}

/* bits [64,72) of the token nibw_token writes next, for one longer than 64 bits */
static unsigned raw_hi;

static void
nibw_token(struct nibw *w, uint64_t raw, unsigned bits)
{
	unsigned i;

	for (i = 0; i < bits && i < 64; i += 4)
		nibw_put(w, (unsigned)((raw >> i) & 15));
	for (; i < bits; i += 4)
		nibw_put(w, (raw_hi >> (i - 64)) & 15);
	raw_hi = 0;
}

/* The rest of the stream: zero nibbles that decode as NOP padding, at least the 16 that
 * let the last token decode, up to a whole 32-byte line as hardware writes. */
static void
nibw_finish(struct nibw *w)
{
	unsigned i;

	for (i = 0; i < 16; i++)
		nibw_put(w, 0);
	while (w->nib % 64)
		nibw_put(w, 0);
	nibw_flush(w);
}

static inline uint64_t
setbits(uint64_t raw, unsigned lo, unsigned hi, uint64_t v)
{
	uint64_t mask = ((1ULL << (hi - lo)) - 1) << lo;

	return (raw & ~mask) | ((v << lo) & mask);
}

/* Column c into bits [lo,hi) of raw; a value that does not fit is an error, never
 * masked into the bits. */
static uint64_t
put_field(const struct tsv *t, int c, uint64_t raw, unsigned lo, unsigned hi)
{
	uint64_t v;

	if (c < 0 || tsv_dash(t, c))
		return raw;
	v = tsv_u64(t, c);
	if (v >> (hi - lo))
		tsv_fail(t, "%s: %" PRIu64 " does not fit the token's %u bits", t->col[c], v,
		    hi - lo);
	return setbits(raw, lo, hi, v);
}

static uint64_t
put_fields(const struct tsv *t, const int *c, const struct sqtt_bits *fb, uint64_t raw,
    int op_done)
{
	const int col[SQTT_NFIELD] = { [SQTT_F_WAVE] = c[PKT_WAVE], [SQTT_F_SIMD] = c[PKT_SIMD],
		[SQTT_F_WGP] = c[PKT_WGP], [SQTT_F_SA] = c[PKT_SA], [SQTT_F_OP] = c[PKT_OP] };
	int f;

	for (f = 0; f < SQTT_NFIELD; f++)
		if (fb[f].hi && !(f == SQTT_F_OP && op_done))
			raw = put_field(t, col[f], raw, fb[f].lo, fb[f].hi);
	return raw;
}

/* The ##target's generation (the default model's when the stream names none): the
 * HEADER version the buffers are written with. */
static const struct isa_model *model;
static const struct sqtt_gen *gen;	/* its tokens */

/* Build a token's bits from its fields, for rows written without raw. */
static uint64_t
build(const struct tsv *t, const int *c, enum sqtt_type type)
{
	const struct sqtt_typeinfo *ti = &gen->types[type];
	const struct sqtt_bits *fb = gen->fields[type];
	uint64_t raw = ti->pattern;
	int v;

	switch (type) {
	case TOK_HEADER:
		/* as the generation's hardware writes it (gfx11: the 7900 XTX's, one SA of 4
		 * WGPs), in the model's version */
		raw = setbits(gen->header, 7, 13, model->sqtt_version);
		break;
	case TOK_WAVE_START:
		raw = setbits(raw, 23, 24, 1);	/* me */
		break;
	case TOK_INST:
		if (c[PKT_OP] < 0 || tsv_dash(t, c[PKT_OP]))
			tsv_fail(t, "INST without op");
		if ((v = sqtt_op_code(gen, t->field[c[PKT_OP]])) < 0)
			tsv_fail(t, "unknown INST op '%s'", t->field[c[PKT_OP]]);
		raw = setbits(raw, fb[SQTT_F_OP].lo, fb[SQTT_F_OP].hi, (uint64_t)v);
		break;
	default:
		break;
	}
	switch (type) {
	case TOK_HEADER: case TOK_WAVE_START: case TOK_WAVE_END: case TOK_INST:
	case TOK_VALU_INST: case TOK_IMM_ONE: case TOK_ALU_EXEC: case TOK_VMEM_EXEC:
		/* every field the token has, by the decoder's own table */
		raw = put_fields(t, c, fb, raw, type == TOK_INST);
		break;
	case TOK_TIME:
	case TOK_TIMESTAMP:
	case TOK_NOP:
	case TOK_MISC:
	case TOK_EVENT:
		break;
	default:
		tsv_fail(t, "%s needs its raw bits", sqtt_type_name(type));
	}
	return raw;
}

/* Time that must pass before a token of delta field width fw: TIME tokens for short
 * gaps, TIMESTAMP deltas (36 bits each) for long ones. */
static void
fill_gap(struct nibw *w, uint64_t gap)
{
	while (gap > 0) {
		if (gap >= 4 && gap <= 19) {
			nibw_token(w, gen->types[TOK_TIME].pattern | ((gap - 4) << 4), 8);
			gap = 0;
		} else {
			uint64_t v = gap > 0xfffffffffULL ? 0xfffffffffULL : gap;
			if (gap - v > 0 && gap - v < 4)
				v -= 4;	/* leave what a TIME can carry */
			nibw_token(w, gen->types[TOK_TIMESTAMP].pattern | (v << 12),
			    gen->types[TOK_TIMESTAMP].bits);
			gap -= v;
		}
	}
}

struct encoder {
	struct nibw w;
	int open;
	long event;
	int se;
	uint64_t time;
	uint64_t tokens;
};

static char *opt_dir;
static int opt_noindex;
static struct rocprof_layout layout;	/* -d: the run's file names */
static const char *opt_out;
static long opt_event = -1;

/* What the ## lines of the input said, for the directory's capture.tsv. */
struct meta_code { char *name, *tag, *base, *file; };
/* ##event EVENT SE KERNEL TAG ITRACE SA WGP SIMD FILE: the fields after SE */
enum { EV_KERNEL, EV_TAG, EV_ITRACE, EV_SA, EV_WGP, EV_SIMD, EV_NFIELD };
struct meta_event { uint64_t event; size_t order; char *f[EV_NFIELD]; int64_t dispatch; };
static struct meta_code *codes;
static size_t ncodes;
static char *source, *target;
static struct meta_event *evmeta;
static size_t nevmeta;
static FILE *index_fp;
/* The run as rocprofv3's results JSON has it: code objects, kernels, dispatches. */
struct run_code { char *name, *tag; uint64_t base, entry, kd, size; int has_entry; };
struct run_dispatch { int64_t id; char *kernel, *tag; };
static struct run_code *rcode;
static size_t nrcode;
static struct run_dispatch *rdisp;
static size_t nrdisp;
static struct { int se; int64_t dispatch; } *written;	/* the streams of -d */
static size_t nwritten;

static void
run_dispatch(int64_t id, const char *kernel, const char *tag)
{
	size_t i;

	for (i = 0; i < nrdisp; i++)
		if (rdisp[i].id == id)
			return;
	rdisp = xreallocarray(rdisp, nrdisp + 1, sizeof(*rdisp));
	rdisp[nrdisp].id = id;
	rdisp[nrdisp].kernel = kernel ? xstrdup(kernel) : NULL;
	rdisp[nrdisp++].tag = tag ? xstrdup(tag) : NULL;
}

/* The kernel (program) a dispatch ran: by name and tag, as sqtt-walk matches them. */
static long
run_kernel(const struct run_dispatch *d)
{
	size_t i;

	for (i = nrcode; d->kernel != NULL && i-- > 0;)
		if (rcode[i].name != NULL && strcmp(rcode[i].name, d->kernel) == 0 &&
		    (d->tag == NULL || (rcode[i].tag != NULL && strcmp(rcode[i].tag, d->tag) == 0)))
			return (long)i;
	return -1;
}

/* The run's results (rocprof.h): the code objects with their load bases, a kernel
 * symbol for each program, the dispatches with the kernel each ran. */
static void
write_results(void)
{
	struct rocprof_kernel *k = xcalloc(nrcode + 1, sizeof(*k));
	struct rocprof_run_dispatch *d = xcalloc(nrdisp + 1, sizeof(*d));
	size_t i;

	for (i = 0; i < nrcode; i++) {
		k[i].name = rcode[i].name;
		k[i].base = rcode[i].base;
		k[i].size = rcode[i].size;
		k[i].entry = rcode[i].entry;
		k[i].kd = rcode[i].kd;
		k[i].has_entry = rcode[i].has_entry;
	}
	for (i = 0; i < nrdisp; i++) {
		d[i].id = rdisp[i].id;
		d[i].kernel = run_kernel(&rdisp[i]);
	}
	rocprof_write_results(opt_dir, &layout, k, nrcode, d, nrdisp);
	free(k);
	free(d);
}

static int evmeta_sorted;

static int
cmp_event_number(const void *a, const void *b)
{
	const struct meta_event *x = a, *y = b;

	return (x->event > y->event) - (x->event < y->event);
}

static int
cmp_evmeta(const void *a, const void *b)
{
	const struct meta_event *x = a, *y = b;
	int c = cmp_event_number(a, b);

	return c ? c : (x->order > y->order) - (x->order < y->order);
}

/* The ##event line of an event (the first of its number), or NULL. */
static const struct meta_event *
event_meta(long event)
{
	struct meta_event key = { .event = (uint64_t)event }, *m;

	if (!evmeta_sorted) {
		/* once: the ##event lines come before the rows; the first of a number wins */
		if (nevmeta > 0)
			qsort(evmeta, nevmeta, sizeof(*evmeta), cmp_evmeta);
		evmeta_sorted = 1;
	}
	m = nevmeta ? bsearch(&key, evmeta, nevmeta, sizeof(*evmeta), cmp_event_number) : NULL;
	while (m != NULL && m > evmeta && m[-1].event == key.event)
		m--;
	return m;
}

/* The dispatch an event's stream is named by, as rocprofv3 names its streams: the
 * ##event line's dispatch, else the event number. */
static int64_t
event_dispatch(long event)
{
	const struct meta_event *m = event_meta(event);

	return m != NULL && m->dispatch >= 0 ? m->dispatch : event;
}

/* gfx9 (CDNA) streams: written by trace/gfx9-encode, through the nibble writer */
static int gfx9_out;
static struct gfx9_encoder g9enc;

static void
put_gfx9(void *w, uint64_t raw, unsigned bits)
{
	nibw_token(w, raw, bits);
}

static void
open_event(struct encoder *e, long event, int se)
{
	char *path;
	size_t i;

	memset(&e->w, 0, sizeof(e->w));
	e->event = event;
	e->se = se;
	e->time = 0;
	e->tokens = 0;
	e->open = 1;
	if (opt_dir != NULL) {
		char *name = rocprof_stream_name(&layout, se, event_dispatch(event));
		if (asprintf(&path, "%s/%s", opt_dir, name) < 0)
			err(2, NULL);
		free(name);
		for (i = 0; i < nwritten; i++)
			if (written[i].se == se && written[i].dispatch == event_dispatch(event))
				errx(2, "%s: a second buffer of dispatch %" PRId64 " on shader engine %d",
				    path, event_dispatch(event), se);
		written = xreallocarray(written, nwritten + 1, sizeof(*written));
		written[nwritten].se = se;
		written[nwritten++].dispatch = event_dispatch(event);
		e->w.path = path;
		if ((e->w.fp = fopen(path, "wb")) == NULL)
			err(2, "%s", path);
	} else if (opt_out != NULL) {
		e->w.path = opt_out;
		if ((e->w.fp = fopen(opt_out, "wb")) == NULL)
			err(2, "%s", opt_out);
	} else {
		e->w.path = "stdout";
		e->w.fp = stdout;
	}
	if (gfx9_out)
		gfx9_encode_begin(&g9enc, se, put_gfx9, &e->w);
}

static void
close_event(struct encoder *e)
{
	if (!e->open)
		return;
	nibw_finish(&e->w);
	if (opt_dir != NULL) {
		static const char *const none[EV_NFIELD] = { NULL, NULL, "1", NULL, NULL, NULL };
		const char *const *f = none;
		char *file;
		int j;
		const struct meta_event *m = event_meta(e->event);
		int64_t d = event_dispatch(e->event);
		if (m != NULL)
			f = (const char *const *)m->f;
		run_dispatch(d, f[EV_KERNEL], f[EV_TAG]);
		if (index_fp != NULL) {
			meta_begin(index_fp, "event");
			fprintf(index_fp, "\t%ld\t%d", e->event, e->se);
			for (j = 0; j < EV_NFIELD; j++)
				meta_str_or_none(index_fp, f[j]);
			file = rocprof_stream_name(&layout, e->se, d);
			meta_str(index_fp, file);
			free(file);
			fprintf(index_fp, "\t%" PRId64, d);
			meta_end(index_fp);
		}
	}
	if (e->w.fp != stdout) {
		if (fclose(e->w.fp) != 0)
			err(2, "%s", e->w.path);
		if (opt_dir != NULL)
			free((char *)e->w.path);
	}
	e->open = 0;
}

/* Raw bits given in the row must be a token of the row's type: the type column and the
 * bits never disagree in silence. */
static uint64_t
raw_of(const struct tsv *t, const int *c, enum sqtt_type type)
{
	const struct sqtt_typeinfo *ti = &gen->types[type];
	const char *name = sqtt_type_name(type);
	uint64_t raw;
	unsigned hi;
	int u;

	if (ti->bits > 64) {
		if (sqtt_raw_parse(t->field[c[PKT_RAW]], &raw, &hi) != 0 ||
		    (hi >> (ti->bits - 64)) != 0)
			tsv_fail(t, "raw %s is not a %u-bit %s token", t->field[c[PKT_RAW]],
			    ti->bits, name);
		raw_hi = hi;
	} else {
		raw = tsv_u64(t, c[PKT_RAW]);
	}
	if (type == TOK_UNKNOWN)
		return raw;
	if (ti->plen == 0)
		tsv_fail(t, "%s is no %s token", name, gen->name);
	if (ti->bits < 64 && raw >> ti->bits)
		tsv_fail(t, "raw %s is longer than a %s token (%u bits)", t->field[c[PKT_RAW]],
		    name, ti->bits);
	if ((raw & ((1ULL << ti->plen) - 1)) != ti->pattern)
		tsv_fail(t, "raw %s is not a %s token", t->field[c[PKT_RAW]], name);
	for (u = 0; u < TOK_UNKNOWN; u++)
		if (gen->types[u].plen > ti->plen &&
		    (raw & ((1ULL << gen->types[u].plen) - 1)) == gen->types[u].pattern)
			tsv_fail(t, "raw %s is a %s token, not %s", t->field[c[PKT_RAW]],
			    sqtt_type_name(u), name);
	return raw;
}

static void
encode_row(struct encoder *e, const struct tsv *t, const int *c)
{
	enum sqtt_type type;
	const struct sqtt_typeinfo *ti;
	uint64_t raw, time, nib, delta;
	char why[160];

	if (gfx9_out) {
		if (c[PKT_RAW] < 0 || gfx9_encode_line(&g9enc, t->field[c[PKT_TYPE]],
		    tsv_u64(t, c[PKT_TIME]), tsv_u64(t, c[PKT_RAW]), why, sizeof(why)) != 0)
			tsv_fail(t, "%s", c[PKT_RAW] < 0 ? "a gfx9 token needs its raw bits" : why);
		return;
	}
	type = sqtt_type_by_name(t->field[c[PKT_TYPE]]);
	if (type == TOK_NTYPES)
		tsv_fail(t, "unknown token type '%s'", t->field[c[PKT_TYPE]]);
	ti = &gen->types[type];
	time = tsv_u64(t, c[PKT_TIME]);
	if (!tsv_dash(t, c[PKT_NIB])) {
		/* placed: exactly these bits at exactly this nibble */
		nib = tsv_u64(t, c[PKT_NIB]);
		if (nib < e->w.nib)
			tsv_fail(t, "nibble %" PRIu64 " overlaps the previous token (which ends at %" PRIu64 ")",
			    nib, e->w.nib);
		if (nib - e->w.nib > NIB_GAP_MAX || nib + ti->bits / 4 > NIB_MAX)
			tsv_fail(t, "nib %" PRIu64 ": more than %llu nibbles after the previous "
			    "token, or past nibble %llu (the limits of sqtt-encode(1))", nib,
			    NIB_GAP_MAX, NIB_MAX);
		if (c[PKT_RAW] < 0 || tsv_dash(t, c[PKT_RAW]))
			tsv_fail(t, "a token with a nib needs its raw bits");
		raw = raw_of(t, c, type);
		while (e->w.nib < nib)
			nibw_put(&e->w, 0);
		nibw_token(&e->w, raw, ti->bits);
		e->time += sqtt_delta(gen, type, raw);
		if (e->time != time)
			tsv_fail(t, "time %" PRIu64 ", but the token's delta makes it %" PRIu64,
			    time, e->time);
		e->tokens++;
		return;
	}
	/* packed: deltas computed from time */
	if (time < e->time)
		tsv_fail(t, "time %" PRIu64 " goes back (previous token at %" PRIu64 ")", time, e->time);
	raw = (c[PKT_RAW] >= 0 && !tsv_dash(t, c[PKT_RAW])) ? raw_of(t, c, type) : build(t, c, type);
	delta = time - e->time;
	if (delta > TIME_GAP_MAX)
		tsv_fail(t, "time %" PRIu64 ": more than %llu cycles after the previous token "
		    "(the limit of sqtt-encode(1))", time, TIME_GAP_MAX);
	if (e->w.nib > NIB_MAX)
		tsv_fail(t, "the stream passes nibble %llu (the limit of sqtt-encode(1))", NIB_MAX);
	if (type == TOK_NOP || type == TOK_UNKNOWN) {
		fill_gap(&e->w, delta);
	} else if (type == TOK_TIMESTAMP) {
		raw = setbits(raw, gen->ts_rt, gen->ts_rt + 1, 0);
		if (delta > 0xfffffffffULL) {
			fill_gap(&e->w, delta - 0xfffffffffULL);
			delta = 0xfffffffffULL;
		}
		raw = setbits(raw, gen->ts_value.lo, gen->ts_value.hi, delta);
	} else if (type == TOK_TIME) {
		if (delta < 4)
			tsv_fail(t, "a TIME token advances time by 4 to 19, not %" PRIu64, delta);
		if (delta > 19)
			fill_gap(&e->w, delta - 19), delta = 19;
		raw = setbits(raw, 4, 8, delta - 4);
	} else if (ti->dhi == 0) {
		fill_gap(&e->w, delta);
	} else {
		uint64_t max = (1ULL << (ti->dhi - ti->dlo)) - 1;
		if (delta > max) {
			fill_gap(&e->w, delta);
			delta = 0;
		}
		raw = setbits(raw, ti->dlo, ti->dhi, delta);
	}
	if (ti->bits < 64)
		raw &= (1ULL << ti->bits) - 1;
	if (type != TOK_UNKNOWN)
		nibw_token(&e->w, raw, ti->bits);
	else
		nibw_put(&e->w, (unsigned)(raw & 15));
	e->time = time;
	e->tokens++;
}

static void
write_file(const uint8_t *data, size_t len, const char *to)
{
	FILE *fp;

	if ((fp = fopen(to, "wb")) == NULL)
		err(2, "%s", to);
	if (fwrite(data, 1, len, fp) != len || fclose(fp) != 0)
		err(2, "%s", to);
}

/* A code object a ##code line names.  The stream is data: what it names is read only if
 * it is an ELF file of at most CAPTURE_CODE_MAX bytes, so a forged line cannot copy
 * another file (a key, /etc/passwd, /dev/zero) into the capture. */
static uint8_t *
read_code(const char *path, size_t *len)
{
	struct input *in = input_open(path);
	uint8_t head[4];
	size_t n = 0, got;

	while (n < 4 && (got = input_read(in, head + n, 4 - n)) > 0)
		n += got;
	if (n < 4 || memcmp(head, "\177ELF", 4) != 0)
		errx(2, "%s: not an ELF file: not a code object", path);
	return input_slurp_rest(in, head, n, CAPTURE_CODE_MAX, "a code object", len);
}

/* The directory's code objects: from the files the ##code lines name, or from the
 * ##source capture when they live inside it. */
static void
write_codes(void)
{
	struct capture cap;
	int have_cap = 0;
	size_t i, j, len;
	char *path, *name, why[160];

	for (i = 0; i < ncodes; i++) {
		const uint8_t *data = NULL;
		uint8_t *owned = NULL;
		struct meta_code *m = &codes[i];
		if (m->file != NULL) {
			data = owned = read_code(m->file, &len);
		} else if (source != NULL) {
			if (!have_cap) {
				capture_open(&cap, source, NULL);
				have_cap = 1;
			}
			for (j = 0; j < cap.nprog; j++)
				if (m->name != NULL && strcmp(cap.prog[j].name, m->name) == 0)
					data = capture_code(&cap, j, &len);
		}
		if (data == NULL)
			errx(2, "%s: no code object for program %s", source ? source : "-",
			    m->name ? m->name : "-");
		name = rocprof_code_name(&layout, i);
		if (asprintf(&path, "%s/%s", opt_dir, name) < 0)
			err(2, NULL);
		write_file(data, len, path);
		rcode = xreallocarray(rcode, nrcode + 1, sizeof(*rcode));
		memset(&rcode[nrcode], 0, sizeof(*rcode));
		rcode[nrcode].name = m->name;
		rcode[nrcode].tag = m->tag;
		rcode[nrcode].base = m->base ? strtoull(m->base, NULL, 0) : 0;
		rcode[nrcode].has_entry = m->name != NULL && elfsym_kernel(data, len, m->name,
		    &rcode[nrcode].entry, &rcode[nrcode].kd, why, sizeof(why)) == 1;
		rcode[nrcode].size = elfsym_load_size(data, len);
		nrcode++;
		if (index_fp != NULL) {
			meta_begin(index_fp, "code");
			meta_str_or_none(index_fp, m->name);
			meta_str_or_none(index_fp, m->tag);
			meta_str_or_none(index_fp, m->base);
			fprintf(index_fp, "\t%zu", len);
			meta_str(index_fp, name);
			meta_end(index_fp);
		}
		free(name);
		free(path);
		free(owned);
	}
	if (have_cap)
		capture_close(&cap);
}

static void
take_meta(struct tsv *t)
{
	struct meta_event *m;
	int j;

	meta_parse(t);
	if (strcmp(t->field[0], "source") == 0 && t->nfield >= 2) {
		free(source);
		source = meta_dup(t->field[1]);
	} else if (strcmp(t->field[0], "target") == 0 && t->nfield >= 2) {
		const struct isa_target *it = meta_target(t, 1);
		model = it ? it->model : isa_default_model();
		gen = sqtt_gen_for_version(model->sqtt_version);
		if ((gfx9_out = isa_target_is_gfx9(it)) != 0)	/* CDNA: trace/gfx9-encode */
			gen = sqtt_gen_default();
		free(target);
		target = meta_dup(t->field[1]);
	} else if (strcmp(t->field[0], "code") == 0) {
		if (t->nfield < 5)
			tsv_fail(t, "##code wants NAME TAG BASE SIZE [FILE]");
		codes = xreallocarray(codes, ncodes + 1, sizeof(*codes));
		codes[ncodes].name = meta_dup(t->field[1]);
		codes[ncodes].tag = meta_dup(t->field[2]);
		codes[ncodes].base = meta_dup(t->field[3]);
		codes[ncodes].file = t->nfield > 5 ? meta_dup(t->field[5]) : NULL;
		ncodes++;
	} else if (strcmp(t->field[0], "event") == 0) {
		if (t->nfield < 3 + EV_NFIELD)
			tsv_fail(t, "##event wants EVENT SE KERNEL TAG ITRACE SA WGP SIMD [FILE]");
		evmeta = xreallocarray(evmeta, nevmeta + 1, sizeof(*evmeta));
		m = &evmeta[nevmeta++];
		m->event = meta_u64(t, 1, "event", EVENT_MAX);
		m->order = nevmeta;
		m->dispatch = t->nfield > 10 && !meta_is_none(t->field[10]) ?
		    (int64_t)meta_u64(t, 10, "dispatch", INT64_MAX) : -1;
		evmeta_sorted = 0;
		for (j = 0; j < EV_NFIELD; j++)
			m->f[j] = meta_dup(t->field[3 + j]);
	}
}

int
main(int argc, char *argv[])
{
	struct encoder enc = { 0 };
	int c[PKT_NCOL];
	struct tsv t;
	enum tsv_kind k;
	const char *path = "-";
	FILE *in = stdin;
	int ch, se, codes_done = 0;
	long event, events_seen = 0, last_event = -1;
	uint64_t u;
	char *ipath;

	model = isa_default_model();
	gen = sqtt_gen_for_version(model->sqtt_version);
	while ((ch = cli_getopt(argc, argv, &cli)) != -1) {
		switch (ch) {
		case 'd':
			opt_dir = optarg;
			break;
		case 'e':
			opt_event = cli_number("-e", optarg, 0, 1 << 30);
			break;
		case 'o':
			opt_out = optarg;
			break;
		case OPT_NO_INDEX:
			opt_noindex = 1;
			break;
		case OPT_ROCPD:
			layout.rocpd = opt_noindex = 1;
			break;
		case OPT_KERNEL_TRACE:
			layout.kernel_trace = 1;
			break;
		default:
			cli_usage(&cli);
		}
	}
	cli_operands(&cli, &argc, &argv, 0, 1);
	if ((opt_dir && opt_out) || (opt_noindex && !opt_dir) ||
	    (layout.kernel_trace && !layout.rocpd))
		cli_usage(&cli);
	if (argc == 1 && strcmp(argv[0], "-") != 0) {
		path = argv[0];
		if ((in = fopen(path, "r")) == NULL)
			err(2, "%s", path);
	}
	if (opt_dir != NULL) {
		if (mkdir(opt_dir, 0777) != 0 && errno != EEXIST)
			err(2, "%s", opt_dir);
		if (asprintf(&ipath, "%s/capture.tsv", opt_dir) < 0)
			err(2, NULL);
		rocprof_layout_init(&layout, opt_dir);
		if (opt_noindex) {
			if (unlink(ipath) != 0 && errno != ENOENT)
				err(2, "%s", ipath);
		} else if ((index_fp = fopen(ipath, "w")) == NULL)
			err(2, "%s", ipath);
		free(ipath);
	}
	tsv_open(&t, in, path);
	while ((k = tsv_next(&t)) != TSV_EOF) {
		if (k == TSV_META) {
			take_meta(&t);
			continue;
		}
		if (k == TSV_HEADER) {
			tsv_cols(&t, tsv_packet_col, PKT_NCOL, c, TSV_COL(PKT_EVENT) |
			    TSV_COL(PKT_NIB) | TSV_COL(PKT_TIME) | TSV_COL(PKT_TYPE));
			if (index_fp != NULL) {
				meta_begin(index_fp, "stall-capture");
				meta_str(index_fp, "1");
				meta_end(index_fp);
				meta_begin(index_fp, "target");
				meta_str_or_none(index_fp, target);
				meta_end(index_fp);
			}
			continue;
		}
		if (opt_dir != NULL && !codes_done) {
			layout.target = target;
			write_codes();
			codes_done = 1;
		}
		if ((u = tsv_u64(&t, c[PKT_EVENT])) > EVENT_MAX)
			tsv_fail(&t, "event: %" PRIu64 " is beyond %d", u, EVENT_MAX);
		event = (long)u;
		if (opt_event >= 0 && event != opt_event)
			continue;
		if (!enc.open || event != last_event) {
			/* a file is written once: an event's rows come together, in event order */
			if (enc.open && event < last_event)
				tsv_fail(&t, "event %ld after event %ld: the rows of an event must "
				    "come together, the events in increasing order", event, last_event);
			if (enc.open)
				close_event(&enc);
			if (opt_dir == NULL && ++events_seen > 1)
				tsv_fail(&t, "a second trace buffer (event %ld): choose one with -e, or write all with -d", event);
			se = 0;
			if (c[PKT_SE] >= 0 && !tsv_dash(&t, c[PKT_SE]) && (se = (int)tsv_u64(&t, c[PKT_SE])) > 255)
				tsv_fail(&t, "se: %s is not a shader engine 0..255", t.field[c[PKT_SE]]);
			open_event(&enc, event, se);
			last_event = event;
		}
		encode_row(&enc, &t, c);
	}
	if (t.ncol == 0)
		errx(2, "%s: no '#' column header: not a packet stream", path);
	if (!enc.open && last_event < 0)
		errx(2, "%s: no tokens%s", path, opt_event >= 0 ? " for that event" : "");
	close_event(&enc);
	layout.target = target;
	if (opt_dir != NULL && !codes_done)
		write_codes();
	if (opt_dir != NULL)
		write_results();
	rocprof_layout_free(&layout);
	if (index_fp != NULL && fclose(index_fp) != 0)
		err(2, "capture.tsv");
	tsv_close(&t);
	if (in != stdin)
		fclose(in);
	if (fflush(stdout) != 0 || ferror(stdout))
		err(2, "stdout");
	return 0;
}
