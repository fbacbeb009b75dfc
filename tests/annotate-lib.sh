# tests/annotate-lib.sh: shared by t08x0: the rows of the -g kernels of fixtures/annotate.
# rows_of NAME: NAME.rows (sqtt-walk) and NAME.attr (stall-attr) here; the traces name the
# code objects relative to the project root, so the walk runs from there, and the ##code
# lines are then made absolute for the stages after it.
rows_of() {
	(cd "$TOP" && sqtt-walk "fixtures/annotate/$1.packets.tsv") > "$1.walk" &&
	sed "s|	fixtures/annotate/|	$TOP/fixtures/annotate/|" "$1.walk" > "$1.rows" &&
	stall-attr "$1.rows" > "$1.attr"
}

# cycles FILE: the sum of the cost column of a costed row stream, waves without
# instruction tokens (class untraced) left out as stall-annotate leaves them out
cycles() {
	awk -F'\t' '/^#/ { if ($1 == "#event") for (i = 1; i <= NF; i++) { if ($i == "cost") c = i; if ($i == "class") k = i }; next }
		$k != "untraced" { s += $c } END { print s }' "$1"
}
