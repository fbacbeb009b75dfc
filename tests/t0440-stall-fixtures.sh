#!/bin/sh
# stall-attr on the real captures: cycles conserved for every kernel in both views, and
# the causes the fixtures are known for.
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/annotate-lib.sh"
need_shared

# per kernel: the sum of WAVE_END - WAVE_START of every wave the trace has, on every SIMD
# of every unit (the traced SIMD's waves, and the others' as untraced rows)
lifetimes() {
	sqtt-dump --types HEADER,WAVE_START,WAVE_END "$1" > stage8.0.out &&
	awk -F'\t' '$1 == "##event" { print $2, $4 }' stage8.0.out > kernels.0 &&
	awk -f "$TOP/tests/lib/lifetimes.awk" stage8.0.out |
	awk 'FNR == 1 { f++ } f == 1 { kernel[$1] = $2; next }
		{ life[kernel[$1]] += $3 } END { for (k in life) print k, life[k] }' kernels.0 - | sort
}

# The expected costs and causes of the tests after the loop are worked out from AMD's
# walk of each capture (tests/annotate-lib.sh's amd_records: its issue times, the
# disassembly at each pc) by the rules stall-attr(1) states, not recorded from stall-attr.
# ours FILE: the costed rows as AMD's waves name them: event slot pc time delta cost cause
ours() {
	awk -F'\t' -v OFS='\t' '!/^#/ && $9 != "WAVE_END" { print $1, $5, $6, $7, $8, $13, $14 }' "$1" | sort
}
# golden NAME: AMD's walk of the capture NAME as records (rows.NAME gives the disassembly)
golden() {
	gzip -dc "$GOLDEN/$1.amd.tsv.gz" > amd.$1 &&
	amd_records cause.$1 amd.$1 > rec.$1
}

costs() {	# per kernel: the sum of the cost column
	awk -F'\t' '/^#/ { next } { c[$3] += $13 } END { for (k in c) print k, c[k] }' "$1" | sort
}

for f in "$FIXTURES"/*.pkl; do
	b=$(basename "$f" .pkl)
	test_expect_success "$b: costs add up to the waves' lifetimes, cause and raw view" "
		sqtt-dump '$f' > packets.$b &&
		sqtt-walk packets.$b > rows.$b 2> walk-err.$b &&
		stall-attr rows.$b > cause.$b &&
		stall-attr --raw rows.$b > raw.$b &&
		lifetimes '$f' > expect.$b &&
		costs cause.$b > actual.cause.$b &&
		costs raw.$b > actual.raw.$b &&
		test_cmp expect.$b actual.cause.$b &&
		test_cmp expect.$b actual.raw.$b
	"
done

# a wait is charged its delta, its cause the kinds of what it retired (stall-attr(1):
# mem, smem, lds joined with + in that order), what it retired the model's
test_expect_success 'gemm: the s_waitcnt vmcnt waits longer than 100 cycles, on memory, as AMD'"'"'s walk times them' '
	b=20260305_profile_gemm_run_0_b6d1936 &&
	golden $b &&
	awk -f "$TOP/tests/lib/waits-model.awk" -v view=rows rec.$b rec.$b > model.$b &&
	awk -F"\t" -v OFS="\t" "FNR == 1 { f++ }
		f == 1 { inst[sprintf(\"0x%x\", \$4)] = \$7; next }
		\$7 != \"-\" { k = \$3 SUBSEP \$5; i = inst[\$7]
			kind[k, i ~ /^(global|buffer|flat|scratch)_/ ? 1 : i ~ /^s_/ ? 2 : 3] = 1
			if ((\$6 > 100) && inst[\$4] ~ /^s_waitcnt vmcnt/) pc[k] = \$4 }
		END { for (k in pc) { c = \"\"
			if ((k, 1) in kind) c = \"mem\"
			if ((k, 2) in kind) c = c (c == \"\" ? \"\" : \"+\") \"smem\"
			if ((k, 3) in kind) c = c (c == \"\" ? \"\" : \"+\") \"lds\"
			print pc[k], c } }" rec.$b model.$b |
		sort | uniq -c | awk "{ print \$1, \$2, \$3 }" > expect &&
	awk -F"\t" "!/^#/ && \$11 == \"waitcnt\" && \$10 ~ /vmcnt/ && \$13 > 100 { print \$6, \$14 }" cause.$b |
		sort | uniq -c | awk "{ print \$1, \$2, \$3 }" > actual &&
	test_cmp expect actual &&
	head -n 1 expect > actual && echo "32 0x183c mem" > expect && test_cmp expect actual
'

# stall-attr(1): the wait after an s_barrier is moved onto it, the next row keeps 1 cycle
test_expect_success 'sync: the wait after each barrier is on the s_barrier, the next row keeps 1' '
	b=20260507_profile_sync_run_0_ccf76d9 &&
	golden $b &&
	awk -F"\t" -v OFS="\t" "{ w = \$2 SUBSEP \$3 }
		prev[w] ~ /^s_barrier/ && \$8 == 0 {
			d = \$5 - \$6; split(\$3, s, \"@\")
			print \$2, s[1], sprintf(\"0x%x\", ppc[w]), ptime[w], pd[w], pd[w] + d - 1, \"barrier\"
			print \$2, s[1], sprintf(\"0x%x\", \$4), \$5, d, 1, \"issue_cycle\" }
		{ prev[w] = \$7; ppc[w] = \$4; ptime[w] = \$5; pd[w] = \$5 - \$6 }" rec.$b | sort > expect &&
	grep -c . expect > n && test $(cat n) -ge 4 &&
	ours cause.$b > all &&
	awk -F"\t" "FNR == 1 { f++ } f == 1 { want[\$1, \$2, \$3, \$4] = 1; next } (\$1, \$2, \$3, \$4) in want" expect all > actual &&
	test_cmp expect actual &&
	awk -F"\t" "\$3 == \"0x11c\" && \$1 == 1 { print \$6 }" expect | sort -n > actual &&
	printf "17\n21\n" > expect && test_cmp expect actual
'

test_expect_success 'every wave begins with wave_start (or is untraced)' '
	awk -F"\t" "!/^#/ { k = \$1 \" \" \$4 \" \" FILENAME; if (!(k in seen)) { seen[k] = 1; print \$14 } }" cause.* |
		sort | uniq -c > actual &&
	awk -F"\t" "!/^#/ && \$9 == \"WAVE_END\" { n[\$14 == \"untraced\" ? \"untraced\" : \"wave_start\"]++ }
		END { printf \"%7d untraced\\n%7d wave_start\\n\", n[\"untraced\"], n[\"wave_start\"] }" cause.* > expect &&
	test_cmp expect actual
'

# stall-attr(1): an s_sleep n after an s_barrier keeps what it slept, at most 64 n cycles,
# the rest of its delta moves to the barrier; a wave's first row keeps wave_start
test_expect_success 'heavy_sync: an s_sleep keeps what it slept, the barrier before it the rest' '
	b=20260315_profile_sync_run_0_2709f60 &&
	golden $b &&
	awk -F"\t" -v OFS="\t" "{ w = \$2 SUBSEP \$3; split(\$3, s, \"@\"); d = \$5 - \$6 }
		\$8 == 0 && \$7 ~ /^s_sleep / && prev[w] ~ /^s_barrier/ {
			n = 64 * substr(\$7, 9); keep = d < n ? d : n
			print \$2, s[1], sprintf(\"0x%x\", ppc[w]), ptime[w], pd[w], pd[w] + d - keep, \"barrier\"
			print \$2, s[1], sprintf(\"0x%x\", \$4), \$5, d, keep, \"sleep\" }
		{ prev[w] = \$7; ppc[w] = \$4; ptime[w] = \$5; pd[w] = d }" rec.$b | sort > expect &&
	ours cause.$b > all &&
	awk -F"\t" "FNR == 1 { f++ } f == 1 { want[\$1, \$2, \$3, \$4] = 1; next } (\$1, \$2, \$3, \$4) in want" expect all > actual &&
	test_cmp expect actual &&
	awk -F"\t" "\$7 == \"sleep\" && \$5 > \$6" expect | grep -c . > n && test $(cat n) -ge 1 &&
	awk -F"\t" "\$8 == 0 && \$7 ~ /^s_sleep/ { w = \$2 SUBSEP \$3; n[(w in seen) ? \"sleep\" : \"wave_start\"]++ }
		\$8 == 0 { seen[\$2 SUBSEP \$3] = 1 } END { for (c in n) print c, n[c] }" rec.$b | sort > expect &&
	awk -F"\t" "!/^#/ && \$10 ~ /^s_sleep/ { n[\$14]++ } END { for (c in n) print c, n[c] }" cause.$b | sort > actual &&
	test_cmp expect actual &&
	printf "sleep 144\nwave_start 48\n" > expect && test_cmp expect actual
'

test_expect_success 'stall --top 10 on the gemm capture: exit 0, ten lines, launch, drain and a total' '
	stall --tsv "$FIXTURES/20260305_profile_gemm_run_0_b6d1936.pkl" > top &&
	grep -v "^#" top | awk -F"\t" "{ print \$NF }" | sort | uniq -c | tr -s " " >n &&
	printf " 1 drain\n 10 inst\n 1 launch\n 1 total\n" > expect &&
	test_cmp expect n
'

test_done
