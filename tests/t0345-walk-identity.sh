#!/bin/sh
# A program is (name, tag) on every path: a capture of two programs named demo (the two
# versions of fixtures/, tags 1 and 2, written by sqtt-encode) walks each buffer on its own
# version, through stall --rows, the four stages and a stream whose ##code lines send the
# walk back to the capture for the code object; the rows are those of each version alone.
. "$(dirname "$0")/lib.sh"

A="$TOP/fixtures/demo" B="$TOP/fixtures/demo-v2"

test_expect_success 'the capture: demo (tag 1, events 0 1) and demo-v2 (tag 2, events 2 3)' '
	sqtt-dump "$A" > a.packets && sqtt-dump "$B" > b.packets &&
	{
		echo "##target	gfx1100"
		grep "^##code" a.packets
		grep "^##code" b.packets | awk -F"\t" -v OFS="\t" "{ \$3 = 2; print }"
		grep "^##event" a.packets
		grep "^##event" b.packets |
		    awk -F"\t" -v OFS="\t" "{ \$2 += 2; \$5 = 2; \$11 += 2; print }"
		grep "^#[^#]" a.packets
		grep -v "^#" a.packets
		grep -v "^#" b.packets | awk -F"\t" -v OFS="\t" "{ \$1 += 2; print }"
	} > two.packets &&
	sqtt-encode -d two two.packets &&
	test "$(grep -c "^##code	demo	" two/capture.tsv)" = 2
'

# The rows of one version alone, as the two-program capture must give them: events
# renumbered, the tag set.
alone() {	# alone CAPTURE EVENT-OFFSET TAG
	stall --rows "$1" | grep -v "^#" |
	    awk -F"\t" -v OFS="\t" -v d="$2" -v tag="$3" "{ \$1 += d; \$18 = tag; print }"
}

test_expect_success 'stall --rows: each buffer on its own version, no warning' '
	stall --rows two > rows.stall 2> err &&
	test_cmp /dev/null err &&
	test "$(grep "^#[^#]" rows.stall | cut -f13-)" = "cost	cause	retired	cost2	cause2	tag" &&
	{ alone "$A" 0 1 && alone "$B" 2 2; } > expect &&
	grep -v "^#" rows.stall > actual &&
	test_cmp expect actual &&
	test "$(wc -l < actual)" -gt 100
'

test_expect_success 'sqtt-dump | sqtt-walk | stall-attr: the same rows, byte for byte' '
	sqtt-dump two > p 2> err.1 && sqtt-walk p > w 2> err.2 && stall-attr w > rows.pipe 2> err.3 &&
	cat err.1 err.2 err.3 > err && test_cmp /dev/null err &&
	test_cmp rows.stall rows.pipe &&
	test "$(grep "^#[^#]" w | cut -f12-)" = "dep	tag"
'

test_expect_success 'a stream whose ##code says "-": the code object from the capture, by (name, tag)' '
	awk -F"\t" -v OFS="\t" "/^##code/ { \$6 = \"-\" } { print }" p > dash.packets &&
	sqtt-walk dash.packets > w.dash 2> err && test_cmp /dev/null err &&
	stall-attr w.dash > rows.dash &&
	grep -v "^#" rows.dash > actual &&
	grep -v "^#" rows.stall > expect &&
	test_cmp expect actual
'

test_expect_success 'a tag that no program of the capture has: that program fails, exit 2' '
	awk -F"\t" -v OFS="\t" "/^##code/ && \$3 == 2 { \$3 = 7; \$6 = \"-\" }
	    /^##event/ && \$5 == 2 { \$5 = 7 } { print }" p > seven.packets &&
	test_expect_code 2 sqtt-walk seven.packets > w.seven 2> err &&
	grep -q "program demo (tag 7): no code object in the capture; its events are not walked" err
'

# stall-annotate keys a kernel by (name, tag) too: each view of the two-program capture is
# that of each version alone, the kernel named with its tag (two kernels share the name),
# on the capture itself (in process), on stall --rows and on the four stages' rows.
label() {	# label TAG: the kernel column and the kernel lines of one version's view
	sed -e "s/^demo	/demo (tag $1)	/" -e "s/^##kernel	demo	/##kernel	demo (tag $1)	/" \
	    -e "s/^## demo\([: ]\)/## demo (tag $1)\1/"
}
# the view's header lines (##stall-annotate, the column line), then the rest
view_head() { awk '!/^##stall-annotate/ && !/^#[^#]/ { exit } { print }' "$1"; }
view_body() { awk 'h || (!/^##stall-annotate/ && !/^#[^#]/) { h = 1; print }' "$1"; }
for view in lines annotate loops waits loads hidden hints; do
	test_expect_success "stall-annotate --$view: the versions apart, the same on every path" "
		stall-annotate --$view two > two.$view 2> err && test_cmp /dev/null err &&
		stall-annotate --$view \"\$A\" > a.$view && stall-annotate --$view \"\$B\" > b.$view &&
		{ view_head a.$view && view_body a.$view | label 1 &&
		    view_body b.$view | label 2; } > expect &&
		test_cmp expect two.$view &&
		{ test $view = hints || grep -q \"demo (tag 2)\" two.$view; } &&
		stall-annotate --$view rows.stall > rows.$view && test_cmp expect rows.$view &&
		stall-annotate --$view rows.pipe > pipe.$view && test_cmp expect pipe.$view
	"
done

test_done
