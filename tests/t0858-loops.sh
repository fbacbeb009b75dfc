#!/bin/sh
# t0858-loops: the loops libcommon/code/loops.c finds (through build/loops_test) in
# listings written for it, by stall-annotate(1)'s words: a backward branch or one to
# itself closes a loop, from its target to it; a loop is spin when it only polls (it
# reads memory or a flag and does nothing but compare, wait and branch), not when it
# only compares (issue 24's survivors: a branch to itself no loop; a loop that only
# compares called spin).
. "$(dirname "$0")/lib.sh"

LT="$TOP/build/loops_test"

test_expect_success 'a branch to itself, a loop that compares, one that polls, one that computes' '
	tr "|" "\t" > listing <<-\EOF &&
	0x100|salu|-|s_mov_b32 s0, 0
	0x104|branch|0x104|s_cbranch_scc1 65535
	0x108|salu|-|s_cmp_eq_u32 s0, 0
	0x10c|branch|0x108|s_cbranch_scc0 65534
	0x110|smem|-|s_load_b32 s1, s[2:3], 0x0
	0x114|waitcnt|-|s_waitcnt lgkmcnt(0)
	0x118|salu|-|s_cmp_eq_u32 s1, 0
	0x11c|branch|0x110|s_cbranch_scc1 65532
	0x120|smem|-|s_load_b32 s1, s[2:3], 0x0
	0x124|valu|-|v_add_f32_e32 v1, 1.0, v1
	0x128|branch|0x120|s_cbranch_scc1 65533
	0x12c|branch|0x140|s_cbranch_scc0 4
	0x130|endpgm|-|s_endpgm
	EOF
	"$LT" loops < listing | awk "{ print \$1 \"\\t\" \$2 \"\\t\" (\$3 == \"spin\") }" > actual &&
	printf "0x%s\t0x%s\t%s\n" 104 104 0 108 10c 0 110 11c 1 120 128 0 > expect &&
	test_cmp expect actual
'

test_expect_success 'the innermost of two nested loops' '
	tr "|" "\t" > nested <<-\EOF &&
	0x100|smem|-|s_load_b32 s1, s[2:3], 0x0
	0x104|waitcnt|-|s_waitcnt lgkmcnt(0)
	0x108|branch|0x104|s_cbranch_scc1 65534
	0x10c|valu|-|v_add_f32_e32 v1, 1.0, v1
	0x110|branch|0x100|s_cbranch_scc0 65531
	EOF
	"$LT" loops < nested | awk "{ print \$1 \"\\t\" \$2 \"\\t\" (\$3 == \"spin\") }" > actual &&
	printf "0x104\t0x108\t0\n" > expect &&
	test_cmp expect actual
'

test_done
