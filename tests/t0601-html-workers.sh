#!/bin/sh
# t0601: the page's drawing and the occupancy made by several workers, each drawing its
# own trace buffers, then merged (timeline_merge, occupancy_merge), are those of one
# worker that saw every buffer: by build/timeline_test on rows made to cut lanes and
# merge bars, with answers known by construction, and by stall --threads on the captures.
. "$(dirname "$0")/lib.sh"
TL="$TOP/build/timeline_test"

# rows: rows.tsv, 9 events of two kernels, 2 to 7 waves each, their rows interleaved, of
# eight causes, a fifth of them with a second cause, one cause (lds) only in event 4.
rows() {
	awk -v OFS="\t" 'BEGIN {
		srand(7)
		print "#event", "se", "kernel", "wave", "slot", "pc", "time", "delta", "token", "inst", "cost", "cause", "cost2", "cause2"
		split("mem smem valu_dep issue_wait unexplained fetch exec", cs, " ")
		for (e = 0; e < 9; e++) {
			k = (e % 3 == 2) ? "k_b" : "k_a"
			nw = 2 + (e * 5) % 6
			for (w = 0; w < nw; w++) { n[w] = 3 + int(rand() * 20); t[w] = 100 * w + int(rand() * 50); i[w] = 0 }
			left = nw
			while (left > 0) {
				w = int(rand() * nw); if (i[w] >= n[w]) continue
				d = i[w] == 0 ? 5 + int(rand() * 9) : 1 + int(rand() * 30); t[w] += d
				c = i[w] == 0 ? "wave_start" : cs[1 + int(rand() * 7)]
				if (e == 4 && i[w] == 1) c = "lds"
				c2 = (c != "wave_start" && rand() < 0.2) ? "smem" : "-"; c2c = c2 == "-" ? 0 : int(d / 2)
				tok = i[w] == n[w] - 1 ? "WAVE_END" : "VALU_INST"
				print e, e % 4, k, w, w % 4, sprintf("0x%x", 256 + 4 * (i[w] + e % 2)), t[w], d, tok, "v_op" (i[w] + e % 2) % 11, d, c, c2c, c2
				if (++i[w] == n[w]) left--
			}
		}
	}' > rows.tsv
}

# lanes W N E: E events of W waves of N rows each, one after another, every row 1 cycle.
lanes() {
	awk -v OFS="\t" -v W="$1" -v N="$2" -v E="$3" 'BEGIN {
		print "#event", "se", "kernel", "wave", "slot", "pc", "time", "delta", "token", "inst", "cost", "cause"
		for (e = 0; e < E; e++)
			for (w = 0; w < W; w++)
				for (i = 0; i < N; i++)
					print e, 0, "k", w, w, sprintf("0x%x", 256 + 4 * i), w * N + i + 1, 1, i == N - 1 ? "WAVE_END" : "VALU_INST", "v_nop", 1, i ? "mem" : "wave_start"
	}'
}

test_expect_success 'merged drawings are the drawing of one: every cut of lanes and bars, 1 to 9 parts' '
	rows &&
	for lim in "3 40" "1024 200000" "2 2" "1 7" "4 13"; do
		"$TL" $lim 1 rows.tsv > one || return 1
		for p in 2 3 4 9; do
			"$TL" $lim $p rows.tsv > merged &&
			test_cmp one merged || return 1
		done
	done &&
	"$TL" 3 40 1 rows.tsv > one &&
	grep -q "\"rows_per_bar\": 16" one &&
	grep -q "\"causes\": \[\"wave_start\", \"issue_wait\", \"smem\", \"exec\", \"fetch\", \"valu_dep\", \"unexplained\", \"mem\", \"lds\"\]" one
'

# 3 x 3 rows of 2 events in 9 bars: 18 at one row a bar, 12 at two (each wave's three
# rows in two bars), 6 at four: a merge of two halves of 9 bars each must double twice.
test_expect_success 'the rows of a bar: the least power of two that keeps the bars within the limit' '
	lanes 3 8 1 > l.tsv &&
	"$TL" 10 4 1 l.tsv > out &&
	grep -q "\"rows_per_bar\": 8," out &&
	lanes 3 8 2 > l2.tsv &&
	"$TL" 10 6 2 l2.tsv > out &&
	grep -q "\"rows_per_bar\": 8," out &&
	"$TL" 10 24 2 l2.tsv > out &&
	grep -q "\"rows_per_bar\": 2," out &&
	lanes 3 3 2 > l33.tsv &&
	"$TL" 10 9 1 l33.tsv > one &&
	grep -q "\"rows_per_bar\": 4," one &&
	"$TL" 10 9 2 l33.tsv > two &&
	test_cmp one two &&
	lanes 3 4 1 > l3.tsv &&
	"$TL" 10 2 1 l3.tsv > out &&
	grep -q "\"rows_per_bar\": 4," out &&
	grep -c "\"bars\": \[[0-9]*,4,0,0,4,1\]" out > n &&
	echo 3 > expect &&
	test_cmp expect n
'

test_expect_success 'each trace buffer of a kernel draws its first MAX_LANES waves' '
	lanes 3 2 3 > l.tsv &&
	"$TL" 2 100 1 l.tsv > one &&
	grep -q "\"waves\": 9, \"rows\": 18, \"waves_drawn\": 6, \"rows_drawn\": 12" one &&
	"$TL" 2 100 3 l.tsv > three &&
	test_cmp one three
'

test_expect_success SHARED 'stall --html and --occupancy on 2, 3 and 5 workers: the page and the table of one' '
	for f in 20260120_profile_gemm_run_0_e540cad 20260314_profile_gemm_run_0_7379d89 \
	    20260315_profile_sync_run_0_2709f60; do
		stall --threads 1 --tsv --html one.html "$FIXTURES/$f.pkl" > one.tsv &&
		stall --threads 1 --occupancy "$FIXTURES/$f.pkl" > one.occ || return 1
		for n in 2 3 5; do
			stall --threads $n --tsv --html many.html "$FIXTURES/$f.pkl" > many.tsv &&
			stall --threads $n --occupancy "$FIXTURES/$f.pkl" > many.occ &&
			cmp one.html many.html && cmp one.tsv many.tsv &&
			test_cmp one.occ many.occ || return 1
		done
	done &&
	test "$(wc -l < one.occ)" -gt 1000
'

# --trace-json hands its rows out in order: one worker, and the page it draws beside them
# is the page the merged workers draw
test_expect_success SHARED 'stall --html with --trace-json: one worker, the same page' '
	f="$FIXTURES/20260120_profile_gemm_run_0_e540cad.pkl" &&
	stall --threads 3 --tsv --html many.html "$f" > /dev/null &&
	stall --threads 3 --tsv --html both.html --trace-json t3.json "$f" > /dev/null &&
	stall --threads 1 --tsv --trace-json t1.json "$f" > /dev/null &&
	cmp many.html both.html &&
	cmp t1.json t3.json &&
	test "$(wc -c < t1.json)" -gt 100000
'

test_done
