/* errors_test DEMO: the library's readers and writers that programs call, each given
 * bad input in turn in one process that arms no catch of its own: every error comes back
 * as a line ("NAME: ERROR"), where the library once ended the process on the first
 * (issue 18).  DEMO is fixtures/demo (a capture to write an RGP file of).  Exit 0 when
 * each call failed as it should, 1 when one did not. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "capture-dump.h"
#include "capture-write.h"
#include "codeload.h"
#include "dispatch.h"
#include "meta.h"
#include "packet.h"
#include "profile.h"
#include "rgp.h"
#include "timeline.h"
#include "tsv.h"
#include "walk.h"

static int bad;

static void
said(const char *name, int failed, const char *why)
{
	if (!failed) {
		printf("%s: no error\n", name);
		bad = 1;
	} else
		printf("%s: %s\n", name, why);
}

/* The records of text after a packet stream's header, each read by packet_read. */
static void
packets(const char *name, const char *text)
{
	static const char head[] = "#event\tse\tnib\ttime\ttype\twave\tsimd\twgp\tsa\top\traw\n";
	struct packet_reader rd;
	struct walk_packet pk;
	struct tsv t;
	char *all;
	int c[PKT_NCOL], r = 0;

	if (asprintf(&all, "%s%s", head, text) < 0)
		exit(2);
	packet_reader_init(&rd);
	tsv_open_mem(&t, all, strlen(all), name);
	while (r >= 0) {
		enum tsv_kind k = tsv_next(&t);
		if (k == TSV_EOF)
			break;
		if (k == TSV_HEADER)
			tsv_cols(&t, tsv_packet_col, PKT_NCOL, c, 0);
		else if (k == TSV_RECORD)
			r = packet_read(&rd, &t, c, walk_wants, &pk);
	}
	said("packet_read", r < 0, rd.why);
	tsv_close(&t);
	free(all);
}

/* A stream read whole by profile_read_tsv (flags: PROFILE_TABLES for stall tables). */
static void
profile(const char *name, const char *text, int flags)
{
	struct profile p;
	struct tsv t;
	char why[4096];
	int r;

	profile_init(&p, flags);
	tsv_open_mem(&t, text, strlen(text), name);
	r = profile_read_tsv(&p, &t, why, sizeof(why));
	said("profile_read_tsv", r == -2, why);
	tsv_close(&t);
	profile_free(&p);
}

/* A row stream read with each row's dispatch told (stall-table --dispatch, by: its
 * --by-dispatch). */
static void
profile_dispatch(const char *name, const char *text, int by)
{
	struct dispatches *ds = dispatch_new(by ? -1 : 0, by);
	struct profile p;
	struct tsv t;
	char why[4096];
	int r;

	profile_init(&p, by ? PROFILE_WALL : 0);
	dispatch_watch(ds, &p);
	p.row_kernel = dispatch_row_hook;
	p.kernel_hook = ds;
	tsv_open_mem(&t, text, strlen(text), name);
	r = profile_read_tsv(&p, &t, why, sizeof(why));
	said("dispatch_row_hook", r == -2, why);
	tsv_close(&t);
	profile_free(&p);
	dispatch_free(ds);
}

/* A stall table in JSON. */
static void
profile_json(const char *name, const char *text)
{
	struct profile p;
	char why[4096];

	profile_init(&p, PROFILE_TABLES);
	said("profile_read_json", profile_read_json(&p, name, text, strlen(text), why,
	    sizeof(why)) != 0, why);
	profile_free(&p);
}

/* n + 1 lines: a header, then line(i) for i < n, in one string. */
static char *
lines(const char *head, size_t n, int (*line)(char *, size_t, size_t))
{
	size_t len = strlen(head), cap = len + 64 * n + 1, i;
	char *s = malloc(cap);

	if (s == NULL)
		exit(2);
	memcpy(s, head, len + 1);
	for (i = 0; i < n; i++)
		len += (size_t)line(s + len, cap - len, i);
	return s;
}

static int
kernel_row(char *s, size_t n, size_t i)
{
	return snprintf(s, n, "k%zu\t0x10\ts_nop\tINST\t1\n", i);
}

static int
event_line(char *s, size_t n, size_t i)
{
	return snprintf(s, n, "##event\t%zu\t0\tk\t1\t1\t0\t0\t0\tf\t%zu\n", i, i);
}

static int
event_row(char *s, size_t n, size_t i)
{
	return snprintf(s, n, "%zu\tk\t0x10\ts_nop\tINST\t1\t5\t1\n", i);
}

/* The rows of a row stream handed to the timeline, as stall-table does. */
static void
timeline(const char *name, const char *text)
{
	struct timeline *tl = timeline_new(1, 0, 0);
	struct tsv t;
	char why[4096];
	int r = 0;

	tsv_open_mem(&t, text, strlen(text), name);
	while (r == 0) {
		enum tsv_kind k = tsv_next(&t);
		if (k == TSV_EOF)
			break;
		if (k == TSV_HEADER)
			r = timeline_header(tl, &t, why, sizeof(why));
		else if (k == TSV_RECORD)
			r = timeline_row(tl, &t, 5, "mem", 0, NULL, why, sizeof(why));
	}
	said("timeline", r != 0, why);
	tsv_close(&t);
	timeline_free(tl);
}

/* The ## lines of text given to a capture writer that writes nothing (sqtt-encode's
 * reading of the context). */
static void
writer_meta(const char *name, const char *text)
{
	struct rocprof_layout l = { 0 };
	struct capture_writer *w;
	struct tsv t;
	char why[4096];
	int r = 0;

	if ((w = capture_writer_new(NULL, 0, &l, why, sizeof(why))) == NULL)
		exit(2);
	tsv_open_mem(&t, text, strlen(text), name);
	while (r == 0 && tsv_next(&t) == TSV_META) {
		if ((r = meta_parse_why(&t, why, sizeof(why))) == 0)
			r = capture_writer_meta(w, &t);
	}
	said("capture_writer_meta", r != 0, why);
	tsv_close(&t);
	capture_writer_free(w);
}

static int
none(const struct capture *c, const struct event *e, void *arg)
{
	(void)c, (void)e, (void)arg;
	return 0;
}

int
main(int argc, char **argv)
{
	struct capture c;
	struct codeload *cl;
	size_t len;
	char why[4096];
	uint8_t *img;
	char *all, *more, *both;
	int i;

	if (argc != 2)
		return 2;
	packets("p1", "0\t0\t-\t10\tNOSUCH\t-\t-\t-\t-\t-\t-\n");
	packets("p2", "0\t0\t-\tten\tWAVE_START\t1\t0\t0\t0\t-\t-\n");
	packets("p3", "0\t0\t-\t10\tINST\t1\t-\t-\t-\tNOSUCH_OP\t-\n");
	packets("p4", "0\t0\t-\t10\tNEW_PC\t-\t-\t-\t-\t-\t-\n");
	packets("p5", "0\t0\t-\t10\tWAVE_START\t1\t0\tx\t0\t-\t-\n");
	timeline("t1", "#event\tse\tkernel\twave\tslot\tpc\ttime\tdelta\ttoken\n");
	timeline("t2", "#event\tse\tkernel\twave\tslot\tpc\ttime\tdelta\ttoken\tinst\n"
	    "0\t0\tk\t1\t0\t0x10\t-5\t0\tINST\ts_nop\n");
	timeline("t3", "#event\tse\tkernel\twave\tslot\tpc\ttime\tdelta\ttoken\tinst\n"
	    "0\t0\tk\tone\t0\t0x10\t5\t0\tINST\ts_nop\n");
	profile("r1", "#kernel\tpc\tinst\ttoken\tdelta\n"
	    "k\t0x10\ts_nop\tINST\t-3\n", 0);
	profile("r2", "#kernel\tpc\tinst\ttoken\tdelta\n"
	    "k\t0x10\ts_nop\tINST\n", 0);
	profile("r3", "#kernel\tpc\tinst\ttoken\n", 0);
	profile("s0", "#kernel\tpc\thits\tcycles\tpct\tcause\tinst\n"
	    "k\t0x10\t1\t5\t100.00\tnosuch\ts_nop\n", PROFILE_TABLES);
	profile("s1", "#kernel\tpc\thits\tcycles\tpct\tcause\tinst\n"
	    "k\t0x10\t1\t5\t100.00\tmem\ts_nop\n", PROFILE_TABLES);
	profile("s2", "#kernel\tpc\thits\tcycles\tpct\tcause\tinst\tc_mem\n"
	    "k\t0x10\t1\t5\t100.00\tmem\ts_nop\t5\n", PROFILE_TABLES);
	profile("s3", "##stall-table\tkernel\tk\tcycles\tmany\n"
	    "#kernel\tpc\thits\tcycles\tpct\tcause\tinst\n", PROFILE_TABLES);
	/* the row stream's own errors (read_row), after the stream's */
	profile("r4", "#kernel\tpc\tinst\ttoken\tcost\tcause\tcost2\tcause2\n"
	    "k\t0x10\ts_nop\tINST\t3\tmem\t5\tsalu\n", 0);
	profile("r5", "#event\tkernel\tpc\tinst\ttoken\tcost\ttime\tdelta\n"
	    "0\tk\t0x10\ts_nop\tINST\t1\t5\t9\n", PROFILE_WALL);
	profile("r6", "#kernel\tpc\tinst\ttoken\tcost\n"
	    "k\t0x10\ts_nop\tINST\t9223372036854775807\n"
	    "k\t0x10\ts_nop\tINST\t1\n", 0);
	profile("r7", "#kernel\tpc\tinst\ttoken\tcost\tcause\n"
	    "k\t0x10\ts_nop\tINST\t1\tnap\n", PROFILE_STRICT);
	profile("r8", "#kernel\tpc\tinst\ttoken\tcost\n"
	    "k\t0x10\ts_nop\tINST\tx\n", 0);
	profile("r9", "#event\tkernel\tpc\tinst\ttoken\tcost\ttime\tdelta\n"
	    "e\tk\t0x10\ts_nop\tINST\t1\t5\t1\n", PROFILE_WALL);
	all = lines("#kernel\tpc\tinst\ttoken\tcost\n", PROFILE_MAX_KERNELS + 1, kernel_row);
	profile("r10", all, 0);
	free(all);
	/* the dispatch hook's */
	profile_dispatch("d1", "#kernel\tpc\tinst\ttoken\tcost\n"
	    "k\t0x10\ts_nop\tINST\t1\n", 0);
	profile_dispatch("d2", "##event\tx\n#event\tkernel\tpc\tinst\ttoken\tcost\n"
	    "0\tk\t0x10\ts_nop\tINST\t1\n", 0);
	profile_dispatch("d3", "#event\tkernel\tpc\tinst\ttoken\tcost\n"
	    "e\tk\t0x10\ts_nop\tINST\t1\n", 0);
	all = lines("", PROFILE_MAX_KERNELS + 1, event_line);
	more = lines("#event\tkernel\tpc\tinst\ttoken\tcost\ttime\tdelta\n",
	    PROFILE_MAX_KERNELS + 1, event_row);
	if ((both = malloc(strlen(all) + strlen(more) + 1)) == NULL)
		return 2;
	strcpy(both, all);
	strcat(both, more);
	profile_dispatch("d4", both, 1);
	free(all);
	free(more);
	free(both);
	/* the JSON table reader's */
	profile_json("j1", "{\"version\": 1,");
	profile_json("j2", "[]");
	profile_json("j3", "{\"version\": 2}");
	profile_json("j4", "{\"version\": 1, \"view\": \"cause\", \"top\": 0, \"kernels\": "
	    "[{\"kernel\": \"k\"}]}");
	profile_json("j5", "{\"version\": 1, \"view\": \"cause\", \"top\": 0, \"kernels\": "
	    "[{\"kernel\": \"k\", \"cycles\": 5, \"waves\": 1, \"hits\": 1, "
	    "\"untraced_waves\": 0, \"untraced_cycles\": 0, \"causes\": {\"nap\": 5}}]}");
	profile_json("j6", "{\"version\": 1, \"view\": \"cause\", \"top\": 0, \"kernels\": "
	    "[{\"kernel\": \"k\", \"cycles\": 5, \"waves\": 1, \"hits\": 1, "
	    "\"untraced_waves\": 0, \"untraced_cycles\": 0, \"causes\": {\"mem\": 5}, "
	    "\"cause\": \"mem\", \"rows\": [{\"pc\": \"0x10\", \"inst\": \"s_nop\", "
	    "\"hits\": 0}]}]}");
	profile_json("j7", "{\"version\": 1, \"view\": \"cause\", \"top\": 0, \"kernels\": "
	    "[{\"kernel\": \"k\", \"cycles\": 5, \"waves\": 1, \"hits\": 1, "
	    "\"untraced_waves\": 0, \"untraced_cycles\": 0, \"causes\": {\"mem\": 5}, "
	    "\"cause\": \"mem\", \"rows\": [{\"pc\": \"0x10\", \"inst\": \"s_nop\", "
	    "\"hits\": 1, \"cycles\": 4, \"causes\": {\"mem\": 4}, \"cause\": \"mem\"}]}]}");
	writer_meta("m1", "##code\tdemo\t1\n");
	writer_meta("m2", "##event\tx\t0\tdemo\t1\t1\t0\t0\t0\tf\n");
	writer_meta("m3", "##event\t0\t0\tdemo\t1\t1\t0\t0\t0\tf\t0x\n");
	writer_meta("m4", "##source\ta\\qb\n");
	/* codeload: a ##source that is no capture, twice (the second asks again) */
	cl = codeload_new();
	for (i = 0; i < 2; i++) {
		img = codeload_program(cl, "/nonexistent/capture.pkl", "demo", "-", "-", &len, why,
		    sizeof(why));
		said("codeload_program", img == NULL && codeload_broken(cl) != NULL,
		    codeload_broken(cl) ? codeload_broken(cl) : "");
		free(img);
	}
	codeload_free(cl);
	/* rgp_write: nothing selected, then a file that cannot be made; capture_open of
	 * what is no capture */
	if (capture_open(&c, argv[1], NULL, why, sizeof(why)) != 0) {
		printf("capture_open %s: %s\n", argv[1], why);
		return 2;
	}
	said("rgp_write", rgp_write(&c, "out.rgp", none, NULL, why, sizeof(why)) == 0, why);
	said("rgp_write", rgp_write(&c, "/nonexistent/out.rgp", NULL, NULL, why,
	    sizeof(why)) == 0, why);
	capture_close(&c);
	said("capture_open", capture_open(&c, "/nonexistent", NULL, why, sizeof(why)) != 0,
	    why);
	for (i = 0; i < 3; i++) {	/* an empty file, a text, a pickle of protocol 1 */
		static const char *const bytes[] = { "", "text\n", "\x80\x01" };
		FILE *fp = fopen("bad.pkl", "w");
		if (fp == NULL || fputs(bytes[i], fp) == EOF || fclose(fp) != 0)
			return 2;
		said("capture_open", capture_open(&c, "bad.pkl", NULL, why, sizeof(why)) != 0,
		    why);
	}
	remove("bad.pkl");
	printf("all returned\n");
	return bad;
}
