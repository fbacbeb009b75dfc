#!/bin/sh
# stall-table --html in headless Chromium: one lane per wave and one bar per row, as the
# row stream has them; a click on a bar shows that row; the table sorts; a capture too big
# to draw whole says how it was cut down.  Skips where Chromium is not installed.
. "$(dirname "$0")/lib.sh"
need_chromium

types=HEADER,WAVE_START,WAVE_END,INST,VALU_INST,IMM_ONE,IMMEDIATE,NEW_PC

# rows CAPTURE: rows.tsv, the row stream stall(1) makes of CAPTURE.
rows() {
	sqtt-dump --types $types "$1" > packets.tsv &&
	sqtt-walk packets.tsv > walk.tsv &&
	stall-attr walk.tsv > rows.tsv
}

# probe PAGE [KERNEL]: the page with t0600-probe.js run in it, its findings in probe.
probe() {
	page_probe "$1" "$TOP/tests/data/t0600-probe.js" ${2:+"kernel=$2"}
}

# expect_probe ROWS TABLE KERNEL: what the probe must find, from the row stream and the
# table alone: waves, rows and table lines (instructions; the launch and drain lines
# are the table's foot) per kernel; the longest row of KERNEL's first
# wave (lowest event, slot, wave); no note.
expect_probe() {
	awk -F'\t' -v OFS='\t' -v want="$3" '
	FNR == 1 { file++ }
	file == 1 { if (!/^#/ && $NF == "inst") ninst[$1]++; next }
	/^##/ { next }
	/^#/ { sub(/^#/, ""); for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["cause"] == "untraced" { next }
	{
		k = $c["kernel"]; w = $c["event"] SUBSEP $c["wave"]
		if (!((k, w) in seen)) { seen[k, w] = 1; lanes[k]++ }
		nrows[k]++
		if (k != want) next
		e = $c["event"] + 0; s = $c["slot"] + 0; v = $c["wave"] + 0
		if (!have || e < be || (e == be && (s < bs || (s == bs && v < bv)))) {
			have = 1; be = e; bs = s; bv = v; best = -1
		}
		if (e == be && s == bs && v == bv && $c["cost"] + 0 > best) {
			best = $c["cost"] + 0
			line = $c["pc"] OFS $c["inst"] OFS $c["cost"] OFS $c["cause"]
			# a launch or a drain is a bar of its own, no instruction'"'"'s
			if ($c["cause"] == "wave_start" || $c["cause"] == "drain")
				line = "-" OFS ($c["cause"] == "drain" ? "(drain)" : "(launch)") OFS $c["cost"] OFS $c["cause"]
		}
	}
	END {
		for (k in lanes)
			print "kernel", k, lanes[k], nrows[k], nrows[k], "painted", ninst[k] | "sort"
		close("sort")
		print "target", "tl", be, bs, bv
		print "detail", line
		split(line, f, OFS)
		print "tip", "block", f[1] "  " f[2]
		print "zoom", "halved"
		print "pan", "moved"
		print "note", ""
		print "sort", "pc ascending"
	}' "$2" "$1"
}

test_expect_success 'the page has nothing to fetch: no src, href, url() or address' '
	rows "$TOP/fixtures/demo" &&
	stall-table --top 10 --html page.html rows.tsv > table.tsv &&
	! grep -Eni "(src|href)=|url\(|@import|https?:|//[a-z]" page.html
'

test_expect_success 'the demo: a lane per wave, a bar per row, a click shows the row' '
	probe page.html &&
	sort -s -k1,1 probe | awk "/^kernel/" > actual.k &&
	expect_probe rows.tsv table.tsv "$(awk -F"\t" "!/^#/ { print \$1; exit }" table.tsv)" > expect &&
	grep "^kernel" expect > expect.k &&
	test_cmp expect.k actual.k &&
	grep -v "^kernel" expect > expect.rest &&
	grep -v "^kernel" probe > actual.rest &&
	test_cmp expect.rest actual.rest &&
	chromium_run --screenshot="$T_DIR/demo.png" "file://$T_DIR/page.html" > /dev/null &&
	test "$(head -c 8 demo.png | od -An -c | tr -d " ")" = "211PNG\r\n032\n"
'

test_expect_success 'stall --html writes the same page, and every SIMD'"'"'s band (the tokens'"'"')' '
	stall --html driver.html "$TOP/fixtures/demo" > driver.tsv &&
	test "$(grep -c "^  {\"sa\": 0, \"wgp\": 0, \"simd\": [01], " driver.html)" = 2 &&
	perl -0pe "s/, \"simds\": \[(\n  \{[^}]*\},?)*\]//g" driver.html > driver.less &&
	cmp page.html driver.less &&
	cmp table.tsv driver.tsv
'

test_expect_success 'the picker opens on the kernel of #kernel=NAME' '
	stall-table --html two.html "$TOP/tests/data/rows-table.tsv" > two.tsv &&
	probe two.html k_b &&
	expect_probe "$TOP/tests/data/rows-table.tsv" two.tsv k_b > expect &&
	test_cmp expect probe
'

# A page too big to draw whole: 1100 waves of 200 rows in one buffer.  The first 1024
# waves get lanes, and 204800 rows are more than the 200000 bars kept: two rows a bar.
test_expect_success 'a big capture is cut down, and the page says how' '
	awk -v OFS="\t" "BEGIN {
		print \"#event\", \"se\", \"kernel\", \"wave\", \"slot\", \"pc\", \"time\", \"delta\", \"token\", \"inst\", \"class\", \"dep\", \"cost\", \"cause\"
		for (w = 0; w < 1100; w++) {
			t = 10 * w
			for (i = 0; i < 200; i++) {
				d = i == 0 ? 500 : (i % 7 == 0 ? 40 : 1); t += d
				print 0, 0, \"k_big\", w, w % 16, sprintf(\"0x%x\", 256 + 4 * i), t, d, i == 199 ? \"WAVE_END\" : \"VALU_INST\", \"v_nop\", \"valu\", \"-\", d, i == 0 ? \"wave_start\" : (d > 1 ? \"mem\" : \"unexplained\")
			}
		}
	}" > big.tsv &&
	stall-table --html big.html big.tsv > big.table &&
	probe big.html &&
	printf "kernel\tk_big\t1024\t102400\t204800\tpainted\t200\n" > expect &&
	grep "^kernel" probe > actual &&
	test_cmp expect actual &&
	printf "note\tAggregated: each bar stands for up to 2 consecutive rows of its wave (at most 200,000 bars are kept), coloured by its longest row. Drawn: 1,024 of 1,100 waves, the first 1,024 of each trace buffer (204,800 of 220,000 rows); the table and the totals count them all.\n" > expect &&
	grep "^note" probe > actual &&
	test_cmp expect actual
'

test_expect_success SHARED '20260202 gemm: every kernel, then E_8_8_16_4 (16 waves) clicked and shot' '
	rows "$FIXTURES/20260202_profile_gemm_run_0_ccf477c.pkl" &&
	stall-table --top 10 --html gemm.html rows.tsv > gemm.tsv &&
	probe gemm.html E_8_8_16_4 &&
	expect_probe rows.tsv gemm.tsv E_8_8_16_4 > expect &&
	grep "^kernel" probe | sort > actual.k &&
	grep "^kernel" expect > expect.k &&
	test_cmp expect.k actual.k &&
	grep -v "^kernel" expect > expect.rest &&
	grep -v "^kernel" probe > actual.rest &&
	test_cmp expect.rest actual.rest &&
	grep -q "^kernel	E_8_8_16_4	16	" probe &&
	chromium_run --screenshot="$T_DIR/timeline.png" "file://$T_DIR/gemm.html#kernel=E_8_8_16_4" > /dev/null &&
	test "$(head -c 8 timeline.png | od -An -c | tr -d " ")" = "211PNG\r\n032\n" &&
	test "$(wc -c < timeline.png)" -gt 20000
'

# the instructions of stall's bars looked up by its own key (tl_row.key): the same page
test_expect_success SHARED '20260202 gemm: stall --html draws the page stall-table draws from the rows' '
	stall --html gemmd.html "$FIXTURES/20260202_profile_gemm_run_0_ccf477c.pkl" > gemmd.tsv &&
	perl -0pe "s/, \"simds\": \[(\n  \{[^}]*\},?)*\]//g" gemmd.html > gemmd.less &&
	cmp gemm.html gemmd.less
'

test_expect_success PYTHON3 'a wave through 5000 distinct instructions: stall --html draws the page stall-table draws from the rows' '
	# more instructions than the timeline memo has slots: keys share slots
	python3 "$TOP/bench/mkcode.py" elf k5.elf 0 5000 &&
	python3 "$TOP/bench/mkcode.py" trace k5.elf 5000 > k5.tsv &&
	sqtt-encode -d k5 k5.tsv &&
	stall --top 0 --html k5d.html k5 > k5d.tsv &&
	rows k5 &&
	stall-table --top 0 --html k5.html rows.tsv > k5.table &&
	perl -0pe "s/, \"simds\": \[(\n  \{[^}]*\},?)*\]//g" k5d.html > k5d.less &&
	cmp k5.html k5d.less &&
	grep -c "v_add_f32" k5.table > n &&
	echo 4999 > expect.n &&
	test_cmp expect.n n
'

test_expect_success SHARED 'gfx12 (RX 9070) gemm: 16 waves of a kernel, each a lane, each row a bar, a click shows the row' '
	rows "$SHARED/fixtures/tinygrad-gfx12/20260610_profile_gemm_run_0_96202b2.pkl" &&
	stall-table --top 10 --html gfx12.html rows.tsv > gfx12.tsv &&
	k=$(awk -F"\t" "!/^#/ { print \$3; exit }" rows.tsv) &&
	probe gfx12.html "$k" &&
	expect_probe rows.tsv gfx12.tsv "$k" > expect &&
	grep "^kernel" probe | sort > actual.k &&
	grep "^kernel" expect > expect.k &&
	test_cmp expect.k actual.k &&
	grep -v "^kernel" expect > expect.rest &&
	grep -v "^kernel" probe > actual.rest &&
	test_cmp expect.rest actual.rest &&
	grep -q "^kernel	$k	16	" probe
'

test_expect_success 'a --trace-json that cannot be made: exit 2, and no page left behind' '
	test_expect_code 2 stall-table --html ok.html --trace-json nodir/t.json \
	    "$TOP/tests/data/rows-table.tsv" >out 2>err &&
	echo "stall-table: nodir/t.json: No such file or directory" >expect &&
	test_cmp expect err && test_cmp /dev/null out && ! test -e ok.html &&
	test_expect_code 2 stall --html ok.html --trace-json nodir/t.json "$TOP/fixtures/demo" \
	    >out 2>err &&
	echo "stall: nodir/t.json: No such file or directory" >expect &&
	test_cmp expect err && ! test -e ok.html
'

test_done
