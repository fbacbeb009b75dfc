#!/bin/sh
# t0450-causes: the man pages name exactly the causes of libcommon/cause, the one list
# stall-attr writes and the tables read: stall-attr(1) gives each its rule, stall-table(1)
# each its column, in the table's order.
. "$(dirname "$0")/lib.sh"

CAUSES="$TOP/build/cause_test"

test_expect_success 'the vocabulary: names and columns agree (c_ + name, space and + as _)' '
	"$CAUSES" > vocab &&
	awk -F"\t" "\$1 != \"-\" && \$1 != \"other\" {
		c = \$1; gsub(/[ +]/, \"_\", c);
		if (\"c_\" c != \$2) { print \"cause \" \$1 \": column \" \$2; bad = 1 } }
		END { exit bad }" vocab &&
	test $(cut -f1 vocab | sort | uniq -d | wc -l) -eq 0
'

# The causes stall-attr(1) gives rules for: every .Cm of its CAUSES section.
test_expect_success 'stall-attr(1) has a rule for every cause stall-attr writes, and none else' '
	awk "/^\\.Sh CAUSES/ { on = 1; next } /^\\.Sh / { on = 0 } on" "$TOP/man/stall-attr.1" |
		sed -n "s/^\\.\\(It \\)\\{0,1\\}Cm \\(.*\\)/\\2/p" |
		sed "s/ No .*//; s/ \\.\$//; s/ , /\\n/g; s/ ,\$//" | sed "s/^ *//; s/ *\$//" |
		grep -v "^\$" | sort -u > named &&
	cut -f1 vocab | grep -v "^-\$" | grep -v "^other\$" | sort -u > expect &&
	test_cmp expect named
'

test_expect_success 'stall-table(1) lists every column, in the order of the table' '
	awk "/^\\.Ss TSV/ { on = 1; next } /^\\.S[sh] / { on = 0 } on" "$TOP/man/stall-table.1" |
		grep -o "^\\.\\(It \\)\\{0,1\\}Cm c_[a-z][a-z_]*" | sed "s/^.*Cm //" | awk "!seen[\$0]++" > listed &&
	"$CAUSES" | cut -f2 > expect &&
	test_cmp expect listed
'

test_done
