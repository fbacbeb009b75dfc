/* packet: the packet stream's lines of decoded tokens (packet.h). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "gfx9.h"
#include "out.h"
#include "packet.h"

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
