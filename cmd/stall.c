/* stall: where the waves of a capture wait.  The four stages of pipeline.md, decode, walk,
 * attr and profile, in one process with rows passed as structs: the table is the one
 *   sqtt-dump CAPTURE | sqtt-walk | stall-attr | stall-table
 * writes, at a tenth of the work.  See stall(1). */
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "attr.h"
#include "capture.h"
#include "input.h"
#include "out.h"
#include "report.h"
#include "sqtt.h"
#include "walk.h"

static struct report rep;
static struct walker *walker;
static struct attr *attr;
static const char *capture_path;

static void __attribute__((noreturn))
usage(void)
{
	fprintf(stderr, "usage: %s [-ahjr] [-n top] [-k kernel] [-s key] [--pretty | --tsv] "
	    "[--untraced] [--html file] [--trace-json file] capture\n", getprogname());
	exit(2);
}

/* attr's rows are the walker's: the row struct itself is what it holds and gives back */
static const void *
row_bytes(void *ctx, const void *handle, size_t *len)
{
	(void)ctx;
	*len = sizeof(struct walk_row);
	return handle;
}

static void
attr_warning(void *ctx, const char *msg)
{
	(void)ctx;
	warnx("warning: %s: %s", capture_path, msg);
}

static void
costed(void *ctx, const void *data, size_t len, int64_t cost, enum cause cause,
    const char *retired, int meta)
{
	(void)ctx;
	(void)len;
	if (!meta)
		report_row(&rep, (const struct walk_row *)data, cost, cause);
}

static void
walked(void *ctx, const struct walk_row *r)
{
	struct attr_row a;

	(void)ctx;
	a.event = (uint64_t)r->event;
	a.wave = r->wave;
	a.time = r->time;
	a.delta = r->delta;
	a.pc_known = 1;
	a.pc = r->pc;
	a.token = r->token;
	a.inst = r->in->text;
	a.cls = r->in->cls;
	a.dep = isa_dep_name(r->in->dep_id);
	if (attr_row(attr, &a, r) != 0)
		errx(2, "%s: event %ld: %s", capture_path, r->event, attr_error(attr));
}

struct file_source {
	struct input *in;
};

static size_t
refill_file(void *ctx, uint8_t *dst, size_t max)
{
	return input_read(((struct file_source *)ctx)->in, dst, max);
}

/* The tokens the walk needs: the rest of the stream is decoded and passed over. */
static int
walked_type(enum sqtt_type t)
{
	switch (t) {
	case TOK_HEADER: case TOK_REG: case TOK_WAVE_START: case TOK_WAVE_END: case TOK_INST:
	case TOK_VALU_INST: case TOK_IMM_ONE: case TOK_IMMEDIATE: case TOK_NEW_PC:
		return 1;
	default:
		return 0;
	}
}

static void
walk_buffer(const struct event *e)
{
	struct sqtt_decoder d;
	struct sqtt_token tok;
	struct sqtt_fields f;
	struct walk_packet pk;
	struct file_source src;
	int r;

	if (e->blob != NULL) {
		sqtt_init_mem(&d, e->blob, e->len);
	} else {
		src.in = input_open(e->file);
		sqtt_init_stream(&d, refill_file, &src);
	}
	pk.event = (long)e->index;
	pk.se = e->se;
	while ((r = sqtt_next(&d, &tok)) > 0) {
		if (!walked_type(tok.type))
			continue;
		sqtt_fields(&tok, &f);
		pk.time = tok.time;
		pk.type = tok.type;
		pk.wave = f.wave;
		pk.simd = f.simd;
		pk.wgp = f.wgp;
		pk.sa = f.sa;
		pk.op = f.op;
		pk.raw = tok.raw;
		if (walk_packet(walker, &pk) != 0)
			errx(2, "%s: event %u: %s", capture_path, e->index, walk_error(walker));
	}
	if (r < 0) {
		if (e->blob != NULL)
			errx(2, "%s: event %u: %s", capture_path, e->index, d.error);
		errx(2, "%s: %s", e->file, d.error);
	}
	if (d.unknown)
		warnx("warning: %s: event %u: %" PRIu64 " UNKNOWN tokens (not a gfx11 stream, or "
		    "damaged)", capture_path, e->index, d.unknown);
	if (d.lost)
		warnx("warning: %s: event %u: %" PRIu64 " TIMESTAMP tokens report lost packets",
		    capture_path, e->index, d.lost);
	if (e->blob == NULL)
		input_close(src.in);
	sqtt_free(&d);
}

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "all", no_argument, NULL, 'a' },
		{ "help", no_argument, NULL, 'h' },
		{ "html", required_argument, NULL, 'H' },
		{ "json", no_argument, NULL, 'j' },
		{ "kernel", required_argument, NULL, 'k' },
		{ "pretty", no_argument, NULL, 'p' },
		{ "raw", no_argument, NULL, 'r' },
		{ "sort", required_argument, NULL, 's' },
		{ "top", required_argument, NULL, 'n' },
		{ "trace-json", required_argument, NULL, 'T' },
		{ "tsv", no_argument, NULL, 't' },
		{ "untraced", no_argument, NULL, 'U' },
		{ NULL, 0, NULL, 0 }
	};
	struct report_opts ro = { .top = 10, .format = REPORT_AUTO, .sort = REPORT_CYCLES };
	const char *kernel = NULL, *errstr;
	struct capture cap;
	size_t i;
	int ch, raw = 0, nselected = 0;

	while ((ch = getopt_long(argc, argv, "ahjkn:prs:t", longopts, NULL)) != -1) {
		switch (ch) {
		case 'a':
			ro.top = 0;
			break;
		case 'h':
			printf("usage: %s [-ahjr] [-n top] [-k kernel] [-s key] [--pretty | --tsv] "
			    "[--untraced] [--html file] [--trace-json file] capture\n"
			    "Where the waves of a capture wait: sqtt-dump | sqtt-walk | stall-attr |\n"
			    "stall-table, in one process.\n\n"
			    "  -n, --top N        the N instructions of each kernel with the most cycles"
			    " (default 10)\n"
			    "  -a, --all          every instruction\n"
			    "  -r, --raw          charge every row its own delta (stall-attr --raw)\n"
			    "  -j, --json         JSON (stall-table --json)\n"
			    "  -k, --kernel NAME  only the trace buffers of kernel NAME (sqtt-dump -k)\n"
			    "  -s, --sort KEY     order by cycles (default), hits or pc\n"
			    "      --pretty       aligned text (the default on a terminal)\n"
			    "      --tsv          TSV (the default otherwise)\n"
			    "      --untraced     count waves without instruction tokens too\n"
			    "      --html FILE    also a self-contained HTML timeline (stall-table(1))\n"
			    "      --trace-json FILE  also the trace as Chrome trace events\n"
			    "  -h, --help         this text\n"
			    "See stall(1).\n", getprogname());
			exit(0);
		case 'H':
			ro.html = optarg;
			break;
		case 'j':
			ro.format = REPORT_JSON;
			break;
		case 'k':
			kernel = optarg;
			break;
		case 'n':
			ro.top = strtonum(optarg, 0, INT32_MAX, &errstr);
			if (errstr)
				errx(2, "--top is %s: %s", errstr, optarg);
			break;
		case 'p':
			ro.format = REPORT_PRETTY;
			break;
		case 'r':
			raw = 1;
			break;
		case 's':
			if (report_sort_key(optarg, &ro.sort) != 0)
				errx(2, "--sort: unknown key '%s' (cycles, hits or pc)", optarg);
			break;
		case 't':
			ro.format = REPORT_TSV;
			break;
		case 'T':
			ro.trace_json = optarg;
			break;
		case 'U':
			ro.untraced = 1;
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (argc != 1)
		usage();
	capture_path = argv[0];

	capture_open(&cap, capture_path, NULL);
	report_init(&rep, &ro, raw);
	walker = walk_new(walked, NULL);
	attr = attr_new(raw, costed, attr_warning, row_bytes, NULL);
	walk_source(walker, cap.path);
	for (i = 0; i < cap.nprog; i++) {
		const struct program *p = &cap.prog[i];
		char tag[24];
		size_t len = 0;
		const uint8_t *img = capture_code(&cap, i, &len);

		if (p->tag < 0)
			snprintf(tag, sizeof(tag), "-");
		else
			snprintf(tag, sizeof(tag), "%" PRId64, p->tag);
		walk_program(walker, p->name, tag, p->base, p->file, img, len);
	}
	for (i = 0; i < cap.nev; i++) {
		const struct program *p = capture_program(&cap, &cap.ev[i]);
		char tag[24];

		if (p == NULL || p->tag < 0)
			snprintf(tag, sizeof(tag), "-");
		else
			snprintf(tag, sizeof(tag), "%" PRId64, p->tag);
		walk_event(walker, (long)cap.ev[i].index, p ? p->name : "-", tag);
	}
	for (i = 0; i < cap.nev; i++) {
		const struct program *p = capture_program(&cap, &cap.ev[i]);
		if (kernel != NULL && (p == NULL || strcmp(p->name, kernel) != 0))
			continue;
		walk_buffer(&cap.ev[i]);
		nselected++;
	}
	walk_end(walker);
	if (attr_end(attr) != 0)
		errx(2, "%s: %s", capture_path, attr_error(attr));
	report_finish(&rep, &cap);
	if (walk_nfailed(walker))
		exit(2);
	walk_free(walker);
	attr_free(attr);
	capture_close(&cap);
	return 0;
}
