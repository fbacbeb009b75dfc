/* libFuzzer harness for elfsym (ELF symbols of a code object, read straight from the
 * bytes): every lookup on any bytes, with the invariants elfsym.h promises: 1, 0 or -1,
 * a name on 1, a one-line reason on -1.  Seeds: the .hsaco files of fixtures/kernels. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "elfsym.h"

static void
check(int ok)
{
	if (!ok)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *img = malloc(size ? size : 1);
	char *name = NULL, why[160];
	uint64_t entry, kd, pc;
	int r;

	if (img == NULL)
		return 0;
	memcpy(img, data, size);
	why[0] = '\0';
	r = elfsym_only_kernel(img, size, &name, why, sizeof(why));
	check(r >= -1 && r <= 1);
	check(r != -1 || (why[0] != '\0' && strchr(why, '\n') == NULL));
	if (r == 1) {
		check(name != NULL);
		why[0] = '\0';
		r = elfsym_kernel(img, size, name, &entry, &kd, why, sizeof(why));
		check(r == 1);
		free(name);
		name = NULL;
		r = elfsym_kernel_at(img, size, entry, &name, why, sizeof(why));
		check(r == 1 && name != NULL);
		free(name);
	}
	for (pc = 0; pc < 0x2000; pc += 0x100) {
		name = NULL;
		r = elfsym_kernel_at(img, size, pc, &name, why, sizeof(why));
		check(r >= -1 && r <= 1 && (r != 1 || name != NULL));
		free(name);
	}
	(void)elfsym_load_size(img, size);
	(void)elfsym_mach(img, size);
	free(img);
	return 0;
}
