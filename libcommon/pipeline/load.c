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


/* Bytes read, 0 at the end, -1 with why at an error. */
static ssize_t
read_some(int fd, char *buf, size_t max, const char *name, char *why, size_t whysz)
{
	ssize_t n;

	do
		n = read(fd, buf, max);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return fail_why(why, whysz, "%s: %s", name, strerror(errno));
	return n;
}

/* The table readers' errors (tsv_fail, the profile's) come back: -1 with why. */
static int
read_stream(struct profile *p, int fd, const char *name, const char *head, size_t nhead,
    char *why, size_t whysz)
{
	struct tsv t;
	FILE *fp;
	int r;

	if ((fp = fdopen(fd, "r")) == NULL)
		return fail_why(why, whysz, "%s: %s", name, strerror(errno));
	tsv_open(&t, fp, name);
	tsv_prime(&t, head, nhead);
	r = profile_read_tsv(p, &t, why, whysz);
	tsv_close(&t);
	fclose(fp);
	if (r == -1)
		return fail_why(why, whysz, "%s: no '#' column header line: not a row stream or "
		    "stall table", name);
	return r < 0 ? -1 : 0;
}

/* The JSON table in buf (freed here) read: its errors come back, -1 with why. */
static int
parse_json(struct profile *p, const char *name, char *buf, size_t len, char *why,
    size_t whysz)
{
	int r = profile_read_json(p, name, buf, len, why, whysz);

	free(buf);
	return r;
}

static int
read_json(struct profile *p, int fd, const char *name, const char *head, size_t nhead,
    char *why, size_t whysz)
{
	size_t cap = SNIFF * 4, len = nhead;
	char *buf = xcalloc(1, cap);
	ssize_t n;

	memcpy(buf, head, nhead);
	for (;;) {
		if (len == cap) {
			if (cap >= JSON_MAX) {
				free(buf);
				close(fd);
				return fail_why(why, whysz, "%s: more than %u MiB: too large for a "
				    "stall table", name, JSON_MAX >> 20);
			}
			cap *= 2;
			buf = xreallocarray(buf, cap, 1);
		}
		if ((n = read_some(fd, buf + len, cap - len, name, why, whysz)) < 0) {
			free(buf);
			close(fd);
			return -1;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	return parse_json(p, name, buf, len, why, whysz);
}

/* The rows of a capture to annotate, as values: the kernel column escaped once per
 * kernel (a walker's name keeps its pointer). */
struct to_annotate {
	struct annotate *a;
	const char *kernel_of;
	char *kernel;
	struct { const char *of; char *name; } *names;	/* every kernel's, kept to the end:
						 * annotate finds a program by their addresses */
	size_t nnames;
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
		size_t i;
		for (i = 0; i < ta->nnames && ta->names[i].of != w->kernel; i++)
			;
		if (i == ta->nnames) {
			ta->names = xreallocarray(ta->names, ta->nnames + 1, sizeof(*ta->names));
			ta->names[i].of = w->kernel;
			ta->names[i].name = meta_escape(w->kernel);
			ta->nnames++;
		}
		ta->kernel = ta->names[i].name;
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

int
load_annotate(struct annotate *a, const char *path, const struct capture_opts *copt,
    char *why, size_t whysz)
{
	struct pipeline_opts po = { 0 };
	struct to_annotate ta = { .a = a, .path = path };
	struct pipeline *pl;
	const char *const *w;
	char *ctx = NULL;
	size_t n, i, len = 0;
	uint64_t more;
	struct tsv t;
	FILE *fp;
	int r = 0;

	po.copt = *copt;
	po.rows = 1;
	if ((pl = pipeline_open(path, &po, why, whysz)) == NULL)
		return -1;
	/* the context lines, read as a stream's are: the programs, the events' dispatches */
	if ((fp = open_memstream(&ctx, &len)) == NULL) {
		pipeline_close(pl);
		return fail_why(why, whysz, "%s: %s", path, strerror(errno));
	}
	pipeline_put_context(pl, fp);
	if (fclose(fp) != 0) {
		free(ctx);
		pipeline_close(pl);
		return fail_why(why, whysz, "%s: %s", path, strerror(errno));
	}
	tsv_open_mem(&t, ctx, len, path);
	while (r == 0 && tsv_next(&t) == TSV_META)
		if (annotate_meta(a, &t) < 0)
			r = fail_why(why, whysz, "%s: %s", path, annotate_error(a));
	tsv_close(&t);
	free(ctx);
	annotate_names_stay(a);
	if (r == 0 && pipeline_run(pl, NULL, annotate_one, &ta) != 0)
		r = fail_why(why, whysz, "%s", pipeline_error(pl));
	if (r == 0) {
		w = pipeline_warnings(pl, &n, &more);
		for (i = 0; i < n; i++)
			warning_out("%s", w[i]);
		if (more)
			warning_out("%" PRIu64 " more warning%s", more, more == 1 ? "" : "s");
	}
	pipeline_close(pl);
	for (i = 0; i < ta.nnames; i++)
		free(ta.names[i].name);
	free(ta.names);
	if (r != 0)
		return r;
	if (ta.failed)
		return fail_why(why, whysz, "%s: %s", path, ta.why);
	annotate_end_input(a);
	return 0;
}

/* A capture: its rows summed through the pipeline, in process (what `stall --rows` would
 * write, read back). */
static int
read_capture(struct profile *p, const char *path, char *why, size_t whysz)
{
	struct pipeline_opts po = { 0 };
	struct pipeline *pl;
	const char *const *w;
	uint64_t more;
	size_t n, i;

	if ((pl = pipeline_open(path, &po, why, whysz)) == NULL)
		return -1;
	if (pipeline_run(pl, p, NULL, NULL) != 0) {
		fail_why(why, whysz, "%s", pipeline_error(pl));
		pipeline_close(pl);
		return -1;
	}
	w = pipeline_warnings(pl, &n, &more);
	for (i = 0; i < n; i++)
		warning_out("%s", w[i]);
	if (more)
		warning_out("%" PRIu64 " more warning%s", more, more == 1 ? "" : "s");
	pipeline_close(pl);
	return 0;
}

int
load_profile(struct profile *p, const char *path, char *why, size_t whysz)
{
	const char *name = path;
	char head[SNIFF];
	size_t n = 0, i;
	struct stat st;
	int fd, r;

	if (strcmp(path, "-") == 0) {
		fd = STDIN_FILENO;
		name = "stdin";
	} else {
		if (stat(path, &st) < 0)
			return fail_why(why, whysz, "%s: %s", path, strerror(errno));
		if (S_ISDIR(st.st_mode)) {
			if (read_capture(p, path, why, whysz) != 0)
				return -1;
			goto done;
		}
		if ((fd = open(path, O_RDONLY)) < 0)
			return fail_why(why, whysz, "%s: %s", path, strerror(errno));
	}
	/* the first byte that is not white space tells the format */
	for (i = 0;; i++) {
		if (i == n) {
			ssize_t m = 0;
			if (n < SNIFF && (m = read_some(fd, head + n, SNIFF - n, name, why,
			    whysz)) < 0) {
				if (fd != STDIN_FILENO)
					close(fd);
				return -1;
			}
			if (m == 0)
				break;
			n += (size_t)m;
		}
		if (head[i] != ' ' && head[i] != '\t' && head[i] != '\r' && head[i] != '\n')
			break;
	}
	if (i == n) {
		if (fd != STDIN_FILENO)
			close(fd);
		return fail_why(why, whysz, "%s: no rows: the input is empty", name);
	}
	if (head[i] == '#')
		r = read_stream(p, fd, name, head, n, why, whysz);
	else if (head[i] == '{')
		r = read_json(p, fd, name, head, n, why, whysz);
	else if (fd == STDIN_FILENO)
		return fail_why(why, whysz, "%s: not a row stream or stall table (a capture is "
		    "named by its path)", name);
	else {
		close(fd);
		r = read_capture(p, path, why, whysz);
	}
	if (r != 0)
		return -1;
done:
	profile_finish(p);
	if (p->nkernel == 0)
		return fail_why(why, whysz, "%s: no rows", name);
	return 0;
}
