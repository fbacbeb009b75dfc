#!/bin/sh
# t0479: the pictures of a row of two causes (stall-attr(1), "A row's two causes"): on the
# page of --html its bar is split, the row's cause first and the second cause's part at
# its end, each in its colour; in --trace-json the row's slice names cause2 and cycles2,
# and that part is a slice of its own inside it (a child in Perfetto and chrome://tracing).
# Authored: fixtures/traces/twocause.packets.tsv (the trace of t0478 on
# fixtures/kernels/twocause.s): three rows of two causes, known by construction:
#   slot 0 (wave 1): s_sleep 2 from 250 to 400, 22 wave_start then 128 sleep;
#                    v_mov at 408, 7 cycles: 4 issue_wait, then 3 unexplained;
#   slot 1 (wave 0): s_sleep 2 from 150 to 403, 125 wave_start then 128 sleep.
. "$(dirname "$0")/lib.sh"

CHROMIUM=$(command -v chromium || command -v chromium-browser || echo chromium)

test_expect_success 'the rows: three of two causes' '
	(cd "$TOP" && sqtt-encode -d "$T_DIR/cap" fixtures/traces/twocause.packets.tsv) &&
	sqtt-dump cap | sqtt-walk | stall-attr > attr &&
	awk -F"\t" "!/^#/ && \$16 > 0 { print \$5, \$6, \$7, \$8, \$13, \$14, \$16, \$17 }" attr > actual &&
	cat > expect <<-\EOF &&
	0 0x1300 400 150 150 wave_start 128 sleep
	1 0x1300 403 253 253 wave_start 128 sleep
	0 0x1308 408 7 7 issue_wait 3 unexplained
	EOF
	test_cmp expect actual
'

test_expect_success 'trace JSON: the row names its second cause, whose part is a slice at its end' '
	stall-table --trace-json t.json --html page.html attr > table.tsv &&
	grep "cause2" t.json > actual &&
	cat > expect <<-\EOF &&
	{"ph": "X", "name": "(launch)", "cat": "wave_start", "ts": 0.250, "dur": 0.150, "pid": 1, "tid": 1, "args": {"cause": "wave_start", "cycles": 150, "issue": 400, "cause2": "sleep", "cycles2": 128}},
	{"ph": "X", "name": "sleep", "cat": "sleep", "ts": 0.272, "dur": 0.128, "pid": 1, "tid": 1, "args": {"cause2": "sleep", "cycles2": 128, "issue": 400}},
	{"ph": "X", "name": "(launch)", "cat": "wave_start", "ts": 0.150, "dur": 0.253, "pid": 1, "tid": 2, "args": {"cause": "wave_start", "cycles": 253, "issue": 403, "cause2": "sleep", "cycles2": 128}},
	{"ph": "X", "name": "sleep", "cat": "sleep", "ts": 0.275, "dur": 0.128, "pid": 1, "tid": 2, "args": {"cause2": "sleep", "cycles2": 128, "issue": 403}},
	{"ph": "X", "name": "v_mov_b32_e32 v1, 0", "cat": "issue_wait", "ts": 0.401, "dur": 0.007, "pid": 1, "tid": 1, "args": {"pc": "0x1308", "inst": "v_mov_b32_e32 v1, 0", "cause": "issue_wait", "cycles": 7, "issue": 408, "cause2": "unexplained", "cycles2": 3}},
	{"ph": "X", "name": "unexplained", "cat": "unexplained", "ts": 0.405, "dur": 0.003, "pid": 1, "tid": 1, "args": {"cause2": "unexplained", "cycles2": 3, "issue": 408}},
	EOF
	test_cmp expect actual &&
	grep -c "\"ph\": \"X\"" t.json > n && echo 11 > expect && test_cmp expect n &&
	stall --trace-json s.json cap > /dev/null &&
	test_cmp t.json s.json
'

test_expect_success PYTHON3 'trace JSON: every slice its row, every second cause its nested part' '
	python3 "$TOP/tests/data/t0610-check-trace.py" attr t.json > actual &&
	printf "processes 1\nthreads 2\nslices 8\nsecond 3\n" > expect &&
	test_cmp expect actual
'

# The page's timeline: lanes in slot order (slot 0 is wave 1), t0 = 150; the bars of one
# row with a second cause listed by lane as (bar, cause, cycles).
test_expect_success 'the page: each bar of a row of two causes lists its second cause and part' '
	grep -o "{\"wave\": [0-9]*, \"slot\": [^}]*}" page.html > actual &&
	cat > expect <<-\EOF &&
	{"wave": 1, "slot": 0, "rows": 4, "bars": [100,150,0,0,1,150,250,1,1,2,1,1,251,7,2,3,1,7,258,22,3,5,1,22], "cause2": [0,1,128,2,4,3]}
	{"wave": 0, "slot": 1, "rows": 4, "bars": [0,253,0,0,1,253,253,1,1,2,1,1,254,1,2,2,1,1,255,15,3,5,1,15], "cause2": [0,1,128]}
	EOF
	test_cmp expect actual &&
	grep -o "\"causes\": \[[^]]*\]" page.html > actual &&
	echo "\"causes\": [\"wave_start\", \"sleep\", \"issue_cycle\", \"issue_wait\", \"unexplained\", \"drain\"]" > expect &&
	test_cmp expect actual
'

# In Chromium: both parts of each split bar read back from the canvas in their causes'
# colours (html-page.html: wave_start #8e99a8, sleep #6baed6, issue_wait #f2a7c3,
# unexplained #d5dde3), both causes in the legend, and a click and a hover name both.
test_expect_success CHROMIUM 'the page in Chromium: the bar in two colours, the click and the tip say both causes' '
	page_probe page.html "$TOP/tests/data/t0479-probe.js" &&
	cat > expect <<-\EOF &&
	split 3
	legend wave_start sleep issue_cycle issue_wait unexplained drain
	bar	slot 0	(launch)	wave_start	22	#8e99a8	sleep	128	#6baed6
	bar	slot 0	v_mov_b32_e32 v1, 0	issue_wait	4	#f2a7c3	unexplained	3	#d5dde3
	bar	slot 1	(launch)	wave_start	125	#8e99a8	sleep	128	#6baed6
	detail	(launch)	150	wave_start	sleep: the last 128 of its cycles (wave_start 22)
	tip	150 cycles, wave_start (the last 128 sleep)
	EOF
	test_cmp expect probe
'

test_done
