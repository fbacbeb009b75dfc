#!/bin/sh
# The TSV reader every stage shares: lines longer than its block, a last line without a
# newline, NUL bytes, lines split across reads of a pipe.
. "$(dirname "$0")/lib.sh"

H='#event	se	kernel	wave	slot	pc	time	delta	token	inst	class	dep'

test_expect_success 'a 600 kB line passes through whole' '
	long=$(awk "BEGIN { while (n++ < 60000) printf \"v_nop_%04d \", n % 10000 }") &&
	{ echo "$H"; printf "0\t0\tk\t0\t0\t0x100\t10\t10\tWAVE_END\t%s\tendpgm\t-\n" "$long"; } > long.tsv &&
	stall-attr long.tsv > out &&
	grep -v "^#" out | cut -f10 > actual &&
	echo "$long" > expect &&
	test_cmp expect actual
'

test_expect_success 'the last line needs no newline' '
	{ echo "$H"; printf "0\t0\tk\t0\t0\t0x100\t10\t10\tWAVE_END\ts_endpgm\tendpgm\t-"; } > nonl.tsv &&
	stall-attr nonl.tsv >stage19.0.out && <stage19.0.out grep -v "^#" > actual &&
	printf "0\t0\tk\t0\t0\t0x100\t10\t10\tWAVE_END\ts_endpgm\tendpgm\t-\t10\twave_start\t-\n" > expect &&
	test_cmp expect actual
'

test_expect_success 'a NUL byte is an error naming its line' '
	{ echo "$H"; printf "0\t0\tk\t0\t0\t0x100\t10\t10\tWAVE_END\ts_end\000pgm\tendpgm\t-\n"; } > nul.tsv &&
	test_expect_code 2 stall-attr nul.tsv > out 2> err &&
	test_one_line_error stall-attr err &&
	grep -q "nul.tsv:2: NUL byte in line" err
'

test_expect_success 'a stream trickling through a pipe reads the same as a file' '
	sqtt-dump "$TOP/fixtures/demo" > packets &&
	sqtt-walk packets > expect &&
	{ while IFS= read -r l; do printf "%s\n" "$l"; done < packets; } | sqtt-walk > actual &&
	test_cmp expect actual
'

test_done
