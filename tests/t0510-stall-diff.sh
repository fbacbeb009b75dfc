#!/bin/sh
# stall-diff: the demo kernel against its second version (fixtures/demo-v2: two
# instructions swapped, one added, one removed, its trace made by construction), the
# same code in two real captures, the formats, the exit status and the errors.
. "$(dirname "$0")/lib.sh"

# Expected tables are written with '|' for a tab, to keep them readable here.
tabs() { tr '|' '\t'; }
V1="$TOP/fixtures/demo"
V2="$TOP/fixtures/demo-v2"

test_expect_success 'fixtures/demo-v2 is what sqtt-encode makes of its trace' '
	(cd "$TOP" && sqtt-encode -d "$T_DIR/cap.v2" fixtures/traces/demo-v2.packets.tsv) &&
	(cd "$V2" && ls) >expect && (cd cap.v2 && ls) >actual && test_cmp expect actual &&
	for f in cap.v2/*; do
		cmp "$f" "$V2/${f#cap.v2/}" || return 1
	done &&
	cmp "$TOP/fixtures/kernels/demo-v2.hsaco" "$V2/stall_code_object_id_0.out"
'

# The alignment by construction (fixtures/README.md: demo-v2 swaps v_lshlrev_b32 and
# s_mov_b32, adds v_max_f32 after the vmcnt wait, removes v_exp_f32, so every pc from
# 0x1328 to 0x135c moves 4 later and the store and s_endpgm keep theirs); each side's
# cycles a wave, cause and instruction from its own stall-table, the delta and percent
# computed here: what stall-diff adds is the pairing and the arithmetic.
test_expect_success 'demo against demo-v2: the swap, the added and the removed row, exit 1' '
	test_expect_code 1 stall-diff "$V1" "$V2" >out.tsv 2>err &&
	test_cmp /dev/null err &&
	grep -v "^##" out.tsv | grep -v "	TOTAL	\|	WALL	\|	CAUSE	" >actual &&
	tabs >pairs <<\EOF &&
=|0x1300|0x1300
=|0x1308|0x1308
m|0x1314|0x1310
m|0x1310|0x1314
=|0x1318|0x1318
=|0x131c|0x131c
=|0x1324|0x1324
+|-|0x1328
=|0x1328|0x132c
=|0x1330|0x1334
=|0x1334|0x1338
=|0x133c|0x1340
=|0x1340|0x1344
=|0x1344|0x1348
=|0x134c|0x1350
=|0x1350|0x1354
=|0x1354|0x1358
=|0x1358|0x135c
=|0x135c|0x1360
-|0x1360|-
=|0x1364|0x1364
=|0x136c|0x136c
=|launch|launch
=|drain|drain
EOF
	stall --all --tsv "$V1" >t1.tsv && stall --all --tsv "$V2" >t2.tsv &&
	awk -F"\t" -v OFS="\t" "
		FNR == 1 { f++ }
		/^##stall-table	kernel	/ { w[f] = \$7; next }
		/^#/ { next }
		f <= 2 { k = \$NF == \"inst\" ? \$2 : \$NF; if (k == \"total\") next
			cyc[f, k] = sprintf(\"%.2f\", \$4 / w[f]); cause[f, k] = \$6; inst[f, k] = \$(NF - 3); next }
		{ a = \$2; b = \$3; pa = a ~ /^0x/ ? a : \"-\"; pb = b ~ /^0x/ ? b : \"-\"
		  if (\$1 == \"+\") { print \"demo\", \$1, pa, pb, \"-\", cyc[2, b], cyc[2, b], \"-\", \"-\", cause[2, b], \"-\", inst[2, b]; next }
		  if (\$1 == \"-\") { print \"demo\", \$1, pa, pb, cyc[1, a], \"-\", sprintf(\"%.2f\", -cyc[1, a]), \"-100.00\", cause[1, a], \"-\", \"-\", inst[1, a]; next }
		  d = sprintf(\"%.2f\", cyc[2, b] - cyc[1, a]); if (d == \"-0.00\") d = \"0.00\"
		  print \"demo\", \$1, pa, pb, cyc[1, a], cyc[2, b], d, (cyc[1, a] + 0 > 0 ? sprintf(\"%.2f\", 100 * d / cyc[1, a]) : \"-\"),
			cause[1, a], cause[2, b], (cause[1, a] != cause[2, b]), inst[1, a] }" t1.tsv t2.tsv pairs >body &&
	{ printf "#kernel\tedit\tpc_a\tpc_b\tcyc_a\tcyc_b\tdelta\tpct\tcause_a\tcause_b\tcause_changed\tinst\n" && cat body; } >expect &&
	test_cmp expect actual &&
	awk -F"\t" "\$2 == \"=\" && \$12 == \"s_waitcnt vmcnt(0)\" { print \$5, \$9 }" actual >got &&
	echo "815.00 mem" >expect && test_cmp expect got
'

test_expect_success 'the kernel lines: waves, totals per wave, wall time, causes' '
	grep "^##stall-diff	kernel" out.tsv >actual &&
	grep "	TOTAL	\|	WALL	" out.tsv >>actual &&
	grep "	CAUSE	" out.tsv | head -2 >>actual &&
	tabs >expect <<\EOF &&
##stall-diff|kernel|demo|demo|waves|3|3|cycles|7794|7794
demo|=|TOTAL|TOTAL|2598.00|2598.00|0.00|0.00|mem|mem|0|-
demo|=|WALL|WALL|2869.00|2869.00|0.00|0.00|-|-|-|-
demo|=|CAUSE|CAUSE|502.00|502.00|0.00|0.00|wave_start|wave_start|-|-
demo|=|CAUSE|CAUSE|815.00|815.00|0.00|0.00|mem|mem|-|-
EOF
	test_cmp expect actual
'

test_expect_success 'a capture against itself: every row aligned in place, exit 0' '
	test_expect_code 0 stall-diff "$V2" "$V2" >same.tsv &&
	grep -v "^#" same.tsv | cut -f2 | sort -u >actual &&
	echo "=" >expect &&
	test_cmp expect actual &&
	grep -v "^#" same.tsv | cut -f7 | sort -u >actual &&
	echo "0.00" >expect &&
	test_cmp expect actual
'

test_expect_success 'rows, TSV tables and JSON tables align the same as the capture' '
	stall --rows "$V1" >v1.rows && stall --rows "$V2" >v2.rows &&
	stall-table v1.rows >v1.tsv && stall-table --json v2.rows >v2.json &&
	grep -v "^#" out.tsv | grep -v "	WALL	" >expect &&
	for a in v1.rows v1.tsv; do
		for b in v2.rows v2.json; do
			test_expect_code 1 stall-diff $a $b >o.tsv &&
			grep -v "^#" o.tsv | grep -v "	WALL	" >actual &&
			test_cmp expect actual || return 1
		done
	done &&
	test_expect_code 1 stall-diff - v2.rows <v1.rows >o.tsv &&
	grep -v "^#" o.tsv >actual &&
	grep -v "^#" out.tsv >expect &&
	test_cmp expect actual
'

test_expect_success 'a table has no times: WALL is -' '
	test_expect_code 1 stall-diff v1.tsv v2.rows >o.tsv &&
	grep "	WALL	" o.tsv >actual &&
	echo "demo|=|WALL|WALL|-|2869.00|-|-|-|-|-|-" | tabs >expect &&
	test_cmp expect actual
'

test_expect_success 'a raw view against a cause view: a warning, the diff all the same' '
	sqtt-dump "$V1" >stage102.0.out && <stage102.0.out sqtt-walk >stage102.1.out && <stage102.1.out stall-attr --raw >raw.rows &&
	test_expect_code 1 stall-diff raw.rows v1.rows >o.tsv 2>err &&
	echo "stall-diff: warning: raw.rows is of the raw view, v1.rows of the cause view: their costs differ in kind" >expect &&
	test_cmp expect err &&
	grep "	0x1340	0x1340	" o.tsv | cut -f5-7 >actual &&
	echo "1.00|673.67|672.67" | tabs >expect &&
	test_cmp expect actual
'

test_expect_success '--threshold: moves and edits always differ; cycles within it do not' '
	test_expect_code 1 stall-diff -T 1000 "$V1" "$V2" >o.tsv &&
	test_expect_code 1 stall-diff -T 50% "$V1" "$V2" >o.tsv &&
	awk -F"\t" -v OFS="\t" "!/^#/ && \$6 == \"0x1318\" { \$13 += 10 } { print }" v1.rows >slow.rows &&
	test_expect_code 1 stall-diff v1.rows slow.rows >o.tsv &&
	grep "	0x1318	0x1318	" o.tsv | cut -f5-8 >actual &&
	echo "198.00|208.00|10.00|5.05" | tabs >expect &&
	test_cmp expect actual &&
	test_expect_code 1 stall-diff -T 9.99 v1.rows slow.rows >o.tsv &&
	test_expect_code 0 stall-diff -T 10 v1.rows slow.rows >o.tsv &&
	test_expect_code 0 stall-diff -T 5% v1.rows slow.rows >o.tsv &&
	test_expect_code 0 stall-diff --threshold 5.1% v1.rows slow.rows >o.tsv &&
	grep -c "^##stall-diff	threshold	5.1%$" o.tsv
'

# 3 waves, 30 more cycles on one line: 10 a wave more, of the kernel 2598 a wave:
# 10 / 2598 = 0.385%, of the line 10 / 198 = 5.05%.
test_expect_success '-T N%: the gate per kernel, a line counts above N% of its kernel' '
	test_expect_code 1 stall-diff -T 0.38% v1.rows slow.rows >o.tsv &&
	test_expect_code 0 stall-diff -T 0.39% v1.rows slow.rows >o.tsv &&
	awk -F"\t" -v OFS="\t" "!/^#/ && \$6 == \"0x1308\" { \$13 += 1 } { print }" v1.rows >one.rows &&
	test_expect_code 1 stall-diff v1.rows one.rows >o.tsv &&
	grep "	0x1308	0x1308	" o.tsv | cut -f5-8 >actual &&
	echo "1.00|2.00|1.00|100.00" | tabs >expect &&
	test_cmp expect actual &&
	test_expect_code 0 stall-diff -T 0.04% v1.rows one.rows >o.tsv &&
	test_expect_code 1 stall-diff -T 0.03% v1.rows one.rows >o.tsv
'

# One line alone over the floor while its kernel is not: the line 0x1318 10 a wave
# slower and the line 0x1324 10 a wave faster, the kernel the same.
test_expect_success '-T N%: a line that moves by more than N% of its kernel fails it alone' '
	awk -F"\t" -v OFS="\t" "!/^#/ && \$6 == \"0x1318\" { \$13 += 10 } !/^#/ && \$6 == \"0x1324\" { \$13 -= 10 } { print }" v1.rows >shift.rows &&
	grep "	TOTAL	" o.tsv >/dev/null &&
	test_expect_code 1 stall-diff -T 0.38% v1.rows shift.rows >o.tsv &&
	grep "	TOTAL	" o.tsv | cut -f7 >actual && echo 0.00 >expect && test_cmp expect actual &&
	test_expect_code 0 stall-diff -T 0.39% v1.rows shift.rows >o.tsv
'

test_expect_success '-k a=b pairs two names; only the named pairs are compared' '
	sed "s/	demo	/	demo_v2	/" v2.rows >renamed.rows &&
	test_expect_code 2 stall-diff v1.rows renamed.rows >o.tsv 2>err &&
	echo "stall-diff: no kernel of v1.rows is in renamed.rows (pair two names with -k a=b)" >expect &&
	test_cmp expect err &&
	test_expect_code 1 stall-diff -k demo=demo_v2 v1.rows renamed.rows >o.tsv &&
	grep -v "^#" o.tsv | cut -f1 | sort -u >actual &&
	echo "demo=demo_v2" >expect &&
	test_cmp expect actual &&
	grep -v "^#" o.tsv | cut -f2- >actual &&
	grep -v "^#" out.tsv | cut -f2- >expect &&
	test_cmp expect actual
'

test_expect_success 'a kernel only on one side: its TOTAL marked - or +, exit 1' '
	sed "s/	demo	/	other	/" v2.rows >other.rows &&
	cat v1.rows >both.rows && grep -v "^#" other.rows >>both.rows &&
	test_expect_code 1 stall-diff both.rows v1.rows >o.tsv &&
	grep "^other	" o.tsv | cut -f1-4 >actual &&
	printf "other\t-\tTOTAL\tTOTAL\nother\t-\tWALL\tWALL\n" >expect &&
	grep "^other	-	CAUSE" o.tsv >/dev/null &&
	grep -v CAUSE actual >a2 && test_cmp expect a2
'

test_expect_success 'JSON: every row has the same keys; it parses' '
	test_expect_code 1 stall-diff --json "$V1" "$V2" >out.json &&
	head -c 120 out.json >actual &&
	printf "{\"version\": 1, \"a\": \"%s\", \"b\": \"%s\", \"threshold\": 0, \"threshold_unit\": \"cycles\", \"differs\": true, " "$V1" "$V2" | head -c 120 >expect &&
	test_cmp expect actual &&
	grep "\"edit\": \"+\"" out.json >actual &&
	cat >expect <<\EOF &&
    {"edit": "+", "pc_a": null, "pc_b": "0x1328", "a": null, "b": 1.00, "delta": 1.00, "pct": null, "cause_a": null, "cause_b": "issue_cycle", "cause_changed": false, "inst": "v_max_f32_e32 v1, 0, v1"},
EOF
	test_cmp expect actual &&
	grep "^    {\"edit\"" out.json | sed -E "s/\"([a-z_]+)\": (\"([^\"\\\\]|\\\\.)*\"|[^,}]*)/\\1/g; s/,\$//" | sort -u >actual &&
	echo "    {edit, pc_a, pc_b, a, b, delta, pct, cause_a, cause_b, cause_changed, inst}" >expect &&
	test_cmp expect actual
'

test_expect_success JQ 'JSON: jq reads its 24 rows (22 instructions, the launch, the drain)' '
	test_expect_code 1 stall-diff --json "$V1" "$V2" >out.json &&
	jq ".kernels[0].rows | length" out.json >actual &&
	echo 24 >expect &&
	test_cmp expect actual
'

test_expect_success 'pretty: marks, a * for a changed cause, the totals and the wall time' '
	test_expect_code 1 stall-diff --pretty "$V1" "$V2" >out.txt &&
	grep "^  m   0x1314  0x1310 " out.txt &&
	grep "^  +   -       0x1328 " out.txt &&
	grep "^  -   0x1360  -      " out.txt &&
	grep "^  =\*  0x1364  0x1364 .* issue_wait  *global_store_b32" out.txt &&
	grep "^ Wall time (first wave_start to last wave end): a 2869, b 2869 cycles (+0)$" out.txt &&
	grep "2598.00  *2598.00  *+0.00  *+0.00  total$" out.txt
'

test_expect_success 'trouble: exit 2, one line naming the program and the file' '
	test_expect_code 2 stall-diff v1.rows nothere >o 2>err &&
	test_one_line_error stall-diff err &&
	echo "stall-diff: nothere: No such file or directory" >expect && test_cmp expect err &&
	printf "not a capture\n" >bad.pkl &&
	test_expect_code 2 stall-diff v1.rows bad.pkl >o 2>err &&
	test_one_line_error stall-diff err &&
	: >empty &&
	test_expect_code 2 stall-diff v1.rows empty >o 2>err &&
	echo "stall-diff: empty: no rows: the input is empty" >expect && test_cmp expect err &&
	grep "^#" v1.rows >hdr.rows &&
	test_expect_code 2 stall-diff v1.rows hdr.rows >o 2>err &&
	echo "stall-diff: hdr.rows: no rows" >expect && test_cmp expect err &&
	test_expect_code 2 stall-diff -k nope v1.rows v2.rows >o 2>err &&
	echo "stall-diff: v1.rows: no kernel '"'"'nope'"'"'" >expect && test_cmp expect err &&
	stall-table --top 3 v1.rows >top.tsv &&
	test_expect_code 2 stall-diff top.tsv v2.rows >o 2>err &&
	echo "stall-diff: top.tsv: kernel demo: the table was cut by --top: not every instruction is in it" >expect &&
	test_cmp expect err &&
	sed "s/\"causes\": {\"wave_start\": 1506}/\"causes\": {\"wave_start\": 1505}/" v2.json >bad.json &&
	test_expect_code 2 stall-diff v1.rows bad.json >o 2>err &&
	test_one_line_error stall-diff err && grep -q "bad.json: line [0-9]*: the causes do not add up" err &&
	test_expect_code 2 stall-diff -T x v1.rows v2.rows >o 2>err && test_one_line_error stall-diff err &&
	test_expect_code 2 stall-diff - - <v1.rows >o 2>err && test_one_line_error stall-diff err &&
	test_expect_code 2 stall-diff v1.rows >o 2>err && grep -q "^usage: stall-diff " err &&
	stall-diff -h >o && grep -q "^usage: stall-diff " o &&
	stall-diff --version >o && grep -q "^stall-diff (stall) [0-9]" o
'

# fixtures/kernels/demo-v3.s is demo.s with every register renumbered (v0-v2 as v4-v6,
# s[2:3] s[12:13], s[4:5] s[14:15], s6 s8): the same instructions at the same pcs, traced
# by the same packets.  14 of its 21 traced instructions name a register; the 7 that do
# not (the four s_waitcnt, s_barrier, s_cbranch_scc1, s_endpgm) keep their text.
test_expect_success 'a recompile that renumbers every register: aligned row for row, r, exit 0' '
	sed "s|fixtures/kernels/demo.hsaco|fixtures/kernels/demo-v3.hsaco|" \
	    "$TOP/fixtures/traces/demo.packets.tsv" >regs.packets.tsv &&
	(cd "$TOP" && sqtt-encode -d "$T_DIR/cap.regs" "$T_DIR/regs.packets.tsv") &&
	stall --rows cap.regs >regs.rows &&
	grep -q "	v_lshlrev_b32_e32 v4, 2, v4	" regs.rows &&
	test_expect_code 0 stall-diff "$V1" cap.regs >regs.tsv &&
	grep -v "^#" regs.tsv | grep -v "	TOTAL	\|	WALL	\|	CAUSE	" >rows &&
	test "$(wc -l <rows)" -eq 23 &&
	awk -F"\t" "\$3 != \$4 || \$7 != \"0.00\"" rows >bad && test_cmp /dev/null bad &&
	awk -F"\t" "\$2 == \"=\" { print \$3 }" rows >actual &&
	printf "%s\n" 0x1318 0x1324 0x133c 0x1340 0x134c 0x135c 0x136c - - >expect &&
	test_cmp expect actual &&
	test "$(cut -f2 rows | grep -c "^r$")" -eq 14 &&
	test_expect_code 0 stall-diff v1.rows regs.rows >o.tsv &&
	grep -v "^##" o.tsv >actual && grep -v "^##" regs.tsv | grep -v "	WALL	" >expect &&
	grep -v "	WALL	" actual >a2 && test_cmp expect a2
'

test_expect_success '--changed: a summary line per kernel first, the changed lines by |delta|' '
	test_expect_code 1 stall-diff --changed "$V1" "$V2" >ch.tsv &&
	grep "^##stall-diff	stat	" ch.tsv >actual &&
	echo "##stall-diff|stat|demo|2598.00|2598.00|0.00|0.00|added|1|removed|1|moved|2|renumbered|0|slower|1|faster|0|differs|1" | tabs >expect &&
	test_cmp expect actual &&
	grep -v "^#" ch.tsv | grep -v "	TOTAL	\|	WALL	\|	CAUSE	" | cut -f2-4,7 >actual &&
	tabs >expect <<\EOF &&
-|0x1360|-|-8.00
=|0x1364|0x1364|7.00
+|-|0x1328|1.00
m|0x1314|0x1310|0.00
m|0x1310|0x1314|0.00
EOF
	test_cmp expect actual &&
	test_expect_code 0 stall-diff --changed "$V2" "$V2" >same.tsv &&
	grep -v "^#" same.tsv | cut -f3 >actual && printf "TOTAL\nWALL\n" >expect &&
	test_cmp expect actual &&
	grep "	stat	" same.tsv | cut -f20-21 >actual && printf "differs\t0\n" >expect &&
	test_cmp expect actual &&
	test_expect_code 1 stall-diff --changed --pretty "$V1" "$V2" >ch.txt &&
	grep "^ demo: 2598.00 -> 2598.00 cycles a wave (+0.00, +0.00%): differs; 1 added, 1 removed, 2 moved, 0 renumbered, 1 slower, 0 faster$" ch.txt &&
	test_expect_code 1 stall-diff --changed --json "$V1" "$V2" >ch.json &&
	grep -c "^    {\"edit\"" ch.json >n && echo 5 >expect && test_cmp expect n
'

# A JSON table whose kernel name and instruction hold a newline and a forged ## line.
test_expect_success 'names from the inputs are escaped: no forged ## line or row' '
	stall-table --json v1.rows | sed "s/\"kernel\": \"demo\"/\"kernel\": \"demo\\\\n##stall-diff\\\\tforged\"/; s/\"inst\": \"s_endpgm\"/\"inst\": \"s_endpgm\\\\nforged\\\\trow\"/" >evil.json &&
	grep -q "demo.n##stall-diff.tforged" evil.json &&
	test_expect_code 0 stall-diff evil.json evil.json >o.tsv &&
	! grep -q "^##stall-diff	forged" o.tsv &&
	! grep -q "^forged" o.tsv &&
	grep "^##stall-diff	kernel	" o.tsv | cut -f3 >actual &&
	printf "%s\n" "demo\\n##stall-diff\\tforged" >expect && test_cmp expect actual &&
	grep "0x136c" o.tsv | cut -f12 >actual &&
	printf "%s\n" "s_endpgm\\nforged\\trow" >expect && test_cmp expect actual &&
	test_expect_code 0 stall-diff -p evil.json evil.json >o.txt &&
	! grep -q "^forged" o.txt
'

# The same code, two runs of tinygrad's gemm: 20260120 (e540cad) and 20260202 (ccf477c).
# Each kernel's cycles a wave from stall's own tables: E_32_32_4 moved by 4.55%, the
# others by less; single lines moved by far more of themselves (the per-row gate failed).
C1=$FIXTURES/20260120_profile_gemm_run_0_e540cad.pkl
C2=$FIXTURES/20260202_profile_gemm_run_0_ccf477c.pkl
test_expect_success SHARED 'the CI form: two runs of the same code pass -T 5%, demo-v2 fails it' '
	for c in "$C1" "$C2"; do stall --all --tsv "$c" || return 1; done >both.tsv &&
	awk -F"\t" "/^##stall-table	kernel	/ { w = \$5 / \$7; if (\$3 in a) { d = 100 * (w - a[\$3]) / a[\$3]; if (d < 0) d = -d; if (d > m) m = d } else a[\$3] = w }
	    END { printf \"%.2f\\n\", m }" both.tsv >actual &&
	echo 4.55 >expect && test_cmp expect actual &&
	test_expect_code 0 stall-diff -T 5% "$C1" "$C2" >ci.tsv &&
	test_expect_code 1 stall-diff -T 4.5% "$C1" "$C2" >ci.tsv &&
	test_expect_code 1 stall-diff -T 5% "$V1" "$V2" >ci.tsv &&
	test_expect_code 0 stall-diff -T 5% "$V2" "$V2" >ci.tsv &&
	test_expect_code 1 stall-diff "$C1" "$C2" >all.tsv &&
	awk -F"\t" "!/^#/ && \$8 != \"-\" && (\$8 > 20 || \$8 < -20) && \$3 ~ /^0x/" all.tsv | wc -l >n &&
	test "$(cat n)" -gt 0 &&
	test_expect_code 0 stall-diff --changed -T 5% "$C1" "$C2" >ch.tsv &&
	grep -c "	differs	0$" ch.tsv >n && echo 3 >expect && test_cmp expect n
'

# The same code, two captures: 20260305 traced 2 waves of r_2_8_16_4_4_16_4, 20260202 4.
A=$FIXTURES/20260305_profile_gemm_run_0_b6d1936.pkl
B=$FIXTURES/20260202_profile_gemm_run_0_ccf477c.pkl
K=r_2_8_16_4_4_16_4
if test_have_prereq SHARED; then
test_expect_success 'gemm 20260305 against 20260202: every row aligned, deltas per wave' '
	test_expect_code 1 stall-diff -k $K "$A" "$B" >gemm.tsv &&
	stall --all --tsv "$A" >a.tsv && stall --all --tsv -k $K "$B" >b.tsv &&
	grep -v "^#" gemm.tsv | grep -v "	TOTAL	\|	WALL	\|	CAUSE	" >rows &&
	cut -f2 rows | sort -u >actual && echo "=" >expect && test_cmp expect actual &&
	awk -F"\t" "\$3 != \$4 { bad = 1 } END { exit bad }" rows &&
	wc -l <rows >actual &&
	grep -v "^#" a.tsv | grep -vc "	TOTAL	" >expect &&
	test_cmp expect actual &&
	test "$(cat actual)" -eq 129 &&
	awk -F"\t" -v K=$K "
		FNR == 1 { f++ }
		/^##stall-table	kernel	/ && \$3 == K { w[f] = \$7 }
		/^#/ || \$1 != K || \$2 == \"TOTAL\" { next }
		f == 1 { a[\$2 \$NF] = \$4 / w[1]; next }
		{ printf \"%s\t%.2f\t%.2f\t%.2f\n\", \$2, a[\$2 \$NF], \$4 / w[2], \$4 / w[2] - a[\$2 \$NF] }
	" a.tsv b.tsv | sed "s/	-0.00\$/	0.00/" | sort >expect &&
	cut -f3,5,6,7 rows | sort >actual &&
	test_cmp expect actual &&
	grep "	TOTAL	" gemm.tsv | cut -f5-8 >actual &&
	echo "18459.50|14850.50|-3609.00|-19.55" | tabs >expect &&
	test_cmp expect actual
'
else
	test_skip SHARED 'the gemm captures against each other'
fi

test_done
