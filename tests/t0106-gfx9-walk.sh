#!/bin/sh
# t0106-gfx9-walk: the gfx9 (CDNA, gfx950) walk (libcommon/analysis/slotwalk, through
# build/gfx9walk_test) against AMD's decoder's walk (golden-gfx950/NAME.amd.tsv.gz) on
# every real gfx950 capture: the same waves (event, slot, begin, end), the same records
# in the same order, each at the same pc and issue time, with the same stall, duration
# (stall + issue: AMD's issue phase, its counter starting at 15 in every buffer; a
# message from the record before to 4 cycles after its ISSUE) and category.
. "$(dirname "$0")/lib.sh"

G9W="$TOP/build/gfx9walk_test"
CDNA="$SHARED/fixtures/tinygrad-gfx950"
GOLDEN9="$SHARED/golden-gfx950"

for f in "$CDNA"/*.pkl; do
	[ -e "$f" ] || continue
	b=$(basename "$f" .pkl)
	[ "$b" = 20260306_profile_ops_run_0_739068d ] && continue
	test_expect_success SHARED "$b: every wave and record at AMD's pc and issue time" "
		'$G9W' '$f' >walk.$b &&
		zcat '$GOLDEN9/$b.amd.tsv.gz' >amd.$b &&
		cut -f1-7 amd.$b >expect &&
		cut -f1-7 walk.$b >actual &&
		test_cmp expect actual
	"
	test_expect_success SHARED "$b: every record's stall, duration and category as AMD's" "
		test_cmp amd.$b walk.$b
	"
done

test_expect_success SHARED 'the walked records: counts per capture' '
	zcat "$GOLDEN9/20260120_profile_gemm_run_0_6431be7.amd.tsv.gz" | grep -vc "^#" >n &&
	echo 2808 >expect && test_cmp expect n &&
	grep -vc "^#" walk.20260120_profile_gemm_run_0_6431be7 >n && test_cmp expect n &&
	grep -vc "^#" walk.20260315_profile_gemm_run_0_a34275a >n &&
	echo 232 >expect && test_cmp expect n &&
	grep -vc "^#" walk.20260120_profile_plus_run_0_c6e491d >n &&
	echo 10 >expect && test_cmp expect n &&
	test_expect_code 1 grep -vc "^#" walk.20260315_profile_empty_run_0_a5225b0 >n &&
	echo 0 >expect && test_cmp expect n
'

test_expect_success SHARED 'a capture with no SQTT event: one line, exit 2' '
	f=$CDNA/20260306_profile_ops_run_0_739068d.pkl &&
	test_expect_code 2 "$G9W" "$f" >out 2>err &&
	test_cmp /dev/null out &&
	echo "gfx9walk_test: $(realpath "$f"): no SQTT events in the capture (was it recorded with VIZ=-2 and SQTT on?)" >expect &&
	test_cmp expect err
'

test_done
