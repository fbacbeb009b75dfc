#!/bin/sh
# Issue 20, rule 3: issue_wait is bounded by the other waves' issues inside the gap.
# Authored: tests/data/rows-interleave.tsv (t0410) has the rows whose gap holds one
# other issue.  Real: in 20260202_profile_gemm_run_0 (16 waves on one SIMD) every
# issue_wait row's gap holds other waves' issues filling at least half of it beyond its
# own cycle (2 * issues >= cost - 1), and rows with fewer are given another cause (272:
# the 24 more that a VALU result feeding the store explains are valu_dep, t0477).
. "$(dirname "$0")/lib.sh"
need_shared

b=20260202_profile_gemm_run_0_ccf477c
test_expect_success "$b: every issue_wait row within the bound, 296 of them" '
	sqtt-dump "$FIXTURES/$b.pkl" | sqtt-walk 2>/dev/null | stall-attr > rows &&
	awk -F"\t" "
		/^#/ { next }
		{ n++; ev[n] = \$1; wv[n] = \$4; t[n] = \$7; d[n] = \$8; end[n] = (\$9 == \"WAVE_END\"); c[n] = \$14; cost[n] = \$13 }
		END {
			for (i = 1; i <= n; i++) {
				if (c[i] != \"issue_wait\" && !(c[i] == \"unexplained\" && cost[i] > 1)) continue
				k = 0
				for (j = 1; j <= n; j++)
					if (ev[j] == ev[i] && wv[j] != wv[i] && !end[j] && t[j] > t[i] - d[i] && t[j] < t[i]) k++
				if (c[i] == \"issue_wait\") { iw++; if (2 * k < cost[i] - 1) bad++ }
				else if (k > 0 && 2 * k >= cost[i] - 1) missed++
			}
			print iw + 0, bad + 0, missed + 0
		}" rows > actual &&
	echo "272 0 0" > expect &&
	test_cmp expect actual
'

test_done
