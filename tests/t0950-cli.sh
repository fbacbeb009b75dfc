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
	printf "h.sqtt-capture\nh.sqtt-dump\nh.stall\nh.stall-annotate\nh.stall-diff\nh.stall-table\n" > expect &&
	test_cmp expect actual &&
	grep -h "^ *-s, --sort" h.* | wc -l > n &&
	echo 2 > expect.n && test_cmp expect.n n
'

# pairs: "letter long program" for every "-x, --long" line of every program's --help
pairs() {
	for p in $PROGS; do
		$p --help > h.$p || return 1
		grep -o -- "^ *-[a-zA-Z], --[a-z][a-z-]*" h.$p | sed "s/^ *//; s/,//; s/\$/ $p/" || return 1
	done
}

test_expect_success 'one letter, one long option, across every program (and one letter a long option)' '
	pairs > pairs &&
	test $(wc -l < pairs) -ge 30 &&
	{ sort -u pairs | awk "
		{ if (\$1 in long && long[\$1] != \$2) {
			print \"letter \" \$1 \": \" long[\$1] \" (\" by[\$1] \") and \" \$2 \" (\" \$3 \")\"; bad = 1 }
		  if (\$2 in letter && letter[\$2] != \$1) {
			print \"option \" \$2 \": \" letter[\$2] \" (\" lby[\$2] \") and \" \$1 \" (\" \$3 \")\"; bad = 1 }
		  long[\$1] = \$2; by[\$1] = \$3; letter[\$2] = \$1; lby[\$2] = \$3 }
		END { exit bad }" > clash || { cat clash >&2; false; }; } &&
	test_cmp /dev/null clash
'

test_expect_success 'a letter --help does not pair with a long option is an unknown option, exit 2' '
	pairs > pairs &&
	for p in $PROGS; do
		for l in a b c d e f g h i j k l m n o p q r s t u v w x y z \
		    A B C D E F G H I J K L M N O P Q R S T U V W X Y Z; do
			grep -q "^-$l --[a-z-]* $p\$" pairs && continue
			test_expect_code 2 $p -$l < /dev/null > out 2> err &&
			test_cmp /dev/null out &&
			grep -q "invalid option -- .$l.\|unknown option -$l\$" err ||
				{ echo "$p -$l:" >&2; cat err >&2; return 1; }
		done || return 1
	done
'

test_expect_success 'the letters that had another meaning: sqtt-dump -c is --code, -t and sqtt-capture -n unknown' '
	D="$TOP/fixtures/demo" &&
	raw="--raw --se 0 --base 0x7f3a2c000000 --name demo $D/stall_shader_engine_0_0.att" &&
	sqtt-dump --code "$TOP/fixtures/kernels/demo.hsaco" $raw > long.tsv &&
	sqtt-dump -c "$TOP/fixtures/kernels/demo.hsaco" $raw > short.tsv &&
	test_cmp long.tsv short.tsv &&
	grep -q "^##code	demo	0	0x7f3a2c000000	.*/fixtures/kernels/demo.hsaco\$" short.tsv &&
	stall --tsv --code "$TOP/fixtures/kernels/demo.hsaco" $raw > long.t &&
	stall --tsv -c "$TOP/fixtures/kernels/demo.hsaco" $raw > short.t &&
	test_cmp long.t short.t && grep -q "^demo	TOTAL	" short.t &&
	test_expect_code 2 sqtt-dump -c "$D" "$D" > out 2> err &&
	test_cmp /dev/null out &&
	echo "sqtt-dump: -c, --code $D: the code object of a --raw stream, not without --raw (token counts are --counts)" > expect &&
	test_cmp expect err &&
	test_expect_code 2 stall -c "$TOP/fixtures/kernels/demo.hsaco" "$D" > out 2> err &&
	test_cmp /dev/null out && test $(wc -l < err) -eq 1 &&
	test_expect_code 2 sqtt-dump -t HEADER "$D" > out 2> err &&
	test_cmp /dev/null out && grep -q "^usage: sqtt-dump" err &&
	test_expect_code 2 sqtt-capture -n ./app > out 2> err &&
	test_cmp /dev/null out && grep -q "^usage: sqtt-capture" err &&
	sqtt-dump --counts --types WAVE_START,WAVE_END "$D" > counts &&
	grep -v "^#" counts > actual &&
	printf "0\t0\tWAVE_START\t5\n0\t0\tWAVE_END\t5\n1\t1\tWAVE_START\t2\n1\t1\tWAVE_END\t2\n" > expect &&
	test_cmp expect actual
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

# each mistake: the options, then the first line it must give (the usage follows)
while IFS='|' read -r args first; do
	test_expect_success "a usage mistake names the program, not argv[0]: stall $args" "
		test_expect_code 2 stall $args > out 2> err &&
		test_cmp /dev/null out &&
		head -n 1 err > first &&
		echo \"$first\" > expect &&
		test_cmp expect first
	"
done <<'MISTAKES'
-z|stall: unknown option -z
--nope|stall: unknown option '--nope'
-n|stall: option -n needs an argument
-an|stall: option -n needs an argument
--top|stall: option '--top' needs an argument
--help=3|stall: option '--help' takes no argument
--top x fixtures|stall: --top is invalid: x
--threads 0 fixtures|stall: --threads is too small: 0
MISTAKES

test_done
