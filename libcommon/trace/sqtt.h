/* sqtt: the SQTT token decoder, table-driven and streaming, over the token table of
 * gen/token (nibble order and time: sqtt-format.md). */
#ifndef SQTT_H
#define SQTT_H
#include <stddef.h>
#include <stdint.h>

#include "gen.h"

/* A streaming decoder over bytes that arrive in chunks.  Feed it with a refill callback
 * or give it one whole buffer. */
typedef size_t (*sqtt_refill_fn)(void *ctx, uint8_t *dst, size_t max);
/* Or in blocks of the feeder's, decoded where they are: *p set to the next block's first
 * byte, with SQTT_BLOCK_PAD bytes of room before it and 16 after that the decoder may
 * write; its length returned (0: the end).  The block before is the feeder's again. */
#define SQTT_BLOCK_PAD 32
typedef size_t (*sqtt_block_fn)(void *ctx, uint8_t **p);
/* Either way the stream comes in chunks of SQTT_CHUNK bytes (a refill reads until it has
 * one, a block is one), the last one shorter: a read that fails ends the tokens at the
 * same chunk either way. */
#define SQTT_CHUNK (1u << 17)

struct sqtt_decoder {
	uint8_t *buf;		/* owned window (refill mode) */
	const uint8_t *data;	/* current bytes */
	size_t len;		/* valid bytes at data */
	size_t cap;
	uint64_t base;		/* nibble offset of data[0] in the stream */
	uint64_t pos;		/* next token's nibble, relative to data */
	uint64_t time;
	uint64_t total;		/* bytes seen so far */
	int eof;
	sqtt_refill_fn refill;
	sqtt_block_fn block;	/* block mode: buf holds only a last block's tail */
	void *ctx;
	uint64_t unknown;	/* UNKNOWN tokens seen */
	uint64_t lost;		/* TIMESTAMP tokens flagging lost packets */
	uint64_t ntokens;
	const struct sqtt_gen *gen;	/* the stream's, from its HEADER (the default before) */
	struct sqtt_header header;
	const char *error;	/* set when sqtt_next returns -1 */
	char errbuf[160];
};

/* The decoder's tables, made before threads decode at once (they are made on first use
 * otherwise). */
void sqtt_prepare(void);
void sqtt_init_mem(struct sqtt_decoder *, const uint8_t *data, size_t len);
void sqtt_init_stream(struct sqtt_decoder *, sqtt_refill_fn, void *ctx);
void sqtt_init_blocks(struct sqtt_decoder *, sqtt_block_fn, void *ctx);
void sqtt_free(struct sqtt_decoder *);
/* 1: a token; 0: end of stream; -1: a stream error (d->error says what). */
int sqtt_next(struct sqtt_decoder *, struct sqtt_token *);
/* The next token of a type want[] marks (the others are stepped over: their times and
 * counts kept, no token made of them), as sqtt_next.  want[t] is one of: */
enum sqtt_wants {
	SQTT_WANT_NONE,		/* stepped over */
	SQTT_WANT_ALL,		/* every token of the type */
	SQTT_WANT_PGM,		/* REG: only the writes of the program address (sqtt_reg_is_pgm) */
};
int sqtt_next_of(struct sqtt_decoder *, struct sqtt_token *, const uint8_t want[TOK_NTYPES]);
/* A reader's want[] for sqtt_next_of: what its wants() says of each type (walk_wants), so
 * that it names no token type. */
struct sqtt_want {
	uint8_t type[TOK_NTYPES];
};
void sqtt_want_by(struct sqtt_want *, int (*wants)(enum sqtt_type));
/* Is data (len bytes, the start of a stream will do) a stream of the backend whose streams
 * have no HEADER (CDNA's gfx9: trace/gfx9 decodes it)? */
int sqtt_stream_headerless(const uint8_t *data, size_t len);
/* Decode to the end counting tokens per type: what sqtt_next would give, faster.
 * 0 at the end, -1 on a stream error. */
int sqtt_count(struct sqtt_decoder *, uint64_t counts[TOK_NTYPES]);
/* A real stream has no UNKNOWN token: one where more than 1% of the tokens are is noise
 * (random bytes or damage), and no table made of it may look like a result. */
int sqtt_is_noise(uint64_t unknown, uint64_t tokens);
/* Check the start of a stream: a HEADER of a version a generation knows.  Returns NULL
 * or a reason. */
const char *sqtt_check_header(const uint8_t *data, size_t len, struct sqtt_header *);
/* The dispatch's program address as the stream's COMPUTE_PGM writes give it, read up to
 * the first wave start after them (0: none). */
uint64_t sqtt_entry_addr(struct sqtt_decoder *);

#endif
