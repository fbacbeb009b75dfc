/* sqtt-dump: decode SQTT captures into the packet stream (pipeline.md). */
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "capture.h"
#include "input.h"
#include "meta.h"
#include "out.h"
#include "rgp.h"
#include "gfx9.h"
#include "sqtt.h"
#include "tsv.h"
#include "util.h"

static int opt_all, opt_counts;
static struct capture_opts copt;
static const char *opt_xdir, *opt_sdir, *opt_rgp;
static int type_wanted[TOK_NTYPES];
static int types_given;
static unsigned event_offset;	/* events of earlier captures on the command line */
static uint64_t total_unknown, total_lost;
static unsigned nselected, nnoprog;	/* buffers dumped; of them, with no program */
static uint64_t ntokens_out;		/* tokens (or counts) written */

static const struct cli cli = {
	.synopsis = {
		"[-ah] [--counts] [-e event] [-k kernel] [--types type[,type ...]] [-x dir] [-X dir]",
		"\t[--dispatch n] [--base [id=]addr] capture ...",
		"--raw [--se n] [-c code --base addr [--name kernel]] stream ...",
		"--rgp out.rgp [-e event] [-k kernel] [--dispatch n] [--base [id=]addr] capture",
		NULL
	},
	.options = "all/a counts types extract/x streams/X rgp " CAPTURE_OPTIONS,
	.help =
	    "Decode RDNA3 SQTT captures into the packet stream.\n"
	    "\n"
	    "  -a, --all          NOP and UNKNOWN tokens too\n"
	    "      --counts       counts per event and token type instead of tokens\n"
	    "  -e, --event N      only trace buffer N\n"
	    "  -k, --kernel NAME  only buffers that traced kernel NAME\n"
	    "      --dispatch N   only the buffers of dispatch N (rocprofv3's dispatch id)\n"
	    "      --base ID=ADDR a rocprofv3 run: code object ID is loaded at ADDR\n"
	    "      --types T,...  only these token types (AMD names, e.g. INST,WAVE_END)\n"
	    "  -x, --extract DIR  write each program's code object as DIR/NAME.hsaco\n"
	    "  -X, --streams DIR  write each selected buffer's raw stream as DIR/EVENT.att\n"
	    "      --rgp FILE     write the capture as a Radeon GPU Profiler file instead\n"
	    "      --raw          the captures are raw stream files\n"
	    "      --se N         raw: the shader engine (default 0)\n"
	    "  -c, --code FILE    raw: the code object; --base ADDR its load address;\n"
	    "      --name KERNEL  its kernel name\n"
	    "  -h, --help         this text\n"
	    "      --version      the version\n"
	    "A capture is a tinygrad profile pickle (.pkl, .pkl.gz), a rocprofv3 --att run\n"
	    "directory (or one sqtt-encode -d wrote), an RGP file (.rgp), or with --raw a\n"
	    "stream file.\n"
	    "See sqtt-dump(1).\n",
};

/* "event\tse\t", the same for every token of a buffer */
static char prefix[48];
static size_t prefix_len;
static size_t type_len[TOK_NTYPES];
static char type_pad[TOK_NTYPES][24];	/* names padded for one fixed-size copy */

static void
set_prefix(unsigned ev, int se)
{
	int t;

	if (se < 0)
		prefix_len = (size_t)snprintf(prefix, sizeof(prefix), "%u\t-\t", ev);
	else
		prefix_len = (size_t)snprintf(prefix, sizeof(prefix), "%u\t%d\t", ev, se);
	for (t = 0; t < TOK_NTYPES; t++) {
		type_len[t] = strlen(sqtt_type_name(t));
		memcpy(type_pad[t], sqtt_type_name(t), type_len[t]);
	}
}

static void
put_token(const struct sqtt_gen *g, const struct sqtt_token *tok)
{
	char *p;
	struct sqtt_fields f;
	size_t n;

	ntokens_out++;
	p = out_reserve();
	sqtt_fields(g, tok, &f);
	memcpy(p, prefix, sizeof(prefix));
	p += prefix_len;
	p = fmt_u64(p, tok->nib);
	*p++ = '\t';
	p = fmt_u64(p, tok->time);
	*p++ = '\t';
	memcpy(p, type_pad[tok->type], sizeof(type_pad[0]));
	p += type_len[tok->type];
	*p++ = '\t';
	p = fmt_int_or_dash(p, f.wave);
	*p++ = '\t';
	p = fmt_int_or_dash(p, f.simd);
	*p++ = '\t';
	p = fmt_int_or_dash(p, f.wgp);
	*p++ = '\t';
	p = fmt_int_or_dash(p, f.sa);
	*p++ = '\t';
	if (tok->type == TOK_NEW_PC && g->pc_op) {
		unsigned slot;
		uint64_t addr;
		sqtt_new_pc(g, tok->raw, tok->raw_hi, &slot, &addr);
		p = fmt_hex(p, addr);
	} else if (f.op < 0) {
		*p++ = '-';
	} else if (tok->type == TOK_INST) {
		const char *op = sqtt_op_name(g, (unsigned)f.op);
		if (op != NULL) {
			n = strlen(op);
			memcpy(p, op, n);
			p += n;
		} else {
			p += sprintf(p, "0x%02x", f.op);
		}
	} else {
		p = fmt_u64(p, (uint64_t)f.op);
	}
	*p++ = '\t';
	if (tok->raw_hi != 0)
		p += sprintf(p, "0x%x%016" PRIx64, tok->raw_hi, tok->raw);
	else
		p = fmt_hex(p, tok->raw);
	*p++ = '\n';
	out_commit(p);
}

/* -X: the event's stream as it is in the capture, for other decoders. */
static void
write_stream(const char *dir, const struct event *e, unsigned ev)
{
	char *path;
	FILE *fp;
	uint8_t buf[1 << 16];
	size_t n;

	if (asprintf(&path, "%s/%u.att", dir, ev) < 0)
		err(2, NULL);
	if ((fp = fopen(path, "wb")) == NULL)
		err(2, "%s", path);
	if (e->blob != NULL) {
		if (fwrite(e->blob, 1, e->len, fp) != e->len)
			err(2, "%s", path);
	} else {
		struct input *in = input_open(e->file);
		while ((n = input_read(in, buf, sizeof(buf))) > 0)
			if (fwrite(buf, 1, n, fp) != n)
				err(2, "%s", path);
		input_close(in);
	}
	if (fclose(fp) != 0)
		err(2, "%s", path);
	free(path);
}

/* A CDNA (gfx9) buffer: no HEADER, tokens of its own (trace/gfx9); --types by their names. */
static void
dump_gfx9(const struct event *e, unsigned ev, const uint8_t *data, size_t len)
{
	struct gfx9_decoder d;
	struct gfx9_token tok;
	uint64_t counts[G9_NTYPES] = { 0 };
	unsigned t;
	char *p;

	gfx9_init(&d, data, len);
	while (gfx9_next(&d, &tok)) {
		enum sqtt_type st = sqtt_type_by_name(gfx9_type_name(tok.type));
		if (types_given && (st == TOK_NTYPES || !type_wanted[st]))
			continue;
		if (opt_counts) {
			counts[tok.type]++;
			continue;
		}
		ntokens_out++;
		p = out_reserve();
		memcpy(p, prefix, sizeof(prefix));
		out_commit(gfx9_put(p + prefix_len, &tok));
	}
	for (t = 0; opt_counts && t < G9_NTYPES; t++) {
		int n;
		if (counts[t] == 0)
			continue;
		ntokens_out++;
		p = out_reserve();
		n = snprintf(p, OUT_LINEMAX, "%u\t%d\t%s\t%" PRIu64 "\n", ev, e->se,
		    gfx9_type_name((enum gfx9_type)t), counts[t]);
		out_commit(p + n);
	}
}

static void
dump_event(const struct event *e, const char *path)
{
	struct sqtt_decoder d;
	struct sqtt_token tok;
	struct capture_stream src;
	unsigned ev = event_offset + e->index;
	uint64_t local[TOK_NTYPES] = { 0 }, seen;
	int r, t;
	const uint8_t *g9;
	uint8_t *own;
	size_t g9len;

	if (opt_sdir != NULL)
		write_stream(opt_sdir, e, ev);
	set_prefix(ev, e->se);
	if ((g9 = capture_gfx9_stream(e, &g9len, &own)) != NULL) {
		dump_gfx9(e, ev, g9, g9len);
		free(own);
		return;
	}
	capture_decoder(e, &d, &src);
	if (opt_counts) {
		r = sqtt_count(&d, local);
	} else {
		while ((r = sqtt_next(&d, &tok)) > 0) {
			if (types_given ? !type_wanted[tok.type] :
			    !opt_all && (tok.type == TOK_NOP || tok.type == TOK_UNKNOWN))
				continue;
			put_token(d.gen, &tok);
		}
	}
	if (r < 0) {
		out_flush();
		fflush(stdout);
		if (e->blob != NULL)
			errx(2, "%s: event %u: %s", path, ev, d.error);
		errx(2, "%s: %s", e->file, d.error);
	}
	if (opt_counts) {
		for (t = 0; t < TOK_NTYPES; t++) {
			char *p;
			int n;
			if (local[t] == 0 || (t == TOK_NOP && !opt_all) ||
			    (types_given && !type_wanted[t]))
				continue;
			ntokens_out++;
			p = out_reserve();
			n = snprintf(p, OUT_LINEMAX, "%u\t%d\t%s\t%" PRIu64 "\n", ev, e->se,
			    sqtt_type_name(t), local[t]);
			out_commit(p + n);
		}
	}
	seen = d.ntokens;
	if (opt_counts)
		for (seen = 0, t = 0; t < TOK_NTYPES; t++)
			seen += local[t];
	if (sqtt_is_noise(d.unknown, seen)) {
		out_flush();
		fflush(stdout);
		errx(2, "%s: event %u: %" PRIu64 " of %" PRIu64 " tokens UNKNOWN: random bytes "
		    "or a damaged stream, not gfx11 SQTT", e->blob ? path : e->file, ev, d.unknown,
		    seen);
	}
	total_unknown += d.unknown;
	total_lost += d.lost;
	capture_decoder_end(&d, &src);
}

static void
write_code(const char *dir, struct capture *c, size_t i)
{
	char *path;
	size_t len;
	static char **written;	/* the escaped names written so far, in this run */
	static size_t nwritten;
	const uint8_t *code = capture_code(c, i, &len);
	FILE *fp;
	char *name;
	size_t n, j;

	if (code == NULL)
		return;
	/* two programs of one name (or one file name) get NAME.hsaco, NAME~2.hsaco, ...:
	 * none is written over another ('~' is never in an escaped name) */
	name = meta_file_name(c->prog[i].name);
	for (n = 1, j = 0; j < nwritten; j++)
		if (strcmp(written[j], name) == 0)
			n++;
	written = xreallocarray(written, nwritten + 1, sizeof(*written));
	written[nwritten++] = name;
	if ((n == 1 ? asprintf(&path, "%s/%s.hsaco", dir, name) :
	    asprintf(&path, "%s/%s~%zu.hsaco", dir, name, n)) < 0)
		err(2, NULL);
	if ((fp = fopen(path, "wb")) == NULL)
		err(2, "%s", path);
	if (fwrite(code, 1, len, fp) != len || fclose(fp) != 0)
		err(2, "%s", path);
	free(path);
}

static int
selected_event(const struct capture *c, const struct event *e, void *arg)
{
	(void)arg;
	return capture_selects(&copt, c, e, event_offset);
}

static void
put_meta(struct capture *c, int *header_done)
{
	size_t i;

	capture_put_meta(stdout, c, event_offset, selected_event, NULL);
	for (i = 0; opt_xdir != NULL && i < c->nprog; i++)
		write_code(opt_xdir, c, i);
	if (!*header_done) {
		if (opt_counts)
			printf("#event\tse\ttype\tcount\n");
		else
			tsv_put_header(stdout, tsv_packet_col, PKT_NCOL, NULL);
		*header_done = 1;
	}
}

static void
parse_types(char *arg)
{
	char *s;
	enum sqtt_type t;

	types_given = 1;
	while ((s = strsep(&arg, ",")) != NULL) {
		if ((t = sqtt_type_by_name(s)) == TOK_NTYPES)
			errx(2, "--types: unknown token type '%s'", s);
		type_wanted[t] = 1;
	}
}

int
main(int argc, char *argv[])
{
	struct capture c;
	int ch, i, header_done = 0;
	size_t j;
	while ((ch = cli_getopt(argc, argv, &cli)) != -1) {
		switch (ch) {
		case 'a':
			opt_all = 1;
			break;
		case OPT_COUNTS:
			opt_counts = 1;
			break;
		case OPT_TYPES:
			parse_types(optarg);
			break;
		case 'x':
			opt_xdir = optarg;
			break;
		case 'X':
			opt_sdir = optarg;
			break;
		case OPT_RGP:
			opt_rgp = optarg;
			break;
		default:
			if (!capture_option(&copt, ch, optarg))
				cli_usage(&cli);
		}
	}
	cli_operands(&cli, &argc, &argv, 1, opt_rgp != NULL ? 1 : -1);
	if (opt_rgp != NULL) {
		if (opt_all || opt_counts || types_given || opt_xdir || opt_sdir)
			cli_usage(&cli);
		capture_open(&c, argv[0], &copt);
		for (j = 0; j < c.nev && !capture_selects(&copt, &c, &c.ev[j], 0); j++)
			;
		if (j == c.nev)
			capture_selects_none(&copt, argv[0], c.nev);
		rgp_write(&c, opt_rgp, selected_event, NULL);
		capture_close(&c);
		return 0;
	}
	if (opt_xdir != NULL && mkdir(opt_xdir, 0777) != 0 && errno != EEXIST)
		err(2, "%s", opt_xdir);
	if (opt_sdir != NULL && mkdir(opt_sdir, 0777) != 0 && errno != EEXIST)
		err(2, "%s", opt_sdir);

	for (i = 0; i < argc; i++) {
		capture_open(&c, argv[i], &copt);
		/* a capture none of whose buffers is selected adds no line: a selection that
		 * matches nothing writes nothing */
		for (j = 0; j < c.nev && !capture_selects(&copt, &c, &c.ev[j], event_offset); j++)
			;
		if (j < c.nev)
			put_meta(&c, &header_done);
		fflush(stdout);
		for (; j < c.nev; j++)
			if (capture_selects(&copt, &c, &c.ev[j], event_offset)) {
				nselected++;
				nnoprog += capture_program(&c, &c.ev[j]) == NULL;
				dump_event(&c.ev[j], argv[i]);
			}
		event_offset += (unsigned)c.nev;
		out_flush();
		capture_close(&c);
	}
	out_flush();
	/* a selection that matched nothing is an error, not an empty stream */
	if (nselected == 0)
		capture_selects_none(&copt, NULL, event_offset);
	if (types_given && ntokens_out == 0)
		errx(2, "--types: no token of those types in the %u trace buffer%s selected", nselected,
		    nselected == 1 ? "" : "s");
	if (nnoprog > 0 && nnoprog < nselected)
		warning_out("%u of %u trace buffers match no program: their kernel is '-'",
		    nnoprog, nselected);
	if (total_unknown)
		warning_out("%" PRIu64 " UNKNOWN tokens (not a gfx11 stream, or damaged)",
		    total_unknown);
	if (total_lost)
		warning_out("%" PRIu64 " TIMESTAMP tokens report lost packets", total_lost);
	if (fflush(stdout) != 0 || ferror(stdout))
		err(2, "stdout");
	return 0;
}
