#!/bin/sh
# sqtt-walk walks every real RDNA4 capture as AMD's decoder does
# (../shared/golden-gfx12/*.amd.tsv.gz; tests/lib/amd-walk12.awk models the rules of its
# stitcher for s_barrier_wait and where it loses the pc), at tinygrad's pcs where tinygrad
# maps the capture (AMD and tinygrad walk the traced SIMD only); each wave's deltas add up
# to its lifetime, the other SIMDs' waves too (untraced rows); stall-attr conserves the
# cycles of every wave and stall-table makes a table of every capture with a traced wave.
. "$(dirname "$0")/lib.sh"
need_shared
FIX12="$SHARED/fixtures/tinygrad-gfx12"
GOLD12="$SHARED/golden-gfx12"

for f in "$FIX12"/*.pkl; do
	b=$(basename "$f" .pkl)
	test_expect_success "$b: walked, compared with AMD's decoder" "
		sqtt-dump '$f' > packets.$b &&
		sqtt-walk packets.$b > rows.$b 2> err.$b &&
		zcat '$GOLD12/$b.amd.tsv.gz' > amd.$b &&
		{ awk -f '$TOP/tests/lib/amd-walk12.awk' rows.$b amd.$b > cmp.$b; true; } &&
		sed 's/^/$b /' cmp.$b >> cmp.all
	"
	if [ -f "$GOLD12/$b.walk.tsv" ]; then
		test_expect_success "$b: rows at tinygrad's pcs and times" "
			grep -v '^#' rows.$b | awk -F'\t' -v OFS='\t' '
				BEGIN { print \"#event\", \"se\", \"kernel\", \"wave\", \"pc\", \"time\" }
				\$9 != \"-\" && \$4 < 2147483648 { print \$1, \$2, \$3, \$5, \$6, \$7 }' > actual.$b &&
			test_cmp '$GOLD12/$b.walk.tsv' actual.$b
		"
	fi
	test_expect_success "$b: deltas of every wave add up to WAVE_END - WAVE_START" "
		sqtt-dump --types WAVE_START,WAVE_END,HEADER '$f' > waves.$b &&
		awk -f '$TOP/tests/lib/lifetimes.awk' waves.$b | sort > lifetimes.$b &&
		awk -f '$TOP/tests/lib/wave-sums.awk' rows.$b | sort > sums.$b &&
		test -s lifetimes.$b &&
		test_cmp lifetimes.$b sums.$b
	"
	test_expect_success "$b: stall-attr conserves every wave's cycles, stall-table tables them" "
		stall-attr rows.$b > costs.$b 2> aerr.$b &&
		test_cmp /dev/null aerr.$b &&
		awk -F'\t' '!/^#/ { c[\$1 \" \" \$4] += \$13; d[\$1 \" \" \$4] += \$8 }
			END { for (k in c) if (c[k] != d[k]) { print k, c[k], d[k]; bad = 1 } exit bad }' costs.$b &&
		stall-table --untraced costs.$b > table.$b &&
		grep -c '^[^#]' table.$b > nrows.$b && test \$(cat nrows.$b) -gt 0 &&
		stall --rows '$f' > srows.$b 2> /dev/null &&
		test_cmp costs.$b srows.$b
	"
done

test_expect_success 'the waves AMD walks: 65 in the 10 captures, all matched' '
	grep -c "^20260.* waves " cmp.all > ncap && echo 10 > expect && test_cmp expect ncap &&
	awk "/ waves / { w += \$3; m += \$5 } END { print w, m }" cmp.all > counts &&
	echo "65 65" > expect && test_cmp expect counts
'

# custom_wave_sync (tests/lib/amd-walk12.awk models each rule of AMD's stitcher named here):
# each of its 4 waves issues the 32 instructions 0x100-0x17c with one token each (its
# s_barrier_wait too: the barrier was complete, an IMMEDIATE) and ends at s_endpgm, 0x180.
# AMD takes every such s_barrier_wait as token-less when its look-ahead finds nothing
# against it, so from each on it gives every token to the next instruction: its pcs are
# our rows' shifted one row per wait (16 waits), its last 4 records of each wave are past
# s_endpgm ("raw:0x0", 16), it adds a record of its own for 12 of the 16 waits, and it
# dates one record per wave a cycle after its token, to give its wait record a cycle.
# The tokens say otherwise: each INST barrier_signal is on an s_barrier_signal in our
# rows, in AMD's on s_barrier_signal at 0x110 only, then on the s_nop at 0x134 and 0x158
# and on s_endpgm; and AMD has tokens of a wave left past its s_endpgm.  Each buffer also
# has one wave on the other SIMD of the traced WGP: one untraced row at the entry, 0x100.
test_expect_success 'custom_wave_sync: AMD'"'"'s pcs are ours shifted at each s_barrier_wait it took as token-less' '
	b=20260315_profile_sync_run_0_1f48b90 &&
	echo "waves 4 matched 4 lost_pc 0 records 144 waits 12 shifted 16 moved 4 past_end 16" > expect &&
	test_cmp expect cmp.$b &&
	grep -v "^#" rows.$b | awk -F"\t" "\$9 == \"INST:barrier_signal\" { print \$6, \$10 }" | sort | uniq -c > ours &&
	printf "%7d %s\n" 4 "0x110 s_barrier_signal s0" 4 "0x130 s_barrier_signal s0" \
		4 "0x150 s_barrier_signal s0" 4 "0x170 s_barrier_signal s0" > expect &&
	test_cmp expect ours &&
	grep -v "^#" rows.$b | awk -F"\t" "\$1 < 2 { n[\$1 \" \" \$4]++; if (\$9 == \"WAVE_END\") e = e \" \" \$6 }
		END { for (w in n) print w, n[w]; print \"ends\" e }" | sort > nrows &&
	printf "%s\n" "0 0 33" "0 1 33" "0 2147483648 1" "1 0 33" "1 1 33" "1 2147483648 1" \
		"ends 0x180 0x180 0x100 0x180 0x180 0x100" > expect &&
	test_cmp expect nrows &&
	awk -F"\t" "\$10 == \"MESSAGE\" && \$6 ~ /^0x/ { print \$6 }" amd.$b | sort -u > amsg &&
	printf "%s\n" 0x110 0x134 0x158 0x180 > expect && test_cmp expect amsg &&
	awk -F"\t" "\$6 == \"raw:0x0\"" amd.$b | wc -l > nraw && echo 16 > expect && test_cmp expect nraw
'

test_expect_success 'custom_wave_sync: the one record a wave AMD dates a cycle after its token' '
	b=20260315_profile_sync_run_0_1f48b90 &&
	awk -F"\t" "\$1 == 1 && \$4 == 27865 && \$5 == \"IMM_ONE\" && \$6 == 0" packets.$b > tok &&
	test -s tok &&
	awk -F"\t" "\$1 == 1 && \$3 == 0 && \$7 == 27865" amd.$b > none && test_cmp /dev/null none &&
	awk -F"\t" "\$1 == 1 && \$3 == 0 && \$6 == \"0x160\" { print \$7, \$8, \$9 }" amd.$b > moved &&
	echo "27866 2 2" > expect && test_cmp expect moved &&
	awk -F"\t" "\$1 == 1 && \$5 == 0 && \$6 == \"0x154\" { print \$7, \$9 }" rows.$b > ours &&
	echo "27865 IMM_ONE" > expect && test_cmp expect ours
'

test_expect_success 'gfx12 sync: the token-less s_barrier_wait is charged its wait, not the next instruction' '
	b=20260610_profile_sync_run_0_d8ff4c4 &&
	grep -v "^#" costs.$b | awk -F"\t" "\$6 == \"0x120\" { print \$4, \$9, \$10, \$13, \$14 }" > waits &&
	printf "0 - s_barrier_wait 0xffff 20 barrier\n1 - s_barrier_wait 0xffff 15 barrier\n" > expect &&
	test_cmp expect waits
'

test_expect_success 'discover_ops: past the DS word LLVM cannot read the walk keeps every token' '
	b=20260227_profile_py_run_0_516560d &&
	test_expect_code 1 grep -c "token dropped" err.$b > ndrop &&
	test "$(cat ndrop)" = 0 &&
	grep -v "^#" amd.$b | wc -l > n.amd && grep -v "^#" rows.$b | wc -l > n.rows &&
	test_cmp n.amd n.rows
'

test_done
