#!/bin/sh
# t0136-header-version: the HEADER's version is all six bits [7,13): a stream whose
# version is 35 (bit 12 set on a gfx11 HEADER) is no gfx11 stream, and is refused.
. "$(dirname "$0")/lib.sh"

test_expect_success 'HEADER version 35 (3 with bit 12): refused, one line, exit 2, no token' '
	cp "$TOP/fixtures/demo/stall_shader_engine_0_0.att" v35.att &&
	printf "\\$(printf %o $(( $(od -An -tu1 -j1 -N1 v35.att) | 16 )))" |
	    dd of=v35.att bs=1 seek=1 conv=notrunc 2>/dev/null &&
	test_expect_code 2 sqtt-dump --raw v35.att >out 2>err &&
	test_expect_code 1 grep -v "^#" out &&
	echo "sqtt-dump: $T_DIR/v35.att: HEADER version 35: this build reads versions 3 (gfx11), 4 (gfx12)" >expect &&
	test_cmp expect err
'

test_done
