#!/bin/sh
# t0857-regs: the registers an instruction writes and reads (libcommon/code/regs.c,
# through build/regs_test), by the ISA's names: vcc is s106-s107 (vcc_lo s106, vcc_hi
# s107), exec s126-s127 (exec_lo s126, exec_hi s127), whether an operand names them or a
# number does, and the branches on them read them (issue 24's survivor: vcc and exec
# never overlapping s106-s107 and s126-s127).
. "$(dirname "$0")/lib.sh"

RT="$TOP/build/regs_test"

test_expect_success 'vcc, exec and their halves are the SGPRs they alias' '
	tr "|" "\t" > expect <<-\EOF &&
	v_cmp_eq_u32_e64 vcc, 0, v1|def s106-s107|use v1
	s_mov_b64 s[106:107], exec|def s106-s107|use s126-s127
	s_and_b64 exec, exec, s[126:127]|def s126-s127|use s126-s127
	s_mov_b32 vcc_hi, exec_hi|def s107|use s127
	s_mov_b32 vcc_lo, s107|def s106|use s107
	s_mov_b32 s0, exec_lo|def s0|use s126
	s_cbranch_vccnz 65533|def -|use s106
	s_cbranch_execz 5|def -|use s126
	v_cndmask_b32_e32 v0, v1, v2, vcc_lo|def v0|use s106 v1-v2
	global_store_b32 v0, v2, s[4:5]|def -|use s4-s5 v0 v2
	EOF
	cut -f 1 expect | "$RT" > actual &&
	test_cmp expect actual
'

test_done
