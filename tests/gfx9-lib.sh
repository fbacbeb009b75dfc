# tests/gfx9-lib.sh: shared by t0108 and t0111, the traces authored for the gfx950 kernels
# of fixtures/gfx9 (their packet streams name the code objects relative to the project
# root, so sqtt-encode and sqtt-walk run from there).
# gfx9_capture NAME CAP: fixtures/gfx9/NAME.packets.tsv written as the capture CAP here
gfx9_capture() {
	(cd "$TOP" && sqtt-encode -d "$T_DIR/$2" "fixtures/gfx9/$1.packets.tsv")
}

# gfx9_records CAP FIELDS: CAP's records (build/gfx9walk_test) in CAP.records, with
# nothing on stderr, and their FIELDS (cut -f) in actual
gfx9_records() {
	"$TOP/build/gfx9walk_test" "$1" > "$1.records" 2> err && test_cmp /dev/null err &&
	cut -f"$2" "$1.records" > actual
}

# gfx9_rows NAME: sqtt-walk's rows of fixtures/gfx9/NAME.packets.tsv in NAME.rows (its
# stderr in err), and their pc, time, delta and token in actual
gfx9_rows() {
	(cd "$TOP" && sqtt-walk "fixtures/gfx9/$1.packets.tsv") > "$1.rows" 2> err &&
	grep -v "^#" "$1.rows" | cut -f6-9 > actual
}

# cost_sum COSTS: the sum of a costed row stream's cost column (the 13th)
cost_sum() {
	grep -v "^#" "$1" | awk -F'\t' '{ c += $13 } END { print c }'
}
