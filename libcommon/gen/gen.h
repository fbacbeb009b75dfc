/* gen: the generation backends and their registry.  A generation is one backend (struct
 * gen_backend): its name, its token table (token.h: types, field bits, op names and
 * units, what the encoder writes, wave and IMMEDIATE slots) and its instruction model
 * (isa.h: processors and ELF mach values, classes, token fit, wait counters, fetch line,
 * register file).  The registry holds one entry per generation, each filled from a copy
 * of the default's (gfx11) with its own changes, as libebl fills a backend's defaults
 * before the backend's init; it is chosen once, from a stream's HEADER version, its
 * ##target or a code object's e_flags. */
#ifndef GEN_H
#define GEN_H
#include <stddef.h>

#include "isa.h"
#include "slots.h"
#include "token.h"

struct tsv;

struct gen_backend {
	const char *name;		/* "gfx11" */
	struct sqtt_gen tokens;		/* tokens.version 0: its streams have no HEADER (a
					 * stream of its own, decoded in trace/: gfx9) */
	struct isa_model isa;
	const struct slot_gen *slots;	/* its ISSUE-slot streams' facts (slots.h), NULL:
					 * its streams have a HEADER */
};

/* A backend's init: the generation's changes to the copy of the defaults in b (gfx11's
 * fills every field). */
void gfx11_backend(struct gen_backend *b);
void gfx12_backend(struct gen_backend *b);
void gfx9_backend(struct gen_backend *b);

/* For a backend's init: its name, its processors (the first is its default) and the
 * generation's generic one (its code objects' mach), each made to point to b's model. */
void gen_set_targets(struct gen_backend *b, const char *name, struct isa_target *targets,
    size_t ntargets, struct isa_target *generic);

/* The most backends a build registers: tables made per generation (the decoder's, the
 * walk's token labels) have this many rows. */
#define GEN_MAX 8

/* The default backend (gfx11); the backends by registry order (NULL past the last). */
const struct gen_backend *gen_default(void);
const struct gen_backend *gen_at(unsigned i);

/* ---- token tables ---- */
/* The token table of a HEADER version, NULL if none; the default (gfx11, what a stream that
 * does not say is); and the versions known, as "3 (gfx11), 4 (gfx12)", for messages. */
const struct sqtt_gen *sqtt_gen_for_version(unsigned v);
const struct sqtt_gen *sqtt_gen_default(void);
void sqtt_gen_versions(char *text, size_t size);
/* The name lookups (sqtt_op_code, sqtt_type_by_name), made before threads use them. */
void sqtt_names_prepare(void);
/* The HEADER: the unit whose waves emit instruction tokens. */
struct sqtt_header {
	unsigned version, simd, wgp, sa;
	int exclude_barrier_wait;	/* gfx12: s_barrier_wait emits no token */
};
void sqtt_header(uint64_t raw, struct sqtt_header *);
/* What a row stream's token column says ("WAVE_END", "INST:branch_taken", ...), the same
 * in every generation: an issue, an issue that moved the pc, the wave's end. */
enum sqtt_row_token { SQTT_ROW_ISSUE, SQTT_ROW_TAKEN, SQTT_ROW_WAVE_END };
enum sqtt_row_token sqtt_row_token(const char *token);

/* ---- instruction models ---- */
/* A processor by its name, NULL when no model covers it. */
const struct isa_target *isa_target_by_name(const char *target);
/* The processor a stream's ##target value names: NULL or "-" (not said) is the default
 * model's default (gfx1100), with said 0.  NULL when no model covers it, with the one
 * line why in why: "no instruction model for target gfx1200 (this build knows gfx11:
 * gfx1100, ...)", the value shown safely (cut, control bytes escaped). */
const struct isa_target *isa_stream_target(const char *value, int *said, char *why,
    size_t whysz);
/* The default model (gfx11), for streams and code objects that name no target. */
const struct isa_model *isa_default_model(void);
/* The processor of an EF_AMDGPU_MACH value (the generic ones too), NULL if none. */
const struct isa_target *isa_target_by_mach(unsigned mach);
/* A processor's name for messages, by its EF_AMDGPU_MACH value: a model's, or one of the
 * processors no backend models that a code object is most often built for by mistake
 * (gfx90a, gfx1030...); NULL for none of them. */
const char *gen_mach_name(unsigned mach);
/* Does the processor (NULL: none said) have streams without a HEADER, whose tokens are
 * decoded and walked by a backend of their own (trace/gfx9)? */
int isa_target_headerless(const struct isa_target *);

/* The processor the current line of t, a ##target line, names (its fields as meta_parse
 * left them when parsed, else as the stream holds them): NULL for "-", or no value (the
 * default model's then, gfx1100).  A value no instruction model covers is the reader's
 * error, raised (die, util.h): "PATH: no instruction model for target gfx1200 (this
 * build knows ...)", which the program says after its name and exits 2. */
const struct isa_target *meta_target(const struct tsv *t, int parsed);

#endif
