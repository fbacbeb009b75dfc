/* rowkind: the token column read as a row kind (rowkind.h). */
#include <stdint.h>

#include "rowkind.h"
#include "gen.h"

enum row_kind
row_kind_of(const char *token)
{
	switch (sqtt_row_token(token)) {
	case SQTT_ROW_WAVE_END:
		return ROW_WAVE_END;
	case SQTT_ROW_TAKEN:
		return ROW_TAKEN;
	default:
		return ROW_ISSUE;
	}
}

int
row_kind_code(const char *token)
{
	return (int)row_kind_of(token);
}

struct row_token
row_token_of(const char *token)
{
	struct row_token t;

	t.kind = row_kind_of(token);
	t.valu = t.kind != ROW_WAVE_END && sqtt_token_valu(token);
	t.busy = t.kind == ROW_WAVE_END ? 0 : sqtt_token_busy(token);
	return t;
}

/* kind in bits 0-1, valu in bit 2, busy (at most 1000) above */
int
row_token_code(const char *token)
{
	struct row_token t = row_token_of(token);

	return (int)t.kind | (int)t.valu << 2 | (int)t.busy << 3;
}

struct row_token
row_token_unpack(int code)
{
	struct row_token t;

	t.kind = (enum row_kind)(code & 3);
	t.valu = (unsigned)code >> 2 & 1;
	t.busy = (unsigned)code >> 3;
	return t;
}

struct row_token
row_token_memo(struct row_token_memo *m, const char *token)
{
	unsigned h = (unsigned)(((uintptr_t)token >> 3) % ROW_TOKEN_MEMO);

	if (m->key[h] != token) {
		m->key[h] = token;
		m->val[h] = row_token_of(token);
	}
	return m->val[h];
}
