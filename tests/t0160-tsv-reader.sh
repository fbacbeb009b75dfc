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
	printf "0\t0\tk\t0\t0\t0x100\t10\t10\tWAVE_END\ts_endpgm\tendpgm\t-\t10\twave_start\t-\t0\t-\n" > expect &&
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

TSV_TEST="$TOP/build/tsv_test"

test_expect_success 'numbers of every length, decimal and hex, read as written' '
	"$TSV_TEST" numbers 200000 > out &&
	echo "ok 200000" > expect &&
	test_cmp expect out
'

test_expect_success 'numbers at the edges: the largest, leading zeros, upper-case hex' '
	printf "#u\n18446744073709551615\n0xFFFFFFFFFFFFFFFF\n0x00000000000000000000ff\n" > edge.tsv &&
	printf "000000000000000000000000000007\n12345678\n123456789\n0\n" >> edge.tsv &&
	"$TSV_TEST" u64 edge.tsv > out &&
	printf "%s\n" 18446744073709551615 18446744073709551615 255 7 12345678 123456789 0 > expect &&
	test_cmp expect out
'

for bad in 18446744073709551616 99999999999999999999 0x10000000000000000 12a4 0x 0x1g - \
    " 1" +1 1e3 123456789012345678901
do
	test_expect_success "'$bad' is not a number" "
		printf '#u\\n%s\\n' '$bad' > bad.tsv &&
		test_expect_code 2 \"\$TSV_TEST\" u64 bad.tsv > out 2> err &&
		test_one_line_error tsv_test err &&
		grep -qF \"u: '$bad' is not a number\" err
	"
done

test_expect_success 'an empty field is not a number' '
	printf "#u\tv\n\t1\n" > empty.tsv &&
	test_expect_code 2 "$TSV_TEST" u64 empty.tsv > out 2> err &&
	grep -qF "u: '"''"' is not a number" err
'

test_expect_success 'names looked up through the memo give what a lookup gives' '
	"$TSV_TEST" memo 200000 > out &&
	echo "ok 200000" > expect &&
	test_cmp expect out
'

test_done
