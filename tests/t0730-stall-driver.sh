#!/bin/sh
# t0730-stall-driver: the driver under a signal and short of file descriptors.
. "$(dirname "$0")/lib.sh"

test_expect_success 'SIGTERM stops the stages at once: exit 2, no table' '
	mkfifo fifo &&
	{ sleep 5 > fifo & } && writer=$! &&
	start=$(date +%s%N) &&
	{ stall - < fifo > out 2> err & } && driver=$! &&
	sleep 0.5 &&
	kill -TERM $driver &&
	{ wait $driver; st=$?; } &&
	end=$(date +%s%N) &&
	{ kill $writer 2>/dev/null || :; } &&
	test $st -eq 2 &&
	test $(( (end - start) / 1000000 )) -lt 2000 &&
	test_cmp /dev/null out
'

test_expect_success 'one process: a handful of file descriptors are enough' '
	(ulimit -n 12 && stall "$TOP/fixtures/demo") > out 2> err &&
	test_cmp /dev/null err &&
	test $(grep -c "TOTAL" out) -ge 1
'

test_expect_success 'SIGTERM while writing a page: exit 2, the page removed' '
	mkfifo fifo2 &&
	{ sleep 5 > fifo2 & } && writer=$! &&
	{ stall --html page.html - < fifo2 > out 2> err & } && driver=$! &&
	sleep 0.5 &&
	kill -TERM $driver &&
	{ wait $driver; st=$?; } &&
	{ kill $writer 2>/dev/null || :; } &&
	test $st -eq 2 &&
	test ! -e page.html
'

test_expect_success SHARED 'a reader that goes away (head -n 1) is no failure: exit 0, no message' '
	{ stall --rows "$FIXTURES/20260305_profile_gemm_run_0_b6d1936.pkl" 2> err; echo $? > status; } |
		head -n 1 > first &&
	echo 0 > expect &&
	test_cmp expect status &&
	test_cmp /dev/null err &&
	grep -q "^##source" first
'

test_done
