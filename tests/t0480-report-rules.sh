#!/bin/sh
# t0480: the rules of the tables that a mistake could change silently, each by
# construction: the dominant cause on a tie, the cause of a merged bar of equal rows,
# JSON's line and paragraph separators, and the limits on kernels and dispatches.
. "$(dirname "$0")/lib.sh"
tabs() { tr '|' '\t'; }

test_expect_success 'dominant cause: most cycles; a tie to the most rows, then to the table order' '
	tabs >rows.tsv <<\EOF &&
#event|se|kernel|wave|slot|pc|time|delta|token|inst|class|dep|cost|cause
0|0|k|0|0|0x100|10|10|VALU_INST|v_a|valu|-|10|wave_start
0|0|k|0|0|0x104|20|10|IMM_ONE|s_waitcnt 1|waitcnt|-|10|smem
0|0|k|0|0|0x104|30|10|IMM_ONE|s_waitcnt 1|waitcnt|-|6|lds
0|0|k|0|0|0x104|40|10|IMM_ONE|s_waitcnt 1|waitcnt|-|4|lds
0|0|k|0|0|0x108|50|10|IMM_ONE|s_waitcnt 2|waitcnt|-|7|lds
0|0|k|0|0|0x108|60|10|IMM_ONE|s_waitcnt 2|waitcnt|-|7|mem
0|0|k|0|0|0x10c|70|10|IMM_ONE|s_waitcnt 3|waitcnt|-|9|smem
0|0|k|0|0|0x10c|80|10|IMM_ONE|s_waitcnt 3|waitcnt|-|8|mem
0|0|k|0|0|0x10c|80|0|IMM_ONE|s_waitcnt 3|waitcnt|-|1|mem
0|0|k|0|0|0x110|90|10|WAVE_END|s_endpgm|endpgm|-|10|drain
EOF
	stall-table -s pc rows.tsv >t.tsv &&
	awk -F"\t" "!/^#/ && \$NF == \"inst\" && \$2 != \"0x100\" && \$2 != \"0x110\" { print \$2, \$6 }" t.tsv >actual &&
	printf "0x104 lds\n0x108 mem\n0x10c mem\n" >expect &&
	test_cmp expect actual
'

# 200002 rows of equal cost in one wave, lds and mem in turn: more than the 200000 bars
# the page keeps, so neighbours are merged pairwise; a merged bar is its first row's.
test_expect_success PYTHON3 'the page: a merged bar of equal rows has the first row'"'"'s cause' '
	awk -v OFS="\t" "BEGIN {
		print \"#event\", \"se\", \"kernel\", \"wave\", \"slot\", \"pc\", \"time\", \"delta\", \"token\", \"inst\", \"class\", \"dep\", \"cost\", \"cause\"
		t = 0
		for (i = 0; i < 200002; i++) {
			t += 5
			c = i == 0 ? \"wave_start\" : i == 200001 ? \"drain\" : i % 2 ? \"mem\" : \"lds\"
			print 0, 0, \"k\", 0, 0, sprintf(\"0x%x\", 256 + 4 * (i % 2)), t, 5, i == 200001 ? \"WAVE_END\" : \"VALU_INST\", \"v_x\", \"valu\", \"-\", 5, c
		}
	}" >big.tsv &&
	stall-table --html big.html big.tsv >/dev/null &&
	python3 - big.html <<-\EOF
	import json, re, sys
	page = open(sys.argv[1], encoding="utf-8").read()
	tl = json.loads(re.search(r"id=\"stall-timeline\">(.*?)</script>", page, re.S).group(1))
	assert tl["rows_per_bar"] == 2, tl["rows_per_bar"]
	bars = tl["kernels"][0]["groups"][0]["lanes"][0]["bars"]
	causes = [tl["causes"][bars[i + 3]] for i in range(0, len(bars), 6)]
	# pairs (wave_start, mem), (lds, mem), ..., (lds, drain): the first of each
	assert causes[0] == "wave_start" and causes[-1] == "lds", (causes[0], causes[-1])
	assert set(causes[1:]) == {"lds"}, set(causes[1:])
	assert len(causes) == 100001, len(causes)
	EOF
'

test_expect_success 'JSON: U+2028 and U+2029 are escaped in the table, the page and the trace' '
	printf "#event\tse\tkernel\twave\tslot\tpc\ttime\tdelta\ttoken\tinst\tclass\tdep\tcost\tcause\n0\t0\ta\342\200\250b\342\200\251c\t0\t0\t0x100\t10\t10\tVALU_INST\tv_\342\200\251x\tvalu\t-\t10\tunexplained\n0\t0\ta\342\200\250b\342\200\251c\t0\t0\t0x104\t20\t10\tWAVE_END\ts_endpgm\tendpgm\t-\t10\tdrain\n" >u.tsv &&
	stall-table -j --html u.html --trace-json u.json u.tsv >u.table.json &&
	for f in u.table.json u.html u.json; do
		! grep -q "$(printf "\342\200\250")" $f && ! grep -q "$(printf "\342\200\251")" $f || return 1
	done &&
	grep -c "\"kernel\": \"a\\\\u2028b\\\\u2029c\"" u.table.json &&
	grep -c "\"inst\": \"v_\\\\u2029x\"" u.table.json
'

test_expect_success 'more kernels than 32768: one line, exit 2; 32768 are a table' '
	awk -v OFS="\t" "BEGIN {
		print \"#event\", \"se\", \"kernel\", \"wave\", \"slot\", \"pc\", \"time\", \"delta\", \"token\", \"inst\", \"class\", \"dep\", \"cost\", \"cause\"
		for (k = 0; k < 32769; k++)
			print k, 0, \"k\" k, 0, 0, \"0x100\", 10, 10, \"WAVE_END\", \"s_endpgm\", \"endpgm\", \"-\", 10, \"drain\"
	}" >many.tsv &&
	test_expect_code 2 stall-table many.tsv >out 2>err &&
	echo "stall-table: many.tsv: more than 32768 kernels: the limit of a profile" >expect &&
	test_cmp expect err &&
	head -n 32769 many.tsv >limit.tsv &&
	stall-table limit.tsv >t.tsv &&
	test "$(grep -c "	total$" t.tsv)" = 32768
'

test_expect_success '--by-dispatch: 20000 dispatches, one line each in dispatch order; 32769 refused' '
	awk -v OFS="\t" "BEGIN {
		for (d = 0; d < 20000; d++) print \"##event\", d, 0, \"k\", \"-\", 1, 0, 0, 0, \"-\", 20000 - d
		print \"#event\", \"se\", \"kernel\", \"wave\", \"slot\", \"pc\", \"time\", \"delta\", \"token\", \"inst\", \"class\", \"dep\", \"cost\", \"cause\"
		for (d = 0; d < 20000; d++) {
			print d, 0, \"k\", 0, 0, \"0x100\", 10, 10, \"VALU_INST\", \"v_nop\", \"valu\", \"-\", 10, \"wave_start\"
			print d, 0, \"k\", 0, 0, \"0x104\", 12 + d % 7, 2 + d % 7, \"VALU_INST\", \"v_mul\", \"valu\", \"-\", 2 + d % 7, \"fetch\"
			print d, 0, \"k\", 0, 0, \"0x108\", 20 + d % 7, 8, \"WAVE_END\", \"s_endpgm\", \"endpgm\", \"-\", 8, \"drain\"
		}
	}" >disp.tsv &&
	stall-table --by-dispatch disp.tsv >bd.tsv &&
	test "$(grep -vc "^#" bd.tsv)" = 20000 &&
	awk -F"\t" "!/^#/ { if (\$1 != ++n || \$4 != 20 + (20000 - n) % 7 || \$8 != \"0x104\") bad++ } END { exit bad > 0 }" bd.tsv &&
	awk -v OFS="\t" "BEGIN {
		print \"#event\", \"se\", \"kernel\", \"wave\", \"slot\", \"pc\", \"time\", \"delta\", \"token\", \"inst\", \"class\", \"dep\", \"cost\", \"cause\"
		for (d = 0; d < 32769; d++) print d, 0, \"k\" d, 0, 0, \"0x100\", 10, 10, \"WAVE_END\", \"s_endpgm\", \"endpgm\", \"-\", 10, \"drain\"
	}" >disp-many.tsv &&
	test_expect_code 2 stall-table --by-dispatch disp-many.tsv >out 2>err &&
	test_one_line_error stall-table err &&
	grep -q "more than 32768 dispatches" err
'

test_expect_success '-k with --by-dispatch and --occupancy: only that kernel; none of that name is an error' '
	stall --rows "$TOP/fixtures/demo" >demo.tsv &&
	stall-table --by-dispatch -k demo demo.tsv >k.tsv &&
	stall-table --by-dispatch demo.tsv >all.tsv &&
	test_cmp all.tsv k.tsv &&
	test "$(grep -vc "^#" k.tsv)" = 2 &&
	test_expect_code 2 stall-table --by-dispatch -k nosuch demo.tsv >out 2>err &&
	test_cmp /dev/null out &&
	echo "stall-table: -k nosuch: no kernel of that name in demo.tsv" >expect &&
	test_cmp expect err &&
	awk -F"\t" -v OFS="\t" "!/^#/ && \$1 == 0 { \$3 = \"other\" } { print }" demo.tsv >two.tsv &&
	stall-table --by-dispatch -k other two.tsv | cut -f1,2 >k2 &&
	printf "#dispatch\tkernel\n0\tother\n" >expect2 && test_cmp expect2 k2 &&
	stall-table --occupancy -k other two.tsv | cut -f1,3 | sort -u >o2 &&
	printf "#event\tkernel\n0\tother\n" >expect3 && test_cmp expect3 o2 &&
	stall-table --occupancy -k demo demo.tsv >occ.tsv &&
	stall-table --occupancy demo.tsv >occ-all.tsv && test_cmp occ-all.tsv occ.tsv &&
	test_expect_code 2 stall-table --occupancy -k nosuch demo.tsv >out 2>err &&
	test_cmp /dev/null out && test_cmp expect err
'

test_done
