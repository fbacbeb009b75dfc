/* decode_test MODE FILE: decode a raw SQTT stream (a .att file) as the programs do, for
 * the bench's timings and to check the modes agree.  MODE:
 *   count  sqtt_count, as sqtt-dump --counts;
 *   next   sqtt_next on every token;
 *   walk   sqtt_next_of on the tokens the walker takes, each token's fields made, as
 *          stall's first stage does before it walks;
 *   every  sqtt_next_of wanting every token (what next gives, through its loop).
 * Prints the tokens of each type seen ("TYPE<tab>N", types with none left out; in walk
 * mode only the types taken), after REG's the REG tokens that write the program address
 * ("REG:pgm", not in count mode; in walk mode the only REG tokens taken, so in place of
 * REG's), the total, the stream's time (not in count mode), a hash of every token's
 * offset, bits, type and time ("hash", next and every modes) and one of the tokens the
 * walker takes ("hash:walk", next and walk modes), the UNKNOWN tokens and the TIMESTAMPs
 * flagging lost packets.  Exit 2 on a stream error.
 * The file is read as the programs read one: the decoder's window, refilled. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sqtt.h"
#include "walk.h"

/* every token's offset, bits, type and time, into one hash */
static uint64_t
token_hash(uint64_t h, const struct sqtt_token *tok)
{
	const uint64_t v[4] = { tok->nib, tok->raw, (uint64_t)tok->raw_hi << 8 | tok->type,
	    tok->time };
	int i;

	for (i = 0; i < 4; i++)
		h = (h ^ v[i]) * 0x100000001b3ULL;
	return h;
}

/* The decoder's refill: the stream read as the programs read a file (capture_decoder:
 * the decoder's window refilled by reads), not whole into memory first. */
static size_t
refill(void *ctx, uint8_t *dst, size_t max)
{
	return fread(dst, 1, max, ctx);
}

int main(int argc, char **argv)
{
	struct sqtt_decoder d;
	struct sqtt_token tok;
	struct sqtt_fields f;
	uint64_t counts[TOK_NTYPES] = { 0 }, total = 0, sum = 0, pgm = 0, hash = 0, walkhash = 0;
	uint8_t want[TOK_NTYPES];
	FILE *fp;
	int r, t;

	if (argc != 3 || (strcmp(argv[1], "count") && strcmp(argv[1], "next") &&
	    strcmp(argv[1], "walk") && strcmp(argv[1], "every"))) {
		fprintf(stderr, "usage: decode_test count|next|walk|every FILE\n");
		return 2;
	}
	if ((fp = fopen(argv[2], "rb")) == NULL) {
		perror(argv[2]);
		return 2;
	}
	setvbuf(fp, NULL, _IONBF, 0);	/* the window is the buffer */
	sqtt_init_stream(&d, refill, fp);
	if (strcmp(argv[1], "count") == 0) {
		r = sqtt_count(&d, counts);
	} else if (strcmp(argv[1], "next") == 0) {
		while ((r = sqtt_next(&d, &tok)) > 0) {
			int w = walk_wants(tok.type);
			counts[tok.type]++;
			pgm += tok.type == TOK_REG && sqtt_reg_is_pgm(tok.raw);
			hash = token_hash(hash, &tok);
			if (w == SQTT_WANT_ALL || (w == SQTT_WANT_PGM && sqtt_reg_is_pgm(tok.raw)))
				walkhash = token_hash(walkhash, &tok);
		}
	} else if (strcmp(argv[1], "every") == 0) {
		memset(want, SQTT_WANT_ALL, sizeof(want));
		while ((r = sqtt_next_of(&d, &tok, want)) > 0) {
			counts[tok.type]++;
			pgm += tok.type == TOK_REG && sqtt_reg_is_pgm(tok.raw);
			hash = token_hash(hash, &tok);
		}
	} else {
		for (t = 0; t < TOK_NTYPES; t++)
			want[t] = (uint8_t)walk_wants((enum sqtt_type)t);
		while ((r = sqtt_next_of(&d, &tok, want)) > 0) {
			sqtt_fields(d.gen, &tok, &f);
			counts[tok.type]++;
			pgm += tok.type == TOK_REG;
			sum += f.wave + f.op;	/* the fields used, so that they are made */
			walkhash = token_hash(walkhash, &tok);
		}
	}
	if (r < 0) {
		fprintf(stderr, "decode_test: %s: %s\n", argv[2], d.error);
		return 2;
	}
	for (t = 0; t < TOK_NTYPES; t++) {
		if (counts[t] && (t != TOK_REG || strcmp(argv[1], "walk") != 0))
			printf("%s\t%" PRIu64 "\n", sqtt_type_name((enum sqtt_type)t), counts[t]);
		if (t == TOK_REG && pgm)
			printf("REG:pgm\t%" PRIu64 "\n", pgm);
		total += counts[t];
	}
	printf("total\t%" PRIu64 "\n", total);
	if (strcmp(argv[1], "count") != 0)	/* sqtt_count keeps no time */
		printf("time\t%" PRIu64 "\n", d.time);
	if (strcmp(argv[1], "next") == 0 || strcmp(argv[1], "every") == 0)
		printf("hash\t%016" PRIx64 "\n", hash);
	if (strcmp(argv[1], "next") == 0 || strcmp(argv[1], "walk") == 0)
		printf("hash:walk\t%016" PRIx64 "\n", walkhash);
	printf("unknown\t%" PRIu64 "\nlost\t%" PRIu64 "\n", d.unknown, d.lost);
	(void)sum;
	if (ferror(fp)) {
		perror(argv[2]);
		return 2;
	}
	fclose(fp);
	sqtt_free(&d);
	return 0;
}
