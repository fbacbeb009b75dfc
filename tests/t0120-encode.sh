#!/bin/sh
# sqtt-encode is the inverse of sqtt-dump: real buffers come back byte for byte, and a
# trace authored with packed tokens decodes to the authored times and fields.
. "$(dirname "$0")/lib.sh"

# Bits of each token type, for the end of the last token.
BITS='NOP 4 TIME 8 REG 64 IMM_ONE 12 ALU_EXEC 8 VMEM_EXEC 8 INST 20 VALU_INST 12 IMMEDIATE 24 WAVE_READY 24 WAVE_START 32 WAVE_START_EXT 48 WAVE_ALLOC 20 WAVE_END 20 SHADER_DATA 52 SHADER_DATA_SHORT 28 TIMESTAMP 48 HEADER 64 NEW_PC 64 UTIL_COUNTER 48 MISC 24 REG_INIT 64 EVENT 24 EVENT_SYNC 32 UNKNOWN 4'

# same_prefix ORIG ENCODED ENDNIB: the first ENDNIB nibbles of the two files are equal.
same_prefix() {
	n=$(($3 / 2))
	cmp -n "$n" "$1" "$2" || return 1
	if [ $(($3 % 2)) -eq 1 ]; then
		a=$(od -An -tx1 -j"$n" -N1 "$1" | tr -d ' ')
		b=$(od -An -tx1 -j"$n" -N1 "$2" | tr -d ' ')
		[ "${a#?}" = "${b#?}" ] || { echo "nibble $(($3 - 1)) differs" >&2; return 1; }
	fi
}

test_expect_success 'an authored trace decodes back to its times and fields' '
	sqtt-encode -o authored.att "$TOP/tests/data/authored.packets.tsv" &&
	test $(($(wc -c < authored.att) % 32)) -eq 0 &&
	sqtt-dump --raw authored.att > dump.tsv &&
	grep -v "^#" dump.tsv | grep -v "	TIME	" | grep -v "	TIMESTAMP	" | cut -f1,4-10 > actual &&
	grep -v "^#" "$TOP/tests/data/authored.packets.tsv" | cut -f1,4-10 > expect &&
	test_cmp expect actual
'

test_expect_success 'long gaps are bridged with TIME and TIMESTAMP tokens' '
	grep -v "^#" dump.tsv | cut -f4,5 > actual &&
	cat > expect <<-EOF &&
	0	HEADER
	100	TIMESTAMP
	100	WAVE_START
	105	INST
	1000	TIMESTAMP
	1000	VALU_INST
	1009	TIME
	1009	IMM_ONE
	1009	ALU_EXEC
	1010	INST
	1010	WAVE_START
	1013	IMMEDIATE
	68719477748	TIMESTAMP
	70000000000	TIMESTAMP
	70000000000	WAVE_END
	70000000003	WAVE_END
	EOF
	test_cmp expect actual
'

test_expect_success 'a placed token overlapping the one before is an error' '
	printf "#event\tse\tnib\ttime\ttype\twave\tsimd\twgp\tsa\top\traw\n0\t0\t0\t0\tHEADER\t-\t0\t0\t0\t-\t0x68900191\n0\t0\t10\t0\tNOP\t-\t-\t-\t-\t-\t0x0\n" > overlap.tsv &&
	test_expect_code 2 sqtt-encode -o x.att overlap.tsv 2> err &&
	test_one_line_error sqtt-encode err &&
	grep -q "overlap.tsv:3: nibble 10 overlaps" err
'

test_expect_success 'time going backwards is an error' '
	printf "#event\tse\tnib\ttime\ttype\twave\tsimd\twgp\tsa\top\traw\n0\t0\t-\t5\tHEADER\t-\t0\t0\t0\t-\t-\n0\t0\t-\t3\tVALU_INST\t0\t-\t-\t-\t-\t-\n" > back.tsv &&
	test_expect_code 2 sqtt-encode -o x.att back.tsv 2> err &&
	test_one_line_error sqtt-encode err &&
	grep -q "back.tsv:3: time 3 goes back" err
'

test_expect_success 'two buffers need -e or -d' '
	printf "#event\tse\tnib\ttime\ttype\twave\tsimd\twgp\tsa\top\traw\n0\t0\t-\t0\tHEADER\t-\t0\t0\t0\t-\t-\n1\t1\t-\t0\tHEADER\t-\t0\t0\t0\t-\t-\n" > two.tsv &&
	test_expect_code 2 sqtt-encode -o x.att two.tsv 2> err &&
	test_one_line_error sqtt-encode err &&
	sqtt-encode -e 1 -o one.att two.tsv &&
	sqtt-dump --raw --se 1 one.att >stage71.0.out && <stage71.0.out grep -v "^#" | cut -f2,5 > actual &&
	printf "1\tHEADER\n" > expect &&
	test_cmp expect actual
'

if test_have_prereq SHARED; then
for f in "$FIXTURES"/*.pkl; do
	b=$(basename "$f" .pkl)
	test_expect_success "round trip: every buffer of $b, byte for byte" "
		sqtt-dump -a -X orig.$b '$f' > all.$b.tsv &&
		sqtt-encode -d enc.$b < all.$b.tsv &&
		n=\$(ls orig.$b | wc -l) &&
		test \$n -gt 0 &&
		for a in orig.$b/*.att; do
			e=\$(basename \$a .att) &&
			end=\$(awk -F'\t' -v e=\$e -v bits='$BITS' '
				BEGIN { n = split(bits, a, \" \"); for (i = 1; i < n; i += 2) b[a[i]] = a[i + 1] }
				\$1 == e { end = \$3 + b[\$5] / 4 } END { print end }' all.$b.tsv) &&
			enc=enc.$b/\$(awk -F'\t' -v e=\$e '\$1 == \"##event\" && \$2 == e { print \$10 }' enc.$b/capture.tsv) &&
			same_prefix \$a \$enc \$end || { echo \"buffer \$e differs\"; exit 1; }
		done &&
		sqtt-dump enc.$b >stage92.0.out && <stage92.0.out grep -v '^##' > again.$b &&
		zcat '$GOLDEN/$b.packets.tsv.gz' > golden.$b &&
		test_cmp golden.$b again.$b
	"
done
else
	test_skip SHARED 'round trips of the shared captures'
fi

test_done
