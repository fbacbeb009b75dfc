/* regs_test: the registers libcommon/code/regs.c says an instruction writes and reads,
 * for tests/t0857-regs.sh.  One instruction text a line on stdin (LLVM's disassembly);
 * out: "TEXT<tab>def LIST<tab>use LIST", a LIST being the registers as ranges, e.g.
 * "s106-s107 v0 v2-v5", or "-". */
#include <stdio.h>
#include <string.h>

#include "regs.h"

static void
put(const struct regs *r)
{
	const uint64_t *w;
	unsigned i, j, max, any = 0;
	char kind;

	for (kind = 's'; kind; kind = kind == 's' ? 'v' : 0) {
		w = kind == 's' ? r->s : r->v;
		max = kind == 's' ? 128 : 256;
		for (i = 0; i < max; i = j) {
			if (!(w[i / 64] >> (i % 64) & 1)) {
				j = i + 1;
				continue;
			}
			for (j = i + 1; j < max && (w[j / 64] >> (j % 64) & 1); j++)
				;
			printf(any++ ? " " : "");
			if (j - 1 > i)
				printf("%c%u-%c%u", kind, i, kind, j - 1);
			else
				printf("%c%u", kind, i);
		}
	}
	if (!any)
		printf("-");
}

int
main(void)
{
	char line[512];
	struct inst in;
	struct regs def, use;
	char m[64];

	while (fgets(line, sizeof(line), stdin) != NULL) {
		line[strcspn(line, "\n")] = '\0';
		memset(&in, 0, sizeof(in));
		in.text = line;
		snprintf(m, sizeof(m), "%.*s", (int)strcspn(line, " "), line);
		in.mnemonic = m;
		in.target = -1;
		inst_regs(isa_default_model(), &in, &def, &use);
		printf("%s\tdef ", line);
		put(&def);
		printf("\tuse ");
		put(&use);
		printf("\n");
	}
	return 0;
}
