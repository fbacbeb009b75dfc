#!/bin/sh
# t0840-annotate-hidden: stall-annotate --hidden: the cycles of each row's wait in which
# other waves of its SIMD issued (hidden) and the rest (exposed), per pc and per kernel,
# against a second computation here in awk; cycles conserved.
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/annotate-lib.sh"

# hidden_awk ATTR: "pc hidden hidden_valu" per pc, computed from the rows the slow way:
# the distinct issue times (of any instruction; of a VALU one) of the event in (previous
# row, this row), a wait moved onto an s_barrier counted for the barrier over the first
# delta - cost cycles
hidden_awk() {
	awk -F'\t' '
		/^#/ { next }
		$11 == "untraced" { next }
		NR == FNR { if ($9 != "WAVE_END") { seen[$1 " " $7] = 1; if ($11 ~ /^valu/) valu[$1 " " $7] = 1 }; next }
		function issued(ev, a, b,   t, n) {	# distinct issue times in (a, b]
			n = 0
			for (t = a + 1; t <= b; t++) if ((ev " " t) in seen) n++
			return n
		}
		function issued_valu(ev, a, b,   t, n) {
			n = 0
			for (t = a + 1; t <= b; t++) if ((ev " " t) in valu) n++
			return n
		}
		{
			a = $7 - $8; cost = $13; delta = $8; w = $1 " " $4
			if (cost < delta && (w in moved)) {
				m = delta - cost; cut = a + m < $7 - 1 ? a + m : $7 - 1
				h = issued($1, a, cut); if (h > m) h = m
				v = issued_valu($1, a, cut); if (v > h) v = h
				hid[moved[w]] += h; hv[moved[w]] += v
				h = issued($1, cut, $7 - 1)
				v = issued_valu($1, cut, $7 - 1)
			} else {
				h = issued($1, a, $7 - 1)
				v = issued_valu($1, a, $7 - 1)
			}
			if (h > cost) h = cost
			if (v > h) v = h
			if (cost > delta) moved[w] = $6
			hid[$6] += h; hv[$6] += v
		}
		END { for (p in hid) print p, hid[p], hv[p] }' "$1" "$1" | sort
}

test_expect_success 'the rows of hot, calm, poll and the demo (which has a barrier)' '
	rows_of hot && rows_of calm && rows_of poll &&
	sqtt-dump "$TOP/fixtures/demo" > demo.packets &&
	sqtt-walk demo.packets > demo.rows &&
	stall-attr demo.rows > demo.attr
'

for k in hot calm poll demo; do
	test_expect_success "$k: hidden (any, VALU) per pc as the slow computation has it" '
		stall-annotate --hidden '"$k"'.attr > out &&
		awk -F"\t" "!/^#/ { print \$2, \$5, \$10 }" out | sort > actual &&
		hidden_awk '"$k"'.attr > expect &&
		test_cmp expect actual
	'
	test_expect_success "$k: hidden plus exposed is the cycles, per pc and per kernel" '
		stall-annotate --hidden '"$k"'.attr > out &&
		awk -F"\t" "!/^#/ && (\$5 + \$6 != \$4 || \$5 < 0 || \$6 < 0 || \$10 > \$5) { print; bad = 1 } END { exit bad }" out &&
		awk -F"\t" "\$1 == \"##kernel\" { print \$4, \$6 + \$8 } !/^#/ { h += \$5 } END { print h }" out > actual &&
		awk -F"\t" "\$1 == \"##kernel\" { print \$6 }" out >> actual.k &&
		c=$(cycles '"$k"'.attr) && h=$(cat actual.k) && printf "%s %s\n%s\n" $c $c $h > expect &&
		rm actual.k && test_cmp expect actual
	'
done

test_expect_success 'hot: the 0x1324 waits, 35 of their 1500 cycles covered by the other wave' '
	stall-annotate --hidden hot.attr > out &&
	grep "	0x1324	" out > actual &&
	printf "hot\t0x1324\t2\t1500\t35\t1465\t2.33\tmem\ts_waitcnt vmcnt(0)\t11\n" > expect &&
	test_cmp expect actual
'

test_done
