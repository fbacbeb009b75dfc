/* stall-budget: a profile held to a budget: one rule a line, each an upper or lower
 * bound on the cycles of a kernel, an instruction or a cause; exit 1 naming every rule
 * the profile breaks (stall-budget(1)). */
#include <err.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <regex.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cause.h"
#include "load.h"
#include "profile.h"
#include "util.h"

enum select { SEL_KERNEL, SEL_PC, SEL_INST };
enum op { OP_LE, OP_LT, OP_GE, OP_GT };
enum limit { LIM_CYCLES, LIM_PCT, LIM_BASELINE };
static const char *const op_text[] = { "<=", "<", ">=", ">" };

struct baseline {
	char *path;
	struct profile prof;
	struct baseline *next;
};

struct rule {
	const char *file;
	unsigned long line;
	char *text;		/* as written, without its comment */
	char *kernel;		/* NULL: every kernel ("*") */
	enum select sel;
	char *pc;
	uint64_t pcv;		/* UINT64_MAX when pc is not a number */
	char *pattern;
	regex_t re;
	int cause;		/* -1: all cycles */
	enum op op;
	double limit;
	enum limit kind;
	struct baseline *base;
};

/* One rule measured on one kernel. */
struct verdict {
	const struct rule *rule;
	const char *kernel;
	double measured, limit;
	int broken;
};

static struct rule *rules;
static size_t nrule;
static struct verdict *verdicts;
static size_t nverdict;
static struct baseline *baselines;
static struct profile prof;
static const char *input_name;

static const struct cli cli = {
	.synopsis = {
		"[-h] [--strict] rules [input]",
		"[-h] [--strict] -w baseline [input]",
		NULL
	},
	.options = "strict write-baseline/w",
	.help =
	    "Hold a profile to a budget: one rule a line, e.g.\n"
	    "  r_2_8_16_4_4_16_4 cycles <= 40000\n"
	    "  * cause mem <= 70%\n"
	    "  K pc 0x183c cycles <= 30000\n"
	    "  K inst /^s_waitcnt/ cycles <= 30000\n"
	    "  K cycles <= 105% of baseline.json\n"
	    "One line per rule and kernel (ok or broken, the figure, the limit);\n"
	    "exit 1 naming every broken rule, 2 on trouble.  input is a row\n"
	    "stream, a stall table (TSV or JSON) or a capture; - or none is\n"
	    "standard input.\n"
	    "\n"
	    "  -w, --write-baseline FILE  write the profile of input to FILE as\n"
	    "                             stall-table --json does, for '% of' rules\n"
	    "      --strict               an unknown cause is an error\n"
	    "  -h, --help                 this text\n"
	    "      --version              the version\n"
	    "See stall-budget(1).\n",
};

static void __attribute__((noreturn)) __attribute__((format(printf, 2, 3)))
rule_fail(const struct rule *r, const char *fmt, ...)
{
	va_list ap;
	char msg[512];

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fflush(stdout);
	errx(2, "%s:%lu: %s", r->file, r->line, msg);
}

/* Reading the rules ------------------------------------------------------------------- */

/* The next word of s at *pos: a /pattern/ whole (with \/ inside it), else up to white
 * space; NULL at the end or at a '#' comment. */
static char *
word(const struct rule *r, char *s, size_t *pos)
{
	size_t i = *pos, start;

	while (s[i] == ' ' || s[i] == '\t')
		i++;
	if (s[i] == '\0' || s[i] == '#') {
		*pos = i;
		return NULL;
	}
	start = i;
	if (s[i] == '/') {
		for (i++; s[i] != '\0' && s[i] != '/'; i++)
			if (s[i] == '\\' && s[i + 1] != '\0')
				i++;
		if (s[i] != '/')
			rule_fail(r, "the pattern %s is not closed with '/'", s + start);
		i++;
	} else
		while (s[i] != '\0' && s[i] != ' ' && s[i] != '\t')
			i++;
	if (s[i] != '\0')
		s[i++] = '\0';
	*pos = i;
	return s + start;
}

static int
is_op(const char *w)
{
	return strcmp(w, "<=") == 0 || strcmp(w, "<") == 0 || strcmp(w, ">=") == 0 ||
	    strcmp(w, ">") == 0;
}

static struct baseline *
baseline_get(const struct rule *r, const char *name)
{
	struct baseline *b;
	char *path;
	const char *slash = strrchr(r->file, '/');

	/* relative to the rules file, as an #include is */
	if (name[0] == '/' || slash == NULL || strcmp(r->file, "-") == 0)
		path = xstrdup(name);
	else if (asprintf(&path, "%.*s/%s", (int)(slash - r->file), r->file, name) < 0)
		err(2, NULL);
	for (b = baselines; b; b = b->next)
		if (strcmp(b->path, path) == 0) {
			free(path);
			return b;
		}
	b = xcalloc(1, sizeof(*b));
	b->path = path;
	b->next = baselines;
	baselines = b;
	return b;
}

static double
number(const struct rule *r, const char *w, int *pct)
{
	char *end;
	double v = strtod(w, &end);

	if (end == w || !isfinite(v) || v < 0 || w[0] == '+' || w[0] == '-')
		rule_fail(r, "'%s' is not a number of cycles or a percent", w);
	*pct = *end == '%';
	if (*end == '%')
		end++;
	if (*end != '\0')
		rule_fail(r, "'%s' is not a number of cycles or a percent", w);
	return v;
}

/* KERNEL [pc PC | inst /RE/] (cycles | cause NAME) OP LIMIT [% [of BASELINE]] */
static void
parse_rule(struct rule *r, char *s)
{
	size_t pos = 0;
	char *w, *end, cause[128];
	int pct, rc;

	w = word(r, s, &pos);
	r->kernel = strcmp(w, "*") == 0 ? NULL : xstrdup(w);
	if ((w = word(r, s, &pos)) == NULL)
		rule_fail(r, "no figure after the kernel: cycles or cause NAME");
	if (strcmp(w, "pc") == 0) {
		r->sel = SEL_PC;
		if ((w = word(r, s, &pos)) == NULL)
			rule_fail(r, "no address after 'pc'");
		r->pc = xstrdup(w);
		r->pcv = strtoull(w, &end, 0);
		if (end == w || *end != '\0' || *w == '-')
			r->pcv = UINT64_MAX;
		w = word(r, s, &pos);
	} else if (strcmp(w, "inst") == 0) {
		r->sel = SEL_INST;
		if ((w = word(r, s, &pos)) == NULL || w[0] != '/')
			rule_fail(r, "no /pattern/ after 'inst'");
		r->pattern = xstrndup(w + 1, strlen(w) - 2);
		if ((rc = regcomp(&r->re, r->pattern, REG_EXTENDED | REG_NOSUB)) != 0) {
			char msg[256];
			regerror(rc, &r->re, msg, sizeof(msg));
			rule_fail(r, "the pattern /%s/: %s", r->pattern, msg);
		}
		w = word(r, s, &pos);
	}
	if (w == NULL)
		rule_fail(r, "no figure: cycles or cause NAME");
	r->cause = -1;
	if (strcmp(w, "cause") == 0) {
		/* a cause may be words: "wave_start", "valu_dep" */
		cause[0] = '\0';
		while ((w = word(r, s, &pos)) != NULL && !is_op(w)) {
			if (cause[0])
				strlcat(cause, " ", sizeof(cause));
			strlcat(cause, w, sizeof(cause));
		}
		if (cause[0] == '\0')
			rule_fail(r, "no cause after 'cause'");
		if ((r->cause = cause_by_name(cause)) == CAUSE_OTHER &&
		    strcmp(cause, cause_info[CAUSE_OTHER].name) != 0)
			rule_fail(r, "unknown cause '%s'", cause);
	} else if (strcmp(w, "cycles") == 0)
		w = word(r, s, &pos);
	else
		rule_fail(r, "'%s': the figure is cycles or cause NAME", w);
	if (w == NULL || !is_op(w))
		rule_fail(r, "no comparison (<=, <, >=, >) %s%s", w ? "at " : "at the end",
		    w ? w : "");
	r->op = strcmp(w, "<=") == 0 ? OP_LE : strcmp(w, "<") == 0 ? OP_LT :
	    strcmp(w, ">=") == 0 ? OP_GE : OP_GT;
	if ((w = word(r, s, &pos)) == NULL)
		rule_fail(r, "no limit after %s", op_text[r->op]);
	r->limit = number(r, w, &pct);
	r->kind = pct ? LIM_PCT : LIM_CYCLES;
	if ((w = word(r, s, &pos)) != NULL) {
		if (!pct || strcmp(w, "of") != 0)
			rule_fail(r, "'%s' after the limit", w);
		if ((w = word(r, s, &pos)) == NULL)
			rule_fail(r, "no baseline after 'of'");
		r->kind = LIM_BASELINE;
		r->base = baseline_get(r, w);
		if ((w = word(r, s, &pos)) != NULL)
			rule_fail(r, "'%s' after the baseline", w);
	}
	if (r->kind == LIM_PCT && r->sel == SEL_KERNEL && r->cause < 0)
		rule_fail(r, "a kernel's cycles are always 100%% of themselves");
}

static void
read_rules(const char *path)
{
	FILE *fp;
	char *buf = NULL, *s, *hash;
	size_t cap = 0, len, pos;
	ssize_t n;
	unsigned long line = 0;

	if (strcmp(path, "-") == 0)
		fp = stdin;
	else if ((fp = fopen(path, "r")) == NULL)
		err(2, "%s", path);
	while ((n = getline(&buf, &cap, fp)) != -1) {
		struct rule r = { .file = path, .line = ++line };

		if (memchr(buf, '\0', (size_t)n) != NULL)
			rule_fail(&r, "a NUL byte: not a rules file");
		len = (size_t)n;
		while (len > 0 && (buf[len - 1] == '\n' || buf[len - 1] == '\r'))
			buf[--len] = '\0';
		pos = 0;
		s = xstrdup(buf);
		if (word(&r, s, &pos) == NULL) {	/* blank, or a comment */
			free(s);
			continue;
		}
		free(s);
		/* the rule as written, for the report: up to a '#' outside a pattern */
		s = xstrdup(buf);
		for (pos = 0; (hash = strchr(s + pos, '#')) != NULL; pos = (size_t)(hash - s) + 1) {
			size_t i, slashes = 0;
			for (i = 0; s + i < hash; i++)
				if (s[i] == '/' && (i == 0 || s[i - 1] != '\\'))
					slashes++;
			if (slashes % 2 == 0) {
				*hash = '\0';
				break;
			}
		}
		for (len = strlen(s); len > 0 && (s[len - 1] == ' ' || s[len - 1] == '\t');)
			s[--len] = '\0';
		r.text = xstrdup(s + strspn(s, " \t"));
		free(s);
		s = xstrdup(buf);
		parse_rule(&r, s);
		free(s);
		rules = xreallocarray(rules, nrule + 1, sizeof(*rules));
		rules[nrule++] = r;
	}
	if (ferror(fp))
		err(2, "%s", path);
	if (fp != stdin)
		fclose(fp);
	free(buf);
	if (nrule == 0)
		errx(2, "%s: no rules", path);
}

/* Measuring --------------------------------------------------------------------------- */

static int
line_selected(const struct rule *r, const struct profile_line *l)
{
	if (r->sel == SEL_PC)
		return r->pcv != UINT64_MAX ? l->pcv == r->pcv : strcmp(l->pc, r->pc) == 0;
	if (r->sel == SEL_INST)
		return regexec(&r->re, l->inst, 0, NULL, 0) == 0;
	return 1;
}

/* The cycles of what r selects in k, or -1 when it selects no instruction. */
static int64_t
measure(const struct rule *r, const struct profile_kernel *k)
{
	int64_t v = 0;
	size_t i;
	int any = 0;

	if (r->sel == SEL_KERNEL)
		return r->cause < 0 ? k->cycles : k->cyc[r->cause];
	for (i = 0; i < k->nline; i++) {
		const struct profile_line *l = k->lines[i];
		if (!line_selected(r, l))
			continue;
		any = 1;
		v += r->cause < 0 ? l->cycles : l->cyc[r->cause];
	}
	return any ? v : -1;
}

static const char *
selection(const struct rule *r)
{
	static char buf[256];

	if (r->sel == SEL_PC)
		snprintf(buf, sizeof(buf), "no instruction at pc %s", r->pc);
	else
		snprintf(buf, sizeof(buf), "no instruction matches /%s/", r->pattern);
	return buf;
}

static const char *
kernel_list(const struct profile *p)
{
	static char buf[256];
	size_t i;

	buf[0] = '\0';
	for (i = 0; i < p->nkernel; i++) {
		if (i)
			strlcat(buf, ", ", sizeof(buf));
		strlcat(buf, p->kernels[i].name, sizeof(buf));
	}
	return buf;
}

static void
judge(const struct rule *r, const struct profile_kernel *k)
{
	struct verdict v = { r, k->name, 0, r->limit, 0 };
	int64_t cycles = measure(r, k);

	if (k->hits == 0)
		rule_fail(r, "kernel %s has no instruction-traced row in %s", k->name, input_name);
	if (k->cut && r->sel != SEL_KERNEL && (cycles < 0 || r->sel == SEL_INST))
		rule_fail(r, "kernel %s: %s was cut by --top: not every instruction is in it",
		    k->name, input_name);
	if (cycles < 0)
		rule_fail(r, "kernel %s: %s in %s", k->name, selection(r), input_name);
	v.measured = (double)cycles;
	if (r->kind == LIM_PCT)
		v.measured = profile_pct(cycles, k->cycles);
	else if (r->kind == LIM_BASELINE) {
		/* two captures rarely trace as many waves: a wave against a wave */
		const struct profile *bp = &r->base->prof;
		long bi = profile_find(bp, k->name);
		int64_t base;

		if (bi < 0)
			rule_fail(r, "no kernel %s in the baseline %s", k->name, r->base->path);
		if (bp->kernels[bi].waves == 0 || k->waves == 0)
			rule_fail(r, "kernel %s has no instruction-traced wave in %s", k->name,
			    k->waves == 0 ? input_name : r->base->path);
		if ((base = measure(r, &bp->kernels[bi])) < 0)
			rule_fail(r, "kernel %s: %s in the baseline %s", k->name, selection(r),
			    r->base->path);
		v.measured = (double)cycles / (double)k->waves;
		v.limit = r->limit / 100.0 * (double)base / (double)bp->kernels[bi].waves;
	}
	switch (r->op) {
	case OP_LE: v.broken = !(v.measured <= v.limit); break;
	case OP_LT: v.broken = !(v.measured < v.limit); break;
	case OP_GE: v.broken = !(v.measured >= v.limit); break;
	case OP_GT: v.broken = !(v.measured > v.limit); break;
	}
	verdicts = xreallocarray(verdicts, nverdict + 1, sizeof(*verdicts));
	verdicts[nverdict++] = v;
}

static void
judge_all(void)
{
	size_t i, j, n;
	long ki;

	for (i = 0; i < nrule; i++) {
		const struct rule *r = &rules[i];
		if (r->kernel != NULL) {
			if ((ki = profile_find(&prof, r->kernel)) < 0)
				rule_fail(r, "no kernel %s in %s (it has %s)", r->kernel, input_name,
				    kernel_list(&prof));
			judge(r, &prof.kernels[ki]);
			continue;
		}
		for (j = 0, n = 0; j < prof.nkernel; j++)
			if (prof.kernels[j].hits > 0) {
				judge(r, &prof.kernels[j]);
				n++;
			}
		if (n == 0)
			rule_fail(r, "no kernel of %s has an instruction-traced row", input_name);
	}
}

/* Output ------------------------------------------------------------------------------ */

/* Whole cycles as integers; percents and cycles a wave with two decimals. */
static const char *
figure(char *buf, size_t len, const struct rule *r, double v, int is_limit)
{
	if (r->kind == LIM_PCT)
		snprintf(buf, len, "%.2f%%", v);
	else if (r->kind == LIM_BASELINE)
		snprintf(buf, len, "%.2f", v);
	else if (is_limit && v != floor(v))
		snprintf(buf, len, "%.2f", v);
	else
		snprintf(buf, len, "%.0f", v);
	return buf;
}

static int
report(void)
{
	size_t i;
	int broken = 0;
	char m[64], l[64];

	printf("#verdict\trule\tkernel\tmeasured\top\tlimit\ttext\n");
	for (i = 0; i < nverdict; i++) {
		const struct verdict *v = &verdicts[i];
		printf("%s\t%s:%lu\t%s\t%s\t%s\t%s\t%s\n", v->broken ? "broken" : "ok",
		    v->rule->file, v->rule->line, v->kernel,
		    figure(m, sizeof(m), v->rule, v->measured, 0), op_text[v->rule->op],
		    figure(l, sizeof(l), v->rule, v->limit, 1), v->rule->text);
	}
	if (fflush(stdout) != 0 || ferror(stdout))
		err(2, "stdout");
	for (i = 0; i < nverdict; i++) {
		const struct verdict *v = &verdicts[i];
		if (!v->broken)
			continue;
		broken = 1;
		warnx("%s:%lu: broken: %s: kernel %s: %s%s is not %s %s", v->rule->file,
		    v->rule->line, v->rule->text, v->kernel,
		    figure(m, sizeof(m), v->rule, v->measured, 0),
		    v->rule->kind == LIM_BASELINE ? " cycles a wave" : "",
		    op_text[v->rule->op], figure(l, sizeof(l), v->rule, v->limit, 1));
	}
	return broken;
}

static void
write_baseline(const char *path)
{
	FILE *fp;
	size_t i, n = 0;

	for (i = 0; i < prof.nkernel; i++) {
		struct profile_kernel *k = &prof.kernels[i];
		qsort(k->lines, k->nline, sizeof(*k->lines), profile_cmp_cycles);
		n += k->hits > 0;
	}
	if (n == 0)
		errx(2, "%s: no kernel has an instruction-traced row: no baseline", input_name);
	qsort(prof.kernels, prof.nkernel, sizeof(*prof.kernels), profile_cmp_kernel);
	if ((fp = fopen(path, "w")) == NULL)
		err(2, "%s", path);
	profile_put_json(&prof, fp);
	if (fflush(fp) != 0 || ferror(fp) || fclose(fp) != 0)
		err(2, "%s", path);
}

int
main(int argc, char *argv[])
{
	const char *out_baseline = NULL, *input = "-";
	struct baseline *b;
	int ch, flags = PROFILE_TABLES;

	while ((ch = cli_getopt(argc, argv, &cli)) != -1) {
		switch (ch) {
		case 'w':
			out_baseline = optarg;
			break;
		default:
			cli_usage(&cli);
		}
	}
	cli_operands(&cli, &argc, &argv, out_baseline ? 0 : 1, out_baseline ? 1 : 2);
	if (cli_strict)
		flags |= PROFILE_STRICT;
	if (out_baseline != NULL) {
		if (argc == 1)
			input = argv[0];
	} else {
		if (argc == 2)
			input = argv[1];
		if (strcmp(argv[0], "-") == 0 && strcmp(input, "-") == 0)
			errx(2, "the rules and the input are both standard input");
		read_rules(argv[0]);
	}
	input_name = strcmp(input, "-") == 0 ? "stdin" : input;
	profile_init(&prof, flags);
	load_profile(&prof, input);
	if (out_baseline != NULL) {
		write_baseline(out_baseline);
		return 0;
	}
	for (b = baselines; b; b = b->next) {
		profile_init(&b->prof, flags);
		load_profile(&b->prof, b->path);
	}
	judge_all();
	return report() ? 1 : 0;
}
