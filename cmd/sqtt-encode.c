/* sqtt-encode: the packet stream back into raw SQTT bytes (the inverse of sqtt-dump). */
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "capture.h"
#include "input.h"
#include "sqtt.h"
#include "tsv.h"
#include "util.h"

static void __attribute__((noreturn))
usage(void)
{
	fprintf(stderr, "usage: %s [-h] [-e event] [-o file | -d dir] [packets.tsv]\n",
	    getprogname());
	exit(2);
}

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

static void
nibw_token(struct nibw *w, uint64_t raw, unsigned bits)
{
	unsigned i;

	for (i = 0; i < bits; i += 4)
		nibw_put(w, (unsigned)((raw >> i) & 15));
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

struct col {
	int event, se, nib, time, type, wave, simd, wgp, sa, op, raw;
};

static inline uint64_t
setbits(uint64_t raw, unsigned lo, unsigned hi, uint64_t v)
{
	uint64_t mask = ((1ULL << (hi - lo)) - 1) << lo;

	return (raw & ~mask) | ((v << lo) & mask);
}

static int
field(const struct tsv *t, int c, int *v)
{
	if (c < 0 || tsv_dash(t, c))
		return 0;
	*v = (int)tsv_u64(t, c);
	return 1;
}

/* Build a token's bits from its fields, for rows written without raw. */
static uint64_t
build(const struct tsv *t, const struct col *c, enum sqtt_type type)
{
	const struct sqtt_typeinfo *ti = &sqtt_types[type];
	uint64_t raw = ti->pattern;
	int v;

	switch (type) {
	case TOK_HEADER:
		raw = 0x68900191;	/* as the 7900 XTX writes it: version 3, one SA of 4 WGPs */
		if (field(t, c->simd, &v)) raw = setbits(raw, 13, 15, (uint64_t)v);
		if (field(t, c->wgp, &v)) raw = setbits(raw, 15, 18, (uint64_t)v);
		if (field(t, c->sa, &v)) raw = setbits(raw, 19, 20, (uint64_t)v);
		break;
	case TOK_WAVE_START:
		raw = setbits(raw, 23, 24, 1);	/* me */
		if (field(t, c->sa, &v)) raw = setbits(raw, 7, 8, (uint64_t)v);
		if (field(t, c->simd, &v)) raw = setbits(raw, 8, 10, (uint64_t)v);
		if (field(t, c->wgp, &v)) raw = setbits(raw, 10, 13, (uint64_t)v);
		if (field(t, c->wave, &v)) raw = setbits(raw, 13, 18, (uint64_t)v);
		break;
	case TOK_WAVE_END:
		if (field(t, c->sa, &v)) raw = setbits(raw, 8, 9, (uint64_t)v);
		if (field(t, c->simd, &v)) raw = setbits(raw, 9, 11, (uint64_t)v);
		if (field(t, c->wgp, &v)) raw = setbits(raw, 11, 14, (uint64_t)v);
		if (field(t, c->wave, &v)) raw = setbits(raw, 15, 20, (uint64_t)v);
		break;
	case TOK_INST:
		if (field(t, c->wave, &v)) raw = setbits(raw, 8, 13, (uint64_t)v);
		if (c->op < 0 || tsv_dash(t, c->op))
			tsv_fail(t, "INST without op");
		if ((v = sqtt_op_code(t->field[c->op])) < 0)
			tsv_fail(t, "unknown INST op '%s'", t->field[c->op]);
		raw = setbits(raw, 13, 20, (uint64_t)v);
		break;
	case TOK_VALU_INST:
	case TOK_IMM_ONE:
		if (field(t, c->wave, &v)) raw = setbits(raw, 7, 12, (uint64_t)v);
		break;
	case TOK_ALU_EXEC:
	case TOK_VMEM_EXEC:
		if (field(t, c->op, &v)) raw = setbits(raw, 6, 8, (uint64_t)v);
		break;
	case TOK_TIME:
	case TOK_TIMESTAMP:
	case TOK_NOP:
	case TOK_MISC:
	case TOK_EVENT:
		break;
	default:
		tsv_fail(t, "%s needs its raw bits", ti->name);
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
			nibw_token(w, sqtt_types[TOK_TIME].pattern | ((gap - 4) << 4), 8);
			gap = 0;
		} else {
			uint64_t v = gap > 0xfffffffffULL ? 0xfffffffffULL : gap;
			if (gap - v > 0 && gap - v < 4)
				v -= 4;	/* leave what a TIME can carry */
			nibw_token(w, sqtt_types[TOK_TIMESTAMP].pattern | (v << 12), 48);
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
static const char *opt_out;
static long opt_event = -1;

/* What the ## lines of the input said, for the directory's capture.tsv. */
struct meta_code { char *name, *tag, *base, *file; };
struct meta_event { long event; char *line; };
static struct meta_code *codes;
static size_t ncodes;
static char *source, *target;
static char **evlines;
static size_t nevlines;
static FILE *index_fp;

static void
open_event(struct encoder *e, long event, int se)
{
	char *path;

	memset(&e->w, 0, sizeof(e->w));
	e->event = event;
	e->se = se;
	e->time = 0;
	e->tokens = 0;
	e->open = 1;
	if (opt_dir != NULL) {
		if (asprintf(&path, "%s/stall_shader_engine_%d_%ld.att", opt_dir, se, event) < 0)
			err(2, NULL);
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
}

static void
close_event(struct encoder *e)
{
	if (!e->open)
		return;
	nibw_finish(&e->w);
	if (opt_dir != NULL) {
		size_t i;
		const char *kernel = "-", *tag = "-", *itrace = "1", *sa = "-", *wgp = "-", *simd = "-";
		char *copy = NULL;
		for (i = 0; i < nevlines; i++) {
			char *f[10], *s, *p;
			int n = 0;
			copy = xstrdup(evlines[i]);
			for (p = copy; n < 10 && (s = strsep(&p, "\t")) != NULL;)
				f[n++] = s;
			if (n >= 8 && atol(f[1]) == e->event) {
				kernel = f[3]; tag = f[4]; itrace = f[5]; sa = f[6]; wgp = f[7];
				simd = n > 8 ? f[8] : "-";
				break;
			}
			free(copy);
			copy = NULL;
		}
		fprintf(index_fp, "##event\t%ld\t%d\t%s\t%s\t%s\t%s\t%s\t%s\tstall_shader_engine_%d_%ld.att\n",
		    e->event, e->se, kernel, tag, itrace, sa, wgp, simd, e->se, e->event);
		free(copy);
	}
	if (e->w.fp != stdout) {
		if (fclose(e->w.fp) != 0)
			err(2, "%s", e->w.path);
		if (opt_dir != NULL)
			free((char *)e->w.path);
	}
	e->open = 0;
}

static void
encode_row(struct encoder *e, const struct tsv *t, const struct col *c)
{
	enum sqtt_type type;
	const struct sqtt_typeinfo *ti;
	uint64_t raw, time, nib, delta;

	type = sqtt_type_by_name(t->field[c->type]);
	if (type == TOK_NTYPES)
		tsv_fail(t, "unknown token type '%s'", t->field[c->type]);
	ti = &sqtt_types[type];
	time = tsv_u64(t, c->time);
	if (!tsv_dash(t, c->nib)) {
		/* placed: exactly these bits at exactly this nibble */
		nib = tsv_u64(t, c->nib);
		if (nib < e->w.nib)
			tsv_fail(t, "nibble %" PRIu64 " overlaps the previous token (which ends at %" PRIu64 ")",
			    nib, e->w.nib);
		if (c->raw < 0 || tsv_dash(t, c->raw))
			tsv_fail(t, "a token with a nib needs its raw bits");
		raw = tsv_u64(t, c->raw);
		while (e->w.nib < nib)
			nibw_put(&e->w, 0);
		nibw_token(&e->w, raw, ti->bits);
		e->time += sqtt_delta(type, raw);
		if (e->time != time)
			tsv_fail(t, "time %" PRIu64 ", but the token's delta makes it %" PRIu64,
			    time, e->time);
		e->tokens++;
		return;
	}
	/* packed: deltas computed from time */
	if (time < e->time)
		tsv_fail(t, "time %" PRIu64 " goes back (previous token at %" PRIu64 ")", time, e->time);
	raw = (c->raw >= 0 && !tsv_dash(t, c->raw)) ? tsv_u64(t, c->raw) : build(t, c, type);
	delta = time - e->time;
	if (type == TOK_NOP || type == TOK_UNKNOWN) {
		fill_gap(&e->w, delta);
	} else if (type == TOK_TIMESTAMP) {
		raw = setbits(raw, 9, 10, 0);
		if (delta > 0xfffffffffULL) {
			fill_gap(&e->w, delta - 0xfffffffffULL);
			delta = 0xfffffffffULL;
		}
		raw = setbits(raw, 12, 48, delta);
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

/* The directory's code objects: from the files the ##code lines name, or from the
 * ##source capture when they live inside it. */
static void
write_codes(void)
{
	struct capture cap;
	int have_cap = 0;
	size_t i, j, len;
	char *path;

	for (i = 0; i < ncodes; i++) {
		const uint8_t *data = NULL;
		uint8_t *owned = NULL;
		struct meta_code *m = &codes[i];
		if (strcmp(m->file, "-") != 0) {
			data = owned = input_slurp(m->file, &len);
		} else if (source != NULL) {
			if (!have_cap) {
				capture_open(&cap, source, NULL);
				have_cap = 1;
			}
			for (j = 0; j < cap.nprog; j++)
				if (strcmp(cap.prog[j].name, m->name) == 0)
					data = capture_code(&cap, j, &len);
		}
		if (data == NULL)
			errx(2, "%s: no code object for program %s", source ? source : "-", m->name);
		if (asprintf(&path, "%s/stall_code_object_id_%zu.out", opt_dir, i) < 0)
			err(2, NULL);
		write_file(data, len, path);
		fprintf(index_fp, "##code\t%s\t%s\t%s\t%zu\tstall_code_object_id_%zu.out\n",
		    m->name, m->tag, m->base, len, i);
		free(path);
		free(owned);
	}
	if (have_cap)
		capture_close(&cap);
}

static void
take_meta(const struct tsv *t)
{
	size_t i;
	char *line;

	if (strcmp(t->field[0], "source") == 0 && t->nfield >= 2) {
		free(source);
		source = xstrdup(t->field[1]);
	} else if (strcmp(t->field[0], "target") == 0 && t->nfield >= 2) {
		free(target);
		target = xstrdup(t->field[1]);
	} else if (strcmp(t->field[0], "code") == 0) {
		if (t->nfield < 5)
			tsv_fail(t, "##code wants NAME TAG BASE SIZE [FILE]");
		codes = xreallocarray(codes, ncodes + 1, sizeof(*codes));
		codes[ncodes].name = xstrdup(t->field[1]);
		codes[ncodes].tag = xstrdup(t->field[2]);
		codes[ncodes].base = xstrdup(t->field[3]);
		codes[ncodes].file = xstrdup(t->nfield > 5 ? t->field[5] : "-");
		ncodes++;
	} else if (strcmp(t->field[0], "event") == 0) {
		size_t n = 0;
		for (i = 0; i < t->nfield; i++)
			n += strlen(t->field[i]) + 1;
		if ((line = malloc(n + 1)) == NULL)
			err(2, NULL);
		line[0] = '\0';
		for (i = 0; i < t->nfield; i++) {
			if (i)
				strcat(line, "\t");
			strcat(line, t->field[i]);
		}
		evlines = xreallocarray(evlines, nevlines + 1, sizeof(*evlines));
		evlines[nevlines++] = line;
	}
}

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "dir", required_argument, NULL, 'd' },
		{ "event", required_argument, NULL, 'e' },
		{ "help", no_argument, NULL, 'h' },
		{ "output", required_argument, NULL, 'o' },
		{ NULL, 0, NULL, 0 }
	};
	struct encoder enc = { 0 };
	struct col c = { -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1 };
	struct tsv t;
	enum tsv_kind k;
	const char *path = "-", *errstr;
	FILE *in = stdin;
	int ch, codes_done = 0;
	long event, events_seen = 0, last_event = -1;
	char *ipath;

	while ((ch = getopt_long(argc, argv, "d:e:ho:", longopts, NULL)) != -1) {
		switch (ch) {
		case 'd':
			opt_dir = optarg;
			break;
		case 'e':
			opt_event = strtonum(optarg, 0, 1 << 30, &errstr);
			if (errstr)
				errx(2, "-e is %s: %s", errstr, optarg);
			break;
		case 'h':
			printf("usage: %s [-h] [-e event] [-o file | -d dir] [packets.tsv]\n"
			    "Encode a packet stream (sqtt-dump's output, or one written by hand) into\n"
			    "raw gfx11 SQTT bytes.\n\n"
			    "  -e, --event N    encode only trace buffer N\n"
			    "  -o, --output F   write the stream to F (default: standard output)\n"
			    "  -d, --dir DIR    write a capture directory: one .att stream per event,\n"
			    "                   the code objects, and capture.tsv (sqtt-dump reads it)\n"
			    "Rows with a nib are placed there with their raw bits; rows with nib '-' are\n"
			    "packed and their deltas computed from time. See sqtt-encode(1).\n",
			    getprogname());
			exit(0);
		case 'o':
			opt_out = optarg;
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (argc > 1 || (opt_dir && opt_out))
		usage();
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
		if ((index_fp = fopen(ipath, "w")) == NULL)
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
			c.event = tsv_need(&t, "event");
			c.se = tsv_col(&t, "se");
			c.nib = tsv_need(&t, "nib");
			c.time = tsv_need(&t, "time");
			c.type = tsv_need(&t, "type");
			c.wave = tsv_col(&t, "wave");
			c.simd = tsv_col(&t, "simd");
			c.wgp = tsv_col(&t, "wgp");
			c.sa = tsv_col(&t, "sa");
			c.op = tsv_col(&t, "op");
			c.raw = tsv_col(&t, "raw");
			if (index_fp != NULL)
				fprintf(index_fp, "##stall-capture\t1\n##target\t%s\n",
				    target ? target : "-");
			continue;
		}
		if (index_fp != NULL && !codes_done) {
			write_codes();
			codes_done = 1;
		}
		event = (long)tsv_u64(&t, c.event);
		if (opt_event >= 0 && event != opt_event)
			continue;
		if (event != last_event) {
			if (enc.open)
				close_event(&enc);
			if (opt_dir == NULL && ++events_seen > 1)
				tsv_fail(&t, "a second trace buffer (event %ld): choose one with -e, or write all with -d", event);
			open_event(&enc, event,
			    c.se >= 0 && !tsv_dash(&t, c.se) ? (int)tsv_u64(&t, c.se) : 0);
			last_event = event;
		}
		encode_row(&enc, &t, &c);
	}
	if (t.ncol == 0)
		errx(2, "%s: no '#' column header: not a packet stream", path);
	if (!enc.open && last_event < 0)
		errx(2, "%s: no tokens%s", path, opt_event >= 0 ? " for that event" : "");
	close_event(&enc);
	if (index_fp != NULL && !codes_done)
		write_codes();
	if (index_fp != NULL && fclose(index_fp) != 0)
		err(2, "capture.tsv");
	tsv_close(&t);
	if (in != stdin)
		fclose(in);
	if (fflush(stdout) != 0 || ferror(stdout))
		err(2, "stdout");
	return 0;
}
