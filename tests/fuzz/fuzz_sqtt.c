/* libFuzzer harness for the gfx11 token decoder, in memory and streamed in odd chunks:
 *   clang-22 -fsanitize=fuzzer,address,undefined -Ilibcommon tests/fuzz/fuzz_sqtt.c \
 *       libcommon/sqtt.c -o fuzz_sqtt && ./fuzz_sqtt corpus/  */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "sqtt.h"

struct chunks {
	const uint8_t *data;
	size_t len, off;
};

static size_t
refill(void *ctx, uint8_t *dst, size_t max)
{
	struct chunks *c = ctx;
	size_t n = c->len - c->off;

	if (n > 7)
		n = 7;	/* tiny chunks: every window boundary gets crossed */
	if (n > max)
		n = max;
	memcpy(dst, c->data + c->off, n);
	c->off += n;
	return n;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	struct sqtt_decoder a, b;
	struct sqtt_token ta, tb;
	struct sqtt_fields f;
	struct chunks c = { data, len, 0 };
	uint64_t counts[TOK_NTYPES] = { 0 }, seen[TOK_NTYPES] = { 0 }, n = 0, lost, unknown;
	int ra, rb, t;

	sqtt_init_mem(&a, data, len);
	sqtt_init_stream(&b, refill, &c);
	for (;;) {
		ra = sqtt_next(&a, &ta);
		rb = sqtt_next(&b, &tb);
		if (ra != rb)
			__builtin_trap();	/* the two readers must agree */
		if (ra <= 0)
			break;
		if (ta.nib != tb.nib || ta.time != tb.time || ta.raw != tb.raw || ta.type != tb.type)
			__builtin_trap();
		sqtt_fields(a.gen, &ta, &f);
		seen[ta.type]++;
		n++;
	}
	sqtt_free(&b);
	lost = a.lost;
	unknown = a.unknown;
	sqtt_init_mem(&a, data, len);
	if (sqtt_count(&a, counts) != ra)
		__builtin_trap();
	/* the counting loop's steps count what the token-by-token decoder decodes */
	for (t = 0; ra == 0 && t < TOK_NTYPES; t++)
		if (counts[t] != seen[t])
			__builtin_trap();
	if (ra == 0 && (a.lost != lost || a.unknown != unknown))
		__builtin_trap();
	return 0;
}
