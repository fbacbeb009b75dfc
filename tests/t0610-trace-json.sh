#!/bin/sh
# stall-table --trace-json: Chrome trace events that hold to the format (names before
# slices, integer pids and tids, one complete slice per row, no overlap on a thread,
# time in order) and to the rows (each wave a thread, its slices its rows, from its
# WAVE_START to its last row).  Strings of any bytes stay valid JSON, in the trace and in
# the page of --html, whose script elements they cannot close.
. "$(dirname "$0")/lib.sh"

check() { python3 "$TOP/tests/data/t0610-check-trace.py" "$@"; }

test_expect_success PYTHON3 'hand-written rows: two kernels, moved barrier waits' '
	stall-table --trace-json trace.json "$TOP/tests/data/rows-table.tsv" > table.tsv &&
	check "$TOP/tests/data/rows-table.tsv" trace.json > actual &&
	printf "processes 2\nthreads 3\nslices 12\n" > expect &&
	test_cmp expect actual &&
	stall-table "$TOP/tests/data/rows-table.tsv" > plain.tsv &&
	cmp plain.tsv table.tsv
'

test_expect_success PYTHON3 'rows of a barrier: every slice its row' '
	stall-table --trace-json barrier.json "$TOP/tests/data/rows-barrier.tsv" > /dev/null &&
	check "$TOP/tests/data/rows-barrier.tsv" barrier.json > actual &&
	printf "processes 1\nthreads 2\nslices 8\n" > expect &&
	test_cmp expect actual
'

test_expect_success PYTHON3 'the demo through stall: untraced waves are no threads' '
	stall --trace-json demo.json "$TOP/fixtures/demo" > demo.tsv &&
	sqtt-dump --types HEADER,WAVE_START,WAVE_END,INST,VALU_INST,IMM_ONE,IMMEDIATE,NEW_PC "$TOP/fixtures/demo" > p.tsv &&
	sqtt-walk p.tsv > w.tsv && stall-attr w.tsv > rows.tsv &&
	check rows.tsv demo.json > actual &&
	printf "processes 1\nthreads 3\nslices 87\nsecond 2\n" > expect &&
	test_cmp expect actual
'

test_expect_success SHARED,PYTHON3 '20260202 gemm: three kernels, 36 waves, every traced row a slice' '
	stall --trace-json gemm.json "$FIXTURES/20260202_profile_gemm_run_0_ccf477c.pkl" > gemm.tsv &&
	sqtt-dump --types HEADER,WAVE_START,WAVE_END,INST,VALU_INST,IMM_ONE,IMMEDIATE,NEW_PC "$FIXTURES/20260202_profile_gemm_run_0_ccf477c.pkl" > p.tsv &&
	sqtt-walk p.tsv > w.tsv && stall-attr w.tsv > rows.tsv &&
	check rows.tsv gemm.json > actual &&
	printf "processes 3\nthreads 36\nslices %s\nsecond %s\n" "$(awk -F"\t" "!/^#/ && \$14 != \"untraced\"" rows.tsv | wc -l | tr -d " ")" \
		"$(awk -F"\t" "!/^#/ && \$14 != \"untraced\" && \$16 > 0" rows.tsv | wc -l | tr -d " ")" > expect &&
	test_cmp expect actual &&
	grep -c "^second 104\$" actual
'

# The strings of the pipeline's rows are kept as JSON by their address, in fewer slots
# than a kernel may have instructions: a wave through 5000 distinct ones (bench/mkcode.py)
# shares them (its first row is the launch's), and its trace is byte for byte the one stall-table writes from the rows.
test_expect_success PYTHON3 'a wave through 5000 distinct instructions: the trace stall-table writes from the rows' '
	python3 "$TOP/bench/mkcode.py" elf k5.elf 0 5000 &&
	python3 "$TOP/bench/mkcode.py" trace k5.elf 5000 > k5.tsv &&
	sqtt-encode -d k5 k5.tsv &&
	stall --top 0 --trace-json k5d.json k5 > k5d.tsv &&
	stall --rows k5 > k5.rows &&
	stall-table --top 0 --trace-json k5.json k5.rows > k5.table &&
	cmp k5.json k5d.json &&
	grep -c "\"ph\": \"X\", \"name\": \"v_add_f32_e32 " k5d.json > n &&
	grep -c "\"ph\": \"X\", \"name\": \"(launch)\", .*\"issue\": 200}}" k5d.json >> n &&
	grep -c "\"ph\": \"X\", \"name\": \"(drain)\"" k5d.json >> n &&
	printf "4998\n1\n1\n" > expect.n &&
	test_cmp expect.n n
'

# The unit is what the file says: displayTimeUnit ns, otherData.cycles_per_ts 1000, and
# every slice's dur times 1000 is its args.cycles (the row's cost); the dispatches in
# order, each after the one before (by construction of the 20260202 capture: three
# dispatches of one buffer with rows each, whose clocks are 1.41M, 1.11M and 1.07M
# cycles into their traces).
if [ -f "$FIXTURES/20260202_profile_gemm_run_0_ccf477c.pkl" ]; then
test_expect_success JQ 'jq: the unit said is the unit written; dispatch 1, 2, 3 in order' '
	jq -e ".displayTimeUnit == \"ns\" and .otherData.cycles_per_ts == 1000" gemm.json &&
	jq -e "[.traceEvents[] | select(.ph == \"X\") | (.dur * 1000 | round) == (.args.cycles // .args.cycles2)] | all" gemm.json &&
	jq -r "[.traceEvents[] | select(.ph == \"X\" and .args.cause)] | group_by(.pid) | .[] |
		\"\\(.[0].pid) \\(map(.ts * 1000 | round) | min) \\(map((.ts + .dur) * 1000 | round) | max)\"" gemm.json >spans &&
	printf "1 1412386 1415777\n2 2522351 2525694\n3 3597565 3612737\n" >expect &&
	test_cmp expect spans &&
	jq -r ".traceEvents[] | select(.name == \"process_name\") | .args.name" gemm.json >names &&
	printf "%s\n" "E_32_32_4 SE0 (event 0, dispatch 1)" "E_8_8_16_4 SE0 (event 6, dispatch 2)" \
	    "r_2_8_16_4_4_16_4 SE0 (event 12, dispatch 3)" >expect &&
	test_cmp expect names
'

test_expect_success !JQ 'awk: the unit said is the unit written (no jq here)' '
	grep -q "^{\"displayTimeUnit\": \"ns\", .*\"cycles_per_ts\": 1000," gemm.json &&
	awk "/\"ph\": \"X\"/ {
		d = \$0; sub(/.*\"dur\": /, \"\", d); sub(/,.*/, \"\", d)
		c = \$0; if (!sub(/.*\"cycles\": /, \"\", c)) sub(/.*\"cycles2\": /, \"\", c); sub(/[,}].*/, \"\", c)
		n++; if (int(d * 1000 + 0.5) != c + 0) bad++
	} END { exit !(n > 0 && bad == 0) }" gemm.json
'
fi

# A kernel named with quotes, a backslash, control bytes, bytes that are not UTF-8, a
# line separator, an emoji and a script end tag; an instruction with < and &.
evil_rows() {
	printf '#event\tse\tkernel\twave\tslot\tpc\ttime\tdelta\ttoken\tinst\tclass\tdep\tcost\tcause\n'
	k=$(printf 'k"q\\b\001\033\377\300\200\342\200\250\360\237\230\200</script><script>alert(1)</script>')
	printf '0\t0\t%s\t0\t0\t0x100\t10\t10\tVALU_INST\tv_mov_b32 v0, 0\tvalu\t-\t10\twave_start\n' "$k"
	printf '0\t0\t%s\t0\t0\t0x104\t12\t2\tVALU_INST\tv_a <b> & c\tvalu\t-\t2\tvalu_dep\n' "$k"
	printf '0\t0\t%s\t0\t0\t0x108\t15\t3\tWAVE_END\ts_endpgm\tendpgm\t-\t3\tdrain\n' "$k"
}

test_expect_success PYTHON3 'any bytes in a name: valid JSON in the trace, U+FFFD for the bad ones' '
	evil_rows > evil.tsv &&
	stall-table --trace-json evil.json --html evil.html evil.tsv > evil.table &&
	check evil.tsv evil.json > actual &&
	printf "processes 1\nthreads 1\nslices 3\n" > expect &&
	test_cmp expect actual
'

test_expect_success PYTHON3 'the page: the names cannot close a script; its table is --json exactly' '
	test "$(grep -oi "</script" evil.html | wc -l)" -eq 3 &&
	stall-table --json evil.tsv > evil.stdout.json &&
	python3 - evil.html evil.stdout.json <<-\EOF
	import json, re, sys
	page = open(sys.argv[1], encoding="utf-8").read()
	blocks = dict(re.findall(r"<script type=\"application/json\" id=\"([a-z-]+)\">(.*?)</script>", page, re.S))
	want = "k\"q\\b\x01\x1b\ufffd\ufffd\ufffd\u2028\U0001f600</script><script>alert(1)</script>"
	table, tl = json.loads(blocks["stall-table"]), json.loads(blocks["stall-timeline"])
	assert table["kernels"][0]["kernel"] == want, table["kernels"][0]["kernel"]
	assert tl["kernels"][0]["kernel"] == want
	assert ["0x104", "v_a <b> & c"] in tl["insts"], tl["insts"]
	assert ["0x100", "v_mov_b32 v0, 0"] not in tl["insts"], tl["insts"]
	assert blocks["stall-table"] == open(sys.argv[2], encoding="utf-8").read(), "not --json"
	assert "<" not in blocks["stall-table"] + blocks["stall-timeline"]
	assert "\u2028" not in page
	EOF
'

test_expect_success 'an output that cannot be written: one line, exit 2' '
	test_expect_code 2 stall-table --trace-json /nonexistent/t.json "$TOP/tests/data/rows-table.tsv" > out 2> err &&
	test_one_line_error stall-table err &&
	grep -q "/nonexistent/t.json: No such file or directory" err &&
	test_expect_code 2 stall-table --html /nonexistent/t.html "$TOP/tests/data/rows-table.tsv" > out 2> err &&
	test_one_line_error stall-table err &&
	grep -q "/nonexistent/t.html: No such file or directory" err
'

test_expect_success 'no rows: exit 2, one line, no file left behind' '
	printf "#event\tse\tkernel\twave\tslot\tpc\ttime\tdelta\ttoken\tinst\tclass\tdep\tcost\tcause\n" > empty.tsv &&
	test_expect_code 2 stall-table --trace-json e.json --html e.html empty.tsv > out 2> err &&
	test_one_line_error stall-table err &&
	grep -q "no rows" err &&
	! test -e e.json && ! test -e e.html
'

test_expect_success 'a row before its wave_start: one line naming the file and line, exit 2' '
	evil_rows | sed "2s/\t10\t10\t/\t10\t11\t/" > early.tsv &&
	test_expect_code 2 stall-table --trace-json t.json early.tsv > out 2> err &&
	test_one_line_error stall-table err &&
	grep -q "^stall-table: early.tsv:2: delta 11 is more than the time 10" err &&
	! test -e t.json &&
	evil_rows | sed "2s/\t10\t10\t/\t-10\t10\t/" > neg.tsv &&
	test_expect_code 2 stall-table --html t.html neg.tsv > out 2> err &&
	test_one_line_error stall-table err &&
	grep -q "^stall-table: neg.tsv:2: time: -10 is negative" err &&
	! test -e t.html
'

test_expect_success 'a full disk: one line, exit 2' '
	test_expect_code 2 stall-table --trace-json /dev/full "$TOP/tests/data/rows-table.tsv" > out 2> err &&
	test_one_line_error stall-table err &&
	grep -q "^stall-table: /dev/full: No space left on device" err &&
	test_expect_code 2 stall-table --html /dev/full "$TOP/tests/data/rows-table.tsv" > out 2> err &&
	test_one_line_error stall-table err &&
	grep -q "^stall-table: /dev/full: No space left on device" err
'

test_done
