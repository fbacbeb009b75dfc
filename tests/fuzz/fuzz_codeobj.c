/* libFuzzer harness for codeobj_open and the lookups on what it returns.
 *   clang-22 -std=c11 -D_GNU_SOURCE -g -O1 -fsanitize=fuzzer,address,undefined \
 *     -Ilibcommon -I$(llvm-config-22 --includedir) -o fuzz_codeobj \
 *     tests/fuzz/fuzz_codeobj.c libcommon/codeobj.c -lelf \
 *     -L$(llvm-config-22 --libdir) -Wl,-rpath,$(llvm-config-22 --libdir) -lLLVM-22
 *   ./fuzz_codeobj -max_len=16384 CORPUS_DIR SEED_FILES...
 * Besides memory errors it aborts on broken invariants: pc order, codeobj_at agreeing with
 * the array (by pc: it may be a copy), the entry being an instruction, one-line errors. */
#include "codeobj.h"
#include "gen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void check(int ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "fuzz_codeobj: invariant broken: %s\n", what);
		abort();
	}
}

static void one(const uint8_t *data, size_t size, const char *kernel,
    const struct isa_target *target)
{
	char err[256];
	struct codeobj *co;
	const struct inst *v, *at;
	size_t n;

	err[0] = 0;
	co = codeobj_open(data, size, kernel, target, err, sizeof err);
	if (!co) {
		check(err[0] != 0, "error without a reason");
		check(strchr(err, '\n') == NULL, "error is not one line");
		return;
	}
	v = codeobj_insts(co, &n);
	check(n > 0 && v != NULL, "no instructions");
	check(codeobj_at(co, codeobj_entry(co)) != NULL, "entry is not an instruction");
	for (size_t i = 0; i < n; i++) {
		check(i == 0 || v[i - 1].pc < v[i].pc, "pcs not strictly increasing");
		/* the array may be a copy (code of several regions): the same by pc */
		at = codeobj_at(co, v[i].pc);
		check(at != NULL && at->pc == v[i].pc && at->size == v[i].size && at->cls == v[i].cls &&
		    strcmp(at->text, v[i].text) == 0, "codeobj_at disagrees");
		check(v[i].size >= 1 && v[i].size <= 64, "odd size");
		check(v[i].text && v[i].mnemonic && v[i].text[0], "no text");
		check(strcmp(inst_class_name(v[i].cls), "invalid") != 0, "bad class");
		check(v[i].cls == IC_BRANCH || v[i].target == -1, "target on a non-branch");
		check(v[i].cls == IC_WAITCNT || v[i].wait == 0, "wait on a non-waitcnt");
		check(v[i].dep <= DEP_SALU, "bad dep");
		/* pcs in between instructions must miss */
		if (v[i].size > 1 && (i + 1 == n || v[i + 1].pc > v[i].pc + 1))
			check(codeobj_at(co, v[i].pc + 1) == NULL, "hit inside an instruction");
	}
	check(codeobj_at(co, v[0].pc - 1) == NULL || v[0].pc == 0, "hit before the first");
	check(codeobj_at(co, v[n - 1].pc + v[n - 1].size) == NULL ||
	    v[n - 1].pc + v[n - 1].size < v[n - 1].pc, "hit after the last");
	codeobj_close(co);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The input as an object of another generation's processor (its e_flags' mach set to
 * the target's), read for that target: its words through that generation's decoder. */
static void as_target(const uint8_t *data, size_t size, const char *name)
{
	const struct isa_target *t = isa_target_by_name(name);
	uint8_t *copy;

	if (t == NULL || size < 52 || (copy = malloc(size)) == NULL)
		return;
	memcpy(copy, data, size);
	copy[48] = (uint8_t)t->mach;	/* e_flags, EF_AMDGPU_MACH in its low byte */
	one(copy, size, NULL, t);
	free(copy);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	one(data, size, NULL, NULL);
	one(data, size, "E", NULL);
	as_target(data, size, "gfx1200");
	as_target(data, size, "gfx950");
	return 0;
}
