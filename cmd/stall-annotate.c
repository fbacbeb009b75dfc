/* stall-annotate: a costed row stream read back against the kernel's code: source lines,
 * an annotated listing, loops, what each wait waited for, hidden latency and hints
 * (stall-annotate(1)). */
#include <err.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cause.h"
#include "codeload.h"
#include "codeobj.h"
#include "dwarf.h"
#include "loops.h"
#include "meta.h"
#include "regs.h"
#include "tsv.h"
#include "util.h"

#define NONE ((size_t)-1)

enum view { V_LINES, V_ANNOTATE, V_LOOPS, V_WAITS, V_LOADS, V_HIDDEN, V_HINTS, V_WAIT_ROWS };
static const char *const view_name[] = { "lines", "annotate", "loops", "waits", "loads",
	"hidden", "hints", "wait-rows" };

/* A memory instruction some wait retired, as seen from that wait. */
struct retire {
	uint64_t load;		/* its pc */
	uint64_t n;
	int64_t lat_sum, lat_min, lat_max;
	int64_t caused;		/* the wait's cycles, charged to the youngest it retired */
};

/* One instruction of a kernel (the last of the array: rows whose pc is no instruction). */
struct pcstat {
	uint64_t hits;
	int64_t cycles, hidden, hidden_valu, maxcost;
	int64_t cyc[NCAUSE];
	uint64_t empty;		/* waits that retired nothing */
	int64_t empty_cycles;
	struct retire *ret;
	size_t nret;
};

struct loopstat {
	int64_t cycles;
	int64_t cyc[NCAUSE];
	uint64_t iters, waves, min, max;
};

struct prog {
	char *name, *source, *file;
	const struct isa_target *target;
	uint8_t *image;
	struct codeobj *co;
	struct srclines *sl;
	const struct inst *insts;
	size_t ninst;
	struct loop *loops;
	size_t nloop;
	size_t *loop_of;	/* per instruction: its loop, or NONE */
};

struct kernel {
	char *name;
	struct prog *prog;
	struct pcstat *pc;	/* prog->ninst + 1 */
	struct loopstat *ls;
	int64_t cycles, hidden, hidden_valu;
	uint64_t hits, waves;
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
};

static enum view view = V_LINES;
static double opt_hint_min = 5.0;
static int opt_untraced;
static char *cur_source;
static const struct isa_target *cur_target;	/* the stream's ##target, NULL: not said */
static struct prog *progs;
static size_t nprog;
static struct kernel *kernels;
static size_t nkernel;
/* Live waves, hashed by (event, wave): a stream of many waves stays linear. */
#define WAVE_BUCKETS 4096
static struct wave *waves[WAVE_BUCKETS];
static size_t nlive;
static struct u64map events;	/* struct event by id */
static uint64_t nrows;
static int col[ROW_NCOL];	/* the row stream's columns */

static const struct cli cli = {
	.synopsis = {
		"[-hV] [--lines | --annotate | --loops | --waits | --wait-rows | --loads | --hidden | --hints]",
		"\t[--hint-min percent] [--untraced] [file ...]",
		NULL
	},
	.options = "annotate hidden hint-min hints lines loads loops untraced wait-rows waits version/V",
	.help =
	    "Read a costed row stream (stall-attr) against its kernels' code objects.\n"
	    "\n"
	    "      --lines     cycles per source line (DWARF line table; ??:0 if none)\n"
	    "      --annotate  every instruction in address order, source interleaved\n"
	    "      --loops     innermost loops: iterations, cycles per iteration, spin\n"
	    "      --waits     per s_waitcnt, the operations it retired and their latency\n"
	    "      --wait-rows the same for every s_waitcnt row, as it is read\n"
	    "      --loads     per memory instruction, the waits it caused\n"
	    "      --hidden    per instruction, cycles hidden by other waves' issue\n"
	    "      --hints     advice from the measured rows, with its evidence\n"
	    "      --hint-min P  hoist: a load's waits must cost P% (default 5)\n"
	    "      --untraced  count waves without instruction tokens too\n"
	    "  -V, --version   the version\n"
	    "  -h, --help      this text\n"
	    "See stall-annotate(1).\n",
};

/* Programs and kernels ------------------------------------------------------------ */

static void
take_meta(const struct tsv *t)
{
	struct prog *p;

	if (strcmp(t->field[0], "source") == 0 && t->nfield >= 2) {
		free(cur_source);
		cur_source = xstrdup(t->field[1]);
	} else if (strcmp(t->field[0], "target") == 0) {
		cur_target = meta_target(t, 0);
	} else if (strcmp(t->field[0], "code") == 0 && t->nfield >= 5) {
		progs = xreallocarray(progs, nprog + 1, sizeof(*progs));
		p = &progs[nprog++];
		memset(p, 0, sizeof(*p));
		p->name = xstrdup(t->field[1]);
		p->source = xstrdup(cur_source ? cur_source : "-");
		p->file = xstrdup(t->nfield > 5 ? t->field[5] : "-");
		p->target = cur_target;
	}
}

static void
prog_open(const struct tsv *t, struct prog *p)
{
	char why[256];
	size_t len, i;

	if ((p->image = codeload(p->source, p->name, p->file, &len, why, sizeof(why))) == NULL)
		tsv_fail(t, "%s", why);
	if ((p->co = codeobj_open(p->image, len, p->name, p->target, why, sizeof(why))) == NULL)
		tsv_fail(t, "program %s: %s", p->name, why);
	if ((p->sl = srclines_open(p->image, len, why, sizeof(why))) == NULL)
		tsv_fail(t, "program %s: %s", p->name, why);
	p->insts = codeobj_insts(p->co, &p->ninst);
	p->loops = loops_find(p->insts, p->ninst, &p->nloop);
	p->loop_of = xcalloc(p->ninst + 1, sizeof(*p->loop_of));
	for (i = 0; i <= p->ninst; i++)
		p->loop_of[i] = NONE;
	for (i = 0; i < p->nloop; i++) {
		size_t j;
		for (j = p->loops[i].head; j <= p->loops[i].tail; j++)
			p->loop_of[j] = i;
	}
}

static struct kernel *
kernel_get(const struct tsv *t, const char *name)
{
	static struct kernel *last;
	struct kernel *k;
	size_t i;

	if (last != NULL && strcmp(last->name, name) == 0)
		return last;
	for (i = 0; i < nkernel; i++)
		if (strcmp(kernels[i].name, name) == 0)
			return last = &kernels[i];
	for (i = nprog; i-- > 0;)
		if (strcmp(progs[i].name, name) == 0)
			break;
	if (i == (size_t)-1)
		tsv_fail(t, "kernel %s: no ##code line names its code object", name);
	if (progs[i].co == NULL)
		prog_open(t, &progs[i]);
	kernels = xreallocarray(kernels, nkernel + 1, sizeof(*kernels));
	k = &kernels[nkernel++];
	memset(k, 0, sizeof(*k));
	k->name = xstrdup(name);
	k->prog = &progs[i];
	k->pc = xcalloc(k->prog->ninst + 1, sizeof(*k->pc));
	k->ls = xcalloc(k->prog->nloop + 1, sizeof(*k->ls));
	for (i = 0; i < k->prog->nloop; i++)
		k->ls[i].min = UINT64_MAX;
	last = NULL;	/* kernels may have moved */
	return &kernels[nkernel - 1];
}

/* Issue cycles of an event --------------------------------------------------------- */

static struct event *
event_get(uint64_t id)
{
	void **slot = u64map_slot(&events, id);

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
	size_t lo = 0, hi = e->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (e->t[mid] <= x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return e->dropped + lo;
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
wave_get(uint64_t ev, uint64_t id, struct kernel *k)
{
	struct wave *w;

	struct wave **b = &waves[wave_bucket(ev, id)];

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
	nlive++;
	k->waves++;
	return w;
}

static void
wave_end(struct wave *w)
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
	for (pp = &waves[wave_bucket(w->event, w->id)]; *pp != w; pp = &(*pp)->next)
		;
	*pp = w->next;
	nlive--;
	free(w->iter);
	free(w);
}

/* Rows ----------------------------------------------------------------------------- */

static struct retire *
retire_get(struct pcstat *s, uint64_t load)
{
	size_t i;

	for (i = 0; i < s->nret; i++)
		if (s->ret[i].load == load)
			return &s->ret[i];
	s->ret = xreallocarray(s->ret, s->nret + 1, sizeof(*s->ret));
	memset(&s->ret[s->nret], 0, sizeof(s->ret[0]));
	s->ret[s->nret].load = load;
	s->ret[s->nret].lat_min = INT64_MAX;
	return &s->ret[s->nret++];
}

/* --wait-rows: one line per operation a wait row retired, as the row is read. */
static int64_t row_hidden, row_hidden_valu;	/* of the row being read */

static void
put_wait_row(const struct tsv *t, const char *load, uint64_t issue, int64_t lat, int64_t caused)
{
	printf("%s\t%s\t%s\t%s\t%s\t%s\t%s\t", t->field[col[ROW_KERNEL]], t->field[col[ROW_EVENT]],
	    t->field[col[ROW_WAVE]], t->field[col[ROW_PC]], t->field[col[ROW_TIME]], t->field[col[ROW_COST]], load);
	if (lat < 0)
		printf("-\t-\t");
	else
		printf("%" PRIu64 "\t%" PRId64 "\t", issue, lat);
	printf("%" PRId64 "\t%" PRId64 "\t%" PRId64 "\n", caused, row_hidden, row_hidden_valu);
}

/* "0x1314@803,0x131c@804": the operations a wait retired, each with its latency. */
static void
take_retired(const struct tsv *t, struct pcstat *s, uint64_t time, int64_t cost)
{
	const char *p = t->field[col[ROW_RETIRED]];
	struct retire *r, *young = NULL;
	uint64_t young_issue = 0;
	char *end;

	if (strcmp(p, "-") == 0) {
		s->empty++;
		s->empty_cycles += cost;
		if (view == V_WAIT_ROWS)
			put_wait_row(t, "-", 0, -1, cost);
		return;
	}
	for (;;) {
		uint64_t pc, issue;
		int64_t lat;
		if (p[0] != '0' || p[1] != 'x')
			tsv_fail(t, "retired: '%s' is not a list of pc@time", t->field[col[ROW_RETIRED]]);
		pc = strtoull(p, &end, 16);
		if (*end != '@' || end[1] < '0' || end[1] > '9')
			tsv_fail(t, "retired: '%s' is not a list of pc@time", t->field[col[ROW_RETIRED]]);
		issue = strtoull(end + 1, &end, 10);
		if (issue > time)
			tsv_fail(t, "retired: an operation issued at %" PRIu64 ", after the wait "
			    "(%" PRIu64 ")", issue, time);
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
		if (*end != ',')
			tsv_fail(t, "retired: '%s' is not a list of pc@time", t->field[col[ROW_RETIRED]]);
		p = end + 1;
	}
	young->caused += cost;
	if (view == V_WAIT_ROWS) {
		/* again, now that the youngest is known: the wait's cycles are its */
		for (p = t->field[col[ROW_RETIRED]];; p = end + 1) {
			char load[24];
			uint64_t pc = strtoull(p, &end, 16), issue = strtoull(end + 1, &end, 10);
			snprintf(load, sizeof(load), "0x%" PRIx64, pc);
			put_wait_row(t, load, issue, (int64_t)(time - issue),
			    issue == young_issue && pc == young->load ? cost : 0);
			if (*end != ',')
				break;
		}
	}
}

static void
record(struct tsv *t)
{
	uint64_t evid, wid, time, pc;
	int64_t delta, cost, hid, hidv;
	const char *token = t->field[col[ROW_TOKEN]], *class = t->field[col[ROW_CLASS]];
	struct kernel *k;
	struct wave *w;
	struct event *e;
	struct pcstat *s;
	struct prog *p;
	size_t idx, l;
	enum cause cause;
	int is_end;

	if (!opt_untraced && strcmp(class, "untraced") == 0)
		return;		/* as stall-table: a wave without instruction tokens is left out */
	evid = tsv_u64(t, col[ROW_EVENT]);
	wid = tsv_u64(t, col[ROW_WAVE]);
	time = tsv_u64(t, col[ROW_TIME]);
	delta = tsv_i64(t, col[ROW_DELTA]);
	cost = tsv_i64(t, col[ROW_COST]);
	if (delta < 0 || (uint64_t)delta > time)
		tsv_fail(t, "delta: %" PRId64 " is not a time before the row's", delta);
	if (cost < 0)
		tsv_fail(t, "cost: %" PRId64 " is negative", cost);
	cause = cause_by_name(t->field[col[ROW_CAUSE]]);
	k = kernel_get(t, t->field[col[ROW_KERNEL]]);
	p = k->prog;
	idx = p->ninst;
	if (!tsv_dash(t, col[ROW_PC])) {
		pc = tsv_u64(t, col[ROW_PC]);
		if ((idx = inst_index(p->insts, p->ninst, pc)) == NONE)
			idx = p->ninst;
	}
	s = &k->pc[idx];
	w = wave_get(evid, wid, k);
	if (w->k != k)
		tsv_fail(t, "wave %" PRIu64 " of event %" PRIu64 " is of kernel %s, then %s",
		    wid, evid, w->k->name, k->name);
	e = event_get(evid);
	is_end = strcmp(token, "WAVE_END") == 0;

	/* hidden: the cycles of the row's wait in which other waves issued; a wait moved
	 * onto an earlier row (s_barrier) is its first delta - cost cycles */
	if (cost < delta && w->moved_to != NONE) {
		uint64_t a = time - (uint64_t)delta, m = (uint64_t)(delta - cost);
		uint64_t cut = a + m < time - 1 ? a + m : time - 1;
		int64_t h = issued_in(&e->any, a, cut), hv = issued_in(&e->valu, a, cut);
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
	row_hidden = hid;
	row_hidden_valu = hidv;
	k->hidden += hid;
	k->hidden_valu += hidv;
	if (!is_end && strcmp(class, "untraced") != 0) {
		ring_add(&e->any, time);
		if (strncmp(class, "valu", 4) == 0 || strcmp(class, "vinterp") == 0)
			ring_add(&e->valu, time);
	}

	s->hits++;
	s->cycles += cost;
	s->cyc[cause] += cost;
	if (cost > s->maxcost)
		s->maxcost = cost;
	k->hits++;
	k->cycles += cost;
	if (strcmp(class, "waitcnt") == 0 && col[ROW_RETIRED] >= 0)
		take_retired(t, s, time, cost);

	if ((l = p->loop_of[idx]) != NONE) {
		k->ls[l].cycles += cost;
		k->ls[l].cyc[cause] += cost;
		/* an iteration starts where the wave enters and where it takes the back edge
		 * (whose target may be an instruction that is never traced, s_delay_alu) */
		if (w->prev_idx == NONE || p->loop_of[w->prev_idx] != l)
			w->iter[l]++;
		if (idx == p->loops[l].tail && strcmp(token, "INST:branch_taken") == 0)
			w->iter[l]++;
	}
	w->prev_idx = idx;
	w->prev_time = time;
	nrows++;
	if (is_end)
		wave_end(w);
}

static void
header(const struct tsv *t)
{
	tsv_cols(t, tsv_row_col, ROW_NCOL, col, TSV_COL(ROW_EVENT) | TSV_COL(ROW_WAVE) |
	    TSV_COL(ROW_KERNEL) | TSV_COL(ROW_PC) | TSV_COL(ROW_TIME) | TSV_COL(ROW_DELTA) |
	    TSV_COL(ROW_TOKEN) | TSV_COL(ROW_CLASS));
	if (col[ROW_COST] < 0 || col[ROW_CAUSE] < 0)
		tsv_fail(t, "no cost and cause columns: not stall-attr output");
	if (col[ROW_RETIRED] < 0 && (view == V_WAITS || view == V_LOADS || view == V_HINTS ||
	    view == V_WAIT_ROWS))
		tsv_fail(t, "no retired column: rows from a stall-attr older than --%s needs",
		    view_name[view]);
}

static void
annotate_input(const char *path)
{
	struct tsv t;
	const char *name = path;
	int header_seen = 0;
	struct wave *w;
	size_t i;

	tsv_open_path(&t, path);
	name = t.path;
	for (;;) {
		enum tsv_kind kind = tsv_next(&t);
		if (kind == TSV_EOF)
			break;
		if (kind == TSV_META)
			take_meta(&t);
		else if (kind == TSV_HEADER) {
			header(&t);
			header_seen = 1;
		} else
			record(&t);
	}
	if (!header_seen)
		errx(2, "%s: no '#' column header line: not a row stream", name);
	for (i = 0; i < WAVE_BUCKETS && nlive > 0; i++)
		while ((w = waves[i]) != NULL)
			wave_end(w);	/* a wave without its WAVE_END row ends with its input */
	tsv_close(&t);
}

/* Views ---------------------------------------------------------------------------- */

static double
pct(int64_t part, int64_t whole)
{
	return whole > 0 ? 100.0 * (double)part / (double)whole : 0.0;
}

static enum cause
dominant(const int64_t cyc[NCAUSE])
{
	enum cause c, best = CAUSE_NONE;

	for (c = 0; c < NCAUSE; c++)
		if (cyc[c] > 0 && (best == CAUSE_NONE || cyc[c] > cyc[best]))
			best = c;
	return best;
}

static const char *
inst_text(const struct prog *p, size_t idx)
{
	return idx < p->ninst ? p->insts[idx].text : "(no instruction)";
}

static void
put_pc(const struct prog *p, size_t idx)
{
	if (idx < p->ninst)
		printf("0x%" PRIx64, p->insts[idx].pc);
	else
		printf("-");
}

struct srcline {
	const char *file;
	int line;
	int64_t cycles;
	uint64_t hits, insts;
	int64_t cyc[NCAUSE];
};

static int
srcline_cmp(const void *a, const void *b)
{
	const struct srcline *x = a, *y = b;
	int c;

	if (x->cycles != y->cycles)
		return x->cycles > y->cycles ? -1 : 1;
	if ((c = strcmp(x->file, y->file)) != 0)
		return c;
	return (x->line > y->line) - (x->line < y->line);
}

/* The kernel's cycles per source line, most first; *n lines, malloc'd. */
static struct srcline *
by_line(const struct kernel *k, size_t *np)
{
	const struct prog *p = k->prog;
	struct srcline *v = NULL;
	size_t n = 0, i, j;
	enum cause c;

	for (i = 0; i <= p->ninst; i++) {
		const char *file = "??";
		int line = 0;
		if (k->pc[i].hits == 0)
			continue;
		if (i < p->ninst)
			srclines_at(p->sl, p->insts[i].pc, &file, &line);
		for (j = 0; j < n; j++)
			if (v[j].line == line && strcmp(v[j].file, file) == 0)
				break;
		if (j == n) {
			v = xreallocarray(v, n + 1, sizeof(*v));
			memset(&v[n], 0, sizeof(v[n]));
			v[n].file = file;
			v[n].line = line;
			n++;
		}
		v[j].cycles += k->pc[i].cycles;
		v[j].hits += k->pc[i].hits;
		v[j].insts++;
		for (c = 0; c < NCAUSE; c++)
			v[j].cyc[c] += k->pc[i].cyc[c];
	}
	if (n > 1)
		qsort(v, n, sizeof(*v), srcline_cmp);
	*np = n;
	return v;
}

static void
view_lines(struct kernel *k)
{
	size_t n, j;
	struct srcline *v = by_line(k, &n);

	for (j = 0; j < n; j++)
		printf("%s\t%s:%d\t%" PRId64 "\t%.2f\t%" PRIu64 "\t%" PRIu64 "\t%s\n", k->name,
		    v[j].file, v[j].line, v[j].cycles, pct(v[j].cycles, k->cycles), v[j].hits,
		    v[j].insts, cause_name(dominant(v[j].cyc)));
	free(v);
}

/* The text of a line of a source file, when it can be read: cached, one file at a time. */
static const char *
source_text(const char *file, int line)
{
	static char *name, *buf;
	static size_t len;
	const char *s, *e;
	FILE *fp;
	int n;

	if (line <= 0)
		return NULL;
	if (name == NULL || strcmp(name, file) != 0) {
		free(name);
		free(buf);
		name = xstrdup(file);
		buf = NULL;
		len = 0;
		if ((fp = fopen(file, "r")) != NULL) {
			size_t cap = 0;
			char tmp[4096];
			size_t got;
			while ((got = fread(tmp, 1, sizeof(tmp), fp)) > 0 && len < (1u << 24)) {
				if (len + got + 1 > cap) {
					cap = 2 * (len + got + 1);
					buf = xreallocarray(buf, cap, 1);
				}
				memcpy(buf + len, tmp, got);
				len += got;
			}
			if (buf)
				buf[len] = '\0';
			fclose(fp);
		}
	}
	if (buf == NULL || memchr(buf, '\0', len) != NULL)
		return NULL;
	for (s = buf, n = 1; n < line; n++) {
		if ((s = strchr(s, '\n')) == NULL)
			return NULL;
		s++;
	}
	e = strchr(s, '\n');
	{
		static char out[256];
		size_t l = e ? (size_t)(e - s) : strlen(s);
		if (l >= sizeof(out))
			l = sizeof(out) - 1;
		memcpy(out, s, l);
		out[l] = '\0';
		for (n = 0; out[n]; n++)
			if (out[n] == '\t')
				out[n] = ' ';
		return out;
	}
}

static void
view_annotate(struct kernel *k)
{
	struct prog *p = k->prog;
	const char *pfile = NULL;
	int pline = -1;
	size_t i, l, n, j;
	struct srcline *v;

	printf("## %s: %" PRIu64 " waves, %" PRIu64 " rows, %" PRId64 " cycles; percent is of "
	    "the kernel's cycles\n", k->name, k->waves, k->hits, k->cycles);
	printf("%8s %10s %8s  %-12s %-8s %s\n", "percent", "cycles", "hits", "cause", "pc",
	    "instruction");
	for (i = 0; i <= p->ninst; i++) {
		const struct pcstat *s = &k->pc[i];
		const char *file = "??";
		int line = 0;
		char text[512];
		if (i == p->ninst && s->hits == 0)
			break;
		if (i < p->ninst) {
			srclines_at(p->sl, p->insts[i].pc, &file, &line);
			if (pfile == NULL || line != pline || strcmp(file, pfile) != 0) {
				const char *src = source_text(file, line);
				printf("%42s%s:%d%s%s\n", "", file, line, src ? "  " : "",
				    src ? src : "");
				pfile = file;
				pline = line;
			}
		}
		if (i < p->ninst && p->insts[i].cls == IC_BRANCH && p->insts[i].target >= 0)
			snprintf(text, sizeof(text), "%s 0x%" PRIx64, p->insts[i].mnemonic,
			    (uint64_t)p->insts[i].target);
		else
			snprintf(text, sizeof(text), "%s", inst_text(p, i));
		printf("%7.2f%% %10" PRId64 " %8" PRIu64 "  %-12s ", pct(s->cycles, k->cycles),
		    s->cycles, s->hits, s->hits ? cause_name(dominant(s->cyc)) : "-");
		if (i < p->ninst)
			printf("0x%-6" PRIx64 " %s", p->insts[i].pc, text);
		else
			printf("%-8s %s", "-", text);
		if ((l = i < p->ninst ? p->loop_of[i] : NONE) != NONE && p->loops[l].tail == i) {
			const struct loopstat *ls = &k->ls[l];
			printf("   <- loop back edge to 0x%" PRIx64 "%s", p->insts[p->loops[l].head].pc,
			    p->loops[l].spin ? " (spin)" : "");
			if (ls->waves)
				printf(": %" PRIu64 " iterations in %" PRIu64 " waves", ls->iters,
				    ls->waves);
		}
		printf("\n");
	}
	printf("%7.2f%% %10" PRId64 " %8" PRIu64 "  total\n", k->cycles ? 100.0 : 0.0,
	    k->cycles, k->hits);
	/* perf annotate's summary: the source lines, most cycles first */
	v = by_line(k, &n);
	printf("## %s by source line\n", k->name);
	for (j = 0; j < n; j++)
		printf("%7.2f%% %10" PRId64 " %8" PRIu64 "  %-12s %s:%d\n", pct(v[j].cycles, k->cycles),
		    v[j].cycles, v[j].hits, cause_name(dominant(v[j].cyc)), v[j].file, v[j].line);
	free(v);
}

static void
view_loops(struct kernel *k)
{
	struct prog *p = k->prog;
	int64_t in = 0;
	size_t l;

	for (l = 0; l < p->nloop; l++)
		in += k->ls[l].cycles;
	printf("##kernel\t%s\tcycles\t%" PRId64 "\tloops\t%zu\tin loops\t%" PRId64
	    "\trest\t%" PRId64 "\n", k->name, k->cycles, p->nloop, in, k->cycles - in);
	for (l = 0; l < p->nloop; l++) {
		const struct loopstat *s = &k->ls[l];
		printf("%s\t0x%" PRIx64 "\t0x%" PRIx64 "\t%zu\t%" PRIu64 "\t%" PRIu64 "\t",
		    k->name, p->insts[p->loops[l].head].pc, p->insts[p->loops[l].tail].pc,
		    p->loops[l].tail - p->loops[l].head + 1, s->waves, s->iters);
		if (s->waves)
			printf("%" PRIu64 "\t%" PRIu64 "\t", s->min, s->max);
		else
			printf("-\t-\t");
		printf("%" PRId64 "\t%.2f\t", s->cycles, pct(s->cycles, k->cycles));
		if (s->iters)
			printf("%.2f\t", (double)s->cycles / (double)s->iters);
		else
			printf("-\t");
		printf("%s\t%s\n", s->cycles ? cause_name(dominant(s->cyc)) : "-",
		    p->loops[l].spin ? "spin" : "-");
	}
}

static int
retire_cmp(const void *a, const void *b)
{
	const struct retire *x = a, *y = b;

	return (x->load > y->load) - (x->load < y->load);
}

static void
view_waits(struct kernel *k)
{
	struct prog *p = k->prog;
	size_t i, j;

	for (i = 0; i < p->ninst; i++) {
		struct pcstat *s = &k->pc[i];
		if (p->insts[i].cls != IC_WAITCNT || s->hits == 0)
			continue;
		if (s->nret > 1)
			qsort(s->ret, s->nret, sizeof(*s->ret), retire_cmp);
		for (j = 0; j < s->nret; j++) {
			const struct retire *r = &s->ret[j];
			size_t li = inst_index(p->insts, p->ninst, r->load);
			printf("%s\t0x%" PRIx64 "\t0x%" PRIx64 "\t%" PRIu64 "\t%" PRId64 "\t%.1f\t%"
			    PRId64 "\t%" PRId64 "\t%s\n", k->name, p->insts[i].pc, r->load, r->n,
			    r->lat_min, (double)r->lat_sum / (double)r->n, r->lat_max, r->caused,
			    li != NONE ? p->insts[li].text : "(no instruction)");
		}
		if (s->empty)
			printf("%s\t0x%" PRIx64 "\t-\t%" PRIu64 "\t-\t-\t-\t%" PRId64 "\t%s\n",
			    k->name, p->insts[i].pc, s->empty, s->empty_cycles, "(nothing retired)");
	}
}

static void
view_loads(struct kernel *k)
{
	struct prog *p = k->prog;
	size_t i, j, w;

	for (i = 0; i < p->ninst; i++) {
		uint64_t n = 0, waits = 0;
		int64_t caused = 0, lat = 0;
		for (w = 0; w < p->ninst; w++) {
			const struct pcstat *s = &k->pc[w];
			for (j = 0; j < s->nret; j++)
				if (s->ret[j].load == p->insts[i].pc) {
					waits++;
					n += s->ret[j].n;
					caused += s->ret[j].caused;
					lat += s->ret[j].lat_sum;
				}
		}
		if (n == 0)
			continue;
		printf("%s\t0x%" PRIx64 "\t%" PRIu64 "\t%" PRIu64 "\t%" PRId64 "\t%.2f\t%.1f\t%s\n",
		    k->name, p->insts[i].pc, waits, n, caused, pct(caused, k->cycles),
		    (double)lat / (double)n, p->insts[i].text);
	}
}

static void
view_hidden(struct kernel *k)
{
	struct prog *p = k->prog;
	size_t i;

	printf("##kernel\t%s\tcycles\t%" PRId64 "\thidden\t%" PRId64 "\texposed\t%" PRId64
	    "\thidden_valu\t%" PRId64 "\n", k->name, k->cycles, k->hidden, k->cycles - k->hidden,
	    k->hidden_valu);
	for (i = 0; i <= p->ninst; i++) {
		const struct pcstat *s = &k->pc[i];
		if (s->hits == 0)
			continue;
		printf("%s\t", k->name);
		put_pc(p, i);
		printf("\t%" PRIu64 "\t%" PRId64 "\t%" PRId64 "\t%" PRId64 "\t%.2f\t%s\t%s\t%"
		    PRId64 "\n", s->hits, s->cycles, s->hidden, s->cycles - s->hidden,
		    pct(s->hidden, s->cycles), cause_name(dominant(s->cyc)), inst_text(p, i),
		    s->hidden_valu);
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

/* Is pc the target of some branch of the program? */
static int
branch_target(const struct prog *p, uint64_t pc)
{
	size_t i;

	for (i = 0; i < p->ninst; i++)
		if (p->insts[i].cls == IC_BRANCH && p->insts[i].target == (int64_t)pc)
			return 1;
	return 0;
}

/* The instructions after the wait at index wi, up to the first that reads what the load
 * at li wrote, that do not read it either: ones that could go before the wait. */
static size_t
independent_after(const struct prog *p, size_t li, size_t wi, char *list, size_t lsz)
{
	struct regs ld, lu, d, u;
	size_t i, n = 0, len = 0;

	inst_regs(&p->insts[li], &ld, &lu);
	if (regs_empty(&ld))
		return 0;
	list[0] = '\0';
	for (i = wi + 1; i < p->ninst; i++) {
		const struct inst *in = &p->insts[i];
		if (in->cls == IC_DELAY_ALU || in->cls == IC_CLAUSE)
			continue;
		if (in->cls == IC_BRANCH || in->cls == IC_JUMP || in->cls == IC_BARRIER ||
		    in->cls == IC_ENDPGM || in->cls == IC_WAITCNT || is_mem(in->cls) ||
		    branch_target(p, in->pc))
			break;
		inst_regs(in, &d, &u);
		if (regs_overlap(&ld, &u) || regs_overlap(&ld, &d))
			break;
		n++;
		if (len + 24 < lsz)
			len += (size_t)snprintf(list + len, lsz - len, "%s0x%" PRIx64,
			    n > 1 ? "," : "", in->pc);
	}
	return n;
}

static uint64_t nhints;

static void
hint(const struct kernel *k, const char *rule, uint64_t pc, int64_t cycles, const char *fmt,
    ...) __attribute__((format(printf, 5, 6)));

static void
hint(const struct kernel *k, const char *rule, uint64_t pc, int64_t cycles, const char *fmt,
    ...)
{
	va_list ap;

	printf("%s\t%s\t0x%" PRIx64 "\t%" PRId64 "\t", k->name, rule, pc, cycles);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	nhints++;
}

static void
view_hints(struct kernel *k)
{
	struct prog *p = k->prog;
	size_t i, j, w;
	char list[256];

	/* hoist: a load whose waits cost much, with independent work after its wait */
	for (i = 0; i < p->ninst; i++) {
		int64_t caused = 0, best = -1;
		size_t bw = NONE, n;
		if (!is_load(p->insts[i].cls))
			continue;
		for (w = 0; w < p->ninst; w++)
			for (j = 0; j < k->pc[w].nret; j++)
				if (k->pc[w].ret[j].load == p->insts[i].pc) {
					caused += k->pc[w].ret[j].caused;
					if (k->pc[w].ret[j].caused > best) {
						best = k->pc[w].ret[j].caused;
						bw = w;
					}
				}
		if (bw == NONE || pct(caused, k->cycles) < opt_hint_min)
			continue;
		if ((n = independent_after(p, i, bw, list, sizeof(list))) < 2)
			continue;
		hint(k, "hoist", p->insts[i].pc, caused, "its waits cost %.2f%% of the kernel; "
		    "%zu instructions after the wait at 0x%" PRIx64 " (%s) do not use what it "
		    "loads: issue them before that wait, or the load earlier", pct(caused, k->cycles),
		    n, p->insts[bw].pc, list);
	}
	/* waitcnt: an s_waitcnt that never held its wave */
	for (i = 0; i < p->ninst; i++) {
		const struct pcstat *s = &k->pc[i];
		if (p->insts[i].cls != IC_WAITCNT || s->hits == 0)
			continue;
		if (s->empty == s->hits)
			hint(k, "waitcnt", p->insts[i].pc, s->cycles, "%" PRIu64 " times issued, "
			    "never with an operation outstanding: remove it", s->hits);
		else if (s->maxcost <= 1)
			hint(k, "waitcnt", p->insts[i].pc, s->cycles, "%" PRIu64 " times issued, "
			    "never waited more than 1 cycle: merge it into a later wait", s->hits);
	}
	/* vopd: adjacent independent VALUs that both ran */
	for (i = 0; i + 1 < p->ninst; i++) {
		if (k->pc[i].hits == 0 || k->pc[i + 1].hits == 0 ||
		    !vopd_pair(&p->insts[i], &p->insts[i + 1]))
			continue;
		hint(k, "vopd", p->insts[i].pc, k->pc[i].cycles + k->pc[i + 1].cycles,
		    "%s and %s (0x%" PRIx64 ") are independent and both have a v_dual form: "
		    "one VOPD issue instead of two, %" PRIu64 " times", p->insts[i].mnemonic,
		    p->insts[i + 1].mnemonic, p->insts[i + 1].pc, k->pc[i].hits);
		i++;
	}
	/* lds: LDS instructions whose issue stalls */
	for (i = 0; i < p->ninst; i++) {
		const struct pcstat *s = &k->pc[i];
		if ((p->insts[i].cls != IC_LDS_LOAD && p->insts[i].cls != IC_LDS_STORE) ||
		    s->hits == 0 || s->cyc[CAUSE_LDS_QUEUE] < 4 * (int64_t)s->hits)
			continue;
		hint(k, "lds", p->insts[i].pc, s->cyc[CAUSE_LDS_QUEUE], "its issue stalled %.1f "
		    "cycles a time (%" PRIu64 " times): bank conflicts likely, check the "
		    "addresses of its lanes", (double)s->cyc[CAUSE_LDS_QUEUE] / (double)s->hits,
		    s->hits);
	}
	/* spin: a loop that only polls */
	for (i = 0; i < p->nloop; i++) {
		const struct loopstat *s = &k->ls[i];
		if (!p->loops[i].spin || s->iters == 0)
			continue;
		hint(k, "spin", p->insts[p->loops[i].head].pc, s->cycles, "a loop that only "
		    "polls (to 0x%" PRIx64 "): %" PRIu64 " iterations in %" PRIu64 " waves, "
		    "%.2f%% of the kernel; wait on an event or s_sleep longer",
		    p->insts[p->loops[i].tail].pc, s->iters, s->waves, pct(s->cycles, k->cycles));
	}
}

static void
report(void)
{
	size_t i;

	if (view != V_WAIT_ROWS)
		printf("##stall-annotate\t%s\n", view_name[view]);
	switch (view) {
	case V_LINES:
		printf("#kernel\tsource\tcycles\tpercent\thits\tinsts\tcause\n");
		break;
	case V_LOOPS:
		printf("#kernel\thead\ttail\tinsts\twaves\titerations\tmin\tmax\tcycles\tpercent"
		    "\tper_iteration\tcause\tspin\n");
		break;
	case V_WAITS:
		printf("#kernel\twait\tload\thits\tlatency_min\tlatency_mean\tlatency_max"
		    "\tcaused\tinst\n");
		break;
	case V_LOADS:
		printf("#kernel\tload\twaits\tretired\tcaused\tpercent\tlatency_mean\tinst\n");
		break;
	case V_HIDDEN:
		printf("#kernel\tpc\thits\tcycles\thidden\texposed\thidden_percent\tcause\tinst"
		    "\thidden_valu\n");
		break;
	case V_HINTS:
		printf("#kernel\trule\tpc\tcycles\tadvice\n");
		break;
	case V_ANNOTATE:
	case V_WAIT_ROWS:
		break;
	}
	for (i = 0; i < nkernel; i++) {
		switch (view) {
		case V_LINES: view_lines(&kernels[i]); break;
		case V_ANNOTATE: view_annotate(&kernels[i]); break;
		case V_LOOPS: view_loops(&kernels[i]); break;
		case V_WAITS: view_waits(&kernels[i]); break;
		case V_LOADS: view_loads(&kernels[i]); break;
		case V_HIDDEN: view_hidden(&kernels[i]); break;
		case V_HINTS: view_hints(&kernels[i]); break;
		case V_WAIT_ROWS: break;
		}
	}
}

int
main(int argc, char *argv[])
{
	int ch, i, nview = 0;
	char *end;

	while ((ch = cli_getopt(argc, argv, &cli)) != -1) {
		switch (ch) {
		case OPT_ANNOTATE: view = V_ANNOTATE; nview++; break;
		case OPT_LOADS: view = V_LOADS; nview++; break;
		case OPT_HIDDEN: view = V_HIDDEN; nview++; break;
		case OPT_HINTS: view = V_HINTS; nview++; break;
		case OPT_LINES: view = V_LINES; nview++; break;
		case OPT_LOOPS: view = V_LOOPS; nview++; break;
		case OPT_WAITS: view = V_WAITS; nview++; break;
		case OPT_WAIT_ROWS: view = V_WAIT_ROWS; nview++; break;
		case OPT_UNTRACED: opt_untraced = 1; break;
		case OPT_HINT_MIN:
			opt_hint_min = strtod(optarg, &end);
			if (end == optarg || *end != '\0' || !(opt_hint_min >= 0 &&
			    opt_hint_min <= 100))
				errx(2, "--hint-min is not a percent from 0 to 100: %s", optarg);
			break;
		default:
			cli_usage(&cli);
		}
	}
	cli_operands(&cli, &argc, &argv, 0, -1);
	if (nview > 1)
		errx(2, "one view at a time");

	if (view == V_WAIT_ROWS)
		printf("##stall-annotate\twait-rows\n#kernel\tevent\twave\twait\ttime\tcost\tload"
		    "\tissue\tlatency\tcaused\thidden\thidden_valu\n");
	if (argc == 0)
		annotate_input("-");
	for (i = 0; i < argc; i++)
		annotate_input(argv[i]);
	if (nrows == 0)
		errx(2, "%s: no rows", argc ? argv[argc - 1] : "stdin");
	report();
	if (view == V_WAITS || view == V_LOADS || view == V_WAIT_ROWS) {
		int any = 0;
		size_t k, j;
		for (k = 0; k < nkernel; k++)
			for (j = 0; j < kernels[k].prog->ninst; j++)
				if (kernels[k].prog->insts[j].cls == IC_WAITCNT && kernels[k].pc[j].hits)
					any = 1;
		if (!any) {
			fflush(stdout);
			errx(2, "%s: no s_waitcnt was executed", argc ? argv[argc - 1] : "stdin");
		}
	}
	if (fflush(stdout) != 0 || ferror(stdout))
		err(2, "stdout");
	return 0;
}
