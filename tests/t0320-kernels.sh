#!/bin/sh
# t0320-kernels: fixtures/build.sh still makes the committed fixtures/kernels/*.hsaco from
# their .s sources: the same instructions at the same addresses, the same kernel descriptors.
# The rebuild needs clang-22, ld.lld-22 and llvm-objdump-22 (skipped, test by test, without
# them); the committed objects are read by build/codeobj_test everywhere.
. "$(dirname "$0")/lib.sh"

CLANG=${CLANG:-clang-22}
LLD=${LLD:-ld.lld-22}
OBJDUMP=${OBJDUMP:-llvm-objdump-22}
KERNELS="$TOP/fixtures/kernels"

# listing FILE: the disassembly of .text and the bytes of .rodata (the kernel descriptors),
# without the line naming the file
listing() {
	"$OBJDUMP" -d --mcpu=gfx1100 --no-show-raw-insn "$1" > dis.out &&
	"$OBJDUMP" -s -j .rodata "$1" > rodata.out &&
	cat dis.out rodata.out | grep -v "file format"
}

test_expect_success 'every committed kernel reads as a gfx1100 code object with its entry' '
	for s in "$KERNELS"/*.s; do
		k=$(basename "$s" .s) && sym=${k%-v[0-9]*} &&
		"$TOP/build/codeobj_test" "$KERNELS/$k.hsaco" "$sym" >list.$k &&
		head -n 1 list.$k | grep -q "^entry 0x1[0-9a-f]*00$" &&
		test "$(wc -l <list.$k)" -ge 4 || { echo "$k" >&2; exit 1; }
	done
'

test_expect_success CLANG 'fixtures/build.sh assembles every kernel' '
	CLANG=$CLANG LLD=$LLD sh "$TOP/fixtures/build.sh" "$T_DIR/built" &&
	(cd "$KERNELS" && ls *.s | sed "s/\.s\$//") > expect &&
	(cd built && ls | sed "s/\.hsaco\$//") > actual &&
	test_cmp expect actual &&
	(cd "$KERNELS" && ls *.hsaco | sed "s/\.hsaco\$//") > committed &&
	test_cmp expect committed
'

for s in "$KERNELS"/*.s; do
	k=$(basename "$s" .s)
	sym=${k%-v[0-9]*}	# demo-v2.s is a second version of the kernel demo
	test_expect_success CLANG,OBJDUMP "$k.hsaco: the committed code object is what $k.s assembles to" "
		listing '$KERNELS/$k.hsaco' > expect.$k &&
		grep -q '<$sym>:' expect.$k &&
		listing built/$k.hsaco > actual.$k &&
		test_cmp expect.$k actual.$k
	"
done

test_done
