/* stall-annotate: a costed row stream read back against the kernel's code: source lines,
 * an annotated listing, loops, what each wait waited for, hidden latency and hints
 * (stall-annotate(1)).  The engine is libcommon's annotate; this is its options. */
#include <sys/stat.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "annotate.h"
#include "capture.h"
#include "cli.h"
#include "load.h"
#include "tsv.h"
#include "util.h"

static const struct cli cli = {
	.synopsis = {
		"[-hV] [--lines | --annotate | --loops | --waits | --wait-rows | --loads | --hidden | --hints]",
		"\t[-k name] [--dispatch n] [--hint-min percent] [--source-dir dir] [--untraced]",
		"\t[file ...]",
		NULL
	},
	.options = "annotate dispatch hidden hint-min hints kernel/k lines loads loops source-dir "
	    "untraced wait-rows waits version/V",
	.help =
	    "Read a costed row stream (stall-attr), or a capture (its rows made in process,\n"
	    "as stall --rows makes them), against its kernels' code objects.\n"
	    "\n"
	    "      --lines     cycles per source line (DWARF line table; ??:0 if none)\n"
	    "      --annotate  every instruction in address order, source interleaved\n"
	    "      --loops     innermost loops: iterations, cycles per iteration, spin\n"
	    "      --waits     per s_waitcnt, the operations it retired and their latency\n"
	    "      --wait-rows the same for every s_waitcnt row, as it is read\n"
	    "      --loads     per memory instruction, the waits it caused\n"
	    "      --hidden    per instruction, cycles hidden by other waves' issue\n"
	    "      --hints     advice from the measured rows, with its evidence\n"
	    "      --hint-min P  hoist: a load's waits must cost P% (default 5)\n"
	    "  -k, --kernel NAME  only kernel NAME\n"
	    "      --dispatch N  only the rows of dispatch N (rocprofv3's dispatch id)\n"
	    "      --source-dir DIR  --annotate reads source files under DIR (repeatable;\n"
	    "                  default: the code object's directory)\n"
	    "      --untraced  count waves without instruction tokens too\n"
	    "  -V, --version   the version\n"
	    "  -h, --help      this text\n"
	    "See stall-annotate(1).\n",
};

/* One stream, line by line into the engine; a line it refuses ends the run.  0: the
 * stream had no '#' header line. */
static int
read_stream(struct annotate *a, struct tsv *t)
{
	int header_seen = 0, r;

	for (;;) {
		enum tsv_kind kind = tsv_next(t);
		if (kind == TSV_EOF)
			break;
		if (kind == TSV_META)
			r = annotate_meta(a, t);
		else if (kind == TSV_HEADER) {
			r = annotate_header(a, t);
			header_seen = 1;
		} else
			r = annotate_row(a, t);
		if (r < 0)
			tsv_fail(t, "%s", annotate_error(a));
	}
	annotate_end_input(a);
	return header_seen;
}

static void
read_text(struct annotate *a, struct tsv *t)
{
	fatal_push(tsv_close_at, t);	/* a refused line raises to CLI_MAIN's catch */
	if (!read_stream(a, t))
		errx(2, "%s: no '#' column header line: not a row stream", t->path);
	fatal_pop(t);
}

static void free_annotate(void *a) { annotate_free(a); }

/* How a capture's buffers are chosen (-k, --dispatch), as stall chooses them. */
static struct capture_opts copt;

/* An input: a row stream (its first byte that is not white space is '#', and standard
 * input always), or a capture: a directory, or a file of another kind (a profile pickle),
 * run through the pipeline in process (the rows stall --rows would write). */
static void
read_input(struct annotate *a, const char *path)
{
	char head[4096], why[4096];
	struct tsv t;
	struct stat st;
	size_t n = 0, i;
	ssize_t got;
	int fd;
	FILE *fp;

	if (strcmp(path, "-") == 0) {
		tsv_open_path(&t, path);
		read_text(a, &t);
		tsv_close(&t);
		return;
	}
	if (stat(path, &st) < 0)
		err(2, "%s", path);
	if (!S_ISDIR(st.st_mode)) {
		if ((fd = open(path, O_RDONLY | O_NONBLOCK)) < 0)
			err(2, "%s", path);
		if (fstat(fd, &st) < 0)
			err(2, "%s", path);
		if (!S_ISDIR(st.st_mode)) {
			fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
			for (i = 0;; i++) {
				if (i == n) {
					do
						got = n < sizeof(head) ? read(fd, head + n, sizeof(head) - n) : 0;
					while (got < 0 && errno == EINTR);
					if (got < 0)
						err(2, "%s", path);
					if (got == 0)
						break;
					n += (size_t)got;
				}
				if (head[i] != ' ' && head[i] != '\t' && head[i] != '\r' && head[i] != '\n')
					break;
			}
			if (i == n || head[i] == '#' || !S_ISREG(st.st_mode)) {
				/* a stream: also an empty file, and a pipe that is not a capture */
				if ((fp = fdopen(fd, "r")) == NULL)
					err(2, "%s", path);
				tsv_open(&t, fp, path);
				tsv_prime(&t, head, n);
				read_text(a, &t);
				tsv_close(&t);
				fclose(fp);
				return;
			}
		}
		close(fd);
	}
	if (load_annotate(a, path, &copt, why, sizeof(why)) != 0) {
		fflush(stdout);
		errx(2, "%s", why);
	}
}

static int
run(int argc, char *argv[])
{
	struct annotate_opts o = { .view = AV_LINES, .hint_min = 5.0, .dispatch = -1,
		.out = stdout };
	struct annotate *a;
	const char **dirs = NULL;
	int ch, i, nview = 0, ndir = 0;
	char *end;

	while ((ch = cli_getopt(argc, argv, &cli)) != -1) {
		switch (ch) {
		case OPT_ANNOTATE: o.view = AV_ANNOTATE; nview++; break;
		case OPT_LOADS: o.view = AV_LOADS; nview++; break;
		case OPT_HIDDEN: o.view = AV_HIDDEN; nview++; break;
		case OPT_HINTS: o.view = AV_HINTS; nview++; break;
		case OPT_LINES: o.view = AV_LINES; nview++; break;
		case OPT_LOOPS: o.view = AV_LOOPS; nview++; break;
		case OPT_WAITS: o.view = AV_WAITS; nview++; break;
		case OPT_WAIT_ROWS: o.view = AV_WAIT_ROWS; nview++; break;
		case OPT_UNTRACED: o.untraced = 1; break;
		case 'k':
			o.kernel = optarg;
			(void)capture_option(&copt, ch, optarg);
			break;
		case OPT_DISPATCH:
			o.dispatch = cli_number("--dispatch", optarg, 0, LLONG_MAX);
			(void)capture_option(&copt, ch, optarg);
			break;
		case OPT_SOURCE_DIR:
			dirs = xreallocarray(dirs, (size_t)ndir + 2, sizeof(*dirs));
			dirs[ndir++] = optarg;
			dirs[ndir] = NULL;
			o.source_dirs = dirs;
			break;
		case OPT_HINT_MIN:
			o.hint_min = strtod(optarg, &end);
			if (end == optarg || *end != '\0' || !(o.hint_min >= 0 && o.hint_min <= 100))
				errx(2, "--hint-min is not a percent from 0 to 100: %s", optarg);
			break;
		default:
			cli_usage(&cli);
		}
	}
	cli_operands(&cli, &argc, &argv, 0, -1);
	if (nview > 1)
		errx(2, "one view at a time");

	a = annotate_new(&o);
	fatal_push(free_annotate, a);
	if (argc == 0)
		read_input(a, "-");
	for (i = 0; i < argc; i++)
		read_input(a, argv[i]);
	if (annotate_report(a) < 0)
		die("%s: %s", argc ? argv[argc - 1] : "stdin", annotate_error(a));
	fatal_pop(a);
	annotate_free(a);
	free(dirs);
	if (fflush(stdout) != 0 || ferror(stdout))
		err(2, "stdout");
	return 0;
}

CLI_MAIN(run)
