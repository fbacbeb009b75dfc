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

# The figures of each hint are worked out from the walk (tests/lib/waits-model.awk and
# the sums below), not taken from stall-annotate: on the authored traces (hot: vmcnt
# waits of 800 and 700 cycles, an s_waitcnt with nothing outstanding, ds_store stalls of
# 12 and 14 cycles; poll: 3 and 5 polls; calm: loads waited for 300-320 cycles after
# their issue) and on AMD's walk of b6d1936.  The advice's words are the tool's.
# at PC REC: "cycles issues" of the records at PC (cycles: time - prev, summed)
at() {
	awk -F"\t" -v p=$(($1)) '$4 == p && $8 == 0 { c += $5 - $6; n++ } END { print c + 0, n + 0 }' "$2"
}
pct() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", 100 * a / b }'; }
# hidden PC REC: the hidden cycles and the cost of the wait rows at PC
hidden_of() {
	model rows "$2" | awk -F"\t" -v p="$1" '$4 == p && !(($3, $5) in seen) { seen[$3, $5] = 1; h += $11; c += $6 } END { print h, c }'
}
tab() { tr "|" "\t"; }

test_expect_success 'the model of hot, calm and poll' '
	for k in hot calm poll; do
		rows_records $k.attr > $k.rec &&
		model waits $k.rec > $k.model-waits &&
		model kernel $k.rec > $k.kernel || return 1
	done
'

test_expect_success 'hot: hoist, waitcnt, vopd and lds, each with its evidence' '
	stall-annotate --hints hot.attr > out &&
	c=$(cut -f2 hot.kernel) &&
	awk -F"\t" "\$2 == \"0x1324\" && \$8 > 0 { print \$3, \$8 }" hot.model-waits > youngest &&
	read load caused < youngest &&
	nret=$(awk -F"\t" "\$2 == \"0x1324\"" hot.model-waits | wc -l) &&
	set -- $(at 0x1328 hot.rec) $(at 0x132c hot.rec) $(at 0x1330 hot.rec) &&
	moves=$(($1 + $3 + $5)) && pair=$(($1 + $3)) && times=$2 &&
	awk -F"\t" "\$2 == \"0x1338\" && \$3 == \"-\" { print \$4, \$8 }" hot.model-waits > never &&
	read wn wc < never &&
	set -- $(at 0x133c hot.rec) && lds=$1 && ldsn=$2 &&
	ldsmean=$(awk -v a=$lds -v b=$ldsn "BEGIN { printf \"%.1f\", a / b }") &&
	tab > expect <<-EOF &&
	##stall-annotate|hints
	#kernel|rule|pc|cycles|advice
	hot|hoist|$load|$caused|its waits cost $(pct $caused $c)% of the kernel; 3 instructions after the wait at 0x1324 (0x1328 v_mov_b32_e32, 0x132c v_mov_b32_e32, 0x1330 v_add_nc_u32_e32) touch nothing the $nret operations it retires write: issue them before that wait, or the load earlier; saves up to $moves cycles (their own $moves, issued inside the wait'"'"'s $caused)
	hot|waitcnt|0x1338|$wc|$wn times issued, never with an operation outstanding: remove it
	hot|vopd|0x1328|$pair|v_mov_b32_e32 and v_mov_b32_e32 (0x132c) are independent and both have a v_dual form: one VOPD issue instead of two, $times times
	hot|lds|0x133c|$lds|its issue stalled $ldsmean cycles a time ($ldsn times): bank conflicts likely, check the addresses of its lanes
	EOF
	test_cmp expect out &&
	echo "0x131c 1500 2 6 4 2 2 26" > expect &&
	echo "$load $caused $nret $moves $pair $wc $wn $lds" > actual &&
	test_cmp expect actual
'

test_expect_success 'poll: spin, and nothing else' '
	stall-annotate --hints poll.attr > out &&
	grep -v "^#" out > actual &&
	model loops poll.rec > loops && read k head tail insts waves its min max cyc per spin < loops &&
	c=$(cut -f2 poll.kernel) &&
	printf "poll\tspin\t%s\t%s\ta loop that only polls (to %s): %s iterations in %s waves, %s%% of the kernel; wait on an event or s_sleep longer\n" $head $cyc $tail $its $waves $(pct $cyc $c) > expect &&
	test_cmp expect actual &&
	echo "0x1310 5666 8 spin" > expect && echo "$head $cyc $its $spin" > actual && test_cmp expect actual
'

test_expect_success 'calm: only latency fires, on its loop'"'"'s wait, with its evidence' '
	stall-annotate --hints calm.attr > out &&
	grep -v "^#" out > actual &&
	awk -F"\t" "\$2 == \"0x1348\"" calm.model-waits > w && read k wait load hits lmin lmean lmax caused < w &&
	set -- $(hidden_of 0x1348 calm.rec) && hid=$1 &&
	c=$(cut -f2 calm.kernel) && fl=$(cut -f4 calm.kernel) &&
	model loops calm.rec > loops && read k head tail rest < loops &&
	printf "calm\tlatency\t0x1348\t%s\ts_waitcnt vmcnt(0) costs %s%% of the kernel, %s%% of it hidden by other waves'"'"' issue: at most %s waves in flight at once on the traced SIMD (buffer 0), and the 1 load it waits for (%s) is issued in the same iteration of the loop at %s, %s cycles before it on average: issue it an iteration ahead, or run more waves per SIMD; saves up to %s cycles (its exposed cycles)\n" \
		$caused $(pct $caused $c) $(pct $hid $caused) $fl $load $head $lmean $((caused - hid)) > expect &&
	test_cmp expect actual &&
	echo "1860 38 2 0x1340 310.0" > expect && echo "$caused $hid $fl $load $lmean" > actual && test_cmp expect actual
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

test_expect_success SHARED 'the loop gemm (b6d1936): latency on its vmcnt(4) wait, not hoist (v_fmac reads v34 next), no spin; figures from AMD'"'"'s walk' '
	f=20260305_profile_gemm_run_0_b6d1936 &&
	sqtt-dump "$FIXTURES/$f.pkl" | sqtt-walk | stall-attr > gemm.attr &&
	gzip -dc "$GOLDEN/$f.amd.tsv.gz" > gemm.amd &&
	amd_records gemm.attr gemm.amd > gemm.rec &&
	model waits gemm.rec > gemm.waits &&
	model kernel gemm.rec > gemm.kernel && c=$(cut -f2 gemm.kernel) && fl=$(cut -f4 gemm.kernel) &&
	caused=$(awk -F"\t" "\$2 == \"0x183c\" { s += \$8 } END { print s }" gemm.waits) &&
	loads=$(awk -F"\t" "\$2 == \"0x183c\" { printf \"%s%s\", s, \$3; s = \", \" }" gemm.waits) &&
	lmean=$(model rows gemm.rec | awk -F"\t" "\$4 == \"0x183c\" { s += \$9; n++ } END { printf \"%.1f\", s / n }") &&
	set -- $(hidden_of 0x183c gemm.rec) && hid=$1 &&
	model loops gemm.rec > loops && read k head tail rest < loops &&
	set -- $(at 0x1958 gemm.rec) && vopd=$(awk -F"\t" -v p=$((0x1958)) "prev == p && \$8 == 0 { s += \$5 - \$6 } { prev = \$8 ? -1 : \$4 } END { print s }" gemm.rec) &&
	vopd=$(($1 + vopd)) &&
	stall-annotate --hints "$FIXTURES/$f.pkl" > out &&
	awk -F"\t" "!/^#/ { print \$2, \$3, \$4 }" out > actual &&
	printf "latency 0x183c %s\nvopd 0x1958 %s\n" $caused $vopd > expect &&
	test_cmp expect actual &&
	grep "	latency	" out | cut -f5 > actual &&
	echo "s_waitcnt vmcnt(4) costs $(pct $caused $c)% of the kernel, $(pct $hid $caused)% of it hidden by other waves'"'"' issue: at most $fl waves in flight at once on the traced SIMD (buffer 1), and the 4 loads it waits for ($loads) are issued in the same iteration of the loop at $head, $lmean cycles before it on average: issue them an iteration ahead, or run more waves per SIMD; saves up to $((caused - hid)) cycles (its exposed cycles)" > expect &&
	test_cmp expect actual &&
	echo "24636 2484 0x17c4 800.6 8" > expect && echo "$caused $hid $head $lmean $vopd" > actual && test_cmp expect actual
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
