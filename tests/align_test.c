/* align_test: the aligner (align.h) on instruction lists, against what they must give.
 *   align_test A B      A and B hold one instruction a line: one line per row of the
 *                       alignment, "MARK<TAB>INDEX_A<TAB>INDEX_B<TAB>TEXT" (- for none,
 *                       indices from 0, the text of a where in both)
 *   align_test shape T  the shape of instruction T
 *   align_test ends N   two kernels of N instructions, the same but for 3 changed at the
 *                       head and 3 at the tail and every register renumbered in the
 *                       second half: "ok" and the counts, or the first row that is not
 *                       what it must be (exit 1)
 *   align_test apart N  two kernels of N instructions with nothing in common: every line
 *                       removed or added, "ok" and the counts, or exit 1 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "align.h"

static char **
read_lines(const char *path, size_t *n)
{
	FILE *fp = fopen(path, "r");
	char *line = NULL, **v = NULL;
	size_t cap = 0;
	ssize_t len;

	if (fp == NULL)
		err(2, "%s", path);
	*n = 0;
	while ((len = getline(&line, &cap, fp)) != -1) {
		if (len > 0 && line[len - 1] == '\n')
			line[--len] = '\0';
		v = realloc(v, (*n + 1) * sizeof(*v));
		if (v == NULL || (v[*n] = strdup(line)) == NULL)
			err(2, NULL);
		(*n)++;
	}
	free(line);
	fclose(fp);
	return v;
}

static void
put_index(long i)
{
	if (i < 0)
		printf("\t-");
	else
		printf("\t%ld", i);
}

static unsigned long state = 88172645463325252UL;

static unsigned long
next(void)	/* xorshift64: the same kernels on every machine */
{
	state ^= state << 13;
	state ^= state >> 7;
	state ^= state << 17;
	return state;
}

/* Instruction i of a made-up kernel; reg shifts every register number. */
static char *
made_up(size_t i, unsigned long r, int reg, const char *tag)
{
	static const char *const form[] = {
		"v_fmac_f32_e32 v%d, v%d, v%d", "global_load_b128 v[%d:%d], v%d, off",
		"s_waitcnt vmcnt(%d)", "v_add_co_u32 v%d, vcc_lo, v%d, s%d",
		"ds_load_b32 v%d, v%d", "s_add_i32 s%d, s%d, -1",
	};
	char buf[128];
	int f = (int)(r % 6), a = (int)((r >> 8) % 40), b = (int)((r >> 16) % 40);

	if (tag)
		snprintf(buf, sizeof(buf), "s_nop %zu // %s", i % 7, tag);
	else if (f == 1)
		snprintf(buf, sizeof(buf), form[1], a + reg, a + reg + 3, b + reg);
	else if (f == 2)
		snprintf(buf, sizeof(buf), form[2], a % 8);
	else
		snprintf(buf, sizeof(buf), form[f], a + reg, b + reg, (a + b) % 40 + reg);
	return strdup(buf);
}

static int
ends(size_t n)
{
	char **a = calloc(n, sizeof(*a)), **b = calloc(n, sizeof(*b));
	struct align al;
	size_t i, same = 0, renum = 0, old = 0, new = 0, other = 0, bad = 0;

	if (a == NULL || b == NULL || n < 8)
		errx(2, "ends: N of at least 8");
	for (i = 0; i < n; i++) {
		unsigned long r = next();
		int edge = i < 3 || i >= n - 3;
		a[i] = made_up(i, r, 0, edge ? "a" : NULL);
		b[i] = made_up(i, r, i >= n / 2 ? 40 : 0, edge ? "b" : NULL);
	}
	align_run(&al, (const char *const *)a, n, (const char *const *)b, n);
	for (i = 0; i < al.nrow; i++) {
		const struct align_row *w = &al.rows[i];
		switch (w->edit) {
		case ALIGN_SAME: same++; break;
		case ALIGN_RENUMBERED: renum++; break;
		case ALIGN_OLD: old++; break;
		case ALIGN_NEW: new++; break;
		default: other++; break;
		}
		/* the middle in place, row for row: a's i is b's i */
		if ((w->edit == ALIGN_SAME || w->edit == ALIGN_RENUMBERED) && w->a != w->b &&
		    bad++ == 0)
			printf("row %zu: %s %ld %ld\n", i, align_mark[w->edit], w->a, w->b);
	}
	printf("%s rows %zu same %zu renumbered %zu removed %zu added %zu other %zu "
	    "approximate %d\n", bad || other || same + renum != n - 6 || old != 6 || new != 6 ?
	    "bad" : "ok", al.nrow, same, renum, old, new, other, al.approximate);
	return bad || other || same + renum != n - 6 || old != 6 || new != 6;
}

static int
apart(size_t n)
{
	char **a = calloc(n, sizeof(*a)), **b = calloc(n, sizeof(*b)), buf[64];
	struct align al;
	size_t i, old = 0, new = 0;

	if (a == NULL || b == NULL)
		err(2, NULL);
	for (i = 0; i < n; i++) {
		snprintf(buf, sizeof(buf), "s_nop %zu", next() % 1000);
		a[i] = strdup(buf);
		snprintf(buf, sizeof(buf), "s_sleep %zu", next() % 1000);
		b[i] = strdup(buf);
	}
	align_run(&al, (const char *const *)a, n, (const char *const *)b, n);
	for (i = 0; i < al.nrow; i++) {
		old += al.rows[i].edit == ALIGN_OLD;
		new += al.rows[i].edit == ALIGN_NEW;
	}
	printf("%s rows %zu removed %zu added %zu\n", old == n && new == n ? "ok" : "bad",
	    al.nrow, old, new);
	return !(old == n && new == n);
}

int
main(int argc, char *argv[])
{
	char **a, **b, buf[256];
	size_t na, nb, i;
	struct align al;

	if (argc == 3 && strcmp(argv[1], "shape") == 0) {
		align_shape(argv[2], buf, sizeof(buf));
		printf("%s\n", buf);
		return 0;
	}
	if (argc == 3 && strcmp(argv[1], "ends") == 0)
		return ends(strtoul(argv[2], NULL, 10));
	if (argc == 3 && strcmp(argv[1], "apart") == 0)
		return apart(strtoul(argv[2], NULL, 10));
	if (argc != 3)
		errx(2, "usage: align_test A B | shape TEXT | ends N | apart N");
	a = read_lines(argv[1], &na);
	b = read_lines(argv[2], &nb);
	align_run(&al, (const char *const *)a, na, (const char *const *)b, nb);
	for (i = 0; i < al.nrow; i++) {
		const struct align_row *w = &al.rows[i];
		printf("%s", align_mark[w->edit]);
		put_index(w->a);
		put_index(w->b);
		printf("\t%s\n", w->a >= 0 ? a[w->a] : b[w->b]);
	}
	if (getenv("ALIGN_COST"))
		printf("# cost %zu approximate %d\n", al.cost, al.approximate);
	align_free(&al);
	return 0;
}
