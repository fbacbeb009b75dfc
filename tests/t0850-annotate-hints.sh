#!/bin/sh
# t0850-annotate-hints: every rule of stall-annotate --hints fires on a kernel built to
# trigger it (hot: hoist, waitcnt, vopd, lds; poll: spin) and stays silent on one built
# not to (calm: each wait followed by a use of what it waited for, every wait waits,
# dependent VALUs, an LDS store that issues at once, a counted loop).
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/annotate-lib.sh"

test_expect_success 'the rows of hot, calm and poll' '
	rows_of hot && rows_of calm && rows_of poll
'

test_expect_success 'hot: hoist, waitcnt, vopd and lds, each with its evidence' '
	stall-annotate --hints hot.attr > out &&
	cat > expect <<-\EOF &&
	##stall-annotate	hints
	#kernel	rule	pc	cycles	advice
	hot	hoist	0x131c	1500	its waits cost 40.56% of the kernel; 3 instructions after the wait at 0x1324 (0x1328,0x132c,0x1330) do not use what it loads: issue them before that wait, or the load earlier
	hot	waitcnt	0x1338	2	2 times issued, never with an operation outstanding: remove it
	hot	vopd	0x1328	4	v_mov_b32_e32 and v_mov_b32_e32 (0x132c) are independent and both have a v_dual form: one VOPD issue instead of two, 2 times
	hot	lds	0x133c	26	its issue stalled 13.0 cycles a time (2 times): bank conflicts likely, check the addresses of its lanes
	EOF
	test_cmp expect out
'

test_expect_success 'poll: spin, and nothing else' '
	stall-annotate --hints poll.attr > out &&
	grep -v "^#" out > actual &&
	printf "poll\tspin\t0x1310\t5666\ta loop that only polls (to 0x1324): 8 iterations in 2 waves, 79.71%% of the kernel; wait on an event or s_sleep longer\n" > expect &&
	test_cmp expect actual
'

test_expect_success 'calm: no rule fires (exit 0, the header only)' '
	stall-annotate --hints calm.attr > out &&
	test_expect_code 1 grep -c -v "^#" out > actual &&
	echo 0 > expect &&
	test_cmp expect actual
'

test_expect_success 'calm has what each rule looks at: costly loads, waits, VALUs, LDS, a loop that loads' '
	stall-annotate --loads calm.attr > loads &&
	awk -F"\t" "!/^#/ && \$6 >= 5" loads | wc -l | tr -d " " > actual && echo 3 > expect &&
	test_cmp expect actual &&
	stall-annotate --loops calm.attr > loops &&
	grep -c "^calm	0x1340	0x1358	.*	mem	-\$" loops > actual && echo 1 > expect && test_cmp expect actual &&
	grep -c "ds_store_b32" calm.attr > actual && echo 2 > expect && test_cmp expect actual
'

test_expect_success '--hint-min: the hoist rule needs the load'"'"'s waits to cost that share' '
	stall-annotate --hints --hint-min 41 hot.attr > out &&
	test_expect_code 1 grep -c "	hoist	" out > actual &&
	echo 0 > expect && test_cmp expect actual &&
	stall-annotate --hints --hint-min 40 hot.attr > out &&
	grep -c "	hoist	" out > actual &&
	echo 1 > expect && test_cmp expect actual
'

test_expect_success SHARED 'the tinygrad GEMM: its 0x183c waits are not hoist (v_fmac reads v34 next), no spin' '
	sqtt-dump "$FIXTURES/20260305_profile_gemm_run_0_b6d1936.pkl" > gemm.packets &&
	sqtt-walk gemm.packets > gemm.rows &&
	stall-attr gemm.rows > gemm.attr &&
	stall-annotate --hints gemm.attr > out &&
	awk -F"\t" "!/^#/ { print \$2, \$3 }" out > actual &&
	echo "vopd 0x1958" > expect &&
	test_cmp expect actual
'

test_done
