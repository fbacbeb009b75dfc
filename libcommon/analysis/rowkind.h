/* rowkind: what a row of the row stream is, typed, for the stages that act on it (attr,
 * profile, the timeline, annotate).  In process a row carries it (struct walk_row); the
 * text stream's token column says it as a string, read here once, in one place. */
#ifndef ROWKIND_H
#define ROWKIND_H

enum row_kind {
	ROW_ISSUE,	/* an instruction issued, the wave's pc moving past it */
	ROW_TAKEN,	/* an issue that moved the wave's pc to a target (a taken branch, a jump) */
	ROW_WAVE_END,	/* the wave's end */
};

/* The kind of a token column's text ("INST:branch_taken", "WAVE_END", ...). */
enum row_kind row_kind_of(const char *token);
/* The same as an int, for tsv_memo. */
int row_kind_code(const char *token);

/* All a token column's text says: its kind, whether it marks a VALU issue, and the
 * cycles its instruction ran as its op says (0: it says none). */
struct row_token {
	enum row_kind kind;
	unsigned valu;
	unsigned busy;
};
struct row_token row_token_of(const char *token);
/* The same packed as an int for tsv_memo, and unpacked. */
int row_token_code(const char *token);
struct row_token row_token_unpack(int code);
/* row_token_of remembered by the string's address, for tokens whose strings stay where
 * they are and never change (the walker's); a memo starts zeroed. */
#define ROW_TOKEN_MEMO 64
struct row_token_memo {
	const char *key[ROW_TOKEN_MEMO];
	struct row_token val[ROW_TOKEN_MEMO];
};
struct row_token row_token_memo(struct row_token_memo *, const char *token);

#endif
