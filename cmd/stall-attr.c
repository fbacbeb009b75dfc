/* stall-attr: charge every row of the row stream a cost and label it with a cause
 * (pipeline.md, Costs and causes; the rules and their evidence are in stall-attr(1)).
 * A text adapter over libcommon/attr. */
#include <err.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "attr.h"
#include "meta.h"
#include "out.h"
#include "tsv.h"
#include "util.h"

static int opt_raw;
static char *first_header;	/* the first input's '#' line: later inputs must match it */
static struct tsv *cur;		/* the input being read, for the warnings */
static int col[ROW_NCOL];	/* the row stream's columns */

static const struct cli cli = {
	.synopsis = {
		"[-hr] [--deltas] [--strict] [file ...]",
		NULL
	},
	.options = "deltas/r raw strict",
	.help =
	    "Charge every row of a row stream a cost and label it with a cause;\n"
	    "the rows come out in input order with 'cost' and 'cause' appended.\n"
	    "\n"
	    "  -r, --deltas  cost is the row's delta: waits are not moved (--raw, its\n"
	    "                older name, still works)\n"
	    "      --strict  a warning is an error (exit 2)\n"
	    "  -h, --help    this text\n"
	    "      --version the version\n"
	    "The rules and the evidence for them are in stall-attr(1).\n",
};

/* Output ------------------------------------------------------------------------ */

/* The program's tag (the column `tag`) stays the last column: cost, cause, retired, cost2 and cause2 go
 * before it, so that each column keeps its place.  -1: the input has none. */
static int tag_col = -1;
static int tag_last;		/* tag_col is the last column */

/* The bytes of field i of a line: [*from, *to), the tab before it included (none for the
 * first). */
static void
field_span(const char *text, size_t len, int i, size_t *from, size_t *to)
{
	const char *p = text, *end = text + len, *q;
	int n;

	for (n = 0; n < i && p != NULL; n++)
		if ((p = memchr(p, '\t', (size_t)(end - p))) != NULL)
			p++;
	if (p == NULL) {	/* fewer fields (tsv refuses such a record): nothing moves */
		*from = *to = len;
		return;
	}
	q = memchr(p, '\t', (size_t)(end - p));
	*from = (size_t)(p - text) - (i > 0);
	*to = q ? (size_t)(q - text) : len;
}

/* A row passed through with its cost and cause: the hot path, formatted by hand. */
static void
put_row(const char *text, size_t len, const struct attr_cost *c, const char *ret)
{
	int64_t cost = c->cost;
	const char *cause = cause_name(c->cause);
	size_t from = len, to = len;
	char *p;

	if (tag_col > 0 && tag_last) {
		/* the tag is the last field (a record has as many as the header names) */
		const char *q = memrchr(text, '\t', len);
		from = q ? (size_t)(q - text) : len;
	} else if (tag_col > 0)
		field_span(text, len, tag_col, &from, &to);
	if (len > OUT_LINEMAX / 2 || strlen(ret) > OUT_LINEMAX / 4) {
		out_flush();
		printf("%.*s%s\t%" PRId64 "\t%s\t%s\t%" PRId64 "\t%s%.*s\n", (int)from, text,
		    text + to, cost, cause, ret, c->cost2, cause_name(c->cause2), (int)(to - from),
		    text + from);
		return;
	}
	p = out_reserve();
	memcpy(p, text, from);
	p += from;
	memcpy(p, text + to, len - to);
	p += len - to;
	*p++ = '\t';
	if (cost < 0) {
		*p++ = '-';
		cost = -cost;
	}
	p = fmt_u64(p, (uint64_t)cost);
	*p++ = '\t';
	p = fmt_str(p, cause);
	*p++ = '\t';
	p = fmt_str(p, ret);
	*p++ = '\t';
	p = fmt_u64(p, (uint64_t)c->cost2);
	*p++ = '\t';
	p = fmt_str(p, cause_name(c->cause2));
	memcpy(p, text + from, to - from);
	p += to - from;
	*p++ = '\n';
	out_commit(p);
}

static void
warn_row(void *ctx, const char *msg)
{
	(void)ctx;
	if (cli_strict)
		tsv_fail(cur, "%s", msg);
	warning_out("%s:%lu: %s", cur->path, cur->line, msg);
}

static void
put_out(void *ctx, const void *data, size_t len, const struct attr_cost *c,
    const char *retired, int meta)
{
	(void)ctx;
	if (meta) {
		out_flush();
		printf("%s\n", (const char *)data);
	} else {
		put_row(data, len, c, retired ? retired : "-");
	}
}

static struct attr *attr;

static const void *
line_of(void *ctx, const void *handle, size_t *len)
{
	struct tsv *t = (struct tsv *)handle;
	const char *line = tsv_line(t);

	(void)ctx;
	*len = t->len;
	return line;
}

static int
class_code(const char *name)
{
	return (int)inst_class_by_name(name);
}

static uint64_t nrecords;	/* rows read, of every input */

static void
record(struct tsv *t)
{
	struct attr_row r;
	struct row_token tk;
	int64_t delta;

	nrecords++;
	r.event = tsv_u64(t, col[ROW_EVENT]);
	r.wave = tsv_u64(t, col[ROW_WAVE]);
	r.time = tsv_u64(t, col[ROW_TIME]);
	delta = tsv_i64(t, col[ROW_DELTA]);
	if (delta < 0)
		tsv_fail(t, "delta: %" PRId64 " is negative", delta);
	r.delta = (uint64_t)delta;
	r.pc = 0;
	if ((r.pc_known = !tsv_dash(t, col[ROW_PC])))
		r.pc = tsv_u64(t, col[ROW_PC]);
	r.token = t->field[col[ROW_TOKEN]];
	tk = row_token_unpack(tsv_memo(t, col[ROW_TOKEN], row_token_code));
	r.kind = tk.kind;
	r.valu = tk.valu;
	r.busy = tk.busy;
	r.inst = t->field[col[ROW_INST]];
	r.cls = (enum inst_class)tsv_memo(t, col[ROW_CLASS], class_code);
	r.dep = t->field[col[ROW_DEP]];
	r.in = NULL;
	if (attr_row(attr, &r, t) != 0)
		tsv_fail(t, "%s", attr_error(attr));
}

static void
input_end(struct tsv *t)
{
	if (attr_end(attr) != 0)
		tsv_fail(t, "%s", attr_error(attr));
}

static void
meta(struct tsv *t)
{
	const struct isa_target *target;

	/* the rows' generation: its counters and s_delay_alu names */
	if (strcmp(t->field[0], "target") == 0) {
		target = meta_target(t, 0);
		attr_model(attr, target ? target->model : isa_default_model());
	}
	attr_meta(attr, tsv_line(t), strlen(tsv_line(t)));
}

static void
header(const struct tsv *t)
{
	tsv_cols(t, tsv_row_col, ROW_NCOL, col, TSV_COL(ROW_EVENT) | TSV_COL(ROW_WAVE) |
	    TSV_COL(ROW_PC) | TSV_COL(ROW_TIME) | TSV_COL(ROW_DELTA) | TSV_COL(ROW_TOKEN) |
	    TSV_COL(ROW_INST) | TSV_COL(ROW_CLASS) | TSV_COL(ROW_DEP));
	if (col[ROW_COST] >= 0 || col[ROW_CAUSE] >= 0 || col[ROW_RETIRED] >= 0 ||
	    col[ROW_COST2] >= 0 || col[ROW_CAUSE2] >= 0)
		tsv_fail(t, "the rows already have a cost or cause column (stall-attr output?)");
	if (first_header != NULL) {
		if (strcmp(t->text, first_header) != 0)
			tsv_fail(t, "the columns differ from the first input's");
		return;
	}
	first_header = xstrdup(t->text);
	tag_col = col[ROW_TAG];
	tag_last = tag_col > 0 && (size_t)tag_col + 1 == t->nfield;
	out_flush();
	printf("%s\n", attr_meta_line(opt_raw));
	if (tag_col > 0) {
		size_t from, to;
		field_span(t->text, strlen(t->text), tag_col, &from, &to);
		printf("%.*s%s\tcost\tcause\tretired\tcost2\tcause2%.*s\n", (int)from, t->text, t->text + to,
		    (int)(to - from), t->text + from);
	} else
		printf("%s\tcost\tcause\tretired\tcost2\tcause2\n", t->text);
}

static void
attribute(const char *path)
{
	struct tsv t;
	const char *name = path;
	int header_seen = 0;

	tsv_open_path(&t, path);
	fatal_push(tsv_close_at, &t);	/* a bad row raises to CLI_MAIN's catch */
	name = t.path;
	cur = &t;
	for (;;) {
		switch (tsv_next(&t)) {
		case TSV_META:
			meta(&t);
			continue;
		case TSV_HEADER:
			header(&t);
			header_seen = 1;
			continue;
		case TSV_RECORD:
			record(&t);
			continue;
		case TSV_EOF:
			break;
		}
		break;
	}
	if (!header_seen) {
		out_flush();
		fflush(stdout);
		errx(2, "%s: no '#' column header line: not a row stream", name);
	}
	input_end(&t);
	fatal_pop(&t);
	tsv_close(&t);
}

static int
run(int argc, char *argv[])
{
	int ch, i;

	while ((ch = cli_getopt(argc, argv, &cli)) != -1) {
		switch (ch) {
		case 'r':
		case OPT_RAW:	/* the older name of --deltas */
			opt_raw = 1;
			break;
		default:
			cli_usage(&cli);
		}
	}
	cli_operands(&cli, &argc, &argv, 0, -1);

	attr = attr_new(opt_raw, put_out, warn_row, line_of, NULL);
	if (argc == 0)
		attribute("-");
	for (i = 0; i < argc; i++)
		attribute(argv[i]);
	if (nrecords == 0) {	/* nothing to cost is an error, not an empty stream */
		out_flush();
		fflush(stdout);
		errx(2, "%s: no rows: nothing to cost", argc == 1 ? argv[0] : argc ? "inputs" :
		    "stdin");
	}
	free(first_header);
	attr_free(attr);
	out_flush();
	if (fflush(stdout) != 0 || ferror(stdout))
		err(2, "stdout");
	return 0;
}

CLI_MAIN(run)
