/* sqtt-encode: the packet stream back into raw SQTT bytes (the inverse of sqtt-dump). */
#include <err.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "capture-write.h"
#include "cli.h"
#include "encode.h"
#include "gen.h"
#include "meta.h"
#include "tsv.h"

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

/* The most event number a row may give (sqtt-encode(1), LIMITS). */
#define EVENT_MAX (1 << 30)

static char *opt_dir;
static const char *opt_out;
static long opt_event = -1;
static char why[4096];

/* The stream's target is a backend's whose streams have no HEADER (CDNA's) */
static int headerless;

/* The buffer being written. */
struct buffer {
	struct sqtt_encoder enc;
	FILE *fp;
	const char *path;
	long event;
	int se;
	int open;
};

static void free_writer(void *w) { capture_writer_free(w); }

static void
open_buffer(struct buffer *b, struct capture_writer *w, const struct sqtt_gen *gen,
    long event, int se)
{
	b->event = event;
	b->se = se;
	if (opt_dir != NULL) {
		if ((b->fp = capture_writer_open(w, event, se, &b->path)) == NULL)
			errx(2, "%s", why);
	} else if (opt_out != NULL) {
		b->path = opt_out;
		if ((b->fp = fopen(opt_out, "wb")) == NULL)
			err(2, "%s", opt_out);
	} else {
		b->path = "stdout";
		b->fp = stdout;
	}
	if (headerless)
		sqtt_encoder_start_headerless(&b->enc, b->fp, b->path, se);
	else
		sqtt_encoder_start(&b->enc, gen, b->fp, b->path);
	b->open = 1;
}

static void
close_buffer(struct buffer *b, struct capture_writer *w)
{
	if (!b->open)
		return;
	if (sqtt_encoder_finish(&b->enc) != SQTT_ENC_OK)
		errx(2, "%s", b->enc.err);
	if (opt_dir != NULL) {
		if (capture_writer_close(w, b->event, b->se, b->fp) != 0)
			errx(2, "%s", why);
	} else if (b->fp != stdout && fclose(b->fp) != 0) {
		err(2, "%s", b->path);
	}
	b->open = 0;
}

static int
run(int argc, char *argv[])
{
	static struct buffer b;
	struct rocprof_layout layout = { 0 };
	struct capture_writer *w;
	const struct sqtt_gen *gen = isa_default_model()->tokens;
	int c[PKT_NCOL];
	struct tsv t;
	enum tsv_kind k;
	const char *path = "-";
	FILE *in = stdin;
	int ch, se, index = 1, codes_done = 0;
	long event, events_seen = 0, last_event = -1;
	enum sqtt_enc_status st;
	uint64_t u;

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
			index = 0;
			break;
		case OPT_ROCPD:
			layout.rocpd = 1;
			index = 0;
			break;
		case OPT_KERNEL_TRACE:
			layout.kernel_trace = 1;
			break;
		default:
			cli_usage(&cli);
		}
	}
	cli_operands(&cli, &argc, &argv, 0, 1);
	if ((opt_dir && opt_out) || (!index && !opt_dir) || (layout.kernel_trace && !layout.rocpd))
		cli_usage(&cli);
	if (argc == 1 && strcmp(argv[0], "-") != 0) {
		path = argv[0];
		if ((in = fopen(path, "r")) == NULL)
			err(2, "%s", path);
	}
	if ((w = capture_writer_new(opt_dir, index, &layout, why, sizeof(why))) == NULL)
		errx(2, "%s", why);
	tsv_open(&t, in, path);
	/* a bad row raises (tsv_fail) to CLI_MAIN's catch: these go with it */
	fatal_push(free_writer, w);
	fatal_push(tsv_close_at, &t);
	while ((k = tsv_next(&t)) != TSV_EOF) {
		if (k == TSV_META) {
			meta_parse(&t);
			if (strcmp(t.field[0], "target") == 0 && t.nfield >= 2) {
				const struct isa_target *it = meta_target(&t, 1);
				headerless = isa_target_headerless(it);
				gen = (it ? it->model : isa_default_model())->tokens;
			}
			if (capture_writer_meta(w, &t) != 0) {
				fflush(stdout);
				errx(2, "%s", why);
			}
			continue;
		}
		if (k == TSV_HEADER) {
			tsv_cols(&t, tsv_packet_col, PKT_NCOL, c, TSV_COL(PKT_EVENT) |
			    TSV_COL(PKT_NIB) | TSV_COL(PKT_TIME) | TSV_COL(PKT_TYPE));
			capture_writer_header(w);
			continue;
		}
		if (!codes_done && capture_writer_codes(w) != 0)
			errx(2, "%s", why);
		codes_done = 1;
		if ((u = tsv_u64(&t, c[PKT_EVENT])) > EVENT_MAX)
			tsv_fail(&t, "event: %" PRIu64 " is beyond %d", u, EVENT_MAX);
		event = (long)u;
		if (opt_event >= 0 && event != opt_event)
			continue;
		if (!b.open || event != last_event) {
			/* a file is written once: an event's rows come together, in event order */
			if (b.open && event < last_event)
				tsv_fail(&t, "event %ld after event %ld: the rows of an event must "
				    "come together, the events in increasing order", event, last_event);
			close_buffer(&b, w);
			if (opt_dir == NULL && ++events_seen > 1)
				tsv_fail(&t, "a second trace buffer (event %ld): choose one with -e, or write all with -d", event);
			se = 0;
			if (c[PKT_SE] >= 0 && !tsv_dash(&t, c[PKT_SE]) && (se = (int)tsv_u64(&t, c[PKT_SE])) > 255)
				tsv_fail(&t, "se: %s is not a shader engine 0..255", t.field[c[PKT_SE]]);
			open_buffer(&b, w, gen, event, se);
			last_event = event;
		}
		if ((st = sqtt_encode_row(&b.enc, &t, c)) == SQTT_ENC_ROW)
			tsv_fail(&t, "%s", b.enc.err);
		else if (st != SQTT_ENC_OK)
			errx(2, "%s", b.enc.err);
	}
	if (t.ncol == 0)
		errx(2, "%s: no '#' column header: not a packet stream", path);
	if (!b.open && last_event < 0)
		errx(2, "%s: no tokens%s", path, opt_event >= 0 ? " for that event" : "");
	close_buffer(&b, w);
	if (capture_writer_finish(w) != 0)
		errx(2, "%s", why);
	fatal_pop(&t);
	fatal_pop(w);
	capture_writer_free(w);
	tsv_close(&t);
	if (in != stdin)
		fclose(in);
	if (fflush(stdout) != 0 || ferror(stdout))
		err(2, "stdout");
	return 0;
}

CLI_MAIN(run)
