/* libFuzzer harness for libcommon/pickle.c:
 *   clang-22 -std=c11 -D_GNU_SOURCE -g -O1 -fsanitize=fuzzer,address,undefined \
 *       -fno-sanitize-recover=undefined -Ilibcommon -o build/fuzz_pickle \
 *       tests/fuzz/fuzz_pickle.c libcommon/pickle.c
 *   build/fuzz_pickle -max_total_time=300 CORPUS_DIR
 * Seed the corpus with copies of the .pkl files of ../shared/fixtures/tinygrad (in a
 * scratch dir, not the repo).
 * Beyond the sanitizers it checks the promises of pickle.h: a failure leaves one
 * non-empty line in err; a success gives a tree a caller may walk recursively (no cycle,
 * bounded depth) whose str and bytes lie in the input or in memory of the pickle's own. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pickle.h"

#define MAX_DEPTH	1000	/* PK_MAX_DEPTH in pickle.c */

static size_t budget;
static unsigned sink;

static void
walk(const struct pk_value *v, int depth)
{
	size_t i;

	if (v == NULL || depth > MAX_DEPTH + 1)
		abort();	/* a NULL item, or nesting the loader should have refused */
	if (budget == 0)
		return;
	budget--;
	switch (v->type) {
	case PK_NONE:
	case PK_FLOAT:
		break;
	case PK_BOOL:
		if (v->u.i != 0 && v->u.i != 1)
			abort();
		break;
	case PK_INT:
		sink += (unsigned)v->u.i;
		break;
	case PK_BIGINT:
		if (v->u.str.len <= 8)
			abort();	/* would have fit an int64 */
		/* FALLTHROUGH */
	case PK_STR:
	case PK_BYTES:
		for (i = 0; i < v->u.str.len; i++)
			sink += (unsigned char)v->u.str.s[i];
		break;
	case PK_LIST:
	case PK_TUPLE:
	case PK_SET:
		for (i = 0; i < v->u.seq.n; i++)
			walk(v->u.seq.item[i], depth + 1);
		break;
	case PK_DICT:
		for (i = 0; i < v->u.dict.n; i++) {
			walk(v->u.dict.key[i], depth + 1);
			walk(v->u.dict.val[i], depth + 1);
		}
		break;
	case PK_GLOBAL:
	case PK_OBJECT:
		sink += (unsigned)strlen(v->u.obj.module) + (unsigned)strlen(v->u.obj.name);
		if (v->type == PK_GLOBAL)
			break;
		walk(v->u.obj.args, depth + 1);
		if (v->u.obj.state != NULL)
			walk(v->u.obj.state, depth + 1);
		(void)pk_attr(v, "blob");
		(void)pk_attr(v, "kern");
		(void)pk_is_object(v, "ProfileSQTTEvent");
		break;
	default:
		abort();
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pk_value *root;
	struct pickle *pk;
	unsigned char *copy;
	char err[256];
	size_t i;

	/* an exact-size heap copy, so ASan sees any read past the end */
	if ((copy = malloc(size ? size : 1)) == NULL)
		return 0;
	if (size > 0)
		memcpy(copy, data, size);
	memset(err, 'x', sizeof(err));
	pk = pickle_load(copy, size, &root, err, sizeof(err));
	if (pk == NULL) {
		if (root != NULL || memchr(err, '\0', sizeof(err)) == NULL || err[0] == '\0')
			abort();
		for (i = 0; err[i] != '\0'; i++)
			if (err[i] == '\n')
				abort();
	} else {
		if (root == NULL)
			abort();
		budget = 1000000;
		walk(root, 1);
		if (root->type == PK_LIST)
			for (i = 0; i < root->u.seq.n; i++) {
				(void)pk_attr(root->u.seq.item[i], "device");
				(void)pk_dict_get(root->u.seq.item[i], "props");
			}
		pickle_free(pk);
	}
	free(copy);
	return 0;
}
