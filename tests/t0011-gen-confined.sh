#!/bin/sh
# t0011-gen-confined: a generation's tokens, op numbers and names stay in gen/ and trace/
# (scripts/gen-confined.sh); and the check fails when one leaks out.
. "$(dirname "$0")/lib.sh"

test_expect_success 'the tree as it is: nothing of a generation outside gen/ and trace/' '
	sh "$TOP/scripts/gen-confined.sh" "$TOP" >out 2>&1 &&
	test_cmp /dev/null out
'

tree() {
	mkdir -p "$1" && cp -R "$TOP/libcommon" "$TOP/cmd" "$1"/
}

# one_leak DIR FILE LINE NAME: a copy of the tree in DIR with LINE added at the end of
# FILE; the check exits 1 and names NAME there, on that line, and nothing else
one_leak() {
	tree "$1" &&
	printf "%s\n" "$3" >> "$1/$2" &&
	test_expect_code 1 sh "$TOP/scripts/gen-confined.sh" "$1" > out 2>&1 &&
	echo "gen-confined: $2:$(wc -l < "$1/$2"): $4" > want &&
	test_cmp want out
}

test_expect_success 'a token type in a program is named, exit 1' '
	one_leak tok cmd/sqtt-walk.c "static int t = TOK_INST;" TOK_INST
'

test_expect_success 'an op number in the analysis layer is named, exit 1' '
	one_leak op libcommon/analysis/rowkind.c "static int o = SQTT_OP_JUMP;" SQTT_OP_JUMP
'

test_expect_success 'a generation-named function outside gen/ is named, exit 1' '
	one_leak fn libcommon/capture/capture.c "int f(void) { return gfx11_op_unit(3); }" gfx11_op_unit
'

test_expect_success 'an op number in walk.c is refused too' '
	one_leak walk libcommon/analysis/walk.c "static int o = SQTT_OP_BARRIER;" SQTT_OP_BARRIER
'

test_expect_success 'a token type in the walk, occupancy, codeobj or the pipeline is refused (they ask a kind)' '
	tree kinds &&
	for f in analysis/walk.c analysis/occupancy.c code/codeobj.c pipeline/pipeline.c; do
		printf "static int t = TOK_WAVE_END;\n" >>kinds/libcommon/$f || return 1
	done &&
	test_expect_code 1 sh "$TOP/scripts/gen-confined.sh" kinds >out 2>&1 &&
	test "$(grep -c ": TOK_WAVE_END\$" out)" -eq 4 &&
	test "$(wc -l <out)" -eq 4
'

test_expect_success 'a gfx9 name in the pipeline, the capture model or sqtt-encode is refused' '
	tree g9 &&
	for f in libcommon/pipeline/pipeline.c libcommon/capture/capture-model.c cmd/sqtt-encode.c; do
		printf "static int b(void) { return gfx9_is_stream(0, 0); }\n" >>g9/$f || return 1
	done &&
	test_expect_code 1 sh "$TOP/scripts/gen-confined.sh" g9 >out 2>&1 &&
	test "$(grep -c ": gfx9_is_stream\$" out)" -eq 3 &&
	test "$(wc -l <out)" -eq 3
'

test_expect_success 'a headerless stream token type or category in the slot walk is refused (it asks a kind)' '
	tree slots &&
	printf "static int t = G9_ISSUE;\n" >>slots/libcommon/analysis/slotwalk.c &&
	printf "static int c = G9C_SMEM;\n" >>slots/libcommon/analysis/walk.c &&
	printf "static void *w = gfx9walk_new;\n" >>slots/libcommon/analysis/walk.h &&
	test_expect_code 1 sh "$TOP/scripts/gen-confined.sh" slots >out 2>&1 &&
	printf "%s\n" "gen-confined: libcommon/analysis/slotwalk.c:$(wc -l <slots/libcommon/analysis/slotwalk.c): G9_ISSUE" \
	    "gen-confined: libcommon/analysis/walk.c:$(wc -l <slots/libcommon/analysis/walk.c): G9C_SMEM" \
	    "gen-confined: libcommon/analysis/walk.h:$(wc -l <slots/libcommon/analysis/walk.h): gfx9walk_new" >want &&
	test_cmp want out
'

test_expect_success 'a gfx9 field reader in the walk is refused' '
	one_leak fields libcommon/analysis/slotwalk.c \
	    "static void f(const void *t, void *x) { gfx9_fields(t, x); }" gfx9_fields
'

test_expect_success 'the same in gen/ and trace/ is theirs: no hit' '
	tree ok &&
	printf "static int t = TOK_INST;\n" >>ok/libcommon/trace/packet.c &&
	printf "static int o = SQTT_OP_JUMP;\n" >>ok/libcommon/gen/token.c &&
	sh "$TOP/scripts/gen-confined.sh" ok >out 2>&1 &&
	test_cmp /dev/null out
'

test_expect_success 'a folder without the tree is refused, exit 2' '
	mkdir -p empty &&
	test_expect_code 2 sh "$TOP/scripts/gen-confined.sh" empty 2>err &&
	grep "^gen-confined: empty: no libcommon/ and cmd/ in it\$" err
'

test_done
