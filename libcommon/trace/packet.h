/* packet: the lines of the packet stream (pipeline.md, Streams) that a decoded token
 * becomes: "event se nib time type wave simd wgp sa op raw", the fields by the
 * generation's tables, the op by its name; and the --counts form, "event se type count".
 * Written through out.h (standard output). */
#ifndef PACKET_H
#define PACKET_H
#include <stddef.h>
#include <stdint.h>

#include "token.h"

struct gfx9_token;

struct packet_out {
	char prefix[48];	/* "event\tse\t", the same for every token of a buffer */
	size_t prefix_len;
	unsigned event;
	int se;
	uint64_t lines;		/* lines written */
	size_t type_len[TOK_NTYPES];
	char type_pad[TOK_NTYPES][24];	/* names padded for one fixed-size copy */
};

/* The buffer the next lines are of (se < 0: none, "-"). */
void packet_start(struct packet_out *, unsigned event, int se);
/* One token of generation g's stream; one of a CDNA (gfx9) stream. */
void packet_put(struct packet_out *, const struct sqtt_gen *g, const struct sqtt_token *);
void packet_put_gfx9(struct packet_out *, const struct gfx9_token *);
/* A count line: the type's name and how many. */
void packet_put_count(struct packet_out *, const char *type, uint64_t n);

#endif
