#!/bin/sh
# sqtt-dump reproduces AMD's gfx12 token table decode (HEADER version 4) of every real
# RDNA4 capture, byte for byte: INST's 8-bit op, the 72-bit NEW_PC (op = its byte
# address), the 64-bit TIMESTAMP, the 4-bit wgp, every complete token to the last nibble.
. "$(dirname "$0")/lib.sh"
need_shared
FIX12="$SHARED/fixtures/tinygrad-gfx12"
GOLD12="$SHARED/golden-gfx12"

n=0
for f in "$FIX12"/*.pkl; do
	b=$(basename "$f" .pkl)
	n=$((n + 1))
	test_expect_success "packets of $b equal the golden stream" "
		sqtt-dump '$f' > dump.$b.tsv &&
		grep -v '^##' dump.$b.tsv > actual.$b &&
		zcat '$GOLD12/$b.packets.tsv.gz' > expect.$b &&
		test_cmp expect.$b actual.$b
	"
done

test_expect_success 'all 10 captures were compared' '
	test $n -eq 10
'

test_expect_success 'the target comes from the pickle: gfx1200 and gfx1201' '
	grep "^##target" dump.20260123_profile_gemm_run_0_c726b95.tsv > t1200 &&
	printf "##target\tgfx1200\n" > expect && test_cmp expect t1200 &&
	grep "^##target" dump.20260610_profile_plus_run_0_eb5d29e.tsv > t1201 &&
	printf "##target\tgfx1201\n" > expect && test_cmp expect t1201
'

test_expect_success 'a NEW_PC: 72 bits, its op the byte address of its dword pc' '
	grep "	NEW_PC	" actual.20260227_profile_py_run_0_516560d > newpc &&
	printf "1\t1\t3578\t32926\tNEW_PC\t0\t-\t-\t-\t0x200001006704\t0x800004019c10121\n" > expect &&
	test_cmp expect newpc
'

test_expect_success '--counts agrees with the stream on gfx12' '
	f=$FIX12/20260610_profile_gemm_run_0_96202b2.pkl &&
	sqtt-dump --counts "$f" | grep -v "^#" | sort > actual &&
	awk -F"\t" "!/^#/ { n[\$1 \"\t\" \$2 \"\t\" \$5]++ } END { for (k in n) print k \"\t\" n[k] }" \
		expect.20260610_profile_gemm_run_0_96202b2 | sort > expect &&
	test_cmp expect actual
'

test_expect_success 'a NEW_PC whose bits pass 64: written and read back whole' '
	printf "##target\tgfx1201\n#event\tse\tnib\ttime\ttype\twave\tsimd\twgp\tsa\top\traw\n" > np.tsv &&
	printf "0\t0\t0\t0\tHEADER\t-\t0\t0\t0\t-\t0x913100868700211\n" >> np.tsv &&
	printf "0\t0\t16\t0\tNEW_PC\t3\t-\t-\t-\t-\t0x40080000419c11821\n" >> np.tsv &&
	sqtt-encode -o np.att np.tsv &&
	sqtt-dump --raw np.att | grep "	NEW_PC	" > actual &&
	printf "0\t0\t16\t0\tNEW_PC\t3\t-\t-\t-\t0x10020000106704\t0x40080000419c11821\n" > expect &&
	test_cmp expect actual &&
	printf "0\t0\t34\t0\tNEW_PC\t3\t-\t-\t-\t-\t0x1400080000419c11821\n" >> np.tsv &&
	test_expect_code 2 sqtt-encode -o bad.att np.tsv 2> err &&
	grep -q "is not a 72-bit NEW_PC token" err
'

test_expect_success 'a real gfx12 buffer round-trips through sqtt-encode' '
	f=$FIX12/20260227_profile_py_run_0_516560d.pkl &&
	sqtt-dump -e 1 "$f" > rt.in &&
	sqtt-encode -o rt.att rt.in &&
	sqtt-dump --raw --se 1 rt.att | grep -v "^#" | cut -f3- > rt.out &&
	grep -v "^#" rt.in | cut -f3- > rt.expect &&
	test_cmp rt.expect rt.out
'

test_done
