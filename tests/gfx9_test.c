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

static void
field(int v)
{
	if (v < 0)
		fputs("\t-", stdout);
	else
		printf("\t%d", v);
}

int
main(int argc, char **argv)
{
	struct capture c;
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
	capture_open(&c, argv[1], NULL);
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
	struct gfx9_fields f;

	gfx9_init(&d, blob, len);
	while (gfx9_next(&d, &t)) {
		const char *op = NULL;
		char issue[G9_ISSUE_SLOTS + 1];
		unsigned s;

		gfx9_fields(&t, &f);
		printf("%u\t%d\t%" PRIu64 "\t%" PRId64 "\t%s", event, se, 2 * t.off, t.time,
		    gfx9_type_name(t.type));
		field(f.wave);
		field(f.simd);
		field(f.wgp);
		field(f.sa);
		if (t.type == G9_INST)
			op = gfx9_inst_name((unsigned)f.op);
		else if (t.type == G9_MISC)
			op = gfx9_misc_name((unsigned)f.op);
		else if (t.type == G9_ISSUE) {
			for (s = 0; s < G9_ISSUE_SLOTS; s++)
				issue[s] = "-SIM"[gfx9_issue_state(t.raw, s)];
			issue[s] = '\0';
			op = issue;
		}
		if (op != NULL)
			printf("\t%s", op);
		else if (f.op >= 0)
			printf("\t0x%02x", f.op);
		else
			fputs("\t-", stdout);
		printf("\t0x%" PRIx64 "\n", t.raw);
	}
}
