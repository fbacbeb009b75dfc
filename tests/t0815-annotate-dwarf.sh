#!/bin/sh
# t0815-annotate-dwarf: source lines of a kernel compiled as its author builds it: OpenCL
# C, clang-22 -g -O2 (fixtures/annotate/scale.cl), whose object has no .debug_aranges.
# The trace (scale.packets.tsv, two waves, 250 cycles apart) is authored, so the cycles of
# each line are known: per wave 500 + 1 on scale.cl:7 (the kernarg loads), 1 + 198 + 1 on
# scale.cl:8 (the shift, the kernarg wait, the load), 800 + 1 on scale.h:8 (the wait, the
# multiply-add of the inlined helper), 1 on scale.cl:9 (the store), 300 on scale.cl:10
# (s_endpgm's drain).  The capture fixtures/annotate/scale is that trace, sqtt-encode -d.
. "$(dirname "$0")/lib.sh"

DIR="$TOP/fixtures/annotate"

test_expect_success 'scale.hsaco has DWARF lines and no .debug_aranges' '
	grep -q -a "\.debug_line" "$DIR/scale.hsaco" &&
	! grep -q -a "\.debug_aranges" "$DIR/scale.hsaco"
'

test_expect_success 'the rows of scale' '
	(cd "$TOP" && sqtt-walk fixtures/annotate/scale.packets.tsv) > scale.walk &&
	sed "s|	fixtures/annotate/|	$TOP/fixtures/annotate/|" scale.walk > scale.rows &&
	stall-attr scale.rows > scale.attr
'

cat > lines.expect <<\EOF
##stall-annotate	lines
#kernel	source	cycles	percent	hits	insts	cause
scale	fixtures/annotate/./scale.h:8	1602	44.43	4	2	mem
scale	fixtures/annotate/scale.cl:7	1002	27.79	4	2	wave_start
scale	fixtures/annotate/scale.cl:10	600	16.64	2	1	drain
scale	fixtures/annotate/scale.cl:8	400	11.09	6	3	smem
scale	fixtures/annotate/scale.cl:9	2	0.06	2	1	issue_cycle
EOF

test_expect_success '--lines: the cycles of each source line, as the trace was built; no warning' '
	stall-annotate --lines scale.attr > out 2> err &&
	test_cmp lines.expect out &&
	test_cmp /dev/null err
'

test_expect_success 'line 8 of scale.cl and line 8 of scale.h are two source lines' '
	grep -c ":8	" out > actual && echo 2 > expect && test_cmp expect actual
'

test_expect_success 'the same in one command on the capture, and with -k and --dispatch' '
	stall-annotate --lines "$DIR/scale" > out &&
	test_cmp lines.expect out &&
	stall-annotate --lines -k scale --dispatch 0 "$DIR/scale" > out &&
	test_cmp lines.expect out &&
	test_expect_code 2 stall-annotate --lines -k nosuch "$DIR/scale" > out 2> err &&
	echo "stall-annotate: $DIR/scale: no trace buffer matches -k nosuch (1 in all)" > expect &&
	test_cmp expect err &&
	test_expect_code 2 stall-annotate --lines --dispatch 7 scale.attr > out 2> err &&
	echo "stall-annotate: scale.attr: no rows of dispatch 7" > expect &&
	test_cmp expect err &&
	test_expect_code 2 stall-annotate --lines -k nosuch scale.attr > out 2> err &&
	echo "stall-annotate: scale.attr: no rows of kernel nosuch" > expect &&
	test_cmp expect err
'

# every pc of .text: the kernel, the function the kernel calls into
# (__clang_ocl_kern_imp_scale) and the s_code_end padding no line covers
test_expect_success ADDR2LINE 'every pc of the object on llvm-addr2line'"'"'s line' '
	pcs=$(awk "BEGIN { for (p = 5632; p < 5824; p += 4) printf \"0x%x \", p }") &&
	"$TOP/build/dwarf_test" "$DIR/scale.hsaco" $pcs > actual &&
	llvm-addr2line-22 -e "$DIR/scale.hsaco" $pcs > expect &&
	test_cmp expect actual &&
	grep -c "??:0" actual > n && ! echo 0 | cmp -s - n
'

test_expect_success ADDR2LINE '--lines summed by llvm-addr2line'"'"'s line of each row'"'"'s pc' '
	awk -F"\t" "!/^#/ { print \$6 }" scale.attr | sort -u > pcs &&
	llvm-addr2line-22 -e "$DIR/scale.hsaco" $(cat pcs) > lines &&
	paste pcs lines > map &&
	awk -F"\t" -v OFS="\t" "
		FILENAME == \"map\" { src[\$1] = \$2; next }
		/^#/ { next }
		{ c[src[\$6]] += \$13; h[src[\$6]] += 1 }
		END { for (s in c) print s, c[s], h[s] }" map scale.attr | sort > expect &&
	awk -F"\t" -v OFS="\t" "!/^#/ { print \$2, \$3, \$5 }" lines.expect | sort > actual &&
	test_cmp expect actual
'

test_expect_success 'a pc that ran with no line: one warning, the rows on ??:0' '
	awk -F"\t" -v OFS="\t" "!/^#/ && \$6 == \"0x1634\" && \$4 == 1 { \$6 = \"0x1690\" } { print }" scale.attr > pad.attr &&
	stall-annotate --lines pad.attr > out 2> err &&
	echo "stall-annotate: warning: kernel scale: 1 pc that ran has no source line in the code object'"'"'s DWARF (the first: 0x1690)" > expect &&
	test_cmp expect err &&
	grep "	??:0	300	" out
'

test_done
