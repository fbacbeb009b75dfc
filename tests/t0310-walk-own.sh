#!/bin/sh
# t0310-walk-own: sqtt-walk on the project's own kernels (fixtures/kernels/*.hsaco, committed)
# and traces (fixtures/traces/*.packets.tsv, timings chosen by construction): exact rows for
# loops, branches, IMMEDIATE masks; misfit tokens; --packets; a program that is not an ELF;
# waves off the traced SIMD (every one an untraced row); and fixtures/demo still equal to
# its source.  No clang needed.
. "$(dirname "$0")/lib.sh"

KERNELS="$TOP/fixtures/kernels"

# encode_fixture NAME DIR: fixtures/traces/NAME.packets.tsv into the capture DIR here (its
# ##code lines name the .hsaco relative to the project root, so encode from there)
encode_fixture() {
	(cd "$TOP" && sqtt-encode -d "$T_DIR/$2" "fixtures/traces/$1.packets.tsv")
}

# rows FILE: the rows of a walk, as "event wave slot pc time delta token inst"
rows() {
	awk -F'\t' '!/^#/ { print $1, $4, $5, $6, $7, $8, $9, $10 }' "$1"
}

# tsv: a packet stream written with spaces (no field has one) to TSV
tsv() {
	tr ' ' '\t'
}

# walked NAME: NAME.tsv (a packet stream) encoded as the capture cap.NAME, read back to
# packets.NAME and walked to rows.NAME, the walk's stderr in err; the walk's exit returned
walked() {
	sqtt-encode -d "cap.$1" "$1.tsv" && sqtt-dump "cap.$1" > "packets.$1" &&
	sqtt-walk "packets.$1" > "rows.$1" 2> err
}

# lifetimes PACKETS: "event slot WAVE_END-WAVE_START" for each wave the trace has, on
# every SIMD of every unit
lifetimes() {
	awk -f "$TOP/tests/lib/lifetimes.awk" "$1" | sort
}

# delta_sums ROWS: "event slot sum-of-deltas" for each wave of a walk
delta_sums() {
	awk -f "$TOP/tests/lib/wave-sums.awk" "$1" | sort
}

test_expect_success 'encode the demo and branchy traces; walk them: no warnings' '
	test -f "$KERNELS/demo.hsaco" && test -f "$KERNELS/branchy.hsaco" &&
	for t in demo branchy; do
		encode_fixture $t cap.$t &&
		sqtt-dump cap.$t > packets.$t &&
		sqtt-walk packets.$t > rows.$t 2> err.$t &&
		test_cmp /dev/null err.$t || return 1
	done
'

test_expect_success 'demo: every row of wave 2 (barrier, VALU dep, loop, drain)' '
	cat > expect <<\EOF &&
0 2 2 0x1300 1400 500 INST:smem_rd s_load_b64 s[2:3], s[0:1], null
0 2 2 0x1308 1401 1 INST:smem_rd s_load_b64 s[4:5], s[0:1], 0x8
0 2 2 0x1310 1402 1 VALU_INST v_lshlrev_b32_e32 v0, 2, v0
0 2 2 0x1314 1403 1 INST:salu s_mov_b32 s6, 3
0 2 2 0x1318 1601 198 IMMEDIATE s_waitcnt lgkmcnt(0)
0 2 2 0x131c 1602 1 INST:sgmem_rd_1 global_load_b32 v1, v0, s[2:3]
0 2 2 0x1324 2410 808 IMM_ONE s_waitcnt vmcnt(0)
0 2 2 0x1328 2411 1 VALU_INST v_add_f32_e32 v1, 1.0, v1
0 2 2 0x1330 2416 5 VALU_INST v_mul_f32_e32 v1, v1, v1
0 2 2 0x1334 2417 1 INST:lds_wr_2 ds_store_b32 v0, v1
0 2 2 0x133c 2447 30 IMM_ONE s_waitcnt lgkmcnt(0)
0 2 2 0x1340 2448 1 INST:barrier s_barrier
0 2 2 0x1344 2600 152 INST:lds_rd ds_load_b32 v2, v0
0 2 2 0x134c 2630 30 IMMEDIATE s_waitcnt lgkmcnt(0)
0 2 2 0x1350 2637 7 VALU_INST v_add_f32_e32 v2, v2, v1
0 2 2 0x1354 2638 1 INST:salu s_add_i32 s6, s6, -1
0 2 2 0x1358 2639 1 INST:salu s_cmp_lg_u32 s6, 0
0 2 2 0x135c 2640 1 INST:branch_taken s_cbranch_scc1 65532
0 2 2 0x1350 2646 6 VALU_INST v_add_f32_e32 v2, v2, v1
0 2 2 0x1354 2647 1 INST:salu s_add_i32 s6, s6, -1
0 2 2 0x1358 2648 1 INST:salu s_cmp_lg_u32 s6, 0
0 2 2 0x135c 2649 1 INST:branch_taken s_cbranch_scc1 65532
0 2 2 0x1350 2655 6 VALU_INST v_add_f32_e32 v2, v2, v1
0 2 2 0x1354 2656 1 INST:salu s_add_i32 s6, s6, -1
0 2 2 0x1358 2657 1 INST:salu s_cmp_lg_u32 s6, 0
0 2 2 0x135c 2658 1 INST:branch_not_taken s_cbranch_scc1 65532
0 2 2 0x1360 2666 8 INST:valut_4 v_exp_f32_e32 v2, v2
0 2 2 0x1364 2667 1 INST:sgmem_wr_2 global_store_b32 v0, v2, s[4:5]
0 2 2 0x136c 2969 302 WAVE_END s_endpgm
EOF
	rows rows.demo | awk "\$1 == 0 && \$2 == 2" > actual &&
	test_cmp expect actual
'

# The rows of the traced waves by construction, not by the walker: the authored trace's
# tokens of each wave (an IMMEDIATE's wave mask is its raw >> 8) in order, placed on the
# kernel's instructions as llvm-objdump lists them (s_delay_alu issues no token), a
# branch taken where its token says so, to pc + 4 + 4 * simm16; the WAVE_END on s_endpgm.
# The literal rows of wave 2 above are kept as a regression record of this derivation.
test_expect_success OBJDUMP 'demo: every row of the traced waves, from the trace and the disassembly' '
	"${OBJDUMP:-llvm-objdump-22}" -d --no-show-raw-insn "$KERNELS/demo.hsaco" |
		awk -F"\t" "/^\t[a-z]/ { n = split(\$2, c, \"// \"); sub(/ +$/, \"\", c[1]); split(c[n], a, \":\"); print a[1], c[1] }" |
		sed "s/^0*//" | grep -v " s_delay_alu" > code &&
	test $(grep -c . code) -eq 21 &&
	awk -F"\t" -v OFS=" " "
		FNR == 1 { f++ }
		f == 1 { pc = \$0; sub(/ .*/, \"\", pc); in_ = \$0; sub(/^[^ ]* /, \"\", in_)
			np++; cpc[np] = tolower(\"0x\" pc); cin[np] = in_; next }
		/^#/ || \$1 != 0 { next }
		\$5 == \"HEADER\" { next }
		\$5 == \"WAVE_START\" { if (\$7 == 0) start[\$6] = \$4; next }
		\$5 == \"WAVE_END\" { if (\$7 == 0) end_[\$6] = \$4; next }
		\$5 == \"IMMEDIATE\" { m = 0; h = \$11; for (i = 3; i <= length(h); i++) m = m * 16 + index(\"0123456789abcdef\", substr(h, i, 1)) - 1
			m = int(m / 256); for (w = 0; m > 0; w++) { if (m % 2) tok[w, ++nt[w]] = \$4 \" IMMEDIATE\"; m = int(m / 2) }; next }
		{ tok[\$6, ++nt[\$6]] = \$4 \" \" (\$5 == \"INST\" ? \"INST:\" \$10 : \$5) }
		END { for (w in start) {
			k = 1; prev = start[w]
			for (t = 1; t <= nt[w]; t++) {
				split(tok[w, t], x, \" \")
				print 0, w, w, cpc[k], x[1], x[1] - prev, x[2], cin[k]; prev = x[1]
				if (x[2] == \"INST:branch_taken\") {
					split(cin[k], b, \" \"); v = b[2] >= 32768 ? b[2] - 65536 : b[2]
					target = sprintf(\"0x%x\", (k ? 0 : 0) + hex(cpc[k]) + 4 + 4 * v)
					for (k = 1; cpc[k] != target; k++) ;
				} else k++
			}
			print 0, w, w, cpc[np], end_[w], end_[w] - prev, \"WAVE_END\", cin[np] } }
		function hex(s,   i, v) { v = 0; for (i = 3; i <= length(s); i++) v = v * 16 + index(\"0123456789abcdef\", substr(s, i, 1)) - 1; return v }
	" code "$TOP/fixtures/traces/demo.packets.tsv" | sort -k2,2n -k5,5n > expect &&
	rows rows.demo | awk "\$1 == 0 && \$8 != \"(wave\"" | sort -k2,2n -k5,5n > actual &&
	test_cmp expect actual &&
	awk "\$2 == 2" expect | grep -c . > n && echo 29 > m && test_cmp m n
'

test_expect_success 'demo: a 3-trip loop: back edge taken twice, then not taken' '
	cat > expect <<\EOF &&
0 0 0 0x134c 2630 32 IMMEDIATE s_waitcnt lgkmcnt(0)
0 0 0 0x1350 2631 1 VALU_INST v_add_f32_e32 v2, v2, v1
0 0 0 0x1354 2632 1 INST:salu s_add_i32 s6, s6, -1
0 0 0 0x1358 2633 1 INST:salu s_cmp_lg_u32 s6, 0
0 0 0 0x135c 2634 1 INST:branch_taken s_cbranch_scc1 65532
0 0 0 0x1350 2640 6 VALU_INST v_add_f32_e32 v2, v2, v1
0 0 0 0x1354 2641 1 INST:salu s_add_i32 s6, s6, -1
0 0 0 0x1358 2642 1 INST:salu s_cmp_lg_u32 s6, 0
0 0 0 0x135c 2643 1 INST:branch_taken s_cbranch_scc1 65532
0 0 0 0x1350 2649 6 VALU_INST v_add_f32_e32 v2, v2, v1
0 0 0 0x1354 2650 1 INST:salu s_add_i32 s6, s6, -1
0 0 0 0x1358 2651 1 INST:salu s_cmp_lg_u32 s6, 0
0 0 0 0x135c 2652 1 INST:branch_not_taken s_cbranch_scc1 65532
0 0 0 0x1360 2660 8 INST:valut_4 v_exp_f32_e32 v2, v2
0 0 0 0x1364 2661 1 INST:sgmem_wr_2 global_store_b32 v0, v2, s[4:5]
0 0 0 0x136c 2961 300 WAVE_END s_endpgm
EOF
	rows rows.demo | awk "\$1 == 0 && \$2 == 0 && \$5 >= 2630" > actual &&
	test_cmp expect actual &&
	for w in 0 1 2; do
		rows rows.demo | awk -v w=$w "\$1 == 0 && \$2 == w && \$4 == \"0x135c\" { print \$7 }" | paste -s -d" " - || return 1
	done > actual &&
	cat > expect <<\EOF &&
INST:branch_taken INST:branch_taken INST:branch_not_taken
INST:branch_taken INST:branch_taken INST:branch_not_taken
INST:branch_taken INST:branch_taken INST:branch_not_taken
EOF
	test_cmp expect actual
'

test_expect_success 'demo: one IMMEDIATE issues several waves in one cycle, each at its own pc' '
	cat > expect <<\EOF &&
0 0 0 0x1324 1601 800 IMMEDIATE s_waitcnt vmcnt(0)
0 2 2 0x1318 1601 198 IMMEDIATE s_waitcnt lgkmcnt(0)
0 0 0 0x134c 2630 32 IMMEDIATE s_waitcnt lgkmcnt(0)
0 1 1 0x134c 2630 31 IMMEDIATE s_waitcnt lgkmcnt(0)
0 2 2 0x134c 2630 30 IMMEDIATE s_waitcnt lgkmcnt(0)
EOF
	rows rows.demo | awk "\$7 == \"IMMEDIATE\"" > actual &&
	test_cmp expect actual
'

# The authored traces have waves on SIMD 1 of the traced WGP: demo's event 0 in slots 0
# (102-2903) and 1 (106-2958), its event 1 in slot 0 (154-2890), branchy's in slot 3
# (202-1240).  Each is one untraced row, its delta its lifetime, at the entry, numbered
# from 2147483648 in the order they end; the traced waves keep 0, 1, 2.
test_expect_success 'every wave on another SIMD: one untraced row, its lifetime; the itrace-off event a WAVE_END' '
	rows rows.demo | cut -d" " -f1-3 | sort -u > actual &&
	printf "%s\n" "0 0 0" "0 1 1" "0 2 2" "0 2147483648 0" "0 2147483649 1" "1 0 0" \
		"1 2147483648 0" > expect &&
	test_cmp expect actual &&
	rows rows.demo | awk "\$2 >= 2147483648 || \$1 == 1" > actual &&
	cat > expect <<-\EOF &&
	0 2147483648 0 0x1300 2903 2801 WAVE_END (wave on another SIMD of the traced unit, not instruction-traced)
	0 2147483649 1 0x1300 2958 2852 WAVE_END (wave on another SIMD of the traced unit, not instruction-traced)
	1 0 0 0x1300 2871 2721 WAVE_END (wave not instruction-traced)
	1 2147483648 0 0x1300 2890 2736 WAVE_END (wave on another SIMD of the traced unit, not instruction-traced)
	EOF
	test_cmp expect actual &&
	rows rows.branchy | cut -d" " -f1-3 | sort -u > actual &&
	printf "%s\n" "0 0 0" "0 1 1" "0 2 2" "0 2147483648 3" > expect &&
	test_cmp expect actual &&
	rows rows.branchy | awk "\$2 >= 2147483648" > actual &&
	echo "0 2147483648 3 0x1300 1240 1038 WAVE_END (wave on another SIMD of the traced unit, not instruction-traced)" > expect &&
	test_cmp expect actual &&
	for t in demo branchy; do
		awk -v other=1 -v count=1 -f "$TOP/tests/lib/lifetimes.awk" packets.$t &&
		awk -F"\t" "!/^#/ && \$4 >= 2147483648 && \$11 == \"untraced\"" rows.$t | wc -l | tr -d " " || return 1
	done > actual &&
	printf "%s\n" 3 3 1 1 > expect &&
	test_cmp expect actual
'

test_expect_success 'waves on other units only (SIMD 1, WGP 1, SA 1): their lifetimes, untraced rows, no error' '
	cp "$KERNELS/branchy.hsaco" . &&
	tsv > other.tsv <<\EOF &&
##target gfx1100
##code branchy 2 0x7f3a2c100000 0 branchy.hsaco
##event 0 0 branchy 2 1 0 0 0 -
#event se nib time type wave simd wgp sa op raw
0 0 - 0 HEADER - 0 0 0 - -
0 0 - 100 WAVE_START 0 1 0 0 - -
0 0 - 101 WAVE_START 0 0 1 0 - -
0 0 - 102 WAVE_START 0 0 0 1 - -
0 0 - 900 WAVE_END 0 1 0 0 - -
0 0 - 901 WAVE_END 0 0 1 0 - -
0 0 - 902 WAVE_END 0 0 0 1 - -
EOF
	walked other &&
	test_cmp /dev/null err &&
	rows rows.other > actual &&
	cat > expect <<-\EOF &&
	0 2147483648 0 0x1300 900 800 WAVE_END (wave on another SIMD of the traced unit, not instruction-traced)
	0 2147483649 0 0x1300 901 800 WAVE_END (wave on another unit, not instruction-traced)
	0 2147483650 0 0x1300 902 800 WAVE_END (wave on another unit, not instruction-traced)
	EOF
	test_cmp expect actual &&
	awk -F"\t" "!/^#/ { print \$11 }" rows.other | sort -u > cls && echo untraced > expect &&
	test_cmp expect cls
'

test_expect_success 'a wave on the traced SIMD too: it is wave 0, the other units'"'"' waves are still rows' '
	{ cat other.tsv; printf "0\t0\t-\t903\tWAVE_START\t1\t0\t0\t0\t-\t-\n0\t0\t-\t990\tWAVE_END\t1\t0\t0\t0\t-\t-\n"; } > mixed.tsv &&
	walked mixed &&
	test_cmp /dev/null err &&
	rows rows.mixed > actual &&
	cat > expect <<-\EOF &&
	0 2147483648 0 0x1300 900 800 WAVE_END (wave on another SIMD of the traced unit, not instruction-traced)
	0 2147483649 0 0x1300 901 800 WAVE_END (wave on another unit, not instruction-traced)
	0 2147483650 0 0x1300 902 800 WAVE_END (wave on another unit, not instruction-traced)
	0 0 1 0x1300 990 87 WAVE_END (wave not instruction-traced)
	EOF
	test_cmp expect actual
'

# A slot of SIMD 1 starts a wave at 100 and again at 200 (the first one's end is not in
# the trace), ends at 300: one untraced row of 100 cycles, a warning.  A WAVE_END of a
# slot that started before the trace (SIMD 2) gives none, and says nothing.
test_expect_success 'another SIMD: a WAVE_START of an open slot, a WAVE_END with no start' '
	tsv > reopen.tsv <<\EOF &&
##target gfx1100
##code branchy 2 0x7f3a2c100000 0 branchy.hsaco
##event 0 0 branchy 2 1 0 0 0 -
#event se nib time type wave simd wgp sa op raw
0 0 - 0 HEADER - 0 0 0 - -
0 0 - 50 WAVE_END 4 2 0 0 - -
0 0 - 100 WAVE_START 4 1 0 0 - -
0 0 - 200 WAVE_START 4 1 0 0 - -
0 0 - 300 WAVE_END 4 1 0 0 - -
EOF
	sqtt-walk reopen.tsv > rows.reopen 2> err &&
	rows rows.reopen > actual &&
	echo "0 2147483648 4 0x1300 300 100 WAVE_END (wave on another SIMD of the traced unit, not instruction-traced)" > expect &&
	test_cmp expect actual &&
	cat > expect <<-\EOF &&
	sqtt-walk: warning: event 0: a slot of another SIMD started a wave while its wave was open (1 time): the earlier waves'"'"' ends are not in the trace, they have no row
	sqtt-walk: 1 warning
	EOF
	test_cmp expect err
'

# 65540 waves on other SIMDs of other units open at once (3 SAs x 256 WGPs x SIMDs 1-3 x
# 32 slots, the text stream allows what no GPU has): the first 65536 are followed and
# are rows, the last 4 are not, and a warning says so.
test_expect_success 'more wave slots of other SIMDs open at once than are followed: a warning counts the rest' '
	{ sed -n "1,5p" reopen.tsv &&
	  for kind in WAVE_START WAVE_END; do
		awk -v kind=$kind "BEGIN { OFS = \"\t\"
			for (sa = 0; sa < 3; sa++) for (wgp = 0; wgp < 256; wgp++) for (simd = 1; simd < 4; simd++)
				for (w = 0; w < 32 && n < 65540; w++)
					print 0, 0, \"-\", (kind == \"WAVE_END\") * 100000 + 100 + n++, kind, w, simd, wgp, sa, \"-\", \"-\" }" || return 1
	  done; } > many.tsv &&
	test_expect_code 0 sqtt-walk many.tsv > rows.many 2> err &&
	grep -vc "^#" rows.many > n && echo 65536 > expect && test_cmp expect n &&
	awk -F"\t" "!/^#/ && \$8 != 100000 { print }" rows.many > bad && test_cmp /dev/null bad &&
	cat > expect <<-\EOF &&
	sqtt-walk: warning: event 0: 4 waves on other SIMDs have no row: they started while 65536 wave slots were followed (the limits of sqtt-walk(1))
	sqtt-walk: 1 warning
	EOF
	test_cmp expect err
'

test_expect_success 'branchy: the forward branch not taken falls through; taken, it ends the wave' '
	cat > expect <<\EOF &&
0 0 0 0x1300 700 500 INST:smem_rd s_load_b128 s[4:7], s[0:1], null
0 0 0 0x1308 903 203 IMM_ONE s_waitcnt lgkmcnt(0)
0 0 0 0x130c 904 1 VALU_INST v_cmp_gt_u32_e32 vcc_lo, s6, v0
0 0 0 0x1310 905 1 INST:salu_wr_exec s_and_saveexec_b32 s2, vcc_lo
0 0 0 0x1314 906 1 INST:branch_not_taken s_cbranch_execz 8
0 0 0 0x1318 907 1 VALU_INST v_mov_b32_e32 v1, 1.0
0 0 0 0x131c 910 3 VALU_INST v_add_f32_e32 v1, v1, v1
0 2 2 0x1300 712 504 INST:smem_rd s_load_b128 s[4:7], s[0:1], null
0 2 2 0x1308 907 195 IMM_ONE s_waitcnt lgkmcnt(0)
0 2 2 0x130c 908 1 VALU_INST v_cmp_gt_u32_e32 vcc_lo, s6, v0
0 2 2 0x1310 909 1 INST:salu_wr_exec s_and_saveexec_b32 s2, vcc_lo
0 2 2 0x1314 910 1 INST:branch_taken s_cbranch_execz 8
0 2 2 0x1338 941 31 WAVE_END s_endpgm
EOF
	{ rows rows.branchy | awk "\$2 == 0 && \$5 <= 910" &&
	  rows rows.branchy | awk "\$2 == 2"; } > actual &&
	test_cmp expect actual &&
	cat > expect <<\EOF &&
0 1 1 0x1328 916 1 INST:branch_taken s_cbranch_scc1 65532
0 1 1 0x1328 925 1 INST:branch_taken s_cbranch_scc1 65532
0 1 1 0x1328 934 1 INST:branch_not_taken s_cbranch_scc1 65532
0 1 1 0x132c 942 8 VALU_INST v_lshlrev_b32_e32 v0, 2, v0
0 1 1 0x1330 943 1 INST:sgmem_wr_2 global_store_b32 v0, v1, s[4:5]
0 1 1 0x1338 1241 298 WAVE_END s_endpgm
EOF
	rows rows.branchy | awk "\$2 == 1 && (\$4 == \"0x1328\" || \$5 > 934)" > actual &&
	test_cmp expect actual
'

test_expect_success 'deltas of every wave add up to WAVE_END - WAVE_START (demo, branchy)' '
	for t in demo branchy; do
		lifetimes packets.$t > lifetimes.$t &&
		delta_sums rows.$t > sums.$t &&
		test -s sums.$t &&
		test_cmp lifetimes.$t sums.$t || return 1
	done
'

# A trace of branchy with two misfits: wave 0's first token is a VALU_INST while its pc is
# the s_load_b128 (resynchronised on the v_cmp, the next VALU on the fall-through path);
# wave 1 reports an INST lds_rd that no instruction before the next branch fits (dropped).
test_expect_success 'misfit tokens: exact warnings, resynchronised or dropped, exit 0' '
	cp "$KERNELS/branchy.hsaco" . &&
	tsv > misfit.tsv <<\EOF &&
##target gfx1100
##code branchy 2 0x7f3a2c100000 0 branchy.hsaco
##event 0 0 branchy 2 1 0 0 0 -
#event se nib time type wave simd wgp sa op raw
0 0 - 0 HEADER - 0 0 0 - -
0 0 - 100 WAVE_START 0 0 0 0 - -
0 0 - 104 WAVE_START 1 0 0 0 - -
0 0 - 600 VALU_INST 0 - - - - -
0 0 - 601 INST 0 - - - salu_wr_exec -
0 0 - 602 INST 0 - - - branch_taken -
0 0 - 606 INST 1 - - - smem_rd -
0 0 - 632 WAVE_END 0 0 0 0 - -
0 0 - 806 IMM_ONE 1 - - - - -
0 0 - 807 INST 1 - - - lds_rd -
0 0 - 808 VALU_INST 1 - - - - -
0 0 - 809 INST 1 - - - salu_wr_exec -
0 0 - 810 INST 1 - - - branch_taken -
0 0 - 840 WAVE_END 1 0 0 0 - -
EOF
	walked misfit &&
	cat > expect <<\EOF &&
sqtt-walk: warning: event 0 wave 0 (slot 0): VALU_INST at time 600 does not fit pc 0x1300 (s_load_b128 s[4:7], s[0:1], null); resynchronised further on
sqtt-walk: warning: event 0 wave 1 (slot 1): INST:lds_rd at time 807 does not fit pc 0x130c (v_cmp_gt_u32_e32 vcc_lo, s6, v0); token dropped
sqtt-walk: 2 warnings
EOF
	test_cmp expect err &&
	cat > expect <<\EOF &&
0 0 0 0x130c 600 500 VALU_INST v_cmp_gt_u32_e32 vcc_lo, s6, v0
0 0 0 0x1310 601 1 INST:salu_wr_exec s_and_saveexec_b32 s2, vcc_lo
0 0 0 0x1314 602 1 INST:branch_taken s_cbranch_execz 8
0 1 1 0x1300 606 502 INST:smem_rd s_load_b128 s[4:7], s[0:1], null
0 0 0 0x1338 632 30 WAVE_END s_endpgm
0 1 1 0x1308 806 200 IMM_ONE s_waitcnt lgkmcnt(0)
0 1 1 0x130c 808 2 VALU_INST v_cmp_gt_u32_e32 vcc_lo, s6, v0
0 1 1 0x1310 809 1 INST:salu_wr_exec s_and_saveexec_b32 s2, vcc_lo
0 1 1 0x1314 810 1 INST:branch_taken s_cbranch_execz 8
0 1 1 0x1338 840 30 WAVE_END s_endpgm
EOF
	rows rows.misfit > actual &&
	test_cmp expect actual &&
	lifetimes packets.misfit > lifetimes &&
	delta_sums rows.misfit > sums &&
	test_cmp lifetimes sums
'

test_expect_success 'misfit tokens with --strict: the same rows and warnings, exit 2' '
	test_expect_code 2 sqtt-walk --strict packets.misfit > rows.strict 2> err.strict &&
	test_cmp rows.misfit rows.strict &&
	test_cmp err err.strict
'

test_expect_success '--packets 0: wave 0 token by token on stderr; stdout unchanged' '
	sqtt-walk --packets 0 packets.demo > rows.dbg 2> dbg &&
	test_cmp rows.demo rows.dbg &&
	cat > expect <<\EOF &&
sqtt-walk: packets: event 0 wave 0 slot 0 time 600 INST:smem_rd          pc 0x1300 s_load_b64 s[2:3], s[0:1], null
sqtt-walk: packets: event 0 wave 0 slot 0 time 601 INST:smem_rd          pc 0x1308 s_load_b64 s[4:5], s[0:1], 0x8
sqtt-walk: packets: event 0 wave 0 slot 0 time 602 VALU_INST             pc 0x1310 v_lshlrev_b32_e32 v0, 2, v0
sqtt-walk: packets: event 0 wave 0 slot 0 time 603 INST:salu             pc 0x1314 s_mov_b32 s6, 3
sqtt-walk: packets: event 0 wave 0 slot 0 time 800 IMM_ONE               pc 0x1318 s_waitcnt lgkmcnt(0)
EOF
	head -n 5 dbg > actual &&
	test_cmp expect actual &&
	{ grep -v "^sqtt-walk: packets: event 0 wave 0 slot 0 time [0-9][0-9]* [A-Za-z_:0-9]* *pc 0x[0-9a-f][0-9a-f]* [a-z]" dbg > bad || :; } &&
	test_cmp /dev/null bad &&
	n=$(wc -l < dbg) &&
	test $n -eq $(awk -F"\t" "!/^#/ && \$1 == 0 && \$4 == 0 && \$9 != \"WAVE_END\"" rows.demo | wc -l) &&
	test $n -eq 28 &&
	sqtt-walk --packets 1 packets.misfit > /dev/null 2> dbg.misfit &&
	grep "packets:" dbg.misfit > actual &&
	cat > expect <<\EOF &&
sqtt-walk: packets: event 0 wave 1 slot 1 time 606 INST:smem_rd          pc 0x1300 s_load_b128 s[4:7], s[0:1], null
sqtt-walk: packets: event 0 wave 1 slot 1 time 806 IMM_ONE               pc 0x1308 s_waitcnt lgkmcnt(0)
sqtt-walk: packets: event 0 wave 1 slot 1 time 807 INST:lds_rd           pc 0x130c MISS v_cmp_gt_u32_e32 vcc_lo, s6, v0
sqtt-walk: packets: event 0 wave 1 slot 1 time 808 VALU_INST             pc 0x130c v_cmp_gt_u32_e32 vcc_lo, s6, v0
sqtt-walk: packets: event 0 wave 1 slot 1 time 809 INST:salu_wr_exec     pc 0x1310 s_and_saveexec_b32 s2, vcc_lo
sqtt-walk: packets: event 0 wave 1 slot 1 time 810 INST:branch_taken     pc 0x1314 s_cbranch_execz 8
EOF
	test_cmp expect actual
'

# Two programs: "junk", whose code object is a few bytes of text, and branchy.  The junk
# program's event is not walked (one error line naming it), branchy's still is, exit 2.
# (sqtt-encode copies only ELF files into a capture: the junk goes in by hand.)
test_expect_success 'a program that is not an ELF: one error naming it, the other walked, exit 2' '
	cp "$KERNELS/branchy.hsaco" . &&
	printf "these bytes are not a code object\n" > junk.bin &&
	tsv > two.tsv <<\EOF &&
##target gfx1100
##code junk 7 0x7f3a2c200000 0 branchy.hsaco
##code branchy 2 0x7f3a2c100000 0 branchy.hsaco
##event 0 0 junk 7 1 0 0 0 -
##event 1 1 branchy 2 1 0 0 0 -
#event se nib time type wave simd wgp sa op raw
0 0 - 0 HEADER - 0 0 0 - -
0 0 - 100 WAVE_START 0 0 0 0 - -
0 0 - 600 INST 0 - - - smem_rd -
0 0 - 800 IMM_ONE 0 - - - - -
0 0 - 1100 WAVE_END 0 0 0 0 - -
1 1 - 0 HEADER - 0 0 0 - -
1 1 - 100 WAVE_START 0 0 0 0 - -
1 1 - 600 INST 0 - - - smem_rd -
1 1 - 800 IMM_ONE 0 - - - - -
1 1 - 801 VALU_INST 0 - - - - -
1 1 - 802 INST 0 - - - salu_wr_exec -
1 1 - 803 INST 0 - - - branch_taken -
1 1 - 833 WAVE_END 0 0 0 0 - -
EOF
	sqtt-encode -d cap.two two.tsv &&
	cp junk.bin cap.two/stall_code_object_id_0.out &&
	sqtt-dump cap.two > packets.two &&
	test_expect_code 2 sqtt-walk packets.two > rows.two 2> err &&
	test_one_line_error sqtt-walk err &&
	echo "sqtt-walk: $(pwd -P)/cap.two/stall_code_object_id_0.out: program junk: not an ELF file; its events are not walked" > expect &&
	test_cmp expect err &&
	cat > expect <<\EOF &&
1 0 0 0x1300 600 500 INST:smem_rd s_load_b128 s[4:7], s[0:1], null
1 0 0 0x1308 800 200 IMM_ONE s_waitcnt lgkmcnt(0)
1 0 0 0x130c 801 1 VALU_INST v_cmp_gt_u32_e32 vcc_lo, s6, v0
1 0 0 0x1310 802 1 INST:salu_wr_exec s_and_saveexec_b32 s2, vcc_lo
1 0 0 0x1314 803 1 INST:branch_taken s_cbranch_execz 8
1 0 0 0x1338 833 30 WAVE_END s_endpgm
EOF
	rows rows.two > actual &&
	test_cmp expect actual
'

test_expect_success 'fixtures/demo is what sqtt-encode makes of fixtures/traces/demo.packets.tsv' '
	(cd "$TOP/fixtures/demo" && ls) > expect &&
	(cd cap.demo && ls) > actual &&
	test_cmp expect actual &&
	for f in cap.demo/*; do
		cmp "$f" "$TOP/fixtures/demo/${f#cap.demo/}" || return 1
	done &&
	cmp "$KERNELS/demo.hsaco" "$TOP/fixtures/demo/stall_code_object_id_0.out"
'

test_done
