/* budget: the rule language and its verdicts (budget.h). */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "budget.h"
#include "cause.h"
#include "meta.h"
#include "util.h"

const char *const budget_op_text[] = { "<=", "<", ">=", ">" };

static int __attribute__((format(printf, 3, 4)))
rule_fail(struct budget *b, const struct budget_rule *r, const char *fmt, ...)
{
	va_list ap;
	char msg[512];

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(b->error, sizeof(b->error), "%s:%lu: %s", r->file, r->line, msg);
	return -1;
}

static void
rule_free(struct budget_rule *r)
{
	free(r->text);
	free(r->kernel);
	free(r->pc);
	free(r->pattern);
	if (r->has_re)
		regfree(&r->re);
}

/* Reading the rules ------------------------------------------------------------------- */

/* The next word of s at *pos: a /pattern/ whole (with \/ inside it), else up to white
 * space; NULL at the end or at a '#' comment, and NULL with *bad set for a pattern not
 * closed. */
static char *
word(char *s, size_t *pos, int *bad)
{
	size_t i = *pos, start;

	*bad = 0;
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
		if (s[i] != '/') {
			*pos = start;
			*bad = 1;
			return NULL;
		}
		i++;
		/* "/etc/passwd" is a word that starts with a slash, not a pattern */
		if (s[i] != '\0' && s[i] != ' ' && s[i] != '\t')
			for (i = start; s[i] != '\0' && s[i] != ' ' && s[i] != '\t'; i++)
				;
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

static int
is_number(const char *w)
{
	char *end;

	strtod(w, &end);
	return end != w && (*end == '\0' || (*end == '%' && end[1] == '\0'));
}

static struct budget_baseline *
baseline_get(struct budget *b, const struct budget_rule *r, const char *name)
{
	struct budget_baseline *base;
	char *path;
	const char *slash = strrchr(r->file, '/');

	/* relative to the rules file, as an #include is */
	if (name[0] == '/' || slash == NULL || strcmp(r->file, "-") == 0)
		path = xstrdup(name);
	else if (asprintf(&path, "%.*s/%s", (int)(slash - r->file), r->file, name) < 0)
		return NULL;
	for (base = b->baselines; base; base = base->next)
		if (strcmp(base->path, path) == 0) {
			free(path);
			return base;
		}
	base = xcalloc(1, sizeof(*base));
	base->name = xstrdup(name);
	base->file = r->file;
	base->line = r->line;
	base->path = path;
	base->dir = slash == NULL || strcmp(r->file, "-") == 0 ? xstrdup(".") :
	    xstrndup(r->file, (size_t)(slash - r->file));
	base->next = b->baselines;
	b->baselines = base;
	return base;
}

int
budget_check_pattern(const char *re, char *why, size_t len)
{
	/* per open group: whether an interval is inside it; per level (0 the whole, then
	 * each open group) the atoms it holds once its repetitions are written out, as
	 * regcomp writes them, and those of its last atom, the operand of a repetition */
	int inner[64], depth = 0, last_group_inner = 0, prev_group = 0, prev_rep = 0;
	double total[65], last[65], stars[65], lstars[65];
	size_t i;

	total[0] = last[0] = stars[0] = lstars[0] = 0;
	for (i = 0; re[i] != '\0'; i++) {
		char c = re[i];
		int was_group = prev_group, was_rep = prev_rep;

		prev_group = prev_rep = 0;
		/* a repetition of a repetition (s+*): POSIX leaves it undefined, and glibc's
		 * matcher takes time exponential in how many are stacked */
		if ((c == '*' || c == '+' || c == '?') && was_rep) {
			snprintf(why, len, "a repetition of a repetition (%c after %c)", c, re[i - 1]);
			return -1;
		}
		if (c == '*' || c == '+' || c == '?')
			prev_rep = 1;
		if (c != '(' && c != ')' && c != '|' && c != '*' && c != '+' && c != '?' &&
		    c != '{') {
			last[depth] = 1;	/* an atom: a character, an escape, a bracket */
			total[depth] += 1;
			lstars[depth] = 0;
		}
		if (c == '*' || c == '?') {
			total[depth] += 1;
			stars[depth] += 1;
			lstars[depth] += 1;
		} else if (c == '+') {	/* a+ is aa*: its operand twice */
			total[depth] += last[depth];
			last[depth] *= 2;
			stars[depth] += lstars[depth] + 1;
			lstars[depth] = 2 * lstars[depth] + 1;
		} else if (c == '|')
			last[depth] = lstars[depth] = 0;
		if (total[depth] > BUDGET_PATTERN_MAX) {
			snprintf(why, len, "more than %d atoms once its repetitions are written out",
			    BUDGET_PATTERN_MAX);
			return -1;
		}
		if (c == '\\') {
			if (re[i + 1] >= '1' && re[i + 1] <= '9') {
				snprintf(why, len, "a back-reference (\\%c) is not taken", re[i + 1]);
				return -1;
			}
			if (re[i + 1] != '\0')
				i++;
		} else if (c == '[') {
			/* a bracket expression: ']' first is a member; [:class:] whole */
			i++;
			if (re[i] == '^')
				i++;
			if (re[i] == ']')
				i++;
			for (; re[i] != '\0' && re[i] != ']'; i++)
				if (re[i] == '[' && (re[i + 1] == ':' || re[i + 1] == '.' ||
				    re[i + 1] == '=')) {
					char end = re[i + 1];
					for (i += 2; re[i] != '\0' && !(re[i] == end && re[i + 1] == ']'); i++)
						;
					if (re[i] == '\0')
						break;
					i++;
				}
			if (re[i] == '\0')
				break;	/* regcomp says what is wrong */
		} else if (c == '(') {
			if (depth == (int)(sizeof(inner) / sizeof(inner[0]))) {
				snprintf(why, len, "groups nested more than %d deep",
				    (int)(sizeof(inner) / sizeof(inner[0])));
				return -1;
			}
			inner[depth++] = 0;
			total[depth] = last[depth] = stars[depth] = lstars[depth] = 0;
		} else if (c == ')' && depth > 0) {
			double w = total[depth], ws = stars[depth];
			last_group_inner = inner[--depth];
			total[depth] += w;
			last[depth] = w;
			stars[depth] += ws;
			lstars[depth] = ws;
			if (depth > 0 && last_group_inner)
				inner[depth - 1] = 1;
			prev_group = 1;
		} else if (c == '{') {
			char *end;
			unsigned long m, n;

			errno = 0;
			if (re[i + 1] == ',')	/* {,n}: glibc's {0,n} */
				m = 0, end = (char *)re + i + 1;
			else if ((m = strtoul(re + i + 1, &end, 10)), end == re + i + 1)
				continue;	/* no interval; regcomp decides */
			n = m;
			if (*end == ',') {
				n = isdigit((unsigned char)end[1]) ? strtoul(end + 1, &end, 10) :
				    (end++, ULONG_MAX);
			}
			if (*end != '}')
				continue;
			if (was_rep) {
				snprintf(why, len, "a repetition of a repetition ({%.*s} after %c)",
				    (int)(end - re - i - 1), re + i + 1, re[i - 1]);
				return -1;
			}
			if (m > BUDGET_REPEAT_MAX || (n != ULONG_MAX && n > BUDGET_REPEAT_MAX) ||
			    errno == ERANGE) {
				snprintf(why, len, "a repetition {%.*s} past %d", (int)(end - re - i - 1),
				    re + i + 1, BUDGET_REPEAT_MAX);
				return -1;
			}
			if (was_group && last_group_inner) {
				snprintf(why, len, "a repetition {%.*s} of a group that holds one",
				    (int)(end - re - i - 1), re + i + 1);
				return -1;
			}
			if (depth > 0)
				inner[depth - 1] = 1;
			/* the operand n times (m + 1 when unbounded) */
			{
				double f = n == ULONG_MAX ? (double)m + 1 : n > 0 ? (double)n : 1;
				total[depth] += last[depth] * (f - 1);
				last[depth] *= f;
				stars[depth] += lstars[depth] * (f - 1) + (n != m);
				lstars[depth] = lstars[depth] * f + (n != m);
			}
			if (total[depth] > BUDGET_PATTERN_MAX) {
				snprintf(why, len, "more than %d atoms once its repetitions are "
				    "written out", BUDGET_PATTERN_MAX);
				return -1;
			}
			i = (size_t)(end - re);
			prev_rep = 1;
		}
	}
	/* regcomp's memory grows with the square of the repetitions (8192 of .* took 530 MB) */
	if (stars[0] > BUDGET_PATTERN_REPS) {
		snprintf(why, len, "more than %d repetitions once they are written out",
		    BUDGET_PATTERN_REPS);
		return -1;
	}
	return (int)stars[0];
}

/* The next word into w; a pattern not closed is trouble. */
#define NEXT(w) do {							\
	int bad_;							\
	(w) = word(s, &pos, &bad_);					\
	if (bad_)							\
		return rule_fail(b, r, "the pattern %s is not closed with '/'", s + pos); \
} while (0)

/* KERNEL [pc PC | inst /RE/] (cycles | cause NAME) OP LIMIT [% [of BASELINE]] */
static int
parse_rule(struct budget *b, struct budget_rule *r, char *s)
{
	size_t pos = 0;
	char *w, *end, cause[128];
	const char *kernel;
	int pct, rc;

	NEXT(w);
	kernel = w;
	r->kernel = strcmp(w, "*") == 0 ? NULL : xstrdup(w);
	NEXT(w);
	if (w == NULL)
		return rule_fail(b, r, "no figure after the kernel: write '%s cycles <= N' "
		    "or '%s cause NAME <= N'", kernel, kernel);
	if (w != NULL && strcmp(w, "pc") == 0) {
		r->sel = BUDGET_PC;
		NEXT(w);
		if (w == NULL)
			return rule_fail(b, r, "no address after 'pc'");
		r->pc = xstrdup(w);
		r->pcv = strtoull(w, &end, 0);
		if (end == w || *end != '\0' || *w == '-')
			r->pcv = UINT64_MAX;
		NEXT(w);
	} else if (w != NULL && strcmp(w, "inst") == 0) {
		char why[256];

		r->sel = BUDGET_INST;
		NEXT(w);
		if (w == NULL || w[0] != '/' || strlen(w) < 2 || w[strlen(w) - 1] != '/')
			return rule_fail(b, r, "no /pattern/ after 'inst'");
		r->pattern = xstrndup(w + 1, strlen(w) - 2);
		if ((rc = budget_check_pattern(r->pattern, why, sizeof(why))) < 0)
			return rule_fail(b, r, "the pattern /%s/: %s", r->pattern, why);
		if ((b->pattern_reps += rc) > BUDGET_FILE_REPS)
			return rule_fail(b, r, "the patterns of the rules hold more than %d "
			    "repetitions once they are written out", BUDGET_FILE_REPS);
		if ((rc = regcomp(&r->re, r->pattern, REG_EXTENDED | REG_NOSUB)) != 0) {
			regerror(rc, &r->re, why, sizeof(why));
			return rule_fail(b, r, "the pattern /%s/: %s", r->pattern, why);
		}
		r->has_re = 1;
		NEXT(w);
	}
	if (w == NULL)
		return rule_fail(b, r, "no figure: write 'cycles' or 'cause NAME' before the "
		    "comparison");
	r->cause = -1;
	if (strcmp(w, "cause") == 0) {
		/* a cause may be words: "wave_start", "valu_dep" */
		cause[0] = '\0';
		for (;;) {
			NEXT(w);
			if (w == NULL || is_op(w))
				break;
			if (cause[0])
				strlcat(cause, " ", sizeof(cause));
			strlcat(cause, w, sizeof(cause));
		}
		if (cause[0] == '\0')
			return rule_fail(b, r, "no cause after 'cause'");
		if ((r->cause = cause_by_name(cause)) == CAUSE_OTHER &&
		    strcmp(cause, cause_info[CAUSE_OTHER].name) != 0)
			return rule_fail(b, r, "unknown cause '%s'", cause);
	} else if (strcmp(w, "cycles") == 0)
		NEXT(w);
	else if (is_number(w))
		return rule_fail(b, r, "'%s' is a limit where the figure goes: write '%s cycles "
		    "<= %s' (cycles a wave) or '%s cause NAME <= %s'", w, kernel, w, kernel, w);
	else if (is_op(w))
		return rule_fail(b, r, "no figure before '%s': write '%s cycles %s N' (cycles a "
		    "wave) or '%s cause NAME %s N'", w, kernel, w, kernel, w);
	else
		return rule_fail(b, r, "'%s': the figure is 'cycles' or 'cause NAME', as in "
		    "'%s cycles <= N'", w, kernel);
	if (w == NULL || !is_op(w))
		return rule_fail(b, r, "no comparison (<=, <, >=, >) %s%s", w ? "at " : "at the end",
		    w ? w : "");
	r->op = strcmp(w, "<=") == 0 ? BUDGET_LE : strcmp(w, "<") == 0 ? BUDGET_LT :
	    strcmp(w, ">=") == 0 ? BUDGET_GE : BUDGET_GT;
	NEXT(w);
	if (w == NULL)
		return rule_fail(b, r, "no limit after %s", budget_op_text[r->op]);
	r->limit = strtod(w, &end);
	if (end == w || !isfinite(r->limit) || r->limit < 0 || w[0] == '+' || w[0] == '-' ||
	    (*end != '\0' && !(*end == '%' && end[1] == '\0')))
		return rule_fail(b, r, "'%s' is not a number of cycles or a percent", w);
	pct = *end == '%';
	r->kind = pct ? BUDGET_PCT : BUDGET_CYCLES;
	NEXT(w);
	if (w != NULL) {
		if (!pct || strcmp(w, "of") != 0)
			return rule_fail(b, r, "'%s' after the limit", w);
		NEXT(w);
		if (w == NULL)
			return rule_fail(b, r, "no baseline after 'of'");
		r->kind = BUDGET_BASELINE;
		if ((r->base = baseline_get(b, r, w)) == NULL)
			return rule_fail(b, r, "out of memory");
		NEXT(w);
		if (w != NULL)
			return rule_fail(b, r, "'%s' after the baseline", w);
	}
	if (r->kind == BUDGET_PCT && r->sel == BUDGET_KERNEL && r->cause < 0)
		return rule_fail(b, r, "a kernel's cycles are always 100%% of themselves");
	return 0;
}

int
budget_line(struct budget *b, const char *file, unsigned long line, const char *text)
{
	struct budget_rule r = { .file = file, .line = line };
	size_t pos, len, i, slashes;
	char *s;
	int bad;

	s = xstrdup(text);
	pos = 0;
	if (word(s, &pos, &bad) == NULL && !bad) {	/* blank, or a comment */
		free(s);
		return 0;
	}
	free(s);
	/* the rule as written, for the report: up to a '#' outside a pattern (after an
	 * even number of slashes not escaped) */
	s = xstrdup(text);
	for (i = 0, slashes = 0; s[i] != '\0'; i++) {
		if (s[i] == '/' && (i == 0 || s[i - 1] != '\\'))
			slashes++;
		else if (s[i] == '#' && slashes % 2 == 0) {
			s[i] = '\0';
			break;
		}
	}
	for (len = strlen(s); len > 0 && (s[len - 1] == ' ' || s[len - 1] == '\t');)
		s[--len] = '\0';
	r.text = xstrdup(s + strspn(s, " \t"));
	free(s);
	s = xstrdup(text);
	if (parse_rule(b, &r, s) < 0) {
		free(s);
		rule_free(&r);
		return -1;
	}
	free(s);
	b->rules = xreallocarray(b->rules, b->nrule + 1, sizeof(*b->rules));
	b->rules[b->nrule++] = r;
	return 0;
}

int
budget_read(struct budget *b, const char *path, FILE *fp)
{
	char *buf = NULL;
	size_t cap = 0, len;
	ssize_t n;
	unsigned long line = 0;
	int rc = 0;

	while ((n = getline(&buf, &cap, fp)) != -1) {
		struct budget_rule at = { .file = path, .line = ++line };

		if (line > BUDGET_RULES_MAX) {
			rc = rule_fail(b, &at, "more than %d lines: not a rules file",
			    BUDGET_RULES_MAX);
			break;
		}
		if (memchr(buf, '\0', (size_t)n) != NULL) {
			rc = rule_fail(b, &at, "a NUL byte: not a rules file");
			break;
		}
		len = (size_t)n;
		while (len > 0 && (buf[len - 1] == '\n' || buf[len - 1] == '\r'))
			buf[--len] = '\0';
		if (len > BUDGET_LINE_MAX) {
			rc = rule_fail(b, &at, "a line of more than %d bytes: not a rules file",
			    BUDGET_LINE_MAX);
			break;
		}
		if ((rc = budget_line(b, path, line, buf)) < 0)
			break;
	}
	if (rc == 0 && ferror(fp)) {
		snprintf(b->error, sizeof(b->error), "%s: %s", path, strerror(errno));
		rc = -1;
	}
	free(buf);
	if (rc == 0 && b->nrule == 0) {
		snprintf(b->error, sizeof(b->error), "%s: no rules", path);
		rc = -1;
	}
	return rc;
}

int
budget_check_baseline(struct budget *b, const struct budget_baseline *base)
{
	struct stat st;

	if (stat(base->path, &st) != 0) {
		snprintf(b->error, sizeof(b->error), "%s:%lu: the baseline %s: %s", base->file,
		    base->line, base->path, strerror(errno));
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(b->error, sizeof(b->error), "%s:%lu: the baseline %s is %s, not a "
		    "regular file", base->file, base->line, base->path, S_ISDIR(st.st_mode) ?
		    "a directory" : S_ISFIFO(st.st_mode) ? "a FIFO" : "a device or socket");
		return -1;
	}
	if (!meta_path_within(base->path, base->dir)) {
		snprintf(b->error, sizeof(b->error), "%s:%lu: the baseline %s is not inside the "
		    "rules file's directory (%s)", base->file, base->line, base->path, base->dir);
		return -1;
	}
	return 0;
}

/* Measuring --------------------------------------------------------------------------- */

static int
line_selected(const struct budget_rule *r, const struct profile_line *l)
{
	if (r->sel == BUDGET_PC)
		return r->pcv != UINT64_MAX ? l->pcv == r->pcv : strcmp(l->pc, r->pc) == 0;
	if (r->sel == BUDGET_INST)
		return regexec(&r->re, l->inst, 0, NULL, 0) == 0;
	return 1;
}

/* The cycles of what r selects in k, or -1 when it selects no instruction. */
static int64_t
measure(const struct budget_rule *r, const struct profile_kernel *k)
{
	int64_t v = 0;
	size_t i;
	int any = 0;

	if (r->sel == BUDGET_KERNEL)
		return r->cause < 0 ? k->cycles : k->cyc[r->cause];
	for (i = 0; i < k->nline; i++) {
		const struct profile_line *l = k->lines[i];
		if (!line_selected(r, l))
			continue;
		any = 1;
		v += r->cause < 0 ? l->cycles : profile_line_cyc(l, r->cause);
	}
	return any ? v : -1;
}

static const char *
selection(const struct budget_rule *r, char *buf, size_t len)
{
	if (r->sel == BUDGET_PC)
		snprintf(buf, len, "no instruction at pc %s", r->pc);
	else
		snprintf(buf, len, "no instruction matches /%s/", r->pattern);
	return buf;
}

static const char *
kernel_list(const struct profile *p, char *buf, size_t len)
{
	size_t i;

	buf[0] = '\0';
	for (i = 0; i < p->nkernel; i++) {
		char *e = meta_escape(p->kernels[i].name);
		if (i)
			strlcat(buf, ", ", len);
		strlcat(buf, e, len);
		free(e);
	}
	return buf;
}

static int
judge(struct budget *b, const struct budget_rule *r, const struct profile_kernel *k,
    const char *input)
{
	struct budget_verdict v = { r, k->name, 0, r->limit, 0 };
	int64_t cycles = measure(r, k);
	char sel[320];

	if (k->hits == 0)
		return rule_fail(b, r, "kernel %s has no instruction-traced row in %s", k->name,
		    input);
	if (k->cut && r->sel != BUDGET_KERNEL && (cycles < 0 || r->sel == BUDGET_INST))
		return rule_fail(b, r, "kernel %s: %s was cut by --top: not every instruction "
		    "is in it", k->name, input);
	if (cycles < 0)
		return rule_fail(b, r, "kernel %s: %s in %s", k->name,
		    selection(r, sel, sizeof(sel)), input);
	if (r->kind == BUDGET_PCT)
		v.measured = profile_pct(cycles, k->cycles);
	else {
		/* two captures rarely trace as many waves: every figure is a wave's */
		if (k->waves == 0)
			return rule_fail(b, r, "kernel %s has no instruction-traced wave in %s",
			    k->name, input);
		v.measured = (double)cycles / (double)k->waves;
	}
	if (r->kind == BUDGET_BASELINE) {
		const struct profile *bp = &r->base->prof;
		long bi;
		int64_t base;

		if (!r->base->loaded)
			return rule_fail(b, r, "the baseline %s was not read", r->base->path);
		bi = profile_find(bp, k->name);
		if (bi < 0)
			return rule_fail(b, r, "no kernel %s in the baseline %s", k->name,
			    r->base->path);
		if (bp->kernels[bi].waves == 0)
			return rule_fail(b, r, "kernel %s has no instruction-traced wave in %s",
			    k->name, r->base->path);
		if ((base = measure(r, &bp->kernels[bi])) < 0)
			return rule_fail(b, r, "kernel %s: %s in the baseline %s", k->name,
			    selection(r, sel, sizeof(sel)), r->base->path);
		v.limit = r->limit / 100.0 * (double)base / (double)bp->kernels[bi].waves;
	}
	switch (r->op) {
	case BUDGET_LE: v.broken = !(v.measured <= v.limit); break;
	case BUDGET_LT: v.broken = !(v.measured < v.limit); break;
	case BUDGET_GE: v.broken = !(v.measured >= v.limit); break;
	case BUDGET_GT: v.broken = !(v.measured > v.limit); break;
	}
	b->verdicts = xreallocarray(b->verdicts, b->nverdict + 1, sizeof(*b->verdicts));
	b->verdicts[b->nverdict++] = v;
	return 0;
}

int
budget_judge(struct budget *b, const struct profile *prof, const char *input)
{
	size_t i, j, n;
	long ki;
	char list[256];

	for (i = 0; i < b->nrule; i++) {
		const struct budget_rule *r = &b->rules[i];
		if (r->kernel != NULL) {
			if ((ki = profile_find(prof, r->kernel)) < 0)
				return rule_fail(b, r, "no kernel %s in %s (it has %s)", r->kernel,
				    input, kernel_list(prof, list, sizeof(list)));
			if (judge(b, r, &prof->kernels[ki], input) < 0)
				return -1;
			continue;
		}
		for (j = 0, n = 0; j < prof->nkernel; j++)
			if (prof->kernels[j].hits > 0) {
				if (judge(b, r, &prof->kernels[j], input) < 0)
					return -1;
				n++;
			}
		if (n == 0)
			return rule_fail(b, r, "no kernel of %s has an instruction-traced row",
			    input);
	}
	return 0;
}

/* Output ------------------------------------------------------------------------------ */

/* Percents and cycles a wave with two decimals. */
static const char *
figure(char *buf, size_t len, const struct budget_rule *r, double v)
{
	snprintf(buf, len, r->kind == BUDGET_PCT ? "%.2f%%" : "%.2f", v);
	return buf;
}

int
budget_report(const struct budget *b, FILE *out, FILE *err, const char *prog)
{
	size_t i;
	int broken = 0;
	char m[64], l[64], *kernel, *text;

	fprintf(out, "#verdict\trule\tkernel\tmeasured\top\tlimit\ttext\n");
	for (i = 0; i < b->nverdict; i++) {
		const struct budget_verdict *v = &b->verdicts[i];
		kernel = meta_escape(v->kernel);
		text = meta_escape(v->rule->text);
		fprintf(out, "%s\t%s:%lu\t%s\t%s\t%s\t%s\t%s\n", v->broken ? "broken" : "ok",
		    v->rule->file, v->rule->line, kernel, figure(m, sizeof(m), v->rule, v->measured),
		    budget_op_text[v->rule->op], figure(l, sizeof(l), v->rule, v->limit), text);
		free(kernel);
		free(text);
	}
	if (fflush(out) != 0 || ferror(out))
		return -1;
	for (i = 0; i < b->nverdict; i++) {
		const struct budget_verdict *v = &b->verdicts[i];
		if (!v->broken)
			continue;
		broken = 1;
		kernel = meta_escape(v->kernel);
		text = meta_escape(v->rule->text);
		fprintf(err, "%s: %s:%lu: broken: %s: kernel %s: %s%s is not %s %s\n", prog,
		    v->rule->file, v->rule->line, text, kernel,
		    figure(m, sizeof(m), v->rule, v->measured),
		    v->rule->kind == BUDGET_PCT ? "" : " cycles a wave",
		    budget_op_text[v->rule->op], figure(l, sizeof(l), v->rule, v->limit));
		free(kernel);
		free(text);
	}
	return broken;
}

void
budget_free(struct budget *b)
{
	struct budget_baseline *base, *next;
	size_t i;

	for (i = 0; i < b->nrule; i++)
		rule_free(&b->rules[i]);
	free(b->rules);
	free(b->verdicts);
	for (base = b->baselines; base; base = next) {
		next = base->next;
		if (base->loaded)
			profile_free(&base->prof);
		free(base->name);
		free(base->path);
		free(base->dir);
		free(base);
	}
	memset(b, 0, sizeof(*b));
}
