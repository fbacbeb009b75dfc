#!/bin/sh
# The profile module reads stall tables back (TSV and JSON, as stall-table writes them):
# a table read and written again is the same table; a table that does not add up, or
# JSON that is not JSON, is one line and exit 2.  Read through stall-budget -w.
. "$(dirname "$0")/lib.sh"
DATA="$TOP/tests/data"

test_expect_success 'rows, TSV table, JSON table: the same JSON table out' '
	stall-table --json "$DATA/rows-table.tsv" >expect &&
	stall-budget -w from-rows.json "$DATA/rows-table.tsv" && test_cmp expect from-rows.json &&
	stall-table "$DATA/rows-table.tsv" >table.tsv &&
	stall-budget -w from-tsv.json table.tsv && test_cmp expect from-tsv.json &&
	stall-budget -w from-json.json from-rows.json && test_cmp expect from-json.json
'

test_expect_success 'a table cut by --top keeps its totals and says so' '
	stall-table --top 1 --json "$DATA/rows-table.tsv" >expect &&
	stall-table --top 1 "$DATA/rows-table.tsv" >top.tsv &&
	stall-budget -w top.json top.tsv && test_cmp expect top.json
'

# bad_tsv NAME SED-SCRIPT MESSAGE: table.tsv edited by SED-SCRIPT fails with MESSAGE
bad_tsv() {
	sed "$2" table.tsv >"$1" &&
	test_expect_code 2 stall-budget -w out.json "$1" >out 2>err &&
	echo "stall-budget: $1$3" >expect &&
	test_cmp expect err
}

test_expect_success 'a TSV table that does not add up: one line, exit 2' '
	bad_tsv t1.tsv "s/^k_a	-	2	210	52.50	wave_start	210/k_a	-	2	210	52.50	wave_start	200/" \
	    ":13: the causes add up to 200, not to the 210 cycles" &&
	bad_tsv t2.tsv "s/^k_a	-	2	210/k_a	-	2	211/; s/	211	52.50	wave_start	210/	211	52.50	wave_start	211/" \
	    ": kernel '"'"'k_a'"'"': its rows, TOTAL row and '"'"'##stall-table kernel'"'"' line do not agree" &&
	bad_tsv t3.tsv "/^k_b	TOTAL/d" ": kernel '"'"'k_b'"'"' has no TOTAL row" &&
	bad_tsv t4.tsv "/^##stall-table	kernel	k_b/d" ": kernel '"'"'k_b'"'"' has no '"'"'##stall-table kernel'"'"' line" &&
	bad_tsv t5.tsv "s/	smem	0	0	110/	tea	0	0	110/" ":8: cause: unknown cause '"'"'tea'"'"'" &&
	bad_tsv t6.tsv "8p"  ":9: kernel '"'"'k_a'"'"' pc 0x104: a second row" &&
	bad_tsv t7.tsv "s/waves	2/waves	two/" ":5: kernel '"'"'k_a'"'"': waves '"'"'two'"'"' is not a number" &&
	bad_tsv t9.tsv "/^k_a	-	2	210	/p" ":14: kernel '"'"'k_a'"'"': a second launch row" &&
	bad_tsv t10.tsv "s/	(drain)	0	0	0	drain\$/	(drain)	0	0	0	dram/" ":14: row: '"'"'dram'"'"' is none of inst, launch, drain, total" &&
	bad_tsv t8.tsv "s/^k_b	0x200	1/k_b	0x200	0/" ":16: hits: 0: a row of nothing"
'

# bad_json NAME TEXT MESSAGE
bad_json() {
	printf "%s" "$2" >"$1" &&
	test_expect_code 2 stall-budget -w out.json "$1" >out 2>err &&
	echo "stall-budget: $1: $3" >expect &&
	test_cmp expect err
}

test_expect_success 'JSON that is not JSON, or not a table: one line, exit 2' '
	bad_json j1.json "{\"version\": 1," "line 1: an object member without a name" &&
	bad_json j2.json "{\"version\": 01}" "line 1: a number with a leading zero" &&
	bad_json j3.json "{\"version\": 1} x" "line 1: text after the value" &&
	bad_json j4.json "{\"a\": \"\\ud800\"}" "line 1: a lone surrogate in a \\u escape" &&
	bad_json j5.json "{\"a\": \"\\u0000\"}" "line 1: \\u0000 in a string" &&
	bad_json j6.json "{\"a\": \"\\q\"}" "line 1: unknown escape '"'"'\\q'"'"' in a string" &&
	bad_json j7.json "{\"version\": 2}" "line 1: not a stall table of version 1" &&
	bad_json j8.json "{\"version\": 1, \"view\": \"cause\", \"top\": 0}" "line 1: \"kernels\" is missing or not an array" &&
	bad_json j9.json "{\"version\": 1e999}" "line 1: '"'"'1e999'"'"' is not a number" &&
	awk "BEGIN { for (i = 0; i < 100; i++) printf \"[\" }" >deep.txt &&
	bad_json j10.json "{\"a\": $(cat deep.txt)" "line 1: nested deeper than 64" &&
	bad_json j11.json "{
\"version\": 1, \"view\": \"cause\", \"top\": 0, \"kernels\": [
{\"kernel\": \"k\", \"cycles\": 5, \"waves\": 1, \"hits\": 1, \"untraced_waves\": 0,
 \"untraced_cycles\": 0, \"cause\": \"mem\", \"causes\": {\"mem\": 4}, \"rows\": []}]}" \
	    "line 3: the causes do not add up to the cycles" &&
	bad_json j12.json "{\"version\": 1, \"view\": \"cause\", \"top\": 0, \"kernels\": [
{\"kernel\": \"k\", \"cycles\": 5, \"waves\": 1, \"hits\": 1, \"untraced_waves\": 0,
 \"untraced_cycles\": 0, \"cause\": \"mem\", \"causes\": {\"mem\": 5}, \"rows\": [
 {\"pc\": \"0x0\", \"hits\": 1, \"cycles\": 5, \"cause\": \"nap\", \"causes\": {\"mem\": 5}, \"inst\": \"s_nop 0\"}]}]}" \
	    "line 4: unknown cause nap" &&
	printf "{\"version\": 1, \"view\": \"cause\", \"top\": 0, \"kernels\": [{\"kernel\": \"k\0\"}]}" >j13.json &&
	test_expect_code 2 stall-budget -w out.json j13.json >out 2>err &&
	echo "stall-budget: j13.json: line 1: a NUL byte: not a text file" >expect && test_cmp expect err
'

test_expect_success 'JSON strings: escapes and UTF-8 come back as written' '
	printf "{\"version\": 1, \"view\": \"cause\", \"top\": 0, \"kernels\": [
{\"kernel\": \"k\\\\u00e9\\\\ud83d\\\\ude00\\\\t\\\\\\\\\", \"cycles\": 5, \"waves\": 1, \"hits\": 1, \"untraced_waves\": 0, \"untraced_cycles\": 0, \"cause\": \"mem\", \"causes\": {\"mem\": 5}, \"rows\": [
    {\"pc\": \"0x0\", \"hits\": 1, \"cycles\": 5, \"pct\": 100.00, \"cause\": \"mem\", \"causes\": {\"mem\": 5}, \"inst\": \"s_nop 0\"}]}]}\n" >u.json &&
	stall-budget -w u2.json u.json &&
	grep -o "\"kernel\": \"[^,]*," u2.json >actual &&
	printf "\"kernel\": \"k\303\251\360\237\230\200\\\\t\\\\\\\\\",\n" >expect &&
	test_cmp expect actual
'

test_done
