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

static unsigned
name_hash(const char *s)
{
	unsigned h = 2166136261u;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h & 511;
}

void
name_index_build(struct name_index *x, int n, const char *(*name)(int))
{
	unsigned h;
	int i;

	if (n > 256)
		errx(2, "internal error: a name index of %d names", n);
	for (h = 0; h < 512; h++)
		x->bucket[h] = -1;
	for (i = 0; i < n; i++) {
		if (name(i) == NULL)
			continue;
		for (h = name_hash(name(i)); x->bucket[h] >= 0; h = (h + 1) & 511)
			;
		x->bucket[h] = (short)i;
	}
	x->ready = 1;
}

int
name_index_find(const struct name_index *x, const char *(*name)(int), const char *s)
{
	unsigned h;

	for (h = name_hash(s); x->bucket[h] >= 0; h = (h + 1) & 511)
		if (strcmp(name(x->bucket[h]), s) == 0)
			return x->bucket[h];
	return -1;
}
