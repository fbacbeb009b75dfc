#!/bin/sh
# t0505-ties: the rules for ties, on hand-written rows whose costs tie by construction.
# A line's or a kernel's cause is the one with the most cycles, ties by the most rows,
# then by the order of the causes (stall-table(1)); a merged bar of the --html timeline
# has the cause of its longest row, on a tie its first (issue 24's survivors: the later
# cause on a tie; the later row's colour on equal rows).
. "$(dirname "$0")/lib.sh"

# rows CAUSE:COST...: one wave, every row at 0x100, then s_endpgm (drain, 1 cycle)
rows() {
	printf '#event\tse\tkernel\twave\tslot\tpc\ttime\tdelta\ttoken\tinst\tclass\tdep\tcost\tcause\n'
	t=10
	for c in "$@"; do
		t=$((t + ${c#*:}))
		printf '0\t0\tk\t0\t0\t0x100\t%d\t%d\tVALU_INST\tv_a\tvalu\t-\t%d\t%s\n' $t ${c#*:} ${c#*:} ${c%%:*}
	done
	printf '0\t0\tk\t0\t0\t0x104\t%d\t1\tWAVE_END\ts_endpgm\tendpgm\t-\t1\tdrain\n' $((t + 1))
}

# causes FILE: the cause of the line at 0x100 and of the kernel (its TOTAL line)
causes() {
	stall-table "$1" | awk -F"\t" "\$2 == \"0x100\" || \$2 == \"TOTAL\" { print \$2, \$6 }"
}

while IFS='|' read -r what expect input; do
	test_expect_success "$what: $expect" "
		rows $input > r.tsv &&
		causes r.tsv > actual &&
		printf '0x100 %s\nTOTAL %s\n' $expect $expect > expect &&
		test_cmp expect actual
	"
done <<'EOF'
equal cycles and rows, the earlier cause|mem|smem:5 mem:5
equal cycles, the more rows|smem|smem:2 mem:5 smem:3
the most cycles|smem|mem:4 smem:5
EOF

# bars FILE: cause and rows of each bar of the page's timeline, counted
bars() {
	grep -o "\"bars\": \[[0-9,]*\]" "$1" | sed "s/\"bars\": \[//; s/\]//" | tr "," "\n" |
		awk "{ f[NR % 6] = \$1 } NR % 6 == 0 { n[f[4] \" \" f[5]]++ } END { for (k in n) print k, n[k] }" |
		sort
}

# big A B: 200002 rows of one cycle, mem and smem in turn (A and B cycles), then drain
big() {
	awk -v a=$1 -v b=$2 "BEGIN { OFS = \"\t\"
		print \"#event\", \"se\", \"kernel\", \"wave\", \"slot\", \"pc\", \"time\", \"delta\", \"token\", \"inst\", \"class\", \"dep\", \"cost\", \"cause\"
		t = 10
		for (i = 0; i < 200002; i++) { c = i % 2 ? b : a; t += c
			print 0, 0, \"k\", 0, 0, \"0x100\", t, c, \"VALU_INST\", \"v_a\", \"valu\", \"-\", c, (i % 2 ? \"smem\" : \"mem\") }
		print 0, 0, \"k\", 0, 0, \"0x104\", t + 1, 1, \"WAVE_END\", \"s_endpgm\", \"endpgm\", \"-\", 1, \"drain\" }"
}

test_expect_success 'more than 200000 bars: pairs merged, equal rows give the first one'"'"'s cause' '
	big 1 1 > big.tsv &&
	stall-table --html big.html big.tsv > /dev/null &&
	grep -q "\"causes\": \[\"mem\", \"smem\", \"drain\"\]" big.html &&
	grep -q "\"rows_per_bar\": 2," big.html &&
	bars big.html > actual &&
	printf "0 2 100001\n2 1 1\n" > expect &&
	test_cmp expect actual
'

test_expect_success 'merged pairs of unequal rows: the longest row'"'"'s cause' '
	big 1 2 > big.tsv &&
	stall-table --html big.html big.tsv > /dev/null &&
	bars big.html > actual &&
	printf "1 2 100001\n2 1 1\n" > expect &&
	test_cmp expect actual
'

test_done
