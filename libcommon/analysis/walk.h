/* walk: the walker.  Tokens of SQTT buffers placed on the instructions of the programs
 * that issued them: one row per instruction issue of every wave of each buffer's traced
 * unit, and one for the wave's end; one untraced row for each wave of the other SIMDs
 * (pipeline.md, row stream; sqtt-walk(1) the rules).
 * Streaming: memory follows the programs, the events and their live waves. */
#ifndef WALK_H
#define WALK_H
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "codeobj.h"
#include "slotstream.h"
#include "packet.h"
#include "rowkind.h"
#include "sqtt.h"

/* The number of a buffer's first wave of another SIMD (not instruction-traced: one
 * untraced row each); its traced waves are numbered from 0, below it. */
#define WALK_UNTRACED_WAVE 2147483648u

/* One row.  Its strings and instruction live as long as the walker. */
struct walk_row {
	long event;
	int se;			/* -1: unknown */
	const char *kernel;
	unsigned wave, slot;
	uint64_t pc, time, delta;
	const char *token;	/* "INST:salu", "VALU_INST", "IMMEDIATE", "WAVE_END"... */
	enum row_kind kind;	/* what the token says, typed */
	const char *tag;	/* the program's tag ("-": none), with kernel its identity */
	const struct inst *in;	/* never NULL */
	unsigned prog;		/* the program's number (walk_program's order) */
	size_t idx;		/* in's index in its program, SIZE_MAX for a made-up one */
};
typedef void (*walk_row_fn)(void *ctx, const struct walk_row *);

struct walker;

struct walker *walk_new(walk_row_fn, void *ctx);
/* The walk's shared tables, and the disassembler of the stream's target (NULL: not
 * said), made before walkers run in threads at once. */
void walk_prepare(const struct isa_target *target);
void walk_free(struct walker *);
/* One code object for every buffer (sqtt-walk -c): its file, load address, kernel name. */
void walk_use_code(struct walker *, const char *file, uint64_t base, const char *kernel);
/* The stream's target (isa_stream_target; NULL: not said): the processor the programs
 * opened from now on are disassembled and modelled for. */
void walk_target(struct walker *, const struct isa_target *);
/* The capture later programs with no file of their own are read from. */
void walk_source(struct walker *, const char *path);
/* How a program given with no image gets its code object, on first use: the caller's
 * function (the walker reads no file itself), which returns the image malloc'd (the
 * walker frees it) or NULL and a one-line reason in why.  Without one such a program
 * fails (its events are not walked). */
typedef uint8_t *(*walk_load_fn)(void *ctx, const char *source, const char *name,
    const char *tag, const char *file, size_t *len, char *why, size_t whysz);
void walk_set_loader(struct walker *, walk_load_fn, void *ctx);
/* A program: its code object in file (NULL or "-": in the source capture), or in image
 * (which the caller keeps valid while the walker lives).  Returns its number. */
unsigned walk_program(struct walker *, const char *name, const char *tag, uint64_t base,
    const char *file, const uint8_t *image, size_t len);
/* Buffer event traced kernel (tag "-" or NULL: any), matched to the program most recently
 * declared with that name and tag. */
void walk_event(struct walker *, long event, const char *kernel, const char *tag);
/* Which tokens of type t the walk needs (an enum sqtt_wants: the rest of a stream may be
 * passed over). */
int walk_wants(enum sqtt_type t);
/* 0, or -1 with walk_error saying why (a time that goes backwards within a wave). */
int walk_packet(struct walker *, const struct walk_packet *);
const char *walk_error(const struct walker *);
/* An ISSUE-slot stream's token (a stream without HEADER: CDNA's), in the buffer's order
 * (analysis/slotwalk: AMD's gfx9 walk; rows at each record's issue time, a WAVE_END row
 * at the s_endpgm). */
int walk_slot_token(struct walker *, long event, int se, const struct slot_token *);
/* The same from a packet stream's line: its type's name, time and raw bits (an unknown
 * type: -1, walk_error says it). */
int walk_headerless_line(struct walker *, long event, int se, const char *type,
    uint64_t time, uint64_t raw);
/* A whole buffer of a backend whose streams have no HEADER (CDNA's), in memory: its
 * tokens decoded and walked in order until *stop is set; -1 as walk_slot_token.  Each
 * wave start and end is given first to on_wave (when not NULL) as a packet: its -1 stops
 * the buffer with -2 (its caller knows why). */
typedef int (*walk_wave_fn)(void *ctx, const struct walk_packet *);
int walk_headerless_buffer(struct walker *, long event, int se, const uint8_t *data,
    size_t len, const atomic_int *stop, walk_wave_fn on_wave, void *ctx);

/* The end of the input: waves still open are named, warnings past the cap of their kind
 * counted.  -1 with walk_error saying why when a buffer's tokens mostly do not fit its
 * code object (the wrong code object?). */
int walk_end(struct walker *);
/* After walk_end: NULL, or why the walk made no row at all (no buffer, none with a code
 * object, no wave on a traced unit): an error for a caller, not an empty result. */
const char *walk_nothing(struct walker *);
/* Warnings, and the programs whose code object cannot be used (error set), go to fn (the
 * text without "prog: warning: "); by default to stderr. */
void walk_set_warn(struct walker *, void (*fn)(void *ctx, const char *msg, int error),
    void *ctx);
/* --packets: print wave's first n tokens with their pc on standard error. */
void walk_debug(struct walker *, long wave, unsigned long n);

uint64_t walk_nwarnings(const struct walker *);
uint64_t walk_nrows(const struct walker *);
/* Programs whose code object could not be used: their events were not walked. */
unsigned walk_nfailed(const struct walker *);

#endif
