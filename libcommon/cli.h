/* cli: what a program says of itself, each from one place: its synopsis (the usage line
 * of a mistake, the head of --help, the SYNOPSIS of its man page, which a test holds to
 * it), its help and its version.  docs/options.md is the vocabulary they share. */
#ifndef CLI_H
#define CLI_H

/* A synopsis: its forms, NULL-terminated, each written after the program's name; a form
 * that begins with '\t' continues the one before it on a new line. */
/* --help and --version, in every program's getopt_long table (as 'h' and 'V'). */
#define CLI_LONGOPTS \
	{ "help", no_argument, NULL, 'h' }, \
	{ "version", no_argument, NULL, 'V' }

void cli_usage(const char *const *synopsis) __attribute__((noreturn));	/* stderr, exit 2 */
void cli_help(const char *const *synopsis, const char *text) __attribute__((noreturn));
void cli_version(void) __attribute__((noreturn));	/* "prog (stall) VERSION", exit 0 */

#endif
