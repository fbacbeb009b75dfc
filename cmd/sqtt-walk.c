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

#include "codeload.h"
#include "codeobj.h"
#include "out.h"
#include "sqtt.h"
#include "tsv.h"
#include "util.h"

#define NSLOT 32
#define LOOKAHEAD 16	/* instructions searched on the fall-through path to resynchronise */

static void __attribute__((noreturn))
usage(void)
{
	fprintf(stderr, "usage: %s [-hs] [-c code --base addr [-k kernel]] [--packets wave[:n]] "
	    "[packets.tsv]\n", getprogname());
	exit(2);
}

/* A program of some capture, its code object opened on first use. */
struct prog {
	char *source, *name, *tag, *file;
	uint64_t base;
	struct codeobj *code;
	int failed;		/* could not be opened: its events are not walked */
	int entry_said;		/* the trace's entry disagreed with the descriptor: said once */
	uint8_t *image;
	const struct inst *insts;	/* the code object's instructions, and for each */
	size_t ninsts;
	char **tail;		/* its row's end, "\tinst\tclass\tdep\n", made once */
	size_t *tail_len;
};

struct wave {
	int alive;
	unsigned number;
	uint64_t pc, start, last;
	unsigned rows;
};

static struct prog *progs;
static size_t nprogs;
static char *cur_source;

/* Per event: kernel and program, from the ##event lines. */
struct evinfo {
	long event;
	char *kernel;
	long prog;		/* index into progs (which grows), -1: none */
};
static struct evinfo *evs;
static size_t nevs;

static const char *opt_code, *opt_kernel;
static uint64_t opt_base;
static int opt_strict;
static long opt_dbg_wave = -1;
static unsigned long opt_dbg_n = 64;
static uint64_t nwarn, nrows;
static int failed_programs;

/* The event being walked. */
static struct {
	long event;
	int se;
	const char *kernel;	/* evs[] grows under ## lines: keep its strings, not pointers into it */
	struct prog *prog;	/* progs[] may move too, but not while an event is walked */
	char prefix[160];	/* "event\tse\tkernel\t" of every row */
	size_t prefix_len;
	uint64_t base;		/* the program's load address: NEW_PC carries absolute pcs */
	struct codeobj *code;
	int have_header;
	unsigned sa, wgp, simd;
	struct sqtt_pgm pgm;	/* the dispatch's COMPUTE_PGM writes: where its waves start */
	struct wave slot[NSLOT];
	unsigned nwaves;
	uint64_t orphan;	/* instruction tokens for slots with no open wave */
} ev;

static void
warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void
warning(const char *fmt, ...)
{
	va_list ap;
	char msg[512];

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	nwarn++;
	out_flush();
	fflush(stdout);
	warnx("warning: %s", msg);
}

/* Output: one row per issue, the hot path, formatted by hand. */
static const char *const dep_names[12] = { "-", "VALU_DEP_1", "VALU_DEP_2", "VALU_DEP_3",
    "VALU_DEP_4", "TRANS32_DEP_1", "TRANS32_DEP_2", "TRANS32_DEP_3", "FMA_ACCUM_CYCLE_1",
    "SALU_CYCLE_1", "SALU_CYCLE_2", "SALU_CYCLE_3" };

/* "\tinst\tclass\tdep\n": the part of a row that depends on the instruction only. */
static size_t
make_tail(char *buf, size_t sz, const struct inst *in)
{
	int n = snprintf(buf, sz, "\t%s\t%s\t%s\n", in ? in->text : "??",
	    in ? inst_class_name(in->cls) : "unknown",
	    in && in->dep_id < 12 ? dep_names[in->dep_id] : "-");

	return n < 0 ? 0 : (size_t)n >= sz ? sz - 1 : (size_t)n;
}

static void
make_tails(struct prog *p)
{
	char buf[OUT_LINEMAX / 2];
	size_t i, n;

	p->insts = codeobj_insts(p->code, &p->ninsts);
	p->tail = xcalloc(p->ninsts, sizeof(*p->tail));
	p->tail_len = xcalloc(p->ninsts, sizeof(*p->tail_len));
	for (i = 0; i < p->ninsts; i++) {
		n = make_tail(buf, sizeof(buf), &p->insts[i]);
		p->tail[i] = xstrndup(buf, n);
		p->tail_len[i] = n;
	}
}

/* One row: the hot path, from pieces made once per event and per instruction. */
static void
put_row(struct wave *w, unsigned slot, const struct inst *in, uint64_t pc, uint64_t time,
    const char *token)
{
	char *p = out_reserve();
	struct prog *pr = ev.prog;

	if (time < w->last)
		time = w->last;	/* never: tokens of a wave come in time order */
	memcpy(p, ev.prefix, ev.prefix_len);
	p += ev.prefix_len;
	p = fmt_u64(p, w->number);
	*p++ = '\t';
	p = fmt_u64(p, slot);
	*p++ = '\t';
	p = fmt_hex(p, pc);
	*p++ = '\t';
	p = fmt_u64(p, time);
	*p++ = '\t';
	p = fmt_u64(p, time - w->last);
	*p++ = '\t';
	p = fmt_str(p, token);
	if (pr != NULL && pr->tail != NULL && in >= pr->insts && in < pr->insts + pr->ninsts) {
		size_t i = (size_t)(in - pr->insts);
		memcpy(p, pr->tail[i], pr->tail_len[i]);
		p += pr->tail_len[i];
	} else {
		p += make_tail(p, OUT_LINEMAX / 2, in);
	}
	out_commit(p);
	w->last = time;
	w->rows++;
	nrows++;
}

static struct codeobj *
prog_code(struct prog *p)
{
	char why[256];
	size_t len = 0;

	if (p->code != NULL || p->failed)
		return p->code;
	if ((p->image = codeload(p->source, p->name, p->file, &len, why, sizeof(why))) == NULL) {
		out_flush();
		fflush(stdout);
		warnx("%s", why);
		p->failed = 1;
		failed_programs++;
		return NULL;
	}
	p->code = codeobj_open(p->image, len, p->name, why, sizeof(why));
	if (p->code != NULL)
		make_tails(p);
	if (p->code == NULL) {
		out_flush();
		fflush(stdout);
		warnx("%s: program %s: %s; its events are not walked",
		    strcmp(p->file, "-") ? p->file : p->source, p->name, why);
		p->failed = 1;
		failed_programs++;
	}
	return p->code;
}

static void
take_meta(const struct tsv *t)
{
	size_t i;

	if (strcmp(t->field[0], "source") == 0 && t->nfield >= 2) {
		free(cur_source);
		cur_source = xstrdup(t->field[1]);
	} else if (strcmp(t->field[0], "code") == 0 && t->nfield >= 5) {
		struct prog *p;
		progs = xreallocarray(progs, nprogs + 1, sizeof(*progs));
		p = &progs[nprogs++];
		memset(p, 0, sizeof(*p));
		p->source = xstrdup(cur_source ? cur_source : "-");
		p->name = xstrdup(t->field[1]);
		p->tag = xstrdup(t->field[2]);
		p->base = strtoull(t->field[3], NULL, 0);
		p->file = xstrdup(t->nfield > 5 ? t->field[5] : "-");
	} else if (strcmp(t->field[0], "event") == 0 && t->nfield >= 4) {
		struct evinfo *e;
		evs = xreallocarray(evs, nevs + 1, sizeof(*evs));
		e = &evs[nevs++];
		e->event = strtol(t->field[1], NULL, 10);
		e->kernel = xstrdup(t->field[3]);
		e->prog = -1;
		/* the program most recently declared under this name and tag */
		for (i = nprogs; i-- > 0;)
			if (strcmp(progs[i].name, e->kernel) == 0 &&
			    (t->nfield < 5 || strcmp(progs[i].tag, t->field[4]) == 0)) {
				e->prog = (long)i;
				break;
			}
	}
}

/* Does an instruction of class c fit the token?  The table of sqtt-format.md section 7,
 * read by families so that a capture which reports a VALU op under a neighbouring
 * token still walks. */
static int
is_valu(enum inst_class c)
{
	return c == IC_VALU || c == IC_VALU_TRANS || c == IC_VALU_SHIFT64 ||
	    c == IC_VALU_MAD64 || c == IC_VALU_F64 || c == IC_VALU_CMPX || c == IC_VINTERP;
}

static int
is_imm(enum inst_class c)
{
	return c == IC_WAITCNT || c == IC_DEPCTR || c == IC_CLAUSE || c == IC_IMM;
}

static int
fits(const struct inst *in, enum sqtt_type type, int op)
{
	enum inst_class c = in->cls;
	const char *name;

	switch (type) {
	case TOK_VALU_INST:
		return is_valu(c);
	case TOK_IMM_ONE:
	case TOK_IMMEDIATE:
		/* v_permlane64_b32 does nothing in wave32 and issues as an immediate there
		 * (20260314_profile_ops_run_0, pc 0x14bc) */
		return is_imm(c) || strcmp(in->mnemonic, "v_permlane64_b32") == 0;
	case TOK_INST:
		break;
	default:
		return 0;
	}
	switch (op) {
	case 0: case 7:		/* salu, salu_no_exec */
		return c == IC_SALU || c == IC_SALU_EXEC;
	case 1:
		return c == IC_SMEM;
	case 2:
		return c == IC_SMEM_STORE;
	case 3: case 4:
		return c == IC_BRANCH;
	case 5:
		return c == IC_JUMP;
	case 6:
		return strncmp(in->text, "s_trap", 6) == 0;
	case 9:
		return c == IC_MESSAGE;
	case 19:
		return c == IC_BARRIER;
	case 114:
		return c == IC_SALU_EXEC || c == IC_SALU;
	case 115: case 116:
		return is_valu(c);
	default:
		break;
	}
	if ((name = sqtt_op_name((unsigned)op)) == NULL)
		return 0;
	if (strncmp(name, "valu", 4) == 0 || strcmp(name, "vinterp") == 0)
		return is_valu(c);
	if (strncmp(name, "sgmem_rd", 8) == 0 || strncmp(name, "flat_rd", 7) == 0 ||
	    strncmp(name, "buf_rd", 6) == 0)
		return c == IC_GLOBAL_LOAD || c == IC_FLAT_LOAD || c == IC_BUF_LOAD;
	if (strncmp(name, "sgmem_wr", 8) == 0 || strncmp(name, "flat_wr", 7) == 0 ||
	    strncmp(name, "buf_wr", 6) == 0)
		return c == IC_GLOBAL_STORE || c == IC_FLAT_STORE || c == IC_BUF_STORE ||
		    c == IC_GLOBAL_LOAD || c == IC_FLAT_LOAD;	/* atomics */
	if (strncmp(name, "lds_", 4) == 0)
		return c == IC_LDS_LOAD || c == IC_LDS_STORE;
	if (strncmp(name, "img_", 4) == 0)
		return c == IC_IMAGE;
	return 0;
}

/* Never traced: stepped over wherever the wave's pc meets them. */
static int
untraced(const struct inst *in)
{
	return in->cls == IC_DELAY_ALU;
}

static void
debug_token(const struct wave *w, unsigned slot, const char *token, uint64_t time, uint64_t pc,
    const struct inst *in, int ok)
{
	if (opt_dbg_wave < 0 || (long)w->number != opt_dbg_wave || w->rows >= opt_dbg_n)
		return;
	fprintf(stderr, "%s: packets: event %ld wave %u slot %u time %" PRIu64 " %-21s pc 0x%" PRIx64
	    " %s%s\n", getprogname(), ev.event, w->number, slot, time, token, pc,
	    ok ? "" : "MISS ", in ? in->text : "??");
}

/* The instruction a token of the wave issued: the one at its pc, past instructions that
 * emit nothing (s_delay_alu always, s_clause when the token is not its own). */
static const struct inst *
place(uint64_t *pc, enum sqtt_type type, int op)
{
	const struct inst *in;
	unsigned k;

	for (k = 0; k <= LOOKAHEAD && (in = codeobj_at(ev.code, *pc)) != NULL; k++) {
		if (fits(in, type, op))
			return in;
		if (!untraced(in) && in->cls != IC_CLAUSE)
			return NULL;
		*pc += in->size;
	}
	return NULL;
}

/* After a misfit: the first instruction the token fits on the fall-through path, not
 * past the end of the block; NULL if there is none (the token is then dropped). */
static const struct inst *
resync(uint64_t *pc, enum sqtt_type type, int op)
{
	const struct inst *in;
	unsigned k;

	for (k = 0; k < LOOKAHEAD && (in = codeobj_at(ev.code, *pc)) != NULL; k++) {
		if (fits(in, type, op))
			return in;
		if (in->cls == IC_ENDPGM || in->cls == IC_BRANCH || in->cls == IC_JUMP)
			return NULL;
		*pc += in->size;
	}
	return NULL;
}

/* "INST:op" for the token column, made once per op: it is on every row's path. */
static const char *
inst_label(int op)
{
	static char label[128][32];
	const char *name;

	op &= 127;
	if (label[op][0] == '\0') {
		if ((name = sqtt_op_name((unsigned)op)) != NULL)
			snprintf(label[op], sizeof(label[op]), "INST:%s", name);
		else
			snprintf(label[op], sizeof(label[op]), "INST:0x%02x", op);
	}
	return label[op];
}

/* One issue of an instruction token by the wave in slot. */
static void
issue(unsigned slot, enum sqtt_type type, int op, uint64_t time)
{
	struct wave *w = &ev.slot[slot];
	const struct inst *in;
	const char *token;
	uint64_t pc;

	if (!w->alive) {
		ev.orphan++;
		return;
	}
	if (ev.code == NULL)
		return;
	token = type == TOK_INST ? inst_label(op) : sqtt_types[type].name;
	pc = w->pc;
	if ((in = place(&pc, type, op)) == NULL) {
		const struct inst *at = codeobj_at(ev.code, w->pc);
		pc = w->pc;
		in = resync(&pc, type, op);
		warning("event %ld wave %u (slot %u): %s at time %" PRIu64 " does not fit "
		    "pc 0x%" PRIx64 " (%s)%s", ev.event, w->number, slot, token, time, w->pc,
		    at ? at->text : "no instruction there",
		    in ? "; resynchronised further on" : "; token dropped");
		debug_token(w, slot, token, time, w->pc, at, 0);
		if (in == NULL)
			return;
	}
	debug_token(w, slot, token, time, pc, in, 1);
	put_row(w, slot, in, pc, time, token);
	if (in->cls == IC_BRANCH && type == TOK_INST && op == 3)
		w->pc = (uint64_t)in->target;
	else
		w->pc = pc + in->size;
}

/* NEW_PC: where a wave went after a jump (s_setpc, s_swappc...), as an absolute address. */
static void
new_pc(uint64_t raw)
{
	unsigned slot = (unsigned)((raw >> 11) & 31);
	uint64_t addr = ((raw >> 16) & ((1ULL << 46) - 1)) * 4;
	struct wave *w = &ev.slot[slot];

	if (!w->alive || ev.code == NULL)
		return;
	if (addr < ev.base || codeobj_at(ev.code, addr - ev.base) == NULL) {
		warning("event %ld wave %u (slot %u): NEW_PC 0x%" PRIx64 " is no instruction of "
		    "the program (loaded at 0x%" PRIx64 ")", ev.event, w->number, slot, addr, ev.base);
		return;
	}
	w->pc = addr - ev.base;
}

/* Where a new wave starts: the program address the dispatch wrote to COMPUTE_PGM, where
 * the stream has it and it is an instruction of the program; else the kernel descriptor's
 * entry.  A disagreement is said once per program. */
static uint64_t
wave_entry(void)
{
	uint64_t desc = codeobj_entry(ev.code), addr = sqtt_pgm_addr(&ev.pgm), pc;
	struct prog *p = ev.prog;

	if (addr == 0)
		return desc;
	pc = addr - ev.base;
	if (addr < ev.base || codeobj_at(ev.code, pc) == NULL) {
		if (!p->entry_said)
			warning("event %ld: program %s: the dispatch's entry 0x%" PRIx64 " (COMPUTE_PGM)"
			    " is no instruction of the program (loaded at 0x%" PRIx64 "); the kernel "
			    "descriptor's entry 0x%" PRIx64 " is used", ev.event, p->name, addr,
			    ev.base, desc);
		p->entry_said = 1;
		return desc;
	}
	if (pc != desc && !p->entry_said) {
		warning("event %ld: program %s: the dispatch's entry 0x%" PRIx64 " (COMPUTE_PGM) "
		    "is not the kernel descriptor's 0x%" PRIx64 "; the dispatch's is used",
		    ev.event, p->name, pc, desc);
		p->entry_said = 1;
	}
	return pc;
}

static void
wave_start(unsigned slot, uint64_t time)
{
	struct wave *w = &ev.slot[slot];

	if (w->alive)
		warning("event %ld slot %u: WAVE_START while wave %u is still open", ev.event,
		    slot, w->number);
	w->alive = 1;
	w->number = ev.nwaves++;
	w->start = w->last = time;
	w->rows = 0;
	w->pc = ev.code ? wave_entry() : 0;
}

static void
wave_end(unsigned slot, uint64_t time)
{
	struct wave *w = &ev.slot[slot];
	const struct inst *in = NULL;
	uint64_t pc;

	if (!w->alive)
		return;
	pc = w->pc;
	if (ev.code != NULL) {
		/* the wave's s_endpgm, past instructions that never emit a token */
		while ((in = codeobj_at(ev.code, pc)) != NULL && w->rows > 0 && untraced(in))
			pc += in->size;
		in = codeobj_at(ev.code, pc);
		if (w->rows > 0 && in != NULL && in->cls != IC_ENDPGM)
			warning("event %ld wave %u (slot %u): WAVE_END at pc 0x%" PRIx64 " (%s), "
			    "not an s_endpgm", ev.event, w->number, slot, pc, in->text);
		if (w->rows == 0 && (in == NULL || in->cls != IC_ENDPGM)) {
			/* no instruction tokens (a shader engine without instruction tracing):
			 * its lifetime is known, not where it went */
			static const struct inst untraced_wave = { .text = "(wave not instruction-traced)",
			    .cls = IC_UNTRACED };
			put_row(w, slot, &untraced_wave, pc, time, "WAVE_END");
		} else {
			put_row(w, slot, in, pc, time, "WAVE_END");
		}
	}
	w->alive = 0;
}

static void
end_event(void)
{
	unsigned slot;

	for (slot = 0; ev.event >= 0 && slot < NSLOT; slot++)
		if (ev.slot[slot].alive && ev.code != NULL)
			warning("event %ld wave %u (slot %u): no WAVE_END before the end of the "
			    "buffer; its %u rows are written, its end is unknown", ev.event,
			    ev.slot[slot].number, slot, ev.slot[slot].rows);
	if (ev.event >= 0 && ev.orphan)
		warning("event %ld: %" PRIu64 " instruction tokens for slots with no open wave "
		    "(waves that started before the trace)", ev.event, ev.orphan);
	ev.event = -1;
}

static void
begin_event(long event, int se)
{
	const struct evinfo *info = NULL;
	size_t i;
	int n;

	end_event();
	memset(&ev, 0, sizeof(ev));
	ev.event = event;
	ev.se = se;
	ev.kernel = "-";
	for (i = nevs; i-- > 0;)
		if (evs[i].event == event) {
			info = &evs[i];
			ev.kernel = info->kernel;
			break;
		}
	if (opt_code != NULL) {
		static struct prog cmdline;
		if (cmdline.name == NULL) {
			cmdline.name = xstrdup(opt_kernel ? opt_kernel : "-");
			cmdline.source = xstrdup(opt_code);
			cmdline.file = xstrdup(opt_code);
			cmdline.tag = xstrdup("-");
			cmdline.base = opt_base;
		}
		if (info == NULL)
			ev.kernel = cmdline.name;
		ev.prog = &cmdline;
	} else if (info != NULL && info->prog >= 0) {
		ev.prog = &progs[info->prog];
	}
	if (ev.prog != NULL) {
		ev.code = prog_code(ev.prog);
		ev.base = ev.prog->base;
	}
	if (se < 0)
		n = snprintf(ev.prefix, sizeof(ev.prefix), "%ld\t-\t%.120s\t", event, ev.kernel);
	else
		n = snprintf(ev.prefix, sizeof(ev.prefix), "%ld\t%d\t%.120s\t", event, se,
		    ev.kernel);
	ev.prefix_len = n < 0 ? 0 : (size_t)n;
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
	ev.event = -1;
	tsv_open(&t, in, path);
	while ((k = tsv_next(&t)) != TSV_EOF) {
		long event;
		enum sqtt_type type;
		unsigned slot;
		uint64_t time;

		if (k == TSV_META) {
			take_meta(&t);
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
		event = (long)tsv_u64(&t, c.event);
		if (event != ev.event)
			begin_event(event, (int)tsv_u64(&t, c.se));
		type = sqtt_type_by_name(t.field[c.type]);
		time = tsv_u64(&t, c.time);
		switch (type) {
		case TOK_HEADER:
			ev.have_header = 1;
			ev.simd = (unsigned)tsv_u64(&t, c.simd);
			ev.wgp = (unsigned)tsv_u64(&t, c.wgp);
			ev.sa = (unsigned)tsv_u64(&t, c.sa);
			break;
		case TOK_WAVE_START:
		case TOK_WAVE_END:
			if ((unsigned)tsv_u64(&t, c.simd) != ev.simd ||
			    (unsigned)tsv_u64(&t, c.wgp) != ev.wgp ||
			    (unsigned)tsv_u64(&t, c.sa) != ev.sa || !ev.have_header)
				break;
			slot = (unsigned)tsv_u64(&t, c.wave) % NSLOT;
			if (type == TOK_WAVE_START)
				wave_start(slot, time);
			else
				wave_end(slot, time);
			break;
		case TOK_INST: {
			const char *opn = t.field[c.op];
			int op = sqtt_op_code(opn);
			if (op < 0)
				tsv_fail(&t, "unknown INST op '%s'", opn);
			if ((op >= 80 && op <= 101) || op == 119)
				break;	/* *_other_simd_*: another SIMD's memory issue, no wave of ours */
			issue((unsigned)tsv_u64(&t, c.wave) % NSLOT, type, op, time);
			break;
		}
		case TOK_VALU_INST:
		case TOK_IMM_ONE:
			issue((unsigned)tsv_u64(&t, c.wave) % NSLOT, type, -1, time);
			break;
		case TOK_IMMEDIATE: {
			uint64_t mask = (tsv_u64(&t, c.raw) >> 8) & 0xffff;
			for (slot = 0; slot < 16; slot++)
				if (mask & (1u << slot))
					issue(slot, type, -1, time);
			break;
		}
		case TOK_NEW_PC:
			new_pc(tsv_u64(&t, c.raw));
			break;
		case TOK_REG:
			sqtt_pgm_feed(&ev.pgm, tsv_u64(&t, c.raw));
			break;
		case TOK_NTYPES:
			tsv_fail(&t, "unknown token type '%s'", t.field[c.type]);
		default:
			break;
		}
	}
	end_event();
	out_flush();
	if (t.ncol == 0)
		errx(2, "%s: no '#' column header: not a packet stream", path);
	if (!header_out)
		printf("#event\tse\tkernel\twave\tslot\tpc\ttime\tdelta\ttoken\tinst\tclass\tdep\n");
	tsv_close(&t);
	if (fflush(stdout) != 0 || ferror(stdout))
		err(2, "stdout");
	if (nwarn)
		warnx("%" PRIu64 " warnings", nwarn);
	return failed_programs || (opt_strict && nwarn) ? 2 : 0;
}
