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

#include "capture-model.h"
#include "elfsym.h"
#include "input.h"
#include "json.h"
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
	int bad;		/* no symbols: said once */
};

struct rp_sym {			/* a kernel symbol of the JSON */
	int64_t kernel;
	long code;
	char *name;
	uint64_t entry;		/* kernel_object + kernel_code_entry_byte_offset, 0: unknown */
};

struct rp_disp {
	int64_t id, kernel;
};

struct rp_att {
	char *name;		/* relative to the capture directory */
	int se;
	int64_t dispatch;
};

struct rp {
	struct capture *c;
	char *json;		/* the results JSON's path, NULL if none was read */
	struct rp_code *code;
	size_t ncode;
	struct rp_sym *sym;
	size_t nsym;
	struct rp_disp *disp;
	size_t ndisp;
	struct rp_att *att;
	size_t natt;
};

static char *
xasprintf_path(const char *dir, const char *name)
{
	char *s;

	if (asprintf(&s, "%s/%s", dir, name) < 0)
		err(2, NULL);
	return s;
}

static struct rp_code *
code_by_id(struct rp *r, long id, int add)
{
	size_t i;

	for (i = 0; i < r->ncode; i++)
		if (r->code[i].id == id)
			return &r->code[i];
	if (!add)
		return NULL;
	r->code = xreallocarray(r->code, r->ncode + 1, sizeof(*r->code));
	memset(&r->code[r->ncode], 0, sizeof(*r->code));
	r->code[r->ncode].id = id;
	return &r->code[r->ncode++];
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
		const struct json *kn = json_get(v, "kernel_name");
		if (json_u64(co, &id) == 1 && id <= LONG_MAX && json_get(v, "load_base") != NULL &&
		    kn == NULL) {
			struct rp_code *k = code_by_id(r, (long)id, 1);
			if (json_u64(json_get(v, "load_base"), &k->base) != 1)
				errx(2, "%s: the load_base of code object %" PRIu64 " is not an address",
				    r->json, id);
			k->has_base = 1;
			if (json_u64(json_get(v, "load_size"), &u) == 1)
				k->size = u;
		}
		if (json_u64(co, &id) == 1 && id <= LONG_MAX && json_u64(kid, &u) == 1 &&
		    u <= INT64_MAX && kn != NULL && kn->type == JSON_STRING) {
			struct rp_sym *s;
			r->sym = xreallocarray(r->sym, r->nsym + 1, sizeof(*r->sym));
			s = &r->sym[r->nsym++];
			s->kernel = (int64_t)u;
			s->code = (long)id;
			s->name = xstrdup(kn->str);
			s->entry = 0;
			if (json_u64(json_get(v, "kernel_object"), &u) == 1 &&
			    json_u64(json_get(v, "kernel_code_entry_byte_offset"), &off) == 1)
				s->entry = u + off;
		}
		if (json_u64(json_get(v, "dispatch_id"), &id) == 1 && id <= INT64_MAX &&
		    json_u64(kid, &u) == 1 && u <= INT64_MAX) {
			r->disp = xreallocarray(r->disp, r->ndisp + 1, sizeof(*r->disp));
			r->disp[r->ndisp].id = (int64_t)id;
			r->disp[r->ndisp++].kernel = (int64_t)u;
		}
	}
	if (v->type == JSON_OBJECT || v->type == JSON_ARRAY)
		for (e = v->child; e != NULL; e = e->next)
			scan(r, e);
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
	if (root == NULL) {
		warning_out("%s: not JSON (%s): no load bases, kernel names or dispatches from it",
		    r->json, why);
		return;
	}
	scan(r, root);
	json_free(root);
}

static const struct rp_sym *
sym_of_dispatch(const struct rp *r, int64_t dispatch)
{
	size_t i, j;

	for (i = 0; i < r->ndisp; i++)
		if (r->disp[i].id == dispatch)
			for (j = 0; j < r->nsym; j++)
				if (r->sym[j].kernel == r->disp[i].kernel)
					return &r->sym[j];
	return NULL;
}

static int
has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* The files of one directory: streams, code objects, the results JSON.  prefix: the
 * directory relative to the capture's. */
static void
list(struct rp *r, const char *prefix, char **json)
{
	char *dir = prefix[0] ? xasprintf_path(r->c->path, prefix) : xstrdup(r->c->path);
	DIR *d = opendir(dir);
	struct dirent *de;

	if (d == NULL)
		err(2, "%s", dir);
	while ((de = readdir(d)) != NULL) {
		const char *n = de->d_name, *p;
		char *rel = prefix[0] ? xasprintf_path(prefix, n) : xstrdup(n);
		if (has_suffix(n, "results.json")) {
			/* one per process: two processes' dispatch ids are not one numbering */
			if (*json != NULL)
				errx(2, "%s: the results of two processes, %s and %s: give the files of "
				    "one a directory of their own", r->c->path, *json, rel);
			*json = rel;
			continue;
		}
		if (has_suffix(n, ".att") && (p = strstr(n, "_shader_engine_")) != NULL) {
			struct rp_att *a;
			int se = -1;
			long long disp = -1;
			char tail[8];
			if (sscanf(p, "_shader_engine_%d_%lld%7s", &se, &disp, tail) != 3 ||
			    strcmp(tail, ".att") != 0 || se < 0 || se > 255 || disp < 0)
				errx(2, "%s/%s: no shader engine 0..255 and dispatch id in the name",
				    r->c->path, rel);
			r->att = xreallocarray(r->att, r->natt + 1, sizeof(*r->att));
			a = &r->att[r->natt++];
			a->name = rel;
			a->se = se;
			a->dispatch = disp;
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
					continue;
				}
			}
		}
		free(rel);
	}
	closedir(d);
	free(dir);
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

/* The program address the stream's dispatch wrote (COMPUTE_PGM_LO/HI), as its first
 * wave started: the writes before it may be another dispatch's or 0.  0 if none. */
static size_t
refill(void *in, uint8_t *dst, size_t max)
{
	return input_read(in, dst, max);
}

static uint64_t
stream_entry(const char *path)
{
	struct sqtt_decoder d;
	struct sqtt_token tok;
	struct sqtt_pgm pgm = { 0 };
	struct input *in = input_open(path);
	uint64_t addr = 0;

	sqtt_init_stream(&d, refill, in);
	while (sqtt_next(&d, &tok) > 0) {
		if (tok.type == TOK_REG) {
			sqtt_pgm_feed(&pgm, tok.raw);
			if (sqtt_pgm_addr(&pgm) != 0)
				addr = sqtt_pgm_addr(&pgm);
		} else if (tok.type == TOK_WAVE_START && addr != 0) {
			break;
		}
	}
	sqtt_free(&d);
	input_close(in);
	return addr;
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
				warning_out("%s: %s: its kernels are known only from the results JSON",
				    k->file, why);
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
kernel_name(const struct rp *r, const struct rp_code *k, const struct rp_sym *js)
{
	const char *only = NULL;
	char *name, why[160];
	size_t i;

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
	if (asprintf(&name, "code_object_%ld", k->id) < 0)
		err(2, NULL);
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
	uint64_t addr = stream_entry(file);
	char *name = NULL, msg[320];
	size_t i;
	int prog;

	if (addr != 0) {
		if ((k = code_at(r, addr, &name)) == NULL && (k = code_holding(r, addr, js)) != NULL)
			name = kernel_name(r, k, js);
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
		if (js != NULL && strcmp(js->name, name) != 0)
			warning_out("%s/%s: the results JSON says dispatch %" PRId64 " ran %s, its "
			    "entry 0x%" PRIx64 " is %s: %s is taken", r->c->path, a->name, a->dispatch,
			    js->name, addr, name, name);
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
		name = kernel_name(r, k, NULL);
	} else {
		warn_att(r, a, "no entry address in the stream (COMPUTE_PGM) and no record of "
		    "its dispatch in a results JSON");
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
	return a->se - b->se;
}

void
rocprof_open(struct capture *c, const struct capture_opts *o)
{
	struct rp r = { .c = c };
	char *json = NULL, *sub;
	size_t i, n;
	int nfound = 0, prog;

	sub = find_streams(c->path, "", SUBDIR_DEPTH, &nfound);
	if (sub == NULL)
		errx(2, "%s: no capture.tsv and no *_shader_engine_*.att streams: not a capture directory",
		    c->path);
	if (nfound > 1)
		errx(2, "%s: the streams of %d runs are under it: name the directory of one", c->path,
		    nfound);
	list(&r, sub, &json);
	free(sub);
	/* the options checked before the JSON is read: a wrong one is the only line */
	for (i = 0; o != NULL && i < o->nbases; i++) {
		struct rp_code *k = code_by_id(&r, o->bases[i].id, 0);
		if (k == NULL || k->file == NULL)
			errx(2, "%s: --base %ld=0x%" PRIx64 ": no code object %ld in the run", c->path,
			    o->bases[i].id, o->bases[i].addr, o->bases[i].id);
	}
	if (json != NULL)
		read_results(&r, json);
	free(json);
	for (i = 0; o != NULL && i < o->nbases; i++) {
		struct rp_code *k = code_by_id(&r, o->bases[i].id, 0);
		k->base = o->bases[i].addr;
		k->has_base = 1;
		k->size = 0;
	}
	if (o != NULL && o->base != 0) {
		for (i = 0; i < r.ncode; i++)
			if (r.code[i].file != NULL && r.code[i].id != r.code[0].id)
				errx(2, "%s: --base ADDR with several code objects: give --base ID=ADDR",
				    c->path);
		if (r.ncode > 0) {
			r.code[0].base = o->base;
			r.code[0].has_base = 1;
			r.code[0].size = 0;
		}
	}
	for (i = 0, n = 0; o != NULL && o->kernel != NULL && i < r.ncode; i++)
		if (r.code[i].file != NULL && ++n > 1)
			errx(2, "%s: --name names the kernel of a run of one code object; this one "
			    "has more", c->path);
	if (r.natt > 0)
		qsort(r.att, r.natt, sizeof(*r.att), cmp_att);
	for (i = 0; i < r.natt; i++) {
		char *file = capture_dir_file(c, r.att[i].name);
		struct event *e;
		if ((prog = resolve(&r, &r.att[i], file)) < 0) {
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
		errx(2, "%s: --name names the kernel of a run of one program; this one has %zu",
		    c->path, c->nprog);	/* one code object, several of its kernels traced */
	if (o != NULL && o->kernel != NULL && c->nprog == 1) {
		free(c->prog[0].name);
		c->prog[0].name = xstrdup(o->kernel);
	}
	for (i = 0; i < r.ncode; i++) {
		free(r.code[i].file);
		free((void *)r.code[i].img);
	}
	for (i = 0; i < r.nsym; i++)
		free(r.sym[i].name);
	for (i = 0; i < r.natt; i++)
		free(r.att[i].name);
	free(r.code);
	free(r.sym);
	free(r.disp);
	free(r.att);
	free(r.json);
	if (c->nev == 0)
		errx(2, "%s: no stream's program was found: nothing to decode", c->path);
}
