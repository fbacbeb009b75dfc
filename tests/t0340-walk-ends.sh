#!/bin/sh
# The ends of streams and waves: a stream cut at every byte gives every complete token and
# fails only for a token cut in the middle; a wave whose WAVE_END never came is named.
. "$(dirname "$0")/lib.sh"

# tokens FILE: "nib type raw" of every token a dump printed, '#' lines left out
tokens() {
	awk -F'\t' '!/^#/ { print $3, $5, $11 }' "$1"
}

test_expect_success 'an authored stream: encode event 0 of the demo trace' '
	(cd "$TOP" && sqtt-encode -e 0 -o "$T_DIR/demo0.att" fixtures/traces/demo.packets.tsv) &&
	sqtt-dump --raw -a demo0.att > full.tsv &&
	tokens full.tsv > full &&
	test "$(wc -l < full)" -gt 50
'

# For every length n: the tokens that end within n bytes are printed, in order, and the
# exit status is 2 exactly when a token straddles byte n and n is not a whole number of
# the 32-byte lines hardware writes.
test_expect_success 'cut at every byte: complete tokens printed; exit 2 only for a token cut in the middle' '
	size=$(wc -c < demo0.att) && n=1 && bad=0 && errs=0 &&
	awk -F"\t" -v OFS="\t" "
		BEGIN { split(\"NOP 4 TIME 8 REG 64 IMM_ONE 12 ALU_EXEC 8 VMEM_EXEC 8 INST 20 VALU_INST 12 IMMEDIATE 24 WAVE_READY 24 WAVE_START 32 WAVE_START_EXT 48 WAVE_ALLOC 20 WAVE_END 20 SHADER_DATA 52 SHADER_DATA_SHORT 28 TIMESTAMP 48 HEADER 64 NEW_PC 64 UTIL_COUNTER 48 MISC 24 REG_INIT 64 EVENT 24 EVENT_SYNC 32 UNKNOWN 4\", a, \" \")
			for (i = 1; i < 50; i += 2) bits[a[i]] = a[i + 1] }
		!/^#/ { print \$3, \$3 + bits[\$5] / 4 }" full.tsv > spans &&
	while [ $n -le $size ]; do
		head -c $n demo0.att > cut.att
		sqtt-dump --raw -a cut.att > out 2> err; st=$?
		awk -v end=$((2 * n)) "\$2 <= end { print \$1 }" spans > want.nibs
		tokens out | cut -d" " -f1 > got.nibs
		straddles=$(awk -v end=$((2 * n)) "\$1 < end && \$2 > end" spans | wc -l)
		if [ $straddles -gt 0 ] && [ $((n % 32)) -ne 0 ]; then want_st=2; else want_st=0; fi
		if [ $n -lt 8 ]; then want_st=2; : > want.nibs; fi	# not even a HEADER
		if ! cmp -s want.nibs got.nibs || [ $st != $want_st ]; then
			echo "length $n: exit $st (want $want_st), $(wc -l < got.nibs) tokens (want $(wc -l < want.nibs))"
			bad=$((bad + 1))
		fi
		if [ $st = 2 ]; then
			test_one_line_error sqtt-dump err || bad=$((bad + 1))
			errs=$((errs + 1))
		fi
		n=$((n + 1))
	done &&
	echo "$size lengths, $errs refused" &&
	test $bad = 0 && test $errs -gt 8
'

test_expect_success 'the message of a token cut in the middle names its nibble' '
	head -c 43 demo0.att > cut43.att &&
	test_expect_code 2 sqtt-dump --raw cut43.att > out 2> err &&
	grep -q "^sqtt-dump: .*cut43.att.*: stream cut inside a token at nibble [0-9]* (its length is not a whole number of 32-byte lines)\$" err
'

test_expect_success 'a wave without WAVE_END: a warning names it, its rows are written' '
	grep -v "^0	0	-	2968	WAVE_END	1	0	0	0" "$TOP/fixtures/traces/demo.packets.tsv" > nowe.tsv &&
	test $(wc -l < nowe.tsv) = $(($(wc -l < "$TOP/fixtures/traces/demo.packets.tsv") - 1)) &&
	(cd "$TOP" && sqtt-encode -d "$T_DIR/cap.nowe" "$T_DIR/nowe.tsv") &&
	sqtt-dump cap.nowe > packets &&
	sqtt-walk packets > rows 2> err &&
	grep "warning:" err > warnings &&
	n=$(awk -F"\t" "!/^#/ && \$1 == 0 && \$4 == 1" rows | wc -l) &&
	test $n -gt 5 &&
	echo "sqtt-walk: warning: event 0 wave 1 (slot 1): no WAVE_END before the end of the buffer; its $n rows are written, its end is unknown" > expect &&
	test_cmp expect warnings
'

test_done
