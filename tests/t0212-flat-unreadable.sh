#!/bin/sh
# t0212-flat-unreadable: a FLAT word of the global segment that LLVM cannot disassemble
# (opcode 0, which no global instruction has) is stepped over by its family's length and
# classed by its SEG field as a global load, not a flat one (isa_family_class_by: gfx11
# and gfx12 keep SEG at bits [17:16], gfx9 at [15:14]); the same word with SEG 0 (flat)
# is a flat load.  The code objects are made here, so the words are known by construction
# (llvm-mc-22 --disassemble says "invalid instruction encoding" for each).
. "$(dirname "$0")/lib.sh"

test_expect_success PYTHON3 'gfx11: an unreadable FLAT word of the global segment is a global load' '
	code_listing_is - "0x1000\t8\tglobal_load\t-\t.long 0xdc020000, 0x017c0002\n0x1008\t4\tendpgm\t-\ts_endpgm\n" \
	    0x41 0xdc020000 0x017c0002 0xbfb00000
'

test_expect_success PYTHON3 'gfx11: the same word with SEG 0 is a flat load' '
	code_listing_is - "0x1000\t8\tflat_load\t-\t.long 0xdc000000, 0x017c0002\n0x1008\t4\tendpgm\t-\ts_endpgm\n" \
	    0x41 0xdc000000 0x017c0002 0xbfb00000
'

test_expect_success PYTHON3 'gfx9 (gfx950): an unreadable FLAT word of the global segment (SEG at [15:14]) is a global load' '
	code_listing_is gfx950 "0x1000\t8\tglobal_load\t-\t.long 0xdc008000, 0x017f0002\n0x1008\t4\tendpgm\t-\ts_endpgm\n" \
	    0x4f 0xdc008000 0x017f0002 0xbf810000
'

test_done
