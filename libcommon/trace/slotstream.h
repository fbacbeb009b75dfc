/* slotstream: the tokens of a stream without HEADER (its generation's ISSUE-slot streams,
 * gen/slots.h: CDNA's, decoded by trace/gfx9) as a walk reads them: each token's kind
 * (token.h), its fields, and what its kind carries. */
#ifndef SLOTSTREAM_H
#define SLOTSTREAM_H
#include <stddef.h>
#include <stdint.h>

#include "gfx9.h"
#include "packet.h"
#include "slots.h"
#include "token.h"

struct slot_token {
	enum sqtt_kind kind;	/* WAVE_START, WAVE_END, ISSUE (its op in f.op), NEW_PC,
				 * SLOTS, SAVE; OTHER for the rest */
	int64_t time;
	struct sqtt_fields f;	/* -1 where the token has none */
	int trap;		/* WAVE_START: of a trap's context save or restore, not of
				 * a new wave */
	uint64_t pc;		/* NEW_PC: its pc field, in the generation's unit */
	unsigned nslots;	/* SLOTS: the slots it gives a state, the first */
	uint8_t state[SLOT_ISSUE_MAX];	/* SLOTS: each slot's (enum slot_state) */
	struct gfx9_token tok;	/* the token read */
};

struct slot_decoder {
	struct gfx9_decoder d;
};

/* Is this stream one without HEADER (an ISSUE-slot stream)? */
int slot_is_stream(const uint8_t *data, size_t len);
void slot_init(struct slot_decoder *, const uint8_t *data, size_t len);
/* 1: a token; 0: the end. */
int slot_next(struct slot_decoder *, struct slot_token *);
/* A token from a packet stream's line: its type's name, time and raw bits; -1 and why
 * for a type the stream has none of. */
int slot_token_line(const char *type, uint64_t time, uint64_t raw, struct slot_token *,
    char *why, size_t whysz);
/* A wave's start or end (not a trap's) as the packet a walker takes; 0 for other tokens. */
int slot_wave_packet(const struct slot_token *, long event, int se, struct walk_packet *);

#endif
