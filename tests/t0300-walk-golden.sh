#!/bin/sh
# sqtt-walk places every traced issue at tinygrad's pc, exactly, with no warnings, and
# each wave's deltas add up to its lifetime.
. "$(dirname "$0")/lib.sh"
need_shared

for f in "$FIXTURES"/*.pkl; do
	b=$(basename "$f" .pkl)
	case $b in *_ops_*) continue ;; esac	# its program is not an ELF: t0310
	test_expect_success "rows of $b equal tinygrad's mapping, no warnings" "
		sqtt-dump '$f' > packets.$b &&
		sqtt-walk packets.$b > rows.$b 2> err.$b &&
		test_cmp /dev/null err.$b &&
		grep -v '^#' rows.$b | awk -F'\t' -v OFS='\t' '
			BEGIN { print \"#event\", \"se\", \"kernel\", \"wave\", \"pc\", \"time\" }
			{ print \$1, \$2, \$3, \$5, \$6, \$7 }' > actual.$b &&
		test_cmp '$GOLDEN/$b.walk.tsv' actual.$b
	"
	test_expect_success "deltas of every wave of $b add up to WAVE_END - WAVE_START" "
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
		sqtt-dump -t WAVE_START,WAVE_END,HEADER '$f' | awk -F'\t' '
			/^#/ { next }
			\$5 == \"HEADER\" { unit[\$1] = \$7 \" \" \$8 \" \" \$9; next }
			\$7 \" \" \$8 \" \" \$9 != unit[\$1] { next }
			\$5 == \"WAVE_START\" { s[\$1 \" \" \$6] = \$4; next }
			(\$1 \" \" \$6) in s { print \$1, \$4 - s[\$1 \" \" \$6]; delete s[\$1 \" \" \$6] }' | sort > lifetimes.$b &&
		awk -F'\t' '!/^#/ { sum[\$1 \" \" \$4] += \$8 } END { for (k in sum) { split(k, a, \" \"); print a[1], sum[k] } }' rows.$b | sort > sums.$b &&
		test_cmp lifetimes.$b sums.$b
	"
done

test_done
