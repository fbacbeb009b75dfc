#!/bin/sh
# t0860-annotate-errors: stall-annotate on bad input and bad options: one line on stderr
# naming the program and the file, exit 2; --help and --version exit 0.
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/annotate-lib.sh"

test_expect_success 'the rows of hot' '
	rows_of hot
'

test_expect_success '--help and --version' '
	stall-annotate --help > out && grep -q "^usage: stall-annotate" out &&
	stall-annotate --version > out && grep -q "^stall-annotate (stall) [0-9]" out
'

test_expect_success 'rows without cost and cause (sqtt-walk output)' '
	test_expect_code 2 stall-annotate hot.rows > out 2> err &&
	test_one_line_error stall-annotate err &&
	grep -q "hot.rows:4: no cost and cause columns" err
'

test_expect_success '--waits needs the retired column' '
	cut -f1-14 hot.attr > old.attr &&
	test_expect_code 2 stall-annotate --waits old.attr > out 2> err &&
	test_one_line_error stall-annotate err &&
	grep -q "no retired column" err &&
	stall-annotate --lines old.attr > out
'

test_expect_success 'a malformed retired field' '
	awk -F"\t" -v OFS="\t" "!/^#/ && \$6 == \"0x1324\" { \$15 = \"0x1314@x\" } { print }" hot.attr > bad.attr &&
	test_expect_code 2 stall-annotate --waits bad.attr > out 2> err &&
	test_one_line_error stall-annotate err &&
	grep -q "bad.attr:[0-9]*: retired: .0x1314@x. is not a list of pc@time" err
'

test_expect_success 'a retired pc or time past 2^64-1 is malformed, leading zeros are not' '
	for f in 0x10000000000000000@1 0x1314@18446744073709551616; do
		awk -F"\t" -v OFS="\t" -v f=$f "!/^#/ && \$6 == \"0x1324\" { \$15 = f } { print }" \
		    hot.attr > bad.attr &&
		test_expect_code 2 stall-annotate --waits bad.attr > out 2> err &&
		test_one_line_error stall-annotate err &&
		grep -q "bad.attr:[0-9]*: retired: .$f. is not a list of pc@time" err || return 1
	done &&
	awk -F"\t" -v OFS="\t" "!/^#/ && \$6 == \"0x1324\" && \$15 ~ /^0x/ { sub(/^0x/, \"0x000000000000000000\", \$15) } { print }" \
	    hot.attr > zeros.attr &&
	! cmp -s hot.attr zeros.attr &&
	stall-annotate --waits hot.attr > want &&
	stall-annotate --waits zeros.attr > got &&
	test_cmp want got
'

test_expect_success 'an operation retired before it was issued' '
	awk -F"\t" -v OFS="\t" "!/^#/ && \$6 == \"0x1324\" { \$15 = \"0x1314@999999\" } { print }" hot.attr > bad.attr &&
	test_expect_code 2 stall-annotate --waits bad.attr > out 2> err &&
	test_one_line_error stall-annotate err &&
	grep -q "after the wait" err
'

test_expect_success 'a kernel no ##code line names' '
	grep -v "^##code" hot.attr > bad.attr &&
	test_expect_code 2 stall-annotate bad.attr > out 2> err &&
	test_one_line_error stall-annotate err &&
	grep -q "kernel hot: no ##code line names its code object" err
'

test_expect_success 'a code object that is not there' '
	sed "s|/fixtures/annotate/hot.hsaco|/nonexistent.hsaco|" hot.attr > bad.attr &&
	test_expect_code 2 stall-annotate bad.attr > out 2> err &&
	test_one_line_error stall-annotate err
'

test_expect_success 'a code object that is not an ELF' '
	printf "not an elf" > junk.hsaco &&
	sed "s|	[^	]*/fixtures/annotate/hot.hsaco|	$T_DIR/junk.hsaco|" hot.attr > bad.attr &&
	test_expect_code 2 stall-annotate bad.attr > out 2> err &&
	test_one_line_error stall-annotate err &&
	grep -q "not an ELF" err
'

test_expect_success 'no rows' '
	grep "^#" hot.attr > empty.attr &&
	test_expect_code 2 stall-annotate empty.attr > out 2> err &&
	test_one_line_error stall-annotate err &&
	grep -q "empty.attr: no rows" err
'

test_expect_success 'no header line' '
	printf "" > nothing &&
	test_expect_code 2 stall-annotate nothing > out 2> err &&
	test_one_line_error stall-annotate err
'

test_expect_success 'a negative cost, a delta longer than the time' '
	awk -F"\t" -v OFS="\t" "!/^#/ && NR == 8 { \$13 = -5 } { print }" hot.attr > bad.attr &&
	test_expect_code 2 stall-annotate bad.attr > out 2> err &&
	test_one_line_error stall-annotate err &&
	awk -F"\t" -v OFS="\t" "!/^#/ && NR == 8 { \$8 = 99999999 } { print }" hot.attr > bad.attr &&
	test_expect_code 2 stall-annotate bad.attr > out 2> err &&
	test_one_line_error stall-annotate err
'

test_expect_success 'bad options: two views, a bad --hint-min, an unknown option' '
	test_expect_code 2 stall-annotate --lines --loops hot.attr > out 2> err &&
	test_one_line_error stall-annotate err &&
	test_expect_code 2 stall-annotate --hints --hint-min 101 hot.attr > out 2> err &&
	test_one_line_error stall-annotate err &&
	test_expect_code 2 stall-annotate --hints --hint-min x hot.attr > out 2> err &&
	test_one_line_error stall-annotate err &&
	test_expect_code 2 stall-annotate --bogus hot.attr > out 2> err
'

test_expect_success '--waits on rows without any s_waitcnt' '
	awk -F"\t" "/^#/ || \$11 != \"waitcnt\"" hot.attr > nowait.attr &&
	test_expect_code 2 stall-annotate --waits nowait.attr > out 2> err &&
	test_one_line_error stall-annotate err
'

test_done
