#!/bin/sh
# Issue 20, rule 6: every wave the trace has is kept; those of other SIMDs (no instruction
# tokens there) as untraced rows, their lifetimes, whether the traced SIMD had waves or
# none; and a capture that has waves is no error when none ran on the traced SIMD.  The
# authored cases are in t0310 (waves on SIMD 1, WGP 1, SA 1).  Real: every fixture's waves
# off the traced SIMD, counted by awk in sqtt-dump's output; and the one wave
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
	printf "1\t2147483648\t1529785\t3803\tWAVE_END\t(wave on another SIMD of the traced unit, not instruction-traced)\tuntraced\n" > expect &&
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

# The waves off the traced SIMD of each fixture: each WAVE_START there, to the next
# WAVE_END of its unit and slot (tests/lib/lifetimes.awk, on sqtt-dump's packets), is one
# untraced row of the walk of its event and slot, its delta that lifetime: none dropped,
# none twice.  The counts are the fixtures', all 5026 of them.
test_expect_success "every fixture: each wave off the traced SIMD one untraced row, its lifetime" '
	for f in "$FIXTURES"/*.pkl; do
		b=$(basename "$f" .pkl) &&
		sqtt-dump "$f" > p.$b &&
		sqtt-walk p.$b > r.$b 2> e.$b &&
		test_cmp /dev/null e.$b &&
		awk -v other=1 -f "$TOP/tests/lib/lifetimes.awk" p.$b | sort > life.$b &&
		awk -F"\t" -v OFS=" " "!/^#/ && \$4 >= 2147483648 {
			if (\$9 != \"WAVE_END\" || \$11 != \"untraced\" || \$10 !~ /^\(wave on another (SIMD of the traced unit|unit), not instruction-traced\)\$/) print \"bad row:\", \$0
			print \$1, \$5, \$8 }" r.$b | sort > ours.$b &&
		test_cmp life.$b ours.$b &&
		echo "$b $(awk -v other=1 -v count=1 -f "$TOP/tests/lib/lifetimes.awk" p.$b) $(grep -vc "^#" ours.$b)" || return 1
	done > counts &&
	cat > expect <<-\EOF &&
	20260120_profile_gemm_run_0_e540cad 36 36
	20260202_profile_gemm_run_0_ccf477c 36 36
	20260305_profile_gemm_run_0_b6d1936 4 4
	20260314_profile_empty_run_0_f1048a1 0 0
	20260314_profile_gemm_run_0_7379d89 994 994
	20260314_profile_ops_run_0_c2d10d8 0 0
	20260314_profile_plus_run_0_b90bfc1 0 0
	20260315_profile_sync_run_0_2709f60 3954 3954
	20260507_profile_sync_run_0_ccf76d9 2 2
	EOF
	test_cmp expect counts
'

# The traced waves keep their numbers: the rows below 2147483648 are the walk of the
# traced SIMD alone (the packets of the other SIMDs' waves left out of its input).
s=20260315_profile_sync_run_0_2709f60
test_expect_success "$s: the traced SIMD's rows as if it were alone in the trace" '
	awk -F"\t" "/^#/ { print; next } \$5 == \"HEADER\" { u[\$1] = \$7 \" \" \$8 \" \" \$9 }
		(\$5 == \"WAVE_START\" || \$5 == \"WAVE_END\") && \$7 \" \" \$8 \" \" \$9 != u[\$1] { next }
		{ print }" p.$s > alone.tsv &&
	sqtt-walk alone.tsv > r.alone &&
	! grep -q "	214748[0-9]*	" r.alone &&
	awk -F"\t" "/^#/ || \$4 < 2147483648" r.$s > traced &&
	test_cmp r.alone traced
'

# stall-table leaves the untraced rows out: its table (all but the kernel lines' count of
# them) is the same with the other SIMDs' waves in the rows as without; stall, in process,
# writes what the pipeline writes, with --untraced and without.  Its 4048 untraced waves:
# 3954 of other SIMDs, 94 of traced SIMDs on shader engines without instruction tracing.
test_expect_success "$s: the tables count the other SIMDs' waves only with --untraced; stall as the pipeline" '
	stall-attr r.$s > c.all &&
	awk -F"\t" "/^#/ || \$4 < 2147483648" c.all > c.traced &&
	awk -F"\t" "!/^#/ && \$4 >= 2147483648 && \$14 != \"untraced\"" c.all > notuntraced &&
	test_cmp /dev/null notuntraced &&
	stall-table -n 100000 c.all > t.all &&
	stall-table -n 100000 c.traced > t.traced &&
	grep -v "^##stall-table	kernel	" t.all > body.all &&
	grep -v "^##stall-table	kernel	" t.traced > body.traced &&
	test_cmp body.traced body.all &&
	grep "^##stall-table	kernel	" t.all | cut -f3,10-13 > actual &&
	awk -F"\t" "!/^#/ && \$14 == \"untraced\" { n++; c += \$13 }
		END { printf \"custom_heavy_sync\tuntraced_waves\t%d\tuntraced_cycles\t%d\n\", n, c }" c.all > expect &&
	test_cmp expect actual &&
	awk -F"\t" "!/^#/ && \$14 == \"untraced\"" c.all | wc -l | tr -d " " > n &&
	echo 4048 > expect && test_cmp expect n &&
	stall --plain -n 100000 "$FIXTURES/$s.pkl" > s.plain &&
	stall-table --plain -n 100000 c.all > t.plain &&
	test_cmp t.plain s.plain &&
	stall --plain -n 100000 --untraced "$FIXTURES/$s.pkl" > s.untraced &&
	stall-table --plain -n 100000 --untraced c.all > t.untraced &&
	test_cmp t.untraced s.untraced &&
	! test_cmp t.plain t.untraced > /dev/null
'

test_done
