#!/bin/sh
# t0700-bad: every input of tests/bad/ gives exit 2, nothing on stdout that looks like a
# result, and exactly the one error line tests/bad/expect gives for it.
. "$(dirname "$0")/lib.sh"

BAD="$TOP/tests/bad"

grep -v '^#' "$BAD/expect" | while IFS='	' read -r f line; do
	printf '%s\t%s\n' "$f" "$line"
done > cases

while IFS='	' read -r f line; do
	test_expect_success "$f gives its one error line" '
		cp "$BAD/$f" . &&
		printf "%s\n" "$line" > expect &&
		case $f in
		encode-*) test_expect_code 2 sqtt-encode -d out.d "$f" > out 2> err ;;
		attr-*) test_expect_code 2 stall-attr "$f" > out 2> err ;;
		table-*) test_expect_code 2 stall-table "$f" > out 2> err ;;
		annotate-*) test_expect_code 2 sh -c "cd \"\$1\" && stall-annotate \"\$2\"" - "$TOP" "$T_DIR/$f" > out 2> err.abs &&
			sed "s|$T_DIR/||" err.abs > err ;;
		walk-*) test_expect_code 2 sqtt-walk "$f" > out 2> err ;;
		rules-*) test_expect_code 2 stall-budget "$f" "$TOP/fixtures/demo" > out 2> err ;;
		index-*) rm -rf cap && mkdir cap && cp "$f" cap/capture.tsv &&
			test_expect_code 2 sqtt-dump cap > out 2> err.abs &&
			sed "s|$(pwd -P)/||" err.abs > err ;;
		esac &&
		test_cmp expect err &&
		! grep -v "^##\|^#" out
	'
done < cases

test_done
