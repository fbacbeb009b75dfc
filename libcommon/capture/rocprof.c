/* rocprof: a rocprofv3 --att run directory (rocprof.h). */
#include <dirent.h>
#include <err.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "capture-model.h"
#include "elfsym.h"
#include "input.h"
#include "json.h"
#include "rocpd.h"
#include "rocprof.h"
#include "sqtt.h"
#include "util.h"

/* The results JSON read: far beyond what an --att run writes (a few MB). */
#define RESULTS_MAX (256 << 20)
#define SUBDIR_DEPTH 2

struct rp_code {
	long id;
	char *file;		/* its .out in the directory, NULL if there is none */
	uint64_t base, size;	/* load_base and load_size; size 0: unknown */
	int has_base;
	const uint8_t *img;	/* read when first needed */
	size_t len;
	int bad;		/* no symbols */
	char *why;		/* why, said once where nothing else names its kernel */
};

struct rp_sym {			/* a kernel symbol of the JSON */
	int64_t kernel;
	long code;
	char *name;		/* the formatted name, else kernel_name without .kd */
	char *link;		/* kernel_name without .kd: the entry's symbol */
	uint64_t entry;		/* kernel_object + kernel_code_entry_byte_offset, 0: unknown */
};

struct rp_disp {
	int64_t id, kernel;
};

struct rp_att {
	char *name;		/* relative to the capture directory */
	int se;
	int64_t dispatch;
	uint64_t agent;		/* the agent handle before _shader_engine_, if has_agent */
	int has_agent;
};

struct rp {
	struct capture *c;
	char *json;		/* the results JSON's path, NULL if none was read */
	int rocpd;		/* the results were a rocpd database */
	struct rp_code *code;
	size_t ncode, code_cap;
	struct rp_sym *sym;
	size_t nsym, sym_cap;
	struct rp_disp *disp;
	size_t ndisp, disp_cap;
	struct rp_att *att;
	size_t natt, att_cap;
	struct rocpd_agent *agent;	/* from a rocpd database */
	size_t nagent;
	/* by id, index + 1 (as pointers): many code objects, symbols or dispatches are not
	 * looked through one by one for every one */
	struct u64map code_ix, sym_ix, disp_ix;
	char *sub, *json_name, *db_name;	/* the streams' directory, the results' names */
};

static char *
xasprintf_path(const char *dir, const char *name)
{
	char *s;

	if (asprintf(&s, "%s/%s", dir, name) < 0)
		die_errno(NULL);
	return s;
}

/* Room for one more of n elements in p, the room doubled as it grows (an element at a
 * time would copy the array at each: quadratic in a results file's records). */
static void *
room_for_one(void *p, size_t n, size_t *cap, size_t size)
{
	if (n < *cap)
		return p;
	*cap = *cap < 16 ? 16 : *cap * 2;
	return xreallocarray(p, *cap, size);
}

static struct rp_code *
code_by_id(struct rp *r, long id, int add)
{
	void **slot = u64map_slot(&r->code_ix, (uint64_t)id);

	if (*slot != NULL)
		return &r->code[(uintptr_t)*slot - 1];
	if (!add) {
		*slot = NULL;
		return NULL;
	}
	r->code = room_for_one(r->code, r->ncode, &r->code_cap, sizeof(*r->code));
	memset(&r->code[r->ncode], 0, sizeof(*r->code));
	r->code[r->ncode].id = id;
	*slot = (void *)(uintptr_t)(r->ncode + 1);
	return &r->code[r->ncode++];
}

/* The first symbol of a kernel id, the first record of a dispatch id, indexed once. */
static void
index_records(struct rp *r)
{
	size_t i;
	void **slot;

	for (i = 0; i < r->nsym; i++)
		if (*(slot = u64map_slot(&r->sym_ix, (uint64_t)r->sym[i].kernel)) == NULL)
			*slot = (void *)(uintptr_t)(i + 1);
	for (i = 0; i < r->ndisp; i++)
		if (*(slot = u64map_slot(&r->disp_ix, (uint64_t)r->disp[i].id)) == NULL)
			*slot = (void *)(uintptr_t)(i + 1);
}

static int
json_u64(const struct json *v, uint64_t *out)
{
	char *end;

	if (v == NULL)
		return 0;
	if (v->type == JSON_NUMBER && v->is_int && v->i >= 0) {
		*out = (uint64_t)v->i;
		return 1;
	}
	if (v->type == JSON_STRING && v->str[0] != '-' && v->str[0] != '\0') {
		errno = 0;
		*out = strtoull(v->str, &end, 0);
		return errno == 0 && *end == '\0';
	}
	return -1;
}

/* A kernel symbol's names: rocprofv3's kernel_name is the kernel descriptor's symbol,
 * NAME.kd; the kernel is NAME, and the formatted name (demangled, if it was asked) is
 * what the tables show. */
static void
kernel_names(struct rp_sym *s, const char *kernel_name, const char *formatted)
{
	size_t n = strlen(kernel_name);

	if (n > 3 && strcmp(kernel_name + n - 3, ".kd") == 0)
		n -= 3;
	s->link = xstrndup(kernel_name, n);
	if (formatted != NULL && formatted[0] != '\0')
		s->name = xstrdup(formatted);
	else
		s->name = xstrdup(s->link);
}

/* Every object of the results, wherever it sits: a code object (code_object_id and
 * load_base), a kernel symbol (kernel_id, kernel_name, code_object_id) or a dispatch
 * (dispatch_id and kernel_id, inside its record's dispatch_info). */
static void
scan(struct rp *r, const struct json *v)
{
	const struct json *e;
	uint64_t id, u, off;

	if (v->type == JSON_OBJECT) {
		const struct json *co = json_get(v, "code_object_id"), *kid = json_get(v, "kernel_id");
		const struct json *kn = json_get(v, "kernel_name"), *fn;
		if (json_u64(co, &id) == 1 && id <= LONG_MAX && json_get(v, "load_base") != NULL &&
		    kn == NULL) {
			struct rp_code *k = code_by_id(r, (long)id, 1);
			if (json_u64(json_get(v, "load_base"), &k->base) != 1)
				die("%s: the load_base of code object %" PRIu64 " is not an address",
				    r->json, id);
			k->has_base = 1;
			if (json_u64(json_get(v, "load_size"), &u) == 1)
				k->size = u;
		}
		if (json_u64(co, &id) == 1 && id <= LONG_MAX && json_u64(kid, &u) == 1 &&
		    u <= INT64_MAX && kn != NULL && kn->type == JSON_STRING) {
			struct rp_sym *s;
			r->sym = room_for_one(r->sym, r->nsym, &r->sym_cap, sizeof(*r->sym));
			s = &r->sym[r->nsym++];
			s->kernel = (int64_t)u;
			s->code = (long)id;
			fn = json_get(v, "formatted_kernel_name");
			kernel_names(s, kn->str, fn != NULL && fn->type == JSON_STRING ? fn->str : NULL);
			s->entry = 0;
			if (json_u64(json_get(v, "kernel_object"), &u) == 1 &&
			    json_u64(json_get(v, "kernel_code_entry_byte_offset"), &off) == 1)
				s->entry = u + off;
		}
		if (json_u64(json_get(v, "dispatch_id"), &id) == 1 && id <= INT64_MAX &&
		    json_u64(kid, &u) == 1 && u <= INT64_MAX) {
			r->disp = room_for_one(r->disp, r->ndisp, &r->disp_cap, sizeof(*r->disp));
			r->disp[r->ndisp].id = (int64_t)id;
			r->disp[r->ndisp++].kernel = (int64_t)u;
		}
	}
	if (v->type == JSON_OBJECT || v->type == JSON_ARRAY)
		for (e = v->child; e != NULL; e = e->next)
			scan(r, e);
}

static void
json_free_v(void *v)
{
	json_free(v);
}

static void
read_results(struct rp *r, const char *name)
{
	struct json *root;
	char why[256];
	uint8_t *text;
	size_t len;

	r->json = capture_dir_file(r->c, name);
	text = input_slurp_rest(input_open(r->json), NULL, 0, RESULTS_MAX, "a results JSON", &len);
	root = json_parse((const char *)text, len, why, sizeof(why));
	free(text);
	if (root == NULL && strstr(why, " values") != NULL && strstr(why, ": more than ") != NULL)
		die("%s: %s: more than a results JSON may hold (sqtt-dump(1), LIMITS)", r->json,
		    why);
	if (root == NULL) {
		warning_out("%s: not JSON (%s): no load bases, kernel names or dispatches from it",
		    r->json, why);
		return;
	}
	fatal_push(json_free_v, root);
	scan(r, root);
	fatal_pop(root);
	json_free(root);
}

static void
rocpd_free_v(void *db)
{
	rocpd_free(db);
}

/* PID_results.db: the same facts from rocpd's tables (rocpd.h). */
static void
read_rocpd(struct rp *r, const char *name)
{
	struct rocpd db;
	char *path = capture_dir_file(r->c, name);
	size_t i;

	fatal_push(free, path);
	rocpd_read(path, &db);
	fatal_push(rocpd_free_v, &db);
	r->rocpd = 1;
	for (i = 0; i < db.ncode; i++) {
		struct rp_code *k = code_by_id(r, db.code[i].id, 1);
		k->base = db.code[i].base;
		k->size = db.code[i].size;
		k->has_base = 1;
	}
	r->sym_cap = r->nsym + db.nsym + 1;
	r->sym = xreallocarray(r->sym, r->sym_cap, sizeof(*r->sym));
	for (i = 0; i < db.nsym; i++) {
		struct rp_sym *s = &r->sym[r->nsym++];
		s->kernel = db.sym[i].id;
		s->code = db.sym[i].code;
		kernel_names(s, db.sym[i].kernel_name, db.sym[i].display_name);
		s->entry = db.sym[i].has_entry ?
		    db.sym[i].kernel_object + (uint64_t)db.sym[i].entry_offset : 0;
	}
	r->disp_cap = r->ndisp + db.ndisp + 1;
	r->disp = xreallocarray(r->disp, r->disp_cap, sizeof(*r->disp));
	for (i = 0; i < db.ndisp; i++) {
		r->disp[r->ndisp].id = db.disp[i].id;
		r->disp[r->ndisp++].kernel = db.disp[i].kernel;
	}
	/* the agents kept: their names are the streams' targets */
	r->agent = db.agent;
	r->nagent = db.nagent;
	db.agent = NULL;
	db.nagent = 0;
	fatal_pop(&db);
	rocpd_free(&db);
	fatal_pop(path);
	free(path);
}

/* A decimal number of at most max, as rocprofv3 writes one in a file name: digits, no
 * leading zero (so that _00_0 is not _0_0 again), nothing past 2^63.  The first byte
 * after it, NULL if it is none. */
static const char *
name_number(const char *p, uint64_t max, uint64_t *out)
{
	uint64_t v = 0;

	if (*p < '0' || *p > '9' || (p[0] == '0' && p[1] >= '0' && p[1] <= '9'))
		return NULL;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (v > (max - (uint64_t)(*p - '0')) / 10)
			return NULL;
		v = v * 10 + (uint64_t)(*p - '0');
	}
	*out = v;
	return p;
}

static const struct rp_sym *
sym_of_dispatch(struct rp *r, int64_t dispatch)
{
	void **d = u64map_slot(&r->disp_ix, (uint64_t)dispatch), **k;

	if (*d == NULL)
		return NULL;
	k = u64map_slot(&r->sym_ix, (uint64_t)r->disp[(uintptr_t)*d - 1].kernel);
	return *k != NULL ? &r->sym[(uintptr_t)*k - 1] : NULL;
}

static int
has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* What listing a directory holds until it is done. */
struct listing {
	char *dir, *rel;
	DIR *d;
};

static void
listing_free(void *arg)
{
	struct listing *l = arg;

	if (l->d != NULL)
		closedir(l->d);
	free(l->dir);
	free(l->rel);
}

/* The files of one directory: streams, code objects, the results JSON.  prefix: the
 * directory relative to the capture's. */
static void
list(struct rp *r, const char *prefix, char **json, char **db)
{
	struct listing l = { .dir = prefix[0] ? xasprintf_path(r->c->path, prefix) :
	    xstrdup(r->c->path) };
	struct dirent *de;

	fatal_push(listing_free, &l);
	if ((l.d = opendir(l.dir)) == NULL)
		die_errno(l.dir);
	while ((de = readdir(l.d)) != NULL) {
		const char *n = de->d_name, *p;
		char *rel = l.rel = prefix[0] ? xasprintf_path(prefix, n) : xstrdup(n);
		if (has_suffix(n, "results.json")) {
			/* one per process: two processes' dispatch ids are not one numbering */
			if (*json != NULL)
				die("%s: the results of two processes, %s and %s: give the files of "
				    "one a directory of their own", r->c->path, *json, rel);
			*json = rel;
			l.rel = NULL;
			continue;
		}
		if (has_suffix(n, "_results.db") || strcmp(n, "results.db") == 0) {
			if (*db != NULL)
				die("%s: the results of two processes, %s and %s: give the files of "
				    "one a directory of their own", r->c->path, *db, rel);
			*db = rel;
			l.rel = NULL;
			continue;
		}
		if (has_suffix(n, ".att") && (p = strstr(n, "_shader_engine_")) != NULL) {
			struct rp_att *a;
			uint64_t se, disp, agent = 0;
			const char *q = p + strlen("_shader_engine_"), *h = p;
			if ((q = name_number(q, 255, &se)) == NULL || *q++ != '_' ||
			    (q = name_number(q, INT64_MAX, &disp)) == NULL || strcmp(q, ".att") != 0)
				die("%s/%s: no shader engine 0..255 and dispatch id in the name",
				    r->c->path, rel);
			/* PID_AGENT_shader_engine_: the agent's handle, digits after a '_' */
			while (h > n && h[-1] >= '0' && h[-1] <= '9')
				h--;
			r->att = room_for_one(r->att, r->natt, &r->att_cap, sizeof(*r->att));
			a = &r->att[r->natt++];
			a->has_agent = h > n && h < p && h[-1] == '_' &&
			    name_number(h, UINT64_MAX, &agent) == p;
			a->agent = agent;
			a->name = rel;
			l.rel = NULL;
			a->se = (int)se;
			a->dispatch = (int64_t)disp;
			continue;
		}
		if (has_suffix(n, ".out") && (p = strstr(n, "_code_object_id_")) != NULL) {
			char *end;
			long id;
			errno = 0;
			id = strtol(p + strlen("_code_object_id_"), &end, 10);
			if (errno == 0 && id >= 0 && strcmp(end, ".out") == 0) {
				struct rp_code *k = code_by_id(r, id, 1);
				if (k->file == NULL) {
					k->file = capture_dir_file(r->c, rel);
					free(rel);
					l.rel = NULL;
					continue;
				}
			}
		}
		free(rel);
		l.rel = NULL;
	}
	fatal_pop(&l);
	listing_free(&l);
}

/* rocprofv3 -d DIR writes under DIR/HOST/PID... by default: the streams may be a level
 * or two down.  The one directory that holds them, relative to the capture's. */
static char *
find_streams(const char *root, const char *rel, int depth, int *nfound)
{
	char *dir = rel[0] ? xasprintf_path(root, rel) : xstrdup(root), *found = NULL, *sub;
	DIR *d = opendir(dir);
	struct dirent *de;
	struct stat st;
	int here = 0;

	if (d == NULL) {
		free(dir);
		return NULL;
	}
	while ((de = readdir(d)) != NULL) {
		if (has_suffix(de->d_name, ".att") && strstr(de->d_name, "_shader_engine_"))
			here = 1;
	}
	if (here) {
		closedir(d);
		free(dir);
		(*nfound)++;
		return xstrdup(rel);
	}
	rewinddir(d);
	while (depth > 0 && (de = readdir(d)) != NULL) {
		char *p, *r;
		if (de->d_name[0] == '.')
			continue;
		p = xasprintf_path(dir, de->d_name);
		if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode)) {
			sub = rel[0] ? xasprintf_path(rel, de->d_name) : xstrdup(de->d_name);
			if ((r = find_streams(root, sub, depth - 1, nfound)) != NULL) {
				if (found == NULL)
					found = r;
				else
					free(r);
			}
			free(sub);
		}
		free(p);
	}
	closedir(d);
	free(dir);
	return found;
}

static const uint8_t *
code_image(struct rp_code *k)
{
	if (k->img == NULL && k->file != NULL)
		k->img = input_slurp_rest(input_open(k->file), NULL, 0, CAPTURE_CODE_MAX,
		    "a code object", &k->len);
	return k->img;
}

/* The program (code object, kernel name) an event is, added once. */
static int
program(struct rp *r, const struct rp_code *k, const char *name)
{
	struct capture *c = r->c;
	struct program *p;
	size_t i;

	for (i = 0; i < c->nprog; i++)
		if (c->prog[i].tag == k->id && strcmp(c->prog[i].name, name) == 0)
			return (int)i;
	p = capture_add_program(c);
	p->name = xstrdup(name);
	p->tag = k->id;
	p->base = k->base;
	p->file = xstrdup(k->file);
	p->size = k->len;
	if (p->size == 0) {
		struct stat st;
		if (stat(k->file, &st) == 0)
			p->size = (size_t)st.st_size;
	}
	return (int)(c->nprog - 1);
}

/* The code object whose loaded image has a kernel starting at addr, and its name. */
static struct rp_code *
code_at(struct rp *r, uint64_t addr, char **name)
{
	char why[160];
	size_t i;

	for (i = 0; i < r->ncode; i++) {
		struct rp_code *k = &r->code[i];
		const uint8_t *img;
		if (!k->has_base || k->file == NULL || addr < k->base ||
		    (k->size != 0 && addr - k->base >= k->size))
			continue;
		if ((img = code_image(k)) == NULL)
			continue;
		switch (elfsym_kernel_at(img, k->len, addr - k->base, name, why, sizeof(why))) {
		case 1:
			return k;
		case -1:
			if (!k->bad)
				k->why = xstrdup(why);
			k->bad = 1;
			break;
		}
	}
	return NULL;
}

/* Where no symbol can name the entry, as in a code object without a symbol table: the
 * code object whose loaded image holds it (the dispatch's, if the JSON names one; else
 * the only one).  One with symbols, but none at the entry, did not run there. */
static struct rp_code *
code_holding(struct rp *r, uint64_t addr, const struct rp_sym *js)
{
	struct rp_code *found = NULL;
	size_t i, n = 0;

	for (i = 0; i < r->ncode; i++) {
		struct rp_code *k = &r->code[i];
		uint64_t size;
		if (!k->has_base || k->file == NULL || !k->bad || addr < k->base ||
		    code_image(k) == NULL)
			continue;
		size = k->size ? k->size : k->len;
		if (addr - k->base >= size)
			continue;
		if (js != NULL && js->code == k->id)
			return k;
		found = k;
		n++;
	}
	return n == 1 ? found : NULL;
}

/* A kernel of code object k with no symbol at its entry: the dispatch's in the JSON, the
 * code object's only kernel there or in its symbols, or code_object_ID. */
static char *
kernel_name(const struct rp *r, const struct rp_code *k, const struct rp_sym *js, uint64_t addr)
{
	const char *only = NULL;
	char *name, why[160];
	size_t i;

	/* the symbol whose entry (kernel_object + kernel_code_entry_byte_offset) it is */
	for (i = 0; addr != 0 && i < r->nsym; i++)
		if (r->sym[i].code == k->id && r->sym[i].entry == addr)
			return xstrdup(r->sym[i].name);
	if (js != NULL && js->code == k->id)
		return xstrdup(js->name);
	for (i = 0; i < r->nsym; i++)
		if (r->sym[i].code == k->id) {
			if (only != NULL && strcmp(only, r->sym[i].name) != 0)
				break;
			only = r->sym[i].name;
		}
	if (only != NULL && i == r->nsym)
		return xstrdup(only);
	if (code_image((struct rp_code *)k) != NULL &&
	    elfsym_only_kernel(k->img, k->len, &name, why, sizeof(why)) == 1)
		return name;
	if (k->why != NULL)
		warning_out("%s: %s, and the results name none of its kernels: code_object_%ld",
		    k->file, k->why, k->id);
	free(((struct rp_code *)k)->why);
	((struct rp_code *)k)->why = NULL;
	if (asprintf(&name, "code_object_%ld", k->id) < 0)
		die_errno(NULL);
	return name;
}

static void
warn_att(const struct rp *r, const struct rp_att *a, const char *msg)
{
	warning_out("%s/%s: %s; left out", r->c->path, a->name, msg);
}

/* Which program one stream traced: by its entry address; the JSON's dispatch record only
 * confirms it, or stands in where the stream has no entry.  -1: not found (said). */
static int
resolve(struct rp *r, const struct rp_att *a, char *file)
{
	const struct rp_sym *js = sym_of_dispatch(r, a->dispatch);
	struct rp_code *k = NULL;
	struct event ev = { .file = file, .prog = -1, .dispatch = -1 };
	uint64_t addr = capture_entry(&ev);
	char *name = NULL, msg[320];
	size_t i;
	int prog;

	if (addr != 0) {
		if ((k = code_at(r, addr, &name)) == NULL && (k = code_holding(r, addr, js)) != NULL)
			name = kernel_name(r, k, js, addr);
		if (k == NULL) {
			for (i = 0; i < r->ncode; i++) {
				struct rp_code *h = &r->code[i];
				if (h->has_base && h->size != 0 && addr >= h->base &&
				    addr - h->base < h->size && h->file == NULL) {
					snprintf(msg, sizeof(msg), "its entry 0x%" PRIx64 " is in code object "
					    "%ld, which has no .out file in the run", addr, h->id);
					warn_att(r, a, msg);
					return -1;
				}
			}
			for (i = 0; i < r->ncode; i++)
				if (!r->code[i].has_base && r->code[i].file != NULL)
					break;
			snprintf(msg, sizeof(msg), "its entry 0x%" PRIx64 " (COMPUTE_PGM) is %s", addr,
			    i < r->ncode ? "in no code object of a known load base (--base ID=ADDR "
			    "gives one)" : "in no code object of the run");
			warn_att(r, a, msg);
			return -1;
		}
		if (js != NULL && (strcmp(js->link, name) == 0 || strcmp(js->name, name) == 0)) {
			free(name);
			name = xstrdup(js->name);
		} else if (js != NULL)
			warning_out("%s/%s: the %s says dispatch %" PRId64 " ran %s, its "
			    "entry 0x%" PRIx64 " is %s: %s is taken", r->c->path, a->name,
			    r->rocpd ? "rocpd database" : "results JSON", a->dispatch, js->name, addr,
			    name, name);
	} else if (js != NULL) {
		if ((k = code_by_id(r, js->code, 0)) == NULL || k->file == NULL) {
			snprintf(msg, sizeof(msg), "no entry address in the stream, and kernel %.80s of "
			    "its dispatch is in code object %ld, which has no .out file in the run",
			    js->name, js->code);
			warn_att(r, a, msg);
			return -1;
		}
		name = xstrdup(js->name);
	} else if (r->ncode == 1 && r->code[0].file != NULL) {
		/* one code object: the stream can have traced nothing else */
		k = &r->code[0];
		name = kernel_name(r, k, NULL, 0);
	} else {
		warn_att(r, a, r->rocpd ? "no entry address in the stream (COMPUTE_PGM) and no "
		    "record of its dispatch in the rocpd database (a run without --kernel-trace has "
		    "none)" : "no entry address in the stream (COMPUTE_PGM) and no record of its "
		    "dispatch in a results JSON");
		return -1;
	}
	prog = program(r, k, name);
	free(name);
	return prog;
}

static int
cmp_att(const void *x, const void *y)
{
	const struct rp_att *a = x, *b = y;

	if (a->dispatch != b->dispatch)
		return a->dispatch < b->dispatch ? -1 : 1;
	if (a->se != b->se)
		return a->se - b->se;
	return strcmp(a->name, b->name);
}

/* The target of the streams: the name of the agent whose handle their file names
 * carry (rocpd_info_agent), where they agree. */
static void
target_of_agents(struct rp *r)
{
	const char *name = NULL;
	size_t i, j;

	for (i = 0; i < r->natt; i++) {
		if (!r->att[i].has_agent)
			continue;
		for (j = 0; j < r->nagent; j++)
			if (r->agent[j].has_handle && r->agent[j].handle == r->att[i].agent)
				break;
		if (j == r->nagent || r->agent[j].name == NULL)
			continue;
		if (name != NULL && strcmp(name, r->agent[j].name) != 0)
			die("%s: streams of two targets, %s and %s: give the files of one a "
			    "directory of their own", r->c->path, name, r->agent[j].name);
		name = r->agent[j].name;
	}
	if (name != NULL && strncmp(name, "gfx", 3) == 0 && strlen(name) < 16) {
		free(r->c->target);
		r->c->target = xstrdup(name);
	}
}

static void
rp_free(void *arg)
{
	struct rp *r = arg;
	size_t i;

	for (i = 0; i < r->ncode; i++) {
		free(r->code[i].why);
		free(r->code[i].file);
		free((void *)r->code[i].img);
	}
	for (i = 0; i < r->nsym; i++) {
		free(r->sym[i].name);
		free(r->sym[i].link);
	}
	for (i = 0; i < r->natt; i++)
		free(r->att[i].name);
	free(r->code);
	free(r->sym);
	free(r->disp);
	free(r->att);
	free(r->json);
	for (i = 0; i < r->nagent; i++)
		free(r->agent[i].name);
	free(r->agent);
	u64map_free(&r->code_ix);
	u64map_free(&r->sym_ix);
	u64map_free(&r->disp_ix);
	free(r->sub);
	free(r->json_name);
	free(r->db_name);
}

void
rocprof_open(struct capture *c, const struct capture_opts *o)
{
	struct rp r = { .c = c };
	size_t i, n;
	int nfound = 0, prog;

	fatal_push(rp_free, &r);
	r.sub = find_streams(c->path, "", SUBDIR_DEPTH, &nfound);
	if (r.sub == NULL)
		die("%s: no capture.tsv and no *_shader_engine_*.att streams: not a capture directory",
		    c->path);
	if (nfound > 1)
		die("%s: the streams of %d runs are under it: name the directory of one", c->path,
		    nfound);
	list(&r, r.sub, &r.json_name, &r.db_name);
	/* the options checked before the JSON is read: a wrong one is the only line */
	for (i = 0; o != NULL && i < o->nbases; i++) {
		struct rp_code *k = code_by_id(&r, o->bases[i].id, 0);
		if (k == NULL || k->file == NULL)
			die("%s: --base %ld=0x%" PRIx64 ": no code object %ld in the run", c->path,
			    o->bases[i].id, o->bases[i].addr, o->bases[i].id);
	}
	/* -f rocpd,json writes both, of the same facts: the database is read */
	if (r.db_name != NULL)
		read_rocpd(&r, r.db_name);
	else if (r.json_name != NULL)
		read_results(&r, r.json_name);
	for (i = 0; o != NULL && i < o->nbases; i++) {
		struct rp_code *k = code_by_id(&r, o->bases[i].id, 0);
		k->base = o->bases[i].addr;
		k->has_base = 1;
		k->size = 0;
	}
	if (o != NULL && o->base != 0) {
		for (i = 0; i < r.ncode; i++)
			if (r.code[i].file != NULL && r.code[i].id != r.code[0].id)
				die("%s: --base ADDR with several code objects: give --base ID=ADDR",
				    c->path);
		if (r.ncode > 0) {
			r.code[0].base = o->base;
			r.code[0].has_base = 1;
			r.code[0].size = 0;
		}
	}
	for (i = 0, n = 0; o != NULL && o->kernel != NULL && i < r.ncode; i++)
		if (r.code[i].file != NULL && ++n > 1)
			die("%s: --name names the kernel of a run of one code object; this one "
			    "has more", c->path);
	xqsort(r.att, r.natt, sizeof(*r.att), cmp_att);
	for (i = 1; i < r.natt; i++)
		if (r.att[i].dispatch == r.att[i - 1].dispatch && r.att[i].se == r.att[i - 1].se)
			die("%s: two streams of dispatch %" PRId64 " on shader engine %d: %s and %s",
			    c->path, r.att[i].dispatch, r.att[i].se, r.att[i - 1].name, r.att[i].name);
	target_of_agents(&r);
	index_records(&r);
	for (i = 0; i < r.natt; i++) {
		char *file = capture_dir_file(c, r.att[i].name);
		struct event *e;
		fatal_push(free, file);
		prog = resolve(&r, &r.att[i], file);
		fatal_pop(file);
		if (prog < 0) {
			free(file);
			continue;
		}
		e = capture_add_event(c);
		e->se = r.att[i].se;
		e->itrace = 1;
		e->file = file;
		e->prog = prog;
		e->dispatch = r.att[i].dispatch;
	}
	if (o != NULL && o->kernel != NULL && c->nprog > 1)
		die("%s: --name names the kernel of a run of one program; this one has %zu",
		    c->path, c->nprog);	/* one code object, several of its kernels traced */
	if (o != NULL && o->kernel != NULL && c->nprog == 1) {
		free(c->prog[0].name);
		c->prog[0].name = xstrdup(o->kernel);
	}
	fatal_pop(&r);
	rp_free(&r);
	if (c->nev == 0)
		die("%s: no stream's program was found: nothing to decode", c->path);
}

/* The writer.  The GPU agent: table id 1, handle 2 (rocpd_info_agent's id and the handle
 * in file names are different numbers, as a reader must know). */
#define RUN_AGENT_ID 1
#define RUN_AGENT_HANDLE 2

void
rocprof_layout_init(struct rocprof_layout *l, const char *dir)
{
	char host[256], *path;
	size_t i;

	l->host = NULL;
	l->pid = (long)getpid();
	if (!l->rocpd)
		return;
	if (gethostname(host, sizeof(host)) != 0 || host[0] == '\0' || host[0] == '.')
		strcpy(host, "localhost");
	host[sizeof(host) - 1] = '\0';
	for (i = 0; host[i] != '\0'; i++)
		if (host[i] == '/')
			host[i] = '_';
	l->host = xstrdup(host);
	path = xasprintf_path(dir, host);
	if (mkdir(path, 0777) != 0 && errno != EEXIST)
		die_errno(path);
	free(path);
}

void
rocprof_layout_free(struct rocprof_layout *l)
{
	free(l->host);
	l->host = NULL;
}

char *
rocprof_stream_name(const struct rocprof_layout *l, int se, int64_t dispatch)
{
	char *s;
	int n;

	if (l->rocpd)
		n = asprintf(&s, "%s/%ld_%d_shader_engine_%d_%" PRId64 ".att", l->host, l->pid,
		    RUN_AGENT_HANDLE, se, dispatch);
	else
		n = asprintf(&s, "stall_shader_engine_%d_%" PRId64 ".att", se, dispatch);
	if (n < 0)
		die_errno(NULL);
	return s;
}

char *
rocprof_code_name(const struct rocprof_layout *l, size_t index)
{
	char *s;
	int n;

	if (l->rocpd)
		n = asprintf(&s, "%s/%ld_%s_code_object_id_%zu.out", l->host, l->pid,
		    l->target ? l->target : "gfx1100", index + 1);
	else
		n = asprintf(&s, "stall_code_object_id_%zu.out", index);
	if (n < 0)
		die_errno(NULL);
	return s;
}

/* DIR/stall_results.json: what of rocprofv3's results JSON sqtt-dump reads. */
static void
write_json(const char *dir, const struct rocprof_kernel *k, size_t nk,
    const struct rocprof_run_dispatch *d, size_t nd)
{
	char *path = xasprintf_path(dir, "stall_results.json"), *kd;
	FILE *fp;
	size_t i, n;

	if ((fp = fopen(path, "w")) == NULL)
		die_errno(path);
	fprintf(fp, "{\"rocprofiler-sdk-tool\": [{\n\"metadata\": {\"writer\": \"sqtt-encode\"},\n"
	    "\"code_objects\": [");
	for (i = 0; i < nk; i++) {
		fprintf(fp, "%s\n {\"code_object_id\": %zu, \"load_base\": %" PRIu64 ", ",
		    i ? "," : "", i, k[i].base);
		if (k[i].size)
			fprintf(fp, "\"load_size\": %" PRIu64 ", ", k[i].size);
		fprintf(fp, "\"load_delta\": %" PRIu64 ", \"storage_type\": 2}", k[i].base);
	}
	fprintf(fp, "],\n\"kernel_symbols\": [");
	for (i = 0; i < nk; i++) {
		fprintf(fp, "%s\n {\"kernel_id\": %zu, \"code_object_id\": %zu, \"kernel_name\": ",
		    i ? "," : "", i + 1, i);
		if (asprintf(&kd, "%s%s", k[i].name ? k[i].name : "", k[i].name ? ".kd" : "") < 0)
			die_errno(NULL);
		json_put_string(fp, kd);
		free(kd);
		fprintf(fp, ", \"formatted_kernel_name\": ");
		json_put_string(fp, k[i].name ? k[i].name : "");
		if (k[i].has_entry)
			fprintf(fp, ", \"kernel_object\": %" PRIu64 ", "
			    "\"kernel_code_entry_byte_offset\": %" PRIu64,
			    k[i].base + (k[i].kd ? k[i].kd : k[i].entry),
			    k[i].kd ? k[i].entry - k[i].kd : 0);
		fprintf(fp, "}");
	}
	fprintf(fp, "],\n\"buffer_records\": {\"kernel_dispatch\": [");
	for (i = 0, n = 0; i < nd; i++) {
		if (d[i].kernel < 0)
			continue;
		fprintf(fp, "%s\n {\"kind\": \"KERNEL_DISPATCH\", \"dispatch_info\": "
		    "{\"dispatch_id\": %" PRId64 ", \"kernel_id\": %ld}}", n++ ? "," : "",
		    d[i].id, d[i].kernel + 1);
	}
	fprintf(fp, "]}\n}]}\n");
	if (fflush(fp) != 0 || ferror(fp) || fclose(fp) != 0)
		die_errno(path);
	free(path);
}

/* DIR/HOST/PID_results.db: the agents (a CPU and the GPU), code objects, kernel
 * symbols and, with --kernel-trace, dispatches. */
static void
write_db(const char *dir, const struct rocprof_layout *l, const struct rocprof_kernel *k,
    size_t nk, const struct rocprof_run_dispatch *d, size_t nd)
{
	struct rocpd db = { 0 };
	struct rocpd_agent agent[2] = {
		{ .id = 0, .handle = 1, .has_handle = 1, .name = "CPU" },
		{ .id = RUN_AGENT_ID, .handle = RUN_AGENT_HANDLE, .has_handle = 1, .gpu = 1,
		  .name = (char *)(l->target ? l->target : "gfx1100") },
	};
	char *path, *name;
	size_t i;

	if (asprintf(&name, "%s/%ld_results.db", l->host, l->pid) < 0)
		die_errno(NULL);
	path = xasprintf_path(dir, name);
	db.agent = agent;
	db.nagent = 2;
	db.code = xcalloc(nk + 1, sizeof(*db.code));
	db.sym = xcalloc(nk + 1, sizeof(*db.sym));
	db.disp = xcalloc(nd + 1, sizeof(*db.disp));
	for (i = 0; i < nk; i++) {
		db.code[i].id = (long)i + 1;
		db.code[i].agent = RUN_AGENT_ID;
		db.code[i].base = k[i].base;
		db.code[i].size = k[i].size;
		db.code[i].delta = k[i].base;
		db.sym[i].id = (int64_t)i + 1;
		db.sym[i].code = (long)i + 1;
		if (asprintf(&db.sym[i].kernel_name, "%s.kd", k[i].name ? k[i].name : "") < 0)
			die_errno(NULL);
		db.sym[i].display_name = (char *)k[i].name;
		if (k[i].has_entry) {
			db.sym[i].kernel_object = k[i].base + (k[i].kd ? k[i].kd : k[i].entry);
			db.sym[i].entry_offset = k[i].kd ? (int64_t)(k[i].entry - k[i].kd) : 0;
		}
	}
	db.ncode = db.nsym = nk;
	for (i = 0; l->kernel_trace && i < nd; i++)
		if (d[i].kernel >= 0) {
			db.disp[db.ndisp].id = d[i].id;
			db.disp[db.ndisp].kernel = d[i].kernel + 1;
			db.disp[db.ndisp++].agent = RUN_AGENT_ID;
		}
	rocpd_write(path, &db, l->pid);
	for (i = 0; i < nk; i++)
		free(db.sym[i].kernel_name);
	free(db.code);
	free(db.sym);
	free(db.disp);
	free(name);
	free(path);
}

void
rocprof_write_results(const char *dir, const struct rocprof_layout *l,
    const struct rocprof_kernel *k, size_t nk, const struct rocprof_run_dispatch *d, size_t nd)
{
	if (l->rocpd)
		write_db(dir, l, k, nk, d, nd);
	else
		write_json(dir, k, nk, d, nd);
}
