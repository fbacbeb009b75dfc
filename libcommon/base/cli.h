/* cli: what a program says of itself and the options it takes, each from one place.
 * A program's struct cli holds its synopsis (the usage line of a mistake, the head of
 * --help, the SYNOPSIS of its man page, which a test holds to it), its help and the
 * options it takes, by name from the one vocabulary in cli.c: a letter means the same
 * thing in every program that has it (docs/options.md says what each means). */
#ifndef CLI_H
#define CLI_H
#include <err.h>
#include <stddef.h>
#include <stdio.h>

/* What cli_getopt returns for an option: its letter, or for a long-only one of these. */
enum cli_code {
	OPT_ANNOTATE = 256, OPT_BY_DISPATCH, OPT_COUNTS, OPT_DISPATCH, OPT_HIDDEN,
	OPT_HINT_MIN, OPT_HINTS, OPT_HTML, OPT_LINES, OPT_LOADS, OPT_LOOPS, OPT_NAME,
	OPT_NO_INDEX, OPT_PACKETS, OPT_PLAIN, OPT_RAW, OPT_ROWS, OPT_SE, OPT_STRICT,
	OPT_THREADS, OPT_TRACE_JSON, OPT_TYPES, OPT_UNTRACED, OPT_WAIT_ROWS, OPT_WAITS, OPT_CHANGED,
	OPT_OCCUPANCY, OPT_SOURCE_DIR, OPT_KERNEL_TRACE, OPT_RGP, OPT_ROCPD
};

struct cli {
	/* its forms, NULL-terminated, each written after the program's name; a form that
	 * begins with '\t' continues the one before it on a new line */
	const char *synopsis[6];
	/* the options, space-separated long names, "name/x" where the program takes the
	 * vocabulary's letter x too; --help (-h) and --version are always there */
	const char *options;
	const char *help;	/* --help's text after the synopsis */
};

/* getopt_long over the program's options: the next one's code, -1 at the end.  --help,
 * --version and a usage mistake end the program here.  An option the vocabulary does
 * not have, or a letter it gives another option, is an internal error (exit 2). */
int cli_getopt(int argc, char *const argv[], const struct cli *);
/* --strict was given: a warning is an error (cli_getopt takes it for every program). */
extern int cli_strict;
/* After the options: argc and argv shifted to the operands, whose number must be from
 * min to max (max < 0: no limit), else the usage (exit 2). */
void cli_operands(const struct cli *, int *argc, char ***argv, int min, int max);
void cli_usage(const struct cli *) __attribute__((noreturn));	/* stderr, exit 2 */
/* An option's number from min to max; else "prog: OPTION is too large: ARG" (or too
 * small, invalid), exit 2. */
long long cli_number(const char *option, const char *arg, long long min, long long max);

/* body(argc, argv) under a catch of the library's errors (die, util.h): its status, or
 * -1 with the error's line in why when one was raised below it and not caught nearer. */
int cli_run(int (*body)(int, char *[]), int argc, char *argv[], char *why, size_t whysz);
/* A program's main: its body run by cli_run, and an error raised below it printed as
 * "prog: MESSAGE" after what stdout holds, exit 2 (the line die printed when it exited
 * itself).  So no error of the library ends the process: the program does. */
#define CLI_MAIN(body)							\
int									\
main(int argc, char *argv[])						\
{									\
	static char why_[4096];						\
	int st_ = cli_run(body, argc, argv, why_, sizeof(why_));	\
									\
	if (st_ < 0) {							\
		fflush(stdout);						\
		errx(2, "%s", why_);					\
	}								\
	return st_;							\
}

#endif
