/* packet: the lines of the packet stream (pipeline.md, Streams) that a decoded token
 * becomes: "event se nib time type wave simd wgp sa op raw", the fields by the
 * generation's tables, the op by its name; and the --counts form, "event se type count".
 * Written through out.h (standard output).  And the stream read back into the tokens a
 * walker takes (struct walk_packet), from its text or straight from a decoder. */
#ifndef PACKET_H
#define PACKET_H
#include <stddef.h>
#include <stdint.h>

#include "sqtt.h"
#include "token.h"

struct gfx9_token;
struct tsv;

/* What of a buffer's tokens is written: NOP and UNKNOWN too (all), counts per type
 * instead of tokens (counts), only some types (types_given, type_wanted). */
struct packet_filter {
	int all, counts, types_given;
	unsigned char type_wanted[TOK_NTYPES];
};
/* --types T,...: into f; -1 and why on a name no generation has. */
int packet_filter_types(struct packet_filter *f, char *list, char *why, size_t whysz);

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
/* A buffer's tokens decoded and written as f says: sqtt_next's status at the end (-1: the
 * decoder's error), *seen the tokens decoded. */
int packet_dump(struct packet_out *, const struct packet_filter *f, struct sqtt_decoder *,
    uint64_t *seen);
/* The same for a CDNA (gfx9) buffer in memory (trace/gfx9), --types by their names:
 * 1 when data is one (and was written), 0 when it is not. */
int packet_dump_cdna(struct packet_out *, const struct packet_filter *f,
    const uint8_t *data, size_t len);

/* One token, as the packet stream gives it (fields -1 where the token has none). */
struct walk_packet {
	long event;
	int se;
	uint64_t time;
	enum sqtt_type type;
	int wave, simd, wgp, sa, op;
	uint64_t raw;		/* HEADER, IMMEDIATE, NEW_PC, REG: the token's bits */
	unsigned raw_hi;	/* bits [64,72) of a longer token (gfx12 NEW_PC) */
};
/* A CDNA (gfx9) wave's WAVE_START or WAVE_END as the wave token (event and se as
 * given), at the clock of AMD's walk (the token's time less 4, sqtt-gfx12.md section 8):
 * 1, or 0 for any other token, a trap's WAVE_START (gfx9_wave_start_is_trap) and one
 * before the clock's fifth cycle. */
struct gfx9_token;
int gfx9_wave_packet(const struct gfx9_token *, long event, int se, struct walk_packet *);
/* A decoded token of generation g as one. */
void packet_of_token(const struct sqtt_gen *g, const struct sqtt_token *,
    struct walk_packet *);
/* The packet stream's records read back: gen is the buffer's generation (its HEADER's,
 * the default before), whose op names its INST rows use. */
struct packet_reader {
	const struct sqtt_gen *gen;
	char why[4096];		/* the error of a malformed record */
};
void packet_reader_init(struct packet_reader *);
/* The record of t (the PKT_* columns in c) into pk: 0 for a token type wants refuses
 * (pk not filled), 1 for one filled, -1 for a malformed record ("PATH:LINE: ..." in
 * why). */
int packet_read(struct packet_reader *, struct tsv *t, const int *c,
    int (*wants)(enum sqtt_type), struct walk_packet *pk);

#endif
