#!/bin/sh
# t0988: what the fuzzers found (scripts/fuzz.sh), each input kept under tests/data with
# the exact result it must give.
#   dwarf-line-past-int.hsaco: fuzz_annotate's 'D' input (fixtures/annotate/hostile.hsaco
#   mutated): line table rows whose line number is past INT_MAX, which libdw hands over
#   as an unsigned int; they were lines -1 to -4.  A row with no line number is no line:
#   "??:0", as for a pc the table does not cover.
# The others are made here from the project's fixtures, each as a fuzzer (an ASan and UBSan
# build) first met it: sums of hostile costs, latencies and times past 2^63-1 in
# stall-annotate; a gfx9 text stream's time past 2^63-1 or going back; --packets N past N
# lines where tokens fit nowhere; stall-budget -w with a kernel of untraced rows only
# (qsort of no lines from NULL); error lines that did not name the input; a capture
# whose ##code lines repeat one code object (each line read it again: 470 MB for 20000);
# a path an input names, with terminal controls and a newline, in an error line; a
# rules file of patterns with thousands of .* (regcomp's memory: 530 MB a pattern); a ##x
# line of 200000 fields (rejoined by strlcat: quadratic, 23 s).
. "$(dirname "$0")/lib.sh"

test_expect_success 'DWARF line numbers past INT_MAX: no line (??:0), never a negative one' '
	pcs=$(seq 4096 4 69632 | awk "{ printf \"%x \", \$1 }") &&
	"$TOP/build/dwarf_test" "$TOP/tests/data/dwarf-line-past-int.hsaco" $pcs > out &&
	! grep -q ":-[0-9]" out &&
	test "$(grep -c "^??:0$" out)" = 16371 &&
	test "$(grep -c "^/etc/passwd:2$" out)" = 1 &&
	test "$(grep -c "^/dev/stdin:1$" out)" = 2 &&
	test "$(grep -c "^fixtures/annotate/hostile.cl:3$" out)" = 4
'

test_expect_success 'the rows of scale, costed' '
	(cd "$TOP" && sqtt-walk fixtures/annotate/scale.packets.tsv) |
	sed "s|	fixtures/annotate/scale.hsaco|	$TOP/fixtures/annotate/scale.hsaco|" > scale.walk &&
	stall-attr scale.walk > scale.attr &&
	grep -c "	waitcnt	" scale.attr > n && echo 4 > expect && test_cmp expect n
'

test_expect_success 'stall-annotate: costs whose sum passes 2^63-1, exit 2 at the row' '
	awk -F"\t" -v OFS="\t" "/^#/ { print; next } ++n == 4 || n == 11 { \$13 = \"9223372036854775807\" } { print }" scale.attr > big.attr &&
	test_expect_code 2 stall-annotate --lines big.attr > out 2> err &&
	echo "stall-annotate: big.attr:9: cost: the sum of the rows'"'"' costs passes 2^63-1" > expect &&
	test_cmp expect err && ! test -s out
'

test_expect_success 'stall-annotate: one cost of 2^63-1 alone is summed, not refused' '
	awk -F"\t" -v OFS="\t" "/^#/ { print; next } ++n == 1 { \$13 = \"9223372036854775807\" } n > 1 { exit } { print }" scale.attr > one.attr &&
	stall-annotate --lines one.attr > out &&
	grep -q "	9223372036854775807	" out
'

test_expect_success 'stall-annotate: retired latencies whose sum passes 2^63-1, exit 2 at the row' '
	awk -F"\t" -v OFS="\t" "/^#/ { print; next } { \$7 = \"461168601842738\" sprintf(\"%04d\", \$7) } { print }" scale.attr > lat.attr &&
	test_expect_code 2 stall-annotate --waits lat.attr > out 2> err &&
	echo "stall-annotate: lat.attr:14: retired: the latencies'"'"' sum passes 2^63-1" > expect &&
	test_cmp expect err && ! test -s out
'

test_expect_success 'stall-annotate: a time past 2^63-1, exit 2 at the row' '
	awk -F"\t" -v OFS="\t" "/^#/ { print; next } ++n == 7 { \$7 = \"9223372036854775808\" } { print }" scale.attr > time.attr &&
	test_expect_code 2 stall-annotate --lines time.attr > out 2> err &&
	echo "stall-annotate: time.attr:12: time: 9223372036854775808 is beyond 2^63-1" > expect &&
	test_cmp expect err
'

test_expect_success 'sqtt-walk, a gfx9 text stream: a time past 2^63-1, or going back, exit 2 at the line' '
	(cd "$TOP" && cat fixtures/gfx9/sync9.packets.tsv) > sync9.tsv &&
	awk -F"\t" -v OFS="\t" "NR == 7 { \$4 = \"9223372036854775808\" } { print }" sync9.tsv > far.tsv &&
	awk -F"\t" -v OFS="\t" "NR == 7 { \$4 = 150 } { print }" sync9.tsv > back.tsv &&
	(cd "$TOP" && sqtt-walk fixtures/gfx9/sync9.packets.tsv) > ok.rows &&
	test_expect_code 2 sh -c "cd \"$TOP\" && sqtt-walk \"$T_DIR/far.tsv\"" > out 2> err &&
	echo "sqtt-walk: $T_DIR/far.tsv:7: time 9223372036854775808 is beyond 2^63-1" > expect &&
	test_cmp expect err &&
	test_expect_code 2 sh -c "cd \"$TOP\" && sqtt-walk \"$T_DIR/back.tsv\"" > out 2> err &&
	echo "sqtt-walk: $T_DIR/back.tsv:7: time 150 is before the previous token of event 0, at 200" > expect &&
	test_cmp expect err
'

test_expect_success 'sqtt-walk --packets 0:64: 64 lines, when most tokens fit nowhere' '
	(cd "$TOP" && cat fixtures/annotate/poll.packets.tsv) |
	awk -F"\t" "{ print } \$4 == 600 && \$5 == \"INST\" { for (i = 0; i < 200; i++) print }" > misfit.tsv &&
	(cd "$TOP" && sqtt-walk --packets 0:64 "$T_DIR/misfit.tsv") > rows 2> err &&
	grep -c "^sqtt-walk: packets: event 0 wave 0 " err > n &&
	echo 64 > expect && test_cmp expect n &&
	(cd "$TOP" && sqtt-walk --packets 0:1000 "$T_DIR/misfit.tsv") > rows 2> err &&
	grep -c "^sqtt-walk: packets: event 0 wave 0 .* MISS " err > n &&
	echo 200 > expect && test_cmp expect n
'

test_expect_success 'stall-budget -w: a kernel of untraced rows only beside a traced one' '
	sqtt-dump "$TOP/fixtures/demo" | sqtt-walk | stall-attr |
	awk -F"\t" -v OFS="\t" "\$11 == \"untraced\" && \$9 == \"WAVE_END\" { \$3 = \"other\" } { print }" > two.tsv &&
	grep -c "	other	" two.tsv > n && test "$(cat n)" -gt 0 &&
	stall-budget -w two.json two.tsv &&
	grep -q "\"kernel\": \"demo\"" two.json
'

test_expect_success 'stall-table --trace-json: a malformed ##event line, the input named' '
	sqtt-dump "$TOP/fixtures/demo" | sqtt-walk | stall-attr |
	awk -F"\t" -v OFS="\t" "/^##event/ && ++n == 2 { \$11 = \"x\" } { print }" > badev.tsv &&
	test_expect_code 2 stall-table --trace-json t.json badev.tsv > out 2> err &&
	echo "stall-table: badev.tsv: an ##event line: its event or dispatch is not a number" > expect &&
	test_cmp expect err && ! test -e t.json
'

test_expect_success 'sqtt-encode -d: a ##code line with no file and no ##source, its line named' '
	(cd "$TOP" && cat fixtures/annotate/poll.packets.tsv) |
	awk -F"\t" -v OFS="\t" "/^##code/ { NF = 5 } { print }" > nocode.tsv &&
	test_expect_code 2 sqtt-encode -d enc nocode.tsv > out 2> err &&
	line=$(grep -n "^##code" nocode.tsv | cut -d: -f1) &&
	echo "sqtt-encode: nocode.tsv:$line: no code object for program poll: the ##code line names no file, and there is no ##source capture" > expect &&
	test_cmp expect err
'

test_expect_success 'a capture whose ##code lines repeat one code object: the table of one line' '
	mkdir dup && cp "$TOP"/fixtures/demo/* dup/ &&
	awk "/^##code/ { for (i = 0; i < 2000; i++) print } { print }" "$TOP/fixtures/demo/capture.tsv" > dup/capture.tsv &&
	test "$(grep -c "^##code" dup/capture.tsv)" = 2001 &&
	stall --tsv "$TOP/fixtures/demo" > one.tsv &&
	stall --tsv dup > many.tsv &&
	grep -v "^##" one.tsv > expect && grep -v "^##" many.tsv > actual &&
	test_cmp expect actual && test -s actual
'

test_expect_success 'a path with ESC, BEL and a newline from a ##code line: one printable line' '
	(cd "$TOP" && cat fixtures/annotate/poll.packets.tsv) |
	awk -F"\t" -v OFS="\t" "/^##code/ { \$6 = \"fixtures/kernels/\033[2Jx\007\\\\nsqtt-walk: forged\" } { print }" > esc.tsv &&
	grep -q "$(printf "\033")" esc.tsv &&
	test_expect_code 2 sqtt-walk esc.tsv > out 2> err &&
	echo "sqtt-walk: fixtures/kernels/?[2Jx??sqtt-walk: forged: No such file or directory; its events are not walked" > expect &&
	head -n 1 err > first && test_cmp expect first &&
	test "$(wc -l < err)" = 2 &&
	! grep -q "^sqtt-walk: forged" err
'

test_expect_success 'stall-budget: a pattern of more than 1024 repetitions written out, or rules of more than 4096, refused at the line' '
	sqtt-dump "$TOP/fixtures/demo" | sqtt-walk | stall-attr > demo.tsv &&
	p25=$(for i in $(seq 25); do printf "(.*){32}"; done) &&
	p40=$(for i in $(seq 40); do printf "(.*){32}"; done) &&
	echo "demo inst /$p40/ cycles <= 1" > many.rules &&
	test_expect_code 2 stall-budget many.rules demo.tsv > out 2> err &&
	test "$(wc -l < err)" = 1 &&
	grep -q "^stall-budget: many.rules:1: the pattern /(\.\*){32}.*/: more than 1024 repetitions once they are written out$" err &&
	for i in 1 2 3 4 5; do echo "demo inst /$p25/ cycles <= 1000000"; done > five.rules &&
	stall-budget five.rules demo.tsv > out &&
	cp five.rules six.rules && echo "demo inst /$p25/ cycles <= 1000000" >> six.rules &&
	test_expect_code 2 stall-budget six.rules demo.tsv > out 2> err &&
	echo "stall-budget: six.rules:6: the patterns of the rules hold more than 4096 repetitions once they are written out" > expect &&
	test_cmp expect err
'

test_expect_success 'a ##x line of 200000 fields passes through stall-table whole (each field joined once, not the line rejoined at each)' '
	awk "BEGIN { printf \"##x\"; for (i = 0; i < 200000; i++) printf \"\tx\"; print \"\" }" > long.meta &&
	cat long.meta demo.tsv > long.tsv &&
	timeout 60 stall-table long.tsv > out &&
	grep "^##x" out > actual && test_cmp long.meta actual
'

test_done
