/* rgp: Radeon GPU Profiler files (rgp.h). */
#include <errno.h>
#include <inttypes.h>
#include <md5.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "capture-model.h"
#include "elfsym.h"
#include "input.h"
#include "gen.h"
#include "rgp.h"
#include "sqtt.h"
#include "util.h"

/* The layout (sqtt-dump(1), RGP FILES): a 56-byte file header, then chunks, each with
 * a 16-byte header: its type (low 8 bits) and index (next 8), minor and major version,
 * its size in bytes (header included). */
#define FILE_HEADER 56
#define CHUNK_HEADER 16
enum {
	CHUNK_ASIC_INFO = 0, CHUNK_SQTT_DESC = 1, CHUNK_SQTT_DATA = 2, CHUNK_API_INFO = 3,
	CHUNK_CPU_INFO = 7, CHUNK_CODE_OBJECT_DATABASE = 9, CHUNK_CODE_OBJECT_LOADER_EVENTS = 10,
	CHUNK_PSO_CORRELATION = 11
};
#define GFXIP_11_0 0xc
#define GFXIP_11_5 0xd
#define GFXIP_12 0x10
#define SQTT_VERSION_3_2 0xb	/* gfx11 */
#define SQTT_VERSION_3_3 0xc	/* gfx12 */
#define LOADER_RECORD 40
#define ITRACE_DISABLED 0

/* Limits (sqtt-dump(1), LIMITS): chunks, code objects, loads and streams of one file. */
#define RGP_CHUNKS_MAX 100000
#define RGP_CODES_MAX 100000
#define RGP_STREAMS_MAX 1000000

static uint32_t
u32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

static uint64_t
u64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

static const char *
chunk_name(unsigned type)
{
	static const char *const names[] = { "ASIC_INFO", "SQTT_DESC", "SQTT_DATA", "API_INFO",
		"RESERVED", "QUEUE_EVENT_TIMINGS", "CLOCK_CALIBRATION", "CPU_INFO", "SPM_DB",
		"CODE_OBJECT_DATABASE", "CODE_OBJECT_LOADER_EVENTS", "PSO_CORRELATION" };

	return type < sizeof(names) / sizeof(names[0]) ? names[type] : "unknown";
}

struct rgp_code {
	const uint8_t *elf;
	size_t len;
	uint64_t hash;		/* the first 8 bytes of its MD5, as tinygrad's loads name it */
};

struct rgp_load {
	uint64_t base, hash;
};

struct rgp_pso {		/* PSO_CORRELATION: a name by pipeline hash */
	uint64_t hash;
	char name[65];
};

struct rgp_stream {
	int se;
	unsigned nth;		/* its place among its engine's streams: the dispatch */
	const uint8_t *blob;
	size_t len;
};

struct rgp_read {
	struct capture *c;
	struct rgp_code *code;
	size_t ncode;
	struct rgp_load *load;
	size_t nload;
	struct rgp_stream *st;
	size_t nst;
	struct rgp_pso *pso;
	size_t npso;
	unsigned gfxip;
	int have_api;
	unsigned itrace_mode, itrace_mask;
	unsigned nth[256];	/* streams seen per engine */
};

/* Does a chunk header sit at off, the chain of headers from it ending exactly at the
 * end of the file?  (How a misplaced chunk is told from a sound one.) */
static int
chain_ok(const uint8_t *b, size_t len, size_t off)
{
	size_t n = 0;

	while (off < len) {
		int32_t size;
		if (len - off < CHUNK_HEADER || ++n > RGP_CHUNKS_MAX)
			return 0;
		memcpy(&size, b + off + 8, 4);
		if (size < CHUNK_HEADER || (size_t)size > len - off || (b[off] & 0xff) > 32)
			return 0;
		off += (size_t)size;
	}
	return off == len;
}

/* The streams of an SQTT_DATA chunk: those of several dispatches may follow one another
 * (tinygrad's rgptool writes an engine's so), each whole 32-byte lines, each beginning
 * with the engine's HEADER: a 32-byte line that begins with the first one's 8 bytes
 * begins the next stream. */
static void
add_stream(struct rgp_read *r, int se, const uint8_t *p, size_t len)
{
	if (r->nst >= RGP_STREAMS_MAX)
		die("%s: more than %d streams", r->c->path, RGP_STREAMS_MAX);
	r->st = xreallocarray(r->st, r->nst + 1, sizeof(*r->st));
	r->st[r->nst++] = (struct rgp_stream){ se, r->nth[se]++, p, len };
}

static void
add_streams(struct rgp_read *r, int se, const uint8_t *p, size_t len)
{
	struct sqtt_header h;
	size_t start = 0, o;
	const char *why = len >= 8 ? sqtt_check_header(p, len, &h) : "short";

	/* a HEADER of any version (a generation this build does not decode is refused by
	 * the decoder, stream by stream, as a pickle's is) */
	if (why == NULL || strncmp(why, "HEADER version", 14) == 0)
		for (o = 32; o + 8 <= len; o += 32)
			if (memcmp(p + o, p, 8) == 0) {
				add_stream(r, se, p + start, o - start);
				start = o;
			}
	add_stream(r, se, p + start, len - start);
}

static uint64_t
md5_head(const uint8_t *p, size_t len)
{
	MD5_CTX ctx;
	uint8_t d[MD5_DIGEST_LENGTH];

	MD5Init(&ctx);
	MD5Update(&ctx, p, len);
	MD5Final(d, &ctx);
	return u64(d);
}

static void
read_codb(struct rgp_read *r, const uint8_t *b, size_t off, size_t size)
{
	size_t j = off + 32, end = off + size;
	uint32_t count;

	if (size < 32)
		die("%s: the CODE_OBJECT_DATABASE chunk at offset %zu is shorter than its header",
		    r->c->path, off);
	count = u32(b + off + 28);
	while (j < end) {
		uint32_t n;
		struct rgp_code *k;
		if (end - j < 4 || (n = u32(b + j)) > end - j - 4)
			die("%s: a code object record at offset %zu runs past its chunk's end", r->c->path,
			    j);
		if (r->ncode >= RGP_CODES_MAX)
			die("%s: more than %d code objects", r->c->path, RGP_CODES_MAX);
		r->code = xreallocarray(r->code, r->ncode + 1, sizeof(*r->code));
		k = &r->code[r->ncode++];
		k->elf = b + j + 4;
		k->len = n;
		k->hash = md5_head(k->elf, k->len);
		j += 4 + n;
	}
	if (count != r->ncode)
		die("%s: the CODE_OBJECT_DATABASE chunk says %u code objects and holds %zu",
		    r->c->path, count, r->ncode);
}

static void
read_loads(struct rgp_read *r, const uint8_t *b, size_t off, size_t size)
{
	uint32_t rs, count, i;

	if (size < 32)
		die("%s: the CODE_OBJECT_LOADER_EVENTS chunk at offset %zu is shorter than its "
		    "header", r->c->path, off);
	rs = u32(b + off + 24);
	count = u32(b + off + 28);
	if (rs < LOADER_RECORD || count > (size - 32) / rs || count > RGP_CODES_MAX)
		die("%s: the CODE_OBJECT_LOADER_EVENTS chunk holds no %u records of %u bytes",
		    r->c->path, count, rs);
	for (i = 0; i < count; i++) {
		const uint8_t *p = b + off + 32 + (size_t)i * rs;
		if (u32(p) != 0)	/* a load; 1 is an unload */
			continue;
		r->load = xreallocarray(r->load, r->nload + 1, sizeof(*r->load));
		r->load[r->nload].base = u64(p + 8);
		r->load[r->nload++].hash = u64(p + 16);
	}
}

static void
read_pso(struct rgp_read *r, const uint8_t *b, size_t off, size_t size)
{
	uint32_t rs, count, i;

	if (size < 32)
		return;
	rs = u32(b + off + 24);
	count = u32(b + off + 28);
	if (rs < 88 || count > (size - 32) / rs || count > RGP_CODES_MAX)
		die("%s: the PSO_CORRELATION chunk holds no %u records of %u bytes", r->c->path,
		    count, rs);
	for (i = 0; i < count; i++) {
		const uint8_t *p = b + off + 32 + (size_t)i * rs;
		struct rgp_pso *q;
		if (p[24] == '\0')
			continue;
		r->pso = xreallocarray(r->pso, r->npso + 1, sizeof(*r->pso));
		q = &r->pso[r->npso++];
		q->hash = u64(p + 8);
		memcpy(q->name, p + 24, 64);
		q->name[64] = '\0';
	}
}

/* The chunks, in file order; a chunk of a type not read here is skipped by its size. */
static void
read_chunks(struct rgp_read *r)
{
	const uint8_t *b = r->c->data;
	size_t len = r->c->len, off, n = 0;
	int32_t chunk_offset, size;
	int desc[256] = { 0 };

	if (len < FILE_HEADER)
		die("%s: an RGP file shorter than its header", r->c->path);
	if (u32(b + 4) != 1)
		die("%s: RGP file version %u.%u: only version 1 is read", r->c->path, u32(b + 4),
		    u32(b + 8));
	memcpy(&chunk_offset, b + 16, 4);
	if (chunk_offset < FILE_HEADER || (size_t)chunk_offset > len)
		die("%s: the RGP header's chunk offset %d is outside the file", r->c->path,
		    chunk_offset);
	for (off = (size_t)chunk_offset; off < len; off += (size_t)size) {
		unsigned type, index;
		if (++n > RGP_CHUNKS_MAX)
			die("%s: more than %d chunks", r->c->path, RGP_CHUNKS_MAX);
		if (len - off < CHUNK_HEADER)
			die("%s: %zu bytes after the last chunk, short of a chunk header", r->c->path,
			    len - off);
		type = b[off];
		index = b[off + 1];
		memcpy(&size, b + off + 8, 4);
		if (size < CHUNK_HEADER || (size_t)size > len - off)
			die("%s: the %s chunk at offset %zu declares %d bytes (%zu left in the file)",
			    r->c->path, chunk_name(type), off, size, len - off);
		/* a chunk whose next header is garbage where one 1 to 3 bytes earlier starts a
		 * sound chain: tinygrad's rgptool declared a code object record rounded up to 4
		 * bytes and wrote it unpadded */
		if (type == CHUNK_CODE_OBJECT_DATABASE && !chain_ok(b, len, off + (size_t)size)) {
			size_t d;
			for (d = 1; d <= 3 && (size_t)size > d; d++)
				if (chain_ok(b, len, off + (size_t)size - d))
					die("%s: the CODE_OBJECT_DATABASE chunk at offset %zu declares %d bytes "
					    "and holds %d: a code object record declared longer than it is "
					    "(tinygrad's rgptool rounds a record's size up to 4 bytes without "
					    "padding it), so every chunk after it is misplaced", r->c->path,
					    off, size, size - (int)d);
		}
		switch (type) {
		case CHUNK_ASIC_INFO:
			if (size >= 100)
				r->gfxip = u32(b + off + 96);
			break;
		case CHUNK_API_INFO:
			if (size >= 560) {
				r->have_api = 1;
				r->itrace_mode = u32(b + off + 544);
				r->itrace_mask = u32(b + off + 552);
			}
			break;
		case CHUNK_SQTT_DESC:
			if (size < 24)
				die("%s: the SQTT_DESC chunk at offset %zu is shorter than its fields",
				    r->c->path, off);
			if (u32(b + off + 16) != index)
				die("%s: the SQTT_DESC chunk at offset %zu is of shader engine %u, its "
				    "index %u", r->c->path, off, u32(b + off + 16), index);
			desc[index] = 1;
			break;
		case CHUNK_SQTT_DATA: {
			int32_t doff, dsize;
			if (size < 24)
				die("%s: the SQTT_DATA chunk at offset %zu is shorter than its fields",
				    r->c->path, off);
			memcpy(&doff, b + off + 16, 4);
			memcpy(&dsize, b + off + 20, 4);
			if (doff < 0 || dsize < 0 || (size_t)doff < off + 24 ||
			    (size_t)doff + (size_t)dsize > off + (size_t)size)
				die("%s: the SQTT_DATA chunk at offset %zu places its %d bytes at %d, "
				    "outside itself", r->c->path, off, dsize, doff);
			if (!desc[index])
				die("%s: the SQTT_DATA chunk at offset %zu is of shader engine %u, which "
				    "no SQTT_DESC chunk before it describes", r->c->path, off, index);
			add_streams(r, (int)index, b + doff, (size_t)dsize);
			break;
		}
		case CHUNK_CODE_OBJECT_DATABASE:
			read_codb(r, b, off, (size_t)size);
			break;
		case CHUNK_CODE_OBJECT_LOADER_EVENTS:
			read_loads(r, b, off, (size_t)size);
			break;
		case CHUNK_PSO_CORRELATION:
			read_pso(r, b, off, (size_t)size);
			break;
		}
	}
}

/* The programs: each load of a code object (joined by hash; by order where no hash
 * matches and there are as many loads as objects), named by the kernel at each
 * stream's entry. */
static const struct rgp_code *
code_of_load(const struct rgp_read *r, size_t i)
{
	size_t j;

	for (j = 0; j < r->ncode; j++)
		if (r->code[j].hash == r->load[i].hash)
			return &r->code[j];
	return r->nload == r->ncode ? &r->code[i] : NULL;
}

static int
program_at(struct rgp_read *r, uint64_t addr, const struct rgp_stream *s)
{
	struct capture *c = r->c;
	size_t i, j, n = 0, hold = 0;
	char *name = NULL, why[160];

	for (i = 0; i < r->nload; i++) {
		const struct rgp_code *k = code_of_load(r, i);
		uint64_t extent;
		if (k == NULL)
			continue;
		extent = elfsym_load_size(k->elf, k->len);
		if (extent == 0)
			extent = k->len;
		if (addr != 0 && (addr < r->load[i].base || addr - r->load[i].base >= extent))
			continue;
		n++;
		hold = i;
		if (addr != 0 && elfsym_kernel_at(k->elf, k->len, addr - r->load[i].base, &name, why,
		    sizeof(why)) == 1)
			break;
	}
	if (i == r->nload) {
		/* no symbol names it: the only code object that holds it, its only kernel */
		if (n != 1) {
			warning_out("%s: shader engine %d's stream %u: %s; left out", c->path, s->se,
			    s->nth, addr == 0 ? "no entry address (COMPUTE_PGM) in it, and not one code "
			    "object in the file" : n == 0 ? "its entry is in no loaded code object" :
			    "its entry is in several loaded code objects and names no kernel");
			return -1;
		}
		i = hold;
		for (j = 0; j < r->npso; j++)
			if (r->pso[j].hash == r->load[i].hash) {
				name = xstrdup(r->pso[j].name);
				break;
			}
		if (name == NULL && elfsym_only_kernel(code_of_load(r, i)->elf,
		    code_of_load(r, i)->len, &name, why, sizeof(why)) != 1 &&
		    asprintf(&name, "code_object_%zu", i) < 0)
			die("out of memory");
	}
	for (j = 0; j < c->nprog; j++)
		if (c->prog[j].tag == (int64_t)i + 1 && strcmp(c->prog[j].name, name) == 0) {
			free(name);
			return (int)j;
		}
	{
		const struct rgp_code *k = code_of_load(r, i);
		struct program *p = capture_add_program(c);
		p->name = name;
		p->tag = (int64_t)i + 1;
		p->base = r->load[i].base;
		p->code = k->elf;
		p->size = k->len;
	}
	return (int)(c->nprog - 1);
}

static int
cmp_stream(const void *x, const void *y)
{
	const struct rgp_stream *a = x, *b = y;

	if (a->nth != b->nth)
		return a->nth < b->nth ? -1 : 1;
	return a->se - b->se;
}

static void
rgp_read_free(void *arg)
{
	struct rgp_read *r = arg;

	free(r->code);
	free(r->load);
	free(r->st);
	free(r->pso);
}

void
rgp_open(struct capture *c)
{
	struct rgp_read r = { .c = c };
	const struct isa_target *t = NULL;
	size_t i;

	fatal_push(rgp_read_free, &r);
	read_chunks(&r);
	if (r.nst == 0)
		die("%s: no SQTT_DATA chunk: an RGP file without a thread trace", c->path);
	for (i = 0; i < r.nload; i++)
		if (code_of_load(&r, i) == NULL)
			die("%s: load %zu at 0x%" PRIx64 " is of no code object of the file", c->path, i,
			    r.load[i].base);
	/* the target: the code objects' processor (ASIC_INFO says only the generation) */
	for (i = 0; i < r.ncode && t == NULL; i++)
		t = isa_target_by_mach(elfsym_mach(r.code[i].elf, r.code[i].len));
	if (t != NULL) {
		free(c->target);
		c->target = xstrdup(t->name);
	}
	/* dispatch-major, as tinygrad's own captures are */
	xqsort(r.st, r.nst, sizeof(*r.st), cmp_stream);
	for (i = 0; i < r.nst; i++) {
		struct event ev = { .blob = r.st[i].blob, .len = r.st[i].len, .prog = -1 };
		int prog = program_at(&r, capture_entry(&ev), &r.st[i]);
		struct event *e;
		if (prog < 0)
			continue;
		e = capture_add_event(c);
		e->se = r.st[i].se;
		e->blob = r.st[i].blob;
		e->len = r.st[i].len;
		e->prog = prog;
		e->dispatch = r.st[i].nth + 1;
		e->itrace = !r.have_api || (r.itrace_mode != ITRACE_DISABLED &&
		    (r.itrace_mask == 0 || (r.st[i].se < 32 && (r.itrace_mask >> r.st[i].se & 1))));
	}
	fatal_pop(&r);
	rgp_read_free(&r);
	if (c->nev == 0)
		die("%s: no stream's program was found: nothing to decode", c->path);
}

/* The writer, after Mesa's (src/amd/common/ac_rgp.c): the file header, CPU_INFO,
 * ASIC_INFO, API_INFO, CODE_OBJECT_DATABASE, CODE_OBJECT_LOADER_EVENTS,
 * PSO_CORRELATION, then an SQTT_DESC and an SQTT_DATA chunk per shader engine. */
struct wr {
	FILE *fp;
	const char *path;
	long at;
	struct wcode *code;
	struct wload *load;
};

static void
wr_free(void *arg)
{
	struct wr *w = arg;

	if (w->fp != NULL)	/* an error before the end: no half-written file left */
		discard_output(w->fp, w->path);
	free(w->code);
	free(w->load);
}

static void
put(struct wr *w, const void *p, size_t n)
{
	if (n > 0 && fwrite(p, 1, n, w->fp) != n)
		die("%s: %s", w->path, strerror(errno));
	w->at += (long)n;
}

static void
put_chunk_header(uint8_t *h, unsigned type, unsigned index, unsigned minor, unsigned major,
    size_t size)
{
	uint32_t s = (uint32_t)size;

	memset(h, 0, CHUNK_HEADER);
	h[0] = (uint8_t)type;
	h[1] = (uint8_t)index;
	h[4] = (uint8_t)minor;
	h[6] = (uint8_t)major;
	memcpy(h + 8, &s, 4);
}

static void
set32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, 4);
}

static void
set64(uint8_t *p, uint64_t v)
{
	memcpy(p, &v, 8);
}

/* The generation facts of ASIC_INFO: a 7900 XTX's where the target is gfx11 (the
 * numbers tinygrad's rgptool writes), gfx12's level for gfx12; RGP needs the clocks. */
static void
put_asic(struct wr *w, const char *target, int nse)
{
	uint8_t a[768] = { 0 };
	int gfx12 = target != NULL && strncmp(target, "gfx12", 5) == 0, se;

	put_chunk_header(a, CHUNK_ASIC_INFO, 0, 5, 0, sizeof(a));
	set64(a + 24, 2500000000ULL);		/* trace_shader_core_clock */
	set64(a + 32, 1250000000ULL);		/* trace_memory_clock */
	set32(a + 40, target != NULL && strcmp(target, "gfx1100") == 0 ? 0x744c : 0);
	set32(a + 48, 1536);			/* vgprs_per_simd */
	set32(a + 52, 2048);			/* sgprs_per_simd */
	set32(a + 56, (uint32_t)nse);		/* shader_engines */
	set32(a + 60, 16);			/* compute_unit_per_shader_engine */
	set32(a + 64, 2);			/* simd_per_compute_unit */
	set32(a + 68, 16);			/* wavefronts_per_simd */
	set32(a + 72, 4);
	set32(a + 76, 8);
	set32(a + 80, 128);
	set32(a + 84, 128);
	set32(a + 88, 8);			/* hardware_contexts */
	set32(a + 92, 2);			/* discrete */
	set32(a + 96, gfx12 ? GFXIP_12 : GFXIP_11_0);
	set32(a + 148, 65536);			/* lds_size */
	memcpy(a + 152, gfx12 ? "NAVI48" : "NAVI31", 6);
	set64(a + 424, 100000000ULL);		/* gpu_timestamp_frequency */
	set64(a + 432, 2500000000ULL);		/* max_shader_core_clock */
	set64(a + 440, 1250000000ULL);		/* max_memory_clock */
	set32(a + 448, 16);			/* memory_ops_per_clock */
	set32(a + 452, 0x13);			/* GDDR6 */
	set32(a + 456, 512);			/* lds_granularity */
	for (se = 0; se < nse && se < 32; se++)
		a[460 + se * 4] = a[462 + se * 4] = 0xff;	/* cu_mask, both arrays */
	put(w, a, sizeof(a));
}

struct wcode {
	const uint8_t *elf;
	size_t len;
	uint64_t hash;
};

struct wload {
	uint64_t base, hash;
	const char *name;
};

/* What the events ask of the file, before a byte is written: 0, or -1 with why (a code
 * object that cannot be read is the reader's error, raised). */
static int
write_check(struct capture *c,
    int (*selected)(const struct capture *, const struct event *, void *), void *arg,
    char *why, size_t whysz)
{
	size_t i, n = 0, len;

	for (i = 0; i < c->nev; i++) {
		const struct event *e = &c->ev[i];
		if (selected != NULL && !selected(c, e, arg))
			continue;
		n++;
		if (e->se < 0 || e->se > 255)
			return fail_why(why, whysz, "%s: event %zu has no shader engine 0..255: not "
			    "written", c->path, i);
		if (e->prog < 0)
			return fail_why(why, whysz, "%s: event %zu matches no program: an RGP file "
			    "needs each stream's code object", c->path, i);
	}
	if (n == 0)
		return fail_why(why, whysz, "%s: no trace buffer to write", c->path);
	for (i = 0; i < c->nprog; i++)
		if (capture_code(c, i, &len) == NULL)
			return fail_why(why, whysz, "%s: program %s has no code object", c->path,
			    c->prog[i].name);
	return 0;
}

static size_t
write_rgp(struct capture *c, const char *path,
    int (*selected)(const struct capture *, const struct event *, void *), void *arg)
{
	struct wr w = { .path = path };
	struct wcode *code = NULL;
	struct wload *load = NULL;
	size_t ncode = 0, nload = 0, i, j, n = 0, len;
	uint8_t h[64], cpu[112] = { 0 }, api[560] = { 0 };
	int nse = 0, se, itrace_all = 1, itrace_any = 0;
	uint32_t mask = 0, t32;
	long start;
	time_t now = time(NULL);
	struct tm tm;
	FILE *fp;

	fatal_push(wr_free, &w);
	for (i = 0; i < c->nev; i++) {
		const struct event *e = &c->ev[i];
		if (selected != NULL && !selected(c, e, arg))
			continue;
		n++;
		if (e->se + 1 > nse)
			nse = e->se + 1;
		itrace_all &= e->itrace != 0;
		itrace_any |= e->itrace != 0;
		if (e->itrace && e->se < 32)
			mask |= 1u << e->se;
	}
	/* the code objects (each once) and their loads (each program's, once) */
	for (i = 0; i < c->nprog; i++) {
		const uint8_t *elf = capture_code(c, i, &len);
		uint64_t hash;
		hash = md5_head(elf, len);
		for (j = 0; j < ncode && !(code[j].hash == hash && code[j].len == len &&
		    memcmp(code[j].elf, elf, len) == 0); j++)
			;
		if (j == ncode) {
			code = w.code = xreallocarray(code, ncode + 1, sizeof(*code));
			code[ncode++] = (struct wcode){ elf, len, hash };
		}
		for (j = 0; j < nload && !(load[j].base == c->prog[i].base && load[j].hash == hash);
		    j++)
			;
		if (j == nload) {
			load = w.load = xreallocarray(load, nload + 1, sizeof(*load));
			load[nload++] = (struct wload){ c->prog[i].base, hash, c->prog[i].name };
		}
	}
	if ((w.fp = fopen(path, "wb")) == NULL)
		die("%s: %s", path, strerror(errno));

	memset(h, 0, sizeof(h));
	set32(h, RGP_MAGIC);
	set32(h + 4, 1);
	set32(h + 8, 5);
	set32(h + 12, 1);		/* is_semaphore_queue_timing_etw */
	set32(h + 16, FILE_HEADER);
	if (localtime_r(&now, &tm) != NULL) {
		int f[] = { tm.tm_sec, tm.tm_min, tm.tm_hour, tm.tm_mday, tm.tm_mon, tm.tm_year,
			tm.tm_wday, tm.tm_yday, tm.tm_isdst };
		for (j = 0; j < 9; j++)
			set32(h + 20 + 4 * j, (uint32_t)f[j]);
	}
	put(&w, h, FILE_HEADER);

	put_chunk_header(cpu, CHUNK_CPU_INFO, 0, 0, 0, sizeof(cpu));
	memcpy(cpu + 16, "Unknown", 7);
	memcpy(cpu + 32, "Unknown", 7);
	set64(cpu + 88, 1000000000ULL);	/* cpu_timestamp_freq: 1 ns */
	put(&w, cpu, sizeof(cpu));

	put_asic(&w, strcmp(c->target, "-") ? c->target : NULL, nse);

	put_chunk_header(api, CHUNK_API_INFO, 0, 2, 0, sizeof(api));
	set32(api + 16, 5);		/* HIP, as rgptool writes (not in Mesa's list) */
	set32(api + 544, itrace_any ? 1 : ITRACE_DISABLED);	/* FULL_FRAME */
	set32(api + 552, itrace_all ? 0 : mask);	/* shader_engine_filter */
	put(&w, api, sizeof(api));

	/* CODE_OBJECT_DATABASE: each record its size (padded to 4, the padding written) */
	start = w.at;
	len = 32;
	for (j = 0; j < ncode; j++)
		len += 4 + ((code[j].len + 3) & ~(size_t)3);
	if (len > INT32_MAX)
		die("%s: code objects of %zu bytes: more than an RGP chunk holds", c->path, len);
	put_chunk_header(h, CHUNK_CODE_OBJECT_DATABASE, 0, 0, 0, len);
	set32(h + 16, (uint32_t)start);
	set32(h + 20, 0);
	set32(h + 24, (uint32_t)len);
	set32(h + 28, (uint32_t)ncode);
	put(&w, h, 32);
	for (j = 0; j < ncode; j++) {
		static const uint8_t zero[4];
		size_t padded = (code[j].len + 3) & ~(size_t)3;
		t32 = (uint32_t)padded;
		put(&w, &t32, 4);
		put(&w, code[j].elf, code[j].len);
		put(&w, zero, padded - code[j].len);
	}

	/* CODE_OBJECT_LOADER_EVENTS: a load per program's code object and base, its hash
	 * the first 8 bytes of the object's MD5, twice (as rgptool writes) */
	put_chunk_header(h, CHUNK_CODE_OBJECT_LOADER_EVENTS, 0, 0, 1, 32 + nload * LOADER_RECORD);
	set32(h + 16, (uint32_t)w.at);
	set32(h + 20, 0);
	set32(h + 24, LOADER_RECORD);
	set32(h + 28, (uint32_t)nload);
	put(&w, h, 32);
	for (j = 0; j < nload; j++) {
		uint8_t rec[LOADER_RECORD] = { 0 };
		set64(rec + 8, load[j].base);
		set64(rec + 16, load[j].hash);
		set64(rec + 24, load[j].hash);
		put(&w, rec, sizeof(rec));
	}

	/* PSO_CORRELATION: a record per load, its name the program's (for objects whose
	 * symbols do not name their kernels) */
	put_chunk_header(h, CHUNK_PSO_CORRELATION, 0, 0, 0, 32 + nload * 88);
	set32(h + 16, (uint32_t)w.at);
	set32(h + 20, 0);
	set32(h + 24, 88);
	set32(h + 28, (uint32_t)nload);
	put(&w, h, 32);
	for (j = 0; j < nload; j++) {
		uint8_t rec[88] = { 0 };
		size_t nl = strlen(load[j].name);
		set64(rec, load[j].hash);
		set64(rec + 8, load[j].hash);
		set64(rec + 16, load[j].hash);
		memcpy(rec + 24, load[j].name, nl < 63 ? nl : 63);
		put(&w, rec, sizeof(rec));
	}

	/* per shader engine: its streams back to back, each padded to whole 32-byte lines */
	for (se = 0; se < nse; se++) {
		long data_at;
		size_t size = 0;
		for (i = 0; i < c->nev; i++)
			if (c->ev[i].se == se && (selected == NULL || selected(c, &c->ev[i], arg)))
				break;
		if (i == c->nev)
			continue;
		put_chunk_header(h, CHUNK_SQTT_DESC, (unsigned)se, 2, 0, 32);
		set32(h + 16, (uint32_t)se);
		set32(h + 20, strncmp(c->target, "gfx12", 5) == 0 ? SQTT_VERSION_3_3 :
		    SQTT_VERSION_3_2);
		h[24] = 1;			/* instrumentation_spec_version */
		h[26] = 5;			/* instrumentation_api_version */
		set32(h + 28, 0);
		put(&w, h, 32);
		data_at = w.at;
		put(&w, h, 24);			/* written again once the size is known */
		for (; i < c->nev; i++) {
			const struct event *e = &c->ev[i];
			uint8_t buf[1 << 16];
			size_t got, one = 0;
			if (e->se != se || (selected != NULL && !selected(c, e, arg)))
				continue;
			if (e->blob != NULL) {
				put(&w, e->blob, e->len);
				one = e->len;
			} else {
				struct input *in = input_open(e->file);
				fatal_push(input_close_v, in);
				while ((got = input_read(in, buf, sizeof(buf))) > 0) {
					put(&w, buf, got);
					one += got;
				}
				fatal_pop(in);
				input_close(in);
			}
			if (one % 32 != 0) {
				memset(buf, 0, 32);
				put(&w, buf, 32 - one % 32);
				one += 32 - one % 32;
			}
			size += one;
			if (size > INT32_MAX - 64)
				die("%s: shader engine %d's streams: more than an RGP chunk holds",
				    c->path, se);
		}
		put_chunk_header(h, CHUNK_SQTT_DATA, (unsigned)se, 0, 0, 24 + size);
		set32(h + 16, (uint32_t)(data_at + 24));
		set32(h + 20, (uint32_t)size);
		if (fseek(w.fp, data_at, SEEK_SET) != 0 || fwrite(h, 1, 24, w.fp) != 24 ||
		    fseek(w.fp, 0, SEEK_END) != 0)
			die("%s: not a file that can be written with seeks: %s", path,
			    strerror(errno));
	}
	fp = w.fp;
	w.fp = NULL;
	if (fflush(fp) != 0 || ferror(fp) || fclose(fp) != 0)
		die("%s: %s", path, strerror(errno));
	fatal_pop(&w);
	wr_free(&w);
	return n;
}

/* The writer's errors (die, deep in it and in the input it copies) come back here. */
size_t
rgp_write(struct capture *c, const char *path,
    int (*selected)(const struct capture *, const struct event *, void *), void *arg,
    char *why, size_t whysz)
{
	struct fatal_catch fc;
	size_t n;

	fatal_arm(&fc, why, whysz);
	if (setjmp(fc.back) != 0)
		return 0;
	if (write_check(c, selected, arg, why, whysz) != 0) {
		fatal_disarm(&fc);
		return 0;
	}
	n = write_rgp(c, path, selected, arg);
	fatal_disarm(&fc);
	return n;
}
