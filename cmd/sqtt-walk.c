/* sqtt-walk: the packet stream placed onto the code: one row per instruction issue of
 * every wave of each buffer's traced unit (pipeline.md, row stream). */
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "out.h"
#include "tsv.h"
#include "util.h"
#include "walk.h"

static void __attribute__((noreturn))
usage(void)
{
	fprintf(stderr, "usage: %s [-hs] [-c code --base addr [-k kernel]] [--packets wave[:n]] "
	    "[packets.tsv]\n", getprogname());
	exit(2);
}

static const char *opt_code, *opt_kernel;
static uint64_t opt_base;
static int opt_strict;
static long opt_dbg_wave = -1;
static unsigned long opt_dbg_n = 64;

/* Output: one row per issue, the hot path, formatted by hand from pieces made once per
 * event ("event\tse\tkernel\t") and once per instruction ("\tinst\tclass\tdep\n"). */
static struct {
	long event;
	char *text;
	size_t len;
} prefix = { -1, NULL, 0 };

struct tails {
	char **text;
	size_t *len, n;
};
static struct tails *tails;	/* by program number */
static size_t ntails;

static size_t
make_tail(char *buf, size_t sz, const struct inst *in)
{
	int n = snprintf(buf, sz, "\t%s\t%s\t%s\n", in->text, inst_class_name(in->cls),
	    isa_dep_name(in->dep_id));

	return n < 0 ? 0 : (size_t)n >= sz ? sz - 1 : (size_t)n;
}

static void
put_prefix(const struct walk_row *r)
{
	char buf[64];
	size_t kl = strlen(r->kernel);
	int n;

	if (r->se < 0)
		n = snprintf(buf, sizeof(buf), "%ld\t-\t", r->event);
	else
		n = snprintf(buf, sizeof(buf), "%ld\t%d\t", r->event, r->se);
	free(prefix.text);
	prefix.len = (size_t)n + kl + 1;
	prefix.text = xcalloc(prefix.len + 1, 1);
	memcpy(prefix.text, buf, (size_t)n);
	memcpy(prefix.text + n, r->kernel, kl);
	prefix.text[prefix.len - 1] = '\t';
	prefix.event = r->event;
}

static const char *
tail_of(const struct walk_row *r, size_t *len)
{
	static char buf[OUT_LINEMAX / 2];
	struct tails *t;

	if (r->idx == SIZE_MAX) {
		*len = make_tail(buf, sizeof(buf), r->in);
		return buf;
	}
	if (r->prog >= ntails) {
		tails = xreallocarray(tails, r->prog + 1, sizeof(*tails));
		memset(tails + ntails, 0, (r->prog + 1 - ntails) * sizeof(*tails));
		ntails = r->prog + 1;
	}
	t = &tails[r->prog];
	if (r->idx >= t->n) {
		size_t n = r->idx + 1 > 2 * t->n ? r->idx + 1 : 2 * t->n;
		t->text = xreallocarray(t->text, n, sizeof(*t->text));
		t->len = xreallocarray(t->len, n, sizeof(*t->len));
		memset(t->text + t->n, 0, (n - t->n) * sizeof(*t->text));
		t->n = n;
	}
	if (t->text[r->idx] == NULL) {
		t->len[r->idx] = make_tail(buf, sizeof(buf), r->in);
		t->text[r->idx] = xstrndup(buf, t->len[r->idx]);
	}
	*len = t->len[r->idx];
	return t->text[r->idx];
}

static void
put_row(void *ctx, const struct walk_row *r)
{
	const char *tail;
	size_t tl;
	char *p;

	(void)ctx;
	if (r->event != prefix.event || prefix.text == NULL)
		put_prefix(r);
	tail = tail_of(r, &tl);
	if (prefix.len + tl > OUT_LINEMAX - 128) {	/* a long name: the slow path */
		out_flush();
		printf("%s%u\t%u\t0x%" PRIx64 "\t%" PRIu64 "\t%" PRIu64 "\t%s%s", prefix.text,
		    r->wave, r->slot, r->pc, r->time, r->delta, r->token, tail);
		return;
	}
	p = out_reserve();
	memcpy(p, prefix.text, prefix.len);
	p += prefix.len;
	p = fmt_u64(p, r->wave);
	*p++ = '\t';
	p = fmt_u64(p, r->slot);
	*p++ = '\t';
	p = fmt_hex(p, r->pc);
	*p++ = '\t';
	p = fmt_u64(p, r->time);
	*p++ = '\t';
	p = fmt_u64(p, r->delta);
	*p++ = '\t';
	p = fmt_str(p, r->token);
	memcpy(p, tail, tl);
	out_commit(p + tl);
}

static void
take_meta(struct walker *wk, const struct tsv *t)
{
	if (strcmp(t->field[0], "source") == 0 && t->nfield >= 2) {
		walk_source(wk, t->field[1]);
	} else if (strcmp(t->field[0], "code") == 0 && t->nfield >= 5) {
		walk_program(wk, t->field[1], t->field[2], strtoull(t->field[3], NULL, 0),
		    t->nfield > 5 ? t->field[5] : "-", NULL, 0);
	} else if (strcmp(t->field[0], "event") == 0 && t->nfield >= 4) {
		walk_event(wk, strtol(t->field[1], NULL, 10), t->field[3],
		    t->nfield >= 5 ? t->field[4] : NULL);
	}
}

static int
field_or_dash(const struct tsv *t, int i)
{
	return tsv_dash(t, i) ? -1 : (int)tsv_u64(t, i);
}

struct cols {
	int event, se, time, type, wave, simd, wgp, sa, op, raw;
};

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "base", required_argument, NULL, 'b' },
		{ "code", required_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ "kernel", required_argument, NULL, 'k' },
		{ "packets", required_argument, NULL, 'P' },
		{ "strict", no_argument, NULL, 's' },
		{ NULL, 0, NULL, 0 }
	};
	struct cols c = { -1, -1, -1, -1, -1, -1, -1, -1, -1, -1 };
	struct walker *wk;
	struct walk_packet pk;
	struct tsv t;
	enum tsv_kind k;
	const char *path = "-";
	FILE *in = stdin;
	int ch, header_out = 0;
	char *end;

	while ((ch = getopt_long(argc, argv, "b:c:hk:s", longopts, NULL)) != -1) {
		switch (ch) {
		case 'b':
			errno = 0;
			opt_base = strtoull(optarg, &end, 0);
			if (errno || *end != '\0' || end == optarg)
				errx(2, "--base is not an address: %s", optarg);
			break;
		case 'c':
			opt_code = optarg;
			break;
		case 'h':
			printf("usage: %s [-hs] [-c code [-b base] [-k kernel]] [--packets wave[:n]] "
			    "[packets.tsv]\n"
			    "Place every instruction token of a packet stream (sqtt-dump's output) on\n"
			    "the instruction that issued it: one row per issue per wave.\n\n"
			    "  -c, --code FILE    the code object (default: found through ## lines)\n"
			    "  -b, --base ADDR    its load address\n"
			    "  -k, --kernel NAME  its kernel name\n"
			    "  -s, --strict       warnings make the exit status 2\n"
			    "      --packets W[:N]  print wave W's first N tokens (64) with their pc\n"
			    "                     on stderr, MISS where the walk lost alignment\n"
			    "See sqtt-walk(1).\n", getprogname());
			exit(0);
		case 'k':
			opt_kernel = optarg;
			break;
		case 'P':
			errno = 0;
			opt_dbg_wave = strtol(optarg, &end, 10);
			if (errno || end == optarg || opt_dbg_wave < 0)
				errx(2, "--packets wants WAVE[:N]: %s", optarg);
			if (*end == ':') {
				opt_dbg_n = strtoul(end + 1, &end, 10);
			}
			if (*end != '\0')
				errx(2, "--packets wants WAVE[:N]: %s", optarg);
			break;
		case 's':
			opt_strict = 1;
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (argc > 1)
		usage();
	if (argc == 1 && strcmp(argv[0], "-") != 0) {
		path = argv[0];
		if ((in = fopen(path, "r")) == NULL)
			err(2, "%s", path);
	}
	wk = walk_new(put_row, NULL);
	if (opt_code != NULL)
		walk_use_code(wk, opt_code, opt_base, opt_kernel);
	if (opt_dbg_wave >= 0)
		walk_debug(wk, opt_dbg_wave, opt_dbg_n);
	tsv_open(&t, in, path);
	while ((k = tsv_next(&t)) != TSV_EOF) {
		if (k == TSV_META) {
			take_meta(wk, &t);
			out_flush();
			puts(tsv_line(&t));
			continue;
		}
		if (k == TSV_HEADER) {
			c.event = tsv_need(&t, "event");
			c.se = tsv_need(&t, "se");
			c.time = tsv_need(&t, "time");
			c.type = tsv_need(&t, "type");
			c.wave = tsv_need(&t, "wave");
			c.simd = tsv_need(&t, "simd");
			c.wgp = tsv_need(&t, "wgp");
			c.sa = tsv_need(&t, "sa");
			c.op = tsv_need(&t, "op");
			c.raw = tsv_need(&t, "raw");
			continue;
		}
		if (!header_out) {
			out_flush();
			printf("#event\tse\tkernel\twave\tslot\tpc\ttime\tdelta\ttoken\tinst\tclass\tdep\n");
			header_out = 1;
		}
		pk.type = sqtt_type_by_name(t.field[c.type]);
		switch (pk.type) {
		case TOK_HEADER: case TOK_WAVE_START: case TOK_WAVE_END: case TOK_INST:
		case TOK_VALU_INST: case TOK_IMM_ONE: case TOK_IMMEDIATE: case TOK_NEW_PC:
		case TOK_REG:
			break;
		case TOK_NTYPES:
			tsv_fail(&t, "unknown token type '%s'", t.field[c.type]);
		default:
			continue;	/* the walk needs no other token */
		}
		pk.event = (long)tsv_u64(&t, c.event);
		pk.se = field_or_dash(&t, c.se);
		pk.time = tsv_u64(&t, c.time);
		pk.wave = pk.simd = pk.wgp = pk.sa = pk.op = -1;
		pk.raw = 0;
		switch (pk.type) {
		case TOK_HEADER: case TOK_WAVE_START: case TOK_WAVE_END:
			pk.simd = (int)tsv_u64(&t, c.simd);
			pk.wgp = (int)tsv_u64(&t, c.wgp);
			pk.sa = (int)tsv_u64(&t, c.sa);
			if (pk.type != TOK_HEADER)
				pk.wave = (int)tsv_u64(&t, c.wave);
			break;
		case TOK_INST:
			if ((pk.op = sqtt_op_code(t.field[c.op])) < 0)
				tsv_fail(&t, "unknown INST op '%s'", t.field[c.op]);
			/* FALLTHROUGH */
		case TOK_VALU_INST: case TOK_IMM_ONE:
			pk.wave = (int)tsv_u64(&t, c.wave);
			break;
		default:	/* IMMEDIATE, NEW_PC, REG: their raw bits */
			pk.raw = tsv_u64(&t, c.raw);
			break;
		}
		if (walk_packet(wk, &pk) != 0)
			tsv_fail(&t, "%s", walk_error(wk));
	}
	if (t.ncol == 0) {
		out_flush();
		errx(2, "%s: no '#' column header: not a packet stream", path);
	}
	if (walk_end(wk) != 0) {
		out_flush();
		fflush(stdout);
		errx(2, "%s: %s", path, walk_error(wk));
	}
	out_flush();
	if (!header_out)
		printf("#event\tse\tkernel\twave\tslot\tpc\ttime\tdelta\ttoken\tinst\tclass\tdep\n");
	tsv_close(&t);
	if (fflush(stdout) != 0 || ferror(stdout))
		err(2, "stdout");
	if (walk_nwarnings(wk))
		warnx("%" PRIu64 " warnings", walk_nwarnings(wk));
	k = walk_nfailed(wk) || (opt_strict && walk_nwarnings(wk)) ? 2 : 0;
	walk_free(wk);
	return (int)k;
}
