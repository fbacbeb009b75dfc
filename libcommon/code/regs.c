/* regs: instruction operands as register sets (regs.h). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "regs.h"

static void
set(const struct isa_regfile *f, struct regs *r, int vector, unsigned lo, unsigned hi)
{
	unsigned i, max = vector ? f->vgprs : f->sgprs;

	if (max > (vector ? REGS_VGPRS : REGS_SGPRS))
		max = vector ? REGS_VGPRS : REGS_SGPRS;

	for (i = lo; i <= hi && i < max; i++) {
		if (vector)
			r->v[i / 64] |= 1ull << (i % 64);
		else
			r->s[i / 64] |= 1ull << (i % 64);
	}
}

/* One operand: v5, v[2:5], s7, s[2:3], vcc, vcc_lo, exec_lo ...; others add nothing. */
static void
operand(const struct isa_regfile *f, const char *p, size_t n, struct regs *r)
{
	char buf[32], *end;
	unsigned long lo, hi;

	while (n && (*p == ' ' || *p == '-' || *p == '|'))
		p++, n--;
	if (n == 0 || n >= sizeof(buf))
		return;
	memcpy(buf, p, n);
	buf[n] = '\0';
	buf[strcspn(buf, " ")] = '\0';	/* "s[2:3] offset:4": modifiers follow a space */
	if (strcmp(buf, "vcc") == 0)
		set(f, r, 0, f->vcc, f->vcc + 1);
	else if (strcmp(buf, "vcc_lo") == 0)
		set(f, r, 0, f->vcc, f->vcc);
	else if (strcmp(buf, "vcc_hi") == 0)
		set(f, r, 0, f->vcc + 1, f->vcc + 1);
	else if (strcmp(buf, "exec") == 0)
		set(f, r, 0, f->exec, f->exec + 1);
	else if (strcmp(buf, "exec_lo") == 0)
		set(f, r, 0, f->exec, f->exec);
	else if (strcmp(buf, "exec_hi") == 0)
		set(f, r, 0, f->exec + 1, f->exec + 1);
	else if ((buf[0] == 'v' || buf[0] == 's') && buf[1] == '[') {
		lo = strtoul(buf + 2, &end, 10);
		if (*end != ':')
			return;
		hi = strtoul(end + 1, &end, 10);
		if (*end == ']' && lo <= hi)
			set(f, r, buf[0] == 'v', (unsigned)lo, (unsigned)hi);
	} else if ((buf[0] == 'v' || buf[0] == 's') && isdigit((unsigned char)buf[1])) {
		lo = strtoul(buf + 1, &end, 10);
		if (*end == '\0')
			set(f, r, buf[0] == 'v', (unsigned)lo, (unsigned)lo);
	}
}

static int
writes_first(const char *m)
{
	static const char *const no[] = { "s_cmp", "s_bitcmp", "s_cbranch", "s_branch",
		"s_waitcnt", "s_setpc", "s_barrier", "s_sendmsg", "s_sleep", "s_nop",
		"s_delay_alu", "s_clause", "s_endpgm", NULL };
	const char *const *p;

	if (strstr(m, "_store") != NULL || strncmp(m, "ds_write", 8) == 0)
		return 0;
	for (p = no; *p; p++)
		if (strncmp(m, *p, strlen(*p)) == 0)
			return 0;
	return 1;
}

/* One instruction of a VOPD pair, or a whole ordinary one: "mnemonic op, op, ...". */
static void
one(const struct isa_regfile *f, const char *s, size_t len, struct regs *def, struct regs *use)
{
	const char *e = s + len, *p, *q;
	char m[48];
	size_t n;
	int first = 1, wf;

	while (s < e && *s == ' ')
		s++;
	n = strcspn(s, " ");
	if (n > (size_t)(e - s))
		n = (size_t)(e - s);
	if (n >= sizeof(m))
		n = sizeof(m) - 1;
	memcpy(m, s, n);
	m[n] = '\0';
	wf = writes_first(m);
	for (p = s + n; p < e; p = q + 1) {
		q = memchr(p, ',', (size_t)(e - p));
		if (q == NULL)
			q = e;
		operand(f, p, (size_t)(q - p), first && wf ? def : use);
		if (first && wf && (strstr(m, "fmac") || strstr(m, "dot2acc") || strstr(m, "dot2c")))
			operand(f, p, (size_t)(q - p), use);
		first = 0;
	}
	if (strncmp(m, "s_cbranch_vcc", 13) == 0)
		set(f, use, 0, f->vcc, f->vcc);
	if (strncmp(m, "s_cbranch_exec", 14) == 0)
		set(f, use, 0, f->exec, f->exec);
	if (strncmp(m, "v_cndmask", 9) == 0 && strstr(m, "_e32"))
		set(f, use, 0, f->vcc, f->vcc);
}

void
inst_regs(const struct isa_model *model, const struct inst *in, struct regs *def,
    struct regs *use)
{
	const struct isa_regfile *f = &model->regs;
	const char *t = in->text, *sep;

	memset(def, 0, sizeof(*def));
	memset(use, 0, sizeof(*use));
	if ((sep = strstr(t, "::")) != NULL) {
		one(f, t, (size_t)(sep - t), def, use);
		one(f, sep + 2, strlen(sep + 2), def, use);
	} else
		one(f, t, strlen(t), def, use);
}

int
regs_overlap(const struct regs *a, const struct regs *b)
{
	return (a->v[0] & b->v[0]) || (a->v[1] & b->v[1]) || (a->v[2] & b->v[2]) ||
	    (a->v[3] & b->v[3]) || (a->s[0] & b->s[0]) || (a->s[1] & b->s[1]);
}

int
regs_empty(const struct regs *a)
{
	static const struct regs zero;

	return memcmp(a, &zero, sizeof(zero)) == 0;
}

/* Has the VALU operation m a v_dual_* form (the model's list)? */
static int
has_vopd(const struct isa_regfile *f, const char *m)
{
	const char *const *p;
	size_t n;

	if (f->vopd_ops == NULL)
		return 0;
	for (p = f->vopd_ops; *p; p++) {
		n = strlen(*p);
		if (strncmp(m, *p, n) == 0 && (m[n] == '\0' || strcmp(m + n, "_e32") == 0))
			return 1;
	}
	return 0;
}

static int
lowest_v(const struct regs *r)
{
	int i;

	for (i = 0; i < REGS_VGPRS; i++)
		if (r->v[i / 64] & (1ull << (i % 64)))
			return i;
	return -1;
}

/* The VGPR operand n (0 the destination) of a VOP1/VOP2 text, -1 if it is not a VGPR. */
static int
vgpr_operand(const char *text, int n)
{
	const char *p = text + strcspn(text, " ");
	char *end;
	long v;

	while (n-- > 0) {
		if ((p = strchr(p, ',')) == NULL)
			return -1;
		p++;
	}
	while (*p == ' ')
		p++;
	if (p[0] != 'v' || !isdigit((unsigned char)p[1]))
		return -1;
	v = strtol(p + 1, &end, 10);
	return *end == '\0' || *end == ',' || *end == ' ' ? (int)v : -1;
}

int
vopd_pair(const struct isa_model *model, const struct inst *a, const struct inst *b)
{
	const struct isa_regfile *f = &model->regs;
	struct regs da, ua, db, ub;
	int va, vb, n;

	if (a->cls != IC_VALU || b->cls != IC_VALU || !has_vopd(f, a->mnemonic) ||
	    !has_vopd(f, b->mnemonic))
		return 0;
	inst_regs(model, a, &da, &ua);
	inst_regs(model, b, &db, &ub);
	if (regs_overlap(&da, &ub) || regs_overlap(&da, &db) || regs_overlap(&db, &ua))
		return 0;
	va = lowest_v(&da);
	vb = lowest_v(&db);
	if (va < 0 || vb < 0 || (va & 1) == (vb & 1))
		return 0;
	/* the two halves read their sources from different banks of four VGPRs */
	for (n = 1; n <= 2; n++) {
		int x = vgpr_operand(a->text, n), y = vgpr_operand(b->text, n);
		if (x >= 0 && y >= 0 && x % (int)f->vgpr_banks == y % (int)f->vgpr_banks)
			return 0;
	}
	return 1;
}
