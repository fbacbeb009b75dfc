#!/bin/sh
# Issue 20, rule 6: a capture that has waves is no error when none ran on the traced
# SIMD.  The authored case is in t0310 (waves on SIMD 1, WGP 1, SA 1).  Real: the one wave
# of 20260314_profile_plus_run_0 moved to SIMD 1 of the traced unit (its WAVE_START and
# WAVE_END as recorded, its instruction tokens removed, as the traced SIMD would see it):
# sqtt-walk writes its lifetime as an untraced row (WAVE_END - WAVE_START = 3803), and
# stall-table --untraced counts it, exit 0.  With the wave left on SIMD 0 nothing
# changes: its rows as before.
. "$(dirname "$0")/lib.sh"
need_shared

b=20260314_profile_plus_run_0_b90bfc1
test_expect_success "$b: its wave on SIMD 1: an untraced row with its lifetime, exit 0" '
	sqtt-dump "$FIXTURES/$b.pkl" > plus.tsv &&
	awk -F"\t" -v OFS="\t" "
		/^#/ { print; next }
		\$5 == \"WAVE_START\" || \$5 == \"WAVE_END\" { \$7 = 1; print; next }
		\$5 == \"INST\" || \$5 == \"VALU_INST\" || \$5 == \"IMM_ONE\" || \$5 == \"IMMEDIATE\" { next }
		{ print }" plus.tsv > moved.tsv &&
	sqtt-walk moved.tsv > rows 2> err &&
	test_cmp /dev/null err &&
	grep -v "^#" rows | cut -f1,4,7-11 > actual &&
	printf "1\t0\t1529785\t3803\tWAVE_END\t(wave on another SIMD of the traced unit, not instruction-traced)\tuntraced\n" > expect &&
	test_cmp expect actual
'

test_expect_success "$b: the pipeline on it: one untraced wave of 3803 cycles, exit 0" '
	sqtt-walk moved.tsv > rows.m && stall-attr rows.m > costed && stall-table --untraced costed > table &&
	grep "^##stall-table	kernel	E_3	" table | cut -f4-9 > actual &&
	printf "cycles\t3803\twaves\t1\thits\t1\n" > expect &&
	test_cmp expect actual
'

test_expect_success "$b: on the traced SIMD, the wave walked as before" '
	sqtt-walk plus.tsv > rows.plus 2> err.plus &&
	test_cmp /dev/null err.plus &&
	test "$(grep -vc "^#" rows.plus)" -gt 1 &&
	! grep -q "another" rows.plus
'

test_done
