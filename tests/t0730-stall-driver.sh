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
	kill $writer 2>/dev/null
	test $st -eq 2 &&
	test $(( (end - start) / 1000000 )) -lt 2000 &&
	test_cmp /dev/null out
'

test_expect_success 'too few file descriptors: one line, exit 2' '
	(ulimit -n 20 && stall "$TOP/fixtures/demo") > out 2> err; st=$? &&
	test $st -eq 2 &&
	echo "stall: too few file descriptors (ulimit -n 20): the stages need 32" > expect &&
	test_cmp expect err &&
	test_cmp /dev/null out &&
	(ulimit -n 32 && stall "$TOP/fixtures/demo") > out 2> err &&
	test $(grep -c "TOTAL" out) -ge 1
'

test_done
