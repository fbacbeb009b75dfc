#!/bin/sh
# t0525-budget-edges: each comparison of stall-budget(1) at its limit and one past it, on
# the demo kernel, whose 7794 cycles are known by construction (t0430): a rule at exactly
# its limit holds for <= and >=, breaks for < and > (issue 24's survivor: > kept at
# equality).
. "$(dirname "$0")/lib.sh"

test_expect_success 'the demo: 7794 cycles' '
	stall --rows "$TOP/fixtures/demo" > rows.tsv &&
	echo "demo cycles <= 7794" > r &&
	stall-budget r rows.tsv > out &&
	printf "ok\tr:1\tdemo\t7794\t<=\t7794\tdemo cycles <= 7794\n" > expect &&
	grep -v "^#" out > actual &&
	test_cmp expect actual
'

while read -r op limit verdict; do
	test_expect_success "demo cycles $op $limit: $verdict" "
		echo 'demo cycles $op $limit' > r &&
		if [ $verdict = ok ]; then st=0; else st=1; fi &&
		test_expect_code \$st stall-budget r rows.tsv > out 2> err &&
		printf '$verdict\tr:1\tdemo\t7794\t%s\t$limit\tdemo cycles %s $limit\n' '$op' '$op' > expect &&
		grep -v '^#' out > actual &&
		test_cmp expect actual
	"
done <<'EOF'
<= 7794 ok
<= 7793 broken
< 7795 ok
< 7794 broken
>= 7794 ok
>= 7795 broken
> 7793 ok
> 7794 broken
EOF

test_done
