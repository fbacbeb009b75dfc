# bench/mkcode.py elf OUT FILLER_BYTES KERNEL_INSTS: an AMDGPU ELF64 for gfx1100 whose
# .text is a function "filler" of FILLER_BYTES of s_nop 0, then the kernel "k":
# KERNEL_INSTS - 1 distinct v_add_f32_e32 (registers counting up) and an s_endpgm, each
# function with its symbol and size: the shape of a library's code object.
# bench/mkcode.py trace ELF KERNEL_INSTS: the packet stream (sqtt-dump's TSV, for
# sqtt-encode -d) of one wave issuing that kernel once, 1 to 3 cycles an instruction.
import struct, sys


def elf(out, nf, nk):
    filler = b"\x00\x00\x80\xbf" * (nf // 4)
    k = bytearray()
    for i in range(nk - 1):
        d, a, b = i % 256, (i // 256) % 256, (i // 65536) % 256
        k += struct.pack("<I", (3 << 25) | (d << 17) | (a << 9) | (256 + b))
    k += b"\x00\x00\xb0\xbf"
    text = filler + bytes(k)
    strtab = b"\0filler\0k\0"
    syms = bytes(24)
    syms += struct.pack("<IBBHQQ", 1, 0x12, 0, 1, 0x1000, len(filler))
    syms += struct.pack("<IBBHQQ", 8, 0x12, 0, 1, 0x1000 + len(filler), len(k))
    names = b"\0.text\0.symtab\0.strtab\0.shstrtab\0"
    o_text = 64
    o_sym = o_text + len(text)
    o_str = o_sym + len(syms)
    o_names = o_str + len(strtab)
    o_sh = o_names + len(names)
    eh = b"\x7fELF" + bytes([2, 1, 1, 0]) + bytes(8)
    eh += struct.pack("<HHIQQQIHHHHHH", 2, 224, 0x41, 0, 0, o_sh, 0, 64, 0, 0, 64, 5, 4)
    sh = bytes(64)
    sh += struct.pack("<IIQQQQIIQQ", 1, 1, 6, 0x1000, o_text, len(text), 0, 0, 4, 0)
    sh += struct.pack("<IIQQQQIIQQ", 7, 2, 0, 0, o_sym, len(syms), 3, 1, 8, 24)
    sh += struct.pack("<IIQQQQIIQQ", 15, 3, 0, 0, o_str, len(strtab), 0, 0, 1, 0)
    sh += struct.pack("<IIQQQQIIQQ", 23, 3, 0, 0, o_names, len(names), 0, 0, 1, 0)
    with open(out, "wb") as f:
        f.write(eh + text + syms + strtab + names + sh)


def trace(path, nk):
    w = sys.stdout.write
    w("##target\tgfx1100\n##code\tk\t1\t0x0\t0\t%s\n" % path)
    w("##event\t0\t0\tk\t1\t1\t0\t0\t0\t-\n")
    w("#event\tse\tnib\ttime\ttype\twave\tsimd\twgp\tsa\top\traw\n")
    w("0\t0\t-\t0\tHEADER\t-\t0\t0\t0\t-\t-\n")
    w("0\t0\t-\t100\tWAVE_START\t0\t0\t0\t0\t-\t-\n")
    t, rows = 200, []
    for i in range(nk - 1):
        rows.append("0\t0\t-\t%d\tVALU_INST\t0\t-\t-\t-\t-\t-\n" % t)
        t += 1 + i % 3
        if len(rows) == 4096:
            w("".join(rows))
            rows = []
    w("".join(rows))
    w("0\t0\t-\t%d\tWAVE_END\t0\t0\t0\t0\t-\t-\n" % (t + 10))


if sys.argv[1] == "elf":
    elf(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
else:
    trace(sys.argv[2], int(sys.argv[3]))
