#!/bin/sh
# t0335-newpc-slot: NEW_PC's wave slot is its five bits [11,16) (docs/sqtt-format.md), so
# a wave in slot 16 or above goes where its NEW_PC says too (issue 24's survivor: the
# slot field one bit narrower, which sent slot 18's jump to slot 2, no wave there).  The
# trace is t0330's, authored for sqtt-encode: fixtures/kernels/jump.s loaded at 0x10000,
# whose s_setpc_b64 at 0x1310 jumps to 0x1318.
. "$(dirname "$0")/lib.sh"

trace() {	# trace SLOT NEW_PC_RAW
	printf '##target\tgfx1100\n##code\tjump\t0\t0x10000\t0\t%s\n' "$TOP/fixtures/kernels/jump.hsaco"
	printf '##event\t0\t0\tjump\t0\t1\t0\t0\t0\t-\n'
	printf '#event\tse\tnib\ttime\ttype\twave\tsimd\twgp\tsa\top\traw\n'
	printf '0\t0\t-\t0\tHEADER\t-\t0\t0\t0\t-\t-\n'
	printf '0\t0\t-\t100\tWAVE_START\t%s\t0\t0\t0\t-\t-\n' $1
	printf '0\t0\t-\t600\tINST\t%s\t-\t-\t-\tsalu\t-\n' $1 $1 $1
	printf '0\t0\t-\t603\tINST\t%s\t-\t-\t-\tjump\t-\n' $1
	printf '0\t0\t-\t604\tNEW_PC\t-\t-\t-\t-\t-\t%s\n' $2
	printf '0\t0\t-\t620\tVALU_INST\t%s\t-\t-\t-\t-\t-\n' $1
	printf '0\t0\t-\t700\tWAVE_END\t%s\t0\t0\t0\t-\t-\n' $1
}

# NEW_PC: pattern 0x21, wave slot in [11,16), pc in dwords in [16,62)
new_pc() { printf '0x%x\n' $(( 0x21 | ($1 << 11) | (($2 / 4) << 16) )); }

for slot in 2 16 18 31; do
	test_expect_success "slot $slot: the wave continues at the NEW_PC target, no warning" "
		trace $slot \$(new_pc $slot $((0x10000 + 0x1318))) > jump.tsv &&
		sqtt-encode -d cap.$slot jump.tsv &&
		sqtt-dump cap.$slot > packets &&
		grep -c '	NEW_PC	' packets > n && echo 1 > expect.n && test_cmp expect.n n &&
		sqtt-walk packets > rows 2> err &&
		test_cmp /dev/null err &&
		grep -v '^#' rows | cut -f 5,6 > actual &&
		printf '$slot\t%s\n' 0x1300 0x1304 0x130c 0x1310 0x1318 0x131c > expect &&
		test_cmp expect actual
	"
done

test_done
