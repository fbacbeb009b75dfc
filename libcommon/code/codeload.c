/* codeload: a program's code object from a ##code line (codeload.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "codeload.h"
#include "input.h"
#include "util.h"

/* The capture last read from, kept open: a capture of many programs is parsed once, not
 * once per program. */
static struct capture cached;
static char *cached_path;

static void
drop_cached(void)
{
	if (cached_path == NULL)
		return;
	capture_close(&cached);
	free(cached_path);
	cached_path = NULL;
}

uint8_t *
codeload(const char *source, const char *name, const char *file, size_t *len, char *why,
    size_t whysz)
{
	const uint8_t *img = NULL;
	uint8_t *copy = NULL;
	size_t i;

	*len = 0;
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
	if (cached_path == NULL || strcmp(cached_path, source) != 0) {
		drop_cached();
		capture_open(&cached, source, NULL);
		cached_path = xstrdup(source);
		atexit(drop_cached);
	}
	for (i = 0; i < cached.nprog; i++) {
		if (strcmp(cached.prog[i].name, name) != 0)
			continue;
		img = capture_code(&cached, i, len);
		break;
	}
	if (img != NULL) {
		copy = xcalloc(1, *len + 16);
		memcpy(copy, img, *len);
	} else
		snprintf(why, whysz, "%s: program %s: no code object in the capture", source, name);
	return copy;
}
