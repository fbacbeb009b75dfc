/* tsv: the toolkit's line-oriented TSV streams (see pipeline.md, Streams). */
#ifndef TSV_H
#define TSV_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum tsv_kind { TSV_EOF, TSV_META, TSV_HEADER, TSV_RECORD };

/* The longest line a reader takes (without its newline): far beyond any real record or
 * '##' line, and it keeps /dev/zero or an endless line from eating the memory. */
#define TSV_LINE_MAX (1 << 20)

struct tsv {
	FILE *fp;
	int owned;		/* opened by tsv_open_path: closed by tsv_close */
	int fd;			/* read directly, in blocks: no stdio copies */
	const char *path;	/* for messages: "prog: PATH:LINE: ..." */
	unsigned long line;
	char *buf;		/* the block: lines are split in place here */
	size_t cap, blen, pos;	/* its size, bytes in it, start of the next line */
	size_t scanned;		/* bytes after pos already searched for a newline */
	size_t nul;		/* offset of a NUL byte in buf, or SIZE_MAX */
	int eof;
	char *text;		/* the whole line (no newline), for TSV_META and pass-through */
	size_t len;
	char **field;		/* fields of the current line, split in place */
	size_t nfield, maxfield;
	char *fend;		/* the end of the last field */
	struct tsv_memo *memo;	/* tsv_memo's, by column */
	size_t nmemo;
	char **col;		/* column names from the '#' line */
	size_t ncol;
	char *colbuf;
};

/* The columns of the packet stream and of the row stream (pipeline.md), in order; the
 * row stream's cost, cause and retired are stall-attr's. */
enum { PKT_EVENT, PKT_SE, PKT_NIB, PKT_TIME, PKT_TYPE, PKT_WAVE, PKT_SIMD, PKT_WGP, PKT_SA,
	PKT_OP, PKT_RAW, PKT_NCOL };
extern const char *const tsv_packet_col[PKT_NCOL];
enum { ROW_EVENT, ROW_SE, ROW_KERNEL, ROW_WAVE, ROW_SLOT, ROW_PC, ROW_TIME, ROW_DELTA,
	ROW_TOKEN, ROW_INST, ROW_CLASS, ROW_DEP, ROW_COST, ROW_CAUSE, ROW_RETIRED, ROW_COST2,
	ROW_CAUSE2, ROW_TAG,
	ROW_NCOL };
extern const char *const tsv_row_col[ROW_NCOL];
#define TSV_COL(c) (1UL << (c))

void tsv_open(struct tsv *, FILE *, const char *path);
/* The lines of n bytes in memory (copied), read as a stream's. */
void tsv_open_mem(struct tsv *, const char *bytes, size_t n, const char *path);
/* The same for a file by name, "-" being standard input (named "stdin" in messages); one
 * that cannot be opened is fatal ("prog: PATH: reason", exit 2).  tsv_close closes it. */
void tsv_open_path(struct tsv *, const char *path);
void tsv_close(struct tsv *);
/* tsv_close for fatal_push(tsv_close_at, t): a program's reader whose row error raises to
 * its catch, past the reader's frame. */
void tsv_close_at(void *t);
/* Bytes a reader already took from the stream's fd (to tell its format), read first. */
void tsv_prime(struct tsv *, const void *bytes, size_t n);
/* Next line: '##' lines are TSV_META (field[0] is the key without "##"), the one '#'
 * line is TSV_HEADER (columns are then known), others TSV_RECORD with exactly ncol
 * fields (else a fatal error). */
enum tsv_kind tsv_next(struct tsv *);
/* Index of a column by name, -1 if absent. */
int tsv_col(const struct tsv *, const char *name);
/* Same, but a missing column is fatal. */
int tsv_need(const struct tsv *, const char *name);
/* The columns names[0..n) into cols[] (-1 where absent); one whose TSV_COL bit is in need
 * and is absent is fatal. */
void tsv_cols(const struct tsv *, const char *const *names, size_t n, int *cols,
    unsigned long need);
/* The header line of names[0..n), then extra (may be NULL) and the newline. */
void tsv_put_header(FILE *, const char *const *names, size_t n, const char *extra);
/* A reader's error at the current line, "PATH:LINE: msg", raised (die, util.h): what
 * stdout's buffer holds goes out first. */
void tsv_fail(const struct tsv *, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));
/* The same line returned: into why (whysz bytes), then -1. */
int tsv_why(const struct tsv *, char *why, size_t whysz, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* Field i as a number ("0x" hex allowed for u64); malformed is fatal. "-" is fatal too. */
uint64_t tsv_u64(const struct tsv *, int i);
int64_t tsv_i64(const struct tsv *, int i);
/* The same, 0 for a field that is no number (nothing said), 1 and *v for one. */
int tsv_get_u64(const struct tsv *, int i, uint64_t *v);
int tsv_get_i64(const struct tsv *, int i, int64_t *v);
/* The length of field i as split (fields hold no NUL: a line with one is refused).  A
 * field shortened in place (meta_parse's unescaping) is no longer this long: tsv_u64,
 * tsv_i64 and tsv_memo are for records. */
static inline size_t
tsv_len(const struct tsv *t, size_t i)
{
	return (size_t)((i + 1 < t->nfield ? t->field[i + 1] - 1 : t->fend) - t->field[i]);
}
/* lookup(field i), remembered by the field's bytes (up to 16 of them) for this column: a
 * name every row repeats (a token type, an instruction class) is looked up once.
 * lookup must give the same value for the same text. */
int tsv_memo(struct tsv *, int i, int (*lookup)(const char *));
/* Field i is "-". */
int tsv_dash(const struct tsv *, int i);
/* The current line whole again (its tabs put back; the fields are then invalid), for
 * passing a record through. */
const char *tsv_line(struct tsv *);
/* Write the current record back out, fields joined by tabs. */
void tsv_put_record(const struct tsv *, FILE *out);

#endif
