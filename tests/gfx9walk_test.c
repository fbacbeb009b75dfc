/* gfx9walk_test CAPTURE: every wave of every gfx9 trace buffer of a capture, walked by
 * libcommon/analysis/slotwalk on its program's code object (disassembled for the
 * capture's processor), one line per record in the columns of AMD's walk
 * (golden-gfx950/NAME.amd.tsv.gz: event se slot begin end pc issue stall duration
 * category).  Built as build/gfx9walk_test; t0106 runs it against AMD's walk, t0111 on
 * authored captures (sqtt-encode -d: the stream and code object in files). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "input.h"
#include "codeobj.h"
#include "slotwalk.h"
#include "gen.h"

struct ctx {
	unsigned event;
	int se;
};

static void
put_wave(void *arg, const struct slot_wave *w)
{
	const struct ctx *c = arg;
	size_t i;

	for (i = 0; i < w->nrec; i++) {
		const struct slot_record *r = &w->rec[i];
		printf("%u\t%d\t%u\t%" PRId64 "\t%" PRId64 "\t0x%" PRIx64 "\t%" PRId64 "\t%" PRId64
		    "\t%" PRId64 "\t%s\n", c->event, c->se, w->slot, w->begin, w->end, r->pc,
		    r->time + r->stall, r->stall, r->duration, slotwalk_cat_name(r->cat));
	}
}

int
main(int argc, char **argv)
{
	const struct isa_target *target;
	struct capture c;
	char why[4096];
	char err[256];
	size_t i;

	if (argc != 2) {
		fprintf(stderr, "usage: gfx9walk_test capture\n");
		return 2;
	}
	if (capture_open(&c, argv[1], NULL, why, sizeof(why)) != 0) {
		fprintf(stderr, "gfx9walk_test: %s\n", why);
		return 2;
	}
	if ((target = isa_target_by_name(c.target)) == NULL) {
		fprintf(stderr, "gfx9walk_test: %s: no model for target %s\n", argv[1], c.target);
		return 2;
	}
	codeobj_prepare(target);
	printf("#event\tse\tslot\tbegin\tend\tpc\tissue\tstall\tduration\tcategory\n");
	for (i = 0; i < c.nev; i++) {
		const struct event *e = &c.ev[i];
		const struct program *p = capture_program(&c, e);
		struct codeobj *co = NULL;
		struct slotwalk *g;
		struct slot_decoder d;
		struct slot_token t;
		struct ctx x = { e->index, e->se };
		const uint8_t *blob = e->blob, *code = p ? p->code : NULL;
		uint8_t *held = NULL;
		size_t len = e->len, size = p ? p->size : 0;

		if (blob == NULL && e->file != NULL)	/* a capture directory's */
			blob = held = input_slurp_rest(input_open(e->file), NULL, 0,
			    CAPTURE_GFX9_MAX, "a trace buffer", &len);
		if (blob == NULL || !slot_is_stream(blob, len)) {
			free(held);
			continue;
		}
		if (p != NULL && code == NULL && p->file != NULL)
			code = capture_code(&c, (size_t)e->prog, &size);
		if (p != NULL && code != NULL &&
		    (co = codeobj_open(code, size, p->name, target, err, sizeof(err))) == NULL)
			fprintf(stderr, "gfx9walk_test: %s: %s\n", p->name, err);
		g = slotwalk_new(co, co ? codeobj_entry(co) : UINT64_MAX, p ? p->base : 0,
		    put_wave, &x);
		slot_init(&d, blob, len);
		while (slot_next(&d, &t))
			slotwalk_token(g, &t);
		slotwalk_end(g);
		slotwalk_free(g);
		if (co)
			codeobj_close(co);
		free(held);
	}
	capture_close(&c);
	return ferror(stdout) || fflush(stdout) != 0;
}
