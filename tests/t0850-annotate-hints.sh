#!/bin/sh
# t0850-annotate-hints: every rule of stall-annotate --hints fires on a kernel built to
# trigger it (hot: hoist, waitcnt, vopd, lds; poll: spin; calm: latency) and the others
# stay silent on calm (each wait followed by a use of what it waited for, every wait
# waits, dependent VALUs, an LDS store that issues at once, a counted loop whose load is
# waited for in the iteration that issues it, 2% of that wait hidden: latency).
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/annotate-lib.sh"

test_expect_success 'the rows of hot, calm and poll' '
	rows_of hot && rows_of calm && rows_of poll
'

test_expect_success 'hot: hoist, waitcnt, vopd and lds, each with its evidence' '
	stall-annotate --hints hot.attr > out &&
	cat > expect <<-EOF &&
	##stall-annotate	hints
	#kernel	rule	pc	cycles	advice
	hot	hoist	0x131c	1500	its waits cost 40.56% of the kernel; 3 instructions after the wait at 0x1324 (0x1328 v_mov_b32_e32, 0x132c v_mov_b32_e32, 0x1330 v_add_nc_u32_e32) touch nothing the 2 operations it retires write: issue them before that wait, or the load earlier; saves up to 6 cycles (their own 6, issued inside the wait'"'"'s 1500)
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

test_expect_success 'calm: only latency fires, on its loop'"'"'s wait, with its evidence' '
	stall-annotate --hints calm.attr > out &&
	grep -v "^#" out > actual &&
	printf "calm\tlatency\t0x1348\t1860\ts_waitcnt vmcnt(0) costs 33.36%% of the kernel, 2.04%% of it hidden by other waves'"'"' issue: at most 2 waves in flight at once on the traced SIMD (buffer 0), and the 1 load it waits for (0x1340) is issued in the same iteration of the loop at 0x1340, 310.0 cycles before it on average: issue it an iteration ahead, or run more waves per SIMD; saves up to 1822 cycles (its exposed cycles)\n" > expect &&
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

test_expect_success SHARED 'the loop gemm (b6d1936): latency on its vmcnt(4) wait, not hoist (v_fmac reads v34 next), no spin' '
	stall-annotate --hints "$FIXTURES/20260305_profile_gemm_run_0_b6d1936.pkl" > out &&
	awk -F"\t" "!/^#/ { print \$2, \$3, \$4 }" out > actual &&
	printf "latency 0x183c 24636\nvopd 0x1958 8\n" > expect &&
	test_cmp expect actual &&
	grep "	latency	" out | cut -f5 > actual &&
	echo "s_waitcnt vmcnt(4) costs 66.73% of the kernel, 10.08% of it hidden by other waves'"'"' issue: at most 2 waves in flight at once on the traced SIMD (buffer 1), and the 4 loads it waits for (0x17dc, 0x17e4, 0x17ec, 0x17f8) are issued in the same iteration of the loop at 0x17c4, 800.6 cycles before it on average: issue them an iteration ahead, or run more waves per SIMD; saves up to 22152 cycles (its exposed cycles)" > expect &&
	test_cmp expect actual
'

test_expect_success SHARED 'the kernarg prologue (7379d89): no hoist past the lgkmcnt(0) that retires s_load_b128 s[4:7] too' '
	stall-annotate --hints "$FIXTURES/20260314_profile_gemm_run_0_7379d89.pkl" > out &&
	awk -F"\t" "!/^#/ && \$2 != \"lds\" { print \$2, \$3 }" out > actual &&
	test_cmp /dev/null actual &&
	stall-annotate --waits "$FIXTURES/20260314_profile_gemm_run_0_7379d89.pkl" > waits &&
	awk -F"\t" "\$2 == \"0x1744\" { print \$3 }" waits > actual &&
	printf "0x1700\n0x170c\n" > expect &&
	test_cmp expect actual
'

# hoist by construction: hot with the older of the two operations its 0x1324 wait
# retires made 0x1328 (v_mov_b32 v5, which writes v5, as the first move after the wait
# does); the youngest stays the load 0x131c (v2), which none of the moves touches
test_expect_success 'hoist holds for every operation the wait retires, not the youngest only' '
	awk -F"\t" -v OFS="\t" "!/^#/ && \$6 == \"0x1324\" && \$15 ~ /0x1314@/ { sub(/0x1314@/, \"0x1328@\", \$15) } { print }" hot.attr > two.attr &&
	stall-annotate --waits two.attr | awk -F"\t" "\$2 == \"0x1324\" { print \$3, \$8 }" > actual &&
	printf "0x131c 1500\n0x1328 0\n" > expect &&
	test_cmp expect actual &&
	stall-annotate --hints two.attr > out &&
	! grep "	hoist	" out
'

test_done
