#!/bin/sh
# t0701-bad-valgrind: the hostile inputs of tests/bad/ that programs without LLVM read
# (encode-*, attr-*, table-*, index-*) under valgrind's memcheck: exit 2, and no invalid
# read or write, no jump on an uninitialised value, no memory definitely lost on the way
# out of the error (a row's error raises to the program's catch, past its frames).
. "$(dirname "$0")/lib.sh"

BAD="$TOP/tests/bad"

# vg PROG ARG...: PROG under memcheck (exit 99 on an error of its)
vg() {
	valgrind --quiet --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
	    --log-file=vg.log "$BIN/$@"
}

grep -v '^#' "$BAD/expect" | cut -f 1 | grep "^encode-\|^attr-\|^table-\|^index-" > cases

while read -r f; do
	test_expect_success VALGRIND "$f: exit 2, memcheck clean" '
		cp "$BAD/$f" . &&
		case $f in
		encode-*) test_expect_code 2 vg sqtt-encode -d out.d "$f" > out 2> err ;;
		attr-*) test_expect_code 2 vg stall-attr "$f" > out 2> err ;;
		table-*) test_expect_code 2 vg stall-table "$f" > out 2> err ;;
		index-*) rm -rf cap && mkdir cap && cp "$f" cap/capture.tsv &&
			test_expect_code 2 vg sqtt-dump cap > out 2> err ;;
		esac &&
		test_cmp /dev/null vg.log
	'
done < cases

test_done
