#!/bin/sh
# t0810-annotate-lines: stall-annotate --lines and --annotate on the project's -g kernels
# (fixtures/annotate/*.hsaco, built by clang-22 -g; traces authored by construction): the
# source line of every pc is llvm-addr2line's, costs per line add up, the listing is exact.
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/annotate-lib.sh"

test_expect_success 'the rows of hot, calm and poll' '
	rows_of hot && rows_of calm && rows_of poll
'

# A regression record of the output (causes included): the independent check is the
# llvm-addr2line one below, line by line, and the conservation of cycles after it.
test_expect_success '--lines of hot, exactly' '
	stall-annotate --lines hot.attr > out &&
	cat > expect <<-\EOF &&
	##stall-annotate	lines
	#kernel	source	cycles	percent	hits	insts	cause
	hot	fixtures/annotate/hot.s:18	1500	40.56	2	1	mem
	hot	fixtures/annotate/hot.s:12	1000	27.04	2	1	wave_start
	hot	fixtures/annotate/hot.s:37	600	16.22	2	1	drain
	hot	fixtures/annotate/hot.s:13	400	10.82	2	1	smem
	hot	fixtures/annotate/hot.s:26	60	1.62	2	1	lds
	hot	fixtures/annotate/hot.s:29	38	1.03	8	1	fetch
	hot	fixtures/annotate/hot.s:24	26	0.70	2	1	lds_queue
	hot	fixtures/annotate/hot.s:33	16	0.43	2	1	unexplained
	hot	fixtures/annotate/hot.s:35	10	0.27	2	1	valu_dep
	hot	fixtures/annotate/hot.s:30	8	0.22	8	1	issue_cycle
	hot	fixtures/annotate/hot.s:31	8	0.22	8	1	issue_cycle
	hot	fixtures/annotate/hot.s:32	8	0.22	8	1	issue_cycle
	hot	fixtures/annotate/hot.s:14	2	0.05	2	1	issue_cycle
	hot	fixtures/annotate/hot.s:15	2	0.05	2	1	issue_cycle
	hot	fixtures/annotate/hot.s:16	2	0.05	2	1	issue_cycle
	hot	fixtures/annotate/hot.s:17	2	0.05	2	1	issue_cycle
	hot	fixtures/annotate/hot.s:19	2	0.05	2	1	issue_cycle
	hot	fixtures/annotate/hot.s:20	2	0.05	2	1	issue_cycle
	hot	fixtures/annotate/hot.s:21	2	0.05	2	1	issue_cycle
	hot	fixtures/annotate/hot.s:22	2	0.05	2	1	issue_cycle
	hot	fixtures/annotate/hot.s:23	2	0.05	2	1	issue_cycle
	hot	fixtures/annotate/hot.s:25	2	0.05	2	1	issue_cycle
	hot	fixtures/annotate/hot.s:27	2	0.05	2	1	issue_cycle
	hot	fixtures/annotate/hot.s:36	2	0.05	2	1	issue_cycle
	EOF
	test_cmp expect out
'

# by_addr2line NAME: the rows' costs summed per llvm-addr2line's FILE:LINE of their pc
by_addr2line() {
	awk -F"\t" "!/^#/ { print \$6 }" "$1.attr" | sort -u > pcs &&
	"${ADDR2LINE:-llvm-addr2line-22}" -e "$TOP/fixtures/annotate/$1.hsaco" $(cat pcs) > lines &&
	paste pcs lines > map &&
	awk -F"\t" -v OFS="\t" "
		FILENAME == \"map\" { src[\$1] = \$2; next }
		/^#/ { next }
		{ c[src[\$6]] += \$13; h[src[\$6]] += 1 }
		END { for (s in c) print s, c[s], h[s] }" map "$1.attr" | sort > expect
}

for k in hot calm poll; do
	test_expect_success ADDR2LINE "--lines of $k: every pc on llvm-addr2line's line, costs per line summed" '
		by_addr2line '"$k"' &&
		stall-annotate --lines '"$k"'.attr > out &&
		awk -F"\t" -v OFS="\t" "!/^#/ { print \$2, \$3, \$5 }" out | sort > actual &&
		test_cmp expect actual
	'
done

test_expect_success 'cycles are conserved: the lines of each kernel add up to its rows' '
	for k in hot calm poll; do
		stall-annotate --lines $k.attr > out &&
		awk -F"\t" "!/^#/ { s += \$3 } END { print s }" out > actual &&
		cycles $k.attr > expect &&
		test_cmp expect actual || return 1
	done
'

test_expect_success 'a code object without DWARF: every pc on ??:0' '
	sqtt-dump "$TOP/fixtures/demo" > demo.packets &&
	sqtt-walk demo.packets > demo.rows &&
	stall-attr demo.rows > demo.attr &&
	stall-annotate --lines demo.attr > out &&
	awk -F"\t" -v OFS="\t" "!/^#/ { print \$1, \$2, \$5, \$6 }" out > actual &&
	awk -F"\t" -v OFS="\t" "!/^#/ && \$11 != \"untraced\" { n++; if (!(\$6 in pc)) d++; pc[\$6] }
		END { print \"demo\", \"??:0\", n, d }" demo.attr > expect &&
	test_cmp expect actual
'

test_expect_success '--annotate of hot: as many instructions as llvm-objdump has (the listing itself: t0811)' '
	(cd "$TOP" && stall-annotate --annotate "$T_DIR/hot.attr") > out &&
	grep -c "^ *[0-9.]*% .* 0x" out > actual &&
	echo 25 > expect &&
	test_cmp expect actual &&
	if test_part OBJDUMP "the count of instructions llvm-objdump sees"; then
		"${OBJDUMP:-llvm-objdump-22}" -d "$TOP/fixtures/annotate/hot.hsaco" | grep -c "// 0000" > expect &&
		test_cmp expect actual
	fi
'

test_expect_success '--annotate: the instructions cycles add up to the total line' '
	stall-annotate --annotate poll.attr > out &&
	awk "/^ *[0-9.]+% .* 0x/ { s += \$2 } / total\$/ { t = \$2 } END { print s, t }" out > actual &&
	c=$(cycles poll.attr) && echo "$c $c" > expect &&
	test_cmp expect actual
'

test_done
