#!/bin/sh
# t0010-layers: the library's includes point down (scripts/layers.sh): no header of a
# higher layer is included, no circle is closed; and the check fails when one is.
. "$(dirname "$0")/lib.sh"

test_expect_success 'the tree as it is: every include points down' '
	sh "$TOP/scripts/layers.sh" "$TOP/libcommon" >out 2>&1 &&
	test_cmp /dev/null out
'

test_expect_success 'an include that points up is named, exit 1' '
	cp -R "$TOP/libcommon" up &&
	printf "#include \"walk.h\"\n" >>up/base/util.c &&
	test_expect_code 1 sh "$TOP/scripts/layers.sh" up >out 2>&1 &&
	grep "^layers: up/base/util.c: includes walk.h (analysis above base)\$" out
'

test_expect_success 'a circle within a layer is named, exit 1' '
	cp -R "$TOP/libcommon" circle &&
	printf "#include \"attr.h\"\n" >>circle/analysis/cause.h &&
	test_expect_code 1 sh "$TOP/scripts/layers.sh" circle >out 2>&1 &&
	echo "layers: circle: attr -> cause -> attr" >expect &&
	test_cmp expect out
'

test_expect_success 'a folder that is no layer is refused, exit 2' '
	mkdir -p odd/base odd/misc &&
	test_expect_code 2 sh "$TOP/scripts/layers.sh" odd 2>err &&
	grep "^layers: odd/misc: not a layer" err
'

test_done
