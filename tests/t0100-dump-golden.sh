#!/bin/sh
# sqtt-dump reproduces AMD's token table decode of every real capture, byte for byte.
. "$(dirname "$0")/lib.sh"
need_shared

for f in "$FIXTURES"/*.pkl; do
	b=$(basename "$f" .pkl)
	test_expect_success "packets of $b equal the golden stream" "
		sqtt-dump '$f' > dump.$b.tsv &&
		grep -v '^##' dump.$b.tsv > actual.$b &&
		zcat '$GOLDEN/$b.packets.tsv.gz' > expect.$b &&
		test_cmp expect.$b actual.$b
	"
done

test_expect_success 'the ## lines name source, target, programs and events' '
	f=$FIXTURES/20260202_profile_gemm_run_0_ccf477c.pkl &&
	grep "^##" dump.20260202_profile_gemm_run_0_ccf477c.tsv > actual &&
	{
	printf "##source\t%s\n##target\tgfx1100\n" "$(realpath "$f")"
	printf "##code\tE_32_32_4\t1\t0x200001006000\t4208\t-\n"
	printf "##code\tE_8_8_16_4\t2\t0x20000100c000\t4344\t-\n"
	printf "##code\tr_2_8_16_4_4_16_4\t3\t0x200001014000\t5184\t-\n"
	for k in 0 1 2; do
		n=$(sed -n "$((k + 1))p" <<-NAMES
		E_32_32_4
		E_8_8_16_4
		r_2_8_16_4_4_16_4
		NAMES
		)
		for se in 0 1 2 3 4 5; do
			it=0; [ $se -lt 2 ] && it=1
			printf "##event\t%d\t%d\t%s\t%d\t%d\t0\t0\t0\t-\t%d\n" $((k * 6 + se)) $se $n $((k + 1)) $it $((k + 1))
		done
	done
	} > expect &&
	test_cmp expect actual
'

test_expect_success 'the older layout matches events by kernel name' '
	grep "^##event	12	" dump.20260120_profile_gemm_run_0_e540cad.tsv > actual &&
	printf "##event\t12\t0\tr_2_8_16_4_4_16_4\t-\t1\t0\t0\t0\t-\t3\n" > expect &&
	test_cmp expect actual
'

test_expect_success 'gzip-compressed pickles read the same' '
	f=$FIXTURES/20260314_profile_plus_run_0_b90bfc1.pkl &&
	gzip -c "$f" > plus.pkl.gz &&
	sqtt-dump plus.pkl.gz >stage49.0.out && <stage49.0.out grep -v "^##" > actual &&
	zcat "$GOLDEN/20260314_profile_plus_run_0_b90bfc1.packets.tsv.gz" > expect &&
	test_cmp expect actual
'

test_expect_success '-c counts tokens per event and type' '
	f=$FIXTURES/20260314_profile_gemm_run_0_7379d89.pkl &&
	sqtt-dump --counts "$f" >stage56.0.out && <stage56.0.out grep -v "^#" > actual &&
	zcat "$GOLDEN/20260314_profile_gemm_run_0_7379d89.packets.tsv.gz" |
		awk -F"\t" "!/^#/ { n[\$1 \"\t\" \$2 \"\t\" \$5]++ } END { for (k in n) print k \"\t\" n[k] }" |
		sort > expect &&
	sort actual > actual.sorted &&
	test_cmp expect actual.sorted
'

test_expect_success '-e, -k and -t select events, kernels and token types' '
	f=$FIXTURES/20260202_profile_gemm_run_0_ccf477c.pkl &&
	sqtt-dump -e 12 --types WAVE_START,WAVE_END "$f" >stage66.0.out && <stage66.0.out grep -v "^#" > actual &&
	zcat "$GOLDEN/20260202_profile_gemm_run_0_ccf477c.packets.tsv.gz" |
		awk -F"\t" "\$1 == 12 && (\$5 == \"WAVE_START\" || \$5 == \"WAVE_END\")" > expect &&
	test_cmp expect actual &&
	sqtt-dump -k E_8_8_16_4 "$f" >stage70.0.out && <stage70.0.out grep -v "^#" | cut -f1 | sort -un > events &&
	printf "6\n7\n8\n9\n10\n11\n" > expect.events &&
	test_cmp expect.events events
'

test_expect_success '-a adds the NOP tokens, which cover every nibble between tokens' '
	f=$FIXTURES/20260314_profile_empty_run_0_f1048a1.pkl &&
	sqtt-dump -a -e 0 "$f" >stage77.0.out && <stage77.0.out grep -v "^#" > all &&
	grep -c "	NOP	" all > nops &&
	test "$(cat nops)" -gt 0 &&
	awk -F"\t" -v OFS="\t" "
		BEGIN { split(\"NOP 4 TIME 8 REG 64 IMM_ONE 12 ALU_EXEC 8 VMEM_EXEC 8 INST 20 VALU_INST 12 IMMEDIATE 24 WAVE_READY 24 WAVE_START 32 WAVE_START_EXT 48 WAVE_ALLOC 20 WAVE_END 20 SHADER_DATA 52 SHADER_DATA_SHORT 28 TIMESTAMP 48 HEADER 64 NEW_PC 64 UTIL_COUNTER 48 MISC 24 REG_INIT 64 EVENT 24 EVENT_SYNC 32 UNKNOWN 4\", a, \" \")
			for (i = 1; i < 50; i += 2) bits[a[i]] = a[i + 1] }
		{ if (NR > 1 && \$3 != next_nib) { print \"gap at \" \$3; exit 1 } next_nib = \$3 + bits[\$5] / 4 }
	" all
'

test_expect_success '-x writes the code objects' '
	f=$FIXTURES/20260202_profile_gemm_run_0_ccf477c.pkl &&
	sqtt-dump -x objs --types HEADER "$f" > /dev/null &&
	ls objs > actual &&
	printf "E_32_32_4.hsaco\nE_8_8_16_4.hsaco\nr_2_8_16_4_4_16_4.hsaco\n" > expect &&
	test_cmp expect actual &&
	test "$(wc -c < objs/E_32_32_4.hsaco)" -eq 4208 &&
	head -c 4 objs/E_32_32_4.hsaco | od -An -c | grep -q "E   L   F"
'

test_done
