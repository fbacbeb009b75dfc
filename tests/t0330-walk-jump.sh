#!/bin/sh
# An indirect jump: the wave goes where the trace's NEW_PC token says, not on.
. "$(dirname "$0")/lib.sh"

# fixtures/kernels/jump.s loaded at 0x10000: s_setpc_b64 at 0x1310 jumps to 0x1318.
trace() {	# trace NEW_PC_RAW
	printf '##target\tgfx1100\n##code\tjump\t0\t0x10000\t0\t%s\n' "$TOP/fixtures/kernels/jump.hsaco"
	printf '##event\t0\t0\tjump\t0\t1\t0\t0\t0\t-\n'
	printf '#event\tse\tnib\ttime\ttype\twave\tsimd\twgp\tsa\top\traw\n'
	printf '0\t0\t-\t0\tHEADER\t-\t0\t0\t0\t-\t-\n'
	printf '0\t0\t-\t100\tWAVE_START\t2\t0\t0\t0\t-\t-\n'
	printf '0\t0\t-\t600\tINST\t2\t-\t-\t-\tsalu\t-\n'
	printf '0\t0\t-\t601\tINST\t2\t-\t-\t-\tsalu\t-\n'
	printf '0\t0\t-\t602\tINST\t2\t-\t-\t-\tsalu\t-\n'
	printf '0\t0\t-\t603\tINST\t2\t-\t-\t-\tjump\t-\n'
	printf '0\t0\t-\t604\tNEW_PC\t-\t-\t-\t-\t-\t%s\n' "$1"
	printf '0\t0\t-\t620\tVALU_INST\t2\t-\t-\t-\t-\t-\n'
	printf '0\t0\t-\t700\tWAVE_END\t2\t0\t0\t0\t-\t-\n'
}

# NEW_PC: pattern 0x21, wave slot in [11,16), pc in dwords in [16,62)
new_pc() { printf '0x%x\n' $(( 0x21 | ($1 << 11) | (($2 / 4) << 16) )); }

test_expect_success 'the wave continues at the NEW_PC target, no warning' '
	trace $(new_pc 2 $((0x10000 + 0x1318))) > jump.tsv &&
	sqtt-encode -d cap jump.tsv &&
	sqtt-dump cap >stage27.0.out && <stage27.0.out sqtt-walk > rows 2> err &&
	test_cmp /dev/null err &&
	grep -v "^#" rows | cut -f6,8,9,10 > actual &&
	cat > expect <<-\EOF &&
	0x1300	500	INST:salu	s_getpc_b64 s[2:3]
	0x1304	1	INST:salu	s_add_u32 s2, s2, lit(0x14)
	0x130c	1	INST:salu	s_addc_u32 s3, s3, 0
	0x1310	1	INST:jump	s_setpc_b64 s[2:3]
	0x1318	17	VALU_INST	v_mov_b32_e32 v0, 1
	0x131c	80	WAVE_END	s_endpgm
	EOF
	test_cmp expect actual
'

test_expect_success 'a NEW_PC outside the program is a warning, and the pc is kept' '
	trace $(new_pc 2 0x4000) > far.tsv &&
	sqtt-encode -d far far.tsv &&
	sqtt-dump far >stage44.0.out && <stage44.0.out sqtt-walk > rows 2> err &&
	grep -c "NEW_PC 0x4000 is no instruction of the program (loaded at 0x10000)" err > n &&
	echo 1 > expect.n &&
	test_cmp expect.n n &&
	grep -v "^#" rows | cut -f6 | tr "\n" " " > actual &&
	printf "0x1300 0x1304 0x130c 0x1310 0x1318 0x131c " > expect &&
	test_cmp expect actual
'

test_expect_success 'stall keeps the NEW_PC tokens it needs' '
	stall --tsv cap > table 2> err &&
	test_cmp /dev/null err &&
	grep -c "^jump	0x1318	" table > n &&
	echo 1 > expect.n &&
	test_cmp expect.n n
'

test_done
