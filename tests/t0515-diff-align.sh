#!/bin/sh
# t0515-diff-align: stall-diff's alignment on hand-written rows, one wave, one cycle an
# instruction, so that only the order of the texts differs.  By stall-diff(1): a move
# across exactly one instruction is a swap (both marked m), across several only the
# moved line is (issue 24's survivor: a move across several lines marked as one swap);
# of two equal instructions of a that could align with one of b, the earlier is aligned
# (the survivor: the other one kept).
. "$(dirname "$0")/lib.sh"

tabs() { tr '|' '\t'; }

# rows INST...: one wave issuing INST... at 0x100, 0x104, ..., then s_endpgm
rows() {
	printf '#event\tse\tkernel\twave\tslot\tpc\ttime\tdelta\ttoken\tinst\tclass\tdep\tcost\tcause\n'
	pc=256 t=10
	for i in "$@"; do
		printf '0\t0\tk\t0\t0\t0x%x\t%d\t1\tVALU_INST\t%s\tvalu\t-\t1\tunexplained\n' $pc $t "$i"
		pc=$((pc + 4)) t=$((t + 1))
	done
	printf '0\t0\tk\t0\t0\t0x%x\t%d\t1\tWAVE_END\ts_endpgm\tendpgm\t-\t1\tdrain\n' $pc $t
}

# edits A B: the edit, pc_a, pc_b and inst of each instruction line of stall-diff A B
edits() {
	test_expect_code 1 stall-diff "$1" "$2" > out &&
	# the instructions only: not the totals, nor the launch and drain lines (pc -)
	grep -v "^#" out | grep -v "	TOTAL	\|	WALL	\|	CAUSE	" | cut -f 2,3,4,12 |
	    grep -v "^.	-	-	"
}

test_expect_success 'a move across three instructions: only the moved one is marked' '
	rows v_a v_b v_c v_d v_e > a.tsv &&
	rows v_b v_c v_d v_a v_e > b.tsv &&
	edits a.tsv b.tsv > actual &&
	tabs > expect <<-\EOF &&
	=|0x104|0x100|v_b
	=|0x108|0x104|v_c
	=|0x10c|0x108|v_d
	m|0x100|0x10c|v_a
	=|0x110|0x110|v_e
	=|0x114|0x114|s_endpgm
	EOF
	test_cmp expect actual
'

test_expect_success 'a move across one instruction: a swap, both marked' '
	rows v_a v_b v_c > a.tsv &&
	rows v_b v_a v_c > b.tsv &&
	edits a.tsv b.tsv > actual &&
	tabs > expect <<-\EOF &&
	m|0x104|0x100|v_b
	m|0x100|0x104|v_a
	=|0x108|0x108|v_c
	=|0x10c|0x10c|s_endpgm
	EOF
	test_cmp expect actual
'

test_expect_success 'two equal instructions in a, one in b: the earlier of a is aligned' '
	rows v_p v_x v_x v_q > a.tsv &&
	rows v_p v_y v_x v_y v_q > b.tsv &&
	edits a.tsv b.tsv > actual &&
	tabs > expect <<-\EOF &&
	=|0x100|0x100|v_p
	+|-|0x104|v_y
	=|0x104|0x108|v_x
	-|0x108|-|v_x
	+|-|0x10c|v_y
	=|0x10c|0x110|v_q
	=|0x110|0x114|s_endpgm
	EOF
	test_cmp expect actual
'

test_done
