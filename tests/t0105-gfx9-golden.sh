#!/bin/sh
# t0105-gfx9-golden: the gfx9 (CDNA, gfx950) token decoder (libcommon/trace/gfx9, through
# build/gfx9_test) reproduces AMD's gfx9 reader on every real gfx950 capture, token for
# token: offsets, times (deltas x 4, the TIME_RESET re-base), types, fields and bits.
. "$(dirname "$0")/lib.sh"

G9="$TOP/build/gfx9_test"
CDNA="$SHARED/fixtures/tinygrad-gfx950"
GOLDEN9="$SHARED/golden-gfx950"

for f in "$CDNA"/*.pkl; do
	[ -e "$f" ] || continue
	b=$(basename "$f" .pkl)
	zcat "$GOLDEN9/$b.packets.tsv.gz" 2>/dev/null | grep -qv '^#' || continue
	test_expect_success SHARED "tokens of $b equal AMD's gfx9 reader" "
		'$G9' '$f' >actual.$b &&
		zcat '$GOLDEN9/$b.packets.tsv.gz' | grep -v '^#' >expect.$b &&
		test_cmp expect.$b actual.$b
	"
	test_expect_success SHARED "sqtt-dump $b: the same tokens, as the packet stream" "
		sqtt-dump '$f' >dump.$b &&
		grep -v '^##' dump.$b >actual.$b &&
		zcat '$GOLDEN9/$b.packets.tsv.gz' >expect.$b &&
		test_cmp expect.$b actual.$b
	"
done

test_expect_success SHARED 'a capture with no SQTT event: one line, exit 2' '
	f=$CDNA/20260306_profile_ops_run_0_739068d.pkl &&
	test_expect_code 2 "$G9" "$f" >out 2>err &&
	test_cmp /dev/null out &&
	echo "gfx9_test: $(realpath "$f"): no SQTT events in the capture (was it recorded with VIZ=-2 and SQTT on?)" >expect &&
	test_cmp expect err
'

# By construction: the buffer's first word, a TIME (delta 1: 4); a TIME_RESET (delta 255:
# 1024) whose TIME comes one token later (value 1000, delta bit set: consumed by the
# re-base, so neither its delta nor itself counts): base = 1000 - 1024 + 4, the clock
# (1000 - base) & ~3 = 1020; SURF_SYNC there; INST smem_wr (delta 1: 1024); then a
# WAVE_START cut by the end, which is no token.
test_expect_success 'time by construction: deltas x 4, the re-base, the cut token' '
	printf "\021\200\017\000\000\000\000\000\360\057\000\140\021\000\350\003\000\000\000\000\032\200\003\000" >raw.bin &&
	"$G9" -r raw.bin >actual &&
	printf "0\t0\t20\t1020\tMISC\t-\t-\t-\t0\tsurf_sync\t0x6000\n" >expect &&
	printf "0\t0\t40\t1024\tINST\t0\t0\t-\t-\tsmem_wr\t0x801a\n" >>expect &&
	test_cmp expect actual
'

test_done
