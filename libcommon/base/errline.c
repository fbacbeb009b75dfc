/* errline: err(3)'s family, each message one line of printable text.  A message may carry
 * what an input named (a path from a ##code line, a database's own error text): its
 * control characters, newlines and C1 codes become '?' (text_printable), so that no input
 * can move the terminal's cursor or forge a second line of the program's. */
#include <err.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"

static void
put_line(const char *fmt, va_list ap, int with_errno, int e)
{
	char *msg = NULL, *clean;

	if (fmt != NULL && vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	clean = msg != NULL ? text_printable(msg) : NULL;
	flockfile(stderr);
	fprintf(stderr, "%s: ", getprogname());
	if (clean != NULL)
		fputs(clean, stderr);
	else if (fmt != NULL)
		fputs("(a message the memory had no room for)", stderr);
	if (with_errno)
		fprintf(stderr, "%s%s", fmt != NULL ? ": " : "", strerror(e));
	putc('\n', stderr);
	funlockfile(stderr);
	free(clean);
	free(msg);
}

void
vwarnx(const char *fmt, va_list ap)
{
	put_line(fmt, ap, 0, 0);
}

void
vwarn(const char *fmt, va_list ap)
{
	int e = errno;

	put_line(fmt, ap, 1, e);
}

void
warnx(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarnx(fmt, ap);
	va_end(ap);
}

void
warn(const char *fmt, ...)
{
	int e = errno;
	va_list ap;

	va_start(ap, fmt);
	put_line(fmt, ap, 1, e);
	va_end(ap);
}

void
verrx(int status, const char *fmt, va_list ap)
{
	vwarnx(fmt, ap);
	exit(status);
}

void
verr(int status, const char *fmt, va_list ap)
{
	int e = errno;

	put_line(fmt, ap, 1, e);
	exit(status);
}

void
errx(int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarnx(fmt, ap);
	va_end(ap);
	exit(status);
}

void
err(int status, const char *fmt, ...)
{
	int e = errno;
	va_list ap;

	va_start(ap, fmt);
	put_line(fmt, ap, 1, e);
	va_end(ap);
	exit(status);
}
