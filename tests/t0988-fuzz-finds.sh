#!/bin/sh
# t0988: what the fuzzers found (scripts/fuzz.sh), each input kept under tests/data with
# the exact result it must give.
#   dwarf-line-past-int.hsaco: fuzz_annotate's 'D' input (fixtures/annotate/hostile.hsaco
#   mutated): line table rows whose line number is past INT_MAX, which libdw hands over
#   as an unsigned int; they were lines -1 to -4.  A row with no line number is no line:
#   "??:0", as for a pc the table does not cover.
. "$(dirname "$0")/lib.sh"

test_expect_success 'DWARF line numbers past INT_MAX: no line (??:0), never a negative one' '
	pcs=$(seq 4096 4 69632 | awk "{ printf \"%x \", \$1 }") &&
	"$TOP/build/dwarf_test" "$TOP/tests/data/dwarf-line-past-int.hsaco" $pcs > out &&
	! grep -q ":-[0-9]" out &&
	test "$(grep -c "^??:0$" out)" = 16371 &&
	test "$(grep -c "^/etc/passwd:2$" out)" = 1 &&
	test "$(grep -c "^/dev/stdin:1$" out)" = 2 &&
	test "$(grep -c "^fixtures/annotate/hostile.cl:3$" out)" = 4
'

test_done
