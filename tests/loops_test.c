/* loops_test: the loops libcommon/code/loops.c finds in a listing, for
 * tests/t0858-loops.sh.  One instruction a line on stdin, in pc order:
 * "PC<tab>CLASS<tab>TARGET<tab>TEXT" (CLASS an instruction class name of stall-attr(1),
 * TARGET the branch target's pc or -); out: "head<tab>tail<tab>spin" a loop, pcs in hex. */
#include <inttypes.h>
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa.h"
#include "loops.h"
#include "util.h"

int
main(void)
{
	char line[512], *f[4], *p;
	struct inst *in = NULL;
	size_t n = 0, i, nloop;
	struct loop *l;
	int k;

	while (fgets(line, sizeof(line), stdin) != NULL) {
		line[strcspn(line, "\n")] = '\0';
		for (k = 0, p = line; k < 4; k++) {
			f[k] = p;
			if (k < 3 && (p = strchr(p, '\t')) == NULL)
				errx(2, "line %zu: four fields, tab-separated", n + 1);
			if (k < 3)
				*p++ = '\0';
		}
		in = xreallocarray(in, n + 1, sizeof(*in));
		memset(&in[n], 0, sizeof(in[n]));
		in[n].pc = strtoull(f[0], NULL, 0);
		in[n].size = 4;
		in[n].cls = inst_class_by_name(f[1]);
		in[n].target = strcmp(f[2], "-") == 0 ? -1 : (int64_t)strtoull(f[2], NULL, 0);
		in[n].text = xstrdup(f[3]);
		in[n].mnemonic = xstrdup(f[3]);
		((char *)in[n].mnemonic)[strcspn(f[3], " ")] = '\0';
		n++;
	}
	l = loops_find(in, n, &nloop);
	for (i = 0; i < nloop; i++)
		printf("0x%" PRIx64 "\t0x%" PRIx64 "\t%d\n", in[l[i].head].pc, in[l[i].tail].pc,
		    l[i].spin);
	return 0;
}
