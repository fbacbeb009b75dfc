/* packet: the packet stream's lines of decoded tokens (packet.h). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>

#include "gfx9.h"
#include "out.h"
#include "packet.h"
#include "tsv.h"

void
packet_start(struct packet_out *po, unsigned event, int se)
{
	int t;

	po->event = event;
	po->se = se;
	if (se < 0)
		po->prefix_len = (size_t)snprintf(po->prefix, sizeof(po->prefix), "%u\t-\t", event);
	else
		po->prefix_len = (size_t)snprintf(po->prefix, sizeof(po->prefix), "%u\t%d\t",
		    event, se);
	memset(po->type_pad, 0, sizeof(po->type_pad));
	for (t = 0; t < TOK_NTYPES; t++) {
		po->type_len[t] = strlen(sqtt_type_name(t));
		memcpy(po->type_pad[t], sqtt_type_name(t), po->type_len[t]);
	}
}

void
packet_put(struct packet_out *po, const struct sqtt_gen *g, const struct sqtt_token *tok)
{
	char *p;
	struct sqtt_fields f;
	size_t n;

	po->lines++;
	p = out_reserve();
	sqtt_fields(g, tok, &f);
	memcpy(p, po->prefix, sizeof(po->prefix));
	p += po->prefix_len;
	p = fmt_u64(p, tok->nib);
	*p++ = '\t';
	p = fmt_u64(p, tok->time);
	*p++ = '\t';
	memcpy(p, po->type_pad[tok->type], sizeof(po->type_pad[0]));
	p += po->type_len[tok->type];
	*p++ = '\t';
	p = fmt_int_or_dash(p, f.wave);
	*p++ = '\t';
	p = fmt_int_or_dash(p, f.simd);
	*p++ = '\t';
	p = fmt_int_or_dash(p, f.wgp);
	*p++ = '\t';
	p = fmt_int_or_dash(p, f.sa);
	*p++ = '\t';
	if (tok->type == TOK_NEW_PC && g->pc_op) {
		unsigned slot;
		uint64_t addr;
		sqtt_new_pc(g, tok->raw, tok->raw_hi, &slot, &addr);
		p = fmt_hex(p, addr);
	} else if (f.op < 0) {
		*p++ = '-';
	} else if (tok->type == TOK_INST) {
		const char *op = sqtt_op_name(g, (unsigned)f.op);
		if (op != NULL) {
			n = strlen(op);
			memcpy(p, op, n);
			p += n;
		} else {
			p += sprintf(p, "0x%02x", f.op);
		}
	} else {
		p = fmt_u64(p, (uint64_t)f.op);
	}
	*p++ = '\t';
	if (tok->raw_hi != 0)
		p += sprintf(p, "0x%x%016" PRIx64, tok->raw_hi, tok->raw);
	else
		p = fmt_hex(p, tok->raw);
	*p++ = '\n';
	out_commit(p);
}

void
packet_put_gfx9(struct packet_out *po, const struct gfx9_token *tok)
{
	char *p;

	po->lines++;
	p = out_reserve();
	memcpy(p, po->prefix, sizeof(po->prefix));
	out_commit(gfx9_put(p + po->prefix_len, tok));
}

void
packet_put_count(struct packet_out *po, const char *type, uint64_t n)
{
	char *p;
	int len;

	po->lines++;
	p = out_reserve();
	len = snprintf(p, OUT_LINEMAX, "%u\t%d\t%s\t%" PRIu64 "\n", po->event, po->se, type, n);
	out_commit(p + len);
}

int
packet_filter_types(struct packet_filter *f, char *arg, char *why, size_t whysz)
{
	char *s;
	enum sqtt_type t;

	f->types_given = 1;
	while ((s = strsep(&arg, ",")) != NULL) {
		if ((t = sqtt_type_by_name(s)) == TOK_NTYPES) {
			snprintf(why, whysz, "--types: unknown token type '%s'", s);
			return -1;
		}
		f->type_wanted[t] = 1;
	}
	return 0;
}

int
packet_dump(struct packet_out *po, const struct packet_filter *f, struct sqtt_decoder *d,
    uint64_t *seen)
{
	struct sqtt_token tok;
	uint64_t local[TOK_NTYPES] = { 0 };
	int r, t;

	if (f->counts) {
		r = sqtt_count(d, local);
	} else {
		while ((r = sqtt_next(d, &tok)) > 0) {
			if (f->types_given ? !f->type_wanted[tok.type] :
			    !f->all && (tok.type == TOK_NOP || tok.type == TOK_UNKNOWN))
				continue;
			packet_put(po, d->gen, &tok);
		}
	}
	if (r < 0)
		return r;
	for (t = 0; f->counts && t < TOK_NTYPES; t++)
		if (local[t] != 0 && !(t == TOK_NOP && !f->all) &&
		    !(f->types_given && !f->type_wanted[t]))
			packet_put_count(po, sqtt_type_name(t), local[t]);
	*seen = d->ntokens;
	if (f->counts)
		for (*seen = 0, t = 0; t < TOK_NTYPES; t++)
			*seen += local[t];
	return r;
}

int
packet_dump_cdna(struct packet_out *po, const struct packet_filter *f, const uint8_t *data,
    size_t len)
{
	struct gfx9_decoder g;
	struct gfx9_token tok;
	uint64_t counts[G9_NTYPES] = { 0 };
	unsigned t;

	if (data == NULL || !gfx9_is_stream(data, len))
		return 0;
	gfx9_init(&g, data, len);
	while (gfx9_next(&g, &tok)) {
		enum sqtt_type st = sqtt_type_by_name(gfx9_type_name(tok.type));
		if (f->types_given && (st == TOK_NTYPES || !f->type_wanted[st]))
			continue;
		if (f->counts)
			counts[tok.type]++;
		else
			packet_put_gfx9(po, &tok);
	}
	for (t = 0; f->counts && t < G9_NTYPES; t++)
		if (counts[t] != 0)
			packet_put_count(po, gfx9_type_name((enum gfx9_type)t), counts[t]);
	return 1;
}

void
packet_of_token(const struct sqtt_gen *g, const struct sqtt_token *tok,
    struct walk_packet *pk)
{
	struct sqtt_fields f;

	sqtt_fields(g, tok, &f);
	pk->time = tok->time;
	pk->type = tok->type;
	pk->wave = f.wave;
	pk->simd = f.simd;
	pk->wgp = f.wgp;
	pk->sa = f.sa;
	pk->op = f.op;
	pk->raw = tok->raw;
	pk->raw_hi = tok->raw_hi;
}

void
packet_reader_init(struct packet_reader *r)
{
	r->gen = sqtt_gen_default();
}

static int
type_code(const char *name)
{
	return (int)sqtt_type_by_name(name);
}

static int
default_op(const char *name)
{
	return sqtt_op_code(sqtt_gen_default(), name);
}

/* Field i as a number into v, else the error returned (tsv_u64's line). */
#define FIELD(r, t, i, v) do {							\
	uint64_t u_;								\
	if (!tsv_get_u64((t), (i), &u_))					\
		return tsv_why((t), (r)->why, sizeof((r)->why),			\
		    "%s: '%s' is not a number", (t)->col[(i)], (t)->field[(i)]);	\
	(v) = u_;								\
} while (0)

int
packet_read(struct packet_reader *r, struct tsv *t, const int *c,
    int (*wants)(enum sqtt_type), struct walk_packet *pk)
{
	uint64_t v;

	pk->type = (enum sqtt_type)tsv_memo(t, c[PKT_TYPE], type_code);
	if (pk->type == TOK_NTYPES)
		return tsv_why(t, r->why, sizeof(r->why), "unknown token type '%s'",
		    t->field[c[PKT_TYPE]]);
	if (!wants(pk->type))
		return 0;
	FIELD(r, t, c[PKT_EVENT], v);
	pk->event = (long)v;
	pk->se = -1;
	if (!tsv_dash(t, c[PKT_SE])) {
		FIELD(r, t, c[PKT_SE], v);
		pk->se = (int)v;
	}
	FIELD(r, t, c[PKT_TIME], pk->time);
	pk->wave = pk->simd = pk->wgp = pk->sa = pk->op = -1;
	pk->raw = 0;
	pk->raw_hi = 0;
	switch (pk->type) {
	case TOK_HEADER: case TOK_WAVE_START: case TOK_WAVE_END:
		if (pk->type == TOK_HEADER && !tsv_dash(t, c[PKT_RAW])) {
			struct sqtt_header h;
			FIELD(r, t, c[PKT_RAW], pk->raw);
			sqtt_header(pk->raw, &h);
			if ((r->gen = sqtt_gen_for_version(h.version)) == NULL)
				return tsv_why(t, r->why, sizeof(r->why), "HEADER version %u: no "
				    "generation has it", h.version);
		}
		FIELD(r, t, c[PKT_SIMD], v);
		pk->simd = (int)v;
		FIELD(r, t, c[PKT_WGP], v);
		pk->wgp = (int)v;
		FIELD(r, t, c[PKT_SA], v);
		pk->sa = (int)v;
		if (pk->type != TOK_HEADER) {
			FIELD(r, t, c[PKT_WAVE], v);
			pk->wave = (int)v;
		}
		break;
	case TOK_INST:
		/* op names are the generation's, known from the buffer's HEADER */
		pk->op = r->gen == sqtt_gen_default() ? tsv_memo(t, c[PKT_OP], default_op) :
		    sqtt_op_code(r->gen, t->field[c[PKT_OP]]);
		if (pk->op < 0)
			return tsv_why(t, r->why, sizeof(r->why), "unknown INST op '%s'",
			    t->field[c[PKT_OP]]);
		/* FALLTHROUGH */
	case TOK_VALU_INST: case TOK_IMM_ONE:
		FIELD(r, t, c[PKT_WAVE], v);
		pk->wave = (int)v;
		break;
	case TOK_NEW_PC:	/* up to 72 bits (gfx12) */
		if (tsv_dash(t, c[PKT_RAW]) ||
		    sqtt_raw_parse(t->field[c[PKT_RAW]], &pk->raw, &pk->raw_hi) != 0)
			return tsv_why(t, r->why, sizeof(r->why), "raw '%s' is not a NEW_PC's "
			    "bits", t->field[c[PKT_RAW]]);
		break;
	default:	/* IMMEDIATE, REG: their raw bits */
		FIELD(r, t, c[PKT_RAW], pk->raw);
		break;
	}
	return 1;
}

#undef FIELD

int
gfx9_wave_packet(const struct gfx9_token *tok, long event, int se, struct walk_packet *pk)
{
	struct gfx9_fields f;

	if ((tok->type != G9_WAVE_START && tok->type != G9_WAVE_END) || tok->time < 4 ||
	    gfx9_wave_start_is_trap(tok))
		return 0;
	gfx9_fields(tok, &f);
	memset(pk, 0, sizeof(*pk));
	pk->event = event;
	pk->se = se;
	pk->time = (uint64_t)tok->time - 4;
	pk->type = tok->type == G9_WAVE_START ? TOK_WAVE_START : TOK_WAVE_END;
	pk->wave = f.wave;
	pk->simd = f.simd;
	pk->wgp = f.wgp;
	pk->sa = f.sa;
	pk->op = -1;
	return 1;
}
