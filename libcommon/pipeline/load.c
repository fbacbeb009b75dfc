#include <sys/stat.h>

#include <err.h>
#include <limits.h>
#include <unistd.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "load.h"
#include "meta.h"
#include "pipeline.h"
#include "tsv.h"
#include "util.h"

#define SNIFF 4096
#define JSON_MAX (64u << 20)	/* a stall table of 100000 instructions is less */


static size_t
read_some(int fd, char *buf, size_t max, const char *name)
{
	ssize_t n;

	do
		n = read(fd, buf, max);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		err(2, "%s", name);
	return (size_t)n;
}

static void
read_stream(struct profile *p, int fd, const char *name, const char *head, size_t nhead)
{
	struct tsv t;
	FILE *fp;

	if ((fp = fdopen(fd, "r")) == NULL)
		err(2, "%s", name);
	tsv_open(&t, fp, name);
	tsv_prime(&t, head, nhead);
	if (profile_read_tsv(p, &t) < 0)
		die("%s: no '#' column header line: not a row stream or stall table", name);
	tsv_close(&t);
	fclose(fp);
}

static void
read_json(struct profile *p, int fd, const char *name, const char *head, size_t nhead)
{
	size_t cap = SNIFF * 4, len = nhead, n;
	char *buf = xcalloc(1, cap);

	memcpy(buf, head, nhead);
	for (;;) {
		if (len == cap) {
			if (cap >= JSON_MAX)
				die("%s: more than %u MiB: too large for a stall table", name,
				    JSON_MAX >> 20);
			cap *= 2;
			buf = xreallocarray(buf, cap, 1);
		}
		if ((n = read_some(fd, buf + len, cap - len, name)) == 0)
			break;
		len += n;
	}
	close(fd);
	profile_read_json(p, name, buf, len);
	free(buf);
}

/* The rows of a capture to annotate, as values: the kernel column escaped once per
 * kernel (a walker's name keeps its pointer). */
struct to_annotate {
	struct annotate *a;
	const char *kernel_of;
	char *kernel;
	const char *path;
	int failed;
	char why[600];
};

static void
annotate_one(void *ctx, const struct pipeline_row *pr)
{
	struct to_annotate *ta = ctx;
	const struct walk_row *w = pr->walk;
	struct annotate_rec r;

	if (ta->failed)
		return;
	if (w->kernel != ta->kernel_of) {
		free(ta->kernel);
		ta->kernel = meta_escape(w->kernel);
		ta->kernel_of = w->kernel;
	}
	r.kernel = ta->kernel;
	r.tag = w->tag ? w->tag : "-";
	r.event = (uint64_t)w->event;
	r.wave = w->wave;
	r.time = w->time;
	r.has_pc = 1;
	r.pc = w->pc;
	r.delta = (int64_t)w->delta;
	r.cost = pr->cost;
	r.cause = pr->cause;
	r.cost2 = pr->cost2;
	r.cause2 = pr->cause2;
	r.kind = w->kind;
	r.cls = w->in->cls;
	r.retired = pr->retired ? pr->retired : "-";
	if (annotate_put(ta->a, &r) < 0) {
		/* the first refusal ends the run: the rest of the rows are passed over */
		snprintf(ta->why, sizeof(ta->why), "%s", annotate_error(ta->a));
		ta->failed = 1;
	}
}

void
load_annotate(struct annotate *a, const char *path, const struct capture_opts *copt)
{
	struct pipeline_opts po = { 0 };
	struct to_annotate ta = { .a = a, .path = path };
	struct pipeline *pl;
	const char *const *w;
	char why[1024], *ctx = NULL;
	size_t n, i, len = 0;
	uint64_t more;
	struct tsv t;
	FILE *fp;

	po.copt = *copt;
	po.rows = 1;
	if ((pl = pipeline_open(path, &po, why, sizeof(why))) == NULL)
		die("%s", why);
	/* the context lines, read as a stream's are: the programs, the events' dispatches */
	if ((fp = open_memstream(&ctx, &len)) == NULL)
		err(2, "%s", path);
	pipeline_put_context(pl, fp);
	if (fclose(fp) != 0)
		err(2, "%s", path);
	tsv_open_mem(&t, ctx, len, path);
	while (tsv_next(&t) == TSV_META)
		if (annotate_meta(a, &t) < 0)
			die("%s: %s", path, annotate_error(a));
	tsv_close(&t);
	free(ctx);
	if (pipeline_run(pl, NULL, annotate_one, &ta) != 0)
		die("%s", pipeline_error(pl));
	w = pipeline_warnings(pl, &n, &more);
	for (i = 0; i < n; i++)
		warning_out("%s", w[i]);
	if (more)
		warning_out("%" PRIu64 " more warnings", more);
	pipeline_close(pl);
	free(ta.kernel);
	if (ta.failed)
		die("%s: %s", path, ta.why);
	annotate_end_input(a);
}

/* A capture: its rows summed through the pipeline, in process (what `stall --rows` would
 * write, read back). */
static void
read_capture(struct profile *p, const char *path)
{
	struct pipeline_opts po = { 0 };
	struct pipeline *pl;
	const char *const *w;
	char why[1024];
	uint64_t more;
	size_t n, i;

	if ((pl = pipeline_open(path, &po, why, sizeof(why))) == NULL)
		die("%s", why);
	if (pipeline_run(pl, p, NULL, NULL) != 0)
		die("%s", pipeline_error(pl));
	w = pipeline_warnings(pl, &n, &more);
	for (i = 0; i < n; i++)
		warning_out("%s", w[i]);
	if (more)
		warning_out("%" PRIu64 " more warnings", more);
	pipeline_close(pl);
}

void
load_profile(struct profile *p, const char *path)
{
	const char *name = path;
	char head[SNIFF];
	size_t n = 0, i;
	struct stat st;
	int fd;

	if (strcmp(path, "-") == 0) {
		fd = STDIN_FILENO;
		name = "stdin";
	} else {
		if (stat(path, &st) < 0)
			err(2, "%s", path);
		if (S_ISDIR(st.st_mode)) {
			read_capture(p, path);
			goto done;
		}
		if ((fd = open(path, O_RDONLY)) < 0)
			err(2, "%s", path);
	}
	/* the first byte that is not white space tells the format */
	for (i = 0;; i++) {
		if (i == n) {
			size_t m = n < SNIFF ? read_some(fd, head + n, SNIFF - n, name) : 0;
			if (m == 0)
				break;
			n += m;
		}
		if (head[i] != ' ' && head[i] != '\t' && head[i] != '\r' && head[i] != '\n')
			break;
	}
	if (i == n)
		die("%s: no rows: the input is empty", name);
	if (head[i] == '#')
		read_stream(p, fd, name, head, n);
	else if (head[i] == '{')
		read_json(p, fd, name, head, n);
	else if (fd == STDIN_FILENO)
		die("%s: not a row stream or stall table (a capture is named by its path)", name);
	else {
		close(fd);
		read_capture(p, path);
	}
done:
	profile_finish(p);
	if (p->nkernel == 0)
		die("%s: no rows", name);
}
