/* budget: the rule language of stall-budget(1) and its verdicts.  A rules file holds one
 * rule a line, each an upper or lower bound on the cycles a wave of a kernel, of an
 * instruction or of a cause (or a percent of the kernel, or of a baseline); the rules
 * measured on a profile give one verdict per rule and kernel.  No file-scope state, no
 * exit: every error is one message in the context, and -1. */
#ifndef BUDGET_H
#define BUDGET_H
#include <regex.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "profile.h"

/* Limits of a rules file, each enforced with one line (exit 2 in stall-budget). */
#define BUDGET_LINE_MAX 4096		/* bytes a line, its newline not counted */
#define BUDGET_RULES_MAX 10000		/* lines a file */
#define BUDGET_REPEAT_MAX 32		/* a {m,n} of a pattern: m and n at most this */
#define BUDGET_PATTERN_MAX 16384	/* atoms of a pattern, its repetitions written out */
#define BUDGET_PATTERN_REPS 1024	/* repetitions (* + ? {m,}) of a pattern, written out */
#define BUDGET_FILE_REPS 4096		/* the same, of all the patterns of the rules */

enum budget_select { BUDGET_KERNEL, BUDGET_PC, BUDGET_INST };
enum budget_op { BUDGET_LE, BUDGET_LT, BUDGET_GE, BUDGET_GT };
enum budget_limit { BUDGET_CYCLES, BUDGET_PCT, BUDGET_BASELINE };
extern const char *const budget_op_text[];	/* "<=", "<", ">=", ">" */

struct budget_baseline {
	char *name;		/* as the rule wrote it */
	char *path;		/* found beside the rules file */
	char *dir;		/* the rules file's directory, which it must be in */
	const char *file;	/* the rule that first names it */
	unsigned long line;
	struct profile prof;	/* the caller reads it (budget_baselines) */
	int loaded;
	struct budget_baseline *next;
};

struct budget_rule {
	const char *file;
	unsigned long line;
	char *text;		/* as written, without its comment */
	char *kernel;		/* NULL: every kernel ("*") */
	enum budget_select sel;
	char *pc;
	uint64_t pcv;		/* UINT64_MAX when pc is not a number */
	char *pattern;
	regex_t re;
	int has_re;
	int cause;		/* -1: all cycles */
	enum budget_op op;
	double limit;
	enum budget_limit kind;
	struct budget_baseline *base;
};

/* One rule measured on one kernel. */
struct budget_verdict {
	const struct budget_rule *rule;
	const char *kernel;
	double measured, limit;
	int broken;
};

struct budget {
	struct budget_rule *rules;
	size_t nrule;
	long pattern_reps;	/* of the rules so far (BUDGET_FILE_REPS) */
	struct budget_verdict *verdicts;
	size_t nverdict;
	struct budget_baseline *baselines;
	char error[640];
};

/* Read the rules of fp, named path ("-" for standard input; baselines are then found
 * in the working directory).  -1 on trouble: "FILE:LINE: what is wrong", a line past
 * BUDGET_LINE_MAX, a file past BUDGET_RULES_MAX lines, a file with no rule. */
int budget_read(struct budget *b, const char *path, FILE *fp);
/* One line of a rules file (no newline), as budget_read takes it: 0 (a rule, or a blank
 * or comment line), -1 on trouble. */
int budget_line(struct budget *b, const char *file, unsigned long line, const char *text);
/* Is the baseline a regular file inside the rules file's directory?  -1 when not, with
 * the reason. */
int budget_check_baseline(struct budget *b, const struct budget_baseline *base);
/* Can the pattern be used: no back-reference, no {m,n} past BUDGET_REPEAT_MAX, none
 * inside another's group, at most BUDGET_PATTERN_MAX atoms and BUDGET_PATTERN_REPS
 * repetitions once its repetitions are written out (a+ as aa*, a{3} as aaa).  Its
 * repetitions written out, or -1 with why[] when not. */
int budget_check_pattern(const char *re, char *why, size_t len);
/* Measure every rule on prof (named input in messages; every baseline loaded): the
 * verdicts.  -1 on trouble (a kernel or a selection that is not there, ...). */
int budget_judge(struct budget *b, const struct profile *prof, const char *input);
/* The verdict table on out (names escaped, so that none forges a line); 1 if a rule is
 * broken, each then named on err as "prog: FILE:LINE: broken: ...". */
int budget_report(const struct budget *b, FILE *out, FILE *err, const char *prog);
void budget_free(struct budget *b);

#endif
