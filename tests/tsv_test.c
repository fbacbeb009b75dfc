/* tsv_test: the TSV reader's numbers and memo against what they must give.
 *   tsv_test numbers N  N numbers of every length, in decimal (leading zeros too) and
 *                       hex, written and read back: "ok N" or the first that differs
 *   tsv_test memo N     N rows naming ~100 names of 0 to 40 bytes (alike in their first
 *                       8 or 16 bytes), each looked up through tsv_memo and directly
 *   tsv_test u64 FILE   column 0 of every record as tsv_u64 reads it (errors are fatal) */
#include <err.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tsv.h"

static uint64_t state = 0x2545f4914f6cdd1dULL;

static uint64_t
next(void)	/* xorshift64*: the same numbers on every machine */
{
	state ^= state >> 12;
	state ^= state << 25;
	state ^= state >> 27;
	return state * 0x2545f4914f6cdd1dULL;
}

static void
rewind_into(FILE *fp, struct tsv *t)
{
	if (fflush(fp) != 0 || fseek(fp, 0, SEEK_SET) != 0)
		err(2, "tmpfile");
	tsv_open(t, fp, "tmpfile");
}

static int
numbers(long n)
{
	FILE *fp = tmpfile();
	uint64_t *want = calloc((size_t)n, sizeof(*want));
	struct tsv t;
	enum tsv_kind kind;
	long i, k = 0;

	if (fp == NULL || want == NULL)
		err(2, NULL);
	fputs("#u\ti\n", fp);
	for (i = 0; i < n; i++) {
		unsigned bits = (unsigned)(next() % 65);
		uint64_t v = bits == 64 ? next() : next() & ((1ULL << bits) - 1);
		int zeros = next() % 8 == 0 ? (int)(next() % 30) : 0;
		int64_t s = (int64_t)(v >> 1) * (next() % 2 ? -1 : 1);

		want[i] = v;
		if (next() % 4 == 0)
			fprintf(fp, "0x%0*" PRIx64 "\t%" PRId64 "\n", zeros + 1, v, s);
		else
			fprintf(fp, "%0*" PRIu64 "\t%" PRId64 "\n", zeros + 1, v, s);
	}
	rewind_into(fp, &t);
	while ((kind = tsv_next(&t)) != TSV_EOF) {
		if (kind != TSV_RECORD)
			continue;
		if (tsv_u64(&t, 0) != want[k] ||
		    tsv_i64(&t, 1) != (int64_t)(want[k] >> 1) * (strchr(t.field[1], '-') ? -1 : 1)) {
			printf("differs at %ld: %s\t%s\n", k, t.field[0], t.field[1]);
			return 1;
		}
		k++;
	}
	tsv_close(&t);
	fclose(fp);
	free(want);
	printf("ok %ld\n", k);
	return k == n ? 0 : 1;
}

static int
lookup(const char *s)	/* any pure function of the whole text */
{
	unsigned h = 7;

	for (; *s; s++)
		h = h * 31 + (unsigned char)*s;
	return (int)(h & 0x7fffffff);
}

static int
memo(long n)
{
	static const char *stems[] = { "", "a", "INST", "IMM_ONE", "VALU_INS", "VALU_INST",
		"WAVE_END", "WAVE_ENDX", "smem_rd_0123456", "smem_rd_01234567",
		"smem_rd_012345678", "abcdefghijklmnopqrstuvwxyz0123456789ABCD" };
	FILE *fp = tmpfile();
	char name[64];
	struct tsv t;
	enum tsv_kind kind;
	long i, k = 0;

	if (fp == NULL)
		err(2, NULL);
	fputs("#x\tname\n", fp);
	for (i = 0; i < n; i++) {
		const char *stem = stems[next() % (sizeof(stems) / sizeof(stems[0]))];
		int cut = (int)(next() % 9);
		snprintf(name, sizeof(name), "%s", stem);
		if (strlen(name) > 0 && cut < 4)	/* a name cut short, or one changed byte */
			name[strlen(name) - (size_t)(next() % strlen(name)) - 1] =
			    cut < 2 ? '\0' : (char)('A' + next() % 4);
		fprintf(fp, "%ld\t%s\n", i, name);
	}
	rewind_into(fp, &t);
	while ((kind = tsv_next(&t)) != TSV_EOF) {
		if (kind != TSV_RECORD)
			continue;
		if (tsv_memo(&t, 1, lookup) != lookup(t.field[1])) {
			printf("differs at %ld: '%s'\n", k, t.field[1]);
			return 1;
		}
		k++;
	}
	tsv_close(&t);
	fclose(fp);
	printf("ok %ld\n", k);
	return k == n ? 0 : 1;
}

int
main(int argc, char **argv)
{
	struct tsv t;
	enum tsv_kind kind;

	if (argc == 3 && strcmp(argv[1], "numbers") == 0)
		return numbers(atol(argv[2]));
	if (argc == 3 && strcmp(argv[1], "memo") == 0)
		return memo(atol(argv[2]));
	if (argc == 3 && strcmp(argv[1], "u64") == 0) {
		tsv_open_path(&t, argv[2]);
		while ((kind = tsv_next(&t)) != TSV_EOF)
			if (kind == TSV_RECORD)
				printf("%" PRIu64 "\n", tsv_u64(&t, 0));
		return 0;
	}
	fprintf(stderr, "usage: tsv_test numbers N | memo N | u64 FILE\n");
	return 2;
}
