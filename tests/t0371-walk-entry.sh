#!/bin/sh
# Issue 20, rule 7: the trace's entry is the truth.  A wave starts where the dispatch's
# COMPUTE_PGM_LO/HI writes (REG tokens) say, when that is an instruction of the program,
# and nothing is said when it is not the kernel descriptor's entry; an entry that is no
# instruction of the program is said once, and the descriptor's entry is walked.
# Authored on fixtures/kernels/twocause.hsaco (descriptor's entry 0x1300: s_sleep 2,
# v_mov 0x1304, v_mov 0x1308, s_endpgm 0x130c).  A REG's raw: the value in bits 63:32,
# the register's offset from 0x2e00 in bits 31:16 (0x0c LO: address bits 39:8; 0x0d HI),
# bit 15 a compute register.  Real: t0300 (custom_heavy_sync, entry 0x100, descriptor 0x12c).
. "$(dirname "$0")/lib.sh"

# trace BASE LO TOKEN...: the program loaded at BASE, COMPUTE_PGM_LO's raw LO (HI 0), one
# wave whose tokens are TOKEN... at 110, 112, ... then its WAVE_END at 130
trace() {
	base=$1 lo=$2 t=110
	shift 2
	printf '##target\tgfx1100\n##code\ttwocause\t0\t%s\t0\t%s\n' "$base" "$TOP/fixtures/kernels/twocause.hsaco"
	printf '##event\t0\t0\ttwocause\t0\t1\t0\t0\t0\t-\n'
	printf '#event\tse\tnib\ttime\ttype\twave\tsimd\twgp\tsa\top\traw\n'
	printf '0\t0\t-\t0\tHEADER\t-\t0\t0\t0\t-\t-\n'
	printf '0\t0\t-\t10\tREG\t-\t-\t-\t-\t-\t%s\n' "$lo"
	printf '0\t0\t-\t11\tREG\t-\t-\t-\t-\t-\t0x000d8209\n'
	printf '0\t0\t-\t100\tWAVE_START\t0\t0\t0\t0\t-\t-\n'
	for tok in "$@"; do
		printf '0\t0\t-\t%d\t%s\t0\t-\t-\t-\t-\t-\n' $t "$tok"
		t=$((t + 2))
	done
	printf '0\t0\t-\t130\tWAVE_END\t0\t0\t0\t0\t-\t-\n'
}

# rows CAP: "pc delta token inst" of its walk
rows() {
	sqtt-dump "$1" | sqtt-walk 2> err | awk -F'\t' '!/^#/ { print $6, $8, $9, $10 }'
}

test_expect_success 'authored: the entry the dispatch wrote (0x1304, not the descriptor 0x1300) walked, nothing said' '
	# loaded at 0xfffc, LO 0x113: 0x11300 - 0xfffc = pc 0x1304, the first v_mov
	trace 0xfffc 0x00000113000c8209 VALU_INST VALU_INST > a.tsv &&
	sqtt-encode -d a a.tsv &&
	rows a > actual &&
	test_cmp /dev/null err &&
	cat > expect <<-\EOF &&
	0x1304 10 VALU_INST v_mov_b32_e32 v0, 0
	0x1308 2 VALU_INST v_mov_b32_e32 v1, 0
	0x130c 18 WAVE_END s_endpgm
	EOF
	test_cmp expect actual
'

test_expect_success 'authored: an entry that is no instruction (0x20000) said once, the descriptor entry walked' '
	trace 0x10000 0x00000200000c8209 IMM_ONE VALU_INST VALU_INST > b.tsv &&
	sqtt-encode -d b b.tsv &&
	rows b > actual &&
	cat > expect <<-\EOF &&
	0x1300 10 IMM_ONE s_sleep 2
	0x1304 2 VALU_INST v_mov_b32_e32 v0, 0
	0x1308 2 VALU_INST v_mov_b32_e32 v1, 0
	0x130c 16 WAVE_END s_endpgm
	EOF
	test_cmp expect actual &&
	cat > expect <<-\EOF &&
	sqtt-walk: warning: event 0: program twocause: the dispatch'"'"'s entry 0x20000 (COMPUTE_PGM) is no instruction of the program (loaded at 0x10000); the kernel descriptor'"'"'s entry 0x1300 is used
	sqtt-walk: 1 warning
	EOF
	test_cmp expect err
'

test_expect_success 'authored: the same through stall --rows' '
	stall --rows a | awk -F"\t" "!/^#/ { print \$6, \$8, \$9 }" > actual &&
	printf "0x1304 10 VALU_INST\n0x1308 2 VALU_INST\n0x130c 18 WAVE_END\n" > expect &&
	test_cmp expect actual
'

test_done
