/* budget_test: the rule language (budget.h) against what it must give.
 *   budget_test pattern RE   "ok", or "refused: WHY" and exit 1
 *   budget_test rules FILE   each rule read: "LINE<TAB>KERNEL<TAB>SELECTION<TAB>FIGURE
 *                            <TAB>OP<TAB>LIMIT<TAB>KIND" (* for every kernel), or the
 *                            one error and exit 2
 *   budget_test judge FILE   the rules measured on a profile made here: kernel demo,
 *                            2 waves, 1000 cycles (s_waitcnt vmcnt(0) 600 of mem,
 *                            s_waitcnt lgkmcnt(0) 300 of smem, s_endpgm 100 of drain):
 *                            the verdict table on stdout, broken rules on stdout after
 *                            it; exit 1 if one is broken, 2 on trouble */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "budget.h"
#include "cause.h"
#include "profile.h"

static const char *const sel_name[] = { "kernel", "pc", "inst" };
static const char *const kind_name[] = { "cycles", "pct", "baseline" };

static void
add(struct profile *p, const char *pc, const char *inst, int cause, int64_t cost, int end)
{
	struct profile_row r = { "demo", pc, inst, cause, cost, end, 0, 0, 0, 0, 0, 0 };

	if (profile_add_row(p, &r) != 0)
		errx(2, "profile_add_row");
}

static void
read_rules(struct budget *b, const char *path)
{
	FILE *fp = fopen(path, "r");

	if (fp == NULL)
		err(2, "%s", path);
	if (budget_read(b, path, fp) < 0)
		errx(2, "%s", b->error);
	fclose(fp);
}

int
main(int argc, char *argv[])
{
	struct budget b;
	struct profile p;
	char why[256];
	size_t i;
	int rc;

	memset(&b, 0, sizeof(b));
	if (argc == 3 && strcmp(argv[1], "pattern") == 0) {
		if (budget_check_pattern(argv[2], why, sizeof(why)) < 0) {
			printf("refused: %s\n", why);
			return 1;
		}
		printf("ok\n");
		return 0;
	}
	if (argc == 3 && strcmp(argv[1], "rules") == 0) {
		read_rules(&b, argv[2]);
		for (i = 0; i < b.nrule; i++) {
			const struct budget_rule *r = &b.rules[i];
			printf("%lu\t%s\t%s\t%s%s\t%s\t%g\t%s\n", r->line, r->kernel ? r->kernel : "*",
			    sel_name[r->sel], r->cause < 0 ? "cycles" : "cause ",
			    r->cause < 0 ? "" : cause_info[r->cause].name, budget_op_text[r->op],
			    r->limit, kind_name[r->kind]);
		}
		budget_free(&b);
		return 0;
	}
	if (argc == 3 && strcmp(argv[1], "judge") == 0) {
		read_rules(&b, argv[2]);
		profile_init(&p, 0);
		for (i = 0; i < 2; i++) {
			add(&p, "0x10", "s_waitcnt vmcnt(0)", CAUSE_MEM, 300, 0);
			add(&p, "0x14", "s_waitcnt lgkmcnt(0)", CAUSE_SMEM, 150, 0);
			add(&p, "0x18", "s_endpgm", CAUSE_DRAIN, 50, 1);
		}
		profile_finish(&p);
		if (budget_judge(&b, &p, "made") < 0)
			errx(2, "%s", b.error);
		if ((rc = budget_report(&b, stdout, stdout, "budget_test")) < 0)
			err(2, "stdout");
		budget_free(&b);
		profile_free(&p);
		return rc;
	}
	errx(2, "usage: budget_test pattern RE | rules FILE | judge FILE");
}
