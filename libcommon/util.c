#include <sys/stat.h>

#include <err.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"

void *
xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (p == NULL)
		err(2, NULL);
	return p;
}

void *
xreallocarray(void *p, size_t n, size_t size)
{
	if ((p = reallocarray(p, n ? n : 1, size ? size : 1)) == NULL)
		err(2, NULL);
	return p;
}

char *
xstrdup(const char *s)
{
	char *d = strdup(s);

	if (d == NULL)
		err(2, NULL);
	return d;
}

char *
xstrndup(const char *s, size_t n)
{
	char *d = strndup(s, n);

	if (d == NULL)
		err(2, NULL);
	return d;
}

void
discard_output(FILE *fp, const char *path)
{
	struct stat st;
	int regular = fstat(fileno(fp), &st) == 0 && S_ISREG(st.st_mode);

	fclose(fp);
	if (regular)
		unlink(path);
}

void
die(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	va_start(ap, fmt);
	verrx(2, fmt, ap);
}
