/* sqtt-walk: the packet stream placed onto the code: one row per instruction issue of
 * every wave of each buffer's traced unit (pipeline.md, row stream). */
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "meta.h"
#include "out.h"
#include "cli.h"
#include "codeload.h"
#include "tsv.h"
#include "util.h"
#include "rowtext.h"
#include "walk.h"

static const struct cli cli = {
	.synopsis = {
		"[-h] [--strict] [-c code [-b base] [--name kernel]] [--packets wave[:n]] [packets.tsv]",
		NULL
	},
	.options = "base/b code/c name packets strict",
	.help =
	    "Place every instruction token of a packet stream (sqtt-dump's output) on\n"
	    "the instruction that issued it: one row per issue per wave.\n"
	    "\n"
	    "  -c, --code FILE    the code object (default: found through ## lines)\n"
	    "  -b, --base ADDR    its load address\n"
	    "      --name NAME    its kernel name\n"
	    "      --strict       warnings make the exit status 2\n"
	    "      --packets W[:N]  print wave W's first N tokens (64) with their pc\n"
	    "                     on stderr, MISS where the walk lost alignment\n"
	    "  -h, --help         this text\n"
	    "      --version      the version\n"
	    "See sqtt-walk(1).\n",
};

static const char *opt_code, *opt_kernel;
static uint64_t opt_base;
static long opt_dbg_wave = -1;
static char *source_where;	/* "FILE:LINE" of the ##source line */
static unsigned long opt_dbg_n = 64;

/* A program's code object, when the walk first needs it: its file, or its capture.  A
 * capture that cannot be read ends the run (capture_open's error, as sqtt-dump says it). */
static uint8_t *
load(void *ctx, const char *source, const char *name, const char *tag, const char *file,
    size_t *len, char *why, size_t whysz)
{
	uint8_t *img = codeload_program(ctx, source, name, tag, file, len, why, whysz);

	if (img == NULL && codeload_broken(ctx) != NULL) {
		fflush(stdout);
		if (source_where != NULL)
			errx(2, "%s: %s", source_where, codeload_broken(ctx));
		errx(2, "%s", codeload_broken(ctx));
	}
	return img;
}

static void
put_row(void *ctx, const struct walk_row *r)
{
	(void)ctx;
	rowtext_put(r, NULL);
}

/* The ## lines that tell the walk its target, programs and buffers, read through meta.h. */
static int headerless;	/* the stream's target has no HEADER (CDNA): an ISSUE-slot stream */

static void
take_meta(struct walker *wk, struct tsv *t)
{
	meta_parse(t);
	if (strcmp(t->field[0], "target") == 0) {
		walk_target(wk, meta_target(t, 1));
		headerless = isa_target_headerless(meta_target(t, 1));
	} else if (strcmp(t->field[0], "source") == 0 && t->nfield >= 2) {
		walk_source(wk, meta_is_none(t->field[1]) ? "-" : t->field[1]);
		free(source_where);
		if (asprintf(&source_where, "%s:%lu", t->path, t->line) < 0)
			err(2, NULL);
	} else if (strcmp(t->field[0], "code") == 0 && t->nfield >= 5) {
		walk_program(wk, t->field[1], meta_is_none(t->field[2]) ? "-" : t->field[2],
		    meta_u64(t, 3, "base", UINT64_MAX),
		    t->nfield > 5 && !meta_is_none(t->field[5]) ? t->field[5] : "-", NULL, 0);
	} else if (strcmp(t->field[0], "event") == 0 && t->nfield >= 4) {
		walk_event(wk, (long)meta_u64(t, 1, "event", LONG_MAX), t->field[3],
		    t->nfield >= 5 ? (meta_is_none(t->field[4]) ? "-" : t->field[4]) : NULL);
	}
}

static int
run(int argc, char *argv[])
{
	int c[PKT_NCOL];
	struct walker *wk;
	struct codeload *cl;
	struct walk_packet pk;
	struct packet_reader rd;
	struct tsv t;
	enum tsv_kind k;
	const char *path = "-";
	FILE *in = stdin;
	int ch, got, header_out = 0;
	char *end;

	while ((ch = cli_getopt(argc, argv, &cli)) != -1) {
		switch (ch) {
		case 'b':
			errno = 0;
			opt_base = strtoull(optarg, &end, 0);
			if (errno || *end != '\0' || end == optarg)
				errx(2, "--base is not an address: %s", optarg);
			break;
		case 'c':
			opt_code = optarg;
			break;
		case OPT_NAME:
			opt_kernel = optarg;
			break;
		case OPT_PACKETS:
			errno = 0;
			opt_dbg_wave = strtol(optarg, &end, 10);
			if (errno || end == optarg || opt_dbg_wave < 0)
				errx(2, "--packets wants WAVE[:N]: %s", optarg);
			if (*end == ':') {
				opt_dbg_n = strtoul(end + 1, &end, 10);
			}
			if (*end != '\0')
				errx(2, "--packets wants WAVE[:N]: %s", optarg);
			break;
		default:
			cli_usage(&cli);
		}
	}
	cli_operands(&cli, &argc, &argv, 0, 1);
	if (argc == 1 && strcmp(argv[0], "-") != 0) {
		path = argv[0];
		if ((in = fopen(path, "r")) == NULL)
			err(2, "%s", path);
	}
	packet_reader_init(&rd);
	wk = walk_new(put_row, NULL);
	cl = codeload_new();
	walk_set_loader(wk, load, cl);
	if (opt_code != NULL)
		walk_use_code(wk, opt_code, opt_base, opt_kernel);
	if (opt_dbg_wave >= 0)
		walk_debug(wk, opt_dbg_wave, opt_dbg_n);
	tsv_open(&t, in, path);
	while ((k = tsv_next(&t)) != TSV_EOF) {
		if (k == TSV_META) {
			size_t i;
			out_flush();
			for (i = 0; i < t.nfield; i++)	/* passed on as it came, before it is parsed */
				printf("%s%s", i ? "\t" : "##", t.field[i]);
			putchar('\n');
			take_meta(wk, &t);
			continue;
		}
		if (k == TSV_HEADER) {
			/* all but nib, which the walk needs not */
			tsv_cols(&t, tsv_packet_col, PKT_NCOL, c,
			    (TSV_COL(PKT_NCOL) - 1) & ~TSV_COL(PKT_NIB));
			continue;
		}
		if (!header_out) {
			rowtext_header(NULL);
			header_out = 1;
		}
		if (headerless) {
			if (walk_headerless_line(wk, (long)tsv_u64(&t, c[PKT_EVENT]), c[PKT_SE] < 0 || tsv_dash(&t, c[PKT_SE]) ? -1 : (int)tsv_u64(&t, c[PKT_SE]),
			    t.field[c[PKT_TYPE]], tsv_u64(&t, c[PKT_TIME]), tsv_u64(&t, c[PKT_RAW])) != 0)
				tsv_fail(&t, "%s", walk_error(wk));
			continue;
		}
		if ((got = packet_read(&rd, &t, c, walk_wants, &pk)) < 0) {
			out_flush();
			fflush(stdout);
			errx(2, "%s", rd.why);
		}
		if (got == 0)
			continue;	/* the walk needs no other token */
		if (walk_packet(wk, &pk) != 0)
			tsv_fail(&t, "%s", walk_error(wk));
	}
	if (t.ncol == 0) {
		out_flush();
		errx(2, "%s: no '#' column header: not a packet stream", path);
	}
	if (walk_end(wk) != 0 || walk_nothing(wk) != NULL) {
		out_flush();
		fflush(stdout);
		errx(2, "%s: %s", path, walk_error(wk));
	}
	out_flush();
	if (!header_out)
		rowtext_header(NULL);
	tsv_close(&t);
	if (fflush(stdout) != 0 || ferror(stdout))
		err(2, "stdout");
	if (walk_nwarnings(wk))
		warnx("%" PRIu64 " warning%s", walk_nwarnings(wk), walk_nwarnings(wk) == 1 ? "" : "s");
	k = walk_nfailed(wk) || (cli_strict && walk_nwarnings(wk)) ? 2 : 0;
	walk_free(wk);
	codeload_free(cl);
	return (int)k;
}

CLI_MAIN(run)
