#!/bin/sh
# A signal ends stall at once (exit 2), and removes only a page or trace this run created:
# never a path that was there before (a file, a link, a device), never one not yet opened.
# A reader that goes away before the page is written is an error, not a silent success.
. "$(dirname "$0")/lib.sh"

D="$TOP/fixtures/demo"
RAW="--raw --code $D/stall_code_object_id_0.out --base 0x7f3a2c000000 --name demo"

test_expect_success 'SIGTERM while the capture is read: no --html or --trace-json path touched' '
	echo "keep me" > old.html &&
	echo "keep me too" > target.json && ln -s target.json link.json &&
	{ sleep 4 | stall $RAW --html old.html --trace-json link.json - > out 2> err &
	  pid=$!; } &&
	sleep 1 && kill -TERM $pid &&
	{ wait $pid; echo $? > rc; } &&
	echo 2 > expect.rc && test_cmp expect.rc rc &&
	test "$(cat old.html)" = "keep me" &&
	test -L link.json && test "$(cat link.json)" = "keep me too" &&
	{ sleep 4 | stall $RAW --html new.html --trace-json new.json - > out 2> err &
	  pid=$!; } &&
	sleep 1 && kill -TERM $pid &&
	{ wait $pid; echo $? > rc; } &&
	test_cmp expect.rc rc &&
	test ! -e new.html && test ! -e new.json
'

test_expect_success 'a reader that goes away before the page: exit 2, one line, no page' '
	rm -f p.html &&
	{ { sleep 0.5; cat "$D/stall_shader_engine_0_0.att"; } |
	  { stall $RAW -a --html p.html - 2> err.pipe; echo $? > rc; } |
	  { exec <&-; sleep 1; }; } &&
	echo 2 > expect.rc && test_cmp expect.rc rc &&
	echo "stall: stdout: the reader went away before the page was written" > expect &&
	test_cmp expect err.pipe &&
	test ! -e p.html
'

test_expect_success 'the same with a page that was there: exit 2, the file left alone' '
	echo "an older page" > p.html &&
	{ { sleep 0.5; cat "$D/stall_shader_engine_0_0.att"; } |
	  { stall $RAW -a --html p.html - 2> err.pipe; echo $? > rc; } |
	  { exec <&-; sleep 1; }; } &&
	test_cmp expect.rc rc &&
	test -f p.html
'

test_expect_success 'without a page a reader that goes away is no failure (exit 0, nothing said)' '
	{ { sleep 0.5; cat "$D/stall_shader_engine_0_0.att"; } |
	  { stall $RAW -a - 2> err.pipe; echo $? > rc; } |
	  { exec <&-; sleep 1; }; } &&
	echo 0 > expect.rc && test_cmp expect.rc rc &&
	test_cmp /dev/null err.pipe
'

test_expect_success 'undisturbed, the page is written and kept' '
	rm -f p.html &&
	stall $RAW --html p.html - < "$D/stall_shader_engine_0_0.att" > out &&
	grep -q "<html" p.html
'

test_done
