#!/bin/sh
# stall-attr on the real captures: cycles conserved for every kernel in both views, and
# the causes the fixtures are known for.
. "$(dirname "$0")/lib.sh"
need_shared

lifetimes() {	# per kernel: the sum of the traced unit's waves' WAVE_END - WAVE_START
	sqtt-dump --types HEADER,WAVE_START,WAVE_END "$1" >stage8.0.out && <stage8.0.out awk -F'\t' '
		$1 == "##event" { kernel[$2] = $4; next }
		/^#/ { next }
		$5 == "HEADER" { unit[$1] = $7 " " $8 " " $9; next }
		$7 " " $8 " " $9 != unit[$1] { next }
		$5 == "WAVE_START" { s[$1 " " $6] = $4; next }
		($1 " " $6) in s { life[kernel[$1]] += $4 - s[$1 " " $6]; delete s[$1 " " $6] }
		END { for (k in life) print k, life[k] }' | sort
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

test_expect_success 'gemm: the s_waitcnt after the global loads waits on memory' '
	awk -F"\t" "!/^#/ && \$11 == \"waitcnt\" && \$10 ~ /vmcnt/ && \$13 > 100 { print \$6, \$14 }" \
		cause.20260305_profile_gemm_run_0_b6d1936 | sort | uniq -c | awk "{ print \$1, \$2, \$3 }" > actual &&
	cat > expect <<-\EOF &&
	32 0x183c mem
	1 0x1860 mem
	1 0x190c mem
	EOF
	test_cmp expect actual
'

test_expect_success 'sync: the wait after the barrier is on the s_barrier, the next row keeps 1' '
	awk -F"\t" "!/^#/ && \$1 == 1 && (\$6 == \"0x11c\" || \$6 == \"0x120\") { print \$4, \$6, \$8, \$13, \$14 }" \
		cause.20260507_profile_sync_run_0_ccf76d9 > actual &&
	cat > expect <<-\EOF &&
	0 0x11c 1 21 barrier
	1 0x11c 2 17 barrier
	0 0x120 21 1 issue_cycle
	1 0x120 16 1 issue_cycle
	EOF
	test_cmp expect actual
'

test_expect_success 'every wave begins with wave_start (or is untraced)' '
	awk -F"\t" "!/^#/ { k = \$1 \" \" \$4 \" \" FILENAME; if (!(k in seen)) { seen[k] = 1; print \$14 } }" cause.* |
		sort | uniq -c > actual &&
	awk -F"\t" "!/^#/ && \$9 == \"WAVE_END\" { n[\$14 == \"untraced\" ? \"untraced\" : \"wave_start\"]++ }
		END { printf \"%7d untraced\\n%7d wave_start\\n\", n[\"untraced\"], n[\"wave_start\"] }" cause.* > expect &&
	test_cmp expect actual
'

test_expect_success 'heavy_sync: an s_sleep keeps what it slept, the barrier before it the rest' '
	b=20260315_profile_sync_run_0_2709f60 &&
	awk -F"\t" "!/^#/ && \$1 == 0 && (\$4 == 0 || \$4 == 10) && \$6 >= \"0x104\" && \$6 <= \"0x10c\" { print \$4, \$6, \$8, \$13, \$14 }" \
		cause.$b | sort -n > actual &&
	cat > expect <<-\EOF &&
	0 0x104 1 1 barrier
	0 0x108 255 255 sleep
	0 0x10c 1 1 barrier
	10 0x104 9 64 barrier
	10 0x108 311 256 sleep
	10 0x10c 1 1 barrier
	EOF
	test_cmp expect actual &&
	awk -F"\t" "!/^#/ && \$10 ~ /^s_sleep/ { n[\$14]++ } END { for (c in n) print c, n[c] }" cause.$b | sort > actual &&
	printf "sleep 144\nwave_start 48\n" > expect &&
	test_cmp expect actual
'

test_expect_success 'stall --top 10 on the gemm capture: exit 0, ten lines, launch, drain and a total' '
	stall --tsv "$FIXTURES/20260305_profile_gemm_run_0_b6d1936.pkl" > top &&
	grep -v "^#" top | awk -F"\t" "{ print \$NF }" | sort | uniq -c | tr -s " " >n &&
	printf " 1 drain\n 10 inst\n 1 launch\n 1 total\n" > expect &&
	test_cmp expect n
'

test_done
