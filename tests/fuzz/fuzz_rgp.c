/* libFuzzer harness for the RGP reader (rgp_open): any bytes as an RGP file, its streams
 * then decoded token by token, its code objects named; and what it read written back
 * with rgp_write and read again.  Seeds: ../shared/fixtures/rgp and the RGP files
 * sqtt-dump --rgp makes of the fixtures. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture.h"
#include "capture-model.h"
#include "fuzz_exit.h"
#include "input.h"
#include "rgp.h"
#include "sqtt.h"
#include "util.h"

static char out[64];
static char why[4096];	/* rgp_write's error, returned */

static void
one(const uint8_t *data, size_t size, int again)
{
	static struct capture c;	/* static: unchanged by the longjmp of an error */
	size_t i;

	memset(&c, 0, sizeof(c));
	c.path = xstrdup("fuzz.rgp");
	c.target = xstrdup("-");
	c.data = malloc(size + 1);
	memcpy(c.data, data, size);
	c.len = size;
	FUZZ_TRY({
		rgp_open(&c);
		for (i = 0; i < c.nev; i++) {
			struct sqtt_decoder d;
			struct capture_stream s;
			struct sqtt_token t;
			size_t n = 0;
			if (c.ev[i].prog < 0 || (size_t)c.ev[i].prog >= c.nprog)
				abort();
			capture_decoder(&c.ev[i], &d, &s);
			while (sqtt_next(&d, &t) > 0 && ++n < 100000)
				;
			capture_decoder_end(&d, &s);
		}
		if (again && c.nev > 0) {
			size_t n = rgp_write(&c, out, NULL, NULL, why, sizeof(why));
			if (n != 0 && n != c.nev)	/* 0: an error, returned */
				abort();
		}
	});
	/* what the capture holds, whether the read ended well or in an error (c's address
	 * was given away: its fields are in memory, not registers, after the longjmp; what
	 * rgp_open held of its own, a fatal error freed) */
	capture_close(&c);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (out[0] == '\0')
		snprintf(out, sizeof(out), "/tmp/fuzz_rgp.%ld.rgp", (long)getpid());
	if (size < 4 || memcmp(data, "B00P", 4) != 0)
		return 0;
	unlink(out);
	one(data, size, 1);
	if (access(out, F_OK) == 0) {
		uint8_t *b;
		size_t n;
		FUZZ_TRY({
			b = input_slurp(out, &n);
			one(b, n, 0);
			free(b);
		});
	}
	return 0;
}
