#!/bin/sh
# t0485: stall-table --occupancy, the waves in flight over time on each traced SIMD, from
# each wave's WAVE_START (its first row's time minus delta) to its WAVE_END; and the page,
# which draws it in each group's band, writes instructions on bars that fit them, and
# outlines the bars of a table row clicked.
. "$(dirname "$0")/lib.sh"
tabs() { tr '|' '\t'; }
GEMM="$FIXTURES/20260202_profile_gemm_run_0_ccf477c.pkl"
CHROMIUM=$(command -v chromium || command -v chromium-browser || echo chromium)

test_expect_success 'three waves, by construction: a slot freed and taken in one cycle is no third wave' '
	tabs >rows.tsv <<\EOF &&
#event|se|kernel|wave|slot|pc|time|delta|token|inst|class|dep|cost|cause
0|0|k|1|1|0x100|30|10|VALU_INST|v_a|valu|-|10|wave_start
0|0|k|0|0|0x100|50|50|VALU_INST|v_a|valu|-|50|wave_start
0|0|k|1|1|0x104|60|30|WAVE_END|s_endpgm|endpgm|-|30|drain
0|0|k|2|1|0x100|70|10|VALU_INST|v_a|valu|-|10|wave_start
0|0|k|2|1|0x104|80|10|WAVE_END|s_endpgm|endpgm|-|10|drain
0|0|k|0|0|0x104|100|50|WAVE_END|s_endpgm|endpgm|-|50|drain
1|1|k|0|0|0x104|100|90|WAVE_END|(wave not instruction-traced)|untraced|-|90|untraced
EOF
	stall-table --occupancy rows.tsv >actual &&
	tabs >expect <<\EOF &&
#event|se|kernel|time|waves
0|0|k|0|1
0|0|k|20|2
0|0|k|60|2
0|0|k|80|1
0|0|k|100|0
EOF
	test_cmp expect actual &&
	stall-table --occupancy --pretty rows.tsv | head -n 1 >summary &&
	echo " SE0 (event 0), kernel k: 3 waves, at most 2 at once, 1.60 on average over cycles 0 to 100" >expect &&
	test_cmp expect summary
'

test_expect_success 'trouble: not with --json; no wave ended: one line, exit 2' '
	test_expect_code 2 stall-table --occupancy --json rows.tsv >out 2>err &&
	test_one_line_error stall-table err &&
	head -n 2 rows.tsv >open.tsv &&
	test_expect_code 2 stall-table --occupancy open.tsv >out 2>err &&
	echo "stall-table: open.tsv: no wave ended: no occupancy to show" >expect &&
	test_cmp expect err
'

test_expect_success SHARED '20260202 gemm: every wave counted once, at most 16 on the SIMD' '
	stall --rows "$GEMM" >g.tsv &&
	stall-table --occupancy g.tsv >occ.tsv &&
	awk -F"\t" "!/^#/ && \$9 == \"WAVE_END\" && \$14 != \"untraced\" { n[\$1]++ } END { for (e in n) print e, n[e] }" g.tsv | sort -n >expect &&
	awk -F"\t" "!/^#/ { if (\$5 > p[\$1]) up[\$1] += \$5 - p[\$1]; p[\$1] = \$5; if (\$5 > m) m = \$5 }
		END { for (e in up) print e, up[e]; print \"max\", m > \"max\" }" occ.tsv | sort -n >actual &&
	test_cmp expect actual &&
	echo "max 16" >expect.max && test_cmp expect.max max &&
	awk -F"\t" "!/^#/ { last[\$1] = \$5 } END { for (e in last) if (last[e] != 0) exit 1 }" occ.tsv
'

test_expect_success SHARED,CHROMIUM 'the page: occupancy bands, text on bars, a table row outlines its bars' '
	stall --html g.html -k E_8_8_16_4 "$GEMM" >/dev/null &&
	cat >probe.js <<-\EOF &&
	(function () {
		const out = [];
		const tl = document.getElementById("tl");
		const g = document.querySelector("#labels .group");
		out.push("most " + g.dataset.most);
		window.stallTimeline.view(0, 400);
		out.push("texts " + (Number(tl.dataset.texts) > 0 ? "some" : "none"));
		out.push("marked " + tl.dataset.marked);
		const row = Array.from(document.querySelectorAll("#insts tbody tr"))
			.find(r => r.cells[0].textContent === "0x168c");
		row.click();
		window.stallTimeline.view(0, 1e9);
		out.push("marked " + tl.dataset.marked + " " + (row.classList.contains("picked") ? "picked" : "-"));
		row.click();
		out.push("marked " + tl.dataset.marked);
		document.querySelector("#insts tfoot tr[data-row=launch]").click();
		out.push("launch " + tl.dataset.marked);
		const pre = document.createElement("pre");
		pre.id = "probe";
		pre.textContent = out.join("\n");
		document.body.appendChild(pre);
	})();
	EOF
	page_probe g.html probe.js &&
	printf "most 16\ntexts some\nmarked 0\nmarked 16 picked\nmarked 0\nlaunch 16\n" >expect &&
	test_cmp expect probe
'

test_done
