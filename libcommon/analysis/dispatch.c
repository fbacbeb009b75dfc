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

/* dispatch(es) of --by-dispatch: each a kernel of the profile */
#define DISPATCH_MAX PROFILE_MAX_KERNELS

struct dispatch {
	int64_t id;		/* -1: unknown */
	char *kernel;
	char *key;		/* the kernel name the profile counts the dispatch under (kept
				 * where it is: callers may hold it) */
	size_t next;		/* the next of the same hash, + 1 (0: none) */
};

/* Both by hash, so that many dispatches and buffers cost no more than their number: an
 * event's dispatch + 2 (never NULL), a (dispatch, kernel)'s first index + 1. */
struct dispatches {
	long long only;
	int by;
	const char *kernel;	/* with by: only this kernel's rows, NULL: every kernel's */
	struct dispatch *d;
	size_t nd, capd, lastd;
	struct u64map ev, byname;
	uint64_t last_event;
	int64_t last_dispatch;
	int have_last;
	const char *path;	/* of the rows being read, for the message */
	const struct profile *prof;	/* whose ## lines say the events' dispatches */
	size_t metas_seen;
	uint64_t rows;
	const char *bad;	/* dispatch_of_event's error, the first */
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
dispatch_only_kernel(struct dispatches *ds, const char *kernel)
{
	ds->kernel = kernel;
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
	u64map_free(&ds->ev);
	u64map_free(&ds->byname);
	free(ds);
}

void
dispatch_event(struct dispatches *ds, uint64_t event, int64_t dispatch)
{
	/* a later word on an event wins */
	*u64map_slot(&ds->ev, event) = (void *)(uintptr_t)(dispatch + 2);
	ds->have_last = 0;
}

static int64_t
event_dispatch(struct dispatches *ds, uint64_t event)
{
	void **slot;

	/* rows come in runs of one buffer */
	if (ds->have_last && ds->last_event == event)
		return ds->last_dispatch;
	slot = u64map_slot(&ds->ev, event);
	if (*slot == NULL)
		*slot = (void *)(uintptr_t)1;	/* no word: dispatch -1 */
	ds->last_event = event;
	ds->last_dispatch = (int64_t)((uintptr_t)*slot - 2);
	ds->have_last = 1;
	return ds->last_dispatch;
}

int
dispatch_kernel(struct dispatches *ds, uint64_t event, const char *kernel, const char **key,
    char *why, size_t whysz)
{
	int64_t d = event_dispatch(ds, event);
	void **slot;
	size_t i;

	if (!ds->by) {
		if (ds->only >= 0 && d != ds->only)
			return 0;
		ds->rows++;
		*key = kernel;
		return 1;
	}
	if (ds->kernel != NULL && strcmp(kernel, ds->kernel) != 0)
		return 0;
	if (ds->lastd < ds->nd && ds->d[ds->lastd].id == d &&
	    strcmp(ds->d[ds->lastd].kernel, kernel) == 0) {
		ds->rows++;
		*key = ds->d[ds->lastd].key;
		return 1;
	}
	slot = u64map_slot(&ds->byname, mem_hash(kernel, strlen(kernel), (uint64_t)d));
	for (i = (size_t)(uintptr_t)*slot; i != 0; i = ds->d[i - 1].next)
		if (ds->d[i - 1].id == d && strcmp(ds->d[i - 1].kernel, kernel) == 0) {
			ds->rows++;
			*key = ds->d[ds->lastd = i - 1].key;
			return 1;
		}
	if (ds->nd >= DISPATCH_MAX)
		return fail_why(why, whysz, "%s%smore than %d dispatches (or kernels of a "
		    "dispatch): the limit of --by-dispatch", ds->path ? ds->path : "",
		    ds->path ? ": " : "", DISPATCH_MAX);
	ds->rows++;
	if (ds->nd == ds->capd) {
		ds->capd = ds->capd ? 2 * ds->capd : 64;
		ds->d = xreallocarray(ds->d, ds->capd, sizeof(*ds->d));
	}
	ds->d[ds->nd].id = d;
	ds->d[ds->nd].kernel = xstrdup(kernel);
	ds->d[ds->nd].next = (size_t)(uintptr_t)*slot;
	*slot = (void *)(uintptr_t)(ds->nd + 1);
	if (asprintf(&ds->d[ds->nd].key, "%zu", ds->nd) < 0)
		err(2, NULL);
	*key = ds->d[ds->lastd = ds->nd++].key;
	return 1;
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

/* ##event EVENT SE KERNEL TAG ITRACE SA WGP SIMD FILE DISPATCH, as the profile kept it:
 * 0, or -1 for a malformed one, told at t (the row that made them needed) in why, or
 * without t kept as ds->bad */
static int
take_metas(struct dispatches *ds, const struct tsv *t, char *why, size_t whysz)
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
		    !is_number(f[10]))) {
			free(line);
			if (t == NULL) {
				if (ds->bad == NULL)
					ds->bad = "an ##event line: its event or dispatch is not a "
					    "number";
				return -1;
			}
			return tsv_why(t, why, whysz, "an ##event line above: its event or "
			    "dispatch is not a number");
		}
		dispatch_event(ds, strtoull(f[1], NULL, 10), n > 10 && strcmp(f[10], "-") != 0 ?
		    (int64_t)strtoull(f[10], NULL, 10) : -1);
		free(line);
	}
	return 0;
}

int
dispatch_row_hook(void *arg, const struct tsv *t, const char **kernel, char *why,
    size_t whysz)
{
	struct dispatches *ds = arg;
	int c = tsv_col(t, "event"), r;
	uint64_t event;

	if (c < 0)
		return tsv_why(t, why, whysz, "a row without an event column: no dispatch to tell");
	if (ds->prof != NULL && ds->prof->nmeta > ds->metas_seen &&
	    take_metas(ds, t, why, whysz) != 0)
		return -1;
	if (!tsv_get_u64(t, c, &event))
		return tsv_why(t, why, whysz, "%s: '%s' is not a number", t->col[c], t->field[c]);
	ds->path = t->path;
	r = dispatch_kernel(ds, event, *kernel, kernel, why, whysz);
	ds->path = NULL;
	return r;
}

int64_t
dispatch_of_event(struct dispatches *ds, uint64_t event)
{
	if (ds->prof != NULL && ds->prof->nmeta > ds->metas_seen)
		take_metas(ds, NULL, NULL, 0);
	return event_dispatch(ds, event);
}

const char *
dispatch_error(const struct dispatches *ds)
{
	return ds->bad;
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

	xqsort(ds->d, ds->nd, sizeof(*ds->d), cmp_dispatch);
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
			if (pk->lines[j]->kind == LINE_INST && pk->lines[j]->cycles > 0 &&
			    (hot == NULL || pk->lines[j]->cycles > hot->cycles ||
			    (pk->lines[j]->cycles == hot->cycles &&
			    profile_cmp_pc(&pk->lines[j], &hot) < 0)))
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
