#!/bin/sh
# t0880-annotate-fixtures: stall-annotate on every real capture of ../shared: every view
# answers (a capture without s_waitcnt is exit 2 for --waits and --loads, one line), and
# the cycles of every view of every kernel add up to its rows'.
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/annotate-lib.sh"
need_shared

for f in "$FIXTURES"/*.pkl; do
	n=$(basename "$f" .pkl)
	test_expect_success "$n: every view, cycles conserved per kernel" '
		sqtt-dump "'"$f"'" > p 2> /dev/null &&
		sqtt-walk p > r 2> /dev/null &&
		stall-attr r > a 2> /dev/null &&
		awk -F"\t" "!/^#/ && \$11 != \"untraced\" { c[\$3] += \$13 } END { for (k in c) print k, c[k] }" a | sort > expect &&
		stall-annotate --lines a > lines &&
		awk -F"\t" "!/^#/ { c[\$1] += \$3 } END { for (k in c) print k, c[k] }" lines | sort > actual &&
		test_cmp expect actual &&
		stall-annotate --hidden a > hidden &&
		awk -F"\t" "\$1 == \"##kernel\" { print \$2, \$6 + \$8 }" hidden | sort > actual &&
		test_cmp expect actual &&
		stall-annotate --loops a > loops &&
		awk -F"\t" "\$1 == \"##kernel\" { print \$2, \$8 + \$10 }" loops | sort > actual &&
		test_cmp expect actual &&
		stall-annotate --annotate a > ann &&
		stall-annotate --hints a > hints &&
		if grep -q "	waitcnt	" a; then
			stall-annotate --waits a > waits && stall-annotate --loads a > loads
		else
			test_expect_code 2 stall-annotate --waits a > waits 2> err &&
			test_one_line_error stall-annotate err
		fi
	'
done

test_done
