#!/bin/sh
# t0486-occupancy-simds: stall --occupancy counts the waves in flight on every SIMD of a
# buffer from its WAVE_START and WAVE_END tokens, not only the traced SIMD's.  The trace is
# fixtures/demo's first buffer (its waves on SA0 WGP0 SIMD 0 and 1) with waves added by
# hand on four more SIMDs, encoded by sqtt-encode, so every count is known:
#   SIMD 2: slot 0 200-400, slot 1 250-550, slot 0 again 400-600 (an end and a start in
#           one cycle: no change, no line)
#   SIMD 3: slot 4 ends at 300 with no start: in flight from the buffer's first token (0)
#   WGP 1 SIMD 0: slots 2 and 3 start at 120; slot 2 ends at 700, slot 3 never
#   SA 1 SIMD 1: slot 0 130-131
. "$(dirname "$0")/lib.sh"
CHROMIUM=$(command -v chromium || command -v chromium-browser || echo chromium)

test_expect_success 'the trace: demo'"'"'s buffer 0 and the added waves' '
	sqtt-dump -e 0 "$TOP/fixtures/demo" > demo.packets &&
	tok() {	# tok TIME TYPE SLOT SIMD WGP SA
		printf "0\t0\t-\t%s\t%s\t%s\t%s\t%s\t%s\t-\t-\n" "$@"
	} &&
	{
		tok 200 WAVE_START 0 2 0 0 && tok 250 WAVE_START 1 2 0 0 &&
		tok 400 WAVE_END 0 2 0 0 && tok 400 WAVE_START 0 2 0 0 &&
		tok 550 WAVE_END 1 2 0 0 && tok 600 WAVE_END 0 2 0 0 &&
		tok 300 WAVE_END 4 3 0 0 &&
		tok 120 WAVE_START 2 0 1 0 && tok 120 WAVE_START 3 0 1 0 &&
		tok 700 WAVE_END 2 0 1 0 &&
		tok 130 WAVE_START 0 1 0 1 && tok 131 WAVE_END 0 1 0 1
	} > added &&
	{
		grep "^#" demo.packets &&
		{ grep -v "^#" demo.packets | cut -f1-2,4- | sed "s/	/	-	/2" && cat added; } |
		    sort -s -t "	" -k4,4n
	} > many.packets &&
	sqtt-encode -d many many.packets &&
	sqtt-dump many | grep -c "WAVE_" > n && echo 22 > expect && test_cmp expect n
'

test_expect_success 'stall --occupancy: every SIMD, a line at every change' '
	stall --occupancy many > actual 2> err &&
	test_cmp /dev/null err &&
	printf "%s\n" "#event	se	kernel	sa	wgp	simd	time	waves" \
	    "0	0	demo	0	0	0	100	1" "0	0	demo	0	0	0	104	2" \
	    "0	0	demo	0	0	0	900	3" "0	0	demo	0	0	0	2961	2" \
	    "0	0	demo	0	0	0	2968	1" "0	0	demo	0	0	0	2969	0" \
	    "0	0	demo	0	0	1	102	1" "0	0	demo	0	0	1	106	2" \
	    "0	0	demo	0	0	1	2903	1" "0	0	demo	0	0	1	2958	0" \
	    "0	0	demo	0	0	2	200	1" "0	0	demo	0	0	2	250	2" \
	    "0	0	demo	0	0	2	550	1" "0	0	demo	0	0	2	600	0" \
	    "0	0	demo	0	0	3	0	1" "0	0	demo	0	0	3	300	0" \
	    "0	0	demo	0	1	0	120	2" "0	0	demo	0	1	0	700	1" \
	    "0	0	demo	1	0	1	130	1" "0	0	demo	1	0	1	131	0" > table &&
	test_cmp table actual
'

test_expect_success 'stall --occupancy --pretty: the summary of SIMD 2' '
	stall --occupancy --pretty many > out &&
	grep "SIMD2," out > actual &&
	echo "event 0 SE0 SA0 WGP0 SIMD2, kernel demo: at most 2 waves at once, 1.75 on average over cycles 200 to 600" > expect &&
	test_cmp expect actual
'

test_expect_success 'stall --occupancy: -k chooses the buffers; no table beside others' '
	stall --occupancy -k demo many > k.out && test_cmp table k.out &&
	stall --occupancy "$TOP/fixtures/demo" > both &&
	test "$(cut -f1 both | sort -u | tr "\n" " ")" = "#event 0 1 " &&
	test_expect_code 2 stall --occupancy --rows many > out 2> err &&
	test_one_line_error stall err &&
	test_expect_code 2 stall --occupancy -k nosuch many > out 2> err &&
	test_one_line_error stall err
'

test_expect_success 'stall --html: the JSON of the page holds every SIMD'"'"'s changes' '
	stall --html page.html many > /dev/null &&
	grep -c "{\"sa\": [0-9]*, \"wgp\": [0-9]*, \"simd\": [0-9]*, \"cut\": false, \"occupancy\": \[" page.html > n &&
	echo 6 > expect && test_cmp expect n &&
	grep -q "{\"sa\": 0, \"wgp\": 0, \"simd\": 2, \"cut\": false, \"occupancy\": \[100,1,150,2,450,1,500,0\]}" page.html
'

test_expect_success CHROMIUM 'the page: a band per SIMD, labelled with the most in flight' '
	cat > probe.js <<-\EOF &&
	(function () {
		const out = [];
		for (const d of document.querySelectorAll("#labels .simd"))
			out.push(d.dataset.simd + " " + d.dataset.most);
		const pre = document.createElement("pre");
		pre.id = "probe";
		pre.textContent = out.join("\n");
		document.body.appendChild(pre);
	})();
	EOF
	page_probe page.html probe.js &&
	printf "0/0/0 3\n0/0/1 2\n0/0/2 2\n0/0/3 1\n0/1/0 2\n1/0/1 1\n" > expect &&
	test_cmp expect probe
'

test_done
