/* gfx9: the CDNA (gfx9, gfx950) SQTT token stream and its decoder.  No HEADER: 16-bit
 * little-endian words, a token's type in the low 4 bits of its first word and its length
 * from the type; time advances by 4 x the token's delta and is re-based by the TIME
 * token that follows a TIME_RESET (sqtt-gfx12.md section 8, after AMD's gfx9 reader).
 * The decoder reads a stream held in memory: a TIME_RESET looks ahead for its TIME. */
#ifndef GFX9_H
#define GFX9_H
#include <stddef.h>
#include <stdint.h>

enum gfx9_type {
	G9_MISC, G9_TIME, G9_REG, G9_WAVE_START, G9_WAVE_ALLOC, G9_REG_CS, G9_WAVE_END,
	G9_EVENT, G9_EVENT_CS, G9_EVENT_GFX1, G9_INST, G9_INST_PC, G9_SHADERDATA, G9_ISSUE,
	G9_PERF, G9_REG_CS_PRIV, G9_NTYPES
};

/* MISC's misc_type values (SAVE_CONTEXT: the waves are about to be saved, as for a trap;
 * AMD's gfx9 decoder, MISQTTParser) */
enum { G9_MISC_TIME, G9_MISC_TIME_RESET, G9_MISC_PACKET_LOST, G9_MISC_SURF_SYNC,
	G9_MISC_TT_STALL_BEGIN, G9_MISC_TT_STALL_END, G9_MISC_SAVE_CONTEXT };

/* ISSUE's state of a wave slot in one cycle */
enum { G9_ISSUE_NONE, G9_ISSUE_STALL, G9_ISSUE_INST, G9_ISSUE_IMMED };
#define G9_ISSUE_SLOTS 10

struct gfx9_token {
	uint64_t off;		/* byte offset in the stream */
	int64_t time;
	uint64_t raw;		/* the token's bits, its first word lowest */
	enum gfx9_type type;
};

/* Fields, -1 where the token has none.  wgp is the CU, sa the SH; op: INST's type, MISC's
 * misc_type. */
struct gfx9_fields {
	int wave, simd, wgp, sa, op;
};

const char *gfx9_type_name(enum gfx9_type);
enum gfx9_type gfx9_type_by_name(const char *);	/* G9_NTYPES if none */
unsigned gfx9_token_bits(enum gfx9_type);
/* INST's type name ("valu_32", "smem_rd"...), MISC's misc type name ("surf_sync"), NULL
 * for a value that has none. */
const char *gfx9_inst_name(unsigned type);
const char *gfx9_misc_name(unsigned type);
void gfx9_fields(const struct gfx9_token *, struct gfx9_fields *);
/* ISSUE: the state of slot i (G9_ISSUE_*); INST_PC: the pc field. */
unsigned gfx9_issue_state(uint64_t raw, unsigned slot);
uint64_t gfx9_inst_pc(uint64_t raw);

struct gfx9_decoder {
	const uint8_t *data;
	size_t len, pos;
	int64_t now, base;
	/* a TIME_RESET re-based the clock from the TIME at skip (consumed there, its delta
	 * not added), or found the next TIME_RESET first at skip (dropped whole) */
	size_t skip;
	int skipping;
	uint64_t ntokens;
};

void gfx9_init(struct gfx9_decoder *, const uint8_t *data, size_t len);
/* 1: a token; 0: the end (a token cut by the end is no token). */
int gfx9_next(struct gfx9_decoder *, struct gfx9_token *);
/* The token as the packet stream's columns from nib on: "NIB\tTIME\tTYPE\tWAVE\tSIMD\tWGP
 * \tSA\tOP\tRAW\n" (nib twice the byte offset; op INST's and MISC's names, ISSUE's ten
 * slots as - S I M); at most GFX9_LINEMAX bytes at p, returns their end. */
#define GFX9_LINEMAX 160
char *gfx9_put(char *p, const struct gfx9_token *);
/* A WAVE_START of a trap's context save or restore (its count above 64), not a new
 * wave (AMD's gfx9 decoder). */
int gfx9_wave_start_is_trap(const struct gfx9_token *);

/* Is this stream a gfx9 one: its first token a TIME word of the form the hardware
 * starts every buffer with (0x....0f8011 in its low 24 bits, the SE in bits 16-19)? */
int gfx9_is_stream(const uint8_t *data, size_t len);

#endif
