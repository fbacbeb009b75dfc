#!/bin/sh
# t0990: the library's readers and writers return their errors (issue 18, point 5):
# build/errors_test calls each one a program calls (packet_read, timeline_header and
# timeline_row, profile_read_tsv with its rows, limits and dispatch hook,
# profile_read_json, capture_writer_meta, codeload_program, rgp_write, capture_open) on bad input after bad input in one process that arms no catch: each
# error comes back as its line, where the library once ended the process on the first.
# The programs say the same lines, exit 2.
. "$(dirname "$0")/lib.sh"

DEMO="$TOP/fixtures/demo"

test_expect_success 'every error returned, one after another, in one process' '
	d=$(cd "$DEMO" && pwd -P) &&
	"$TOP/build/errors_test" "$DEMO" > actual &&
	cat > expect <<-EOF &&
	packet_read: p1:2: unknown token type '"'NOSUCH'"'
	packet_read: p2:2: time: '"'ten'"' is not a number
	packet_read: p3:2: unknown INST op '"'NOSUCH_OP'"'
	packet_read: p4:2: raw '"'-'"' is not a NEW_PC'"'"'s bits
	packet_read: p5:2: wgp: '"'x'"' is not a number
	timeline: t1:1: no column '"'inst'"'
	timeline: t2:2: time: -5 is negative
	timeline: t3:2: wave: '"'one'"' is not a number
	profile_read_tsv: r1:2: delta: -3 is negative
	profile_read_tsv: r2:2: 4 fields, the header names 5
	profile_read_tsv: r3:1: no column '"'delta'"'
	profile_read_tsv: s0:2: cause: unknown cause '"'nosuch'"'
	profile_read_tsv: s1:2: the causes add up to 0, not to the 5 cycles
	profile_read_tsv: s2: kernel '"'k'"' has no '"'##stall-table kernel'"' line
	profile_read_tsv: s3:1: kernel '"'k'"': cycles '"'many'"' is not a number
	profile_read_tsv: r4:2: cost2: 5 is not within the cost 3
	profile_read_tsv: r5:2: delta: 9 is not within the time 5
	profile_read_tsv: r6:3: cycles: the sum passes 2^63-1
	profile_read_tsv: r7:2: cause: unknown cause '"'nap'"'
	profile_read_tsv: r8:2: cost: '"'x'"' is not a number
	profile_read_tsv: r9:2: event: '"'e'"' is not a number
	profile_read_tsv: r10: more than 32768 kernels: the limit of a profile
	dispatch_row_hook: d1:2: a row without an event column: no dispatch to tell
	dispatch_row_hook: d2:3: an ##event line above: its event or dispatch is not a number
	dispatch_row_hook: d3:2: event: '"'e'"' is not a number
	dispatch_row_hook: d4: more than 32768 dispatches (or kernels of a dispatch): the limit of --by-dispatch
	profile_read_json: j1: line 1: an object member without a name
	profile_read_json: j2: line 1: not a stall table: not an object
	profile_read_json: j3: line 1: not a stall table of version 1
	profile_read_json: j4: line 1: "cycles" is missing or not a number
	profile_read_json: j5: line 1: unknown cause nap
	profile_read_json: j6: line 1: a row of no hits at pc 0x10
	profile_read_json: j7: kernel '"'k'"': its rows, TOTAL row and '"'##stall-table kernel'"' line do not agree
	capture_writer_meta: m1:1: ##code wants NAME TAG BASE SIZE [FILE]
	capture_writer_meta: m2:1: ##event: event: '"'x'"' is not a number in 0..1073741824
	capture_writer_meta: m3:1: ##event: dispatch: '"'0x'"' is not a number in 0..9223372036854775807
	capture_writer_meta: m4:1: ##source: a malformed escape in field 1 (\\\\, \\t, \\n and \\xHH are the escapes)
	codeload_program: /nonexistent/capture.pkl: No such file or directory
	codeload_program: /nonexistent/capture.pkl: No such file or directory
	rgp_write: $d: no trace buffer to write
	rgp_write: /nonexistent/out.rgp: No such file or directory
	capture_open: /nonexistent: No such file or directory
	capture_open: bad.pkl: empty file
	capture_open: bad.pkl: not a pickle of protocol 2 to 5 (first byte 0x74); a raw stream wants --raw
	capture_open: bad.pkl: a pickle of protocol 1: tinygrad writes 2 to 5
	all returned
	EOF
	test_cmp expect actual &&
	! test -e out.rgp
'


test_expect_success 'sqtt-walk says packet_read'"'"'s line, exit 2' '
	printf "#event\tse\tnib\ttime\ttype\twave\tsimd\twgp\tsa\top\traw\n0\t0\t-\t10\tNOSUCH\t-\t-\t-\t-\t-\t-\n" > p1 &&
	test_expect_code 2 sqtt-walk p1 > out 2> err &&
	grep "^packet_read: p1:" actual > want &&
	sed -n "s/^packet_read: /sqtt-walk: /p" want > expect &&
	test_cmp expect err
'

test_expect_success 'stall-table and stall-diff say profile_read_tsv'"'"'s lines, exit 2' '
	printf "#kernel\tpc\tinst\ttoken\tdelta\nk\t0x10\ts_nop\tINST\t-3\n" > r1 &&
	test_expect_code 2 stall-table r1 > out 2> err &&
	grep "^profile_read_tsv: r1:" actual | sed "s/^profile_read_tsv: /stall-table: /" > expect &&
	test_cmp expect err &&
	printf "#kernel\tpc\thits\tcycles\tpct\tcause\tinst\nk\t0x10\t1\t5\t100.00\tnosuch\ts_nop\n" > s0 &&
	test_expect_code 2 stall-diff s0 s0 > out 2> err &&
	grep "^profile_read_tsv: s0:" actual | sed "s/^profile_read_tsv: /stall-diff: /" > expect &&
	test_cmp expect err
'

test_expect_success 'stall-table says read_row'"'"'s and the dispatch hook'"'"'s lines, exit 2' '
	printf "#kernel\tpc\tinst\ttoken\tcost\tcause\tcost2\tcause2\nk\t0x10\ts_nop\tINST\t3\tmem\t5\tsalu\n" > r4 &&
	printf "#kernel\tpc\tinst\ttoken\tcost\nk\t0x10\ts_nop\tINST\t9223372036854775807\nk\t0x10\ts_nop\tINST\t1\n" > r6 &&
	awk "BEGIN { print \"#kernel\tpc\tinst\ttoken\tcost\"; for (i = 0; i <= 32768; i++) printf \"k%d\t0x10\ts_nop\tINST\t1\n\", i }" > r10 &&
	for f in r4 r6 r10; do
		test_expect_code 2 stall-table $f > out 2> err &&
		grep "^profile_read_tsv: $f[:]" actual | sed "s/^profile_read_tsv: /stall-table: /" > expect &&
		test_cmp expect err || return 1
	done &&
	printf "#event\tkernel\tpc\tinst\ttoken\tcost\ttime\tdelta\n0\tk\t0x10\ts_nop\tINST\t1\t5\t9\n" > r5 &&
	test_expect_code 2 stall-table --by-dispatch r5 > out 2> err &&
	grep "^profile_read_tsv: r5:" actual | sed "s/^profile_read_tsv: /stall-table: /" > expect &&
	test_cmp expect err &&
	printf "#kernel\tpc\tinst\ttoken\tcost\nk\t0x10\ts_nop\tINST\t1\n" > d1 &&
	printf "##event\tx\n#event\tkernel\tpc\tinst\ttoken\tcost\n0\tk\t0x10\ts_nop\tINST\t1\n" > d2 &&
	for f in d1 d2; do
		test_expect_code 2 stall-table --dispatch 0 $f > out 2> err &&
		grep "^dispatch_row_hook: $f:" actual | sed "s/^dispatch_row_hook: /stall-table: /" > expect &&
		test_cmp expect err || return 1
	done
'

test_expect_success 'stall-table --trace-json: a malformed ##event line the clocks meet, the file named, exit 2, no file' '
	printf "##event\tx\n#event\tse\tkernel\twave\tslot\tpc\ttime\tdelta\ttoken\tinst\tcost\n0\t0\tk\t1\t0\t0x10\t5\t1\tINST\ts_nop\t1\n0\t0\tk\t1\t0\t0x14\t6\t1\tWAVE_END\ts_endpgm\t1\n" > tj &&
	test_expect_code 2 stall-table --trace-json t.json tj > out 2> err &&
	echo "stall-table: tj: an ##event line: its event or dispatch is not a number" > expect &&
	test_cmp expect err &&
	! test -s out &&
	! test -e t.json
'

test_expect_success 'stall-diff says profile_read_json'"'"'s lines, exit 2' '
	printf "{\"version\": 2}" > j3 &&
	printf "{\"version\": 1, \"view\": \"cause\", \"top\": 0, \"kernels\": [{\"kernel\": \"k\"}]}" > j4 &&
	for f in j3 j4; do
		test_expect_code 2 stall-diff $f $f > out 2> err &&
		grep "^profile_read_json: $f:" actual | sed "s/^profile_read_json: /stall-diff: /" > expect &&
		test_cmp expect err || return 1
	done
'

test_expect_success 'sqtt-encode -d says capture_writer_meta'"'"'s line, exit 2' '
	printf "##code\tdemo\t1\n" > m1 &&
	test_expect_code 2 sqtt-encode -d enc m1 > out 2> err &&
	grep "^capture_writer_meta: m1:" actual | sed "s/^capture_writer_meta: /sqtt-encode: /" > expect &&
	test_cmp expect err
'

test_expect_success 'sqtt-dump --rgp says rgp_write'"'"'s line, exit 2' '
	test_expect_code 2 sqtt-dump --rgp /nonexistent/out.rgp "$DEMO" > out 2> err &&
	grep "^rgp_write: /nonexistent" actual | sed "s/^rgp_write: /sqtt-dump: /" > expect &&
	test_cmp expect err
'

test_done
