#!/bin/sh
# t0890-annotate-engine: the annotate engine's tables and rules: the dominant cause on a
# tie is stall-table's (the most cycles, then the most rows, then the order of the
# causes); kernels and programs that come after a wave left open, after rows, or in a
# second input are read as if each kernel were read alone.
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/annotate-lib.sh"

test_expect_success 'the rows of hot and calm' '
	rows_of hot && rows_of calm
'

# tie PC: hot.attr with the 8 rows of pc 0x1354 made 6 cycles mem (one row), 3 + 3
# cycles lds (two rows), 0 cycles the rest: mem and lds tie on cycles, lds has more rows
test_expect_success 'a tie on cycles goes to the cause with more rows' '
	awk -F"\t" -v OFS="\t" "!/^#/ && \$6 == \"0x1354\" { n++; \$13 = n == 1 ? 6 : n <= 3 ? 3 : 0;
		\$14 = n == 1 ? \"mem\" : n <= 3 ? \"lds\" : \"unexplained\" } { print }" hot.attr > tie.attr &&
	stall-annotate --hidden tie.attr > out &&
	awk -F"\t" "\$2 == \"0x1354\" { print \$3, \$4, \$8 }" out > actual &&
	echo "8 12 lds" > expect &&
	test_cmp expect actual &&
	stall-annotate --lines tie.attr > out &&
	grep "	fixtures/annotate/hot.s:29	" out | cut -f3,7 > actual &&
	printf "12\tlds\n" > expect &&
	test_cmp expect actual &&
	stall-table tie.attr > table &&
	awk -F"\t" "\$2 == \"0x1354\" { print \$6 }" table > actual &&
	echo lds > expect &&
	test_cmp expect actual
'

test_expect_success 'a tie on cycles and rows goes to the cause listed first (mem before lds)' '
	awk -F"\t" -v OFS="\t" "!/^#/ && \$6 == \"0x1354\" { n++; \$13 = n <= 2 ? 5 : 0;
		\$14 = n == 1 ? \"lds\" : n == 2 ? \"mem\" : \"unexplained\" } { print }" hot.attr > tie2.attr &&
	stall-annotate --hidden tie2.attr > out &&
	awk -F"\t" "\$2 == \"0x1354\" { print \$4, \$8 }" out > actual &&
	echo "10 mem" > expect &&
	test_cmp expect actual
'

# calm2.attr: calm with its events renumbered (100 on), so that its waves are not hot's
test_expect_success 'calm as a second event' '
	awk -F"\t" -v OFS="\t" "/^##event/ { \$2 = \$2 + 100 } !/^#/ { \$1 = \$1 + 100 } { print }" calm.attr > calm2.attr &&
	grep -v "^##" calm2.attr | grep -v "^#" > calm2.body &&
	grep -v WAVE_END hot.attr > hot-open.attr &&
	stall-annotate --lines hot-open.attr > a && stall-annotate --lines calm2.attr > b &&
	{ cat a; grep -v "^#" b; } > lines.expect &&
	stall-annotate --loops hot-open.attr > a && stall-annotate --loops calm2.attr > b &&
	{ cat a; grep -v "^#[a-z]" b | grep -v "^##stall-annotate"; } > loops.expect
'

test_expect_success 'a wave without WAVE_END, then a second kernel' '
	{ cat hot-open.attr; grep "^##" calm2.attr; cat calm2.body; } > two.attr &&
	stall-annotate --lines two.attr > out &&
	test_cmp lines.expect out &&
	stall-annotate --loops two.attr > out &&
	test_cmp loops.expect out
'

test_expect_success '##code lines after rows, and the second kernel in a second input' '
	{ cat hot-open.attr; grep "^##code" calm2.attr; cat calm2.body; } > late.attr &&
	stall-annotate --lines late.attr > out &&
	test_cmp lines.expect out &&
	stall-annotate --lines hot-open.attr calm2.attr > out &&
	test_cmp lines.expect out &&
	stall-annotate --loops hot-open.attr calm2.attr > out &&
	test_cmp loops.expect out
'

test_done
