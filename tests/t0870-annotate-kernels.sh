#!/bin/sh
# t0870-annotate-kernels: fixtures/annotate/build.sh still makes the committed -g code
# objects: the same instructions at the same addresses and the same source line for every
# one of them.  Needs clang-22, ld.lld-22, llvm-objdump-22, llvm-addr2line-22: skipped, test
# by test, without them (prerequisites CLANG, OBJDUMP, ADDR2LINE).
. "$(dirname "$0")/lib.sh"

DIR="$TOP/fixtures/annotate"

# listing FILE: every instruction with its pc and its FILE:LINE
listing() {
	llvm-objdump-22 -d --no-show-raw-insn "$1" | grep "// 0000" |
	    sed "s|^[	 ]*\(.*[^ ]\) *// 0*\([0-9A-Fa-f]*\):.*|0x\2 \1|" > insts &&
	cut -d" " -f1 insts | tr A-F a-f > pcs &&
	llvm-addr2line-22 -e "$1" $(cat pcs) > lines &&
	paste -d" " pcs lines insts
}

test_expect_success CLANG 'build.sh assembles hot, calm, poll and pair, compiles scale' '
	sh "$DIR/build.sh" "$T_DIR/built" &&
	ls built > actual &&
	printf "calm.hsaco\nhostile.hsaco\nhot.hsaco\npair.hsaco\npoll.hsaco\nscale.hsaco\ntwofiles.hsaco\n" > expect &&
	test_cmp expect actual
'

for k in hot calm poll; do
	test_expect_success CLANG,OBJDUMP,ADDR2LINE "$k.hsaco: the committed code object, line for line" '
		listing "$DIR/'"$k"'.hsaco" > expect &&
		listing built/'"$k"'.hsaco > actual &&
		test_cmp expect actual &&
		grep -c " fixtures/annotate/'"$k"'.s:[0-9]" expect > n &&
		wc -l < expect | tr -d " " > all &&
		test_cmp all n
	'
done

test_expect_success CLANG 'scale.hsaco: the committed code object, byte for byte' '
	cmp "$DIR/scale.hsaco" built/scale.hsaco
'

test_done
