#!/bin/sh
# Every program on every real RDNA4 capture, as on gfx11: the stages one by one and
# stall in one process give the same rows; stall-table, stall-diff, stall-budget and
# stall-annotate read them; --trace-json holds to the rows; a rocprofv3 directory and a
# rocpd run of each (written by sqtt-encode) give the same rows as the pickle.  Then
# what the gfx12 backend decides: the 128-byte fetch line and the INST ops no source
# names.
. "$(dirname "$0")/lib.sh"
need_shared
FIX12="$SHARED/fixtures/tinygrad-gfx12"

for f in "$FIX12"/*.pkl; do
	b=$(basename "$f" .pkl)
	test_expect_success "$b: the stages, stall, stall-table, stall-diff, stall-budget, stall-annotate" "
		sqtt-dump '$f' > packets.$b &&
		sqtt-walk packets.$b > walk.$b &&
		stall-attr walk.$b > rows.$b &&
		stall --rows '$f' > srows.$b &&
		test_cmp rows.$b srows.$b &&
		stall-table rows.$b > table.$b &&
		awk -F'\t' '!/^#/ && \$2 == \"TOTAL\"' table.$b > totals.$b && test -s totals.$b &&
		stall '$f' > stall.$b &&
		stall-table --top 10 rows.$b > table.$b &&
		test_cmp table.$b stall.$b &&
		stall-diff '$f' '$f' > diff.$b 2> differr.$b &&
		awk -F'\t' '!/^#/ { n++ } END { exit n == 0 }' diff.$b &&
		echo '* cycles <= 99999999' > ok.rules &&
		stall-budget ok.rules rows.$b > budget.$b &&
		echo '* cycles <= 1' > broken.rules &&
		test_expect_code 1 stall-budget broken.rules rows.$b > broken.$b 2> /dev/null &&
		grep -c '^broken' broken.$b > nbroken && test \$(cat nbroken) -gt 0 &&
		stall-annotate --lines rows.$b > lines.$b &&
		awk -F'\t' '!/^#/ { c += \$3 } END { exit c == 0 }' lines.$b
	"
	test_expect_success PYTHON3 "$b: --trace-json holds to the rows, --html writes a page" "
		stall --trace-json trace.$b --html page.$b '$f' > /dev/null &&
		python3 '$TOP/tests/data/t0610-check-trace.py' rows.$b trace.$b > check.$b &&
		grep -c '^slices [1-9]' check.$b > nslices && echo 1 > expect && test_cmp expect nslices &&
		for k in \$(awk -F'\t' '!/^#/ { print \$3 }' rows.$b | sort -u); do
			grep -q \"\$k\" page.$b || return 1
		done
	"
	test_expect_success "$b: its rocprofv3 directory and rocpd run give the pickle's rows" "
		sqtt-encode -d dir.$b packets.$b &&
		stall --rows dir.$b > drows.$b &&
		grep -v '^##' drows.$b | cut -f1-15 > d.$b && grep -v '^##' rows.$b | cut -f1-15 > p.$b &&
		test_cmp p.$b d.$b &&
		sqtt-encode -d rocpd.$b --rocpd --kernel-trace packets.$b &&
		stall --rows rocpd.$b > rrows.$b &&
		grep -v '^##' rrows.$b | cut -f1-15 > r.$b &&
		test_cmp p.$b r.$b
	"
done

# gfx12's instruction cache line is 128 bytes (LLVM 22: .amdhsa_inst_pref_size counts
# 128-byte lines for gfx1200; stall-attr(1) has the evidence): a fetch row follows a
# taken branch or a jump, or enters another 128-byte line; none of the 270 rows of more
# than a cycle that enter only another 64-byte line is (131 were, at gfx11's 64 bytes).
test_expect_success 'gfx12 fetch: after a taken branch or into another 128-byte line only' '
	cat rows.2026* | awk -F"\t" "
		function hex(s,   i, v) { v = 0; s = tolower(substr(s, 3))
			for (i = 1; i <= length(s); i++) v = v * 16 + index(\"0123456789abcdef\", substr(s, i, 1)) - 1
			return v }
		/^#/ { next }
		{ w = \$1 \" \" \$4; pc = \$6 ~ /^0x/ ? hex(\$6) : -1 }
		\$14 == \"fetch\" { n++; if (!taken[w] && !(pc >= 0 && last[w] >= 0 && int(pc / 128) != int(last[w] / 128))) bad++ }
		\$14 != \"fetch\" && \$13 > 1 && !taken[w] && pc >= 0 && last[w] >= 0 && int(pc / 64) != int(last[w] / 64) &&
			int(pc / 128) == int(last[w] / 128) { only64++ }
		{ last[w] = pc; taken[w] = \$9 == \"INST:branch_taken\" || \$9 == \"INST:jump\" }
		END { print n + 0, bad + 0, only64 + 0 }" > fetch &&
	echo "106 0 270" > expect && test_cmp expect fetch
'

# Every 8-bit INST op of gfx12 through sqtt-encode and sqtt-dump: named as AMD's gfx12
# op list names it, 0x.. exactly for the ops no public source names (sqtt-dump(1)).
test_expect_success 'gfx12 INST ops: AMD'"'"'s names, 0x.. for the ops no source names' '
	{
		printf "##target\tgfx1201\n#event\tse\tnib\ttime\ttype\twave\tsimd\twgp\tsa\top\traw\n" &&
		printf "0\t0\t-\t0\tHEADER\t-\t0\t0\t0\t-\t-\n" &&
		awk "BEGIN { for (op = 0; op < 256; op++)
			printf \"0\t0\t-\t%d\tINST\t-\t-\t-\t-\t-\t0x%x\n\", op + 1, op * 4096 + 2 }"
	} > ops.tsv &&
	sqtt-encode -o ops.bin ops.tsv &&
	sqtt-dump --raw ops.bin | awk -F"\t" "\$5 == \"INST\" { print \$10 }" > ops &&
	grep -c . ops > nops && echo 256 > expect && test_cmp expect nops &&
	grep "^0x" ops | tr "\n" " " > unnamed &&
	printf "%s " 0x10 0x11 0x16 0x17 0x18 0x19 0x1a 0x1b 0x4f 0x5a 0x5b 0x5c 0x5d 0x5e 0x5f \
		0x60 0x61 0x62 0x63 0x64 0x65 0x66 0x6b 0x6c 0x6d 0x70 0x71 0x7b 0x7c 0x7d 0x7e \
		0x7f 0x80 0x81 0x82 0x83 0x84 0x85 0x86 0x8b 0x90 0x91 0x94 0x95 0x9a 0x9d 0x9e \
		0x9f 0xa0 0xa1 0xa2 0xa3 0xa4 0xa5 0xa6 0xa7 0xa8 0xa9 0xaa 0xab 0xac 0xad 0xae \
		0xaf 0xb0 0xb1 0xb2 0xb3 0xb4 0xb5 0xb6 0xb7 0xb8 0xb9 0xba 0xbb > expect &&
	test_cmp expect unnamed &&
	awk "BEGIN { split(\"19 28 118 119 120 121 122 135 136 137 138 140 141 142 143 146 147 150 151 152 153 155 156 188 221 222 255\", l, \" \")
		for (i in l) want[l[i] + 1] = 1 }
		NR in want { print NR - 1, \$0 }" ops > named &&
	printf "%s\n" "19 barrier_wait" "28 flat_rd_2" "118 lds_bvh_6" "119 lds_other_simd_6" \
		"120 lds_other_simd_10" "121 lds_bvh_10" "122 barrier_signal" "135 dyn_vgpr" "136 try_lock" \
		"137 unlock" "138 barrier_join" "140 wmma8" "141 wmma16" "142 wmma32" "143 wmma64" \
		"146 valu_dpfp" "147 valu_derate" "150 icpref" "151 kcpref" "152 salu_float3" \
		"153 valu_scl_trans" "155 salu2" "156 salu5" "188 vmem_other_simd_1" "221 vmem_other_simd_34" \
		"222 block_store_1" "255 block_store_34" > expect &&
	test_cmp expect named
'

test_done
