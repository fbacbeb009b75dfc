#!/bin/sh
# t0701-bad-valgrind: every hostile input of tests/bad/, run as t0700 runs it, under
# valgrind's memcheck: exit 2, and no invalid read or write, no jump on an uninitialised
# value, no memory definitely lost on the way out of the error (a row's error raises to
# the program's catch, past its frames).
. "$(dirname "$0")/lib.sh"

BAD="$TOP/tests/bad"

# vg PROG ARG...: PROG under memcheck (exit 99 on an error of its)
vg() {
	sh "$TOP/scripts/memcheck.sh" vg.log "$BIN/$@"
}

grep -v '^#' "$BAD/expect" | cut -f 1 > cases

while read -r f; do
	test_expect_success VALGRIND "$f: exit 2, memcheck clean" '
		cp "$BAD/$f" . &&
		case $f in
		encode-*) test_expect_code 2 vg sqtt-encode -d out.d "$f" > out 2> err ;;
		attr-*) test_expect_code 2 vg stall-attr "$f" > out 2> err ;;
		table-*) test_expect_code 2 vg stall-table "$f" > out 2> err ;;
		index-*) rm -rf cap && mkdir cap && cp "$f" cap/capture.tsv &&
			test_expect_code 2 vg sqtt-dump cap > out 2> err ;;
		annotate-*) test_expect_code 2 sh -c "cd \"\$1\" && shift && \"\$@\"" - "$TOP" \
			sh "$TOP/scripts/memcheck.sh" "$T_DIR/vg.log" \
			"$BIN/stall-annotate" "$T_DIR/$f" > out 2> err ;;
		walk-*) test_expect_code 2 vg sqtt-walk "$f" > out 2> err ;;
		rules-*) test_expect_code 2 vg stall-budget "$f" "$TOP/fixtures/demo" > out 2> err ;;
		*) echo "t0701: no way to run $f" >&2; false ;;
		esac &&
		test_cmp /dev/null vg.log
	'
done < cases

test_done
