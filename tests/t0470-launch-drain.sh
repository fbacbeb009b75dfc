#!/bin/sh
# t0470: a wave's launch (rows of cause wave_start) and drain (its WAVE_END row, cause
# drain) are lines of their own in stall-table's tables, with no pc, never an
# instruction's cycles nor the hottest instruction; the cycles stay conserved.  The
# figures are summed here from the row stream with awk, not taken from the table.
. "$(dirname "$0")/lib.sh"
DATA="$TOP/tests/data"
GEMM="$FIXTURES/20260202_profile_gemm_run_0_ccf477c.pkl"

# sums ROWS KERNEL: "launch CYCLES WAVES", "drain CYCLES WAVES", "total CYCLES"
sums() {
	awk -F'\t' -v K="$2" '
	/^##/ { next }
	/^#/ { sub(/^#/, ""); for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["kernel"] != K || $c["cause"] == "untraced" { next }
	$c["cause"] == "wave_start" { lc += $c["cost"]; ln++ }
	$c["cause"] == "drain" { dc += $c["cost"]; dn++ }
	{ t += $c["cost"] }
	END { print "launch", lc, ln; print "drain", dc, dn; print "total", t }' "$1"
}

# lines TABLE KERNEL: the same from stall-table's TSV, by its row column
lines() {
	awk -F'\t' -v K="$2" '
	/^#/ || $1 != K { next }
	$NF == "launch" || $NF == "drain" { print $NF, $4, $3 }
	$NF == "total" { print "total", $4 }
	$NF == "inst" { s += $4 }
	$NF == "launch" || $NF == "drain" { s += $4 }
	END { print "sum", s }' "$1"
}

test_expect_success 'hand-written rows: launch and drain lines, conserved, no instruction charged' '
	stall-table "$DATA/rows-table.tsv" >t.tsv &&
	for k in k_a k_b; do
		sums "$DATA/rows-table.tsv" $k >s &&
		lines t.tsv $k >l &&
		{ sed -n 1,2p s && sed -n 3p s && sed "s/total/sum/" s | sed -n 3p; } >expect &&
		test_cmp expect l || return 1
	done &&
	awk -F"\t" "\$NF == \"inst\" && (\$7 != 0 || \$24 != 0)" t.tsv >charged &&
	test_cmp /dev/null charged
'

test_expect_success SHARED 'E_8_8_16_4: v_bfe_u32 is not the hottest; launch is its own line' '
	stall --rows "$GEMM" >rows.tsv &&
	stall --all --tsv -k E_8_8_16_4 "$GEMM" >t.tsv &&
	sums rows.tsv E_8_8_16_4 >s &&
	{ sed -n 1,2p s && sed -n 3p s && sed "s/total/sum/" s | sed -n 3p; } >expect &&
	lines t.tsv E_8_8_16_4 >actual &&
	test_cmp expect actual &&
	grep -q "^launch 17773 16$" actual &&
	echo "0x168c 15227 s_waitcnt lgkmcnt(0)" >expect.hot &&
	awk -F"\t" "!/^#/ && \$NF == \"inst\" { print \$2, \$4, \$29; exit }" t.tsv >hot &&
	test_cmp expect.hot hot &&
	awk -F"\t" "\$2 == \"0x1600\" { print \$3, \$4 }" t.tsv >first &&
	echo "16 0" >expect.first &&
	test_cmp expect.first first &&
	stall --by-dispatch "$GEMM" | awk -F"\t" "\$2 == \"E_8_8_16_4\" { print \$8 }" >bd &&
	echo 0x168c >expect.bd &&
	test_cmp expect.bd bd
'

test_expect_success SHARED 'pretty and JSON: the launch and drain have no address; JSON members of their own' '
	stall --all --pretty -k E_8_8_16_4 "$GEMM" >p.txt &&
	grep "(launch)$" p.txt | tr -s " " >l &&
	echo " 34.37 17773 16 wave_start (launch)" >expect &&
	test_cmp expect l &&
	stall --all --json -k E_8_8_16_4 "$GEMM" >t.json &&
	grep -c "\"launch\": {\"hits\": 16, \"cycles\": 17773, \"pct\": 34.37, \"cause\": \"wave_start\"" t.json &&
	! grep "\"pc\": \"-\"" t.json
'

test_expect_success 'an old table (launch charged to its instruction) reads as the new one' '
	stall-table "$DATA/rows-table.tsv" >new.tsv &&
	stall-budget -w new.json new.tsv &&
	stall-budget -w old.json "$DATA/cause-issue.table.tsv" &&
	grep -c "\"launch\": {\"hits\": 3, \"cycles\": 1506," old.json &&
	grep -c "\"drain\": {\"hits\": 3, \"cycles\": 906," old.json
'

test_done
