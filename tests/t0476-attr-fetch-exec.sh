#!/bin/sh
# Issue 20, rules 4 and 5.  Fetch looks at an instruction's last byte (pc + length - 1,
# the length the distance to its wave's next row): an 8-byte instruction that straddles
# into a new 256-byte block waits on fetch, one that straddles only a 64-byte line does
# not, and the row after a straddler is in a line already fetched.  An INST token's op
# says how long its instruction ran (valub_16, valut_4, sgmem_wr_2): that many cycles
# less one move from the wave's next row onto it, cause exec.
# Authored: fixtures/kernels/straddle.s and the trace below, the answer by construction.
# Real: 20260314_profile_ops_run_0, no exec row costs more than AMD's duration of the
# same record (less only where the wave's next issue came sooner), and every straddle into a new 256-byte block that cost more than 1 is fetch.
. "$(dirname "$0")/lib.sh"

trace() {
	printf '##target\tgfx1100\n##code\tstraddle\t0\t0x10000\t0\t%s\n' "$TOP/fixtures/kernels/straddle.hsaco"
	printf '##event\t0\t0\tstraddle\t0\t1\t0\t0\t0\t-\n'
	printf '#event\tse\tnib\ttime\ttype\twave\tsimd\twgp\tsa\top\traw\n'
	printf '0\t0\t-\t0\tHEADER\t-\t0\t0\t0\t-\t-\n'
	printf '0\t0\t-\t100\tWAVE_START\t0\t0\t0\t0\t-\t-\n'
	printf '0\t0\t-\t600\tINST\t0\t-\t-\t-\tvalub_16\t-\n'	# 0x1300 v_add_f64
	printf '0\t0\t-\t616\tVALU_INST\t0\t-\t-\t-\t-\t-\n'	# 0x1308: 16 after
	printf '0\t0\t-\t617\tINST\t0\t-\t-\t-\tvalut_4\t-\n'	# 0x130c v_exp_f32
	printf '0\t0\t-\t621\tVALU_INST\t0\t-\t-\t-\t-\t-\n'	# 0x1310: 4 after
	t=622
	while [ $t -le 631 ]; do	# 0x1314 .. 0x1338
		printf '0\t0\t-\t%d\tVALU_INST\t0\t-\t-\t-\t-\t-\n' $t; t=$((t + 1))
	done
	printf '0\t0\t-\t636\tVALU_INST\t0\t-\t-\t-\t-\t-\n'	# 0x133c: 5, into 0x1340
	t=637
	while [ $t -le 682 ]; do	# 0x1344 .. 0x13f8
		printf '0\t0\t-\t%d\tVALU_INST\t0\t-\t-\t-\t-\t-\n' $t; t=$((t + 1))
	done
	printf '0\t0\t-\t882\tVALU_INST\t0\t-\t-\t-\t-\t-\n'	# 0x13fc: 200, into 0x1400
	printf '0\t0\t-\t885\tVALU_INST\t0\t-\t-\t-\t-\t-\n'	# 0x1404: 3
	printf '0\t0\t-\t886\tINST\t0\t-\t-\t-\tsgmem_wr_2\t-\n'	# 0x1408 global_store
	printf '0\t0\t-\t1186\tWAVE_END\t0\t0\t0\t0\t-\t-\n'	# 0x1410: 300
}

test_expect_success 'authored: exec moved onto the instruction that ran, fetch only into a new block' '
	trace > straddle.tsv &&
	sqtt-encode -d cap straddle.tsv &&
	sqtt-dump cap | sqtt-walk > rows 2> err &&
	test_cmp /dev/null err &&
	stall-attr rows > attr 2> err &&
	test_cmp /dev/null err &&
	grep -v "^#" attr | awk -F"\t" -v OFS="\t" "\$13 != 1 || \$14 != \"issue_cycle\" { print \$6, \$8, \$13, \$14 }" > actual &&
	cat > expect <<-\EOF &&
	0x1300	500	500	wave_start
	0x1308	16	16	unexplained
	0x130c	1	4	exec
	0x133c	5	5	unexplained
	0x13fc	200	200	fetch
	0x1404	3	3	unexplained
	0x1408	1	2	exec
	0x1410	300	299	drain
	EOF
	test_cmp expect actual
'

# The f64 add is the first row (wave_start): its execution stays on the next row, which
# keeps 16 cycles, unexplained; checked apart, a row after a valub_16 mid-wave.
test_expect_success 'authored rows: a valub_16 mid-wave is charged 16, the row after it 1' '
	printf "#event\tse\tkernel\twave\tslot\tpc\ttime\tdelta\ttoken\tinst\tclass\tdep\n" > r.tsv &&
	printf "0\t0\tk\t0\t0\t0x100\t100\t100\tVALU_INST\tv_mov_b32_e32 v0, 0\tvalu\t-\n" >> r.tsv &&
	printf "0\t0\tk\t0\t0\t0x104\t101\t1\tINST:valub_16\tv_add_f64 v[0:1], v[2:3], v[4:5]\tvalu_f64\t-\n" >> r.tsv &&
	printf "0\t0\tk\t0\t0\t0x10c\t133\t32\tVALU_INST\tv_mov_b32_e32 v6, 0\tvalu\t-\n" >> r.tsv &&
	printf "0\t0\tk\t0\t0\t0x110\t140\t7\tWAVE_END\ts_endpgm\tendpgm\t-\n" >> r.tsv &&
	stall-attr r.tsv | grep -v "^#" | cut -f6,13,14 > actual &&
	printf "0x100\t100\twave_start\n0x104\t16\texec\n0x10c\t17\tunexplained\n0x110\t7\tdrain\n" > expect &&
	test_cmp expect actual &&
	stall-attr --raw r.tsv | grep -v "^#" | cut -f6,13,14 > actual &&
	printf "0x100\t100\twave_start\n0x104\t1\tissue_cycle\n0x10c\t32\tunexplained\n0x110\t7\tdrain\n" > expect &&
	test_cmp expect actual
'

b=20260314_profile_ops_run_0_c2d10d8
test_expect_success SHARED "$b: no exec row costs more than AMD's duration of its record" '
	sqtt-dump "$FIXTURES/$b.pkl" | sqtt-walk 2>/dev/null | stall-attr > attr &&
	gzip -dc "$SHARED/golden/$b.amd.tsv.gz" > amd.tsv &&
	awk -F"\t" "
		FNR == NR { if (!/^#/) dur[\$1 \" \" \$3 \" \" \$7] = \$9; next }
		/^#/ || \$14 != \"exec\" { next }
		{ k = \$1 \" \" \$5 \" \" \$7; if (!(k in dur)) none++; else if (dur[k] == \$13) eq++; else if (dur[k] > \$13) less++; else more++ }
		END { print eq + 0, less + 0, more + 0, none + 0 }" amd.tsv attr > actual &&
	echo "114 3 0 0" > expect &&
	test_cmp expect actual
'

test_expect_success SHARED "$b: every straddle into a new 256-byte block that cost more than 1 is fetch" '
	awk -F"\t" "
		function hex(s,  i, v) { v = 0; s = tolower(substr(s, 3)); for (i = 1; i <= length(s); i++) v = v * 16 + index(\"0123456789abcdef\", substr(s, i, 1)) - 1; return v }
		/^#/ { next }
		{ k = \$1 \" \" \$4
		  if ((k in pc) && tok[k] !~ /branch_taken|jump/) {
			len = hex(\$6) - pc[k]; if (len >= 8 && \$12 != \"-\") len -= 4
			if (len <= 12 && int(pc[k] / 256) != int((pc[k] + len - 1) / 256) && cost[k] > 1) { n++; c += cost[k]; if (cause[k] != \"fetch\") bad++ }
		  }
		  pc[k] = hex(\$6); tok[k] = \$9; cost[k] = \$13; cause[k] = \$14 }
		END { print n + 0, c + 0, bad + 0 }" attr > actual &&
	echo "12 2916 0" > expect &&
	test_cmp expect actual
'

test_done
