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

# The walk as records for tests/lib/waits-model.awk (kernel event wave pc time prev inst
# end), pcs in decimal.  rows_records ROWS: from a row stream, only its walk columns (pc,
# time, delta, inst, token).  amd_records ROWS GOLDEN: from AMD's walk (a gunzipped
# NAME.amd.tsv), a wave its (event, slot, begin), its last record (s_endpgm, which has no
# token: AMD's issue time for it is no issue) only the end, at issue + duration; the kernel and the disassembly at each pc from ROWS
# (not from its untraced rows, whose text at the entry pc is no instruction's).
hexdec_awk='function dec(s,   i, v) { if (s !~ /^0x/) return s + 0; v = 0
	for (i = 3; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", tolower(substr(s, i, 1))) - 1
	return v }'
rows_records() {
	awk -F'\t' -v OFS='\t' "$hexdec_awk"'
		!/^#/ { print $3, $1, $4, dec($6), $7, $7 - $8, $10, $9 == "WAVE_END" }' "$1"
}
amd_records() {
	awk -F'\t' -v OFS='\t' "$hexdec_awk"'
		FNR == 1 { file++ }
		/^#/ { next }
		file == 1 { kern[$1] = $3; if ($11 != "untraced") inst[$1, dec($6)] = $10; next }
		file == 2 { n[$1 " " $3 " " $4]++; next }
		{	w = $1 " " $3 " " $4; i = ++seen[w]; p = dec($6)
			if (i == n[w]) print kern[$1], $1, $3 "@" $4, p, $7 + $9, last[w], "s_endpgm", 1
			else print kern[$1], $1, $3 "@" $4, p, $7, i == 1 ? $4 : last[w], inst[$1, p], 0
			last[w] = $7 }' "$1" "$2" "$2"
}
# model VIEW RECORDS: tests/lib/waits-model.awk's VIEW of them, sorted
model() {
	awk -f "$TOP/tests/lib/waits-model.awk" -v view="$1" "$2" "$2" | sort
}
