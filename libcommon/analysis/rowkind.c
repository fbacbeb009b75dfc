/* rowkind: the token column read as a row kind (rowkind.h). */
#include "rowkind.h"
#include "token.h"

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
