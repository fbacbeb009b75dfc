#!/bin/sh
# Issue 20, rules 2 and 3: a row of two causes (columns cost2 and cause2, stall-attr(1)).
# A wave's first s_sleep N: its token marks the wake, so the delta's last 64 * N cycles are
# sleep and the rest wave_start.  An issue_wait row gets the cycles of the other waves'
# issues inside its gap and its own, the rest the cause the next rules give it.
# Authored: fixtures/kernels/twocause.s, two waves of one SIMD.  Real:
# 20260315_profile_sync_run_0 (every first s_sleep 4), 20260202_profile_gemm_run_0 (16
# waves on one SIMD).
. "$(dirname "$0")/lib.sh"

# fixtures/traces/twocause.packets.tsv: slot 1 starts at 150 and slot 0 at 250; slot 0's
# IMM_ONE at 400 is its first s_sleep 2's wake (150 = 22 + 128), slot 1's at 403
# (253 = 125 + 128); slot 0's VALU at 408 waited 7 cycles: 3 issues of slot 1 and its own,
# 3 more.

test_expect_success 'authored: a first s_sleep is sleep and launch, an issue_wait gap its others and the rest' '
	(cd "$TOP" && sqtt-encode -d "$T_DIR/cap" fixtures/traces/twocause.packets.tsv) &&
	sqtt-dump cap | sqtt-walk > rows 2> err &&
	test_cmp /dev/null err &&
	stall-attr rows > attr &&
	grep -v "^#" attr | cut -f4,6,13,14,16,17 > actual &&
	cat > expect <<-\EOF &&
	1	0x1300	150	wave_start	128	sleep
	1	0x1304	1	issue_cycle	0	-
	0	0x1300	253	wave_start	128	sleep
	0	0x1304	1	issue_cycle	0	-
	0	0x1308	1	issue_cycle	0	-
	1	0x1308	7	issue_wait	3	unexplained
	0	0x130c	15	drain	0	-
	1	0x130c	22	drain	0	-
	EOF
	test_cmp expect actual &&
	stall-attr --raw rows | grep -v "^#" | cut -f4,6,13,14,16,17 > raw &&
	test_cmp expect raw
'

test_expect_success 'authored: the table gives each cause its part, the hit to the row'"'"'s cause' '
	stall-table --plain attr | cut -f1-4,6 > actual &&
	cat > expect <<-\EOF &&
	kernel	pc	hits	cycles	cause
	twocause	0x1300	2	256	sleep
	twocause	0x1308	2	8	issue_wait
	twocause	0x1304	2	2	issue_cycle
	twocause	0x130c	2	0	drain
	twocause	-	2	147	wave_start
	twocause	-	2	37	drain
	EOF
	test_cmp expect actual &&
	stall-table --plain attr | awk -F"\t" "NR == 1 { for (i = 1; i <= NF; i++) col[\$i] = i; next }
		{ for (c in col) if (c ~ /^c_/) s[c] += \$col[c] }
		END { print s[\"c_sleep\"], s[\"c_wave_start\"], s[\"c_issue_wait\"], s[\"c_unexplained\"] }" > sums &&
	echo "256 147 4 3" > expect &&
	test_cmp expect sums &&
	stall --plain cap | cut -f1-4,6 > driver &&
	stall-table --plain attr | cut -f1-4,6 > table &&
	test_cmp table driver
'

test_expect_success 'authored: stall-annotate and stall-budget read the second cause' '
	stall-annotate --annotate attr > listing 2> err &&
	test_cmp /dev/null err &&
	grep "0x1300" listing | awk "{ print \$2, \$3, \$4 }" > actual &&
	echo "403 2 sleep" > expect &&
	test_cmp expect actual &&
	echo "twocause cause sleep >= 128" > r.rules &&
	echo "twocause cause unexplained <= 1.5" >> r.rules &&
	stall-budget r.rules attr > verdict &&
	grep -c "^ok" verdict > n && echo 2 > expect && test_cmp expect n
'

b=20260315_profile_sync_run_0_2709f60
test_expect_success SHARED "$b: every first s_sleep 4 holds 256 cycles of sleep (or all its delta: 4 waves, 244 to 252), 12256 in all" '
	sqtt-dump "$FIXTURES/$b.pkl" | sqtt-walk 2>/dev/null | stall-attr > real &&
	awk -F"\t" "!/^#/ && \$16 != 0 { n++; s += \$16; k[\$10 \" \" \$14 \" \" \$17 \" \" (\$16 == 256 ? 256 : \$16 == \$13 ? \"all\" : \"?\")]++ }
		END { print n, s; for (x in k) print x, k[x] }" real | sort > actual &&
	printf "48 12256\ns_sleep 4 wave_start sleep 256 44\ns_sleep 4 wave_start sleep all 4\n" > expect &&
	test_cmp expect actual
'

b=20260202_profile_gemm_run_0_ccf477c
test_expect_success SHARED "$b: issue_wait gets the other waves' issues in the gap and its own cycle, the rest the next rule" '
	sqtt-dump "$FIXTURES/$b.pkl" | sqtt-walk 2>/dev/null | stall-attr > rows &&
	awk -F"\t" "
		/^#/ { next }
		{ n++; ev[n] = \$1; wv[n] = \$4; t[n] = \$7; d[n] = \$8; end[n] = (\$9 == \"WAVE_END\"); c[n] = \$14; cost[n] = \$13; c2[n] = \$16; k2[n] = \$17 }
		END {
			for (i = 1; i <= n; i++) {
				if (c[i] != \"issue_wait\") { if (c2[i] != 0) other++; continue }
				k = 0
				for (j = 1; j <= n; j++)
					if (ev[j] == ev[i] && wv[j] != wv[i] && !end[j] && t[j] > t[i] - d[i] && t[j] < t[i]) k++
				want = k < cost[i] - 1 ? k + 1 : cost[i]
				if (cost[i] - c2[i] != want) bad++
				if (c2[i] > 0) { nsplit++; rest += c2[i]; by[k2[i]] += c2[i] }
				iw += cost[i] - c2[i]
			}
			print iw, nsplit + 0, rest + 0, bad + 0, other + 0
			for (x in by) print x, by[x]
		}" rows | sort > actual &&
	cat > expect <<-\EOF &&
	1533 104 229 0 0
	fetch 63
	unexplained 114
	vmem_issue 52
	EOF
	test_cmp expect actual
'

test_done
