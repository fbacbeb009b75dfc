#!/bin/sh
# t0825-annotate-model: the loop finder and the register model on instructions given as
# text (build/loops_test), each rule a test that fails when the rule is broken: a branch
# to itself is a loop; a loop that only compares is not spin, one that loads and
# compares is; nested and overlapping ranges; vcc and exec are s106-s107 and s126-s127;
# and the finder, --loads and the by-line view stay linear on many branches and loads.
. "$(dirname "$0")/lib.sh"

LT="$TOP/build/loops_test"

test_expect_success 'loops: a branch to itself, a compare-only loop (not spin), a poll (spin)' '
	printf "1000\tsalu\t-\ts_mov_b32 s0, 1\n1004\tbranch\t1004\ts_cbranch_scc1 0\n1008\tsalu\t-\ts_cmp_lg_u32 s6, 0\n100c\tbranch\t1008\ts_cbranch_scc1 0\n1010\tglobal_load\t-\tglobal_load_b32 v1, v0, s[2:3]\n1014\twaitcnt\t-\ts_waitcnt vmcnt(0)\n1018\tvalu\t-\tv_cmp_eq_u32_e32 vcc_lo, 0, v1\n101c\tbranch\t1010\ts_cbranch_vccnz 0\n" > in &&
	"$LT" loops < in > actual &&
	printf "0x1004 0x1004 -\n0x1008 0x100c -\n0x1010 0x101c spin\n" > expect &&
	test_cmp expect actual
'

test_expect_success 'loops: the innermost of nested ranges; of two overlapping, the first' '
	printf "1000\tsalu\t-\ts_add_i32 s0, s0, 1\n1004\tsalu\t-\ts_add_i32 s1, s1, 1\n1008\tbranch\t1004\ts_cbranch_scc1 0\n100c\tbranch\t1000\ts_cbranch_scc0 0\n1010\tsalu\t-\ts_add_i32 s2, s2, 1\n1014\tsalu\t-\ts_add_i32 s3, s3, 1\n1018\tbranch\t1010\ts_cbranch_scc1 0\n101c\tbranch\t1014\ts_cbranch_scc0 0\n" > in &&
	"$LT" loops < in > actual &&
	printf "0x1004 0x1008 -\n0x1010 0x1018 -\n" > expect &&
	test_cmp expect actual
'

# pairs: A, B, whether they touch a common register
cat > pairs <<\EOF
v_add_co_u32 v1, vcc_lo, s6, v1	s_mov_b32 s106, 0	1
v_add_co_u32 v1, vcc_lo, s6, v1	s_mov_b32 s107, 0	0
s_and_b64 vcc, s[0:1], s[2:3]	s_mov_b32 s107, 0	1
s_mov_b32 vcc_hi, s0	s_mov_b64 s[106:107], 0	1
s_mov_b32 exec_lo, s0	s_mov_b32 s126, 0	1
s_mov_b64 exec, s[0:1]	s_mov_b32 s127, 0	1
s_mov_b32 exec_hi, s0	s_mov_b64 s[126:127], 0	1
s_mov_b32 exec_lo, s0	s_mov_b32 s127, 0	0
v_add_co_u32 v1, vcc_lo, s6, v1	s_load_b128 s[4:7], s[0:1], null	1
v_add_co_u32 v1, vcc_lo, s6, v1	s_load_b64 s[0:1], s[0:1], 0x10	0
EOF

test_expect_success 'registers: vcc is s106-s107, exec s126-s127, ranges overlap their parts' '
	while IFS="	" read -r a b want; do
		printf "1000\tsalu\t-\t%s\n1004\tsalu\t-\t%s\n" "$a" "$b" > in &&
		got=$("$LT" overlap 0 1 < in) &&
		if [ "$got" != "$want" ]; then echo "$a / $b: $got, wanted $want"; return 1; fi
	done < pairs
'

test_expect_success 'the loop finder on 200000 backward branches: in time' '
	timeout 10 "$LT" gen 400000 > actual &&
	echo 200000 > expect &&
	test_cmp expect actual
'

# hot's rows, with one wait row retiring 90000 distinct pcs (about the longest list a line
# allows is about as long): --loads and --waits stay linear
test_expect_success 'a wait that retires 90000 operations: --waits and --loads in time' '
	(cd "$TOP" && sqtt-walk fixtures/annotate/hot.packets.tsv) |
	    sed "s|	fixtures/annotate/|	$TOP/fixtures/annotate/|" | stall-attr > hot.attr &&
	awk "BEGIN { for (i = 0; i < 90000; i++) printf \"%s0x%x@1\", i ? \",\" : \"\", 4096 + 4 * i }" > list &&
	awk -F"\t" -v OFS="\t" "FILENAME == \"list\" { l = \$0; next }
		!/^#/ && \$6 == \"0x1324\" && !done { \$15 = l; done = 1 } { print }" list hot.attr > many.attr &&
	timeout 2 stall-annotate --waits many.attr > waits &&
	awk -F"\t" "\$2 == \"0x1324\"" waits | wc -l | tr -d " " > n && echo 90000 > expect && test_cmp expect n &&
	timeout 10 stall-annotate --loads many.attr > loads &&
	timeout 10 stall-annotate --hints many.attr > hints
'

test_done
