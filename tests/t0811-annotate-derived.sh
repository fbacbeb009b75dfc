#!/bin/sh
# t0811-annotate-derived: stall-annotate --annotate of hot held to what other tools and
# the rows say, not to a recorded listing: every instruction of the kernel in address
# order with llvm-objdump's text (a branch's operand as its target, pc + 4 + 4 * simm16),
# each preceded by its source line where llvm-addr2line's line changes (the line's text
# from hot.s), and the cycles and rows of each pc summed from the rows, with the percent
# of the kernel's total.
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/annotate-lib.sh"

CODE="$TOP/fixtures/annotate/hot.hsaco"

test_expect_success OBJDUMP,ADDR2LINE '--annotate of hot: the instructions, lines and sums others give' '
	rows_of hot &&
	"${OBJDUMP:-llvm-objdump-22}" -d --no-show-raw-insn "$CODE" |
		sed -n "/<hot>:/,/^\$/p" | grep "// " |
		sed "s|^[[:space:]]*\(.*[^[:space:]]\)[[:space:]]*// 0*\([0-9A-Fa-f]*\):.*|0x\2	\1|" |
		awk -F"\t" -v OFS="\t" "{ print tolower(\$1), \$2 }" > insts &&
	test "$(wc -l < insts)" -eq 25 &&
	cut -f 1 insts | xargs "${ADDR2LINE:-llvm-addr2line-22}" -e "$CODE" > lines &&
	paste insts lines > map &&
	awk -F"\t" -v OFS="\t" -v top="$TOP" "
		function hex(s,  i, v) { v = 0; for (i = 3; i <= length(s); i++) v = 16 * v + index(\"0123456789abcdef\", substr(s, i, 1)) - 1; return v }
		FILENAME == \"hot.attr\" { if (!/^#/ && \$11 != \"untraced\") { c[\$6] += \$13; h[\$6]++; n++; t += \$13 }; next }
		{ pc = \$1; text = \$2; src = \$3
		  split(text, w, \" \")
		  if (w[1] ~ /^s_c?branch/ && w[2] ~ /^[0-9]+\$/) { s = w[2] + 0; if (s >= 32768) s -= 65536
			text = sprintf(\"%s 0x%x\", w[1], hex(pc) + 4 + 4 * s) }
		  if (src != last) { split(src, fl, \":\"); f = top \"/\" fl[1]; ln = \"\"
			for (i = 1; i <= fl[2]; i++) getline ln < f; close(f)
			gsub(/[ \t]+/, \" \", ln); sub(/^ /, \"\", ln); print \"line\", src, ln; last = src }
		  printf \"inst\t%.2f%%\t%d\t%d\t%s\t%s\n\", 100 * c[pc] / t, c[pc], h[pc], pc, text }
		END { }" hot.attr map > expect &&
	(cd "$TOP" && stall-annotate --annotate "$T_DIR/hot.attr") > out &&
	awk -v OFS="\t" "
		/ total\$/ { exit }
		/^##/ || /^ percent/ { next }
		\$1 ~ /^[0-9.]+%\$/ { t = \$0; sub(/ +<- .*/, \"\", t); n = split(t, w, \" \"); text = w[6]
			for (i = 7; i <= n; i++) text = text \" \" w[i]; print \"inst\", \$1, \$2, \$3, \$5, text; next }
		{ t = \$0; sub(/^ *[^ ]+ +/, \"\", t); gsub(/ +/, \" \", t); print \"line\", \$1, t }" out > actual &&
	test_cmp expect actual
'

test_done
