/* codeload: a program's code object from a ##code line (codeload.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "codeload.h"
#include "input.h"
#include "util.h"

uint8_t *
codeload(const char *source, const char *name, const char *file, size_t *len, char *why,
    size_t whysz)
{
	struct capture cap;
	const uint8_t *img = NULL;
	uint8_t *copy = NULL;
	size_t i;

	*len = 0;
	if (strcmp(file, "-") != 0)
		return input_slurp(file, len);
	if (source == NULL || strcmp(source, "-") == 0) {
		snprintf(why, whysz, "program %s: no code object file and no ##source capture", name);
		return NULL;
	}
	capture_open(&cap, source, NULL);
	for (i = 0; i < cap.nprog; i++) {
		if (strcmp(cap.prog[i].name, name) != 0)
			continue;
		img = capture_code(&cap, i, len);
		break;
	}
	if (img != NULL) {
		copy = xcalloc(1, *len + 16);
		memcpy(copy, img, *len);
	} else
		snprintf(why, whysz, "%s: program %s: no code object in the capture", source, name);
	capture_close(&cap);
	return copy;
}
