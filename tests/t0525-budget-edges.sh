#!/bin/sh
# t0525-budget-edges: each comparison of stall-budget(1) at its limit and one past it, on
# the demo kernel, whose 7794 cycles in 3 waves (2598 a wave, what a cycles rule
# measures) are known by construction (t0430): a rule at exactly
# its limit holds for <= and >=, breaks for < and > (issue 24's survivor: > kept at
# equality).
. "$(dirname "$0")/lib.sh"

test_expect_success 'the demo: 2598 cycles a wave' '
	stall --rows "$TOP/fixtures/demo" > rows.tsv &&
	echo "demo cycles <= 2598" > r &&
	stall-budget r rows.tsv > out &&
	printf "ok\tr:1\tdemo\t2598.00\t<=\t2598.00\tdemo cycles <= 2598\n" > expect &&
	grep -v "^#" out > actual &&
	test_cmp expect actual
'

while read -r op limit verdict; do
	test_expect_success "demo cycles $op $limit: $verdict" "
		echo 'demo cycles $op $limit' > r &&
		if [ $verdict = ok ]; then st=0; else st=1; fi &&
		test_expect_code \$st stall-budget r rows.tsv > out 2> err &&
		printf '$verdict\tr:1\tdemo\t2598.00\t%s\t$limit.00\tdemo cycles %s $limit\n' '$op' '$op' > expect &&
		grep -v '^#' out > actual &&
		test_cmp expect actual
	"
done <<'EOF'
<= 2598 ok
<= 2597 broken
< 2599 ok
< 2598 broken
>= 2598 ok
>= 2599 broken
> 2597 ok
> 2598 broken
EOF

test_done
