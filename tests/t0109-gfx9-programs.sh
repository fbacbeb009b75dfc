#!/bin/sh
# t0109-gfx9-programs: every program on the real gfx950 captures as on gfx11: stall's
# rows are the pipeline's (sqtt-dump | sqtt-walk | stall-attr), cycles conserved (the
# traced waves' costs add up to AMD's walk's lifetimes, end - begin of each wave; the
# waves of other CUs, in every buffer, to their WAVE_END - WAVE_START in AMD's tokens, as
# untraced rows), stall-table, stall-annotate, stall-diff,
# stall-budget, --html, --trace-json and --occupancy.
. "$(dirname "$0")/lib.sh"

CDNA="$SHARED/fixtures/tinygrad-gfx950"
GOLDEN9="$SHARED/golden-gfx950"
GEMM=20260120_profile_gemm_run_0_6431be7

# untraced.awk: from AMD's tokens, the lifetimes of the waves off the traced CU (CU 0 of
# SH 0), summed, and how many
cat > untraced.awk <<\EOF
$8 == 0 && $9 == 0 { next }
$5 == "WAVE_START" { s[$1 " " $6 " " $7 " " $8 " " $9] = $4 }
$5 == "WAVE_END" { k = $1 " " $6 " " $7 " " $8 " " $9; if (k in s) { t += $4 - s[k]; n++; delete s[k] } }
END { print t + 0, n + 0 }
EOF

for b in $GEMM 20260120_profile_plus_run_0_c6e491d 20260315_profile_gemm_run_0_a34275a \
    20260315_profile_empty_run_0_a5225b0; do
	test_expect_success SHARED "$b: stall's rows are the pipeline's, cycles conserved" "
		stall --rows '$CDNA/$b.pkl' > rows.$b &&
		sqtt-dump '$CDNA/$b.pkl' | sqtt-walk 2> /dev/null | stall-attr > piped &&
		test_cmp piped rows.$b &&
		zcat '$GOLDEN9/$b.amd.tsv.gz' |
		    awk -F'\t' 'NR > 1 { k = \$1 \" \" \$3 \" \" \$4; if (!(k in s)) { s[k] = 1; t += \$5 - \$4 } } END { print t + 0 }' > expect &&
		awk -F'\t' '!/^#/ && \$11 != \"untraced\" { t += \$13 } END { print t + 0 }' rows.$b > actual &&
		test_cmp expect actual &&
		zcat '$GOLDEN9/$b.packets.tsv.gz' | awk -F'\t' -f untraced.awk > expect &&
		awk -F'\t' '!/^#/ && \$4 >= 2147483648 { t += \$13; n++ } END { print t + 0, n + 0 }' rows.$b > actual &&
		test_cmp expect actual
	"
done

test_expect_success SHARED 'the figures: traced and untraced cycles of each capture' '
	for b in $GEMM 20260120_profile_plus_run_0_c6e491d 20260315_profile_gemm_run_0_a34275a \
	    20260315_profile_empty_run_0_a5225b0; do
		awk -F"\t" -v b=$b "!/^#/ { n++; c[\$11 == \"untraced\"] += \$13 } END { print b, n, c[0] + 0, c[1] + 0 }" rows.$b || return 1
	done > actual &&
	cat > expect <<-EOF &&
	$GEMM 2831 90440 243544
	20260120_profile_plus_run_0_c6e491d 11 13296 0
	20260315_profile_gemm_run_0_a34275a 1196 15092 3706628
	20260315_profile_empty_run_0_a5225b0 1 0 1072
	EOF
	test_cmp expect actual
'

test_expect_success SHARED 'a capture whose traced CU had no wave: its wave on CU 4 an untraced row, exit 0' '
	grep -v "^#" rows.20260315_profile_empty_run_0_a5225b0 | cut -f1,4,6-11 > actual &&
	printf "2\t2147483648\t0x1600\t486668\t1072\tWAVE_END\t(wave on another unit, not instruction-traced)\tuntraced\n" > expect &&
	test_cmp expect actual &&
	stall --untraced --plain "$CDNA/20260315_profile_empty_run_0_a5225b0.pkl" | cut -f1-6 > actual &&
	printf "kernel\tpc\thits\tcycles\tpct\tcause\nE\t0x1600\t1\t1072\t100.00\tuntraced\n" > expect &&
	test_cmp expect actual
'

test_expect_success SHARED 'stall-table: the table stall writes, per kernel cycles of the traced waves' '
	stall-table --plain -n 3 rows.$GEMM > table.rows &&
	stall --plain -n 3 "$CDNA/$GEMM.pkl" > table.stall &&
	test_cmp table.rows table.stall &&
	stall-table rows.$GEMM | grep "^##stall-table	kernel" | cut -f3-7 > actual &&
	printf "%s\tcycles\t%s\twaves\t%s\n" r_2_8_16_4_4_16_4 60616 2 E_32_32_4 20512 1 E_8_8_16_4 9312 2 > expect &&
	test_cmp expect actual
'

test_expect_success SHARED 'stall-annotate: loops and waits, from the rows and from the capture' '
	stall-annotate --loops rows.$GEMM > loops &&
	grep -v "^#" loops > actual &&
	printf "r_2_8_16_4_4_16_4\t0x17ac\t0x191c\t83\t2\t32\t16\t16\t54428\t89.79\t1700.88\tmem\t-\n" > expect &&
	test_cmp expect actual &&
	stall-annotate --loops -k r_2_8_16_4_4_16_4 "$CDNA/$GEMM.pkl" | grep -v "^#" > actual &&
	test_cmp expect actual &&
	stall-annotate --waits rows.$GEMM | grep -c "	s_load_\|	global_load_" > n &&
	echo 12 > expect && test_cmp expect n
'

test_expect_success SHARED 'stall-annotate --hints: no VOPD pair on CDNA, which has no v_dual form' '
	{ stall-annotate --hints --hint-min 0 "$CDNA/$GEMM.pkl" &&
	  stall-annotate --hints --hint-min 0 "$CDNA/20260315_profile_gemm_run_0_a34275a.pkl"; } > hints &&
	awk -F"\t" "!/^#/ { print \$2 }" hints | sort | uniq -c | sed "s/^ *//" > actual &&
	echo "5 latency" > expect && test_cmp expect actual
'

test_expect_success SHARED 'stall-diff and stall-budget: cycles a wave, exit 0 and 1' '
	stall-diff "$CDNA/$GEMM.pkl" "$CDNA/$GEMM.pkl" > diff &&
	grep "^##stall-diff	kernel	r_2_8_16_4_4_16_4" diff | cut -f5-10 > actual &&
	printf "waves\t2\t2\tcycles\t60616\t60616\n" > expect && test_cmp expect actual &&
	echo "r_2_8_16_4_4_16_4 cycles <= 30308" > ok.rules && stall-budget ok.rules rows.$GEMM > /dev/null &&
	echo "r_2_8_16_4_4_16_4 cycles <= 30307" > over.rules &&
	test_expect_code 1 stall-budget over.rules rows.$GEMM > /dev/null 2>&1
'

test_expect_success SHARED 'stall --html and --trace-json: a bar and an event per traced row' '
	stall --html page.html --trace-json trace.json "$CDNA/$GEMM.pkl" > /dev/null &&
	grep -q "r_2_8_16_4_4_16_4" page.html &&
	grep -o "\"ph\": *\"X\"" trace.json | wc -l | tr -d " " > actual &&
	echo 2813 > expect && test_cmp expect actual
'

test_expect_success SHARED 'stall --occupancy: every SIMD of the buffers from their wave starts and ends' '
	stall --occupancy "$CDNA/$GEMM.pkl" > occ &&
	sed -n "2,3p" occ > actual &&
	printf "0\t0\tE_32_32_4\t0\t0\t0\t779152\t1\n0\t0\tE_32_32_4\t0\t0\t0\t799664\t0\n" > expect &&
	test_cmp expect actual &&
	grep -vc "^#" occ > n && echo 104 > expect && test_cmp expect n
'

test_done
