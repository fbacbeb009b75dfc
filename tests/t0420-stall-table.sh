#!/bin/sh
# stall-table: per-instruction tables of hand-written row streams; the stall driver with
# stand-ins for sqtt-dump and sqtt-walk.
. "$(dirname "$0")/lib.sh"
DATA="$TOP/tests/data"

# Expected tables are written with '|' for a tab, to keep them readable here.
tabs() { tr '|' '\t'; }

test_expect_success 'TSV: per (kernel, pc), a TOTAL row per kernel' '
	stall-table "$DATA/rows-table.tsv" >actual &&
	tabs >expect <<\EOF &&
##source|hand-written
##stall-attr|cause|cost is the row'"'"'s delta, but the wait after an s_barrier is moved onto it (the next row keeps 1 cycle)
##stall-table|counted|cost (stall-attr cause view: barrier waits moved onto the s_barrier)
##stall-table|pct|percent of the kernel'"'"'s cycles, the sum of its waves'"'"' lifetimes
##stall-table|kernel|k_a|cycles|400|waves|2|hits|10|untraced_waves|0|untraced_cycles|0
##stall-table|kernel|k_b|cycles|80|waves|1|hits|2|untraced_waves|0|untraced_cycles|0
#kernel|pc|hits|cycles|pct|cause|c_wave_start|c_mem|c_smem|c_lds|c_mem_smem|c_mem_lds|c_smem_lds|c_mem_smem_lds|c_barrier|c_depctr|c_valu_dep|c_trans_dep|c_salu_dep|c_issue_wait|c_fetch|c_vmem_issue|c_lds_queue|c_drain|c_unexplained|c_untraced|c_none|c_other|inst|c_sleep|c_issue_cycle|c_exec|row
k_a|0x104|2|110|27.50|smem|0|0|110|0|0|0|0|0|0|0|0|0|0|0|0|0|0|0|0|0|0|0|s_waitcnt lgkmcnt(0)|0|0|0|inst
k_a|0x108|2|50|12.50|barrier|0|0|0|0|0|0|0|0|50|0|0|0|0|0|0|0|0|0|0|0|0|0|s_barrier|0|0|0|inst
k_a|0x10c|2|2|0.50|unexplained|0|0|0|0|0|0|0|0|0|0|0|0|0|0|0|0|0|0|2|0|0|0|v_add_nc_u32_e32 v1, v0, v0|0|0|0|inst
k_a|0x100|2|0|0.00|wave_start|0|0|0|0|0|0|0|0|0|0|0|0|0|0|0|0|0|0|0|0|0|0|s_load_b64 s[2:3], s[0:1], 0x0|0|0|0|inst
k_a|0x110|2|0|0.00|drain|0|0|0|0|0|0|0|0|0|0|0|0|0|0|0|0|0|0|0|0|0|0|s_endpgm|0|0|0|inst
k_a|-|2|210|52.50|wave_start|210|0|0|0|0|0|0|0|0|0|0|0|0|0|0|0|0|0|0|0|0|0|(launch)|0|0|0|launch
k_a|-|2|28|7.00|drain|0|0|0|0|0|0|0|0|0|0|0|0|0|0|0|0|0|28|0|0|0|0|(drain)|0|0|0|drain
k_a|TOTAL|10|400|100.00|wave_start|210|0|110|0|0|0|0|0|50|0|0|0|0|0|0|0|0|28|2|0|0|0|-|0|0|0|total
k_b|0x200|1|0|0.00|wave_start|0|0|0|0|0|0|0|0|0|0|0|0|0|0|0|0|0|0|0|0|0|0|v_mov_b32_e32 v0, 0|0|0|0|inst
k_b|0x204|1|0|0.00|drain|0|0|0|0|0|0|0|0|0|0|0|0|0|0|0|0|0|0|0|0|0|0|s_endpgm|0|0|0|inst
k_b|-|1|50|62.50|wave_start|50|0|0|0|0|0|0|0|0|0|0|0|0|0|0|0|0|0|0|0|0|0|(launch)|0|0|0|launch
k_b|-|1|30|37.50|drain|0|0|0|0|0|0|0|0|0|0|0|0|0|0|0|0|0|30|0|0|0|0|(drain)|0|0|0|drain
k_b|TOTAL|2|80|100.00|wave_start|50|0|0|0|0|0|0|0|0|0|0|0|0|0|0|0|0|30|0|0|0|0|-|0|0|0|total
EOF
	test_cmp expect actual
'

test_expect_success 'TSV is the default when stdout is not a terminal; --tsv forces it' '
	stall-table "$DATA/rows-table.tsv" >expect &&
	stall-table --pretty --tsv "$DATA/rows-table.tsv" >actual &&
	test_cmp expect actual
'

test_expect_success 'JSON, version 1' '
	stall-table --json "$DATA/rows-table.tsv" >actual &&
	cat >expect <<\EOF &&
{"version": 1, "view": "cause", "top": 0, "kernels": [
  {"kernel": "k_a", "cycles": 400, "waves": 2, "hits": 10, "untraced_waves": 0, "untraced_cycles": 0, "cause": "wave_start", "causes": {"wave_start": 210, "smem": 110, "barrier": 50, "drain": 28, "unexplained": 2}, "launch": {"hits": 2, "cycles": 210, "pct": 52.50, "cause": "wave_start", "causes": {"wave_start": 210}}, "drain": {"hits": 2, "cycles": 28, "pct": 7.00, "cause": "drain", "causes": {"drain": 28}}, "rows": [
    {"pc": "0x104", "hits": 2, "cycles": 110, "pct": 27.50, "cause": "smem", "causes": {"smem": 110}, "inst": "s_waitcnt lgkmcnt(0)"},
    {"pc": "0x108", "hits": 2, "cycles": 50, "pct": 12.50, "cause": "barrier", "causes": {"barrier": 50}, "inst": "s_barrier"},
    {"pc": "0x10c", "hits": 2, "cycles": 2, "pct": 0.50, "cause": "unexplained", "causes": {"unexplained": 2}, "inst": "v_add_nc_u32_e32 v1, v0, v0"},
    {"pc": "0x100", "hits": 2, "cycles": 0, "pct": 0.00, "cause": "wave_start", "causes": {}, "inst": "s_load_b64 s[2:3], s[0:1], 0x0"},
    {"pc": "0x110", "hits": 2, "cycles": 0, "pct": 0.00, "cause": "drain", "causes": {}, "inst": "s_endpgm"}
  ]},
  {"kernel": "k_b", "cycles": 80, "waves": 1, "hits": 2, "untraced_waves": 0, "untraced_cycles": 0, "cause": "wave_start", "causes": {"wave_start": 50, "drain": 30}, "launch": {"hits": 1, "cycles": 50, "pct": 62.50, "cause": "wave_start", "causes": {"wave_start": 50}}, "drain": {"hits": 1, "cycles": 30, "pct": 37.50, "cause": "drain", "causes": {"drain": 30}}, "rows": [
    {"pc": "0x200", "hits": 1, "cycles": 0, "pct": 0.00, "cause": "wave_start", "causes": {}, "inst": "v_mov_b32_e32 v0, 0"},
    {"pc": "0x204", "hits": 1, "cycles": 0, "pct": 0.00, "cause": "drain", "causes": {}, "inst": "s_endpgm"}
  ]}
]}
EOF
	test_cmp expect actual
'

test_expect_success '--plain: no ## line, no TOTAL row, a bare header; -H: no header' '
	stall-table --plain "$DATA/rows-table.tsv" >plain &&
	stall-table "$DATA/rows-table.tsv" >full &&
	grep -v "^##" full | sed "s/^#//" | grep -v "	TOTAL	" >expect &&
	test_cmp expect plain &&
	head -n 1 plain | cut -f1,2 >h &&
	printf "kernel\tpc\n" >expect.h &&
	test_cmp expect.h h &&
	stall-table -H "$DATA/rows-table.tsv" >bare &&
	tail -n +2 plain >expect.bare &&
	test_cmp expect.bare bare &&
	test "$(wc -l <bare)" -eq 11 &&
	awk -F"\t" "\$NF != \"inst\" { print \$1, \$2, \$4, \$NF }" bare >not-inst &&
	printf "k_a - 210 launch\nk_a - 28 drain\nk_b - 50 launch\nk_b - 30 drain\n" >expect.not-inst &&
	test_cmp expect.not-inst not-inst &&
	test_expect_code 2 stall-table --plain --json "$DATA/rows-table.tsv" >out 2>err &&
	test_one_line_error stall-table err
'

test_expect_success 'the TOTAL rows are told by the last column, row, not by their pc' '
	stall-table "$DATA/rows-table.tsv" >full &&
	awk -F"\t" "!/^#/ && \$NF == \"total\" { print \$1, \$2 }" full >actual &&
	printf "k_a TOTAL\nk_b TOTAL\n" >expect &&
	test_cmp expect actual &&
	grep "^#kernel" full | awk -F"\t" "{ print \$NF }" >col &&
	echo row >expect.col &&
	test_cmp expect.col col
'

test_expect_success 'every ##stall-table kernel line has the same 13 fields' '
	printf "#kernel\tpc\tinst\ttoken\tcost\tcause\nk\t0x100\t-\tWAVE_END\t50\tuntraced\nj\t0x100\ts_nop 0\tINST:salu\t5\tunexplained\n" >mixed.tsv &&
	stall-table mixed.tsv >t &&
	grep "^##stall-table	kernel	" t | awk -F"\t" "{ print NF }" | sort -u >nf &&
	echo 13 >expect.nf &&
	test_cmp expect.nf nf
'

test_expect_success 'an instruction text of 100000 bytes comes back whole, beside short ones' '
	long=$(head -c 100000 /dev/zero | tr "\\0" x) &&
	printf "#kernel\tpc\tinst\ttoken\tcost\tcause\n" >long.tsv &&
	for i in 1 2 3; do
		printf "k\t0x10$i\ts_nop $i\tINST:salu\t5\tunexplained\n" >>long.tsv || return 1
	done &&
	printf "k\t0x200\ts_$long\tINST:salu\t7\tunexplained\nk\t0x204\ts_nop 9\tINST:salu\t6\tunexplained\n" >>long.tsv &&
	stall-table --top 0 --plain long.tsv >t &&
	awk -F"\t" "\$2 ~ /^0x/ { print \$2, length(\$(NF - 4)) }" t >got &&
	printf "0x200 100002\n0x204 7\n0x101 7\n0x102 7\n0x103 7\n" >expect &&
	test_cmp expect got
'

test_expect_success '5000 instructions twice: 5000 lines of 2 hits (the index of lines grows and finds them)' '
	awk "BEGIN { print \"#kernel\tpc\tinst\ttoken\tcost\tcause\"
		for (r = 0; r < 2; r++) for (i = 0; i < 5000; i++)
			printf \"k\t0x%x\ts_nop %d\tINST:salu\t%d\tunexplained\n\", 4 * i, i, 1 + i % 7 }" >many.tsv &&
	stall-table --top 0 --plain many.tsv >t &&
	awk -F"\t" "NR > 1 { n++; if (\$3 != 2) bad++ } END { print n, bad + 0 }" t >got &&
	echo "5000 0" >expect &&
	test_cmp expect got
'

test_expect_success '--top 3 takes the three most cycles wherever they come (the first line the most)' '
	printf "#kernel\tpc\tinst\ttoken\tcost\tcause\n" >top3.tsv &&
	for r in 0x100:100 0x104:1 0x108:2 0x10c:50 0x110:60 0x114:3; do
		printf "k\t${r%%:*}\ts_nop 0\tINST:salu\t${r#*:}\tunexplained\n" >>top3.tsv || return 1
	done &&
	stall-table --top 3 --plain top3.tsv >t &&
	awk -F"\t" "NR > 1 && \$2 ~ /^0x/ { print \$2, \$4 }" t >got &&
	printf "0x100 100\n0x110 60\n0x10c 50\n" >expect &&
	test_cmp expect got
'

test_expect_success PYTHON3 'JSON parses with python3' '
	stall-table --json "$DATA/rows-table.tsv" >out.json &&
	python3 -c "import json, sys; d = json.load(open(sys.argv[1])); assert d[\"version\"] == 1; assert [k[\"kernel\"] for k in d[\"kernels\"]] == [\"k_a\", \"k_b\"]" out.json
'

test_expect_success JQ 'JSON parses with jq' '
	stall-table --json "$DATA/rows-table.tsv" >out.json &&
	jq -r ".kernels[] | .kernel + \" \" + (.cycles | tostring)" out.json >actual &&
	printf "k_a 400\nk_b 80\n" >expect &&
	test_cmp expect actual
'

test_expect_success '--top 1: the hottest instruction of each kernel, totals of all' '
	stall-table --top 1 "$DATA/rows-table.tsv" >out.tsv &&
	grep -v "^##" out.tsv | cut -f1-6 >actual &&
	tabs >expect <<\EOF &&
#kernel|pc|hits|cycles|pct|cause
k_a|0x104|2|110|27.50|smem
k_a|-|2|210|52.50|wave_start
k_a|-|2|28|7.00|drain
k_a|TOTAL|10|400|100.00|wave_start
k_b|0x200|1|0|0.00|wave_start
k_b|-|1|50|62.50|wave_start
k_b|-|1|30|37.50|drain
k_b|TOTAL|2|80|100.00|wave_start
EOF
	test_cmp expect actual &&
	grep -c "^##stall-table	top	1$" out.tsv
'

test_expect_success '-s pc and -s hits; --top chooses by cycles, then sorts' '
	stall-table -s pc "$DATA/rows-table.tsv" >stage86.0.out && <stage86.0.out grep -v "^#" | cut -f1,2 >actual &&
	tabs >expect <<\EOF &&
k_a|0x100
k_a|0x104
k_a|0x108
k_a|0x10c
k_a|0x110
k_a|-
k_a|-
k_a|TOTAL
k_b|0x200
k_b|0x204
k_b|-
k_b|-
k_b|TOTAL
EOF
	test_cmp expect actual &&
	stall-table -n 3 -s pc "$DATA/rows-table.tsv" >stage99.0.out && <stage99.0.out grep -v "^#" | cut -f1,2 >actual &&
	tabs >expect <<\EOF &&
k_a|0x104
k_a|0x108
k_a|0x10c
k_a|-
k_a|-
k_a|TOTAL
k_b|0x200
k_b|0x204
k_b|-
k_b|-
k_b|TOTAL
EOF
	test_cmp expect actual &&
	stall-table -s hits "$DATA/rows-table.tsv" >stage110.0.out && <stage110.0.out grep -v "^#" | cut -f1,2 >actual &&
	tabs >expect <<\EOF &&
k_a|0x104
k_a|0x108
k_a|0x10c
k_a|0x100
k_a|0x110
k_a|-
k_a|-
k_a|TOTAL
k_b|0x200
k_b|0x204
k_b|-
k_b|-
k_b|TOTAL
EOF
	test_cmp expect actual
'

test_expect_success 'pretty: aligned, says what was counted and what a percent is of' '
	stall-table --pretty "$DATA/rows-table.tsv" >actual &&
	cat >expect <<\EOF &&
 Kernel k_a: 2 waves, 400 cycles of their lifetimes summed, 10 issues
 Counted: cost (stall-attr cause view: barrier waits moved onto the s_barrier)
 Percent of the kernel'"'"'s cycles

 Percent  Cycles  Hits  Address  Cause         Instruction
   27.50     110     2  0x104    smem          s_waitcnt lgkmcnt(0)
   12.50      50     2  0x108    barrier       s_barrier
    0.50       2     2  0x10c    unexplained   v_add_nc_u32_e32 v1, v0, v0
    0.00       0     2  0x100    wave_start    s_load_b64 s[2:3], s[0:1], 0x0
    0.00       0     2  0x110    drain         s_endpgm
   52.50     210     2           wave_start    (launch)
    7.00      28     2           drain         (drain)
  100.00     400    10           total

 By cause:
   52.50     210     2  wave_start
   27.50     110     2  smem
   12.50      50     2  barrier
    7.00      28     2  drain
    0.50       2     2  unexplained

 Kernel k_b: 1 wave, 80 cycles of their lifetimes summed, 2 issues
 Counted: cost (stall-attr cause view: barrier waits moved onto the s_barrier)
 Percent of the kernel'"'"'s cycles

 Percent  Cycles  Hits  Address  Cause         Instruction
    0.00       0     1  0x200    wave_start    v_mov_b32_e32 v0, 0
    0.00       0     1  0x204    drain         s_endpgm
   62.50      50     1           wave_start    (launch)
   37.50      30     1           drain         (drain)
  100.00      80     2           total

 By cause:
   62.50      50     1  wave_start
   37.50      30     1  drain
EOF
	test_cmp expect actual
'

test_expect_success 'pct of each kernel adds up to 100 (within 0.1)' '
	stall-attr "$DATA/rows-mem.tsv" >m.tsv &&
	stall-attr "$DATA/rows-interleave.tsv" >i.tsv &&
	stall-table m.tsv i.tsv >out.tsv &&
	awk -F"\t" "/^#/ || \$2 == \"TOTAL\" {next} {p[\$1] += \$5; n[\$1]++}
	    END {for (k in p) {if (p[k] < 99.9 || p[k] > 100.1) {print k, p[k]; bad = 1}; m++}
		if (m != 3) {print m \" kernels\"; bad = 1}
		exit bad}" out.tsv
'

test_expect_success 'a kernel total is the sum of the deltas of its rows, cause columns add up' '
	stall-attr "$DATA/rows-mem.tsv" >m.tsv &&
	stall-table m.tsv >out.tsv &&
	awk -F"\t" "/^#/ {next} {d[\$3] += \$8} END {for (k in d) print k, d[k]}" m.tsv |
	    sort >expect &&
	awk -F"\t" "\$2 == \"TOTAL\" {print \$1, \$4}" out.tsv | sort >actual &&
	test_cmp expect actual &&
	awk -F"\t" "/^#/ {next} {s = 0; for (i = 7; i < NF; i++) s += \$i; if (s != \$4) {print; bad = 1}}
	    END {exit bad}" out.tsv
'

test_expect_success 'rows without cost and cause: cost is the delta, cause -' '
	stall-table "$DATA/rows-barrier.tsv" >out.tsv &&
	grep -v "^#" out.tsv | cut -f1-6,27 >actual &&
	tabs >expect <<\EOF &&
k_bar|0x100|2|195|67.01|-|195
k_bar|0x108|2|57|19.59|-|57
k_bar|0x104|2|21|7.22|-|21
k_bar|0x10c|2|18|6.19|-|18
k_bar|TOTAL|8|291|100.00|-|291
EOF
	test_cmp expect actual &&
	grep -q "^##stall-table	counted	delta" out.tsv
'

test_expect_success 'a cause it does not know: counted as other, one warning; --strict: exit 2' '
	sed "s/	smem$/	tea break/" "$DATA/rows-table.tsv" >odd.tsv &&
	stall-table odd.tsv >out.tsv 2>err &&
	echo "stall-table: warning: odd.tsv:6: unknown cause '"'"'tea break'"'"' counted as '"'"'other'"'"' (warned once)" >expect &&
	test_cmp expect err &&
	awk -F"\t" "\$2 == \"TOTAL\" && \$1 == \"k_a\" {print \$28}" out.tsv >actual &&
	echo 110 >expect &&
	test_cmp expect actual &&
	test_expect_code 2 stall-table --strict odd.tsv >out 2>err &&
	test_one_line_error stall-table err
'

test_expect_success 'missing column: one-line error, exit 2' '
	cut -f1-5,7- "$DATA/rows-table.tsv" >nopc.tsv &&
	test_expect_code 2 stall-table nopc.tsv >out 2>err &&
	echo "stall-table: nopc.tsv:3: no column '"'"'pc'"'"'" >expect &&
	test_cmp expect err
'

test_expect_success 'a cost that is not a number: one-line error, exit 2' '
	sed "5s/	110	wave_start$/	1l0	wave_start/" "$DATA/rows-table.tsv" >badcost.tsv &&
	test_expect_code 2 stall-table badcost.tsv >out 2>err &&
	echo "stall-table: badcost.tsv:5: cost: '"'"'1l0'"'"' is not a number" >expect &&
	test_cmp expect err
'

test_expect_success 'usage errors: exit 2' '
	test_expect_code 2 stall-table -s size "$DATA/rows-table.tsv" >out 2>err &&
	test_one_line_error stall-table err &&
	test_expect_code 2 stall-table --top -1 "$DATA/rows-table.tsv" >out 2>err &&
	test_one_line_error stall-table err &&
	test_expect_code 2 stall-table --top x "$DATA/rows-table.tsv" >out 2>err &&
	test_one_line_error stall-table err &&
	stall-table -h >out &&
	grep -q "^usage: stall-table " out
'

# The driver, with stand-ins for the two stages that need a capture.
# stall is the four stages in one process: its output is theirs, byte for byte.
pipeline() {	# pipeline ATTR-OPTS TABLE-OPTS CAPTURE
	sqtt-dump --types HEADER,REG,WAVE_START,WAVE_END,INST,VALU_INST,IMM_ONE,IMMEDIATE,NEW_PC "$3" > p.packets &&
	sqtt-walk p.packets > p.rows 2> /dev/null &&
	stall-attr $1 p.rows > p.attr &&
	stall-table $2 p.attr
}

test_expect_success 'stall: the table of dump | walk | attr | table, byte for byte, in every format' '
	for o in "|--top 10 --tsv|--tsv" "|--top 0 --tsv|-a --tsv" "--deltas|--top 10 --tsv|--deltas --tsv" \
	    "|--top 10 --json|-j" "|--top 10 --pretty|--pretty" "|--top 3 -s pc --tsv|-n 3 -s pc --tsv" \
	    "|--top 10 --untraced --tsv|--untraced --tsv"; do
		a=$(echo "$o" | cut -d"|" -f1) t=$(echo "$o" | cut -d"|" -f2) s=$(echo "$o" | cut -d"|" -f3) &&
		pipeline "$a" "$t" "$TOP/fixtures/demo" > expect &&
		stall $s "$TOP/fixtures/demo" > actual &&
		test_cmp expect actual || return 1
	done &&
	sqtt-dump "$TOP/fixtures/demo" > d.packets && sqtt-walk d.packets > d.rows 2>/dev/null &&
	stall-attr d.rows > expect &&
	stall --rows "$TOP/fixtures/demo" > actual &&
	test_cmp expect actual
'

test_expect_success 'stall --threads 2 (buffers walked at once, sums added up): the same table' '
	{ test_part SHARED "the shared captures" || :; } &&
	for c in "$TOP/fixtures/demo" "$TOP/fixtures/demo-v2" "$FIXTURES"/*.pkl; do
		[ -e "$c" ] || continue
		for o in "--tsv -a" "--tsv -a --untraced" "--json" "-r --tsv"; do
			stall --threads 1 $o "$c" > one 2> /dev/null; a=$?
			stall --threads 2 $o "$c" > two 2> /dev/null; b=$?
			test $a = $b && test_cmp one two || { echo "$c $o"; return 1; }
		done
	done
'

test_expect_success 'stall: usage, bad numbers, a kernel that matched nothing: one line, exit 2' '
	test_expect_code 2 stall >out 2>err &&
	grep -q "^usage: stall " err &&
	test_expect_code 2 stall --top x "$TOP/fixtures/demo" >out 2>err &&
	test_one_line_error stall err &&
	test_expect_code 2 stall -k nosuch "$TOP/fixtures/demo" >out 2>err &&
	test_one_line_error stall err &&
	grep -q "no trace buffer matches -k nosuch (2 in all)" err &&
	test_cmp /dev/null out &&
	stall --version > v && grep -q "^stall (stall) [0-9]" v
'

test_done
