/* annotate: a costed row stream read back against the kernel's code (annotate.h). */
#include <sys/stat.h>

#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "annotate.h"
#include "cause.h"
#include "codeload.h"
#include "codeobj.h"
#include "dispatch.h"
#include "dwarf.h"
#include "elfsym.h"
#include "loops.h"
#include "meta.h"
#include "profile.h"
#include "regs.h"
#include "util.h"

#define NONE ((size_t)-1)
#define SOURCE_MAX (16u << 20)	/* of a source file, the bytes whose lines have text */
/* --annotate marks an instruction or a source line hot when its cycles, launch and drain
 * left out (they are no instruction's), are this percent of the kernel's or more. */
#define HOT_PCT 5.0

static const char *const view_name[] = { "lines", "annotate", "loops", "waits", "loads",
	"hidden", "hints", "wait-rows" };

/* A memory instruction some wait retired, as seen from that wait. */
struct retire {
	uint64_t load;		/* its pc */
	uint64_t n;
	int64_t lat_sum, lat_min, lat_max;
	int64_t caused;		/* the wait's cycles, charged to the youngest it retired */
};

/* Cycles and rows by cause: what the dominant cause is chosen from (profile_dominant). */
struct bycause {
	int64_t cyc[NCAUSE];
	uint64_t hit[NCAUSE];
};

/* One instruction of a kernel (the last of the array: rows whose pc is no instruction). */
struct pcstat {
	uint64_t hits;
	int64_t cycles, hidden, hidden_valu, maxcost;
	struct bycause c;
	uint64_t empty;		/* waits that retired nothing */
	int64_t empty_cycles;
	struct retire *ret;
	size_t nret, cap;
	struct u64map byload;	/* ret's index + 1 by load pc: a wait of many loads stays linear */
};

struct loopstat {
	int64_t cycles;
	struct bycause c;
	uint64_t iters, waves, min, max;
};

struct prog {
	char *name, *tag, *source, *file;
	const struct isa_target *target;
	uint8_t *image;
	struct codeobj *co;
	struct srclines *sl;
	const struct inst *insts;
	size_t ninst;
	struct loop *loops;
	size_t nloop;
	size_t *loop_of;	/* per instruction: its loop, or NONE */
	size_t lo, hi;		/* the kernel's own instructions, [lo, hi): its function
				 * symbol's bytes, without the s_code_end padding after them */
};

struct kernel {
	char *name, *tag;
	char *label;		/* as the views name it: the name, and the tag when another
				 * kernel has that name */
	struct prog *prog;
	struct pcstat *pc;	/* prog->ninst + 1 */
	struct loopstat *ls;
	int64_t cycles, hidden, hidden_valu;
	uint64_t hits, waves;
	uint64_t maxlive;	/* the most of its waves in flight at once in one buffer */
	uint64_t maxlive_event;	/* that buffer */
};

struct wave {
	struct wave *next;
	uint64_t event, id;
	struct kernel *k;
	uint64_t prev_time;
	size_t prev_idx;	/* NONE before the first row */
	size_t moved_to;	/* the row a wait was moved onto (an s_barrier), NONE */
	uint64_t *iter;		/* per loop of its kernel */
};

/* Distinct cycles in which some wave issued, the latest RING_MAX of them. */
#define RING_MAX 16384
struct ring {
	uint64_t *t;
	size_t n, cap;
	uint64_t dropped;
};

struct event {
	uint64_t id;
	struct ring any, valu;	/* any instruction; a VALU one */
	uint64_t live;		/* its waves in flight (begun, not ended) */
};

/* Live waves, hashed by (event, wave): a stream of many waves stays linear. */
#define WAVE_BUCKETS 4096

struct annotate {
	struct annotate_opts o;
	FILE *out;
	/* every row's cost and every retired operation's latency added up: each sum of
	 * them is a part, so none passes 2^63-1 while these do not */
	int64_t cost_total, lat_total;
	char *cur_source;
	const struct isa_target *cur_target;	/* the stream's ##target, NULL: not said */
	/* programs and kernels are held by pointer: a wave, a kernel or the last kernel
	 * asked for keeps its pointer while the tables grow */
	struct prog **progs;
	size_t nprog;
	struct kernel **kernels;
	size_t nkernel;
	struct kernel *last;
	int names_stay;		/* a row's kernel and tag strings stay where they are */
	const char *last_name, *last_tag;	/* last's, as the row that found it gave them */
	struct wave *waves[WAVE_BUCKETS];
	size_t nlive;
	struct u64map events;	/* struct event by id */
	uint64_t nrows;
	uint64_t nskipped;	/* rows of other kernels or dispatches */
	struct dispatches *ds;	/* --dispatch: the events' dispatches */
	struct codeload *cl;	/* the capture the programs' code objects are read from */
	int col[ROW_NCOL];	/* the row stream's columns */
	int64_t row_hidden, row_hidden_valu;	/* of the row being read */
	uint64_t nhints;
	/* --annotate's source text: one file at a time */
	char *src_name, *src_buf;
	size_t src_len, src_cap;
	char src_out[256];
	char **refused;		/* source files refused, each said once */
	size_t nrefused;
	char why[512];
};

static int
fail(struct annotate *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int
fail(struct annotate *a, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(a->why, sizeof(a->why), fmt, ap);
	va_end(ap);
	return -1;
}

const char *
annotate_error(const struct annotate *a)
{
	return a->why;
}

const char *
annotate_view_name(enum annotate_view v)
{
	return (size_t)v < sizeof(view_name) / sizeof(view_name[0]) ? view_name[v] : NULL;
}

struct annotate *
annotate_new(const struct annotate_opts *o)
{
	struct annotate *a = xcalloc(1, sizeof(*a));

	a->o = *o;
	a->out = o->out ? o->out : stdout;
	a->cl = codeload_new();
	if (o->dispatch >= 0)
		a->ds = dispatch_new(o->dispatch, 0);
	if (a->o.view == AV_WAIT_ROWS)
		fprintf(a->out, "##stall-annotate\twait-rows\n#kernel\tevent\twave\twait\ttime"
		    "\tcost\tload\tissue\tlatency\tcaused\thidden\thidden_valu\n");
	return a;
}

static void
wave_free_all(struct annotate *a)
{
	size_t i;

	for (i = 0; i < WAVE_BUCKETS; i++)
		while (a->waves[i] != NULL) {
			struct wave *w = a->waves[i];
			a->waves[i] = w->next;
			free(w->iter);
			free(w);
		}
	a->nlive = 0;
}

void
annotate_free(struct annotate *a)
{
	size_t i, j;

	if (a == NULL)
		return;
	wave_free_all(a);
	for (i = 0; i < a->nkernel; i++) {
		struct kernel *k = a->kernels[i];
		for (j = 0; j <= k->prog->ninst; j++) {
			free(k->pc[j].ret);
			u64map_free(&k->pc[j].byload);
		}
		free(k->pc);
		free(k->ls);
		free(k->name);
		free(k->tag);
		free(k->label);
		free(k);
	}
	free(a->kernels);
	for (i = 0; i < a->nprog; i++) {
		struct prog *p = a->progs[i];
		if (p->sl)
			srclines_close(p->sl);
		if (p->co)
			codeobj_close(p->co);
		free(p->image);
		free(p->loops);
		free(p->loop_of);
		free(p->name);
		free(p->tag);
		free(p->source);
		free(p->file);
		free(p);
	}
	free(a->progs);
	for (i = 0; i < a->events.cap; i++)
		if (a->events.val && a->events.val[i]) {
			struct event *e = a->events.val[i];
			free(e->any.t);
			free(e->valu.t);
			free(e);
		}
	u64map_free(&a->events);
	dispatch_free(a->ds);
	codeload_free(a->cl);
	free(a->cur_source);
	free(a->src_name);
	free(a->src_buf);
	while (a->nrefused > 0)
		free(a->refused[--a->nrefused]);
	free(a->refused);
	free(a);
}

/* Numbers of a row, as tsv_u64 and tsv_i64 read them but with the error returned. */
static int
num_u64(struct annotate *a, const struct tsv *t, int i, uint64_t *v)
{
	if (!tsv_get_u64(t, i, v))
		return fail(a, "%s: '%s' is not a number", t->col[i], t->field[i]);
	return 0;
}

static int
num_i64(struct annotate *a, const struct tsv *t, int i, int64_t *v)
{
	if (!tsv_get_i64(t, i, v))
		return fail(a, "%s: '%s' is not a number", t->col[i], t->field[i]);
	return 0;
}

/* Programs and kernels ------------------------------------------------------------ */

int
annotate_meta(struct annotate *a, const struct tsv *t)
{
	if (strcmp(t->field[0], "source") == 0 && t->nfield >= 2) {
		free(a->cur_source);
		a->cur_source = xstrdup(t->field[1]);
	} else if (strcmp(t->field[0], "target") == 0) {
		a->cur_target = meta_target(t, 0);
	} else if (strcmp(t->field[0], "event") == 0 && t->nfield >= 2 && a->ds != NULL) {
		/* ##event EVENT SE KERNEL TAG ITRACE SA WGP SIMD FILE DISPATCH: the dispatch is
		 * the last field, when there is one and it is a number */
		uint64_t ev, d = 0;
		const char *f = t->field[t->nfield - 1];
		size_t i, nd = strspn(f, "0123456789");
		if (!tsv_get_u64(t, 1, &ev))
			return fail(a, "##event: '%s' is not an event number", t->field[1]);
		if (t->nfield < 11 || nd == 0 || nd > 18 || f[nd] != '\0') {
			dispatch_event(a->ds, ev, -1);
			return 0;
		}
		for (i = 0; i < nd; i++)
			d = d * 10 + (uint64_t)(f[i] - '0');
		dispatch_event(a->ds, ev, (int64_t)d);
	} else if (strcmp(t->field[0], "code") == 0 && t->nfield >= 5) {
		annotate_program(a, t->field[1], t->field[2], a->cur_source,
		    t->nfield > 5 ? t->field[5] : "-", a->cur_target);
	}
	return 0;
}

void
annotate_program(struct annotate *a, const char *name, const char *tag, const char *source,
    const char *file, const struct isa_target *target)
{
	struct prog *p;

	a->progs = xreallocarray(a->progs, a->nprog + 1, sizeof(*a->progs));
	p = a->progs[a->nprog++] = xcalloc(1, sizeof(*p));
	p->name = xstrdup(name);
	p->tag = xstrdup(tag && *tag ? tag : "-");
	p->source = xstrdup(source ? source : "-");
	p->file = xstrdup(file ? file : "-");
	p->target = target;
}

static int
prog_open(struct annotate *a, struct prog *p)
{
	char why[256];
	size_t len, i;

	if (strcmp(p->file, "-") != 0) {
		/* the ##code line's file is the stream's word: a regular file only (a FIFO
		 * would block for ever, a device never end) */
		struct stat st;
		int fd = open(p->file, O_RDONLY | O_NONBLOCK | O_NOCTTY);
		if (fd >= 0) {
			int reg = fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
			close(fd);
			if (!reg)
				return fail(a, "%s: not a regular file", p->file);
		}
	}
	if ((p->image = codeload_program(a->cl, p->source, p->name, p->tag, p->file, &len, why,
	    sizeof(why))) == NULL) {
		/* the capture's error, the same line as the program's own */
		return fail(a, "%s", codeload_broken(a->cl) != NULL ? codeload_broken(a->cl) : why);
	}
	if ((p->co = codeobj_open(p->image, len, p->name, p->target, why, sizeof(why))) == NULL)
		return fail(a, "program %s: %s", p->name, why);
	if ((p->sl = srclines_open(p->image, len, why, sizeof(why))) == NULL) {
		codeobj_close(p->co);
		p->co = NULL;
		return fail(a, "program %s: %s", p->name, why);
	}
	p->insts = codeobj_insts(p->co, &p->ninst);
	p->lo = 0;
	p->hi = p->ninst;
	{
		uint64_t start, end;
		if (elfsym_kernel_range(p->image, len, p->name, &start, &end, why,
		    sizeof(why)) == 1) {
			while (p->lo < p->ninst && p->insts[p->lo].pc < start)
				p->lo++;
			for (p->hi = p->lo; p->hi < p->ninst && p->insts[p->hi].pc < end;)
				p->hi++;
		}
		while (p->hi > p->lo && strcmp(p->insts[p->hi - 1].mnemonic, "s_code_end") == 0)
			p->hi--;
	}
	p->loops = loops_find(p->insts, p->ninst, &p->nloop);
	p->loop_of = xcalloc(p->ninst + 1, sizeof(*p->loop_of));
	for (i = 0; i <= p->ninst; i++)
		p->loop_of[i] = NONE;
	for (i = 0; i < p->nloop; i++) {
		size_t j;
		for (j = p->loops[i].head; j <= p->loops[i].tail; j++)
			p->loop_of[j] = i;
	}
	return 0;
}

/* A tag of "-" is none: it matches any (a stream of before the tag column). */
static int
tag_fits(const char *x, const char *y)
{
	return strcmp(x, "-") == 0 || strcmp(y, "-") == 0 || strcmp(x, y) == 0;
}

/* A kernel is its program's identity, (name, tag): two programs of one name (two
 * versions of a kernel in one capture) are two kernels. */
static struct kernel *
kernel_get(struct annotate *a, const char *name, const char *tag)
{
	struct kernel *k;
	struct prog *p;
	size_t i;

	if (tag == NULL || *tag == '\0')
		tag = "-";
	if (a->names_stay && a->last != NULL && name == a->last_name && tag == a->last_tag)
		return a->last;
	a->last_name = name;
	a->last_tag = tag;
	if (a->last != NULL && strcmp(a->last->name, name) == 0 &&
	    strcmp(a->last->tag, tag) == 0)
		return a->last;
	for (i = 0; i < a->nkernel; i++)
		if (strcmp(a->kernels[i]->name, name) == 0 && strcmp(a->kernels[i]->tag, tag) == 0)
			return a->last = a->kernels[i];
	for (i = a->nprog; i-- > 0;)
		if (strcmp(a->progs[i]->name, name) == 0 && tag_fits(a->progs[i]->tag, tag))
			break;
	if (i == (size_t)-1) {
		if (strcmp(tag, "-") != 0)
			fail(a, "kernel %s: no ##code line names its code object (tag %s)", name,
			    tag);
		else
			fail(a, "kernel %s: no ##code line names its code object", name);
		return NULL;
	}
	p = a->progs[i];
	if (p->co == NULL && prog_open(a, p) < 0)
		return NULL;
	a->kernels = xreallocarray(a->kernels, a->nkernel + 1, sizeof(*a->kernels));
	k = a->kernels[a->nkernel++] = xcalloc(1, sizeof(*k));
	k->name = xstrdup(name);
	k->tag = xstrdup(tag);
	k->prog = p;
	k->pc = xcalloc(p->ninst + 1, sizeof(*k->pc));
	k->ls = xcalloc(p->nloop + 1, sizeof(*k->ls));
	for (i = 0; i < p->nloop; i++)
		k->ls[i].min = UINT64_MAX;
	return a->last = k;
}

/* Issue cycles of an event --------------------------------------------------------- */

static struct event *
event_get(struct annotate *a, uint64_t id)
{
	void **slot = u64map_slot(&a->events, id);

	if (*slot == NULL) {
		struct event *e = xcalloc(1, sizeof(*e));
		e->id = id;
		*slot = e;
	}
	return *slot;
}

static void
ring_add(struct ring *e, uint64_t time)
{
	if (e->n > 0 && time <= e->t[e->n - 1])
		return;		/* the cycle is counted, or the rows are out of order */
	if (e->n == RING_MAX) {
		memmove(e->t, e->t + RING_MAX / 2, (RING_MAX / 2) * sizeof(*e->t));
		e->n -= RING_MAX / 2;
		e->dropped += RING_MAX / 2;
	}
	if (e->n == e->cap) {
		e->cap = e->cap ? 2 * e->cap : 256;
		e->t = xreallocarray(e->t, e->cap, sizeof(*e->t));
	}
	e->t[e->n++] = time;
}

/* How many distinct cycles up to x some wave of the event issued in (older than the
 * ring: counted from its start). */
static uint64_t
issued_upto(const struct ring *e, uint64_t x)
{
	size_t lo, hi = e->n, step = 1;

	/* the questions are of a row's latest cycles: gallop back from the end, then bisect */
	while (hi > 0 && e->t[hi - 1] > x) {
		lo = hi > step ? hi - step : 0;
		if (e->t[lo] > x) {
			hi = lo;
			step *= 2;
			continue;
		}
		/* t[lo] <= x < t[hi - 1]: the first later than x is in (lo, hi - 1] */
		lo++;
		hi--;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (e->t[mid] <= x)
				lo = mid + 1;
			else
				hi = mid;
		}
		return e->dropped + lo;
	}
	return e->dropped + hi;
}

/* Cycles in (a, b] in which some wave issued. */
static int64_t
issued_in(const struct ring *e, uint64_t a, uint64_t b)
{
	return b > a ? (int64_t)(issued_upto(e, b) - issued_upto(e, a)) : 0;
}

/* Waves ---------------------------------------------------------------------------- */

static size_t
wave_bucket(uint64_t ev, uint64_t id)
{
	return (size_t)((ev * 0x9e3779b97f4a7c15ull ^ id) * 0xff51afd7ed558ccdull >> 52) %
	    WAVE_BUCKETS;
}

static struct wave *
wave_get(struct annotate *a, uint64_t ev, uint64_t id, struct kernel *k)
{
	struct wave *w;
	struct wave **b = &a->waves[wave_bucket(ev, id)];

	for (w = *b; w; w = w->next)
		if (w->event == ev && w->id == id)
			return w;
	w = xcalloc(1, sizeof(*w));
	w->event = ev;
	w->id = id;
	w->k = k;
	w->prev_idx = NONE;
	w->moved_to = NONE;
	w->iter = xcalloc(k->prog->nloop + 1, sizeof(*w->iter));
	w->next = *b;
	*b = w;
	a->nlive++;
	k->waves++;
	{
		struct event *e = event_get(a, ev);
		if (++e->live > k->maxlive) {
			k->maxlive = e->live;
			k->maxlive_event = ev;
		}
	}
	return w;
}

static void
wave_end(struct annotate *a, struct wave *w)
{
	struct wave **pp;
	struct kernel *k = w->k;
	size_t i;

	for (i = 0; i < k->prog->nloop; i++) {
		struct loopstat *l = &k->ls[i];
		if (w->iter[i] == 0)
			continue;
		l->waves++;
		l->iters += w->iter[i];
		if (w->iter[i] < l->min)
			l->min = w->iter[i];
		if (w->iter[i] > l->max)
			l->max = w->iter[i];
	}
	for (pp = &a->waves[wave_bucket(w->event, w->id)]; *pp != w; pp = &(*pp)->next)
		;
	*pp = w->next;
	a->nlive--;
	event_get(a, w->event)->live--;
	free(w->iter);
	free(w);
}

void
annotate_end_input(struct annotate *a)
{
	size_t i;

	for (i = 0; i < WAVE_BUCKETS && a->nlive > 0; i++)
		while (a->waves[i] != NULL)
			wave_end(a, a->waves[i]);	/* a wave without its WAVE_END row */
}

/* Rows ----------------------------------------------------------------------------- */

static struct retire *
retire_get(struct pcstat *s, uint64_t load)
{
	void **slot = u64map_slot(&s->byload, load);

	if (*slot != NULL)
		return &s->ret[(size_t)(uintptr_t)*slot - 1];
	*slot = (void *)(uintptr_t)(s->nret + 1);
	if (s->nret == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 4;
		s->ret = xreallocarray(s->ret, s->cap, sizeof(*s->ret));
	}
	memset(&s->ret[s->nret], 0, sizeof(s->ret[0]));
	s->ret[s->nret].load = load;
	s->ret[s->nret].lat_min = INT64_MAX;
	return &s->ret[s->nret++];
}

/* --wait-rows: one line per operation a wait row retired, as the row is read. */
static void
put_wait_row(struct annotate *a, const struct annotate_rec *r, const char *load,
    uint64_t issue, int64_t lat, int64_t caused)
{
	fprintf(a->out, "%s\t%" PRIu64 "\t%" PRIu64 "\t", r->kernel, r->event, r->wave);
	if (r->has_pc)
		fprintf(a->out, "0x%" PRIx64, r->pc);
	else
		fputc('-', a->out);
	fprintf(a->out, "\t%" PRIu64 "\t%" PRId64 "\t%s\t", r->time, r->cost, load);
	if (lat < 0)
		fprintf(a->out, "-\t-\t");
	else
		fprintf(a->out, "%" PRIu64 "\t%" PRId64 "\t", issue, lat);
	fprintf(a->out, "%" PRId64 "\t%" PRId64 "\t%" PRId64 "\n", caused, a->row_hidden,
	    a->row_hidden_valu);
}

/* "0x1314@803,0x131c@804": the operations a wait retired, each with its latency. */
/* The digits at s, hex after a "0x" (base 16) or decimal (base 10), read as strtoull
 * reads them: the value in *v, *end past the digits; 0 when the value passes 2^64-1
 * (strtoull's ERANGE).  Not strtoull: a wait's retired list is read three times, on every
 * waitcnt row, and strtoull's generality (space, sign, locale) was most of that. */
static int
scan_u64(const char *s, unsigned base, uint64_t *v, char **end)
{
	uint64_t x = 0;
	int d, fits = 1;

	if (base == 16)
		s += 2;
	for (;; s++) {
		d = base == 16 ? hex_digit((unsigned char)*s) :
		    *s >= '0' && *s <= '9' ? *s - '0' : -1;
		if (d < 0)
			break;
		if (x > (UINT64_MAX - (unsigned)d) / base)
			fits = 0;
		x = x * base + (unsigned)d;
	}
	*v = fits ? x : UINT64_MAX;
	*end = (char *)(uintptr_t)s;
	return fits;
}

static int
take_retired(struct annotate *a, const struct annotate_rec *rec, struct pcstat *s)
{
	const char *field = rec->retired, *p = field;
	uint64_t time = rec->time;
	int64_t cost = rec->cost;
	struct retire *r, *young = NULL;
	uint64_t young_issue = 0;
	int64_t lat_total;
	char *end;

	if (p == NULL || strcmp(p, "-") == 0) {
		s->empty++;
		s->empty_cycles += cost;
		if (a->o.view == AV_WAIT_ROWS)
			put_wait_row(a, rec, "-", 0, -1, cost);
		return 0;
	}
	/* the whole list checked first: a row refused leaves nothing counted */
	for (lat_total = a->lat_total;;) {
		uint64_t pc, issue;
		if (p[0] != '0' || p[1] != 'x' || hex_digit((unsigned char)p[2]) < 0)
			return fail(a, "retired: '%s' is not a list of pc@time", field);
		if (!scan_u64(p, 16, &pc, &end) || *end != '@' || end[1] < '0' || end[1] > '9')
			return fail(a, "retired: '%s' is not a list of pc@time", field);
		if (!scan_u64(end + 1, 10, &issue, &end))
			return fail(a, "retired: '%s' is not a list of pc@time", field);
		if (issue > time)
			return fail(a, "retired: an operation issued at %" PRIu64 ", after the wait "
			    "(%" PRIu64 ")", issue, time);
		if (__builtin_add_overflow(lat_total, (int64_t)(time - issue), &lat_total))
			return fail(a, "retired: the latencies' sum passes 2^63-1");
		if (*end == '\0')
			break;
		if (*end != ',')
			return fail(a, "retired: '%s' is not a list of pc@time", field);
		p = end + 1;
	}
	a->lat_total = lat_total;
	for (p = field;; p = end + 1) {
		uint64_t pc, issue;
		int64_t lat;
		(void)scan_u64(p, 16, &pc, &end);	/* the list was checked above */
		(void)scan_u64(end + 1, 10, &issue, &end);
		lat = (int64_t)(time - issue);
		r = retire_get(s, pc);
		r->n++;
		r->lat_sum += lat;
		if (lat < r->lat_min)
			r->lat_min = lat;
		if (lat > r->lat_max)
			r->lat_max = lat;
		if (young == NULL || issue >= young_issue) {
			young = r;
			young_issue = issue;
		}
		if (*end == '\0')
			break;
	}
	young->caused += cost;
	if (a->o.view == AV_WAIT_ROWS) {
		/* again, now that the youngest is known: the wait's cycles are its */
		for (p = field;; p = end + 1) {
			char load[24];
			uint64_t pc, issue;
			(void)scan_u64(p, 16, &pc, &end);
			(void)scan_u64(end + 1, 10, &issue, &end);
			snprintf(load, sizeof(load), "0x%" PRIx64, pc);
			put_wait_row(a, rec, load, issue, (int64_t)(time - issue),
			    issue == young_issue && pc == young->load ? cost : 0);
			if (*end != ',')
				break;
		}
	}
	return 0;
}

static void
count(struct bycause *b, enum cause c, int64_t cost)
{
	b->cyc[c] += cost;
	b->hit[c]++;
}

/* A VALU instruction's issue, which hides another wave's VALU wait. */
static int
is_valu(enum inst_class c)
{
	return c == IC_VALU || c == IC_VALU_TRANS || c == IC_VALU_SHIFT64 ||
	    c == IC_VALU_MAD64 || c == IC_VALU_F64 || c == IC_VALU_CMPX || c == IC_VINTERP;
}

int
annotate_row(struct annotate *a, const struct tsv *t)
{
	const int *col = a->col;
	struct annotate_rec r;

	r.cls = inst_class_by_name(t->field[col[ROW_CLASS]]);
	if (!a->o.untraced && r.cls == IC_UNTRACED)
		return 0;	/* as stall-table: a wave without instruction tokens is left out */
	if (num_u64(a, t, col[ROW_EVENT], &r.event) < 0 ||
	    num_u64(a, t, col[ROW_WAVE], &r.wave) < 0 ||
	    num_u64(a, t, col[ROW_TIME], &r.time) < 0 ||
	    num_i64(a, t, col[ROW_DELTA], &r.delta) < 0 ||
	    num_i64(a, t, col[ROW_COST], &r.cost) < 0)
		return -1;
	r.kernel = t->field[col[ROW_KERNEL]];
	r.tag = col[ROW_TAG] >= 0 ? t->field[col[ROW_TAG]] : "-";
	r.has_pc = !tsv_dash(t, col[ROW_PC]);
	r.pc = 0;
	if (r.has_pc && num_u64(a, t, col[ROW_PC], &r.pc) < 0)
		return -1;
	r.cause = cause_by_name(t->field[col[ROW_CAUSE]]);
	r.cost2 = 0;
	r.cause2 = CAUSE_NONE;
	if (col[ROW_COST2] >= 0 && col[ROW_CAUSE2] >= 0) {
		if (num_i64(a, t, col[ROW_COST2], &r.cost2) < 0)
			return -1;
		r.cause2 = cause_by_name(t->field[col[ROW_CAUSE2]]);
	}
	r.kind = row_kind_of(t->field[col[ROW_TOKEN]]);
	r.retired = col[ROW_RETIRED] >= 0 ? t->field[col[ROW_RETIRED]] : NULL;
	return annotate_put(a, &r);
}

void
annotate_names_stay(struct annotate *a)
{
	a->names_stay = 1;
}

int
annotate_put(struct annotate *a, const struct annotate_rec *r)
{
	uint64_t evid = r->event, wid = r->wave, time = r->time;
	int64_t delta = r->delta, cost = r->cost, hid, hidv;
	struct kernel *k;
	struct wave *w;
	struct event *e;
	struct pcstat *s;
	struct prog *p;
	size_t idx, l;
	enum cause cause = r->cause;
	int is_end = r->kind == ROW_WAVE_END, kept = 1;
	const char *key;
	char why[256];

	if (!a->o.untraced && r->cls == IC_UNTRACED)
		return 0;
	if (a->ds != NULL && (a->o.kernel == NULL || strcmp(r->kernel, a->o.kernel) == 0) &&
	    (kept = dispatch_kernel(a->ds, evid, "", &key, why, sizeof(why))) < 0)
		return fail(a, "%s", why);
	if ((a->o.kernel != NULL && strcmp(r->kernel, a->o.kernel) != 0) || kept == 0) {
		a->nskipped++;
		return 0;
	}
	if (time > INT64_MAX)
		return fail(a, "time: %" PRIu64 " is beyond 2^63-1", time);
	if (delta < 0 || (uint64_t)delta > time)
		return fail(a, "delta: %" PRId64 " is not a time before the row's", delta);
	if (cost < 0)
		return fail(a, "cost: %" PRId64 " is negative", cost);
	if (r->cost2 < 0 || r->cost2 > cost)
		return fail(a, "cost2: %" PRId64 " is not within the cost (%" PRId64 ")", r->cost2,
		    cost);
	if (__builtin_add_overflow(a->cost_total, cost, &a->cost_total))
		return fail(a, "cost: the sum of the rows' costs passes 2^63-1");
	if ((k = kernel_get(a, r->kernel, r->tag)) == NULL)
		return -1;
	p = k->prog;
	w = wave_get(a, evid, wid, k);
	if (w->k != k)
		return fail(a, "wave %" PRIu64 " of event %" PRIu64 " is of kernel %s, then %s",
		    wid, evid, w->k->name, k->name);
	idx = p->ninst;
	/* most rows are the instruction after the wave's previous one */
	if (r->has_pc && w->prev_idx != NONE && w->prev_idx + 1 < p->ninst &&
	    p->insts[w->prev_idx + 1].pc == r->pc)
		idx = w->prev_idx + 1;
	else if (r->has_pc && (idx = inst_index(p->insts, p->ninst, r->pc)) == NONE)
		idx = p->ninst;
	s = &k->pc[idx];
	e = event_get(a, evid);
	/* hidden: the cycles of the row's wait in which other waves issued; a wait moved
	 * onto an earlier row (s_barrier) is its first delta - cost cycles */
	if (cost < delta && w->moved_to != NONE) {
		uint64_t b = time - (uint64_t)delta, m = (uint64_t)(delta - cost);
		uint64_t cut = b + m < time - 1 ? b + m : time - 1;
		int64_t h = issued_in(&e->any, b, cut), hv = issued_in(&e->valu, b, cut);
		if (h > (int64_t)m)
			h = (int64_t)m;
		if (hv > h)
			hv = h;
		k->pc[w->moved_to].hidden += h;
		k->pc[w->moved_to].hidden_valu += hv;
		k->hidden += h;
		k->hidden_valu += hv;
		hid = time > 0 ? issued_in(&e->any, cut, time - 1) : 0;
		hidv = time > 0 ? issued_in(&e->valu, cut, time - 1) : 0;
	} else {
		hid = time > 0 ? issued_in(&e->any, time - (uint64_t)delta, time - 1) : 0;
		hidv = time > 0 ? issued_in(&e->valu, time - (uint64_t)delta, time - 1) : 0;
	}
	if (hid > cost)
		hid = cost;
	if (hidv > hid)
		hidv = hid;
	if (cost > delta)
		w->moved_to = idx;
	s->hidden += hid;
	s->hidden_valu += hidv;
	a->row_hidden = hid;
	a->row_hidden_valu = hidv;
	k->hidden += hid;
	k->hidden_valu += hidv;
	if (!is_end && r->cls != IC_UNTRACED) {
		ring_add(&e->any, time);
		if (is_valu(r->cls))
			ring_add(&e->valu, time);
	}

	s->hits++;
	s->cycles += cost;
	count(&s->c, cause, cost - r->cost2);
	if (r->cost2 > 0)
		s->c.cyc[r->cause2] += r->cost2;	/* cycles, not a hit: the row is its cause's */
	if (cost > s->maxcost)
		s->maxcost = cost;
	k->hits++;
	k->cycles += cost;
	if (r->cls == IC_WAITCNT && r->retired != NULL && take_retired(a, r, s) < 0)
		return -1;

	if ((l = p->loop_of[idx]) != NONE) {
		k->ls[l].cycles += cost;
		count(&k->ls[l].c, cause, cost - r->cost2);
		if (r->cost2 > 0)
			k->ls[l].c.cyc[r->cause2] += r->cost2;
		/* an iteration starts where the wave enters and where it takes the back edge
		 * (whose target may be an instruction that is never traced, s_delay_alu) */
		if (w->prev_idx == NONE || p->loop_of[w->prev_idx] != l)
			w->iter[l]++;
		if (idx == p->loops[l].tail && r->kind == ROW_TAKEN)
			w->iter[l]++;
	}
	w->prev_idx = idx;
	w->prev_time = time;
	a->nrows++;
	if (is_end)
		wave_end(a, w);
	return 0;
}

int
annotate_header(struct annotate *a, const struct tsv *t)
{
	enum annotate_view v = a->o.view;

	tsv_cols(t, tsv_row_col, ROW_NCOL, a->col, TSV_COL(ROW_EVENT) | TSV_COL(ROW_WAVE) |
	    TSV_COL(ROW_KERNEL) | TSV_COL(ROW_PC) | TSV_COL(ROW_TIME) | TSV_COL(ROW_DELTA) |
	    TSV_COL(ROW_TOKEN) | TSV_COL(ROW_CLASS));
	if (a->col[ROW_COST] < 0 || a->col[ROW_CAUSE] < 0)
		return fail(a, "no cost and cause columns: not stall-attr output");
	if (a->col[ROW_RETIRED] < 0 && (v == AV_WAITS || v == AV_LOADS || v == AV_HINTS ||
	    v == AV_WAIT_ROWS))
		return fail(a, "no retired column: rows from a stall-attr older than --%s needs",
		    view_name[v]);
	return 0;
}

/* Views ---------------------------------------------------------------------------- */

static double
pct(int64_t part, int64_t whole)
{
	return profile_pct(part, whole);
}

/* The toolkit's one rule (profile_dominant): the most cycles, then the most rows, then
 * the order of the causes. */
/* Cycles an instruction's own: launch and drain left out. */
static int
hot(const struct bycause *b, int64_t kernel_cycles)
{
	int64_t own = 0;
	int c;

	for (c = 0; c < NCAUSE; c++)
		if (c != CAUSE_WAVE_START && c != CAUSE_DRAIN)
			own += b->cyc[c];
	return own > 0 && pct(own, kernel_cycles) >= HOT_PCT;
}

static const char *
dominant(const struct bycause *b)
{
	return cause_name((enum cause)profile_dominant(b->cyc, b->hit));
}

static const char *
inst_text(const struct prog *p, size_t idx)
{
	return idx < p->ninst ? p->insts[idx].text : "(no instruction)";
}

static void
put_pc(struct annotate *a, const struct prog *p, size_t idx)
{
	if (idx < p->ninst)
		fprintf(a->out, "0x%" PRIx64, p->insts[idx].pc);
	else
		fprintf(a->out, "-");
}

struct srcline {
	const char *file;
	int line;
	int64_t cycles;
	uint64_t hits, insts;
	struct bycause c;
};

static int
srcline_cmp(const void *x_, const void *y_)
{
	const struct srcline *x = x_, *y = y_;
	int c;

	if (x->cycles != y->cycles)
		return x->cycles > y->cycles ? -1 : 1;
	if ((c = strcmp(x->file, y->file)) != 0)
		return c;
	return (x->line > y->line) - (x->line < y->line);
}

static int
srcline_key_cmp(const void *x_, const void *y_)
{
	const struct srcline *x = x_, *y = y_;
	int c;

	if ((c = strcmp(x->file, y->file)) != 0)
		return c;
	return (x->line > y->line) - (x->line < y->line);
}

/* The kernel's cycles per source line, most first; *n lines, malloc'd.  A line is its
 * file and its number: line 8 of two files is two lines.  Sorted, then merged: linear
 * in the pcs that ran (times their log), however many lines. */
static struct srcline *
by_line(const struct kernel *k, size_t *np)
{
	const struct prog *p = k->prog;
	struct srcline *v = xcalloc(p->ninst + 1, sizeof(*v));
	size_t n = 0, m, i;
	enum cause c;

	for (i = 0; i <= p->ninst; i++) {
		const char *file = "??";
		int line = 0;
		if (k->pc[i].hits == 0)
			continue;
		if (i < p->ninst)
			srclines_at(p->sl, p->insts[i].pc, &file, &line);
		v[n].file = file;
		v[n].line = line;
		v[n].cycles = k->pc[i].cycles;
		v[n].hits = k->pc[i].hits;
		v[n].insts = 1;
		v[n].c = k->pc[i].c;
		n++;
	}
	xqsort(v, n, sizeof(*v), srcline_key_cmp);
	for (i = 0, m = 0; i < n; i++) {
		if (m > 0 && srcline_key_cmp(&v[m - 1], &v[i]) == 0) {
			v[m - 1].cycles += v[i].cycles;
			v[m - 1].hits += v[i].hits;
			v[m - 1].insts++;
			for (c = 0; c < NCAUSE; c++) {
				v[m - 1].c.cyc[c] += v[i].c.cyc[c];
				v[m - 1].c.hit[c] += v[i].c.hit[c];
			}
		} else
			v[m++] = v[i];
	}
	xqsort(v, m, sizeof(*v), srcline_cmp);
	*np = m;
	return v;
}

/* A code object with a line table that covers not every pc that ran is said once per
 * kernel (how many, the first). */
static void
warn_unlined(struct annotate *a, const struct kernel *k)
{
	const struct prog *p = k->prog;
	size_t i, n = 0, first = NONE;

	if (!srclines_any(p->sl))
		return;
	for (i = 0; i < p->ninst; i++) {
		const char *file;
		int line;
		if (k->pc[i].hits == 0)
			continue;
		srclines_at(p->sl, p->insts[i].pc, &file, &line);
		if (line > 0)
			continue;
		if (n++ == 0)
			first = i;
	}
	(void)a;
	if (n > 0)
		warning_out("kernel %s: %zu pc%s that ran %s no source line in the code object's "
		    "DWARF (the first: 0x%" PRIx64 ")", k->label, n, n == 1 ? "" : "s",
		    n == 1 ? "has" : "have", p->insts[first].pc);
}

static void
view_lines(struct annotate *a, struct kernel *k)
{
	size_t n, j;
	struct srcline *v = by_line(k, &n);

	/* a file name is the DWARF's, any bytes: escaped as the streams' '##' values are, so
	 * that a tab, newline or ESC in it forges no field, row or terminal control */
	for (j = 0; j < n; j++) {
		fprintf(a->out, "%s", k->label);
		meta_str(a->out, v[j].file);
		fprintf(a->out, ":%d\t%" PRId64 "\t%.2f\t%" PRIu64 "\t%" PRIu64 "\t%s\n",
		    v[j].line, v[j].cycles, pct(v[j].cycles, k->cycles), v[j].hits, v[j].insts,
		    dominant(&v[j].c));
	}
	free(v);
}

/* The directories a source file the DWARF names may be read from: the user's
 * (--source-dir), else the directory of the program's code object (its file, or the
 * capture it came from: the capture directory, or the directory of a capture file). */
static int
under_roots(struct annotate *a, const struct prog *p, const char *real)
{
	const char *const *d = a->o.source_dirs;
	char root[PATH_MAX], tmp[PATH_MAX];
	const char *code = strcmp(p->file, "-") != 0 ? p->file : p->source;
	struct stat st;
	size_t n;

	for (;;) {
		const char *dir;
		if (d != NULL) {
			if ((dir = *d++) == NULL)
				return 0;
		} else {
			char *slash;
			if (strlen(code) >= sizeof(tmp))
				return 0;
			strcpy(tmp, code);
			if (stat(tmp, &st) < 0 || !S_ISDIR(st.st_mode)) {
				if ((slash = strrchr(tmp, '/')) == NULL)
					strcpy(tmp, ".");
				else if (slash == tmp)
					tmp[1] = '\0';
				else
					*slash = '\0';
			}
			dir = tmp;
		}
		if (realpath(dir, root) != NULL) {
			n = strlen(root);
			if (strncmp(real, root, n) == 0 && (real[n] == '/' ||
			    (n > 0 && root[n - 1] == '/')))
				return 1;
		}
		if (d == NULL)
			return 0;
	}
}

/* Say once that a source file is refused, and why. */
static void
refuse(struct annotate *a, const char *file, const char *why)
{
	char *esc;
	size_t i;

	for (i = 0; i < a->nrefused; i++)
		if (strcmp(a->refused[i], file) == 0)
			return;
	a->refused = xreallocarray(a->refused, a->nrefused + 1, sizeof(*a->refused));
	a->refused[a->nrefused++] = xstrdup(file);
	esc = meta_escape(file);
	warning_out("%s: source file %s", esc, why);
	free(esc);
}

/* A source file the DWARF names, read only if it is a regular file under the roots
 * (under_roots): a path of the DWARF is data, not the user's word.  What is refused is
 * said once, in one line, and the listing goes on without its text. */
static void
source_load(struct annotate *a, const struct prog *p, const char *file)
{
	char real[PATH_MAX];
	struct stat st;
	int fd;

	if (strcmp(file, "??") == 0)
		return;
	if (realpath(file, real) == NULL)
		return;		/* not there: the listing has no text for it, as before */
	if (!under_roots(a, p, real)) {
		refuse(a, file, a->o.source_dirs ? "outside the --source-dir directories: "
		    "not read" : "outside the code object's directory: not read (--source-dir "
		    "DIR allows it)");
		return;
	}
	if ((fd = open(real, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_NOFOLLOW)) < 0)
		return;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		refuse(a, file, "is not a regular file: not read");
		close(fd);
		return;
	}
	for (;;) {
		ssize_t got;
		if (a->src_len + 4096 + 1 > a->src_cap) {
			if (a->src_len >= SOURCE_MAX)
				break;	/* the lines past 16 MiB have no text */
			a->src_cap = 2 * (a->src_len + 4096 + 1);
			a->src_buf = xreallocarray(a->src_buf, a->src_cap, 1);
		}
		if ((got = read(fd, a->src_buf + a->src_len, 4096)) <= 0)
			break;
		a->src_len += (size_t)got;
	}
	close(fd);
	if (a->src_buf)
		a->src_buf[a->src_len] = '\0';
}

/* The text of a line of a source file, when it can be read: cached, one file at a time;
 * tabs as spaces, other control bytes as \xHH (no terminal control gets through). */
static const char *
source_text(struct annotate *a, const struct prog *p, const char *file, int line)
{
	const char *s, *e;
	size_t l, o;
	int n;

	if (line <= 0)
		return NULL;
	if (a->src_name == NULL || strcmp(a->src_name, file) != 0) {
		free(a->src_name);
		free(a->src_buf);
		a->src_name = xstrdup(file);
		a->src_buf = NULL;
		a->src_len = a->src_cap = 0;
		source_load(a, p, file);
	}
	if (a->src_buf == NULL || memchr(a->src_buf, '\0', a->src_len) != NULL)
		return NULL;
	for (s = a->src_buf, n = 1; n < line; n++) {
		if ((s = strchr(s, '\n')) == NULL)
			return NULL;
		s++;
	}
	e = strchr(s, '\n');
	l = e ? (size_t)(e - s) : strlen(s);
	for (o = 0; l-- > 0 && o + 5 < sizeof(a->src_out); s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '\t')
			a->src_out[o++] = ' ';
		else if (c < 0x20 || c == 0x7f)
			o += (size_t)snprintf(a->src_out + o, sizeof(a->src_out) - o, "\\x%02x", c);
		else
			a->src_out[o++] = (char)c;
	}
	a->src_out[o] = '\0';
	return a->src_out;
}

static void
view_annotate(struct annotate *a, struct kernel *k)
{
	struct prog *p = k->prog;
	const char *pfile = NULL;
	int pline = -1;
	size_t i, l, n, j;
	struct srcline *v;
	FILE *out = a->out;

	fprintf(out, "## %s: %" PRIu64 " waves, %" PRIu64 " rows, %" PRId64 " cycles; percent "
	    "is of the kernel's cycles\n", k->label, k->waves, k->hits, k->cycles);
	fprintf(out, "%8s %10s %8s  %-12s %-8s %s\n", "percent", "cycles", "hits", "cause", "pc",
	    "instruction");
	for (i = 0; i <= p->ninst; i++) {
		const struct pcstat *s = &k->pc[i];
		const char *file = "??";
		int line = 0;
		char text[512];
		if (i == p->ninst && s->hits == 0)
			break;
		if (i < p->ninst && (i < p->lo || i >= p->hi) && s->hits == 0)
			continue;	/* another function's, or padding: not the kernel's */
		if (i < p->ninst) {
			srclines_at(p->sl, p->insts[i].pc, &file, &line);
			if (pfile == NULL || line != pline || strcmp(file, pfile) != 0) {
				const char *src = source_text(a, p, file, line);
				char *esc = meta_escape(file);
				fprintf(out, "%42s%s:%d%s%s\n", "", esc, line, src ? "  " : "",
				    src ? src : "");
				free(esc);
				pfile = file;
				pline = line;
			}
		}
		if (i < p->ninst && p->insts[i].cls == IC_BRANCH && p->insts[i].target >= 0)
			snprintf(text, sizeof(text), "%s 0x%" PRIx64, p->insts[i].mnemonic,
			    (uint64_t)p->insts[i].target);
		else
			snprintf(text, sizeof(text), "%s", inst_text(p, i));
		fprintf(out, "%7.2f%% %10" PRId64 " %8" PRIu64 "  %-12s ", pct(s->cycles, k->cycles),
		    s->cycles, s->hits, s->hits ? dominant(&s->c) : "-");
		if (i < p->ninst)
			fprintf(out, "0x%-6" PRIx64 " %s", p->insts[i].pc, text);
		else
			fprintf(out, "%-8s %s", "-", text);
		if ((l = i < p->ninst ? p->loop_of[i] : NONE) != NONE && p->loops[l].tail == i) {
			const struct loopstat *ls = &k->ls[l];
			fprintf(out, "   <- loop back edge to 0x%" PRIx64 "%s",
			    p->insts[p->loops[l].head].pc, p->loops[l].spin ? " (spin)" : "");
			if (ls->waves)
				fprintf(out, ": %" PRIu64 " iterations in %" PRIu64 " waves",
				    ls->iters, ls->waves);
		}
		if (s->hits && hot(&s->c, k->cycles))
			fprintf(out, "   <- hot");
		fprintf(out, "\n");
	}
	fprintf(out, "%7.2f%% %10" PRId64 " %8" PRIu64 "  total\n", k->cycles ? 100.0 : 0.0,
	    k->cycles, k->hits);
	/* perf annotate's summary: the source lines, most cycles first */
	v = by_line(k, &n);
	fprintf(out, "## %s by source line\n", k->label);
	for (j = 0; j < n; j++) {
		char *esc = meta_escape(v[j].file);
		fprintf(out, "%7.2f%% %10" PRId64 " %8" PRIu64 "  %-12s %s:%d%s\n",
		    pct(v[j].cycles, k->cycles), v[j].cycles, v[j].hits, dominant(&v[j].c),
		    esc, v[j].line, hot(&v[j].c, k->cycles) ? "   <- hot" : "");
		free(esc);
	}
	free(v);
}

/* A loop of the kernel's own instructions, or one its waves ran (a function it called). */
static int
loop_shown(const struct kernel *k, size_t l)
{
	const struct prog *p = k->prog;

	return (p->loops[l].head >= p->lo && p->loops[l].tail < p->hi) || k->ls[l].cycles > 0 ||
	    k->ls[l].waves > 0;
}

static void
view_loops(struct annotate *a, struct kernel *k)
{
	struct prog *p = k->prog;
	int64_t in = 0;
	size_t l, nshown = 0;

	for (l = 0; l < p->nloop; l++) {
		in += k->ls[l].cycles;
		nshown += loop_shown(k, l);
	}
	fprintf(a->out, "##kernel\t%s\tcycles\t%" PRId64 "\tloops\t%zu\tin loops\t%" PRId64
	    "\trest\t%" PRId64 "\n", k->label, k->cycles, nshown, in, k->cycles - in);
	for (l = 0; l < p->nloop; l++) {
		const struct loopstat *s = &k->ls[l];
		if (!loop_shown(k, l))
			continue;
		fprintf(a->out, "%s\t0x%" PRIx64 "\t0x%" PRIx64 "\t%zu\t%" PRIu64 "\t%" PRIu64 "\t",
		    k->label, p->insts[p->loops[l].head].pc, p->insts[p->loops[l].tail].pc,
		    p->loops[l].tail - p->loops[l].head + 1, s->waves, s->iters);
		if (s->waves)
			fprintf(a->out, "%" PRIu64 "\t%" PRIu64 "\t", s->min, s->max);
		else
			fprintf(a->out, "-\t-\t");
		fprintf(a->out, "%" PRId64 "\t%.2f\t", s->cycles, pct(s->cycles, k->cycles));
		if (s->iters)
			fprintf(a->out, "%.2f\t", (double)s->cycles / (double)s->iters);
		else
			fprintf(a->out, "-\t");
		fprintf(a->out, "%s\t%s\n", s->cycles ? dominant(&s->c) : "-",
		    p->loops[l].spin ? "spin" : "-");
	}
}

static int
retire_cmp(const void *x_, const void *y_)
{
	const struct retire *x = x_, *y = y_;

	return (x->load > y->load) - (x->load < y->load);
}

static void
view_waits(struct annotate *a, struct kernel *k)
{
	struct prog *p = k->prog;
	size_t i, j;

	for (i = 0; i < p->ninst; i++) {
		struct pcstat *s = &k->pc[i];
		if (p->insts[i].cls != IC_WAITCNT || s->hits == 0)
			continue;
		xqsort(s->ret, s->nret, sizeof(*s->ret), retire_cmp);
		for (j = 0; j < s->nret; j++) {
			const struct retire *r = &s->ret[j];
			size_t li = inst_index(p->insts, p->ninst, r->load);
			fprintf(a->out, "%s\t0x%" PRIx64 "\t0x%" PRIx64 "\t%" PRIu64 "\t%" PRId64
			    "\t%.1f\t%" PRId64 "\t%" PRId64 "\t%s\n", k->label, p->insts[i].pc,
			    r->load, r->n, r->lat_min, (double)r->lat_sum / (double)r->n,
			    r->lat_max, r->caused,
			    li != NONE ? p->insts[li].text : "(no instruction)");
		}
		if (s->empty)
			fprintf(a->out, "%s\t0x%" PRIx64 "\t-\t%" PRIu64 "\t-\t-\t-\t%" PRId64 "\t%s\n",
			    k->label, p->insts[i].pc, s->empty, s->empty_cycles, "(nothing retired)");
	}
}

/* Per instruction of the program, what the waits that retired it add up to. */
struct loadsum {
	uint64_t waits, n;
	int64_t caused, lat, best;	/* best: the most one wait charged it */
	size_t best_wait;		/* that wait's index, NONE */
};

/* Linear in the waits' retire lists: each retired pc is found by binary search. */
static struct loadsum *
load_sums(const struct kernel *k)
{
	const struct prog *p = k->prog;
	struct loadsum *v = xcalloc(p->ninst + 1, sizeof(*v));
	size_t w, j, li;

	for (li = 0; li <= p->ninst; li++) {
		v[li].best = -1;
		v[li].best_wait = NONE;
	}
	for (w = 0; w < p->ninst; w++) {
		const struct pcstat *s = &k->pc[w];
		for (j = 0; j < s->nret; j++) {
			const struct retire *r = &s->ret[j];
			if ((li = inst_index(p->insts, p->ninst, r->load)) == NONE)
				continue;
			v[li].waits++;
			v[li].n += r->n;
			v[li].caused += r->caused;
			v[li].lat += r->lat_sum;
			if (r->caused > v[li].best) {
				v[li].best = r->caused;
				v[li].best_wait = w;
			}
		}
	}
	return v;
}

static void
view_loads(struct annotate *a, struct kernel *k)
{
	struct prog *p = k->prog;
	struct loadsum *v = load_sums(k);
	size_t i;

	for (i = 0; i < p->ninst; i++) {
		if (v[i].n == 0)
			continue;
		fprintf(a->out, "%s\t0x%" PRIx64 "\t%" PRIu64 "\t%" PRIu64 "\t%" PRId64 "\t%.2f\t"
		    "%.1f\t%s\n", k->label, p->insts[i].pc, v[i].waits, v[i].n, v[i].caused,
		    pct(v[i].caused, k->cycles), (double)v[i].lat / (double)v[i].n,
		    p->insts[i].text);
	}
	free(v);
}

static void
view_hidden(struct annotate *a, struct kernel *k)
{
	struct prog *p = k->prog;
	size_t i;

	fprintf(a->out, "##kernel\t%s\tcycles\t%" PRId64 "\thidden\t%" PRId64 "\texposed\t%"
	    PRId64 "\thidden_valu\t%" PRId64 "\n", k->label, k->cycles, k->hidden,
	    k->cycles - k->hidden, k->hidden_valu);
	for (i = 0; i <= p->ninst; i++) {
		const struct pcstat *s = &k->pc[i];
		if (s->hits == 0)
			continue;
		fprintf(a->out, "%s\t", k->label);
		put_pc(a, p, i);
		fprintf(a->out, "\t%" PRIu64 "\t%" PRId64 "\t%" PRId64 "\t%" PRId64 "\t%.2f\t%s\t%s\t%"
		    PRId64 "\n", s->hits, s->cycles, s->hidden, s->cycles - s->hidden,
		    pct(s->hidden, s->cycles), dominant(&s->c), inst_text(p, i), s->hidden_valu);
	}
}

/* Hints ---------------------------------------------------------------------------- */

static int
is_load(enum inst_class c)
{
	return c == IC_GLOBAL_LOAD || c == IC_FLAT_LOAD || c == IC_BUF_LOAD || c == IC_SMEM ||
	    c == IC_LDS_LOAD || c == IC_IMAGE;
}

static int
is_mem(enum inst_class c)
{
	return is_load(c) || c == IC_GLOBAL_STORE || c == IC_FLAT_STORE || c == IC_BUF_STORE ||
	    c == IC_SMEM_STORE || c == IC_LDS_STORE;
}

/* Per instruction: is it the target of some branch of the program? */
static unsigned char *
branch_targets(const struct prog *p)
{
	unsigned char *v = xcalloc(p->ninst + 1, 1);
	size_t i, j;

	for (i = 0; i < p->ninst; i++)
		if (p->insts[i].cls == IC_BRANCH && p->insts[i].target >= 0 &&
		    (j = inst_index(p->insts, p->ninst, (uint64_t)p->insts[i].target)) != NONE)
			v[j] = 1;
	return v;
}

/* What the operations the wait at wi retired write, together: the registers no
 * instruction moved before that wait may touch.  0 when one of them writes nothing the
 * model can name (nothing can then be shown safe to move). */
static int
retired_defs(const struct kernel *k, size_t wi, struct regs *all)
{
	const struct prog *p = k->prog;
	const struct pcstat *s = &k->pc[wi];
	struct regs d, u;
	size_t j, li, v;

	memset(all, 0, sizeof(*all));
	for (j = 0; j < s->nret; j++) {
		if ((li = inst_index(p->insts, p->ninst, s->ret[j].load)) == NONE)
			return 0;
		inst_regs(codeobj_model(p->co), &p->insts[li], &d, &u);
		if (regs_empty(&d) && is_load(p->insts[li].cls))
			return 0;
		for (v = 0; v < 4; v++)
			all->v[v] |= d.v[v];
		all->s[0] |= d.s[0];
		all->s[1] |= d.s[1];
	}
	return s->nret > 0;
}

/* The instructions after the wait at index wi, up to the first that touches what any
 * operation the wait retires writes (or a branch, a branch target, a wait, a barrier,
 * a memory instruction): ones that could go before the wait.  Their list ("0x1328
 * v_mov_b32_e32, ...") in list, their cycles in *cycles. */
static size_t
independent_after(const struct kernel *k, const unsigned char *target, size_t wi,
    char *list, size_t lsz, int64_t *cycles)
{
	const struct prog *p = k->prog;
	struct regs ld, d, u;
	size_t i, n = 0, len = 0;

	*cycles = 0;
	list[0] = '\0';
	if (!retired_defs(k, wi, &ld))
		return 0;
	for (i = wi + 1; i < p->ninst; i++) {
		const struct inst *in = &p->insts[i];
		if (in->cls == IC_DELAY_ALU || in->cls == IC_CLAUSE)
			continue;
		if (in->cls == IC_BRANCH || in->cls == IC_JUMP || in->cls == IC_BARRIER ||
		    in->cls == IC_ENDPGM || in->cls == IC_WAITCNT || is_mem(in->cls) || target[i])
			break;
		inst_regs(codeobj_model(p->co), in, &d, &u);
		if (regs_overlap(&ld, &u) || regs_overlap(&ld, &d))
			break;
		n++;
		*cycles += k->pc[i].cycles;
		if (len + strlen(in->mnemonic) + 24 < lsz)
			len += (size_t)snprintf(list + len, lsz - len, "%s0x%" PRIx64 " %s",
			    n > 1 ? ", " : "", in->pc, in->mnemonic);
	}
	return n;
}

static void
hint(struct annotate *a, const struct kernel *k, const char *rule, uint64_t pc,
    int64_t cycles, const char *fmt, ...) __attribute__((format(printf, 6, 7)));

static void
hint(struct annotate *a, const struct kernel *k, const char *rule, uint64_t pc,
    int64_t cycles, const char *fmt, ...)
{
	va_list ap;

	fprintf(a->out, "%s\t%s\t0x%" PRIx64 "\t%" PRId64 "\t", k->label, rule, pc, cycles);
	va_start(ap, fmt);
	vfprintf(a->out, fmt, ap);
	va_end(ap);
	fprintf(a->out, "\n");
	a->nhints++;
}

static void
view_hints(struct annotate *a, struct kernel *k)
{
	struct prog *p = k->prog;
	struct loadsum *ls = load_sums(k);
	unsigned char *target = branch_targets(p);
	size_t i, n;
	char list[512];

	/* hoist: a load whose waits cost much, with work after its costliest wait that
	 * touches nothing any operation that wait retires writes */
	for (i = 0; i < p->ninst; i++) {
		int64_t caused = ls[i].caused, own, save, wc;
		size_t bw = ls[i].best_wait;
		if (!is_load(p->insts[i].cls))
			continue;
		if (bw == NONE || pct(caused, k->cycles) < a->o.hint_min)
			continue;
		if ((n = independent_after(k, target, bw, list, sizeof(list), &own)) < 2)
			continue;
		wc = k->pc[bw].cycles;
		save = own < wc ? own : wc;
		hint(a, k, "hoist", p->insts[i].pc, caused, "its waits cost %.2f%% of the kernel; "
		    "%zu instructions after the wait at 0x%" PRIx64 " (%s) touch nothing the %zu "
		    "operation%s it retires write: issue them before that wait, or the load "
		    "earlier; saves up to %" PRId64 " cycles (their own %" PRId64 ", issued "
		    "inside the wait's %" PRId64 ")", pct(caused, k->cycles), n, p->insts[bw].pc,
		    list, k->pc[bw].nret, k->pc[bw].nret == 1 ? "" : "s", save, own, wc);
	}
	/* latency: a wait in a loop, most of it exposed, on loads the same iteration issued:
	 * too few waves to cover the latency, and none of it issued ahead */
	for (i = 0; i < p->ninst; i++) {
		const struct pcstat *s = &k->pc[i];
		size_t l = p->loop_of[i], j, nl = 0, len = 0;
		int64_t exposed = s->cycles - s->hidden, lat = 0;
		uint64_t nr = 0;
		if (p->insts[i].cls != IC_WAITCNT || s->hits == 0 || l == NONE ||
		    p->loops[l].spin || pct(s->cycles, k->cycles) < a->o.hint_min ||
		    2 * s->hidden >= s->cycles)
			continue;	/* a spin loop waits by design: the spin rule's */
		list[0] = '\0';
		for (j = 0; j < s->nret; j++) {
			size_t li = inst_index(p->insts, p->ninst, s->ret[j].load);
			if (li == NONE || p->loop_of[li] != l || li > i)
				continue;
			nl++;
			nr += s->ret[j].n;
			lat += s->ret[j].lat_sum;
			if (len + 24 < sizeof(list))
				len += (size_t)snprintf(list + len, sizeof(list) - len, "%s0x%" PRIx64,
				    nl > 1 ? ", " : "", s->ret[j].load);
		}
		if (nl == 0)
			continue;
		hint(a, k, "latency", p->insts[i].pc, s->cycles, "%s costs %.2f%% of the kernel, "
		    "%.2f%% of it hidden by other waves' issue: at most %" PRIu64 " wave%s in "
		    "flight at once on the traced SIMD (buffer %" PRIu64 "), and the %zu load%s it "
		    "waits for (%s) %s issued in the same iteration of the loop at 0x%" PRIx64
		    ", %.1f cycles before it on average: issue %s an iteration ahead, or run "
		    "more waves per SIMD; saves up to %" PRId64 " cycles (its exposed cycles)",
		    p->insts[i].text, pct(s->cycles, k->cycles), pct(s->hidden, s->cycles),
		    k->maxlive, k->maxlive == 1 ? "" : "s", k->maxlive_event, nl,
		    nl == 1 ? "" : "s", list, nl == 1 ? "is" : "are",
		    p->insts[p->loops[l].head].pc, (double)lat / (double)nr,
		    nl == 1 ? "it" : "them", exposed);
	}
	/* waitcnt: an s_waitcnt that never held its wave */
	for (i = 0; i < p->ninst; i++) {
		const struct pcstat *s = &k->pc[i];
		if (p->insts[i].cls != IC_WAITCNT || s->hits == 0)
			continue;
		if (s->empty == s->hits)
			hint(a, k, "waitcnt", p->insts[i].pc, s->cycles, "%" PRIu64 " time%s issued, "
			    "never with an operation outstanding: remove it", s->hits, s->hits == 1 ? "" : "s");
		else if (s->maxcost <= 1)
			hint(a, k, "waitcnt", p->insts[i].pc, s->cycles, "%" PRIu64 " time%s issued, "
			    "never waited more than 1 cycle: merge it into a later wait", s->hits,
			    s->hits == 1 ? "" : "s");
	}
	/* vopd: adjacent independent VALUs that both ran */
	for (i = 0; i + 1 < p->ninst; i++) {
		if (k->pc[i].hits == 0 || k->pc[i + 1].hits == 0 ||
		    !vopd_pair(codeobj_model(p->co), &p->insts[i], &p->insts[i + 1]))
			continue;
		hint(a, k, "vopd", p->insts[i].pc, k->pc[i].cycles + k->pc[i + 1].cycles,
		    "%s and %s (0x%" PRIx64 ") are independent and both have a v_dual form: "
		    "one VOPD issue instead of two, %" PRIu64 " time%s", p->insts[i].mnemonic,
		    p->insts[i + 1].mnemonic, p->insts[i + 1].pc, k->pc[i].hits,
		    k->pc[i].hits == 1 ? "" : "s");
		i++;
	}
	/* lds: LDS instructions whose issue stalls */
	for (i = 0; i < p->ninst; i++) {
		const struct pcstat *s = &k->pc[i];
		if ((p->insts[i].cls != IC_LDS_LOAD && p->insts[i].cls != IC_LDS_STORE) ||
		    s->hits == 0 || s->c.cyc[CAUSE_LDS_QUEUE] < 4 * (int64_t)s->hits)
			continue;
		hint(a, k, "lds", p->insts[i].pc, s->c.cyc[CAUSE_LDS_QUEUE], "its issue stalled "
		    "%.1f cycles a time (%" PRIu64 " time%s): bank conflicts likely, check the "
		    "addresses of its lanes", (double)s->c.cyc[CAUSE_LDS_QUEUE] / (double)s->hits,
		    s->hits, s->hits == 1 ? "" : "s");
	}
	/* spin: a loop that only polls */
	for (i = 0; i < p->nloop; i++) {
		const struct loopstat *s = &k->ls[i];
		if (!p->loops[i].spin || s->iters == 0)
			continue;
		hint(a, k, "spin", p->insts[p->loops[i].head].pc, s->cycles, "a loop that only "
		    "polls (to 0x%" PRIx64 "): %" PRIu64 " iterations in %" PRIu64 " waves, "
		    "%.2f%% of the kernel; wait on an event or s_sleep longer",
		    p->insts[p->loops[i].tail].pc, s->iters, s->waves, pct(s->cycles, k->cycles));
	}
	free(ls);
	free(target);
}

int
annotate_report(struct annotate *a)
{
	enum annotate_view v = a->o.view;
	size_t i, j;

	if (a->nrows == 0 && a->nskipped > 0 && a->o.kernel != NULL)
		return fail(a, "no rows of kernel %s", a->o.kernel);
	if (a->nrows == 0 && a->nskipped > 0)
		return fail(a, "no rows of dispatch %lld", a->o.dispatch);
	if (a->nrows == 0)
		return fail(a, "no rows");
	for (i = 0; i < a->nkernel; i++) {
		struct kernel *k = a->kernels[i];
		for (j = 0; j < a->nkernel; j++)
			if (j != i && strcmp(a->kernels[j]->name, k->name) == 0)
				break;
		free(k->label);
		if (j < a->nkernel) {
			if (asprintf(&k->label, "%s (tag %s)", k->name, k->tag) < 0)
				return fail(a, "out of memory");
		} else
			k->label = xstrdup(k->name);
	}
	if (v != AV_WAIT_ROWS)
		fprintf(a->out, "##stall-annotate\t%s\n", view_name[v]);
	switch (v) {
	case AV_LINES:
		fprintf(a->out, "#kernel\tsource\tcycles\tpercent\thits\tinsts\tcause\n");
		break;
	case AV_LOOPS:
		fprintf(a->out, "#kernel\thead\ttail\tinsts\twaves\titerations\tmin\tmax\tcycles"
		    "\tpercent\tper_iteration\tcause\tspin\n");
		break;
	case AV_WAITS:
		fprintf(a->out, "#kernel\twait\tload\thits\tlatency_min\tlatency_mean\tlatency_max"
		    "\tcaused\tinst\n");
		break;
	case AV_LOADS:
		fprintf(a->out, "#kernel\tload\twaits\tretired\tcaused\tpercent\tlatency_mean\tinst\n");
		break;
	case AV_HIDDEN:
		fprintf(a->out, "#kernel\tpc\thits\tcycles\thidden\texposed\thidden_percent\tcause"
		    "\tinst\thidden_valu\n");
		break;
	case AV_HINTS:
		fprintf(a->out, "#kernel\trule\tpc\tcycles\tadvice\n");
		break;
	case AV_ANNOTATE:
	case AV_WAIT_ROWS:
		break;
	}
	for (i = 0; i < a->nkernel; i++) {
		struct kernel *k = a->kernels[i];
		switch (v) {
		case AV_LINES: view_lines(a, k); warn_unlined(a, k); break;
		case AV_ANNOTATE: view_annotate(a, k); warn_unlined(a, k); break;
		case AV_LOOPS: view_loops(a, k); break;
		case AV_WAITS: view_waits(a, k); break;
		case AV_LOADS: view_loads(a, k); break;
		case AV_HIDDEN: view_hidden(a, k); break;
		case AV_HINTS: view_hints(a, k); break;
		case AV_WAIT_ROWS: break;
		}
	}
	if (v == AV_WAITS || v == AV_LOADS || v == AV_WAIT_ROWS) {
		for (i = 0; i < a->nkernel; i++)
			for (j = 0; j < a->kernels[i]->prog->ninst; j++)
				if (a->kernels[i]->prog->insts[j].cls == IC_WAITCNT &&
				    a->kernels[i]->pc[j].hits)
					return 0;
		return fail(a, "no s_waitcnt was executed");
	}
	return 0;
}
