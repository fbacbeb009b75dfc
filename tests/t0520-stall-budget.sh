#!/bin/sh
# stall-budget: the demo capture (cycles known by construction, t0430) held to budgets
# at its own numbers, a cycle under them and a tenth under a cause; baselines; the errors;
# a real Makefile whose regression rule fails where the budget breaks.  Every figure is
# cycles a wave: the demo's 3 waves have 7794 cycles (2598 a wave), mem 2445 (815), the
# s_waitcnt lines 3223 (1074.33), their lds 184 (61.33), wave_start 1506 (502).
. "$(dirname "$0")/lib.sh"

tabs() { tr '|' '\t'; }
DEMO="$TOP/fixtures/demo"
. "$TOP/tests/annotate-lib.sh"

# figures RECS PC: the figures the rules below measure, worked out from the walk alone
# (records of tests/annotate-lib.sh, what each wait retired by tests/lib/waits-model.awk),
# a wave's share each: cycles, mem, mem as a percent of the cycles, the cycles at PC, the
# s_waitcnt rows', the lds of the lgkmcnt(0) waits, wave_start (each wave's first row)
figures() {
	awk -f "$TOP/tests/lib/waits-model.awk" -v view=rows "$1" "$1" > figures.rows &&
	awk -F'\t' -v pc=$(($2)) 'FNR == 1 { f++ }
		f == 1 { if ($7 != "-") { k = $3 SUBSEP $5; kinds[k] = kinds[k] " " $7 }; cost[$3 SUBSEP $5] = $6; next }
		{ w = $2 SUBSEP $3; d = $5 - $6; inst[sprintf("0x%x", $4)] = $7
		  if (!(w in seen)) { seen[w] = 1; start += d; waves++ }
		  life += d
		  if ($8 == 1) next
		  if ($4 == pc) atpc += d
		  if ($7 ~ /^s_waitcnt/) { waits += d; wt[$3 SUBSEP $5] = $7 } }
		END {
			for (k in wt) { n = split(kinds[k], l, " "); g = 0; ds = 0
				for (i = 1; i <= n; i++) { if (inst[l[i]] ~ /^global_/) g++; if (inst[l[i]] ~ /^ds_/) ds++ }
				if (n > 0 && g == n) mem += cost[k]
				if (n > 0 && ds == n && wt[k] ~ /lgkmcnt[(]0[)]/) lds += cost[k] }
			printf "%.2f %.2f %.2f%% %.2f %.2f %.2f %.2f\n", life / waves, mem / waves, 100 * mem / life,
			    atpc / waves, waits / waves, lds / waves, start / waves }' figures.rows "$1"
}

# the demo's figures by construction (fixtures/README.md's timings): 3 waves of 2598
# cycles, their vmcnt waits 800-840 (815 a wave), ...; the rules below are written at them
test_expect_success 'the demo'"'"'s figures, from its walk: the numbers the rules are written at' '
	sqtt-dump "$DEMO" | sqtt-walk | awk -F"\t" "!/^#/ && \$11 != \"untraced\"" > demo.walk &&
	rows_records demo.walk > demo.rec &&
	figures demo.rec 0x1324 > actual &&
	echo "2598.00 815.00 31.37% 815.00 1074.33 61.33 502.00" > expect &&
	test_cmp expect actual
'

test_expect_success 'its own numbers pass, every kind of rule, exit 0' '
	stall --rows "$DEMO" >rows.tsv &&
	stall-budget -w base.json rows.tsv &&
	cat >own.rules <<\EOF &&
# the demo kernel, at its own numbers
demo cycles <= 2598
demo cycles >= 2598	# not faster either
demo cause mem <= 815
* cause mem <= 31.38%
demo pc 0x1324 cycles <= 815
demo inst /^s_waitcnt/ cycles <= 1074.34
demo inst /lgkmcnt[(]0#*[)]/ cause lds < 61.34
demo cause wave_start <= 502

demo cycles <= 100% of base.json
demo cause mem <= 100% of base.json
EOF
	test_expect_code 0 stall-budget own.rules rows.tsv >actual 2>err &&
	test_cmp /dev/null err &&
	tabs >expect <<\EOF &&
#verdict|rule|kernel|measured|op|limit|text
ok|own.rules:2|demo|2598.00|<=|2598.00|demo cycles <= 2598
ok|own.rules:3|demo|2598.00|>=|2598.00|demo cycles >= 2598
ok|own.rules:4|demo|815.00|<=|815.00|demo cause mem <= 815
ok|own.rules:5|demo|31.37%|<=|31.38%|* cause mem <= 31.38%
ok|own.rules:6|demo|815.00|<=|815.00|demo pc 0x1324 cycles <= 815
ok|own.rules:7|demo|1074.33|<=|1074.34|demo inst /^s_waitcnt/ cycles <= 1074.34
ok|own.rules:8|demo|61.33|<|61.34|demo inst /lgkmcnt[(]0#*[)]/ cause lds < 61.34
ok|own.rules:9|demo|502.00|<=|502.00|demo cause wave_start <= 502
ok|own.rules:11|demo|2598.00|<=|2598.00|demo cycles <= 100% of base.json
ok|own.rules:12|demo|815.00|<=|815.00|demo cause mem <= 100% of base.json
EOF
	test_cmp expect actual
'

test_expect_success 'the capture itself, a TSV table and a JSON table give the same verdicts' '
	stall-budget own.rules rows.tsv >expect &&
	stall-budget own.rules "$DEMO" >actual && test_cmp expect actual &&
	stall-table rows.tsv >table.tsv &&
	stall-budget own.rules table.tsv >actual && test_cmp expect actual &&
	stall-budget own.rules base.json >actual && test_cmp expect actual &&
	stall-budget own.rules - <rows.tsv >actual && test_cmp expect actual
'

test_expect_success 'one cycle under: broken, named on stderr, exit 1' '
	printf "demo cycles <= 2597\ndemo pc 0x1324 cycles <= 814\n" >tight.rules &&
	test_expect_code 1 stall-budget tight.rules rows.tsv >out 2>err &&
	tabs >expect <<\EOF &&
#verdict|rule|kernel|measured|op|limit|text
broken|tight.rules:1|demo|2598.00|<=|2597.00|demo cycles <= 2597
broken|tight.rules:2|demo|815.00|<=|814.00|demo pc 0x1324 cycles <= 814
EOF
	test_cmp expect out &&
	cat >expect <<\EOF &&
stall-budget: tight.rules:1: broken: demo cycles <= 2597: kernel demo: 2598.00 cycles a wave is not <= 2597.00
stall-budget: tight.rules:2: broken: demo pc 0x1324 cycles <= 814: kernel demo: 815.00 cycles a wave is not <= 814.00
EOF
	test_cmp expect err
'

# 2598 cycles a wave, exactly: each comparison at equality.
test_expect_success 'a rule at exactly its limit: <= and >= hold, < and > break' '
	printf "demo cycles <= 2598\ndemo cycles >= 2598\ndemo cycles < 2598\ndemo cycles > 2598\n" >eq.rules &&
	test_expect_code 1 stall-budget eq.rules rows.tsv >out 2>err &&
	cut -f1,4-6 out >actual &&
	tabs >expect <<\EOF &&
#verdict|measured|op|limit
ok|2598.00|<=|2598.00
ok|2598.00|>=|2598.00
broken|2598.00|<|2598.00
broken|2598.00|>|2598.00
EOF
	test_cmp expect actual &&
	test "$(wc -l <err)" -eq 2
'

test_expect_success 'a tenth under a cause: broken, in cycles, in percent and against the baseline' '
	for r in "demo cause mem <= 733" "* cause mem <= 28.23%" "demo cause mem <= 90% of base.json" \
	    "demo inst /^s_waitcnt vmcnt/ cause mem <= 733"; do
		echo "$r" >tenth.rules &&
		test_expect_code 1 stall-budget tenth.rules rows.tsv >out 2>err &&
		grep -q "^broken	" out && test_one_line_error stall-budget err || return 1
	done &&
	cat err >actual &&
	echo "stall-budget: tenth.rules:1: broken: demo inst /^s_waitcnt vmcnt/ cause mem <= 733: kernel demo: 815.00 cycles a wave is not <= 733.00" >expect &&
	test_cmp expect actual &&
	echo "demo cause mem <= 90% of base.json" >tenth.rules &&
	test_expect_code 1 stall-budget tenth.rules rows.tsv >out 2>err &&
	echo "stall-budget: tenth.rules:1: broken: demo cause mem <= 90% of base.json: kernel demo: 815.00 cycles a wave is not <= 733.50" >expect &&
	test_cmp expect err
'

test_expect_success 'every figure is per wave: twice the waves at the same cost per wave pass' '
	{ cat rows.tsv; grep -v "^#" rows.tsv | awk -F"\t" -v OFS="\t" "{ \$1 += 100; print }"; } >twice.tsv &&
	stall-table twice.tsv >stage88.0.out && <stage88.0.out grep "^##stall-table	kernel" | cut -f5-7 >actual &&
	echo "15588|waves|6" | tabs >expect && test_cmp expect actual &&
	echo "demo cycles <= 100% of base.json" >base.rules &&
	test_expect_code 0 stall-budget base.rules twice.tsv >out &&
	printf "demo cycles <= 2598\ndemo pc 0x1324 cycles <= 815\n" >abs.rules &&
	test_expect_code 0 stall-budget abs.rules twice.tsv >out &&
	echo "demo cycles <= 2597" >abs.rules &&
	test_expect_code 1 stall-budget abs.rules twice.tsv >out 2>/dev/null
'

test_expect_success 'the baseline is found beside the rules file' '
	mkdir -p ci && cp base.json ci/ && echo "demo cycles <= 105% of base.json" >ci/budget.rules &&
	mkdir -p elsewhere && cd elsewhere &&
	test_expect_code 0 stall-budget ../ci/budget.rules ../rows.tsv >out &&
	grep -q "^ok	../ci/budget.rules:1	demo	2598.00	<=	2727.90	" out
'

test_expect_success '--write-baseline writes what stall-table --json writes' '
	stall-table --json rows.tsv >expect &&
	test_cmp expect base.json &&
	stall-budget --write-baseline b2.json "$DEMO" && test_cmp expect b2.json &&
	stall-budget -w b3.json base.json && test_cmp expect b3.json &&
	: >empty.tsv &&
	test_expect_code 2 stall-budget -w b4.json empty.tsv 2>err &&
	test_one_line_error stall-budget err && test ! -e b4.json
'

test_expect_success 'a misspelt kernel: exit 2, naming the rule and the kernels there are' '
	echo "dem0 cycles <= 7794" >typo.rules &&
	test_expect_code 2 stall-budget typo.rules rows.tsv >out 2>err &&
	echo "stall-budget: typo.rules:1: no kernel dem0 in rows.tsv (it has demo)" >expect &&
	test_cmp expect err && test_cmp /dev/null out
'

test_expect_success 'an empty input never passes: exit 2' '
	test_expect_code 2 stall-budget own.rules empty.tsv >out 2>err &&
	echo "stall-budget: empty.tsv: no rows: the input is empty" >expect && test_cmp expect err &&
	grep "^#" rows.tsv >header-only.tsv &&
	test_expect_code 2 stall-budget own.rules header-only.tsv >out 2>err &&
	echo "stall-budget: header-only.tsv: no rows" >expect && test_cmp expect err &&
	echo "{\"version\": 1, \"view\": \"cause\", \"top\": 0, \"kernels\": []}" >none.json &&
	test_expect_code 2 stall-budget own.rules none.json >out 2>err &&
	echo "stall-budget: none.json: no rows" >expect && test_cmp expect err &&
	test_expect_code 2 stall-budget own.rules - </dev/null >out 2>err &&
	echo "stall-budget: stdin: no rows: the input is empty" >expect && test_cmp expect err &&
	awk -F"\t" -v OFS="\t" "/^#/ || \$14 == \"untraced\"" rows.tsv >untraced.tsv &&
	test_expect_code 2 stall-budget own.rules untraced.tsv >out 2>err &&
	echo "stall-budget: own.rules:2: kernel demo has no instruction-traced row in untraced.tsv" >expect &&
	test_cmp expect err
'

test_expect_success 'a malformed rule: exit 2, file:line: what is wrong' '
	while IFS="|" read -r rule msg; do
		printf "# a comment\n%s\n" "$rule" >bad.rules &&
		test_expect_code 2 stall-budget bad.rules rows.tsv >out 2>err &&
		echo "stall-budget: bad.rules:2: $msg" >expect &&
		test_cmp expect err || return 1
	done <<\EOF
demo|no figure after the kernel: write '"'"'demo cycles <= N'"'"' or '"'"'demo cause NAME <= N'"'"'
demo 40000|'"'"'40000'"'"' is a limit where the figure goes: write '"'"'demo cycles <= 40000'"'"' (cycles a wave) or '"'"'demo cause NAME <= 40000'"'"'
demo <= 40000|no figure before '"'"'<='"'"': write '"'"'demo cycles <= N'"'"' (cycles a wave) or '"'"'demo cause NAME <= N'"'"'
demo cycles|no comparison (<=, <, >=, >) at the end
demo cycles =< 5|no comparison (<=, <, >=, >) at =<
demo cycles <= five|'"'"'five'"'"' is not a number of cycles or a percent
demo cycles <= -5|'"'"'-5'"'"' is not a number of cycles or a percent
demo cycles <= 5 apples|'"'"'apples'"'"' after the limit
demo cycles <= 5%|a kernel'"'"'s cycles are always 100% of themselves
demo cycles <= 5% of|no baseline after '"'"'of'"'"'
demo cause tea break <= 5|unknown cause '"'"'tea break'"'"'
demo cause <= 5|no cause after '"'"'cause'"'"'
demo hits <= 5|'"'"'hits'"'"': the figure is '"'"'cycles'"'"' or '"'"'cause NAME'"'"', as in '"'"'demo cycles <= N'"'"'
demo pc|no address after '"'"'pc'"'"'
demo inst s_waitcnt cycles <= 5|no /pattern/ after '"'"'inst'"'"'
demo inst /s_wait cycles <= 5|the pattern /s_wait cycles <= 5 is not closed with '"'"'/'"'"'
demo inst /(/ cycles <= 5|the pattern /(/: Unmatched ( or \(
EOF
'

test_expect_success 'a rule that selects nothing is trouble, not a pass: exit 2' '
	echo "demo pc 0x9999 cycles <= 5" >r1 &&
	test_expect_code 2 stall-budget r1 rows.tsv >out 2>err &&
	echo "stall-budget: r1:1: kernel demo: no instruction at pc 0x9999 in rows.tsv" >expect &&
	test_cmp expect err &&
	echo "demo inst /^v_sqrt/ cycles <= 5" >r2 &&
	test_expect_code 2 stall-budget r2 rows.tsv >out 2>err &&
	echo "stall-budget: r2:1: kernel demo: no instruction matches /^v_sqrt/ in rows.tsv" >expect &&
	test_cmp expect err &&
	stall-table --top 2 rows.tsv >top.tsv &&
	echo "demo inst /^s_waitcnt/ cycles <= 5000" >r3 &&
	test_expect_code 2 stall-budget r3 top.tsv >out 2>err &&
	echo "stall-budget: r3:1: kernel demo: top.tsv was cut by --top: not every instruction is in it" >expect &&
	test_cmp expect err &&
	echo "demo cycles <= 105% of nothere.json" >r4 &&
	test_expect_code 2 stall-budget r4 rows.tsv >out 2>err &&
	test_one_line_error stall-budget err &&
	printf "# only comments\n\n" >r5 &&
	test_expect_code 2 stall-budget r5 rows.tsv >out 2>err &&
	echo "stall-budget: r5: no rules" >expect && test_cmp expect err &&
	test_expect_code 2 stall-budget >out 2>err && grep -q "^usage: stall-budget " err &&
	stall-budget --version >out && grep -q "^stall-budget (stall) [0-9]" out
'

test_expect_success 'a real Makefile: the regression rule passes, then make fails where the budget breaks' '
	mkdir -p proj && cp rows.tsv proj/ &&
	cat >proj/Makefile <<\EOF &&
# the check a project runs after each capture
check: budget.ok
budget.ok: budget.rules rows.tsv
	stall-budget budget.rules rows.tsv > budget.tsv
	touch budget.ok
EOF
	echo "demo cycles <= 2598" >proj/budget.rules &&
	make -C proj >make.out 2>&1 &&
	test -e proj/budget.ok &&
	rm proj/budget.ok &&
	printf "demo cycles <= 2598\ndemo cause barrier <= 673\n" >proj/budget.rules &&
	test_expect_code 2 make -C proj >make.out 2>&1 &&
	test ! -e proj/budget.ok &&
	grep -q "^stall-budget: budget.rules:2: broken: demo cause barrier <= 673: kernel demo: 673.67 cycles a wave is not <= 673.00$" make.out &&
	grep -q "Error 1" make.out
'

A=$FIXTURES/20260305_profile_gemm_run_0_b6d1936.pkl
B=$FIXTURES/20260202_profile_gemm_run_0_ccf477c.pkl
if test_have_prereq SHARED; then
test_expect_success 'the gemm capture against the rules of the issue' '
	stall-budget -w gemm-02.json "$B" &&
	cat >gemm.rules <<\EOF &&
r_2_8_16_4_4_16_4 cycles <= 20000
* cause mem <= 75%
r_2_8_16_4_4_16_4 pc 0x183c cycles <= 15000
r_2_8_16_4_4_16_4 inst /^s_waitcnt/ cycles <= 15000
r_2_8_16_4_4_16_4 cycles <= 125% of gemm-02.json
EOF
	test_expect_code 0 stall-budget gemm.rules "$A" >actual &&
	for g in a:20260305_profile_gemm_run_0_b6d1936 b:20260202_profile_gemm_run_0_ccf477c; do
		n=${g%%:*} && f=${g#*:} &&
		gzip -dc "$GOLDEN/$f.amd.tsv.gz" > $n.amd &&
		sqtt-dump "$FIXTURES/$f.pkl" | sqtt-walk | stall-attr | awk -F"\t" "/^#/ || \$3 == \"r_2_8_16_4_4_16_4\"" > $n.attr &&
		amd_records $n.attr $n.amd | awk -F"\t" "\$1 == \"r_2_8_16_4_4_16_4\"" > $n.rec &&
		figures $n.rec 0x183c > $n.figures || return 1
	done &&
	read cyc mem pct atpc waits lds start < a.figures &&
	read bcyc rest < b.figures &&
	echo "$cyc $pct $atpc $waits $bcyc" > got && echo "18459.50 71.78% 12318.00 14617.00 14850.50" > expect && test_cmp expect got &&
	lim=$(awk -v c=$bcyc "BEGIN { printf \"%.2f\", 1.25 * c }") &&
	tabs >expect <<EOF &&
#verdict|rule|kernel|measured|op|limit|text
ok|gemm.rules:1|r_2_8_16_4_4_16_4|$cyc|<=|20000.00|r_2_8_16_4_4_16_4 cycles <= 20000
ok|gemm.rules:2|r_2_8_16_4_4_16_4|$pct|<=|75.00%|* cause mem <= 75%
ok|gemm.rules:3|r_2_8_16_4_4_16_4|$atpc|<=|15000.00|r_2_8_16_4_4_16_4 pc 0x183c cycles <= 15000
ok|gemm.rules:4|r_2_8_16_4_4_16_4|$waits|<=|15000.00|r_2_8_16_4_4_16_4 inst /^s_waitcnt/ cycles <= 15000
ok|gemm.rules:5|r_2_8_16_4_4_16_4|$cyc|<=|$lim|r_2_8_16_4_4_16_4 cycles <= 125% of gemm-02.json
EOF
	test_cmp expect actual &&
	echo "r_2_8_16_4_4_16_4 cycles <= 120% of gemm-02.json" >g2.rules &&
	test_expect_code 1 stall-budget g2.rules "$A" >out 2>err &&
	echo "* cause mem <= 75%" >g3.rules &&
	test_expect_code 0 stall-budget g3.rules "$B" >out &&
	test "$(grep -c "^ok	" out)" -eq 3
'
else
	test_skip SHARED 'the gemm captures against the rules'
fi

test_done
