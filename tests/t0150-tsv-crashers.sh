#!/bin/sh
# Inputs the fuzzers found (tests/fuzz/), replayed through every reader: each must end
# with status 0 or 2 and, on 2, one line naming the program.
. "$(dirname "$0")/lib.sh"

for f in "$TOP"/tests/data/tsv-crash-*.tsv; do
	[ -e "$f" ] || continue
	b=$(basename "$f")
	for cmd in "sqtt-encode -o /dev/null" sqtt-walk stall-attr "stall-attr --raw" stall-table "stall-table --json" "stall-table --by-dispatch" "stall-table --html /dev/null --trace-json /dev/null"; do
		test_expect_success "$cmd survives $b" "
			{ (cd '$TOP' && $cmd '$f') > out 2> err; st=\$?; } &&
			case \$st in
			0) ;;
			2) test_one_line_error \${cmd%% *} err ;;
			*) echo \"status \$st\"; cat err; false ;;
			esac
		"
	done
done

test_done
