#include <err.h>
#include <getopt.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "util.h"

/* Every option of every program: its long name, whether it takes an argument, and its
 * code: its letter where it has one (a program may still leave the letter out). */
static const struct {
	const char *name;
	int has_arg, code;
} vocabulary[] = {
	{ "all", no_argument, 'a' },
	{ "annotate", no_argument, OPT_ANNOTATE },
	{ "base", required_argument, 'b' },
	{ "by-dispatch", no_argument, OPT_BY_DISPATCH },
	{ "changed", no_argument, OPT_CHANGED },
	{ "code", required_argument, 'c' },
	{ "counts", no_argument, OPT_COUNTS },
	{ "deltas", no_argument, 'r' },
	{ "dir", required_argument, 'd' },
	{ "dispatch", required_argument, OPT_DISPATCH },
	{ "event", required_argument, 'e' },
	{ "extract", required_argument, 'x' },
	{ "help", no_argument, 'h' },
	{ "hidden", no_argument, OPT_HIDDEN },
	{ "hint-min", required_argument, OPT_HINT_MIN },
	{ "hints", no_argument, OPT_HINTS },
	{ "html", required_argument, OPT_HTML },
	{ "json", no_argument, 'j' },
	{ "kernel", required_argument, 'k' },
	{ "kernel-trace", no_argument, OPT_KERNEL_TRACE },
	{ "lines", no_argument, OPT_LINES },
	{ "loads", no_argument, OPT_LOADS },
	{ "loops", no_argument, OPT_LOOPS },
	{ "name", required_argument, OPT_NAME },
	{ "no-header", no_argument, 'H' },
	{ "no-index", no_argument, OPT_NO_INDEX },
	{ "output", required_argument, 'o' },
	{ "occupancy", no_argument, OPT_OCCUPANCY },
	{ "packets", required_argument, OPT_PACKETS },
	{ "plain", no_argument, OPT_PLAIN },
	{ "pretty", no_argument, 'p' },
	{ "raw", no_argument, OPT_RAW },
	{ "rgp", required_argument, OPT_RGP },
	{ "rocpd", no_argument, OPT_ROCPD },
	{ "rows", no_argument, OPT_ROWS },
	{ "se", required_argument, OPT_SE },
	{ "sort", required_argument, 's' },
	{ "source-dir", required_argument, OPT_SOURCE_DIR },
	{ "streams", required_argument, 'X' },
	{ "strict", no_argument, OPT_STRICT },
	{ "threads", required_argument, OPT_THREADS },
	{ "threshold", required_argument, 'T' },
	{ "top", required_argument, 'n' },
	{ "trace-json", required_argument, OPT_TRACE_JSON },
	{ "tsv", no_argument, 't' },
	{ "types", required_argument, OPT_TYPES },
	{ "untraced", no_argument, OPT_UNTRACED },
	{ "version", no_argument, 'V' },
	{ "wait-rows", no_argument, OPT_WAIT_ROWS },
	{ "waits", no_argument, OPT_WAITS },
	{ "write-baseline", required_argument, 'w' },
};
#define NWORDS (sizeof(vocabulary) / sizeof(vocabulary[0]))

static void
put_synopsis(FILE *fp, const char *const *synopsis)
{
	const char *prog = getprogname();
	int indent = (int)strlen(prog) + 8;	/* "usage: " and the space after the name */
	size_t i;

	for (i = 0; synopsis[i] != NULL; i++) {
		if (synopsis[i][0] == '\t')
			fprintf(fp, "%*s%s\n", indent, "", synopsis[i] + 1);
		else
			fprintf(fp, "%s %s %s\n", i == 0 ? "usage:" : "      ", prog, synopsis[i]);
	}
}

void
cli_usage(const struct cli *c)
{
	fflush(stdout);
	put_synopsis(stderr, c->synopsis);
	exit(2);
}

long long
cli_number(const char *option, const char *arg, long long min, long long max)
{
	const char *errstr;
	long long v = strtonum(arg, min, max, &errstr);

	if (errstr) {
		fflush(stdout);
		errx(2, "%s is %s: %s", option, errstr, arg);
	}
	return v;
}

static void __attribute__((noreturn))
done(void)
{
	if (fflush(stdout) != 0 || ferror(stdout))
		exit(2);
	exit(0);
}

/* A list of option names ("name" or "name/x") added to the getopt_long table opt[*n]
 * and the short options at shortopts[*s]. */
static void
add_names(const char *names, struct option *opt, size_t *n, char *shortopts, size_t *s)
{
	char name[32], *slash;
	const char *p = names, *end;
	size_t i, j;

	for (;;) {
		while (*p == ' ')
			p++;
		if (*p == '\0')
			break;
		if ((end = strchr(p, ' ')) == NULL)
			end = p + strlen(p);
		if ((size_t)(end - p) >= sizeof(name))
			errx(2, "internal error: option '%.*s'", (int)(end - p), p);
		memcpy(name, p, (size_t)(end - p));
		name[end - p] = '\0';
		p = end;
		if ((slash = strchr(name, '/')) != NULL)
			*slash = '\0';
		for (i = 0; i < NWORDS && strcmp(vocabulary[i].name, name) != 0; i++)
			;
		if (i == NWORDS)
			errx(2, "internal error: --%s is not in the vocabulary", name);
		for (j = 0; j < *n && opt[j].val != vocabulary[i].code; j++)
			;
		if (j == *n) {	/* named twice: once in the table */
			opt[*n].name = vocabulary[i].name;
			opt[*n].has_arg = vocabulary[i].has_arg;
			opt[*n].flag = NULL;
			opt[*n].val = vocabulary[i].code;
			(*n)++;
		}
		if (slash == NULL)
			continue;
		if (slash[1] != vocabulary[i].code || slash[2] != '\0')
			errx(2, "internal error: -%s is not --%s's letter", slash + 1, name);
		shortopts[(*s)++] = (char)vocabulary[i].code;
		if (vocabulary[i].has_arg == required_argument)
			shortopts[(*s)++] = ':';
	}
}

/* The program's getopt_long table and short options: --help (-h), --version, its own. */
static void
build(const struct cli *c, struct option *opt, char *shortopts)
{
	size_t i, j, n = 0, s = 0;

	for (i = 0; i < NWORDS; i++)
		for (j = i + 1; j < NWORDS; j++)
			if (vocabulary[i].code == vocabulary[j].code)
				errx(2, "internal error: --%s and --%s share a code",
				    vocabulary[i].name, vocabulary[j].name);
	shortopts[s++] = ':';	/* a missing argument is told from an unknown option */
	add_names("help/h version", opt, &n, shortopts, &s);
	add_names(c->options, opt, &n, shortopts, &s);
	shortopts[s] = '\0';
	memset(&opt[n], 0, sizeof(opt[n]));
}

int cli_strict;

/* What was wrong with the option getopt_long stopped at (arg, as typed). */
static void
bad_option(const char *arg, const struct option *opt)
{
	size_t n, i;

	if (arg[0] != '-' || arg[1] != '-') {
		warnx("unknown option -%c", optopt);
		return;
	}
	n = strcspn(arg + 2, "=");
	for (i = 0; opt[i].name != NULL; i++)
		if (strncmp(opt[i].name, arg + 2, n) == 0 && opt[i].name[n] == '\0') {
			warnx("option '--%s' takes no argument", opt[i].name);
			return;
		}
	warnx("unknown option '%.*s'", (int)(n + 2 < 64 ? n + 2 : 64), arg);
}

void
cli_operands(const struct cli *c, int *argc, char ***argv, int min, int max)
{
	*argc -= optind;
	*argv += optind;
	if (*argc < min || (max >= 0 && *argc > max))
		cli_usage(c);
}

int
cli_getopt(int argc, char *const argv[], const struct cli *c)
{
	/* one program, one table: built at the first call */
	static struct option opt[NWORDS + 3];
	static char shortopts[3 * NWORDS + 2];
	static const struct cli *built;
	int ch;

	if (built != c) {
		build(c, opt, shortopts);
		built = c;
	}
	opterr = 0;	/* its messages name argv[0] as it was typed; ours name the program */
	while ((ch = getopt_long(argc, argv, shortopts, opt, NULL)) == OPT_STRICT)
		cli_strict = 1;
	switch (ch) {
	case 'h':
		put_synopsis(stdout, c->synopsis);
		fputs(c->help, stdout);
		done();
	case 'V':
		printf("%s (stall) %s\n", getprogname(), STALL_VERSION);
		done();
	case ':':
		fflush(stdout);
		if (argv[optind - 1][1] == '-')
			warnx("option '%s' needs an argument", argv[optind - 1]);
		else
			warnx("option -%c needs an argument", optopt);
		cli_usage(c);
	case '?':
		fflush(stdout);
		bad_option(argv[optind - 1], opt);
		cli_usage(c);
	}
	return ch;
}

int
cli_run(int (*body)(int, char *[]), int argc, char *argv[], char *why, size_t whysz)
{
	struct fatal_catch fc;
	int st;

	fatal_arm(&fc, why, whysz);
	if (setjmp(fc.back) != 0)
		return -1;
	st = body(argc, argv);
	fatal_disarm(&fc);
	return st;
}
