/* libFuzzer harness for libcommon/budget.c: a rules file (scripts/fuzz.sh builds it).
 * Each input is read as a rules file, as stall-budget reads one, and every rule that
 * parses is measured on a small profile of two kernels (a pattern runs on every
 * instruction), then the verdicts are written to /dev/null.  Checks the promises of
 * budget.h: trouble is one message naming the file and the line, never a crash, a hang
 * or unbounded memory (the line, file and pattern limits); a verdict line is one line
 * of seven fields whatever the kernel and rule hold. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "budget.h"
#include "profile.h"

static struct profile prof;

static void
add(const char *kernel, const char *pc, const char *inst, int cause, int64_t cost, int end)
{
	struct profile_row r = { kernel, pc, inst, cause, cost, end, 0, 0, 0, 0, 0, 0 };

	if (profile_add_row(&prof, &r) != 0)
		abort();
}

static void
setup(void)
{
	profile_init(&prof, 0);
	add("demo", "0x1300", "s_load_b64 s[2:3], s[0:1], null", CAUSE_WAVE_START, 500, 0);
	add("demo", "0x1318", "s_waitcnt lgkmcnt(0)", CAUSE_SMEM, 198, 0);
	add("demo", "0x1324", "s_waitcnt vmcnt(0)", CAUSE_MEM, 815, 0);
	add("demo", "0x136c", "s_endpgm", CAUSE_DRAIN, 302, 1);
	add("k\t2\nx", "0x0", "v_add_f32_e32 v1, 1.0, v1", CAUSE_UNEXPLAINED, 7, 1);
	profile_finish(&prof);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int ready;
	struct budget b;
	FILE *fp, *out;
	char *text = NULL;
	size_t len = 0, i;
	int nl = 0, tabs;

	if (!ready) {
		setup();
		ready = 1;
	}
	memset(&b, 0, sizeof(b));
	if ((fp = fmemopen((void *)data, size, "r")) == NULL)
		return 0;
	if (budget_read(&b, "fuzz.rules", fp) < 0) {
		/* one message, naming the file */
		if (strncmp(b.error, "fuzz.rules", 10) != 0 || strchr(b.error, '\n') != NULL)
			abort();
	} else if (budget_judge(&b, &prof, "fuzz.input") == 0) {
		if ((out = open_memstream(&text, &len)) == NULL)
			abort();
		if (budget_report(&b, out, out, "fuzz") < 0)
			abort();
		fclose(out);
		/* every line of the table has seven fields: six tabs */
		for (i = 0, nl = 0, tabs = 0; i < len; i++) {
			if (text[i] == '\t')
				tabs++;
			else if (text[i] == '\n') {
				if (nl++ <= (int)b.nverdict && tabs != 6)
					abort();
				tabs = 0;
			}
		}
		free(text);
	}
	fclose(fp);
	budget_free(&b);
	return 0;
}
