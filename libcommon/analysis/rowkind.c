/* rowkind: the token column read as a row kind (rowkind.h). */
#include <string.h>

#include "rowkind.h"
#include "token.h"

enum row_kind
row_kind_of(const char *token)
{
	int op;

	if (strcmp(token, sqtt_type_name(TOK_WAVE_END)) == 0)
		return ROW_WAVE_END;
	if (strncmp(token, "INST:", 5) == 0) {
		/* the ops that move the pc have one name in every generation */
		op = sqtt_op_code(sqtt_gen_default(), token + 5);
		if (op == SQTT_OP_BRANCH_TAKEN || op == SQTT_OP_JUMP)
			return ROW_TAKEN;
	}
	return ROW_ISSUE;
}

int
row_kind_code(const char *token)
{
	return (int)row_kind_of(token);
}
