/* slotstream: a stream without HEADER's tokens as a walk reads them (slotstream.h). */
#include <stdio.h>
#include <string.h>

#include "slotstream.h"

static void
view(struct slot_token *s)
{
	const struct gfx9_token *t = &s->tok;
	struct gfx9_fields f;
	unsigned i;

	gfx9_fields(t, &f);
	s->time = t->time;
	s->f.wave = f.wave;
	s->f.simd = f.simd;
	s->f.wgp = f.wgp;
	s->f.sa = f.sa;
	s->f.op = f.op;
	s->trap = 0;
	s->pc = 0;
	s->nslots = 0;
	switch (t->type) {
	case G9_WAVE_START:
		s->kind = SQTT_K_WAVE_START;
		s->trap = gfx9_wave_start_is_trap(t);
		break;
	case G9_WAVE_END:
		s->kind = SQTT_K_WAVE_END;
		break;
	case G9_INST:
		s->kind = SQTT_K_ISSUE;
		break;
	case G9_INST_PC:
		s->kind = SQTT_K_NEW_PC;
		s->pc = gfx9_inst_pc(t->raw);
		break;
	case G9_ISSUE:
		s->kind = SQTT_K_SLOTS;
		s->nslots = G9_ISSUE_SLOTS < SLOT_ISSUE_MAX ? G9_ISSUE_SLOTS : SLOT_ISSUE_MAX;
		for (i = 0; i < s->nslots; i++)
			switch (gfx9_issue_state(t->raw, i)) {
			case G9_ISSUE_STALL: s->state[i] = SLOT_STALL; break;
			case G9_ISSUE_INST: s->state[i] = SLOT_ISSUED; break;
			case G9_ISSUE_IMMED: s->state[i] = SLOT_IMMED; break;
			default: s->state[i] = SLOT_NONE; break;
			}
		break;
	case G9_MISC:
		s->kind = f.op == G9_MISC_SAVE_CONTEXT ? SQTT_K_SAVE : SQTT_K_OTHER;
		break;
	default:
		s->kind = SQTT_K_OTHER;
		break;
	}
}

int
slot_is_stream(const uint8_t *data, size_t len)
{
	return gfx9_is_stream(data, len);
}

void
slot_init(struct slot_decoder *d, const uint8_t *data, size_t len)
{
	gfx9_init(&d->d, data, len);
}

int
slot_next(struct slot_decoder *d, struct slot_token *s)
{
	if (!gfx9_next(&d->d, &s->tok))
		return 0;
	view(s);
	return 1;
}

int
slot_token_line(const char *type, uint64_t time, uint64_t raw, struct slot_token *s,
    char *why, size_t whysz)
{
	if ((s->tok.type = gfx9_type_by_name(type)) == G9_NTYPES) {
		snprintf(why, whysz, "unknown gfx9 token type '%.32s'", type);
		return -1;
	}
	s->tok.off = 0;
	s->tok.time = (int64_t)time;
	s->tok.raw = raw;
	view(s);
	return 0;
}

int
slot_wave_packet(const struct slot_token *s, long event, int se, struct walk_packet *pk)
{
	return gfx9_wave_packet(&s->tok, event, se, pk);
}
