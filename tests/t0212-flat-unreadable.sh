#!/bin/sh
# t0212-flat-unreadable: a FLAT word of the global segment that LLVM cannot disassemble
# (opcode 0, which no global instruction has) is stepped over by its family's length and
# classed by its SEG field as a global load, not a flat one (isa_family_class_by: gfx11
# and gfx12 keep SEG at bits [17:16], gfx9 at [15:14]); the same word with SEG 0 (flat)
# is a flat load.  The code objects are made here, so the words are known by construction
# (llvm-mc-22 --disassemble says "invalid instruction encoding" for each).
. "$(dirname "$0")/lib.sh"
CODEOBJ_TEST="$TOP/build/codeobj_test"

# obj MACH WORD...: an AMDGPU ELF64 (e_flags MACH) whose .text at 0x1000 is the kernel
# "k": the 32-bit little-endian WORDs given, then s_endpgm (ENDPGM, by generation)
obj() {
	python3 -c '
import struct, sys
mach = int(sys.argv[1], 0); words = [int(w, 0) for w in sys.argv[2:]]
text = b"".join(struct.pack("<I", w) for w in words)
strtab = b"\0k\0"
syms = bytes(24) + struct.pack("<IBBHQQ", 1, 0x12, 0, 1, 0x1000, len(text))
names = b"\0.text\0.shstrtab\0.symtab\0.strtab\0"
off_text = 64; off_syms = off_text + len(text); off_str = off_syms + len(syms)
off_names = off_str + len(strtab); off_sh = off_names + len(names)
eh = b"\x7fELF" + bytes([2, 1, 1, 64, 3]) + bytes(7)
eh += struct.pack("<HHIQQQIHHHHHH", 3, 224, 1, 0, 0, off_sh, mach, 64, 0, 0, 64, 5, 2)
sh = bytes(64)
sh += struct.pack("<IIQQQQIIQQ", 1, 1, 6, 0x1000, off_text, len(text), 0, 0, 4, 0)
sh += struct.pack("<IIQQQQIIQQ", 7, 3, 0, 0, off_names, len(names), 0, 0, 1, 0)
sh += struct.pack("<IIQQQQIIQQ", 17, 2, 0, 0, off_syms, len(syms), 4, 1, 8, 24)
sh += struct.pack("<IIQQQQIIQQ", 25, 3, 0, 0, off_str, len(strtab), 0, 0, 1, 0)
sys.stdout.buffer.write(eh + text + syms + strtab + names + sh)' "$@"
}

test_expect_success PYTHON3 'gfx11: an unreadable FLAT word of the global segment is a global load' '
	obj 0x41 0xdc020000 0x017c0002 0xbfb00000 > g11.elf &&
	"$CODEOBJ_TEST" g11.elf k > out 2> err &&
	printf "entry 0x1000\n0x1000\t8\tglobal_load\t-\t.long 0xdc020000, 0x017c0002\n0x1008\t4\tendpgm\t-\ts_endpgm\n" > expect &&
	test_cmp expect out
'

test_expect_success PYTHON3 'gfx11: the same word with SEG 0 is a flat load' '
	obj 0x41 0xdc000000 0x017c0002 0xbfb00000 > f11.elf &&
	"$CODEOBJ_TEST" f11.elf k > out 2> err &&
	printf "entry 0x1000\n0x1000\t8\tflat_load\t-\t.long 0xdc000000, 0x017c0002\n0x1008\t4\tendpgm\t-\ts_endpgm\n" > expect &&
	test_cmp expect out
'

test_expect_success PYTHON3 'gfx9 (gfx950): an unreadable FLAT word of the global segment (SEG at [15:14]) is a global load' '
	obj 0x4f 0xdc008000 0x017f0002 0xbf810000 > g9.elf &&
	"$CODEOBJ_TEST" -t gfx950 g9.elf k > out 2> err &&
	printf "entry 0x1000\n0x1000\t8\tglobal_load\t-\t.long 0xdc008000, 0x017f0002\n0x1008\t4\tendpgm\t-\ts_endpgm\n" > expect &&
	test_cmp expect out
'

test_done
