#include <sys/stat.h>

#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <threads.h>

#include "capture-model.h"
#include "input.h"
#include "meta.h"
#include "sqtt.h"
#include "util.h"

static char *
xasprintf(const char *fmt, const char *a, const char *b)
{
	char *s;

	if (asprintf(&s, fmt, a, b) < 0)
		die_errno(NULL);
	return s;
}

struct program *
capture_add_program(struct capture *c)
{
	struct program *p;

	c->prog = xreallocarray(c->prog, c->nprog + 1, sizeof(*c->prog));
	p = &c->prog[c->nprog++];
	memset(p, 0, sizeof(*p));
	p->tag = -1;
	return p;
}

struct event *
capture_add_event(struct capture *c)
{
	struct event *e;

	c->ev = xreallocarray(c->ev, c->nev + 1, sizeof(*c->ev));
	e = &c->ev[c->nev];
	memset(e, 0, sizeof(*e));
	e->index = (unsigned)c->nev++;
	e->prog = -1;
	e->dispatch = -1;
	return e;
}

char *
capture_join(const char *dir, const char *file)
{
	if (file[0] == '/')
		return xstrndup(file, strlen(file));
	return xasprintf("%s/%s", dir, file);
}

/* A file a capture directory names (by its listing or its index): read only if it is a
 * regular file inside the directory, so that a symbolic link in a downloaded capture
 * cannot make it read /etc/passwd or /dev/zero. */
char *
capture_dir_file(const struct capture *c, const char *name)
{
	char *path = capture_join(c->path, name);
	struct stat st;

	if (!meta_path_within(path, c->path) || stat(path, &st) != 0 || !S_ISREG(st.st_mode)) {
		free(path);
		die("%s: %s is not a regular file inside the capture directory", c->path,
		    name);
	}
	return path;
}

static uint64_t
path_hash(const char *s)
{
	uint64_t h = 14695981039346656037ULL;	/* FNV-1a */

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

/* A file named by many programs (a capture's ##code lines may repeat one) is read once:
 * memory follows the code objects, not the lines. */
const uint8_t *
capture_code(struct capture *c, size_t i, size_t *len)
{
	struct program *p = &c->prog[i], *q;
	void **first;

	if (p->code == NULL && p->file != NULL) {
		first = u64map_slot(&c->code_of, path_hash(p->file));
		q = *first != NULL ? &c->prog[(uintptr_t)*first - 1] : NULL;
		if (q != NULL && q->code != NULL && strcmp(q->file, p->file) == 0) {
			p->code = q->code;
			p->size = q->size;
			p->borrowed = 1;
		} else {
			p->code = input_slurp_rest(input_open(p->file), NULL, 0, CAPTURE_CODE_MAX,
			    "a code object", &p->size);
			if (q == NULL)
				*first = (void *)(uintptr_t)(i + 1);
		}
	}
	*len = p->size;
	return p->code;
}

int
capture_peek(const struct capture *c, const struct event *e, uint8_t head[8], size_t *got)
{
	memset(head, 0, 8);
	if (e->blob != NULL) {
		*got = e->len < 8 ? e->len : 8;
		memcpy(head, e->blob, *got);
		return 1;
	} else {
		struct input *in = input_open(e->file);
		*got = 0;
		while (*got < 8) {
			size_t n = input_read(in, head + *got, 8 - *got);
			if (n == 0)
				break;
			*got += n;
		}
		input_close(in);
		(void)c;
		return 1;
	}
}

static size_t
refill_stream(void *ctx, uint8_t *dst, size_t max)
{
	return input_read(((struct capture_stream *)ctx)->in, dst, max);
}

void
capture_decoder(const struct event *e, struct sqtt_decoder *d, struct capture_stream *s)
{
	s->in = NULL;
	s->pf = NULL;
	if (e->blob != NULL) {
		sqtt_init_mem(d, e->blob, e->len);
	} else {
		s->in = input_open(e->file);
		sqtt_init_stream(d, refill_stream, s);
	}
}

int
capture_decoder_why(const struct event *e, struct sqtt_decoder *d, struct capture_stream *s,
    char *why, size_t whysz)
{
	s->in = NULL;
	s->pf = NULL;
	if (e->blob != NULL) {
		sqtt_init_mem(d, e->blob, e->len);
		return 0;
	}
	if ((s->in = input_open_why(e->file, why, whysz)) == NULL)
		return -1;
	sqtt_init_stream(d, refill_stream, s);
	return 0;
}

/* Reading ahead: a ring of blocks the reader's thread fills in order and the decoder takes
 * in order, holding one at a time.  In use: the filled ones [head, tail) and the one held. */
#define AHEAD_BLOCK SQTT_CHUNK
#define AHEAD_NBLOCK 4
struct prefetch {
	struct input *in;	/* the reader's while it runs */
	mtx_t lock;
	cnd_t cond;
	thrd_t thread;
	uint8_t *block[AHEAD_NBLOCK];	/* SQTT_BLOCK_PAD + AHEAD_BLOCK + 16 bytes each */
	size_t len[AHEAD_NBLOCK];
	uint64_t head, tail;
	int held, done, stop;
	char *error;		/* the read's error, set by the reader before done */
	int taken_all;		/* the decoder's: it has taken the last block */
};

static int
read_ahead(void *arg)
{
	struct prefetch *pf = arg;
	size_t n, k, i;
	const char *why;

	for (;;) {
		mtx_lock(&pf->lock);
		while (!pf->stop && pf->tail - pf->head + (uint64_t)pf->held >= AHEAD_NBLOCK)
			cnd_wait(&pf->cond, &pf->lock);
		if (pf->stop) {
			mtx_unlock(&pf->lock);
			return 0;
		}
		i = (size_t)(pf->tail % AHEAD_NBLOCK);
		mtx_unlock(&pf->lock);
		for (n = 0; n < AHEAD_BLOCK; n += k)
			if ((k = input_read(pf->in, pf->block[i] + SQTT_BLOCK_PAD + n,
			    AHEAD_BLOCK - n)) == 0)
				break;
		why = input_error(pf->in);
		mtx_lock(&pf->lock);
		pf->len[i] = n;
		if (n > 0)
			pf->tail++;
		if (n < AHEAD_BLOCK) {
			pf->error = why != NULL ? xstrdup(why) : NULL;
			pf->done = 1;
		}
		cnd_broadcast(&pf->cond);
		mtx_unlock(&pf->lock);
		if (n < AHEAD_BLOCK)
			return 0;
	}
}

static size_t
next_block(void *ctx, uint8_t **p)
{
	struct prefetch *pf = ((struct capture_stream *)ctx)->pf;
	size_t i, n;

	mtx_lock(&pf->lock);
	if (pf->held) {		/* the block before is the reader's again */
		pf->held = 0;
		cnd_broadcast(&pf->cond);
	}
	while (pf->tail == pf->head && !pf->done)
		cnd_wait(&pf->cond, &pf->lock);
	if (pf->tail == pf->head) {
		pf->taken_all = 1;
		mtx_unlock(&pf->lock);
		return 0;
	}
	i = (size_t)(pf->head++ % AHEAD_NBLOCK);
	pf->held = 1;
	n = pf->len[i];
	/* a short block is the last, and a failed read's: said at its refill, as when the
	 * decoder reads; after a whole one the error waits for the refill that gets nothing */
	pf->taken_all = pf->done && pf->tail == pf->head && n < AHEAD_BLOCK;
	mtx_unlock(&pf->lock);
	*p = pf->block[i] + SQTT_BLOCK_PAD;
	return n;
}

int
capture_decoder_ahead(const struct event *e, struct sqtt_decoder *d, struct capture_stream *s,
    char *why, size_t whysz)
{
	struct prefetch *pf;
	size_t i;

	if (capture_decoder_why(e, d, s, why, whysz) != 0)
		return -1;
	if (s->in == NULL)	/* in memory */
		return 0;
	pf = xcalloc(1, sizeof(*pf));
	pf->in = s->in;
	for (i = 0; i < AHEAD_NBLOCK; i++)
		pf->block[i] = xcalloc(1, SQTT_BLOCK_PAD + AHEAD_BLOCK + 16);
	if (mtx_init(&pf->lock, mtx_plain) != thrd_success)
		goto alone;
	if (cnd_init(&pf->cond) != thrd_success) {
		mtx_destroy(&pf->lock);
		goto alone;
	}
	if (thrd_create(&pf->thread, read_ahead, pf) != thrd_success) {
		cnd_destroy(&pf->cond);
		mtx_destroy(&pf->lock);
		goto alone;
	}
	sqtt_free(d);
	sqtt_init_blocks(d, next_block, s);
	s->pf = pf;
	return 0;
alone:	/* the decoder's thread reads, as capture_decoder_why set it up */
	for (i = 0; i < AHEAD_NBLOCK; i++)
		free(pf->block[i]);
	free(pf);
	return 0;
}

static void
prefetch_end(struct prefetch *pf)
{
	size_t i;

	mtx_lock(&pf->lock);
	pf->stop = 1;
	cnd_broadcast(&pf->cond);
	mtx_unlock(&pf->lock);
	thrd_join(pf->thread, NULL);
	cnd_destroy(&pf->cond);
	mtx_destroy(&pf->lock);
	for (i = 0; i < AHEAD_NBLOCK; i++)
		free(pf->block[i]);
	free(pf->error);
	free(pf);
}

const char *
capture_stream_error(const struct capture_stream *s)
{
	/* read ahead: said once the decoder has the bytes read before it, as when it reads */
	if (s->pf != NULL)
		return s->pf->taken_all ? s->pf->error : NULL;
	return s->in != NULL ? input_error(s->in) : NULL;
}

void
capture_decoder_end(struct sqtt_decoder *d, struct capture_stream *s)
{
	if (s->pf != NULL)
		prefetch_end(s->pf);
	s->pf = NULL;
	if (s->in != NULL)
		input_close(s->in);
	s->in = NULL;
	sqtt_free(d);
}

int
capture_gfx9_read(const struct event *e, const uint8_t **bytes, size_t *len, uint8_t **own,
    char *why, size_t whysz)
{
	struct input *in;
	uint8_t head[8];
	size_t n = 0, k;

	*own = NULL;
	*bytes = NULL;
	if (e->blob != NULL) {
		*len = e->len;
		if (!sqtt_stream_headerless(e->blob, e->len))
			return 0;
		*bytes = e->blob;
		return 1;
	}
	if (e->file == NULL)
		return 0;
	if ((in = input_open_why(e->file, why, whysz)) == NULL)
		return -1;
	while (n < sizeof(head) && (k = input_read(in, head + n, sizeof(head) - n)) > 0)
		n += k;
	if (input_error(in) != NULL) {
		snprintf(why, whysz, "%s", input_error(in));
		input_close(in);
		return -1;
	}
	if (!sqtt_stream_headerless(head, n)) {
		input_close(in);
		return 0;
	}
	if ((*own = input_slurp_why(in, head, n, CAPTURE_GFX9_MAX, "a gfx9 stream", len, why,
	    whysz)) == NULL)
		return -1;
	*bytes = *own;
	return 1;
}

const uint8_t *
capture_gfx9_stream(const struct event *e, size_t *len, uint8_t **own)
{
	char why[INPUT_WHY_MAX];
	const uint8_t *bytes;

	if (capture_gfx9_read(e, &bytes, len, own, why, sizeof(why)) < 0)
		die("%s", why);
	return bytes;
}

uint64_t
capture_entry(const struct event *e)
{
	struct sqtt_decoder d;
	struct capture_stream s;
	uint64_t addr;

	capture_decoder(e, &d, &s);
	addr = sqtt_entry_addr(&d);
	capture_decoder_end(&d, &s);
	return addr;
}
