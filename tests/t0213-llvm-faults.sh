#!/bin/sh
# t0213: words LLVM 22's AMDGPU disassembler crashes on (none is an instruction a compiler
# emits; a program that gives LLVM one of them alone dies of SIGSEGV) are shown as words, with
# their family's length and class, and the instructions around them are read as ever:
# the ones the models name (disasm_unsafe) never reach LLVM, and a fault inside LLVM on
# one they do not name makes its word one LLVM cannot read (codeobj's guard).  The code
# objects are made here, so the words are known by construction.
. "$(dirname "$0")/lib.sh"

test_expect_success PYTHON3 'gfx1200: s_barrier_signal with a literal is a word; the one with s1 is read' '
	code_listing_is gfx1200 "0x1000\t8\tsalu\t-\t.long 0xbe804eff, 0x00000001\n0x1008\t4\tbarrier_signal\t-\ts_barrier_signal s1\n0x100c\t4\tendpgm\t-\ts_endpgm\n" \
	    0x48 0xbe804eff 0x00000001 0xbe804e01 0xbfb00000
'

# 0xd3ad81f2 0x73e1e671: a v_mfma_f32_16x16x128_f8f6f4 whose operands do not fit its
# formats; no model names it, LLVM faults on it
test_expect_success PYTHON3 'gfx950: an SDWA selector 7 and an f8f6f4 MFMA LLVM faults on are words; a sound MFMA is read' '
	code_listing_is gfx950 "0x1000\t8\tvalu\t-\t.long 0x020000f9, 0x06060700\n0x1008\t8\tvalu\t-\t.long 0xd3ad81f2, 0x73e1e671\n0x1010\t8\tvalu\t-\tv_mfma_f32_16x16x128_f8f6f4 v[0:3], v[4:7], v[8:11], v[0:3] cbsz:4 blgp:4\n0x1018\t4\tendpgm\t-\ts_endpgm\n" \
	    0x4f 0x020000f9 0x06060700 0xd3ad81f2 0x73e1e671 0xd3ad0400 0x84021104 0xbf810000
'

test_expect_success PYTHON3 'gfx942: a VOP3 literal and a buffer soffset of 255 (gfx9 has neither) are words' '
	code_listing_is gfx942 "0x1000\t8\tvalu\t-\t.long 0xd203993f, 0x3bfc31cd\n0x1008\t8\tbuf_load\t-\t.long 0xe05e58f5, 0xff1e7904\n0x1010\t4\tendpgm\t-\ts_endpgm\n" \
	    0x4c 0xd203993f 0x3bfc31cd 0xe05e58f5 0xff1e7904 0xbf810000
'

test_done
