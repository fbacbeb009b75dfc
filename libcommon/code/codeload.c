/* codeload: a program's code object from a ##code line (codeload.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "codeload.h"
#include "input.h"
#include "util.h"

struct codeload {
	struct capture cap;
	char *path;		/* NULL: none read yet */
	char broken[4096];	/* the capture last asked for could not be read: why */
};

struct codeload *
codeload_new(void)
{
	return xcalloc(1, sizeof(struct codeload));
}

void
codeload_free(struct codeload *cl)
{
	if (cl == NULL)
		return;
	if (cl->path != NULL)
		capture_close(&cl->cap);
	free(cl->path);
	free(cl);
}

/* Whether program p is (name, tag); tag "-" or NULL takes any. */
static int
is_program(const struct program *p, const char *name, const char *tag)
{
	char buf[24];

	if (strcmp(p->name, name) != 0)
		return 0;
	if (tag == NULL || strcmp(tag, "-") == 0)
		return 1;
	if (p->tag < 0)
		return 0;
	snprintf(buf, sizeof(buf), "%" PRId64, p->tag);
	return strcmp(buf, tag) == 0;
}

uint8_t *
codeload_program(struct codeload *cl, const char *source, const char *name, const char *tag,
    const char *file, size_t *len, char *why, size_t whysz)
{
	const uint8_t *img = NULL;
	uint8_t *copy = NULL;
	size_t i;

	*len = 0;
	cl->broken[0] = '\0';
	if (strcmp(file, "-") != 0) {
		/* a file that is not there fails this program only, not the walk */
		FILE *fp = fopen(file, "rb");
		if (fp == NULL) {
			snprintf(why, whysz, "%s: %s", file, strerror(errno));
			return NULL;
		}
		fclose(fp);
		return input_slurp_rest(input_open(file), NULL, 0, CAPTURE_CODE_MAX,
		    "a code object", len);
	}
	if (source == NULL || strcmp(source, "-") == 0) {
		snprintf(why, whysz, "program %s: no code object file and no ##source capture", name);
		return NULL;
	}
	if (cl->path == NULL || strcmp(cl->path, source) != 0) {
		if (cl->path != NULL)
			capture_close(&cl->cap);
		free(cl->path);
		cl->path = NULL;
		if (capture_open(&cl->cap, source, NULL, cl->broken, sizeof(cl->broken)) != 0) {
			snprintf(why, whysz, "%s", cl->broken);
			return NULL;
		}
		cl->path = xstrdup(source);
	}
	for (i = 0; i < cl->cap.nprog; i++) {
		if (!is_program(&cl->cap.prog[i], name, tag))
			continue;
		img = capture_code(&cl->cap, i, len);
		break;
	}
	if (img != NULL) {
		copy = xcalloc(1, *len + 16);
		memcpy(copy, img, *len);
	} else if (tag != NULL && strcmp(tag, "-") != 0)
		snprintf(why, whysz, "%s: program %s (tag %s): no code object in the capture", source,
		    name, tag);
	else
		snprintf(why, whysz, "%s: program %s: no code object in the capture", source, name);
	return copy;
}

const char *
codeload_broken(const struct codeload *cl)
{
	return cl->broken[0] != '\0' ? cl->broken : NULL;
}

static struct codeload *process_cache;

static void
drop_process_cache(void)
{
	codeload_free(process_cache);
	process_cache = NULL;
}

uint8_t *
codeload(const char *source, const char *name, const char *file, size_t *len, char *why,
    size_t whysz)
{
	if (process_cache == NULL) {
		process_cache = codeload_new();
		atexit(drop_process_cache);
	}
	return codeload_program(process_cache, source, name, "-", file, len, why, whysz);
}
