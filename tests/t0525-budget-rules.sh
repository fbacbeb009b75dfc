#!/bin/sh
# budget (libcommon, through build/budget_test and stall-budget): the rule language on
# rules and a profile made by construction; what a rules file or its data may not do
# (a pattern that would take minutes or gigabytes, a baseline outside the rules' directory
# or not a regular file, a name that would forge a verdict line), each with its result.
. "$(dirname "$0")/lib.sh"

BT="$TOP/build/budget_test"
DEMO="$TOP/fixtures/demo"
tabs() { tr '|' '\t'; }

test_expect_success 'the rules as read: kernel, selection, figure, comparison, limit, kind' '
	cat >r.rules <<\EOF2 &&
# a comment, then a blank line

demo cycles <= 500
* cause mem < 60%	# a comment after a rule
demo pc 0x10 cause smem >= 10
demo inst /^s_waitcnt (vmcnt|lgkmcnt)[(]0[)]#/ cycles > 1 # after a pattern with #
demo cycles <= 105% of base.json
EOF2
	"$BT" rules r.rules >actual &&
	tabs >expect <<\EOF2 &&
3|demo|kernel|cycles|<=|500|cycles
4|*|kernel|cause mem|<|60|pct
5|demo|pc|cause smem|>=|10|cycles
6|demo|inst|cycles|>|1|cycles
7|demo|kernel|cycles|<=|105|baseline
EOF2
	test_cmp expect actual
'

# The profile of budget_test judge: 2 waves, 1000 cycles: 500 a wave; vmcnt(0) 600 (300
# a wave, 60%), lgkmcnt(0) 300 (150, 30%), s_endpgm 100 (50, 10%).
test_expect_success 'every figure per wave; a rule at its limit holds with <=, breaks with <' '
	cat >j.rules <<\EOF2 &&
demo cycles <= 500
demo cycles < 500
demo inst /^s_waitcnt/ cycles <= 450
demo inst /drain/ cause drain >= 50
* cause mem <= 60%
* cause mem > 60%
EOF2
	test_expect_code 1 "$BT" judge j.rules >actual &&
	tabs >expect <<\EOF2 &&
#verdict|rule|kernel|measured|op|limit|text
ok|j.rules:1|demo|500.00|<=|500.00|demo cycles <= 500
broken|j.rules:2|demo|500.00|<|500.00|demo cycles < 500
ok|j.rules:3|demo|450.00|<=|450.00|demo inst /^s_waitcnt/ cycles <= 450
ok|j.rules:4|demo|50.00|>=|50.00|demo inst /drain/ cause drain >= 50
ok|j.rules:5|demo|60.00%|<=|60.00%|* cause mem <= 60%
broken|j.rules:6|demo|60.00%|>|60.00%|* cause mem > 60%
budget_test: j.rules:2: broken: demo cycles < 500: kernel demo: 500.00 cycles a wave is not < 500.00
budget_test: j.rules:6: broken: * cause mem > 60%: kernel demo: 60.00% is not > 60.00%
EOF2
	test_cmp expect actual
'

test_expect_success 'patterns: the restricted language, each refusal its reason' '
	while IFS= read -r re; do
		"$BT" pattern "$re" >out; printf "%s => %s\n" "$re" "$(cat out)" || return 1
	done >actual <<\EOF2 &&
^s_waitcnt
s{1,32}
(ab){2}(cd){32}
[{]{40}
s{33}
s{,99999}
(s{2}){2}
((s){2}){3}
(a|b{2})c{3}
(s_wait)\1
s++++++++++++++++
s+*
a*{2}
s\*+
[*+]+
(s+)+
EOF2
	cat >expect <<\EOF2 &&
^s_waitcnt => ok
s{1,32} => ok
(ab){2}(cd){32} => ok
[{]{40} => refused: a repetition {40} past 32
s{33} => refused: a repetition {33} past 32
s{,99999} => refused: a repetition {,99999} past 32
(s{2}){2} => refused: a repetition {2} of a group that holds one
((s){2}){3} => refused: a repetition {3} of a group that holds one
(a|b{2})c{3} => ok
(s_wait)\1 => refused: a back-reference (\1) is not taken
s++++++++++++++++ => refused: a repetition of a repetition (+ after +)
s+* => refused: a repetition of a repetition (* after +)
a*{2} => refused: a repetition of a repetition ({2} after *)
s\*+ => ok
[*+]+ => ok
(s+)+ => ok
EOF2
	test_cmp expect actual
'

# Before: a back-reference ran for minutes and nested bounds took seconds and a gigabyte;
# stacked repetitions (the fuzzer's s+*+++++++++++++) took minutes and 2 GB.
test_expect_success 'the patterns that were slow: refused at once, one line, exit 2' '
	printf "demo inst /^(s_[a-z_]*)*\\\\1\\\\1\\\\1\$/ cycles <= 5\n" >slow1.rules &&
	test_expect_code 2 stall-budget slow1.rules "$DEMO" >out 2>err &&
	test_one_line_error stall-budget err &&
	grep -q "a back-reference (.1) is not taken$" err &&
	printf "demo inst /((((s{0,30}){0,30}){0,30}){0,30})/ cycles <= 5\n" >slow2.rules &&
	test_expect_code 2 stall-budget slow2.rules "$DEMO" >out 2>err &&
	echo "stall-budget: slow2.rules:1: the pattern /((((s{0,30}){0,30}){0,30}){0,30})/: a repetition {0,30} of a group that holds one" >expect &&
	test_cmp expect err && test_cmp /dev/null out &&
	printf "demo inst /s+*+++++++++++++}/ cycles <= 5\n" >slow3.rules &&
	test_expect_code 2 stall-budget slow3.rules "$DEMO" >out 2>err &&
	echo "stall-budget: slow3.rules:1: the pattern /s+*+++++++++++++}/: a repetition of a repetition (* after +)" >expect &&
	test_cmp expect err && test_cmp /dev/null out
'

# The comment scan looked again from the start of the line at every #: quadratic.
test_expect_success 'a line of 4096 bytes of # and /: read at once, the rule before them' '
	{ printf "demo inst /drain/ cycles <= 302 #"; i=0; while [ $i -lt 2100 ]; do printf "/#"; i=$((i + 1)); done; printf "\n"; } | head -c 4096 >long.rules &&
	echo >>long.rules &&
	test "$(head -1 long.rules | wc -c)" -eq 4097 &&
	stall --rows "$DEMO" >rows.tsv &&
	test_expect_code 0 stall-budget long.rules rows.tsv >out &&
	cut -f4,7 out >actual &&
	printf "measured\ttext\n301.00\tdemo inst /drain/ cycles <= 302\n" >expect &&
	test_cmp expect actual &&
	{ head -c 4096 long.rules; printf "#\n"; } >longer.rules &&
	test_expect_code 2 stall-budget longer.rules rows.tsv >out 2>err &&
	echo "stall-budget: longer.rules:1: a line of more than 4096 bytes: not a rules file" >expect &&
	test_cmp expect err
'

test_expect_success 'a baseline that climbs out of the rules directory: refused before reading' '
	mkdir -p ci && stall-budget -w base.json rows.tsv &&
	echo "demo cycles <= 100% of ../base.json" >ci/up.rules &&
	test_expect_code 2 stall-budget ci/up.rules rows.tsv >out 2>err &&
	echo "stall-budget: ci/up.rules:1: the baseline ci/../base.json is not inside the rules file'"'"'s directory (ci)" >expect &&
	test_cmp expect err && test_cmp /dev/null out &&
	ln -s ../base.json ci/link.json &&
	echo "demo cycles <= 100% of link.json" >ci/link.rules &&
	test_expect_code 2 stall-budget ci/link.rules rows.tsv >out 2>err &&
	echo "stall-budget: ci/link.rules:1: the baseline ci/link.json is not inside the rules file'"'"'s directory (ci)" >expect &&
	test_cmp expect err &&
	cp base.json ci/ && echo "demo cycles <= 100% of base.json" >ci/ok.rules &&
	test_expect_code 0 stall-budget ci/ok.rules rows.tsv >out
'

test_expect_success 'a baseline that is a FIFO or a directory: refused, nothing opened, no wait' '
	mkfifo ci/fifo.json &&
	echo "demo cycles <= 100% of fifo.json" >ci/fifo.rules &&
	test_expect_code 2 stall-budget ci/fifo.rules rows.tsv >out 2>err &&
	echo "stall-budget: ci/fifo.rules:1: the baseline ci/fifo.json is a FIFO, not a regular file" >expect &&
	test_cmp expect err &&
	mkdir ci/cap && echo "demo cycles <= 100% of cap" >ci/dir.rules &&
	test_expect_code 2 stall-budget ci/dir.rules rows.tsv >out 2>err &&
	echo "stall-budget: ci/dir.rules:1: the baseline ci/cap is a directory, not a regular file" >expect &&
	test_cmp expect err
'

# A JSON table whose kernel name holds a newline and a verdict line of its own.
test_expect_success 'a kernel name cannot forge a verdict line: it is escaped' '
	stall-table --json rows.tsv | sed "s/\"kernel\": \"demo\"/\"kernel\": \"demo\\\\nok\\\\tforged\"/" >evil.json &&
	grep -q "demo.nok.tforged" evil.json &&
	echo "* cycles <= 1" >evil.rules &&
	test_expect_code 1 stall-budget evil.rules evil.json >out 2>err &&
	test "$(wc -l <out)" -eq 2 &&
	tail -1 out | cut -f1,3 >actual &&
	printf "broken\tdemo\\\\nok\\\\tforged\n" >expect &&
	test_cmp expect actual &&
	test_one_line_error stall-budget err
'

test_done
