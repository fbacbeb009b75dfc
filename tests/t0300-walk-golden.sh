#!/bin/sh
# sqtt-walk walks every real capture as AMD's decoder does (../shared/golden/*.amd.tsv.gz):
# every wave, pc for pc and cycle for cycle; at tinygrad's pcs where tinygrad maps the
# capture (the traced SIMD's waves: AMD and tinygrad walk no other); each wave's deltas
# add up to its lifetime, for every wave the trace has (the other SIMDs' as untraced rows).
. "$(dirname "$0")/lib.sh"
need_shared

for f in "$FIXTURES"/*.pkl; do
	b=$(basename "$f" .pkl)
	test_expect_success "$b: every wave as AMD's decoder walks it" "
		sqtt-dump '$f' > packets.$b &&
		sqtt-walk packets.$b > rows.$b 2> err.$b &&
		zcat '$GOLDEN/$b.amd.tsv.gz' > amd.$b &&
		awk -f '$TOP/tests/lib/amd-walk.awk' amd.$b rows.$b > cmp.$b &&
		n=\$(grep -vc '^#' amd.$b | tr -d ' ') &&
		cat cmp.$b && tail -n 1 cmp.$b >> counts
	"
	test_expect_success "$b: no warning at all (no token dropped or misplaced)" "
		test_cmp /dev/null err.$b
	"
	if [ "$(grep -vc '^#' "$GOLDEN/$b.walk.tsv" 2>/dev/null)" -gt 0 ] 2>/dev/null; then
		test_expect_success "$b: rows at tinygrad's pcs and times" "
			grep -v '^#' rows.$b | awk -F'\t' -v OFS='\t' '
				BEGIN { print \"#event\", \"se\", \"kernel\", \"wave\", \"pc\", \"time\" }
				\$4 < 2147483648 { print \$1, \$2, \$3, \$5, \$6, \$7 }' > actual.$b &&
			test_cmp '$GOLDEN/$b.walk.tsv' actual.$b
		"
	fi
	test_expect_success "$b: deltas of every wave add up to WAVE_END - WAVE_START" "
		awk -F'\t' '
			/^#/ { next }
			{ k = \$1 \" \" \$4; sum[k] += \$8 }
			\$9 == \"WAVE_END\" { end[k] = \$7 }
			!(k in first) { first[k] = \$7 - \$8 }
			END {
				for (k in sum) {
					if (!(k in end)) { print \"wave \" k \" has no WAVE_END row\"; bad = 1; continue }
					if (sum[k] != end[k] - first[k]) { print \"wave \" k \": \" sum[k] \" != \" end[k] - first[k]; bad = 1 }
					n++
				}
				if (n == 0) { print \"no waves\"; bad = 1 }
				exit bad
			}' rows.$b > bad.$b &&
		test_cmp /dev/null bad.$b &&
		sqtt-dump --types WAVE_START,WAVE_END,HEADER '$f' > waves.$b &&
		awk -f '$TOP/tests/lib/lifetimes.awk' waves.$b | sort > lifetimes.$b &&
		awk -f '$TOP/tests/lib/wave-sums.awk' rows.$b | sort > sums.$b &&
		test_cmp lifetimes.$b sums.$b
	"
done

test_expect_success 'the waves AMD walks, all matched (136 in the 9 visible captures)' '
	awk "{ w += \$2; m += \$4 } END { print w, m; exit !(w == m && w > 0) }" counts
'

test_expect_success 'custom_heavy_sync: waves start where the trace says (0x100), not at the descriptor (0x12c), and nothing is said' '
	b=20260315_profile_sync_run_0_2709f60 &&
	test_cmp /dev/null err.$b &&
	awk -F"\t" "!/^#/ && \$11 != \"untraced\" && !((\$1 \" \" \$4) in seen) { seen[\$1 \" \" \$4] = 1; print \$6 }" rows.$b | sort | uniq -c > firsts &&
	echo "     48 0x100" > expect &&
	test_cmp expect firsts
'

test_expect_success 'discover_ops walks past the word LLVM cannot read (0x114) to its s_endpgm, no token dropped' '
	b=20260314_profile_ops_run_0_c2d10d8 &&
	grep -c "	0x114	.*	\.long 0xd8540000, 0x20403000	lds_store	" rows.$b > n114 &&
	echo 1 > expect && test_cmp expect n114 &&
	grep -v "^#" rows.$b | awk -F"\t" "\$1 == 1" | tail -n 1 | cut -f6,9,10 > last &&
	printf "0x1788\tWAVE_END\ts_endpgm\n" > expect && test_cmp expect last &&
	test_expect_code 1 grep -c "does not fit\|dropped" err.$b > ndrop &&
	test "$(cat ndrop)" = 0
'

test_done
