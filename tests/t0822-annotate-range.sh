#!/bin/sh
# t0822-annotate-range: --annotate and --loops cover the kernel's own instructions (its
# function symbol's bytes), not the other kernel of its code object, not the s_nop between
# them, not the s_code_end padding after it; an instruction and a source line whose own
# cycles (launch and drain left out) are 5% of the kernel's or more are marked hot; -k and
# --dispatch choose a capture's buffers.  fixtures/annotate/pair.s holds lead (0x1400) and
# pair (0x1500, then four s_code_end); pair.packets.tsv traces one wave of pair, made by
# hand, so every figure follows from its times:
#   WAVE_START 100, s_load 200 (launch: 100), s_mov 201 (1), s_waitcnt 300 (99, smem),
#   s_add 301, s_cmp 302, s_cbranch 303 taken (1 each), s_waitcnt 310 (7), s_add 311,
#   s_cmp 312, s_cbranch 313 not taken (1 each), WAVE_END 330 (drain: 17); 230 in all.
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/annotate-lib.sh"

cat > listing <<'LISTING'
##stall-annotate	annotate
## pair: 1 waves, 11 rows, 230 cycles; percent is of the kernel's cycles
 percent     cycles     hits  cause        pc       instruction
                                          fixtures/annotate/pair.s:26
  43.48%        100        1  wave_start   0x1500   s_load_b64 s[2:3], s[0:1], null
                                          fixtures/annotate/pair.s:27
   0.43%          1        1  issue_cycle  0x1508   s_mov_b32 s4, 2
                                          fixtures/annotate/pair.s:29
  46.09%        106        2  smem         0x150c   s_waitcnt lgkmcnt(0)   <- hot
                                          fixtures/annotate/pair.s:30
   0.87%          2        2  issue_cycle  0x1510   s_add_i32 s4, s4, -1
                                          fixtures/annotate/pair.s:31
   0.87%          2        2  issue_cycle  0x1514   s_cmp_lg_u32 s4, 0
                                          fixtures/annotate/pair.s:32
   0.87%          2        2  issue_cycle  0x1518   s_cbranch_scc1 0x150c   <- loop back edge to 0x150c: 2 iterations in 1 waves
                                          fixtures/annotate/pair.s:33
   7.39%         17        1  drain        0x151c   s_endpgm
 100.00%        230       11  total
## pair by source line
  46.09%        106        2  smem         fixtures/annotate/pair.s:29   <- hot
  43.48%        100        1  wave_start   fixtures/annotate/pair.s:26
   7.39%         17        1  drain        fixtures/annotate/pair.s:33
   0.87%          2        2  issue_cycle  fixtures/annotate/pair.s:30
   0.87%          2        2  issue_cycle  fixtures/annotate/pair.s:31
   0.87%          2        2  issue_cycle  fixtures/annotate/pair.s:32
   0.43%          1        1  issue_cycle  fixtures/annotate/pair.s:27
LISTING

test_expect_success 'the rows of pair: eleven' '
	rows_of pair &&
	test "$(grep -vc "^#" pair.rows)" = 11
'

test_expect_success OBJDUMP 'pair.hsaco: lead, the s_nop between, pair, the s_code_end after' '
	"${OBJDUMP:-llvm-objdump-22}" -d --no-show-raw-insn "$TOP/fixtures/annotate/pair.hsaco" > dis &&
	grep -q "^0000000000001400 <lead>:" dis &&
	grep -q "^0000000000001500 <pair>:" dis &&
	test "$(grep -c "s_nop 0 .*// 0000000014" dis)" -gt 0 &&
	test "$(grep -c "s_code_end .*// 00000000152" dis)" = 4
'

test_expect_success '--annotate: pair alone, its seven instructions, the hot wait marked' '
	stall-annotate --annotate pair.attr > out 2> err &&
	test_cmp /dev/null err &&
	test_cmp listing out
'

test_expect_success '--loops: pair'"'"'s loop, not lead'"'"'s' '
	stall-annotate --loops pair.attr > out &&
	printf "%s\n" "##stall-annotate	loops" \
	    "#kernel	head	tail	insts	waves	iterations	min	max	cycles	percent	per_iteration	cause	spin" \
	    "##kernel	pair	cycles	230	loops	1	in loops	112	rest	118" \
	    "pair	0x150c	0x1518	4	1	2	2	2	112	48.70	56.00	smem	-" > expect &&
	test_cmp expect out
'

# A capture of three buffers: pair's wave in dispatches 0 and 1, and one wave of lead in
# dispatch 2 (WAVE_START 50, s_mov 90: launch 40; three iterations of s_add, s_cmp,
# s_cbranch at 91-99, one cycle each; WAVE_END 120: drain 21; 70 in all).
test_expect_success 'the capture: pair twice, lead once' '
	{
		printf "##target\tgfx1100\n"
		printf "##code\tpair\t4\t0x7f3a2c400000\t0\tfixtures/annotate/pair.hsaco\n"
		printf "##code\tlead\t4\t0x7f3a2c400000\t0\tfixtures/annotate/pair.hsaco\n"
		printf "##event\t%d\t0\tpair\t4\t1\t0\t0\t0\t-\t%d\n" 0 0 1 1
		printf "##event\t2\t0\tlead\t4\t1\t0\t0\t0\t-\t2\n"
		grep "^#[^#]" "$TOP/fixtures/annotate/pair.packets.tsv"
		for e in 0 1; do
			grep -v "^#" "$TOP/fixtures/annotate/pair.packets.tsv" |
			    awk -F"\t" -v OFS="\t" -v e=$e "{ \$1 = e; print }"
		done
		printf "2\t0\t-\t0\tHEADER\t-\t0\t0\t0\t-\t-\n"
		printf "2\t0\t-\t50\tWAVE_START\t0\t0\t0\t0\t-\t-\n"
		printf "2\t0\t-\t90\tINST\t0\t-\t-\t-\tsalu\t-\n"
		for t in 91 94 97; do
			printf "2\t0\t-\t%d\tINST\t0\t-\t-\t-\tsalu\t-\n" $t $((t + 1))
			printf "2\t0\t-\t%d\tINST\t0\t-\t-\t-\t%s\t-\n" $((t + 2)) \
			    $(test $t = 97 && echo branch_not_taken || echo branch_taken)
		done
		printf "2\t0\t-\t120\tWAVE_END\t0\t0\t0\t0\t-\t-\n"
	} > three.packets &&
	(cd "$TOP" && sqtt-encode -d "$T_DIR/cap" "$T_DIR/three.packets") &&
	test "$(grep -c "^##event" cap/capture.tsv)" = 3
'

test_expect_success '--dispatch 1 on the capture: the listing of the one wave' '
	stall-annotate --annotate --dispatch 1 cap > out 2> err &&
	test_cmp /dev/null err &&
	test_cmp listing out
'

test_expect_success '-k pair on the capture: two waves, every figure twice' '
	stall-annotate --annotate -k pair cap > out &&
	awk "/^ *[0-9.]+% .* 0x/ { print \$2, \$3, \$5 }" out > actual &&
	printf "%s\n" "200 2 0x1500" "2 2 0x1508" "212 4 0x150c" "4 4 0x1510" "4 4 0x1514" \
	    "4 4 0x1518" "34 2 0x151c" > expect &&
	test_cmp expect actual &&
	grep -q "^## pair: 2 waves, 22 rows, 460 cycles" out
'

test_expect_success '-k lead --loops on the capture: lead'"'"'s loop; no instruction hot' '
	stall-annotate --loops -k lead cap > out &&
	tail -n 2 out > actual &&
	printf "%s\n" "##kernel	lead	cycles	70	loops	1	in loops	9	rest	61" \
	    "lead	0x1404	0x140c	3	1	3	3	3	9	12.86	3.00	issue_cycle	-" > expect &&
	test_cmp expect actual &&
	stall-annotate --annotate -k lead cap > out &&
	awk "/^ *[0-9.]+% .* 0x/ { print \$5 }" out | tr "\n" " " > actual &&
	printf "0x1400 0x1404 0x1408 0x140c 0x1410 " > expect &&
	test_cmp expect actual &&
	! grep -q "hot" out
'

test_expect_success '-k and --dispatch that match nothing in the capture: one line, exit 2' '
	test_expect_code 2 stall-annotate -k nosuch cap > out 2> err &&
	echo "stall-annotate: cap: no trace buffer matches -k nosuch (3 in all)" > expect &&
	test_cmp expect err &&
	test_expect_code 2 stall-annotate --dispatch 7 cap > out 2> err &&
	test_one_line_error stall-annotate err
'

test_done
