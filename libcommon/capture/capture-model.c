#include <sys/stat.h>

#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture-model.h"
#include "meta.h"
#include "util.h"

static char *
xasprintf(const char *fmt, const char *a, const char *b)
{
	char *s;

	if (asprintf(&s, fmt, a, b) < 0)
		err(2, NULL);
	return s;
}

struct program *
capture_add_program(struct capture *c)
{
	struct program *p;

	c->prog = xreallocarray(c->prog, c->nprog + 1, sizeof(*c->prog));
	p = &c->prog[c->nprog++];
	memset(p, 0, sizeof(*p));
	p->tag = -1;
	return p;
}

struct event *
capture_add_event(struct capture *c)
{
	struct event *e;

	c->ev = xreallocarray(c->ev, c->nev + 1, sizeof(*c->ev));
	e = &c->ev[c->nev];
	memset(e, 0, sizeof(*e));
	e->index = (unsigned)c->nev++;
	e->prog = -1;
	e->dispatch = -1;
	return e;
}

char *
capture_join(const char *dir, const char *file)
{
	if (file[0] == '/')
		return xstrndup(file, strlen(file));
	return xasprintf("%s/%s", dir, file);
}

/* A file a capture directory names (by its listing or its index): read only if it is a
 * regular file inside the directory, so that a symbolic link in a downloaded capture
 * cannot make it read /etc/passwd or /dev/zero. */
char *
capture_dir_file(const struct capture *c, const char *name)
{
	char *path = capture_join(c->path, name);
	struct stat st;

	if (!meta_path_within(path, c->path) || stat(path, &st) != 0 || !S_ISREG(st.st_mode))
		errx(2, "%s: %s is not a regular file inside the capture directory", c->path,
		    name);
	return path;
}

