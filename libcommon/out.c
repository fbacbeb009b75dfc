#include <err.h>
#include <stdio.h>

#include "out.h"

struct out out_stdout;

const char out_digits2[200] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

void
out_flush(void)
{
	if (out_stdout.len && fwrite(out_stdout.buf, 1, out_stdout.len, stdout) != out_stdout.len)
		err(2, "stdout");
	out_stdout.len = 0;
}
