/* dwarf_test FILE [PC ...]: the source line of each pc (hex) of the code object FILE, one
 * a line, as llvm-addr2line prints them ("FILE:LINE", "??:0" for none); with no pc, every
 * instruction of its .text.  Errors: "dwarf_test: FILE: REASON", exit 2. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codeobj.h"
#include "dwarf.h"
#include "input.h"

int
main(int argc, char *argv[])
{
	char why[256];
	struct srclines *s;
	uint8_t *img;
	size_t len;
	int i;

	if (argc < 2) {
		fprintf(stderr, "usage: dwarf_test FILE [PC ...]\n");
		return 2;
	}
	img = input_slurp_rest(input_open(argv[1]), NULL, 0, 64u << 20, "a code object", &len);
	if ((s = srclines_open(img, len, why, sizeof(why))) == NULL) {
		fprintf(stderr, "dwarf_test: %s: %s\n", argv[1], why);
		return 2;
	}
	for (i = 2; i < argc; i++) {
		const char *file;
		int line;
		srclines_at(s, strtoull(argv[i], NULL, 16), &file, &line);
		printf("%s:%d\n", file, line);
	}
	srclines_close(s);
	free(img);
	return 0;
}
