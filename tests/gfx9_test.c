/* gfx9_test CAPTURE | gfx9_test -r STREAM: every token of every trace buffer of a capture, decoded by
 * libcommon/trace/gfx9, as the packet stream's columns (event se nib time type wave simd
 * wgp sa op raw; nib is twice the byte offset); -r: one raw stream, event 0, SE 0.  Built as build/gfx9_test; t0105 runs it
 * against AMD's gfx9 reader (golden-gfx950). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input.h"

#include "capture.h"
#include "gfx9.h"

static void dump(unsigned event, int se, const uint8_t *blob, size_t len);


int
main(int argc, char **argv)
{
	struct capture c;
	char why[4096];
	size_t i;

	if (argc == 3 && strcmp(argv[1], "-r") == 0) {
		size_t len;
		uint8_t *blob = input_slurp(argv[2], &len);

		dump(0, 0, blob, len);
		free(blob);
		return ferror(stdout) || fflush(stdout) != 0;
	}
	if (argc != 2) {
		fprintf(stderr, "usage: gfx9_test capture | gfx9_test -r stream\n");
		return 2;
	}
	if (capture_open(&c, argv[1], NULL, why, sizeof(why)) != 0) {
		fprintf(stderr, "gfx9_test: %s\n", why);
		return 2;
	}
	for (i = 0; i < c.nev; i++) {
		if (c.ev[i].blob != NULL)
			dump(c.ev[i].index, c.ev[i].se, c.ev[i].blob, c.ev[i].len);
	}
	capture_close(&c);
	return ferror(stdout) || fflush(stdout) != 0;
}

static void
dump(unsigned event, int se, const uint8_t *blob, size_t len)
{
	struct gfx9_decoder d;
	struct gfx9_token t;
	char line[GFX9_LINEMAX];

	gfx9_init(&d, blob, len);
	while (gfx9_next(&d, &t)) {
		*gfx9_put(line, &t) = '\0';
		printf("%u\t%d\t%s", event, se, line);
	}
}
