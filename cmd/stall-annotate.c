/* stall-annotate: a costed row stream read back against the kernel's code: source lines,
 * an annotated listing, loops, what each wait waited for, hidden latency and hints
 * (stall-annotate(1)).  The engine is libcommon's annotate; this is its options. */
#include <err.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "annotate.h"
#include "cli.h"
#include "tsv.h"
#include "util.h"

static const struct cli cli = {
	.synopsis = {
		"[-hV] [--lines | --annotate | --loops | --waits | --wait-rows | --loads | --hidden | --hints]",
		"\t[--hint-min percent] [--untraced] [file ...]",
		NULL
	},
	.options = "annotate hidden hint-min hints lines loads loops untraced wait-rows waits version/V",
	.help =
	    "Read a costed row stream (stall-attr) against its kernels' code objects.\n"
	    "\n"
	    "      --lines     cycles per source line (DWARF line table; ??:0 if none)\n"
	    "      --annotate  every instruction in address order, source interleaved\n"
	    "      --loops     innermost loops: iterations, cycles per iteration, spin\n"
	    "      --waits     per s_waitcnt, the operations it retired and their latency\n"
	    "      --wait-rows the same for every s_waitcnt row, as it is read\n"
	    "      --loads     per memory instruction, the waits it caused\n"
	    "      --hidden    per instruction, cycles hidden by other waves' issue\n"
	    "      --hints     advice from the measured rows, with its evidence\n"
	    "      --hint-min P  hoist: a load's waits must cost P% (default 5)\n"
	    "      --untraced  count waves without instruction tokens too\n"
	    "  -V, --version   the version\n"
	    "  -h, --help      this text\n"
	    "See stall-annotate(1).\n",
};

/* One input, line by line into the engine; a line it refuses ends the run. */
static void
read_input(struct annotate *a, const char *path)
{
	struct tsv t;
	int header_seen = 0, r;

	tsv_open_path(&t, path);
	for (;;) {
		enum tsv_kind kind = tsv_next(&t);
		if (kind == TSV_EOF)
			break;
		if (kind == TSV_META)
			r = annotate_meta(a, &t);
		else if (kind == TSV_HEADER) {
			r = annotate_header(a, &t);
			header_seen = 1;
		} else
			r = annotate_row(a, &t);
		if (r < 0)
			tsv_fail(&t, "%s", annotate_error(a));
	}
	if (!header_seen)
		errx(2, "%s: no '#' column header line: not a row stream", t.path);
	annotate_end_input(a);
	tsv_close(&t);
}

int
main(int argc, char *argv[])
{
	struct annotate_opts o = { .view = AV_LINES, .hint_min = 5.0, .out = stdout };
	struct annotate *a;
	int ch, i, nview = 0;
	char *end;

	while ((ch = cli_getopt(argc, argv, &cli)) != -1) {
		switch (ch) {
		case OPT_ANNOTATE: o.view = AV_ANNOTATE; nview++; break;
		case OPT_LOADS: o.view = AV_LOADS; nview++; break;
		case OPT_HIDDEN: o.view = AV_HIDDEN; nview++; break;
		case OPT_HINTS: o.view = AV_HINTS; nview++; break;
		case OPT_LINES: o.view = AV_LINES; nview++; break;
		case OPT_LOOPS: o.view = AV_LOOPS; nview++; break;
		case OPT_WAITS: o.view = AV_WAITS; nview++; break;
		case OPT_WAIT_ROWS: o.view = AV_WAIT_ROWS; nview++; break;
		case OPT_UNTRACED: o.untraced = 1; break;
		case OPT_HINT_MIN:
			o.hint_min = strtod(optarg, &end);
			if (end == optarg || *end != '\0' || !(o.hint_min >= 0 && o.hint_min <= 100))
				errx(2, "--hint-min is not a percent from 0 to 100: %s", optarg);
			break;
		default:
			cli_usage(&cli);
		}
	}
	cli_operands(&cli, &argc, &argv, 0, -1);
	if (nview > 1)
		errx(2, "one view at a time");

	a = annotate_new(&o);
	if (argc == 0)
		read_input(a, "-");
	for (i = 0; i < argc; i++)
		read_input(a, argv[i]);
	if (annotate_report(a) < 0)
		die("%s: %s", argc ? argv[argc - 1] : "stdin", annotate_error(a));
	annotate_free(a);
	if (fflush(stdout) != 0 || ferror(stdout))
		err(2, "stdout");
	return 0;
}
