#!/bin/sh
# t0615-json-separators: U+2028 and U+2029 are valid in JSON but end a line in
# JavaScript (the page of --html holds the JSON in a script): both are written as
# \u2028 and \u2029, in the table's JSON and the trace's; any other UTF-8 stays as it is
# (issue 24's survivor: U+2029 written raw).
. "$(dirname "$0")/lib.sh"

# rows of a kernel named a<U+2028>b<U+2029>c<U+00E9>d
rows() {
	k=$(printf 'a\342\200\250b\342\200\251c\303\251d')
	printf '#event\tse\tkernel\twave\tslot\tpc\ttime\tdelta\ttoken\tinst\tclass\tdep\tcost\tcause\n'
	printf '0\t0\t%s\t0\t0\t0x100\t10\t10\tVALU_INST\tv_a\tvalu\t-\t10\twave_start\n' "$k"
	printf '0\t0\t%s\t0\t0\t0x104\t15\t5\tWAVE_END\ts_endpgm\tendpgm\t-\t5\tdrain\n' "$k"
}

test_expect_success 'stall-table --json: the kernel a\u2028b\u2029c, then e-acute raw' '
	rows > r.tsv &&
	stall-table --json r.tsv > out &&
	grep -o "\"kernel\": \"[^\"]*\"" out > actual &&
	printf "\"kernel\": \"a\\\\u2028b\\\\u2029c\303\251d\"\n" > expect &&
	test_cmp expect actual
'

test_expect_success 'stall-table --trace-json: the same in the process name' '
	rows > r.tsv &&
	stall-table --trace-json t.json r.tsv > /dev/null &&
	grep -o "\"name\": \"a[^\"]* SE0" t.json > actual &&
	printf "\"name\": \"a\\\\u2028b\\\\u2029c\303\251d SE0\n" > expect &&
	test_cmp expect actual &&
	test_expect_code 1 grep -c "$(printf "\342\200[\250\251]")" t.json
'

test_done
