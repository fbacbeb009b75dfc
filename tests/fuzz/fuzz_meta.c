/* libFuzzer harness for libcommon/meta.c and libcommon/json.c:
 *   clang-22 -std=c11 -D_GNU_SOURCE -g -O1 -fsanitize=fuzzer,address,undefined \
 *       -fno-sanitize-recover=undefined -Ilibcommon -o build/fuzz_meta \
 *       tests/fuzz/fuzz_meta.c libcommon/meta.c libcommon/json.c libcommon/util.c \
 *       libcommon/tsv.c libcommon/out.c -lbsd
 *   build/fuzz_meta -max_total_time=60
 * Checks the promises of meta.h and json.h: an escaped value has no tab, newline or
 * control byte and unescapes to itself; unescaping anything never overruns; a file name
 * has no '/' and does not start with '.'; printable text has no control byte and is
 * UTF-8; a JSON string has no raw control byte and is UTF-8. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "meta.h"

static void
check_utf8_clean(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n;

	while (*p) {
		if (*p < 0x20 || *p == 0x7f || (n = utf8_seq(p)) == 0)
			abort();
		p += n;
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1), *e, *f, *t, *j = NULL;
	size_t jn = 0;
	FILE *fp;

	memcpy(s, data, size);
	s[size] = '\0';		/* values are C strings: the NUL ends one */

	e = meta_escape(s);
	if (strpbrk(e, "\t\n\r") != NULL)
		abort();
	for (t = e; *t; t++)
		if ((unsigned char)*t < 0x20 || *t == 0x7f)
			abort();
	if (meta_unescape(e) != 0 || strcmp(e, s) != 0)
		abort();
	free(e);

	e = strdup(s);
	(void)meta_unescape(e);	/* anything at all: no overrun (ASan) */
	if (strlen(e) > strlen(s))
		abort();
	free(e);

	f = meta_file_name(s);
	if (strchr(f, '/') != NULL || f[0] == '.' || (s[0] != '\0' && f[0] == '\0'))
		abort();
	free(f);

	t = text_printable(s);
	check_utf8_clean(t);
	free(t);

	if ((fp = open_memstream(&j, &jn)) == NULL)
		abort();
	json_put_string(fp, s);
	fclose(fp);
	check_utf8_clean(j);
	free(j);
	free(s);
	return 0;
}
