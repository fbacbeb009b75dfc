#!/bin/sh
# t0980: hostile input to the capture readers (issue 23), one test per kind, each with its
# exact result: a results JSON of many code objects and symbols (time), 4 MB of JSON and a
# 4 MB pickle (memory, the documented limits), JSON errors that would copy raw bytes onto
# stderr, --raw on /dev/zero and on an endless pipe, a capture.tsv that is a FIFO or a
# link out of its directory.  (.att names past 2^32 and _00_0: t0960.)
. "$(dirname "$0")/lib.sh"

DEMO="$TOP/fixtures/demo"

# peak KB MAX CMD...: run CMD (its status kept), failing with 99 if it took more than MAX
# KB (not measured in sanitizer builds, or where GNU time is missing: a skipped part, said)
peak() {
	max=$1; shift
	if test_part GNU_TIME,!ASAN "the $max KB bound of $1" > /dev/null; then
		/usr/bin/time -f "%M %U" -o peak.out "$@"
		st=$?
		set -- $(tail -n 1 peak.out)
		[ "$1" -le "$max" ] || { echo "took $1 KB (at most $max)"; return 99; }
		echo "$2" > cpu.s
		return $st
	fi
	"$@"
	st=$?
	echo 0 > cpu.s
	return $st
}

run() {	# run DIR: the demo's streams and code object, a results JSON to come
	mkdir "$1" && cp "$DEMO"/*.att "$DEMO"/*.out "$1"/
}

test_expect_success PYTHON3 'a results JSON of 75000 code objects, symbols and dispatches: read in well under a second' '
	run many &&
	python3 -c "
import json
n = 75000
co = [{\"code_object_id\": i, \"load_base\": 0x10000000 + i * 0x10000, \"load_size\": 4096} for i in range(1, n)]
co.append({\"code_object_id\": 0, \"load_base\": 0x7f3a2c000000, \"load_size\": 12288})
ks = [{\"kernel_id\": i + 1, \"code_object_id\": i, \"kernel_name\": \"k%d.kd\" % i} for i in range(n)]
d = [{\"dispatch_info\": {\"dispatch_id\": i, \"kernel_id\": 1 if i < 2 else i + 1}} for i in range(n)]
json.dump({\"rocprofiler-sdk-tool\": [{\"code_objects\": co, \"kernel_symbols\": ks, \"buffer_records\": {\"kernel_dispatch\": d}}]}, open(\"many/x_results.json\", \"w\"))
" &&
	peak 204800 sqtt-dump many > out 2> err &&
	test_cmp /dev/null err &&
	grep "^##event" out | cut -f 2,4,11 > actual &&
	printf "0\tk0\t0\n1\tk0\t1\n" > expect && test_cmp expect actual &&
	awk "{ exit !(\$1 < 1.0) }" cpu.s
'

test_expect_success PYTHON3 '4 MB of JSON (2 million values): one line, exit 2, under 100 MB' '
	run big &&
	python3 -c "print(\"{\\\"a\\\": [\" + \",\".join([\"0\"] * 1999000) + \"]}\")" > big/x_results.json &&
	test "$(wc -c < big/x_results.json)" -gt 3900000 &&
	test_expect_code 2 peak 102400 sqtt-dump big > out 2> err &&
	echo "sqtt-dump: $(pwd -P)/big/x_results.json: line 1: more than 1048576 values: more than a results JSON may hold (sqtt-dump(1), LIMITS)" > expect &&
	test_cmp expect err && test_cmp /dev/null out
'

test_expect_success PYTHON3 'a 4 MB pickle of 2 million values: one line, exit 2, under 100 MB (a value: 56 bytes)' '
	python3 -c "import pickle; pickle.dump([[] for i in range(2000000)], open(\"big.pkl\", \"wb\"), protocol=4)" &&
	test "$(wc -c < big.pkl)" -gt 3900000 &&
	test_expect_code 2 peak 102400 sqtt-dump big.pkl > out 2> err &&
	echo "sqtt-dump: $(pwd -P)/big.pkl: more than 1048576 values at byte 2099540: more than a profile pickle holds" > expect &&
	test_cmp expect err
'

test_expect_success 'JSON errors quote no raw byte: control bytes and bytes that are not UTF-8 as \xHH (the run read without it)' '
	run esc &&
	printf "{\"a\\033[2J\\007\": 1 x}" > esc/x_results.json &&
	sqtt-dump esc > out 2> err &&
	printf "sqtt-dump: warning: %s/esc/x_results.json: not JSON (line 1: a control character in a string): no load bases, kernel names or dispatches from it\n" "$(pwd -P)" > expect &&
	head -1 err > actual && test_cmp expect actual &&
	printf "{\"a\\\\u001b[2J\": 1 \"\\377\\033]0;x\\007\"}" > esc/x_results.json &&
	sqtt-dump esc > out 2> err &&
	printf "sqtt-dump: warning: %s/esc/x_results.json: not JSON (line 1: no %s or %s after an element): no load bases, kernel names or dispatches from it\n" "$(pwd -P)" "'\'','\''" "'\''}'\''" > expect &&
	head -1 err > actual && test_cmp expect actual &&
	printf "{\"a\\\\u001b[2J\\\\u0007\" 1}" > esc/x_results.json &&
	sqtt-dump esc > out 2> err &&
	printf "sqtt-dump: warning: %s/esc/x_results.json: not JSON (line 1: no %s after the name \"a\\\\x1b[2J\\\\x07\"): no load bases, kernel names or dispatches from it\n" "$(pwd -P)" "'\'':'\''" > expect &&
	head -1 err > actual && test_cmp expect actual &&
	! grep -q "$(printf "\\033")" err
'

test_expect_success '--raw on /dev/zero: refused at its first 8 bytes' '
	test_expect_code 2 peak 20480 sqtt-dump --raw /dev/zero > out 2> err &&
	echo "sqtt-dump: /dev/zero: no HEADER token at the start: not an SQTT stream" > expect &&
	test_cmp expect err
'

test_expect_success '--raw on an endless pipe: one line at 256 MiB, exit 2' '
	{ head -c 8 "$DEMO/stall_shader_engine_0_0.att"; cat /dev/zero; } |
	    { test_expect_code 2 sqtt-dump --raw - > out 2> err; } &&
	echo "sqtt-dump: -: more than 268435456 bytes (a raw stream read from a pipe is held in memory: give a file)" > expect &&
	test_cmp expect err
'

test_expect_success 'a capture.tsv that is a FIFO or a link out of its directory: one line, exit 2, nothing read' '
	cp -r "$DEMO" fifo && rm fifo/capture.tsv && mkfifo fifo/capture.tsv &&
	test_expect_code 2 sqtt-dump fifo > out 2> err &&
	echo "sqtt-dump: $(pwd -P)/fifo: capture.tsv is not a regular file inside the capture directory" > expect &&
	test_cmp expect err &&
	cp -r "$DEMO" link && cp "$DEMO/capture.tsv" outside.tsv && rm link/capture.tsv &&
	ln -s "$(pwd -P)/outside.tsv" link/capture.tsv &&
	test_expect_code 2 sqtt-dump link > out 2> err &&
	echo "sqtt-dump: $(pwd -P)/link: capture.tsv is not a regular file inside the capture directory" > expect &&
	test_cmp expect err &&
	cp -r "$DEMO" inside && mv inside/capture.tsv inside/index.tsv &&
	ln -s index.tsv inside/capture.tsv &&
	sqtt-dump inside > out && grep -c "^##event" out > actual && echo 2 > expect &&
	test_cmp expect actual
'

test_done
