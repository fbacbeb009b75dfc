#!/bin/sh
# What every program says of itself agrees: the usage a mistake prints, the head of
# --help and the SYNOPSIS of its man page are one text; --version is there, in one
# format; a bad option is exit 2 with the usage; docs/options.md names every option.
. "$(dirname "$0")/lib.sh"

PROGS="sqtt-dump sqtt-encode sqtt-walk stall-attr stall-table stall-diff stall-budget stall-annotate stall sqtt-capture"

# words PROG: a synopsis on stdin as one line: "usage:" dropped, spaces normalised, the
# form "PROG --version" of a man page dropped (every program has it, docs/options.md)
words() {
	tr -s " \t\n" "   " | sed "s/^ *usage: *//; s/ *| */|/g; s/ $1 --version\( \|\$\)/ /; s/^ *//; s/ *\$//"
}

for p in $PROGS; do
	test_expect_success "$p: usage, --help and SYNOPSIS are one text" "
		test_expect_code 2 $p --no-such-option > out 2> err &&
		test_cmp /dev/null out &&
		grep -v '^$p: \\|^$BIN/$p: \\|unrecognized option' err | words $p > usage &&
		test -s usage &&
		$p --help > help &&
		awk 'NR == 1 || (/^      / && !done) { print; next } { done = 1 }' help | words $p > help.usage &&
		test_cmp usage help.usage &&
		mandoc -Tascii -Owidth=400 '$TOP/man/$p.1' | col -b |
			awk '/^SYNOPSIS/ { f = 1; next } /^[A-Z]/ { f = 0 } f' | words $p > man.usage &&
		test_cmp usage man.usage
	"
	test_expect_success "$p --version: '$p (stall) VERSION', exit 0; -h too" "
		$p --version > v &&
		grep -q '^$p (stall) [0-9][0-9.]*\$' v &&
		test \$(wc -l < v) -eq 1 &&
		$p -h > h && test -s h
	"
	test_expect_success "$p: its man page says --version" "
		mandoc -Tascii '$TOP/man/$p.1' | col -b | grep -q -- '--version'
	"
done

test_expect_success 'docs/options.md: every long option of every program is in it' '
	for p in $PROGS; do
		$p --help | grep -o -- "^ *\(-[a-zA-Z], \)\?--[a-z][a-z-]*" | grep -o -- "--[a-z-]*" | sort -u > long.$p &&
		while read -r o; do
			grep -q -- "\`$o\b" "$TOP/docs/options.md" || { echo "$p $o" >&2; exit 1; }
		done < long.$p || exit 1
	done
'

test_expect_success 'one letter, one meaning: -k selects a kernel, -s sorts, --strict has no letter' '
	for p in $PROGS; do
		$p --help > h.$p || exit 1
	done &&
	! grep -l "^  -s, --strict" h.* &&
	grep -l "^ *-k, --kernel" h.* | sort > actual &&
	printf "h.sqtt-capture\nh.sqtt-dump\nh.stall\nh.stall-diff\nh.stall-table\n" > expect &&
	test_cmp expect actual &&
	grep -h "^ *-s, --sort" h.* | wc -l > n &&
	echo 2 > expect.n && test_cmp expect.n n
'

test_expect_success '--sort=pc and -s pc alike in stall and stall-table; a bad key: one line, exit 2' '
	stall --sort=pc -a --tsv "$TOP/fixtures/demo" > a &&
	stall -s pc -a --tsv "$TOP/fixtures/demo" > b &&
	test_cmp a b &&
	stall --rows "$TOP/fixtures/demo" > rows &&
	stall-table --sort=pc rows > c &&
	stall-table -s pc rows > d &&
	test_cmp c d &&
	grep -v "^#" a | cut -f1-4 > a4 &&
	grep -v "^#" c | cut -f1-4 > c4 &&
	test_cmp a4 c4 &&
	test_expect_code 2 stall -s foo "$TOP/fixtures/demo" > out 2> err &&
	echo "stall: -s: unknown sort key '"'"'foo'"'"' (cycles, hits, pc)" > expect &&
	test_cmp expect err &&
	test_cmp /dev/null out
'

test_expect_success '-- ends the options: a capture named -n.dir' '
	cp -r "$TOP/fixtures/demo" ./-n.dir &&
	stall --tsv -- -n.dir > t 2> err &&
	test_cmp /dev/null err &&
	grep -q "^demo	TOTAL	" t
'

test_done
