#!/bin/sh
# t0210-codeobj: libcommon/codeobj.c through build/codeobj_test, on gfx1100 code objects
# assembled from tests/data/codeobj-*.s (addresses are ld.lld-22's layout).  The assembled
# objects are committed in tests/data/codeobj/, so nothing here needs a compiler; where
# clang-22 and ld.lld-22 are there, a test checks the committed ones are what the sources
# assemble to (rebuild: the assemble function below, in tests/data/codeobj).
. "$(dirname "$0")/lib.sh"

CODEOBJ_TEST="$TOP/build/codeobj_test"
CLANG=${CLANG:-clang-22}
LLD=${LLD:-ld.lld-22}
OBJ="$TOP/tests/data/codeobj"

# assemble NAME: tests/data/codeobj-NAME.s -> NAME.o (relocatable), NAME.hsaco (linked)
assemble() {
	"$CLANG" -target amdgcn-amd-amdhsa -mcpu=gfx1100 -c -o "$1.o" \
		"$TOP/tests/data/codeobj-$1.s" &&
	"$LLD" -shared -o "$1.hsaco" "$1.o"
}

# poke FILE OFFSET BYTES: overwrite bytes (printf escapes, e.g. '\000\000') at OFFSET
poke() {
	printf "$3" | dd of="$1" bs=1 seek=$(($2)) conv=notrunc 2>/dev/null
}

# the listing with tabs shown as '~' (the s_delay_alu text has '|' of its own)
listing() {
	"$CODEOBJ_TEST" "$@" > raw.out && tr '\t' '~' < raw.out
}

test_expect_success 'codeobj_test is built' '
	test -x "$CODEOBJ_TEST"
'

test_expect_success 'the committed objects' '
	cp "$OBJ/kernel.o" "$OBJ/kernel.hsaco" "$OBJ/two.o" "$OBJ/two.hsaco" "$OBJ/classes.o" .
'

test_expect_success CLANG 'the committed objects are what the sources assemble to' '
	mkdir rebuilt && cd rebuilt &&
	assemble kernel && assemble two &&
	"$CLANG" -target amdgcn-amd-amdhsa -mcpu=gfx1100 -c -o classes.o \
		"$TOP/tests/data/codeobj-classes.s" &&
	for f in kernel.o kernel.hsaco two.o two.hsaco classes.o; do
		cmp "$OBJ/$f" $f || exit 1
	done
'

test_expect_success 'kernel: entry, sizes, classes, deps, waits, branch target' '
	cat > expect <<-\EOF &&
	entry 0x1300
	0x1300~8~smem~-~s_load_b64 s[0:1], s[0:1], null
	0x1308~4~valu~-~v_lshlrev_b32_e32 v0, 2, v0
	0x130c~4~salu~-~s_mov_b32 s2, 4
	0x1310~4~waitcnt~-~s_waitcnt lgkmcnt(0)~wait=lgkm
	0x1314~8~global_load~-~global_load_b32 v1, v0, s[0:1]
	0x131c~4~waitcnt~-~s_waitcnt vmcnt(0) lgkmcnt(0)~wait=vm,lgkm
	0x1320~4~valu~-~v_add_f32_e32 v1, 1.0, v1
	0x1324~4~delay_alu~-~s_delay_alu instid0(VALU_DEP_1)
	0x1328~4~valu_trans~VALU_DEP_1~v_exp_f32_e32 v1, v1
	0x132c~4~salu~-~s_add_i32 s2, s2, -1
	0x1330~4~delay_alu~-~s_delay_alu instid0(SALU_CYCLE_1) | instskip(NEXT) | instid1(TRANS32_DEP_1)
	0x1334~4~salu~SALU_CYCLE_1~s_cmp_lg_u32 s2, 0
	0x1338~4~valu~TRANS32_DEP_1~v_mul_f32_e32 v2, v1, v1
	0x133c~4~branch~-~s_cbranch_scc1 65531~target=0x132c
	0x1340~8~lds_store~-~ds_store_b32 v0, v2
	0x1348~4~waitcnt~-~s_waitcnt lgkmcnt(0)~wait=lgkm
	0x134c~4~barrier~-~s_barrier
	0x1350~8~lds_load~-~ds_load_b32 v3, v0
	0x1358~8~valu_shift64~-~v_lshlrev_b64 v[4:5], 2, v[0:1]
	0x1360~8~valu~-~v_dual_mul_f32 v6, v1, v1 :: v_dual_mov_b32 v7, 0
	0x1368~4~waitcnt~-~s_waitcnt lgkmcnt(0)~wait=lgkm
	0x136c~8~global_store~-~global_store_b32 v0, v3, s[0:1]
	0x1374~8~global_store~-~global_atomic_add_u32 v0, v3, s[0:1]
	0x137c~8~global_load~-~global_atomic_add_u32 v8, v0, v3, s[0:1] glc
	0x1384~4~waitcnt~-~s_waitcnt_vscnt null, 0x0~wait=vs
	0x1388~4~endpgm~-~s_endpgm
	0x138c~4~unknown~-~.long 0xffffffff
	0x1390~4~imm~-~s_code_end
	EOF
	listing kernel.hsaco > actual &&
	test_cmp expect actual &&
	listing kernel.hsaco kern > actual2 &&
	test_cmp expect actual2
'

test_expect_success 'classes: every class from its mnemonic (relocatable object)' '
	cat > expect <<-\EOF &&
	entry 0x0
	0x0~4~valu_trans~-~v_rcp_f64_e32 v[0:1], v[2:3]
	0x4~8~valu_trans~-~v_sqrt_f32_e64 v0, v1
	0xc~4~valu_trans~-~v_rcp_iflag_f32_e32 v0, v1
	0x10~4~valu_trans~-~v_sin_f16_e32 v0.l, v1.l
	0x14~8~valu_mad64~-~v_mad_u64_u32 v[0:1], null, v2, v3, v[4:5]
	0x1c~8~valu_f64~-~v_add_f64 v[0:1], v[2:3], v[4:5]
	0x24~4~valu_f64~-~v_cvt_f32_f64_e32 v0, v[2:3]
	0x28~4~valu_cmpx~-~v_cmpx_gt_f64_e32 v[0:1], v[2:3]
	0x2c~8~valu_shift64~-~v_ashrrev_i64 v[0:1], 2, v[2:3]
	0x34~8~valu_shift64~-~v_lshrrev_b64 v[0:1], 2, v[2:3]
	0x3c~8~vinterp~-~v_interp_p10_f32 v0, v1, v2, v3 wait_exp:0
	0x44~8~valu~-~v_pk_fma_f16 v0, v1, v2, v3
	0x4c~4~valu~-~v_readfirstlane_b32 s0, v0
	0x50~4~salu_exec~-~s_and_saveexec_b32 s0, vcc_lo
	0x54~4~salu_exec~-~s_or_saveexec_b64 s[0:1], s[2:3]
	0x58~4~message~-~s_sendmsg sendmsg(MSG_DEALLOC_VGPRS)
	0x5c~4~jump~-~s_setpc_b64 s[0:1]
	0x60~4~jump~-~s_swappc_b64 s[0:1], s[2:3]
	0x64~4~salu~-~s_getpc_b64 s[0:1]
	0x68~4~depctr~-~s_waitcnt_depctr 0xfffe
	0x6c~4~imm~-~s_nop 3
	0x70~4~imm~-~s_sleep 1
	0x74~4~imm~-~s_set_inst_prefetch_distance 0x3
	0x78~4~waitcnt~-~s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)~wait=vm,lgkm,exp
	0x7c~4~waitcnt~-~s_waitcnt expcnt(0)~wait=exp
	0x80~4~waitcnt~-~s_waitcnt vmcnt(63) expcnt(7) lgkmcnt(63)~wait=none
	0x84~4~waitcnt~-~s_waitcnt_vmcnt null, 0x3f~wait=none
	0x88~4~waitcnt~-~s_waitcnt_lgkmcnt null, 0x3e~wait=lgkm
	0x8c~4~branch~-~s_branch 0~target=0x90
	0x90~4~branch~-~s_cbranch_vccnz 65535~target=0x90
	0x94~8~smem~-~s_load_b32 s0, s[0:1], null
	0x9c~8~smem~-~s_buffer_load_b32 s0, s[0:3], null
	0xa4~8~smem~-~s_dcache_inv
	0xac~8~buf_load~-~buffer_load_b32 v0, off, s[0:3], 0
	0xb4~8~buf_store~-~buffer_store_b32 v0, off, s[0:3], 0
	0xbc~8~buf_load~-~buffer_atomic_add_u32 v0, off, s[0:3], 0 glc
	0xc4~8~buf_store~-~buffer_gl0_inv
	0xcc~8~flat_load~-~flat_load_b32 v0, v[0:1]
	0xd4~8~flat_store~-~flat_store_b32 v[0:1], v0
	0xdc~8~flat_load~-~scratch_load_b32 v0, off, off
	0xe4~8~flat_store~-~scratch_store_b32 off, v0, off
	0xec~8~flat_load~-~flat_atomic_add_u32 v0, v[0:1], v2 glc
	0xf4~8~image~-~image_load v0, v0, s[0:7] dmask:0x1 dim:SQ_RSRC_IMG_1D
	0xfc~8~lds_store~-~ds_add_u32 v0, v1
	0x104~8~lds_load~-~ds_load_b32 v0, v1
	0x10c~8~lds_store~-~ds_bpermute_b32 v0, v1, v2
	0x114~4~imm~-~s_trap 2
	0x118~4~endpgm~-~s_endpgm_saved
	0x11c~4~imm~-~s_setprio 1
	0x120~4~imm~-~s_icache_inv
	0x124~4~salu~-~s_mov_b32 exec_lo, s0
	0x128~8~unknown~-~exp mrt0 v0, v0, v0, v0
	0x130~4~unknown~-~v_illegal
	EOF
	listing classes.o > actual &&
	test_cmp expect actual
'

# two.hsaco: .text holds first (0x1400) then second (0x1500); second.kd is the first
# descriptor.  Entry: NAME.kd, else the first .kd, never just the start of .text.
test_expect_success 'entry from the kernel descriptor, by name or the first' '
	for k in "" first second nosuch; do
		"$CODEOBJ_TEST" two.hsaco $k > out.$k || return 1
		head -n 1 out.$k
	done > actual &&
	printf "entry 0x%s\n" 1500 1400 1500 1500 > expect &&
	test_cmp expect actual
'

test_expect_success 'relocatable object: entry from the function symbol' '
	for k in "" first second; do
		"$CODEOBJ_TEST" two.o $k >stage161.0.out && <stage161.0.out head -n 1 || exit 1
	done > actual &&
	printf "entry 0x%s\n" 100 0 100 > expect &&
	test_cmp expect actual
'

# A hand-made object as some real captures have: EI_DATA 0, e_machine 0, e_shentsize 0.
# libelf rejects it; the raw section-header parser reads it, and the .rodata kernel
# descriptor (second.kd, at file offset 0x2c0) still gives the entry.
test_expect_success 'broken ELF header: raw section headers, entry from .rodata' '
	cp two.hsaco broken.hsaco &&
	poke broken.hsaco 5 "\000" &&
	poke broken.hsaco 18 "\000\000" &&
	poke broken.hsaco 0x3a "\000\000" &&
	"$CODEOBJ_TEST" two.hsaco > expect &&
	"$CODEOBJ_TEST" broken.hsaco > actual &&
	test_cmp expect actual
'

test_expect_success 'broken header, descriptor entry inside an instruction: start of .text' '
	cp broken.hsaco broken2.hsaco &&
	poke broken2.hsaco 0x2d0 "\102" &&
	"$CODEOBJ_TEST" broken2.hsaco > actual &&
	head -n 1 actual > entry &&
	echo "entry 0x1400" > expect &&
	test_cmp expect entry &&
	tail -n +2 actual > insts &&
	tail -n +2 out.first > expect &&
	test_cmp expect insts
'

test_expect_success 'not an ELF file: exit 2, one-line error' '
	echo "hello, world" > text.txt &&
	test_expect_code 2 "$CODEOBJ_TEST" text.txt > out 2> err &&
	test_one_line_error codeobj_test err &&
	echo "codeobj_test: text.txt: not an ELF file" > expect &&
	test_cmp expect err &&
	test ! -s out &&
	dd if=/dev/zero of=zeros.bin bs=1024 count=4 2>/dev/null &&
	test_expect_code 2 "$CODEOBJ_TEST" zeros.bin 2> err &&
	echo "codeobj_test: zeros.bin: not an ELF file (identification zeroed; no section header table)" > expect &&
	test_cmp expect err &&
	: > empty.bin &&
	test_expect_code 2 "$CODEOBJ_TEST" empty.bin 2> err &&
	test_one_line_error codeobj_test err
'

test_expect_success 'truncated ELF: exit 2, one-line error' '
	size=$(wc -c < kernel.hsaco) &&
	for n in 20 63 64 200 1000 $((size - 1)); do
		dd if=kernel.hsaco of=trunc.$n bs=1 count=$n 2>/dev/null &&
		test_expect_code 2 "$CODEOBJ_TEST" trunc.$n > out 2> err &&
		test_one_line_error codeobj_test err &&
		grep -q "^codeobj_test: trunc.$n: " err &&
		test ! -s out || return 1
	done
'

test_expect_success 'foreign machine: exit 2, names e_machine' '
	cp kernel.hsaco x86.hsaco &&
	poke x86.hsaco 18 "\076\000" &&
	test_expect_code 2 "$CODEOBJ_TEST" x86.hsaco 2> err &&
	echo "codeobj_test: x86.hsaco: not an AMDGPU code object (e_machine 62)" > expect &&
	test_cmp expect err
'

test_expect_success 'another processor: a gfx942 code object is refused, gfx1101 read' '
	cp kernel.hsaco gfx942.hsaco &&
	poke gfx942.hsaco 48 "\114" &&
	test_expect_code 2 "$CODEOBJ_TEST" gfx942.hsaco 2> err &&
	echo "codeobj_test: gfx942.hsaco: code object is gfx942, the stream'"'"'s target is gfx1100" > expect &&
	test_cmp expect err &&
	cp kernel.hsaco gfx1101.hsaco &&
	poke gfx1101.hsaco 48 "\106" &&
	"$CODEOBJ_TEST" gfx1101.hsaco > out &&
	"$CODEOBJ_TEST" kernel.hsaco > expect &&
	test_cmp expect out
'

test_expect_success 'the target a stream names: its processor must be the object'"'"'s' '
	"$CODEOBJ_TEST" -t gfx1101 gfx1101.hsaco > out &&
	test_cmp expect out &&
	"$CODEOBJ_TEST" -t gfx1100 kernel.hsaco > out &&
	test_cmp expect out &&
	test_expect_code 2 "$CODEOBJ_TEST" -t gfx1100 gfx1101.hsaco 2> err &&
	echo "codeobj_test: gfx1101.hsaco: code object is gfx1101, the stream'"'"'s target is gfx1100" > want &&
	test_cmp want err &&
	test_expect_code 2 "$CODEOBJ_TEST" -t gfx1101 gfx942.hsaco 2> err &&
	echo "codeobj_test: gfx942.hsaco: code object is gfx942, the stream'"'"'s target is gfx1101" > want &&
	test_cmp want err &&
	cp kernel.hsaco generic.hsaco &&
	poke generic.hsaco 48 "\124" &&
	"$CODEOBJ_TEST" -t gfx1102 generic.hsaco > out &&
	test_cmp expect out &&
	cp kernel.hsaco gfx1200.hsaco &&
	poke gfx1200.hsaco 48 "\110" &&
	test_expect_code 2 "$CODEOBJ_TEST" gfx1200.hsaco 2> err &&
	echo "codeobj_test: gfx1200.hsaco: code object is gfx1200, the stream'"'"'s target is gfx1100" > want &&
	test_cmp want err
'

test_expect_success 'missing file: exit 2, one-line error' '
	test_expect_code 2 "$CODEOBJ_TEST" no-such-file 2> err &&
	test_one_line_error codeobj_test err
'

# LLVM 22 crashes printing v_fmaak_f16 / v_fmamk_f16 with the literal 0xff: never asked
test_expect_success 'a word LLVM crashes on: shown as .long, its family'"'"'s class, no crash' '
	"$CODEOBJ_TEST" "$TOP/tests/data/codeobj/fmaak-f16-ff.elf" > out 2> err &&
	printf "entry 0x1000\n0x1000\t8\tvalu\t-\t.long 0x70000000, 0x000000ff\n" > expect &&
	test_cmp expect out
'

# inputs the fuzzer (tests/fuzz_codeobj.c) once crashed on: open cleanly or fail cleanly
test_expect_success 'fuzzer crashers: no crash' '
	for f in "$TOP"/tests/data/codeobj-crash-*.bin; do
		[ -e "$f" ] || continue
		"$CODEOBJ_TEST" "$f" > out 2> err
		rc=$?
		case $rc in
		0) ;;
		2) test_one_line_error codeobj_test err || return 1 ;;
		*) echo "$f: exit status $rc" >&2; return 1 ;;
		esac
	done
'

# bigelf N: an AMDGPU ELF64 whose .text is N bytes of s_nop 0 (0xbf800000)
bigelf() {
	python3 -c '
import struct, sys
n = int(sys.argv[1]); text = b"\x00\x00\x80\xbf" * (n // 4)
names = b"\0.text\0.shstrtab\0"
off_text = 64; off_names = off_text + len(text); off_sh = off_names + len(names)
eh = b"\x7fELF" + bytes([2, 1, 1, 0]) + bytes(8)
eh += struct.pack("<HHIQQQIHHHHHH", 2, 224, 1, 0, 0, off_sh, 0, 64, 0, 0, 64, 3, 2)
sh = bytes(64)
sh += struct.pack("<IIQQQQIIQQ", 1, 1, 6, 0x1000, off_text, len(text), 0, 0, 4, 0)
sh += struct.pack("<IIQQQQIIQQ", 7, 3, 0, 0, off_names, len(names), 0, 0, 1, 0)
sys.stdout.buffer.write(eh + text + names + sh)' "$1"
}

test_expect_success PYTHON3 'code: past 4 MiB is read; one region of more than 16 MiB is one line and exit 2' '
	bigelf 4194308 > past.elf &&
	"$CODEOBJ_TEST" -r past.elf > out 2> err &&
	test_cmp /dev/null err &&
	head -n 2 out > first &&
	printf "entry 0x1000\n0x1000\t4\timm\ts_nop 0\n" > expect &&
	test_cmp expect first &&
	tail -n 1 out > last &&
	echo "read 1048577" > expect &&
	test_cmp expect last &&
	bigelf 16777220 > big.elf &&
	test_expect_code 2 "$CODEOBJ_TEST" big.elf > out 2> err &&
	echo "codeobj_test: big.elf: more than 16777216 bytes of code (16777220) from 0x1000 with no function symbol between: beyond what one function holds" > expect &&
	test_cmp expect err &&
	rm -f past.elf big.elf
'

test_expect_success PYTHON3 'a library of 8 MiB of code: only the kernel reached is disassembled' '
	# a function "filler" of 8 MiB of s_nop 0, then the kernel "k" (s_nop 0 three times,
	# s_endpgm), each with its symbol and size
	code_of_words -f 8388608 0 0xbf800000 0xbf800000 0xbf800000 0xbfb00000 > lib.elf &&
	"$CODEOBJ_TEST" -r lib.elf k > out 2> err &&
	test_cmp /dev/null err &&
	printf "entry 0x801000\n" > expect &&
	printf "0x%x\t4\timm\ts_nop 0\n" 8392704 8392708 8392712 >> expect &&
	printf "0x80100c\t4\tendpgm\ts_endpgm\nread 4\n" >> expect &&
	test_cmp expect out &&
	rm -f lib.elf
'

test_expect_success PYTHON3 'two code sections over the same addresses: the first one'"'"'s, in pc order' '
	# the kernel "k" at 0x1000 (8 bytes) in two code sections of the same addresses:
	# .text (s_nop 0, s_endpgm), then .text.b (s_nop 1, s_endpgm); the region is read
	# section by section, so its instructions are sorted and the first section'"'"'s kept
	python3 -c "
import struct, sys
t = struct.pack(\"<II\", 0xbf800000, 0xbfb00000); u = struct.pack(\"<II\", 0xbf800001, 0xbfb00000)
strtab = b\"\\0k\\0\"
syms = bytes(24) + struct.pack(\"<IBBHQQ\", 1, 0x12, 0, 1, 0x1000, 8)
names = b\"\\0.text\\0.text.b\\0.shstrtab\\0.symtab\\0.strtab\\0\"
o_t = 64; o_u = o_t + 8; o_sy = o_u + 8; o_st = o_sy + len(syms); o_nm = o_st + len(strtab); o_sh = o_nm + len(names)
eh = b\"\\x7fELF\" + bytes([2, 1, 1, 64, 3]) + bytes(7)
eh += struct.pack(\"<HHIQQQIHHHHHH\", 3, 224, 1, 0, 0, o_sh, 0x41, 64, 0, 0, 64, 6, 3)
sh = bytes(64)
sh += struct.pack(\"<IIQQQQIIQQ\", 1, 1, 6, 0x1000, o_t, 8, 0, 0, 4, 0)
sh += struct.pack(\"<IIQQQQIIQQ\", 7, 1, 6, 0x1000, o_u, 8, 0, 0, 4, 0)
sh += struct.pack(\"<IIQQQQIIQQ\", 15, 3, 0, 0, o_nm, len(names), 0, 0, 1, 0)
sh += struct.pack(\"<IIQQQQIIQQ\", 25, 2, 0, 0, o_sy, len(syms), 5, 1, 8, 24)
sh += struct.pack(\"<IIQQQQIIQQ\", 33, 3, 0, 0, o_st, len(strtab), 0, 0, 1, 0)
sys.stdout.buffer.write(eh + t + u + syms + strtab + names + sh)" > same.elf &&
	"$CODEOBJ_TEST" -r same.elf k > out 2> err &&
	test_cmp /dev/null err &&
	printf "entry 0x1000\n0x1000\t4\timm\ts_nop 0\n0x1004\t4\tendpgm\ts_endpgm\nread 2\n" > expect &&
	test_cmp expect out
'

# the listing of each part-by-thread reading (codeobj_test -j THREADS,MIN) is the listing of
# one sweep (its parts line compared apart), and in parts of 4 bytes threads read some
same_by_threads() {
	"$CODEOBJ_TEST" "$@" > one.out &&
	for j in 2,8 3,16 8,12 8,4; do
		"$CODEOBJ_TEST" -j $j "$@" > many.out &&
		sed "\$d" many.out > many.list &&
		test_cmp one.out many.list || return 1
	done &&
	tail -n 1 many.out > parts &&
	grep -q "^parts [1-9]" parts || { echo "-j 8,4 $*: no part read by a thread" >&2; return 1; }
}

test_expect_success 'a region read by threads: the same instructions as one sweep' '
	for f in kernel.hsaco two.hsaco classes.o "$TOP"/fixtures/kernels/*.hsaco; do
		same_by_threads "$f" || return 1
	done &&
	for f in "$TOP"/fixtures/gfx12/*.hsaco; do
		same_by_threads -t gfx1200 "$f" || return 1
	done &&
	for f in "$TOP"/fixtures/gfx9/*.hsaco; do
		same_by_threads -t gfx950 "$f" || return 1
	done
'

test_expect_success PYTHON3 'a part cut inside an instruction: kept from where the sweep meets it' '
	# v_mov_b32 v0 with the literal 0x7e0002ff, its own first word: a part from inside one
	# reads the same instruction 4 bytes on, again and again, until a 4-byte s_nop.  In 4
	# parts of 12 bytes: part 1 (from 0x100c) never meets the sweep, which reads it
	# itself; part 2 (0x1018) starts at an instruction; part 3 (0x1024, inside the v_mov
	# at 0x1020) meets it at 0x1028
	W=0x7e0002ff N=0xbf800000 &&
	code_of_words 0x41 $W $W $W $W $W $W $N $N $W $N $N $N 0xbfb00000 > w.elf &&
	cat > expect <<-\EOF &&
	entry 0x1000
	0x1000~8~valu~-~v_mov_b32_e32 v0, 0x7e0002ff
	0x1008~8~valu~-~v_mov_b32_e32 v0, 0x7e0002ff
	0x1010~8~valu~-~v_mov_b32_e32 v0, 0x7e0002ff
	0x1018~4~imm~-~s_nop 0
	0x101c~4~imm~-~s_nop 0
	0x1020~8~valu~-~v_mov_b32_e32 v0, lit(0xbf800000)
	0x1028~4~imm~-~s_nop 0
	0x102c~4~imm~-~s_nop 0
	0x1030~4~endpgm~-~s_endpgm
	parts 3
	EOF
	listing -j 4,12 w.elf k > out &&
	test_cmp expect out &&
	same_by_threads w.elf k
'

test_done
