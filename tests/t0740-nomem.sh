#!/bin/sh
# t0740-nomem: an allocation that fails says "prog: Cannot allocate memory" and exits 2,
# never abort(): the decoder's stream window (a 128 KiB chunk, 32 bytes before it and 16
# after) is refused by a malloc shim preloaded into sqtt-dump.
. "$(dirname "$0")/lib.sh"

test_require !ASAN "the sanitizers own malloc in this build"
test_require CC "no C compiler for the shim"

cat > shim.c <<\EOF2
#include <errno.h>
#include <stddef.h>
extern void *__libc_malloc(size_t);
void *
malloc(size_t n)
{
	if (n == (1u << 17) + 32 + 16) {
		errno = ENOMEM;
		return NULL;
	}
	return __libc_malloc(n);
}
EOF2

test_expect_success 'sqtt-dump: no memory for the stream window' '
	cc -shared -fPIC -o shim.so shim.c &&
	sqtt-encode -o s.att "$TOP/tests/data/authored.packets.tsv" &&
	{ LD_PRELOAD=./shim.so sqtt-dump --raw s.att > out 2> err; st=$?; } &&
	test $st -eq 2 &&
	echo "sqtt-dump: Cannot allocate memory" > expect &&
	test_cmp expect err
'

test_done
