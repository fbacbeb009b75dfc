#!/bin/sh
# align (libcommon, through build/align_test): instruction lists whose alignment is known
# by construction: the tie between equal instructions, a swap, a move across several
# lines, registers renumbered, two 100k-instruction kernels that differ at both ends.
. "$(dirname "$0")/lib.sh"

AT="$TOP/build/align_test"
tabs() { tr '|' '\t'; }
lines() { printf "%s\n" "$@"; }

test_expect_success 'the shape of an instruction: registers as kind and width' '
	"$AT" shape "global_load_b128 v[50:53], v[16:17], off offset:256" >actual &&
	"$AT" shape "v_add_co_u32 v46, vcc_lo, v20, s2" >>actual &&
	"$AT" shape "s_load_b64 s[2:3], s[0:1], 0x8" >>actual &&
	"$AT" shape "v_mov_b32 v0, ttmp3 a7 exec_lo m0 v_nop" >>actual &&
	cat >expect <<\EOF2 &&
global_load_b128 v[4], v[2], off offset:256
v_add_co_u32 v, vcc_lo, v, s
s_load_b64 s[2], s[2], 0x8
v_mov_b32 v, ttmp a exec_lo m0 v_nop
EOF2
	test_cmp expect actual
'

# a: x y x; b: x x y x.  The x at b 1 is the one added (the earlier x is aligned).
test_expect_success 'of two equal instructions the earlier is aligned, the later added' '
	lines x y x >a && lines x x y x >b &&
	"$AT" a b >actual &&
	tabs >expect <<\EOF2 &&
=|0|0|x
+|-|1|x
=|1|2|y
=|2|3|x
EOF2
	test_cmp expect actual &&
	"$AT" b a >actual &&
	tabs >expect <<\EOF2 &&
=|0|0|x
-|1|-|x
=|2|1|y
=|3|2|x
EOF2
	test_cmp expect actual
'

# A loop body of two equal instructions, three in b: the third is the one added.
test_expect_success 'three equal where there were two: the third is added' '
	lines s_load v_add v_add s_endpgm >a && lines s_load v_add v_add v_add s_endpgm >b &&
	"$AT" a b | cut -f1-3 >actual &&
	tabs >expect <<\EOF2 &&
=|0|0
=|1|1
=|2|2
+|-|3
=|3|4
EOF2
	test_cmp expect actual
'

# w and an x added before two: the x left over is the last one, not the first.
test_expect_success 'an equal instruction added among others: the last is the one marked' '
	lines x x z >a && lines w x x x z >b &&
	"$AT" a b | cut -f1-3 >actual &&
	tabs >expect <<\EOF2 &&
+|-|0
=|0|1
=|1|2
+|-|3
=|2|4
EOF2
	test_cmp expect actual
'

test_expect_success 'renumbered registers align in place, marked r; exact text is the tie-break' '
	lines "v_mov_b32 v1, 0" "v_add_f32 v1, v1, v2" s_endpgm >a &&
	lines "v_mov_b32 v5, 0" "v_add_f32 v5, v5, v6" s_endpgm >b &&
	"$AT" a b | cut -f1-3 >actual &&
	tabs >expect <<\EOF2 &&
r|0|0
r|1|1
=|2|2
EOF2
	test_cmp expect actual &&
	lines "v_mov_b32 v1, 0" s_endpgm >a &&
	lines "v_mov_b32 v2, 0" "v_mov_b32 v1, 0" s_endpgm >b &&
	"$AT" a b | cut -f1-3 >actual &&
	tabs >expect <<\EOF2 &&
+|-|0
=|0|1
=|1|2
EOF2
	test_cmp expect actual
'

# Two neighbours traded places: a swap, both marked m.  One line moved across three:
# only it is marked; the three it crossed stay aligned.
test_expect_success 'a swap marks both; a move across several lines marks only the line moved' '
	lines p q r s >a && lines p r q s >b &&
	"$AT" a b | cut -f1-3 >actual &&
	tabs >expect <<\EOF2 &&
=|0|0
m|2|1
m|1|2
=|3|3
EOF2
	test_cmp expect actual &&
	lines p q r s t u >a && lines p r s t q u >b &&
	"$AT" a b | cut -f1-3 >actual &&
	tabs >expect <<\EOF2 &&
=|0|0
=|2|1
=|3|2
=|4|3
m|1|4
=|5|5
EOF2
	test_cmp expect actual
'

test_expect_success 'an empty side: every line added or removed' '
	: >empty && lines p q >a &&
	"$AT" a empty | cut -f1-3 >actual &&
	printf -- "-\t0\t-\n-\t1\t-\n" >expect && test_cmp expect actual &&
	"$AT" empty a | cut -f1-3 >actual &&
	printf -- "+\t-\t0\n+\t-\t1\n" >expect && test_cmp expect actual
'

# The quadratic table refused these (more than 4096 instructions between the first and
# the last difference); linear space aligns them, the middle row for row.
test_expect_success '100k instructions, changed at both ends, renumbered in half: row for row' '
	"$AT" ends 100000 >actual &&
	grep "^ok rows 100006 " actual &&
	grep " removed 6 added 6 other 0 approximate 0$" actual
'

test_expect_success 'two kernels with nothing in common: every line removed and added' '
	"$AT" apart 20000 >actual &&
	echo "ok rows 40000 removed 20000 added 20000" >expect &&
	test_cmp expect actual
'

test_done
