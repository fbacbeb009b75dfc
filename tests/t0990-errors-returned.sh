#!/bin/sh
# t0990: the library's readers and writers return their errors (issue 18, point 5):
# build/errors_test calls each one a program calls (packet_read, timeline_header and
# timeline_row, profile_read_tsv, capture_writer_meta, codeload_program, rgp_write,
# capture_open) on bad input after bad input in one process that arms no catch: each
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
