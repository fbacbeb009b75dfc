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
#include "tsv.h"
#include "util.h"
#include "rowtext.h"
#include "walk.h"

static const char *const synopsis[] = {
	"[-h] [--strict] [-c code [-b base] [--name kernel]] [--packets wave[:n]] [packets.tsv]",
	NULL
};

static void __attribute__((noreturn))
usage(void)
{
	cli_usage(synopsis);
}

static const char *opt_code, *opt_kernel;
static uint64_t opt_base;
static int opt_strict;
static long opt_dbg_wave = -1;
static unsigned long opt_dbg_n = 64;

static void
put_row(void *ctx, const struct walk_row *r)
{
	(void)ctx;
	rowtext_put(r, NULL);
}

/* The ## lines that tell the walk its target, programs and buffers, read through meta.h. */
static void
take_meta(struct walker *wk, struct tsv *t)
{
	meta_parse(t);
	if (strcmp(t->field[0], "target") == 0) {
		walk_target(wk, meta_target(t, 1));
	} else if (strcmp(t->field[0], "source") == 0 && t->nfield >= 2) {
		walk_source(wk, meta_is_none(t->field[1]) ? "-" : t->field[1]);
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
field_or_dash(const struct tsv *t, int i)
{
	return tsv_dash(t, i) ? -1 : (int)tsv_u64(t, i);
}

struct cols {
	int event, se, time, type, wave, simd, wgp, sa, op, raw;
};

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "base", required_argument, NULL, 'b' },
		{ "code", required_argument, NULL, 'c' },
		{ "name", required_argument, NULL, 'N' },
		{ "packets", required_argument, NULL, 'P' },
		{ "strict", no_argument, NULL, 's' },
		CLI_LONGOPTS,
		{ NULL, 0, NULL, 0 }
	};
	struct cols c = { -1, -1, -1, -1, -1, -1, -1, -1, -1, -1 };
	struct walker *wk;
	struct walk_packet pk;
	struct tsv t;
	enum tsv_kind k;
	const char *path = "-";
	FILE *in = stdin;
	int ch, header_out = 0;
	char *end;

	while ((ch = getopt_long(argc, argv, "b:c:h", longopts, NULL)) != -1) {
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
		case 'h':
			cli_help(synopsis,
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
			    "See sqtt-walk(1).\n");
		case 'V':
			cli_version();
		case 'N':
			opt_kernel = optarg;
			break;
		case 'P':
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
		case 's':
			opt_strict = 1;
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (argc > 1)
		usage();
	if (argc == 1 && strcmp(argv[0], "-") != 0) {
		path = argv[0];
		if ((in = fopen(path, "r")) == NULL)
			err(2, "%s", path);
	}
	wk = walk_new(put_row, NULL);
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
			c.event = tsv_need(&t, "event");
			c.se = tsv_need(&t, "se");
			c.time = tsv_need(&t, "time");
			c.type = tsv_need(&t, "type");
			c.wave = tsv_need(&t, "wave");
			c.simd = tsv_need(&t, "simd");
			c.wgp = tsv_need(&t, "wgp");
			c.sa = tsv_need(&t, "sa");
			c.op = tsv_need(&t, "op");
			c.raw = tsv_need(&t, "raw");
			continue;
		}
		if (!header_out) {
			rowtext_header(NULL);
			header_out = 1;
		}
		pk.type = sqtt_type_by_name(t.field[c.type]);
		switch (pk.type) {
		case TOK_HEADER: case TOK_WAVE_START: case TOK_WAVE_END: case TOK_INST:
		case TOK_VALU_INST: case TOK_IMM_ONE: case TOK_IMMEDIATE: case TOK_NEW_PC:
		case TOK_REG:
			break;
		case TOK_NTYPES:
			tsv_fail(&t, "unknown token type '%s'", t.field[c.type]);
		default:
			continue;	/* the walk needs no other token */
		}
		pk.event = (long)tsv_u64(&t, c.event);
		pk.se = field_or_dash(&t, c.se);
		pk.time = tsv_u64(&t, c.time);
		pk.wave = pk.simd = pk.wgp = pk.sa = pk.op = -1;
		pk.raw = 0;
		switch (pk.type) {
		case TOK_HEADER: case TOK_WAVE_START: case TOK_WAVE_END:
			pk.simd = (int)tsv_u64(&t, c.simd);
			pk.wgp = (int)tsv_u64(&t, c.wgp);
			pk.sa = (int)tsv_u64(&t, c.sa);
			if (pk.type != TOK_HEADER)
				pk.wave = (int)tsv_u64(&t, c.wave);
			break;
		case TOK_INST:
			if ((pk.op = sqtt_op_code(t.field[c.op])) < 0)
				tsv_fail(&t, "unknown INST op '%s'", t.field[c.op]);
			/* FALLTHROUGH */
		case TOK_VALU_INST: case TOK_IMM_ONE:
			pk.wave = (int)tsv_u64(&t, c.wave);
			break;
		default:	/* IMMEDIATE, NEW_PC, REG: their raw bits */
			pk.raw = tsv_u64(&t, c.raw);
			break;
		}
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
		warnx("%" PRIu64 " warnings", walk_nwarnings(wk));
	k = walk_nfailed(wk) || (opt_strict && walk_nwarnings(wk)) ? 2 : 0;
	walk_free(wk);
	return (int)k;
}
