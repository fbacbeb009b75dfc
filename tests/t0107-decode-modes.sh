#!/bin/sh
# The decoder's ways through a stream agree (build/decode_test): sqtt_count (with
# its step over two short tokens at once) counts what sqtt_next decodes, type by type,
# and sqtt_next_of (the walk's: the tokens it does not want stepped over) gives every
# token of the types it takes (of REG, the writes of the program address) and the same
# stream time, and wanting every type what sqtt_next gives (each token's bits and time
# too, hashed), on the project's captures and every real buffer of ../shared.
. "$(dirname "$0")/lib.sh"

DECODE_TEST="$TOP/build/decode_test"
WALKED='^(HEADER|REG:pgm|WAVE_START|WAVE_END|INST|VALU_INST|IMM_ONE|IMMEDIATE|NEW_PC)	'

# agree FILE: the three modes agree on one raw stream
agree() {
	"$DECODE_TEST" count "$1" > count.out &&
	"$DECODE_TEST" next "$1" > next.out &&
	"$DECODE_TEST" walk "$1" > walk.out &&
	"$DECODE_TEST" every "$1" > every.out &&
	grep -v "^hash:walk	" next.out > next.every &&
	test_cmp next.every every.out &&
	grep -v "^time	\|^REG:pgm	\|^hash" next.out > next.notime &&
	test_cmp next.notime count.out &&
	{ grep -E "$WALKED" next.out; grep -E "^(time|hash:walk|unknown|lost)	" next.out; } > want &&
	grep -v "^total	" walk.out > got &&
	test_cmp want got || { echo "decode modes differ on $1" >&2; return 1; }
}

test_expect_success 'count, next and walk agree on the demo capture' '
	agree "$TOP/fixtures/demo/stall_shader_engine_0_0.att" &&
	agree "$TOP/fixtures/demo/stall_shader_engine_1_1.att" &&
	test $(grep -c . walk.out) -gt 4
'

test_expect_success SHARED 'count, next and walk agree on every real gfx11 and gfx12 buffer' '
	n=0 pgm=0 &&
	for c in "$FIXTURES"/*.pkl "$SHARED"/fixtures/tinygrad-gfx12/*.pkl; do
		[ -f "$c" ] || continue
		rm -rf s && sqtt-dump -X s "$c" > /dev/null || return 1
		for f in s/*.att; do
			[ -f "$f" ] || continue
			agree "$f" || return 1
			n=$((n + 1))
			! grep -q "^REG:pgm	" walk.out || pgm=$((pgm + 1))
		done
	done &&
	test $n -gt 10 &&
	test $pgm -gt 0
'

test_expect_success 'count, next and walk agree on random tokens after a gfx11 and a gfx12 HEADER' '
	# 1.5 MiB of random nibbles: every type at both parities and across the
	# refill of the decoder window, TIMESTAMPs flagging lost packets, gfx12 WAVE_START_EXTs
	# of both lengths, UNKNOWNs
	sqtt-encode -o sync12.att "$TOP/fixtures/gfx12/sync12.packets.tsv" &&
	for h in "$TOP/fixtures/demo/stall_shader_engine_0_0.att" sync12.att; do
		head -c 8 "$h" > random.att &&
		python3 -c "import random, sys; random.seed(26); sys.stdout.buffer.write(random.randbytes(3 << 19 | 24))" >> random.att &&
		agree random.att &&
		grep "^lost	[1-9]" next.out &&
		grep "^unknown	[1-9]" next.out &&
		grep "^WAVE_START_EXT	[1-9]" next.out || return 1
	done
'

test_expect_success 'count agrees where its second chain falls into step and where it never does' '
	# The counting loop counts the second half of a pass at once with the first, from its
	# middle nibble, and takes back what the second counted before the first reaches one
	# of its token boundaries.  A HEADER and then two-nibble TIME tokens (0x88) alone read
	# the same from either nibble: from an odd one the halves never fall into step (the
	# first counts the second half again), from an even one they meet at a step of the
	# second half, at its end, at its middle (the second of its two tokens) or at its
	# start, as the length moves the middle nibble.
	for n in 40000 40001 40002 40003 40009 1572864 1572867; do
		head -c 8 "$TOP/fixtures/demo/stall_shader_engine_0_0.att" > time.att &&
		python3 -c "import sys; sys.stdout.buffer.write(b\"\\x88\" * $n)" >> time.att &&
		agree time.att &&
		grep -x "TIME	$n" next.out || return 1
	done
'

test_expect_success 'a stream cut inside a token: the same error from every mode' '
	head -c 37 "$TOP/fixtures/demo/stall_shader_engine_0_0.att" > cut.att &&
	for m in count next walk every; do
		test_expect_code 2 "$DECODE_TEST" $m cut.att > /dev/null 2> err.$m || return 1
	done &&
	test_cmp err.count err.next &&
	test_cmp err.count err.walk &&
	test_cmp err.count err.every &&
	test_one_line_error decode_test err.count
'

test_done
