/* gen: the registry of the generation backends (gen.h). */
#include <err.h>
#include <stdio.h>
#include <string.h>

#include "gen.h"
#include "meta.h"
#include "tsv.h"
#include "util.h"

/* ---- the registry: each backend is the default (gfx11) with its changes ---- */

/* Every backend this build knows, in the order messages list them; the first is the
 * default.  Made on first use (before threads ask). */
static void (*const inits[])(struct gen_backend *) = { gfx11_backend, gfx12_backend,
	gfx9_backend };
#define NGEN (sizeof(inits) / sizeof(inits[0]))
static struct gen_backend backends[NGEN];
_Static_assert(NGEN <= GEN_MAX, "more backends than GEN_MAX");
static int ready;

static const struct sqtt_gen *naming;	/* the generation op_name_of reads */

static const char *
op_name_of(int i)
{
	return naming->op_names[i];
}

static void
build(void)
{
	struct gen_backend *b;
	unsigned i;

	if (ready)
		return;
	for (i = 0; i < NGEN; i++) {
		b = &backends[i];
		if (i > 0)
			*b = backends[0];
		inits[i](b);
		b->tokens.name = b->isa.name = b->name;
		b->tokens.index = i;
		b->isa.sqtt_version = b->tokens.version;
		b->isa.tokens = &b->tokens;
		naming = &b->tokens;
		name_index_build(&b->tokens.op_index, (int)b->tokens.nops, op_name_of);
	}
	ready = 1;
}

void
gen_set_targets(struct gen_backend *b, const char *name, struct isa_target *targets,
    size_t ntargets, struct isa_target *generic)
{
	size_t i;

	for (i = 0; i < ntargets; i++)
		targets[i].model = &b->isa;
	generic->model = &b->isa;
	b->name = name;
	b->isa.targets = targets;
	b->isa.ntargets = ntargets;
	b->isa.generic = generic;
	b->isa.generic_mach = generic->mach;
}

const struct gen_backend *
gen_default(void)
{
	build();
	return &backends[0];
}

const struct slot_gen *
gen_slots(void)
{
	unsigned i;

	build();
	for (i = 0; i < NGEN; i++)
		if (backends[i].slots != NULL)
			return backends[i].slots;
	return NULL;
}

const struct gen_backend *
gen_at(unsigned i)
{
	build();
	return i < NGEN ? &backends[i] : NULL;
}

/* ---- token tables ---- */

const struct sqtt_gen *
sqtt_gen_default(void)
{
	build();
	return &backends[0].tokens;
}

const struct sqtt_gen *
sqtt_gen_for_version(unsigned v)
{
	build();
	for (unsigned i = 0; i < NGEN; i++)
		if (backends[i].tokens.version == v && v != 0)
			return &backends[i].tokens;
	return NULL;
}

void
sqtt_gen_versions(char *text, size_t size)
{
	size_t k;
	const char *sep = "";

	build();
	text[0] = '\0';
	for (unsigned i = 0; i < NGEN; i++) {
		if (backends[i].tokens.version == 0)	/* no HEADER */
			continue;
		k = strlen(text);
		snprintf(text + k, size - k, "%s%u (%s)", sep, backends[i].tokens.version,
		    backends[i].name);
		sep = ", ";
	}
}

void
sqtt_names_prepare(void)
{
	build();
	(void)sqtt_type_by_name("NOP");
}

enum sqtt_row_token
sqtt_row_token(const char *token)
{
	const struct sqtt_gen *g = sqtt_gen_default();

	if (strcmp(token, sqtt_type_name(TOK_WAVE_END)) == 0)
		return SQTT_ROW_WAVE_END;
	/* the ops that move the pc have one name in every generation */
	if (strncmp(token, "INST:", 5) == 0 && sqtt_op_moves_pc(g, sqtt_op_code(g, token + 5)))
		return SQTT_ROW_TAKEN;
	return SQTT_ROW_ISSUE;
}

void
sqtt_header(uint64_t raw, struct sqtt_header *h)
{
	const struct sqtt_bits *b = sqtt_gen_default()->fields[TOK_HEADER];
	const struct sqtt_gen *g;

	h->version = (unsigned)tok_bits(raw, 7, 13);
	h->simd = (unsigned)tok_bits(raw, b[SQTT_F_SIMD].lo, b[SQTT_F_SIMD].hi);
	h->wgp = (unsigned)tok_bits(raw, b[SQTT_F_WGP].lo, b[SQTT_F_WGP].hi);
	h->sa = (unsigned)tok_bits(raw, b[SQTT_F_SA].lo, b[SQTT_F_SA].hi);
	g = sqtt_gen_for_version(h->version);
	h->exclude_barrier_wait = g != NULL && g->exclude_barrier_bit &&
	    tok_bits(raw, g->exclude_barrier_bit, g->exclude_barrier_bit + 1);
}

/* ---- instruction models and their processors ---- */

const struct isa_model *
isa_default_model(void)
{
	build();
	return &backends[0].isa;
}

const struct isa_target *
isa_target_by_name(const char *name)
{
	const struct isa_model *m;
	size_t i, j;

	build();
	if (name == NULL || strnlen(name, ISA_TARGET_MAX + 1) > ISA_TARGET_MAX)
		return NULL;
	for (i = 0; i < NGEN; i++)
		for (m = &backends[i].isa, j = 0; j < m->ntargets; j++)
			if (strcmp(name, m->targets[j].name) == 0)
				return &m->targets[j];
	return NULL;
}

const struct isa_target *
isa_target_by_mach(unsigned mach)
{
	const struct isa_model *m;
	size_t i, j;

	build();
	for (i = 0; i < NGEN; i++)
		for (m = &backends[i].isa, j = 0; j < m->ntargets; j++)
			if (m->targets[j].mach == mach)
				return &m->targets[j];
	for (i = 0; i < NGEN; i++)
		if (backends[i].isa.generic && backends[i].isa.generic->mach == mach)
			return backends[i].isa.generic;
	return NULL;
}

const char *
gen_mach_name(unsigned mach)
{
	/* LLVM's EF_AMDGPU_MACH values (BinaryFormat/ELF.h) of processors no backend models */
	static const struct { unsigned mach; const char *name; } other[] = {
		{ 0x03f, "gfx90a" }, { 0x040, "gfx940" }, { 0x04b, "gfx941" },
		{ 0x036, "gfx1030" },
	};
	const struct isa_target *t = isa_target_by_mach(mach);

	if (t)
		return t->name;
	for (size_t i = 0; i < sizeof other / sizeof other[0]; i++)
		if (other[i].mach == mach)
			return other[i].name;
	return NULL;
}

/* value as a message may show it: at most 32 bytes, anything but a printable ASCII
 * byte as \xNN, "..." when cut */
static void
shown(const char *value, char *out, size_t outsz)
{
	size_t i, k = 0;

	for (i = 0; value[i] != '\0' && i < 32 && k + 5 < outsz; i++) {
		unsigned char c = (unsigned char)value[i];
		if (c > ' ' && c < 0x7f && c != '\\')
			out[k++] = (char)c;
		else
			k += (size_t)snprintf(out + k, outsz - k, "\\x%02x", c);
	}
	if (value[i] != '\0' && k + 4 < outsz)
		k += (size_t)snprintf(out + k, outsz - k, "...");
	out[k] = '\0';
}

const struct isa_target *
isa_stream_target(const char *value, int *said, char *why, size_t whysz)
{
	const struct isa_target *t;
	const struct isa_model *m;
	char v[32 * 4 + 8];
	size_t i, j, k;

	build();
	*said = !(value == NULL || strcmp(value, "-") == 0);
	if (!*said)
		return &backends[0].isa.targets[0];
	if ((t = isa_target_by_name(value)) != NULL)
		return t;
	shown(value, v, sizeof(v));
	snprintf(why, whysz, "no instruction model for target %s (this build knows", v);
	for (i = 0; i < NGEN; i++) {
		m = &backends[i].isa;
		k = strlen(why);
		snprintf(why + k, whysz - k, "%s %s:", i ? ";" : "", m->name);
		for (j = 0; j < m->ntargets; j++) {
			k = strlen(why);
			snprintf(why + k, whysz - k, "%s %s", j ? "," : "", m->targets[j].name);
		}
	}
	k = strlen(why);
	snprintf(why + k, whysz - k, ")");
	return NULL;
}

int
isa_target_headerless(const struct isa_target *t)
{
	return t != NULL && t->model != NULL && t->model->sqtt_version == 0;
}

const struct isa_target *
meta_target(const struct tsv *t, int parsed)
{
	const struct isa_target *target;
	char value[4 * ISA_TARGET_MAX], why[512];
	int said;

	if (t->nfield < 2 || (parsed ? meta_is_none(t->field[1]) : strcmp(t->field[1], "-") == 0))
		return NULL;
	/* cut: a value longer than any processor's name stays one no model covers */
	snprintf(value, sizeof(value), "%s", t->field[1]);
	if (!parsed && meta_unescape(value) < 0)
		snprintf(value, sizeof(value), "%s", t->field[1]);
	if ((target = isa_stream_target(value, &said, why, sizeof(why))) == NULL)
		die("%s: %s", t->path, why);	/* a reader's error, raised (util.h) */
	return said ? target : NULL;
}
