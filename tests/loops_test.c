/* loops_test: the loop finder and the register model on instructions given as text,
 * one a line on stdin: PC <TAB> CLASS <TAB> TARGET|- <TAB> DISASSEMBLY (CLASS as the row
 * stream's class column names it: branch, salu, valu, waitcnt, global_load, ...).
 *   loops_test loops        one line per loop: HEAD_PC TAIL_PC spin|-
 *   loops_test overlap A B  "1" when what instruction A (its index) writes or reads
 *                           overlaps what B writes or reads, else "0"
 *   loops_test gen N        N instructions: N/2 backward branches, each over the one
 *                           before it, and the loops of that (timed by the test)
 * Errors: "loops_test: ...", exit 2. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"
#include "loops.h"
#include "regs.h"
#include "util.h"

static struct inst *insts;
static size_t ninst, cap;

static void
add(uint64_t pc, enum inst_class cls, int64_t target, const char *text)
{
	struct inst *in;
	const char *sp;

	if (ninst == cap) {
		cap = cap ? 2 * cap : 64;
		insts = xreallocarray(insts, cap, sizeof(*insts));
	}
	in = &insts[ninst++];
	memset(in, 0, sizeof(*in));
	in->pc = pc;
	in->size = 4;
	in->cls = cls;
	in->target = target;
	in->text = xstrdup(text);
	sp = strchr(text, ' ');
	in->mnemonic = sp ? xstrndup(text, (size_t)(sp - text)) : xstrdup(text);
}

static void
read_insts(void)
{
	char line[512];

	while (fgets(line, sizeof(line), stdin) != NULL) {
		char *f[4], *s = line;
		int n = 0;
		line[strcspn(line, "\n")] = '\0';
		while (n < 4 && (f[n] = strsep(&s, "\t")) != NULL)
			n++;
		if (n != 4) {
			fprintf(stderr, "loops_test: a line is not PC CLASS TARGET TEXT\n");
			exit(2);
		}
		add(strtoull(f[0], NULL, 16), inst_class_by_name(f[1]),
		    strcmp(f[2], "-") == 0 ? -1 : (int64_t)strtoull(f[2], NULL, 16), f[3]);
	}
}

static void
put_loops(void)
{
	size_t n, i;
	struct loop *l = loops_find(insts, ninst, &n);

	for (i = 0; i < n; i++)
		printf("0x%" PRIx64 " 0x%" PRIx64 " %s\n", insts[l[i].head].pc, insts[l[i].tail].pc,
		    l[i].spin ? "spin" : "-");
	free(l);
}

int
main(int argc, char *argv[])
{
	if (argc >= 2 && strcmp(argv[1], "loops") == 0) {
		read_insts();
		put_loops();
	} else if (argc == 4 && strcmp(argv[1], "overlap") == 0) {
		struct regs da, ua, db, ub, a, b;
		size_t x = strtoul(argv[2], NULL, 10), y = strtoul(argv[3], NULL, 10), i;
		read_insts();
		if (x >= ninst || y >= ninst) {
			fprintf(stderr, "loops_test: no such instruction\n");
			return 2;
		}
		inst_regs(isa_default_model(), &insts[x], &da, &ua);
		inst_regs(isa_default_model(), &insts[y], &db, &ub);
		for (i = 0; i < 4; i++) {
			a.v[i] = da.v[i] | ua.v[i];
			b.v[i] = db.v[i] | ub.v[i];
		}
		for (i = 0; i < 2; i++) {
			a.s[i] = da.s[i] | ua.s[i];
			b.s[i] = db.s[i] | ub.s[i];
		}
		printf("%d\n", regs_overlap(&a, &b));
	} else if (argc == 3 && strcmp(argv[1], "gen") == 0) {
		size_t n = strtoul(argv[2], NULL, 10), i;
		for (i = 0; i + 1 < n; i += 2) {
			add(0x1000 + 4 * i, IC_SALU, -1, "s_add_i32 s6, s6, -1");
			add(0x1000 + 4 * (i + 1), IC_BRANCH, 0x1000 + 4 * (int64_t)i,
			    "s_cbranch_scc1 0");
		}
		{
			size_t nl;
			struct loop *l = loops_find(insts, ninst, &nl);
			printf("%zu\n", nl);
			free(l);
		}
	} else {
		fprintf(stderr, "usage: loops_test loops | overlap A B | gen N\n");
		return 2;
	}
	return 0;
}
