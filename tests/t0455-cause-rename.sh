#!/bin/sh
# t0455-cause-rename: the cause "issue" (column c_issue) is now "unexplained"
# (c_unexplained), in the same place.  What the older version wrote is still read as the
# same cause, by every reader: its row stream, its stall table (TSV and JSON) and rules
# that name "issue".  The cause-issue.* files are the older stall's output for
# fixtures/demo (stall --rows, stall-table, stall-table --json), kept as it wrote them.
# That version had no cause issue_cycle either: what it called issue were the rows of
# one cycle that are issue_cycle now, so the new rows are compared with it as rows.tsv,
# their issue_cycle written unexplained.  Nor had it the cause exec (an instruction's
# own execution, as its token's op says, moved from the next row): the new rows are
# costed from a walk whose lds_wr_2 and sgmem_wr_2 say 1 cycle, so that nothing moves,
# and their tokens written back as they were.  Nor had it a row's second cause (columns
# cost2 and cause2): the new rows are compared without them, a row's cycles all its
# cause's, as that version gave them.
. "$(dirname "$0")/lib.sh"

DATA="$TOP/tests/data"
DEMO="$TOP/fixtures/demo"

test_expect_success 'the new name is written, in the old name'"'"'s place among the columns' '
	sqtt-dump "$DEMO" | sqtt-walk | sed "s/	INST:\(lds\|sgmem\)_wr_2	/	INST:\1_wr_1	/" |
		stall-attr | sed "s/	INST:\(lds\|sgmem\)_wr_1	/	INST:\1_wr_2	/" |
		cut --complement -f16,17 >new-rows.tsv &&
	stall --rows "$DEMO" | grep -c "	exec	" >n && echo 6 >expect && test_cmp expect n &&
	grep -v "^#" new-rows.tsv | cut -f13,14 | sort | uniq -c | grep -E "	(issue_cycle|unexplained)\$" >n &&
	echo "     52 1	issue_cycle" >expect && test_cmp expect n &&
	sed "s/	issue_cycle	/	unexplained	/" new-rows.tsv >rows.tsv &&
	stall-table rows.tsv >table.tsv &&
	grep "^#kernel" table.tsv | tr "\t" "\n" | grep -n "^c_unexplained\$" >new.col &&
	grep "^#kernel" "$DATA/cause-issue.table.tsv" | tr "\t" "\n" | grep -n "^c_issue\$" |
		sed "s/c_issue/c_unexplained/" >old.col &&
	echo "25:c_unexplained" >expect &&
	test_cmp expect new.col && test_cmp expect old.col &&
	grep -v "^#" rows.tsv | cut -f14 | grep -c "^unexplained\$" >n &&
	echo 52 >expect && test_cmp expect n &&
	! grep -q "	issue	\|	c_issue	" rows.tsv table.tsv
'

test_expect_success 'an old row stream: the same table as the new one, no warning even with --strict' '
	stall-table --strict "$DATA/cause-issue.rows.tsv" >old.tsv 2>err &&
	test_cmp /dev/null err &&
	grep -v "^##" table.tsv >expect &&
	grep -v "^##" old.tsv >actual &&
	test_cmp expect actual &&
	grep "^demo	TOTAL	" old.tsv | cut -f25 >c &&
	echo 52 >expect && test_cmp expect c
'

test_expect_success 'an old table, TSV and JSON, and old rows: stall-diff finds no difference' '
	for old in cause-issue.rows.tsv cause-issue.table.tsv cause-issue.table.json; do
		test_expect_code 0 stall-diff --strict --tsv "$DATA/$old" rows.tsv >diff.$old 2>err &&
		test_cmp /dev/null err || return 1
	done &&
	grep -h "	0x1308	" diff.* | cut -f9,10 | sort -u >causes &&
	printf "unexplained\tunexplained\n" >expect &&
	test_cmp expect causes
'

# 52 cycles unexplained in 3 waves: 17.33 a wave, the figure of every rule.
test_expect_success 'stall-budget: a rule naming issue, an old table as input and as baseline' '
	cat >old.rules <<\EOF &&
demo cause issue <= 17.34
demo cause unexplained >= 17.33
demo cause issue <= 100% of cause-issue.table.json
demo cause unexplained >= 100% of cause-issue.table.tsv
EOF
	cp "$DATA/cause-issue.table.json" "$DATA/cause-issue.table.tsv" . &&
	for input in rows.tsv cause-issue.table.tsv cause-issue.table.json; do
		test_expect_code 0 stall-budget --strict old.rules $input >out.$input 2>err &&
		test_cmp /dev/null err || return 1
	done &&
	cut -f4 out.rows.tsv >measured &&
	printf "measured\n17.33\n17.33\n17.33\n17.33\n" >expect &&
	test_cmp expect measured &&
	test_cmp out.rows.tsv out.cause-issue.table.tsv &&
	test_cmp out.rows.tsv out.cause-issue.table.json
'

test_expect_success 'stall-annotate reads the old rows: issue is unexplained' '
	(cd "$TOP" && stall-annotate --annotate tests/data/cause-issue.rows.tsv) >old.txt 2>err &&
	test_cmp /dev/null err &&
	stall-annotate --annotate rows.tsv >new.txt &&
	test_cmp new.txt old.txt &&
	grep -c "  unexplained  0x" old.txt >n &&
	echo 11 >expect && test_cmp expect n
'

test_done
