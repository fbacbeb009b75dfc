#!/bin/sh
# t0989: a worker's error travels up (issue 18): a capture whose second stream is gzip
# data cut short, walked by two workers (stall --threads 2; the larger, sound stream goes
# to the first worker, the main thread, the cut one to the second, a thread of its own).
# The thread records the error and ends; pipeline_run returns it, the process goes on
# (build/worker_test runs it three times in one process), and each program that reads
# the capture says it in its one line and exits 2.
. "$(dirname "$0")/lib.sh"

DEMO="$TOP/fixtures/demo"
hostile() {	# hostile DIR: the demo's capture, event 1 traced and its stream cut gzip
	cp -r "$DEMO" "$1" &&
	sed "s/^##event	1	1	demo	1	0	/##event	1	1	demo	1	1	/" "$DEMO/capture.tsv" > "$1/capture.tsv" &&
	gzip -c "$DEMO/stall_shader_engine_0_0.att" | head -c 150 > "$1/stall_shader_engine_1_1.att" &&
	test $(wc -c < "$1/stall_shader_engine_1_1.att") -lt $(wc -c < "$1/stall_shader_engine_0_0.att")
}

test_expect_success 'a worker thread'"'"'s error is returned: three runs in one process' '
	hostile h &&
	d=$(pwd -P) &&
	"$TOP/build/worker_test" h 3 > actual &&
	cat > expect <<-EOF &&
	run 0: $d/h/stall_shader_engine_1_1.att: unexpected end of file (gzip data cut short)
	run 1: $d/h/stall_shader_engine_1_1.att: unexpected end of file (gzip data cut short)
	run 2: $d/h/stall_shader_engine_1_1.att: unexpected end of file (gzip data cut short)
	returned 3 times
	EOF
	test_cmp expect actual
'

test_expect_success 'every program on it: its one line, exit 2' '
	msg="$(pwd -P)/h/stall_shader_engine_1_1.att: unexpected end of file (gzip data cut short)" &&
	for p in "stall --threads 2" "stall --threads 2 --rows" "stall --threads 2 --by-dispatch" \
	    sqtt-dump stall-annotate "stall-annotate --lines -k demo" "stall-diff h"; do
		prog=${p%% *} &&
		test_expect_code 2 $p h > out 2> err &&
		test_one_line_error $prog err &&
		echo "$prog: $msg" > expect &&
		test_cmp expect err || return 1
	done &&
	echo "demo cycles <= 1" > rules &&
	test_expect_code 2 stall-budget rules h > out 2> err &&
	echo "stall-budget: $msg" > expect &&
	test_cmp expect err
'

# The exit is the main thread's, after the thread that failed ended by itself.
test_expect_success STRACE 'stall --threads 2: the thread ends with 0, the process exits 2 from its main thread' '
	test_expect_code 2 strace -f -o trace -e trace=execve,clone,clone3,exit_group stall --threads 2 h 2> err &&
	main=$(sed -n "1s/ .*//p" trace) &&
	grep -q "^$main  *clone" trace &&
	grep -q "^[0-9]*  *+++ exited with 0 +++" trace &&
	test "$(grep exit_group trace | sed "s/ .*//")" = "$main"
'

test_expect_success 'sqtt-dump --rgp of that capture: the one line, exit 2, no half-written file' '
	hostile r &&
	test_expect_code 2 sqtt-dump --rgp out.rgp r >out 2>err &&
	echo "sqtt-dump: $(pwd -P)/r/stall_shader_engine_1_1.att: unexpected end of file (gzip data cut short)" >expect &&
	test_cmp expect err && ! test -e out.rgp
'

test_done
