/* libFuzzer harness for the annotate views, the DWARF line reader and the loop finder
 * (libcommon/analysis/annotate.c, code/dwarf.c, code/loops.c); scripts/fuzz.sh builds and
 * runs it (FUZZ_TOP, the project root, names the fixtures' code objects).  The first
 * byte chooses:
 *   'D' the rest is a code object: srclines_open, then the line of every 4th pc of the
 *       first 64 KiB after 0x1000 (no crash, a line >= 0, a name with no NUL past it);
 *   'L' the rest is instructions, 4 bytes each (class, target delta): loops_find's loops
 *       are in address order, disjoint, each head <= tail and a backward branch's range;
 *   else the rest is rows, the view byte % 8: lines of a row stream after the harness's
 *       own ##code lines (hot, calm, scale, poll, whose kernel names the rows use) and
 *       header; a line "##next" ends one input and starts another (several files), a
 *       data ##code or ##target line is dropped (the harness names the code objects:
 *       a fuzzer opening files it makes up is no test).  A line is made whole: no NUL or
 *       CR, exactly the header's 15 fields.  Every view is then written to /dev/null. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "annotate.h"
#include "dwarf.h"
#include "gen.h"
#include "loops.h"
#include "tsv.h"
#include "fuzz_exit.h"

#ifndef FUZZ_TOP
#define FUZZ_TOP "."
#endif

static const char header[] =
    "##code\thot\t1\t0x7f3a2c100000\t0\t" FUZZ_TOP "/fixtures/annotate/hot.hsaco\n"
    "##code\tcalm\t2\t0x7f3a2c200000\t0\t" FUZZ_TOP "/fixtures/annotate/calm.hsaco\n"
    "##code\tscale\t3\t0x7f3a2c300000\t0\t" FUZZ_TOP "/fixtures/annotate/scale.hsaco\n"
    "##code\tpoll\t4\t0x7f3a2c400000\t0\t" FUZZ_TOP "/fixtures/annotate/poll.hsaco\n"
    "#event\tse\tkernel\twave\tslot\tpc\ttime\tdelta\ttoken\tinst\tclass\tdep\tcost\tcause\tretired\n";

static void
dwarf_one(const uint8_t *d, size_t n)
{
	char why[256];
	struct srclines *s = srclines_open(d, n, why, sizeof(why));
	uint64_t pc;

	if (s == NULL)
		return;
	for (pc = 0x1000; pc < 0x11000; pc += 4) {
		const char *f;
		int line;
		srclines_at(s, pc, &f, &line);
		if (f == NULL || line < 0)
			abort();
		(void)strlen(f);
	}
	srclines_close(s);
}

static void
loops_one(const uint8_t *d, size_t n)
{
	size_t ni = n / 4, i, nl;
	struct inst *in = calloc(ni + 1, sizeof(*in));
	struct loop *l;

	for (i = 0; i < ni; i++) {
		in[i].pc = 0x1000 + 4 * i;
		in[i].size = 4;
		in[i].cls = (enum inst_class)(d[4 * i] % (IC_BRANCH + 4));
		in[i].text = in[i].cls == IC_SMEM ? "s_load_b32 s0, s[0:1], 0x0" : "s_cmp_eq_u32 s0, 0";
		in[i].mnemonic = in[i].cls == IC_SMEM ? "s_load_b32" : "s_cmp_eq_u32";
		in[i].target = d[4 * i + 1] & 1 ? -1 :
		    (int64_t)in[i].pc + 4 * ((int64_t)(int8_t)d[4 * i + 2]);
	}
	l = loops_find(in, ni, &nl);
	for (i = 0; i < nl; i++) {
		if (l[i].head > l[i].tail || l[i].tail >= ni || in[l[i].tail].cls != IC_BRANCH ||
		    in[l[i].tail].target != (int64_t)in[l[i].head].pc)
			abort();
		if (i > 0 && l[i].head <= l[i - 1].tail)
			abort();
	}
	free(l);
	free(in);
}

/* The rows of one input, made whole, after the harness's header. */
static char *
one_input(const char *s, size_t n, size_t *len)
{
	char *out = NULL;
	size_t cap = 0;
	FILE *fp = open_memstream(&out, &cap);
	const char *e = s + n;

	fputs(header, fp);
	while (s < e) {
		const char *nl = memchr(s, '\n', (size_t)(e - s));
		const char *end = nl ? nl : e;
		size_t fields = 1;
		const char *p;
		if (end > s && s[0] == '#') {	/* the one header is the harness's */
			if (end - s >= 2 && s[1] == '#' && !(end - s >= 6 && memcmp(s, "##code", 6) == 0) &&
			    !(end - s >= 8 && memcmp(s, "##target", 8) == 0)) {
				for (p = s; p < end; p++)
					if (*p != '\0' && *p != '\r')
						putc(*p, fp);
				putc('\n', fp);
			}
		} else if (end > s) {
			for (p = s; p < end; p++) {
				if (*p == '\t') {
					if (fields == 15)
						break;
					fields++;
				}
				if (*p != '\0' && *p != '\r')
					putc(*p, fp);
			}
			for (; fields < 15; fields++)
				fputs("\t-", fp);
			putc('\n', fp);
		}
		s = nl ? nl + 1 : e;
	}
	fclose(fp);
	*len = cap;
	return out;
}

/* What rows() has open, closed after a fatal error of the reader returned here
 * (fuzz_exit.h): a TSV error ends the program, as it should, not the fuzzer's run. */
static FILE *open_null, *open_fp;
/* and what it holds: the engine, the reader, the text */
static struct annotate *open_a;
static struct tsv *open_t;
static char *open_text;

static void
rows(const uint8_t *d, size_t n, enum annotate_view v)
{
	FILE *null = open_null = fopen("/dev/null", "w");
	struct annotate_opts o = { .view = v, .hint_min = 5.0, .dispatch = -1, .out = null };
	struct annotate *a = open_a = annotate_new(&o);
	const char *s = (const char *)d, *e = s + n;
	int ok = 1;

	while (ok && s <= e) {
		const char *next = memmem(s, (size_t)(e - s), "##next\n", 7);
		size_t len, m = next ? (size_t)(next - s) : (size_t)(e - s);
		char *text = open_text = one_input(s, m, &len);
		/* the reader takes a file descriptor: the text in a memory file */
		int fd = memfd_create("fuzz", 0);
		FILE *fp;
		static struct tsv t;	/* outlives rows()'s frame after a fatal error */
		if (fd < 0 || write(fd, text, len) != (ssize_t)len || lseek(fd, 0, SEEK_SET) != 0 ||
		    (fp = open_fp = fdopen(fd, "r")) == NULL)
			abort();
		tsv_open(&t, fp, "fuzz");
		open_t = &t;
		for (;;) {
			enum tsv_kind k = tsv_next(&t);
			int r;
			if (k == TSV_EOF)
				break;
			r = k == TSV_META ? annotate_meta(a, &t) : k == TSV_HEADER ?
			    annotate_header(a, &t) : annotate_row(a, &t);
			if (r < 0) {
				ok = 0;
				break;
			}
		}
		annotate_end_input(a);
		tsv_close(&t);
		open_t = NULL;
		fclose(fp);
		open_fp = NULL;
		free(text);
		open_text = NULL;
		if (next == NULL)
			break;
		s = next + 7;
	}
	if (ok)
		(void)annotate_report(a);
	annotate_free(a);
	open_a = NULL;
	fclose(null);
	open_null = NULL;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	if (data[0] == 'D')
		dwarf_one(data + 1, size - 1);
	else if (data[0] == 'L')
		loops_one(data + 1, size - 1);
	else {
		FUZZ_TRY(rows(data + 1, size - 1, (enum annotate_view)(data[0] % 8)));
		/* rows()'s frame is gone after a fatal error, but not what it held */
		if (open_t != NULL)
			tsv_close(open_t);
		if (open_a != NULL)
			annotate_free(open_a);
		free(open_text);
		open_t = NULL;
		open_a = NULL;
		open_text = NULL;
		if (open_fp != NULL)
			fclose(open_fp);
		if (open_null != NULL)
			fclose(open_null);
		open_fp = open_null = NULL;
	}
	return 0;
}
