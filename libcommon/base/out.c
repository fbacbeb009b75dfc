#include <err.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "out.h"

struct out out_stdout;

const char out_digits2[201] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

void
out_flush(void)
{
	static int piped;

	/* A stage of a pipeline writes hundreds of MB: a larger pipe lets both ends run
	 * with fewer switches.  Not a pipe, or not Linux: nothing happens. */
	if (!piped) {
		piped = 1;
#ifdef F_SETPIPE_SZ
		(void)fcntl(STDOUT_FILENO, F_SETPIPE_SZ, 1 << 20);
#endif
	}
	if (out_stdout.len && fwrite(out_stdout.buf, 1, out_stdout.len, stdout) != out_stdout.len)
		err(2, "stdout");
	out_stdout.len = 0;
}

void
out_block_flush(struct out_block *o)
{
	if (o->n)
		fwrite(o->buf, 1, o->n, o->fp);
	o->n = 0;
}

void
out_block_put(struct out_block *o, const char *s, size_t n)
{
	size_t k;

	while (n > 0) {
		if (o->n == o->cap)
			out_block_flush(o);
		k = o->cap - o->n < n ? o->cap - o->n : n;
		memcpy(o->buf + o->n, s, k);
		o->n += k;
		s += k;
		n -= k;
	}
}
