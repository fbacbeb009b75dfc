/* dispatch: rows by their dispatch (dispatch.h). */
#include <err.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cause.h"
#include "dispatch.h"
#include "json.h"
#include "profile.h"
#include "tsv.h"
#include "util.h"

struct dispatch {
	int64_t id;		/* -1: unknown */
	char *kernel;
	char *key;		/* the kernel name the profile counts the dispatch under (kept
				 * where it is: callers may hold it) */
};

struct evdisp {
	uint64_t event;
	int64_t dispatch;
};

struct dispatches {
	long long only;
	int by;
	struct dispatch *d;
	size_t nd;
	struct evdisp *ev;
	size_t nev, last;
	const struct profile *prof;	/* whose ## lines say the events' dispatches */
	size_t metas_seen;
	uint64_t rows;
};

struct dispatches *
dispatch_new(long long only, int by)
{
	struct dispatches *ds = xcalloc(1, sizeof(*ds));

	ds->only = only;
	ds->by = by;
	return ds;
}

void
dispatch_free(struct dispatches *ds)
{
	size_t i;

	if (ds == NULL)
		return;
	for (i = 0; i < ds->nd; i++) {
		free(ds->d[i].kernel);
		free(ds->d[i].key);
	}
	free(ds->d);
	free(ds->ev);
	free(ds);
}

void
dispatch_event(struct dispatches *ds, uint64_t event, int64_t dispatch)
{
	ds->ev = xreallocarray(ds->ev, ds->nev + 1, sizeof(*ds->ev));
	ds->ev[ds->nev].event = event;
	ds->ev[ds->nev++].dispatch = dispatch;
}

static int64_t
event_dispatch(struct dispatches *ds, uint64_t event)
{
	size_t i;

	/* rows come in runs of one buffer: the last match first; a later word wins */
	if (ds->last < ds->nev && ds->ev[ds->last].event == event)
		return ds->ev[ds->last].dispatch;
	for (i = ds->nev; i-- > 0;)
		if (ds->ev[i].event == event) {
			ds->last = i;
			return ds->ev[i].dispatch;
		}
	return -1;
}

const char *
dispatch_kernel(struct dispatches *ds, uint64_t event, const char *kernel)
{
	int64_t d = event_dispatch(ds, event);
	size_t i;

	if (!ds->by) {
		if (ds->only >= 0 && d != ds->only)
			return NULL;
		ds->rows++;
		return kernel;
	}
	ds->rows++;
	for (i = ds->nd; i-- > 0;)
		if (ds->d[i].id == d && strcmp(ds->d[i].kernel, kernel) == 0)
			return ds->d[i].key;
	ds->d = xreallocarray(ds->d, ds->nd + 1, sizeof(*ds->d));
	ds->d[ds->nd].id = d;
	ds->d[ds->nd].kernel = xstrdup(kernel);
	if (asprintf(&ds->d[ds->nd].key, "%zu", ds->nd) < 0)
		err(2, NULL);
	return ds->d[ds->nd++].key;
}

void
dispatch_watch(struct dispatches *ds, const struct profile *p)
{
	ds->prof = p;
}

static int
is_number(const char *s)
{
	size_t n = strspn(s, "0123456789");

	return n > 0 && n < 19 && s[n] == '\0';
}

/* ##event EVENT SE KERNEL TAG ITRACE SA WGP SIMD FILE DISPATCH, as the profile kept it;
 * t: the row that made them needed, which a malformed one is told at */
static void
take_metas(struct dispatches *ds, const struct tsv *t)
{
	const struct profile *p = ds->prof;

	for (; ds->metas_seen < p->nmeta; ds->metas_seen++) {
		char *line, *s, *f[12];
		size_t n = 0;
		if (strncmp(p->metas[ds->metas_seen], "##event\t", 8) != 0)
			continue;
		line = s = xstrdup(p->metas[ds->metas_seen]);
		while (n < 12 && (f[n] = strsep(&s, "\t")) != NULL)
			n++;
		if (n < 2 || !is_number(f[1]) || (n > 10 && strcmp(f[10], "-") != 0 &&
		    !is_number(f[10])))
			tsv_fail(t, "an ##event line above: its event or dispatch is not a number");
		dispatch_event(ds, strtoull(f[1], NULL, 10), n > 10 && strcmp(f[10], "-") != 0 ?
		    (int64_t)strtoull(f[10], NULL, 10) : -1);
		free(line);
	}
}

const char *
dispatch_row_hook(void *arg, const struct tsv *t, const char *kernel)
{
	struct dispatches *ds = arg;
	int c = tsv_col(t, "event");

	if (c < 0)
		tsv_fail(t, "a row without an event column: no dispatch to tell");
	if (ds->prof != NULL && ds->prof->nmeta > ds->metas_seen)
		take_metas(ds, t);
	return dispatch_kernel(ds, tsv_u64(t, c), kernel);
}

uint64_t
dispatch_rows(const struct dispatches *ds)
{
	return ds->rows;
}

static int
cmp_dispatch(const void *a, const void *b)
{
	const struct dispatch *x = a, *y = b;

	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return strcmp(x->kernel, y->kernel);
}

void
dispatch_put(struct dispatches *ds, const struct profile *prof, int pretty, FILE *fp)
{
	size_t i, j;

	if (ds->nd > 0)
		qsort(ds->d, ds->nd, sizeof(*ds->d), cmp_dispatch);
	if (pretty)
		fprintf(fp, "%8s  %-24s  %6s  %12s  %12s  %-12s  %6s  %-8s  %s\n", "Dispatch",
		    "Kernel", "Waves", "Cycles", "Wall", "Top cause", "Share", "Hottest",
		    "Instruction");
	else
		fprintf(fp, "#dispatch\tkernel\twaves\tcycles\twall\tcause\tcause_pct\tpc\tinst\n");
	for (i = 0; i < ds->nd; i++) {
		long k = profile_find(prof, ds->d[i].key);
		const struct profile_kernel *pk;
		const struct profile_line *hot = NULL;
		char id[24], *name, *inst;
		int c;
		if (k < 0)
			continue;
		pk = &prof->kernels[k];
		for (j = 0; j < pk->nline; j++)
			if (hot == NULL || pk->lines[j]->cycles > hot->cycles)
				hot = pk->lines[j];
		c = profile_dominant(pk->cyc, pk->hit);
		if (ds->d[i].id < 0)
			snprintf(id, sizeof(id), "-");
		else
			snprintf(id, sizeof(id), "%" PRId64, ds->d[i].id);
		name = pretty ? text_printable(ds->d[i].kernel) : xstrdup(ds->d[i].kernel);
		inst = hot == NULL ? xstrdup("-") : pretty ? text_printable(hot->inst) :
		    xstrdup(hot->inst);
		if (pretty)
			fprintf(fp, "%8s  %-24s  %6" PRIu64 "  %12" PRId64 "  %12" PRId64 "  %-12s  "
			    "%5.1f%%  %-8s  %s\n", id, name, pk->waves, pk->cycles, pk->wall,
			    cause_info[c].name, profile_pct(pk->cyc[c], pk->cycles),
			    hot ? hot->pc : "-", inst);
		else
			fprintf(fp, "%s\t%s\t%" PRIu64 "\t%" PRId64 "\t%" PRId64 "\t%s\t%.2f\t%s\t%s\n",
			    id, name, pk->waves, pk->cycles, pk->wall, cause_info[c].name,
			    profile_pct(pk->cyc[c], pk->cycles), hot ? hot->pc : "-", inst);
		free(name);
		free(inst);
	}
}
