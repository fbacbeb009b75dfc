/* encode: packet-stream rows back into raw SQTT bytes, one trace buffer at a time (the
 * inverse of sqtt_decode; sqtt-encode(1)).  The token bits come from the generation's
 * tables (struct sqtt_gen): the encoder knows no generation of its own.  A row with a
 * nib is placed there with its raw bits; a row with nib '-' is packed, its delta
 * computed from its time.  Errors come back as -1 with the message in err; nothing here
 * exits. */
#ifndef ENCODE_H
#define ENCODE_H
#include <stdint.h>
#include <stdio.h>

#include "gen.h"
#include "gfx9-encode.h"

struct tsv;

/* Limits (sqtt-encode(1), LIMITS): the NOP padding before a placed token, the stream's
 * length, and the time one row may advance.  Far beyond real captures (their longest
 * NOP run is under 100 nibbles, their longest gap under 2^24 cycles), and they keep a
 * row from writing gigabytes. */
#define SQTT_ENC_NIB_GAP_MAX (1ULL << 24)
#define SQTT_ENC_NIB_MAX (1ULL << 32)
#define SQTT_ENC_TIME_GAP_MAX (1ULL << 40)

enum sqtt_enc_status {
	SQTT_ENC_OK = 0,
	SQTT_ENC_ROW = -1,	/* the row is wrong: err says why (the caller adds where) */
	SQTT_ENC_IO = -2	/* the output could not be written: err is "PATH: reason" */
};

/* One buffer being written. */
struct sqtt_encoder {
	const struct sqtt_gen *gen;
	FILE *fp;
	const char *path;	/* for messages */
	uint8_t buf[1 << 16];
	size_t len;		/* whole bytes in buf */
	uint64_t nib;		/* nibbles written so far */
	uint8_t half;		/* pending low nibble when nib is odd */
	unsigned raw_hi;	/* bits [64,72) of the token written next */
	uint64_t time;
	uint64_t tokens;
	int failed;		/* a write failed: the rest is not written */
	char err[512];
	int headerless;		/* a stream of the backend with no HEADER: rows go to g9 */
	struct gfx9_encoder g9;
};

/* Start a buffer of generation gen written to fp (path names it in messages). */
void sqtt_encoder_start(struct sqtt_encoder *, const struct sqtt_gen *gen, FILE *fp,
    const char *path);
/* Start a buffer of shader engine se of the backend whose streams have no HEADER (CDNA's:
 * trace/gfx9-encode writes its rows, through this one's output and padding). */
void sqtt_encoder_start_headerless(struct sqtt_encoder *, FILE *fp, const char *path, int se);
/* One packet-stream record; col[] holds the PKT_* columns (tsv.h), -1 where absent. */
enum sqtt_enc_status sqtt_encode_row(struct sqtt_encoder *, const struct tsv *,
    const int *col);
/* A token of bits bits (up to 64) written as it is: for a writer of another stream
 * format that uses this one's output (a CDNA stream, trace/gfx9). */
void sqtt_encoder_put(struct sqtt_encoder *, uint64_t raw, unsigned bits);
/* The NOP padding that ends a buffer, and everything flushed (fp stays open). */
enum sqtt_enc_status sqtt_encoder_finish(struct sqtt_encoder *);

#endif
