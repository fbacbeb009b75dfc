/* codeobj_test [-r] [-t TARGET] FILE [KERNEL]: print what codeobj makes of a code object, for
 * the stream target TARGET (as a ##target line gives it; none: not said).
 *   entry 0x...
 *   0xPC <tab> SIZE <tab> CLASS <tab> DEP|- <tab> TEXT [<tab> target=0x... | wait=vm,lgkm,...]
 * The last field appears only for branches (their target) and s_waitcnt* (the counters
 * they wait on, "none" if none).  -r: only what a walk from the entry reaches (codeobj_at,
 * the fall-through path to the first s_endpgm, at most 64 instructions), then "read N":
 * the instructions disassembled for it.  Errors: "codeobj_test: FILE: REASON", exit 2. */
#include "codeobj.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *dep_name(const struct inst *in, char *buf, size_t sz)
{
	static const char *const ids[] = {
		NULL, "VALU_DEP_1", "VALU_DEP_2", "VALU_DEP_3", "VALU_DEP_4", "TRANS32_DEP_1",
		"TRANS32_DEP_2", "TRANS32_DEP_3", "FMA_ACCUM_CYCLE_1", "SALU_CYCLE_1",
		"SALU_CYCLE_2", "SALU_CYCLE_3" };

	if (in->dep == DEP_NONE)
		return "-";
	if (in->dep_id > 0 && in->dep_id < sizeof ids / sizeof ids[0])
		return ids[in->dep_id];
	snprintf(buf, sz, "dep%d_%u", (int)in->dep, in->dep_arg);
	return buf;
}

static void wait_names(unsigned w, char *buf, size_t sz)
{
	static const struct { unsigned bit; const char *name; } c[] = {
		{ WAIT_VM, "vm" }, { WAIT_LGKM, "lgkm" }, { WAIT_EXP, "exp" }, { WAIT_VS, "vs" } };
	size_t len = 0;

	buf[0] = 0;
	for (size_t i = 0; i < sizeof c / sizeof c[0]; i++)
		if (w & c[i].bit)
			len += (size_t)snprintf(buf + len, sz - len, "%s%s", len ? "," : "", c[i].name);
	if (!len)
		snprintf(buf, sz, "none");
}

static unsigned char *slurp(const char *path, size_t *n, char *err, size_t errsz)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf = NULL;
	size_t cap = 0, len = 0;

	if (!f) {
		snprintf(err, errsz, "%s", strerror(errno));
		return NULL;
	}
	for (;;) {
		if (len == cap) {
			unsigned char *nb = realloc(buf, cap ? 2 * cap : 65536);
			if (!nb) {
				snprintf(err, errsz, "out of memory");
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = nb;
			cap = cap ? 2 * cap : 65536;
		}
		size_t r = fread(buf + len, 1, cap - len, f);
		len += r;
		if (r == 0)
			break;
	}
	if (ferror(f)) {
		snprintf(err, errsz, "read error");
		free(buf);
		fclose(f);
		return NULL;
	}
	fclose(f);
	*n = len;
	return buf;
}

int main(int argc, char **argv)
{
	char err[512], db[32], wb[32];
	unsigned char *img;
	size_t size, n;
	struct codeobj *co;
	const struct inst *v;
	const struct isa_target *target = NULL;
	int said = 0, reached = 0, threads = 0;

	if (argc > 1 && strcmp(argv[1], "-r") == 0) {
		reached = 1;
		argc--;
		argv++;
	}
	if (argc > 2 && strcmp(argv[1], "-j") == 0) {	/* -j THREADS[,MIN_BYTES] */
		char *end;
		unsigned long nt = strtoul(argv[2], &end, 10), min = 0;

		if (*end == ',')
			min = strtoul(end + 1, &end, 10);
		if (*end != '\0' || nt == 0) {
			fprintf(stderr, "codeobj_test: -j %s: not THREADS[,MIN_BYTES]\n", argv[2]);
			return 2;
		}
		codeobj_threads((unsigned)nt, min);
		threads = 1;
		argc -= 2;
		argv += 2;
	}
	if (argc > 2 && strcmp(argv[1], "-t") == 0) {
		if ((target = isa_stream_target(argv[2], &said, err, sizeof err)) == NULL) {
			fprintf(stderr, "codeobj_test: %s\n", err);
			return 2;
		}
		argc -= 2;
		argv += 2;
	}
	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: codeobj_test [-r] [-j THREADS[,MIN]] [-t TARGET] FILE [KERNEL]\n");
		return 2;
	}
	img = slurp(argv[1], &size, err, sizeof err);
	if (!img) {
		fprintf(stderr, "codeobj_test: %s: %s\n", argv[1], err);
		return 2;
	}
	co = codeobj_open(img, size, argc > 2 ? argv[2] : NULL, said ? target : NULL, err,
	    sizeof err);
	if (!co) {
		fprintf(stderr, "codeobj_test: %s: %s\n", argv[1], err);
		free(img);
		return 2;
	}
	printf("entry 0x%" PRIx64 "\n", codeobj_entry(co));
	if (reached) {
		uint64_t pc = codeobj_entry(co);
		const struct inst *in;
		for (int k = 0; k < 64 && (in = codeobj_at(co, pc)) != NULL; k++, pc += in->size) {
			printf("0x%" PRIx64 "\t%u\t%s\t%s\n", in->pc, in->size,
			    inst_class_name(in->cls), in->text);
			if (in->cls == IC_ENDPGM)
				break;
		}
		printf("read %zu\n", codeobj_read(co));
		if (threads)
			printf("parts %zu\n", codeobj_parts(co));
		codeobj_close(co);
		free(img);
		return 0;
	}
	v = codeobj_insts(co, &n);
	for (size_t i = 0; i < n; i++) {
		printf("0x%" PRIx64 "\t%u\t%s\t%s\t%s", v[i].pc, v[i].size, inst_class_name(v[i].cls),
		    dep_name(&v[i], db, sizeof db), v[i].text);
		if (v[i].cls == IC_BRANCH)
			printf("\ttarget=0x%" PRIx64, (uint64_t)v[i].target);
		if (v[i].cls == IC_WAITCNT) {
			wait_names(v[i].wait, wb, sizeof wb);
			printf("\twait=%s", wb);
		}
		putchar('\n');
		const struct inst *at = codeobj_at(co, v[i].pc);
		if (at == NULL || at->pc != v[i].pc || at->size != v[i].size ||
		    strcmp(at->text, v[i].text) != 0 || at->index != v[i].index) {
			fprintf(stderr, "codeobj_test: %s: codeobj_at(0x%" PRIx64 ") is wrong\n",
			    argv[1], v[i].pc);
			return 1;
		}
	}
	if (threads)
		printf("parts %zu\n", codeobj_parts(co));
	codeobj_close(co);
	free(img);
	return ferror(stdout) ? 1 : 0;
}
