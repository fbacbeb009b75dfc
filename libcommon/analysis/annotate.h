/* annotate: the engine of stall-annotate(1): a costed row stream (stall-attr) read back
 * against the code of its kernels (source lines, an annotated listing, loops, what each
 * wait retired, hidden latency, hints).  All state is in one context; nothing exits: an
 * error is -1 and a one-line reason (annotate_error), for the program to print. */
#ifndef ANNOTATE_H
#define ANNOTATE_H
#include <stdint.h>
#include <stdio.h>

#include "cause.h"
#include "gen.h"
#include "rowkind.h"
#include "tsv.h"

enum annotate_view { AV_LINES, AV_ANNOTATE, AV_LOOPS, AV_WAITS, AV_LOADS, AV_HIDDEN,
	AV_HINTS, AV_WAIT_ROWS };

struct annotate_opts {
	enum annotate_view view;
	double hint_min;	/* hoist: a load's waits must cost this percent (5) */
	int untraced;		/* count waves without instruction tokens too */
	const char *kernel;	/* only the rows of this kernel (-k), NULL: all */
	long long dispatch;	/* only the rows of this dispatch (the last field of the
				 * ##event lines), -1: all */
	/* --annotate's source text: a file the DWARF names is read only when it is a
	 * regular file under one of these directories (NULL: the directory of the code
	 * object it describes, or of the capture holding it) */
	const char *const *source_dirs;
	FILE *out;		/* where the view goes (the wait-rows view as it reads) */
};

struct annotate;

/* The view's name ("lines"), NULL for none. */
const char *annotate_view_name(enum annotate_view);
struct annotate *annotate_new(const struct annotate_opts *);
void annotate_free(struct annotate *);
/* The line of one input, by its kind (tsv_next's): a '##' line, the '#' header, a row.
 * -1: the line is refused, annotate_error says why (for tsv_fail: "PATH:LINE: why"). */
int annotate_meta(struct annotate *, const struct tsv *);
int annotate_header(struct annotate *, const struct tsv *);
int annotate_row(struct annotate *, const struct tsv *);
/* A row as values (a pipeline's, in process): what annotate_row reads from a line. */
struct annotate_rec {
	const char *kernel;	/* escaped as the row stream has it (meta.h) */
	const char *tag;	/* the program's tag, with kernel its identity ("-": none) */
	uint64_t event, wave, time;
	int has_pc;		/* 0: the row is of no instruction (pc "-") */
	uint64_t pc;
	int64_t delta, cost;
	enum cause cause;
	int64_t cost2;		/* of cost, a second cause's cycles (0: none) */
	enum cause cause2;
	enum row_kind kind;
	enum inst_class cls;
	const char *retired;	/* "pc@issue,...", NULL or "-": none */
};
/* The kernel and tag strings of the rows given stay where they are, unchanged, while
 * they name the same program (the pipeline's; not a text reader's reused buffer): the
 * program is then found by their addresses. */
void annotate_names_stay(struct annotate *);
int annotate_put(struct annotate *, const struct annotate_rec *);
/* A program (a ##code line): name and tag, the capture it is in (source), its code
 * object's file ("-": in the capture), the target it is disassembled for (NULL: not
 * said). */
void annotate_program(struct annotate *, const char *name, const char *tag,
    const char *source, const char *file, const struct isa_target *target);
/* The input ended: its waves without a WAVE_END row end with it. */
void annotate_end_input(struct annotate *);
/* Write the view.  -1 when the rows held nothing to show (no rows; none of the kernel
 * or dispatch asked for; no s_waitcnt ran, for --waits, --loads and --wait-rows, written
 * after what the view holds). */
int annotate_report(struct annotate *);
const char *annotate_error(const struct annotate *);
/* Warnings the engine gathered (one line each, without the program's name), in order;
 * *n of them. */
const char *const *annotate_warnings(const struct annotate *, size_t *n);

#endif
