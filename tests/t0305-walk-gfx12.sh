#!/bin/sh
# sqtt-walk walks every real RDNA4 capture as AMD's decoder does
# (../shared/golden-gfx12/*.amd.tsv.gz; tests/lib/amd-walk12.awk says how its token-less
# s_barrier_wait records and its lost pcs are compared), at tinygrad's pcs where tinygrad
# maps the capture; each wave's deltas add up to its lifetime; stall-attr conserves the
# cycles of every wave and stall-table makes a table of every capture with a traced wave.
. "$(dirname "$0")/lib.sh"
need_shared
FIX12="$SHARED/fixtures/tinygrad-gfx12"
GOLD12="$SHARED/golden-gfx12"

for f in "$FIX12"/*.pkl; do
	b=$(basename "$f" .pkl)
	test_expect_success "$b: walked, compared with AMD's decoder" "
		sqtt-dump '$f' > packets.$b &&
		sqtt-walk packets.$b > rows.$b 2> err.$b &&
		zcat '$GOLD12/$b.amd.tsv.gz' > amd.$b &&
		{ awk -f '$TOP/tests/lib/amd-walk12.awk' rows.$b amd.$b > cmp.$b; true; } &&
		sed 's/^/$b /' cmp.$b >> cmp.all
	"
	if [ -f "$GOLD12/$b.walk.tsv" ]; then
		test_expect_success "$b: rows at tinygrad's pcs and times" "
			grep -v '^#' rows.$b | awk -F'\t' -v OFS='\t' '
				BEGIN { print \"#event\", \"se\", \"kernel\", \"wave\", \"pc\", \"time\" }
				\$9 != \"-\" { print \$1, \$2, \$3, \$5, \$6, \$7 }' > actual.$b &&
			test_cmp '$GOLD12/$b.walk.tsv' actual.$b
		"
	fi
	test_expect_success "$b: deltas of every wave add up to WAVE_END - WAVE_START" "
		sqtt-dump --types WAVE_START,WAVE_END,HEADER '$f' | awk -F'\t' '
			/^#/ { next }
			\$5 == \"HEADER\" { unit[\$1] = \$7 \" \" \$8 \" \" \$9; next }
			\$7 \" \" \$8 \" \" \$9 != unit[\$1] { next }
			\$5 == \"WAVE_START\" { s[\$1 \" \" \$6] = \$4; next }
			(\$1 \" \" \$6) in s { print \$1, \$4 - s[\$1 \" \" \$6]; delete s[\$1 \" \" \$6] }' | sort > lifetimes.$b &&
		awk -F'\t' '!/^#/ { sum[\$1 \" \" \$4] += \$8 } END { for (k in sum) { split(k, a, \" \"); print a[1], sum[k] } }' rows.$b | sort > sums.$b &&
		test -s lifetimes.$b &&
		test_cmp lifetimes.$b sums.$b
	"
	test_expect_success "$b: stall-attr conserves every wave's cycles, stall-table tables them" "
		stall-attr rows.$b > costs.$b 2> aerr.$b &&
		test_cmp /dev/null aerr.$b &&
		awk -F'\t' '!/^#/ { c[\$1 \" \" \$4] += \$13; d[\$1 \" \" \$4] += \$8 }
			END { for (k in c) if (c[k] != d[k]) { print k, c[k], d[k]; bad = 1 } exit bad }' costs.$b &&
		stall-table --untraced costs.$b > table.$b &&
		grep -c '^[^#]' table.$b > nrows.$b && test \$(cat nrows.$b) -gt 0 &&
		stall --rows '$f' > srows.$b 2> /dev/null &&
		test_cmp costs.$b srows.$b
	"
done

test_expect_success 'the waves AMD walks: 65 in the 10 captures, all matched but custom_wave_sync'"'"'s 4' '
	grep -c "^20260.* waves " cmp.all > ncap && echo 10 > expect && test_cmp expect ncap &&
	awk "/ waves / { w += \$3; m += \$5 } END { print w, m }" cmp.all > counts &&
	echo "65 61" > expect && test_cmp expect counts
'

# custom_wave_sync: past the fourth barrier AMD dates a record at 27866 where the wave's
# token (IMM_ONE, 0x154) is at 27865, and makes 37 records of the wave where the walk has
# 33 rows (each token and the WAVE_END):
# its times are not the tokens' there, so they cannot be kept.
test_expect_success 'custom_wave_sync: every wave as AMD walks it for its first 23 records' '
	grep "^20260315_profile_sync_run_0_1f48b90 wave [0-9]" cmp.all | cut -d" " -f2-7 > actual &&
	printf "%s\n" "wave 0 0 27469: record 24:" "wave 0 1 27471: record 24:" \
		"wave 1 0 27144: record 24:" "wave 1 1 27146: record 24:" > expect &&
	test_cmp expect actual &&
	b=20260315_profile_sync_run_0_1f48b90 &&
	awk -F"\t" "\$1 == 1 && \$4 == 27865 && \$5 == \"IMM_ONE\" && \$6 == 0" packets.$b > tok &&
	test -s tok &&
	awk -F"\t" "\$1 == 1 && \$3 == 0 && \$7 == 27865" amd.$b > none && test_cmp /dev/null none
'

test_expect_success 'gfx12 sync: the token-less s_barrier_wait is charged its wait, not the next instruction' '
	b=20260610_profile_sync_run_0_d8ff4c4 &&
	grep -v "^#" costs.$b | awk -F"\t" "\$6 == \"0x120\" { print \$4, \$9, \$10, \$13, \$14 }" > waits &&
	printf "0 - s_barrier_wait 0xffff 20 barrier\n1 - s_barrier_wait 0xffff 15 barrier\n" > expect &&
	test_cmp expect waits
'

test_expect_success 'discover_ops: past the DS word LLVM cannot read the walk keeps every token' '
	b=20260227_profile_py_run_0_516560d &&
	test_expect_code 1 grep -c "token dropped" err.$b > ndrop &&
	test "$(cat ndrop)" = 0 &&
	grep -v "^#" amd.$b | wc -l > n.amd && grep -v "^#" rows.$b | wc -l > n.rows &&
	test_cmp n.amd n.rows
'

test_done
