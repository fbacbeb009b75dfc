/* stall-budget: a profile held to a budget (the rule language and the verdicts are
 * budget.h): options, the rules, the input and its baselines, the verdicts, exit 1 when
 * a rule is broken (stall-budget(1)). */
#include <err.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "budget.h"
#include "cli.h"
#include "load.h"
#include "profile.h"
#include "util.h"

static const struct cli cli = {
	.synopsis = {
		"[-h] [--strict] rules [input]",
		"[-h] [--strict] -w baseline [input]",
		NULL
	},
	.options = "strict write-baseline/w",
	.help =
	    "Hold a profile to a budget: one rule a line, e.g.\n"
	    "  r_2_8_16_4_4_16_4 cycles <= 20000\n"
	    "  * cause mem <= 70%\n"
	    "  K pc 0x183c cycles <= 15000\n"
	    "  K inst /^s_waitcnt/ cycles <= 15000\n"
	    "  K cycles <= 105% of baseline.json\n"
	    "Every figure is cycles a wave (a kernel's cycles over its traced\n"
	    "waves), or a percent of the kernel's cycles.\n"
	    "One line per rule and kernel (ok or broken, the figure, the limit);\n"
	    "exit 1 naming every broken rule, 2 on trouble.  input is a row\n"
	    "stream, a stall table (TSV or JSON) or a capture; - or none is\n"
	    "standard input.\n"
	    "\n"
	    "  -w, --write-baseline FILE  write the profile of input to FILE as\n"
	    "                             stall-table --json does, for '% of' rules\n"
	    "      --strict               an unknown cause is an error\n"
	    "  -h, --help                 this text\n"
	    "      --version              the version\n"
	    "See stall-budget(1).\n",
};

static void
write_baseline(struct profile *p, const char *input_name, const char *path)
{
	FILE *fp;
	size_t i, n = 0;

	for (i = 0; i < p->nkernel; i++) {
		struct profile_kernel *k = &p->kernels[i];
		xqsort(k->lines, k->nline, sizeof(*k->lines), profile_cmp_cycles);
		n += k->hits > 0;
	}
	if (n == 0)
		errx(2, "%s: no kernel has an instruction-traced row: no baseline", input_name);
	xqsort(p->kernels, p->nkernel, sizeof(*p->kernels), profile_cmp_kernel);
	if ((fp = fopen(path, "w")) == NULL)
		err(2, "%s", path);
	profile_put_json(p, fp);
	if (fflush(fp) != 0 || ferror(fp) || fclose(fp) != 0)
		err(2, "%s", path);
}

static int
run(int argc, char *argv[])
{
	const char *out_baseline = NULL, *input = "-", *input_name;
	struct budget b;
	struct budget_baseline *base;
	struct profile prof;
	FILE *fp;
	int ch, rc, flags = PROFILE_TABLES;
	char why[4096];

	memset(&b, 0, sizeof(b));
	while ((ch = cli_getopt(argc, argv, &cli)) != -1) {
		switch (ch) {
		case 'w':
			out_baseline = optarg;
			break;
		default:
			cli_usage(&cli);
		}
	}
	cli_operands(&cli, &argc, &argv, out_baseline ? 0 : 1, out_baseline ? 1 : 2);
	if (cli_strict)
		flags |= PROFILE_STRICT;
	if (out_baseline != NULL) {
		if (argc == 1)
			input = argv[0];
	} else {
		if (argc == 2)
			input = argv[1];
		if (strcmp(argv[0], "-") == 0 && strcmp(input, "-") == 0)
			errx(2, "the rules and the input are both standard input");
		if (strcmp(argv[0], "-") == 0)
			fp = stdin;
		else if ((fp = fopen(argv[0], "r")) == NULL)
			err(2, "%s", argv[0]);
		if (budget_read(&b, argv[0], fp) < 0)
			errx(2, "%s", b.error);
		if (fp != stdin)
			fclose(fp);
		/* a baseline is a file the rules name: a regular file beside them */
		for (base = b.baselines; base; base = base->next)
			if (budget_check_baseline(&b, base) < 0)
				errx(2, "%s", b.error);
	}
	input_name = strcmp(input, "-") == 0 ? "stdin" : input;
	profile_init(&prof, flags);
	if (load_profile(&prof, input, why, sizeof(why)) != 0) {
		fflush(stdout);
		errx(2, "%s", why);
	}
	if (out_baseline != NULL) {
		write_baseline(&prof, input_name, out_baseline);
		return 0;
	}
	for (base = b.baselines; base; base = base->next) {
		profile_init(&base->prof, flags);
		if (load_profile(&base->prof, base->path, why, sizeof(why)) != 0) {
			fflush(stdout);
			errx(2, "%s", why);
		}
		base->loaded = 1;
	}
	if (budget_judge(&b, &prof, input_name) < 0) {
		fflush(stdout);
		errx(2, "%s", b.error);
	}
	if ((rc = budget_report(&b, stdout, stderr, getprogname())) < 0)
		err(2, "stdout");
	budget_free(&b);
	profile_free(&prof);
	return rc ? 1 : 0;
}

CLI_MAIN(run)
