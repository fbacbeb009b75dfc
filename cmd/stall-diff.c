/* stall-diff: two profiles of the same kernels, instruction by instruction (the engine
 * is align.h, the output diffout.h): options, the two inputs, the diff, exit 0 when
 * nothing differs, 1 when something does (stall-diff(1)). */
#include <err.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "align.h"
#include "cli.h"
#include "diffout.h"
#include "load.h"
#include "profile.h"
#include "util.h"

enum format { F_TSV, F_PRETTY, F_JSON };

static const struct cli cli = {
	.synopsis = {
		"[-hjpt] [--changed] [-k kernel[=kernel]] [-T threshold[%]] [--strict] a b",
		NULL
	},
	.options = "changed json/j kernel/k pretty/p strict threshold/T tsv/t",
	.help =
	    "Compare two profiles instruction by instruction: the instructions of\n"
	    "each kernel aligned by opcode and operands (registers renumbered still\n"
	    "align), cycles per wave in a and b, the delta and the causes.  a and b\n"
	    "are row streams, stall tables (TSV or JSON) or captures; - is standard\n"
	    "input.  Exit 0 when nothing differs, 1 when something does, 2 on\n"
	    "trouble.\n"
	    "\n"
	    "      --changed       a summary line per kernel, then only the lines\n"
	    "                      that changed, the largest |delta| first\n"
	    "  -k, --kernel A[=B]  compare kernel A of a with B of b (default: every\n"
	    "                      kernel of both, by name); repeatable\n"
	    "  -T, --threshold N   a kernel differs when its cycles a wave differ by\n"
	    "                      more than N, or N% of a; a line or a cause when\n"
	    "                      it moves by more than N cycles a wave, or N% of\n"
	    "                      its kernel's (default 0)\n"
	    "  -j, --json          JSON (version 1)\n"
	    "  -p, --pretty        aligned text (default on a terminal)\n"
	    "  -t, --tsv           TSV (default when stdout is not a terminal)\n"
	    "      --strict        an unknown cause is an error\n"
	    "  -h, --help          this text\n"
	    "      --version       the version\n"
	    "See stall-diff(1).\n",
};

static void
parse_threshold(struct diff *d, const char *s)
{
	char *end;

	d->threshold = strtod(s, &end);
	if (end == s || !isfinite(d->threshold) || d->threshold < 0)
		errx(2, "-T: '%s' is not a number of cycles or a percent", s);
	if (*end == '%') {
		d->threshold_pct = 1;
		end++;
	}
	if (*end != '\0')
		errx(2, "-T: '%s' is not a number of cycles or a percent", s);
}

static int
run(int argc, char *argv[])
{
	char **names = NULL, why[4096];
	size_t nnames = 0;
	int ch, st, format_given = 0, flags = PROFILE_TABLES | PROFILE_WALL;
	enum format format = F_TSV;
	unsigned how = 0;
	struct profile pa, pb;
	struct diff d;

	memset(&d, 0, sizeof(d));

	while ((ch = cli_getopt(argc, argv, &cli)) != -1) {
		switch (ch) {
		case OPT_CHANGED:
			how |= DIFF_CHANGED;
			break;
		case 'j':
			format = F_JSON;
			format_given = 1;
			break;
		case 'k':
			names = xreallocarray(names, nnames + 1, sizeof(*names));
			names[nnames++] = optarg;
			if (*optarg == '\0' || *optarg == '=' ||
			    optarg[strlen(optarg) - 1] == '=')
				errx(2, "-k: '%s' is not a kernel name or a pair a=b", optarg);
			break;
		case 'p':
			format = F_PRETTY;
			format_given = 1;
			break;
		case 'T':
			parse_threshold(&d, optarg);
			break;
		case 't':
			format = F_TSV;
			format_given = 1;
			break;
		default:
			cli_usage(&cli);
		}
	}
	cli_operands(&cli, &argc, &argv, 2, 2);
	if (cli_strict)
		flags |= PROFILE_STRICT;
	if (strcmp(argv[0], "-") == 0 && strcmp(argv[1], "-") == 0)
		errx(2, "a and b are both standard input");
	if (!format_given)
		format = isatty(STDOUT_FILENO) ? F_PRETTY : F_TSV;
	d.path_a = argv[0];
	d.path_b = argv[1];

	profile_init(&pa, flags);
	profile_init(&pb, flags);
	if (load_profile(&pa, d.path_a, why, sizeof(why)) != 0 ||
	    load_profile(&pb, d.path_b, why, sizeof(why)) != 0) {
		fflush(stdout);
		errx(2, "%s", why);
	}
	if (strcmp(pa.view, pb.view) != 0)
		warning_out("%s is of the %s view, %s of the %s view: their costs differ in "
		    "kind", d.path_a, pa.view, d.path_b, pb.view);
	if (diff_pair(&d, &pa, &pb, names, nnames) < 0)
		die("%s", d.error);
	diff_judge(&d);

	if (format == F_JSON)
		diff_put_json(&d, stdout, how);
	else if (format == F_PRETTY)
		diff_put_pretty(&d, stdout, how);
	else
		diff_put_tsv(&d, stdout, how);
	if (fflush(stdout) != 0 || ferror(stdout))
		err(2, "stdout");
	st = d.differs ? 1 : 0;
	diff_free(&d);
	profile_free(&pa);
	profile_free(&pb);
	return st;
}

CLI_MAIN(run)
