#!/bin/sh
# t0855-annotate-lds: the lds hint of stall-annotate --hints fires where an LDS
# instruction's issue stalled (lds_queue) at least 4 cycles a time (issue 24's survivor:
# the threshold doubled).  The rows are hot's (t0850), with the stalls of its
# ds_store_b32 at 0x133c (12 and 14 cycles in its two waves) made shorter: the store
# issues earlier and the wave's next row waits the cycles it no longer does, so that
# every wave's costs still add up to its lifetime.
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/annotate-lib.sh"

# stalls A B: hot.attr with the 0x133c stalls of waves 0 and 1 made A and B cycles
stalls() {
	awk -F"\t" -v OFS="\t" -v a=$1 -v b=$2 "
		/^#/ { print; next }
		\$6 == \"0x133c\" && \$14 == \"lds_queue\" { c = \$4 == 0 ? a : b; d[\$4] = \$13 - c
			\$7 -= d[\$4]; \$8 -= d[\$4]; \$13 = c; print; next }
		\$4 in d { \$8 += d[\$4]; \$13 += d[\$4]; delete d[\$4] }
		{ print }" hot.attr
}

test_expect_success 'the rows of hot' '
	rows_of hot &&
	grep -v "^#" hot.attr | awk -F"\t" "\$6 == \"0x133c\" { print \$4, \$13, \$14 }" > actual &&
	printf "0 12 lds_queue\n1 14 lds_queue\n" > expect &&
	test_cmp expect actual
'

while read -r a b hint; do
	if [ -n "$hint" ]; then what="the lds hint, $hint a time"; else what="no lds hint"; fi
	test_expect_success "stalls of $a and $b cycles: $what" "
		stalls $a $b > lds.attr &&
		cycles hot.attr > expect && cycles lds.attr > actual && test_cmp expect actual &&
		stall-annotate --hints lds.attr > out &&
		awk -F'\t' '\$2 == \"lds\" { print \$3, \$4, \$5 }' out > actual &&
		if [ -n '$hint' ]; then
			echo '0x133c $((a + b)) its issue stalled $hint cycles a time (2 times): bank conflicts likely, check the addresses of its lanes' > expect
		else
			: > expect
		fi &&
		test_cmp expect actual
	"
done <<'EOF'
4 4 4.0
3 5 4.0
3 4
8 8 8.0
7 8 7.5
EOF

test_done
