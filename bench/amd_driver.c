/* amd_driver LIB CODE BASE STREAM: the bench's run of AMD's rocprof-trace-decoder (its
 * library LIB, the V1 interface, opened with dlopen: nothing of it is built in or
 * shipped) doing the job stall(1) does: decode the SQTT stream STREAM, walk its waves
 * through the code object CODE loaded at BASE (the instructions given to the decoder as it
 * asks for them, from this project's disassembly, as rocprofv3's callback gives LLVM's),
 * and sum each instruction's stall.  Prints "pc hits stall duration" per instruction (pc
 * in the object, hex) in pc order, then "#waves N", "#instructions N"; exit 2 when the
 * library, the files or the decoder fail.  bench/run.sh times it beside stall on the same
 * stream.
 *
 * The declarations below are the library's calling convention (its public header's
 * types, the few this driver uses). */
#include <dlfcn.h>
#include <err.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codeobj.h"
#include "input.h"
#include "util.h"

enum { AMD_OK = 0, AMD_ERROR = 1, AMD_OUT_OF_RESOURCES = 2, AMD_INVALID_ARGUMENT = 3 };
enum { AMD_RECORD_WAVE = 3 };	/* the record type of a wave's instructions */

struct amd_pc {
	uint64_t address;	/* the address (code_object_id 0) */
	uint64_t code_object_id;
};
struct amd_inst {
	uint32_t category : 8;
	uint32_t stall : 24;	/* cycles the wave waited before it issued */
	int32_t duration;
	int64_t time;
	struct amd_pc pc;
};
struct amd_wave {
	uint8_t cu, simd, wave_id, contexts;
	uint32_t rsvd[3];
	int64_t begin_time, end_time;
	uint64_t timeline_size, instructions_size;
	void *timeline;
	struct amd_inst *instructions;
};

typedef uint64_t (*amd_se_fn)(uint8_t **buffer, uint64_t *size, void *ctx);
typedef int (*amd_trace_fn)(int record, void *events, uint64_t n, void *ctx);
typedef int (*amd_isa_fn)(char *text, uint64_t *memory_size, uint64_t *size,
    struct amd_pc pc, void *ctx);
typedef int (*amd_parse_fn)(amd_se_fn, amd_trace_fn, amd_isa_fn, void *ctx);

/* an instruction's sums, by its pc in the object (found through the u64map) */
struct sum {
	uint64_t pc, hits, stall, duration;
};

struct run {
	uint8_t *stream;
	size_t len;
	int given;
	struct codeobj *co;
	uint64_t base;
	struct u64map by_pc;	/* pc: its sum's index + 1 */
	struct sum *sum;
	size_t nsum, cap;
	uint64_t waves, insts, unknown_pc;
};

static struct sum *
sum_of(struct run *r, uint64_t pc)
{
	void **slot = u64map_slot(&r->by_pc, pc);

	if (*slot == NULL) {
		if (r->nsum == r->cap) {
			r->cap = r->cap ? 2 * r->cap : 1024;
			r->sum = xreallocarray(r->sum, r->cap, sizeof(*r->sum));
		}
		r->sum[r->nsum] = (struct sum){ pc, 0, 0, 0 };
		*slot = (void *)(uintptr_t)++r->nsum;
	}
	return &r->sum[(uintptr_t)*slot - 1];
}

static uint64_t
se_data(uint8_t **buffer, uint64_t *size, void *ctx)
{
	struct run *r = ctx;

	if (r->given)
		return 0;
	r->given = 1;
	*buffer = r->stream;
	*size = r->len;
	return r->len;
}

static int
trace(int record, void *events, uint64_t n, void *ctx)
{
	struct run *r = ctx;
	const struct amd_wave *w = events;
	uint64_t i, j;

	if (record != AMD_RECORD_WAVE)
		return AMD_OK;
	for (i = 0; i < n; i++, w++) {
		r->waves++;
		for (j = 0; j < w->instructions_size; j++) {
			const struct amd_inst *in = &w->instructions[j];
			struct sum *s = sum_of(r, in->pc.address - r->base);
			s->hits++;
			s->stall += in->stall;
			s->duration += (uint64_t)(in->duration > 0 ? in->duration : 0);
			r->insts++;
		}
	}
	return AMD_OK;
}

static int
isa(char *text, uint64_t *memory_size, uint64_t *size, struct amd_pc pc, void *ctx)
{
	struct run *r = ctx;
	const struct inst *in = pc.address >= r->base ? codeobj_at(r->co, pc.address - r->base) :
	    NULL;
	size_t n;

	if (in == NULL) {
		r->unknown_pc++;
		return AMD_INVALID_ARGUMENT;
	}
	n = strlen(in->text);
	if (*size < n + 1) {
		*size = n + 1;
		return AMD_OUT_OF_RESOURCES;
	}
	memcpy(text, in->text, n + 1);
	*size = n;
	*memory_size = in->cls == IC_ENDPGM ? 0 : in->size;	/* 0: the program ends */
	return AMD_OK;
}

static int
cmp_pc(const void *a, const void *b)
{
	const struct sum *x = a, *y = b;

	return x->pc < y->pc ? -1 : x->pc > y->pc;
}

int
main(int argc, char **argv)
{
	struct run r = { 0 };
	void *lib;
	amd_parse_fn parse;
	size_t codelen, i;
	uint8_t *code;
	char why[256], *end;
	int st;

	if (argc != 5) {
		fprintf(stderr, "usage: amd_driver LIB CODE BASE STREAM\n");
		return 2;
	}
	if ((lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL)) == NULL)
		errx(2, "%s", dlerror());
	if ((parse = (amd_parse_fn)dlsym(lib, "rocprof_trace_decoder_parse_data")) == NULL)
		errx(2, "%s: no rocprof_trace_decoder_parse_data (not the V1 library)", argv[1]);
	code = input_slurp(argv[2], &codelen);	/* an unreadable file is its exit */
	r.base = strtoull(argv[3], &end, 0);
	if (end == argv[3] || *end != '\0')
		errx(2, "%s: not an address", argv[3]);
	r.stream = input_slurp(argv[4], &r.len);
	codeobj_prepare(NULL);
	/* the decoder asks for each instruction on its own thread, as rocprofv3's callback
	 * disassembles it: one thread, not stall's parts on every core */
	codeobj_threads(1, 0);
	if ((r.co = codeobj_open(code, codelen, NULL, NULL, why, sizeof(why))) == NULL)
		errx(2, "%s: %s", argv[2], why);
	if ((st = parse(se_data, trace, isa, &r)) != AMD_OK)
		errx(2, "%s: the decoder failed (status %d)", argv[4], st);
	qsort(r.sum, r.nsum, sizeof(*r.sum), cmp_pc);
	printf("#pc\thits\tstall\tduration\n");
	for (i = 0; i < r.nsum; i++)
		printf("0x%" PRIx64 "\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\n", r.sum[i].pc,
		    r.sum[i].hits, r.sum[i].stall, r.sum[i].duration);
	printf("#waves\t%" PRIu64 "\n#instructions\t%" PRIu64 "\n", r.waves, r.insts);
	if (r.unknown_pc)
		fprintf(stderr, "amd_driver: %" PRIu64 " addresses outside the code object\n",
		    r.unknown_pc);
	codeobj_close(r.co);
	free(code);
	free(r.stream);
	free(r.sum);
	u64map_free(&r.by_pc);
	return 0;
}
