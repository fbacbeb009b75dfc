#!/bin/sh
# t0108: a gfx9 trace authored for a gfx950 kernel (fixtures/gfx9/sync9.s, built with
# clang-22 -mcpu=gfx950), so the answer is known by construction: sqtt-encode writes it
# as a CDNA stream (no HEADER, the TIME word first, 16-bit tokens whose deltas carry the
# time), sqtt-dump reads every token back, and every program reads it as gfx9: records
# from ISSUE states and INST categories (an immediate at its token's time, another
# instruction 4 cycles before), the waits by their gfx9 counters, the MFMA a VALU, the
# barrier's entry and exit, s_sleep, cycles conserved; and two traps (trap9.packets.tsv).
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/gfx9-lib.sh"

K="$TOP/fixtures/gfx9"

test_expect_success 'sqtt-encode writes a gfx9 stream that reads back token for token' '
	gfx9_capture sync9 cap &&
	od -An -tx1 -N8 cap/stall_shader_engine_0_0.att | tr -d " \n" > first && echo >> first &&
	echo 1180 0f 00 00 00 00 00 | tr -d " " > expect && test_cmp expect first &&
	sqtt-dump cap > packets &&
	grep "^##target" packets > target && printf "##target\tgfx950\n" > expect && test_cmp expect target &&
	grep -v "^#" packets | awk -F"\t" "\$5 != \"MISC\"" | cut -f4-10 > actual &&
	grep -v "^#" "$K/sync9.packets.tsv" | cut -f4-10 > expect &&
	test_cmp expect actual &&
	grep -v "^#" packets | awk -F"\t" "\$5 != \"MISC\"" | cut -f11 | head -n 3 > raw &&
	printf "0x13\n0x21d\n0xa\n" > expect && test_cmp expect raw
'

test_expect_success 'walked and costed as constructed' '
	sqtt-walk packets > rows 2> err && test_cmp /dev/null err &&
	stall-attr rows > costs 2> err && test_cmp /dev/null err &&
	grep -v "^#" costs | cut -f6-9,11,13,14 > actual &&
	cat > expect <<-\EOF &&
	0x1300	196	100	INST:smem	smem	100	wave_start
	0x1308	200	4	INST:valu	valu	4	issue_cycle
	0x130c	400	200	INST:immed	waitcnt	200	smem
	0x1310	400	0	INST:flat	global_load	0	issue_cycle
	0x1318	1200	800	INST:immed	waitcnt	800	mem
	0x131c	1200	0	INST:valu	valu	0	issue_cycle
	0x1324	1204	4	INST:valu	valu	4	issue_cycle
	0x1328	1208	4	INST:message	barrier	4	barrier
	0x1328	1500	292	INST:immed	barrier	292	barrier
	0x132c	1700	200	INST:immed	imm	200	sleep
	0x1330	1704	4	INST:flat	global_store	4	issue_cycle
	0x1338	1708	4	INST:message	endpgm	4	issue_cycle
	0x1338	1996	288	WAVE_END	endpgm	288	drain
	EOF
	test_cmp expect actual
'

test_expect_success 'cycles conserved: the costs add up to the lifetime, WAVE_START - 4 to WAVE_END - 4' '
	cost_sum costs > sum &&
	echo 1900 > expect && test_cmp expect sum
'

test_expect_success 'stall: the same rows in one process, and a table' '
	stall --rows cap > srows 2> err && test_cmp /dev/null err &&
	test_cmp costs srows &&
	stall --plain -n 3 cap > table &&
	cut -f1-6 table > actual &&
	printf "kernel\tpc\thits\tcycles\tpct\tcause\nsync9\t0x1318\t1\t800\t42.11\tmem\n" > expect &&
	head -n 2 actual > top && test_cmp expect top
'

test_expect_success 'stall-diff and stall-budget read gfx9 rows' '
	stall-diff costs costs > diff &&
	grep -q "^##stall-diff	kernel	sync9	sync9	waves	1	1	cycles	1900	1900" diff &&
	echo "sync9 cycles <= 1900" > ok.rules && stall-budget ok.rules costs > /dev/null &&
	echo "sync9 cycles <= 1899" > over.rules && test_expect_code 1 stall-budget over.rules costs > /dev/null
'

test_expect_success 'sqtt-encode refuses a gfx9 time off the 4-cycle clock, in one line' '
	sed "s/^0	0	-	204	ISSUE/0	0	-	206	ISSUE/" "$TOP/fixtures/gfx9/sync9.packets.tsv" > off.tsv &&
	test_expect_code 2 sqtt-encode -o off.att off.tsv 2> err &&
	echo "sqtt-encode: off.tsv:8: time 206: not a multiple of 4 cycles after the one before (the clock is at 200)" > expect &&
	test_cmp expect err
'

test_expect_success 'two records issued the other way round from the code are swapped' '
	{
		grep "^##" "$K/sync9.packets.tsv" &&
		printf "#event\tse\tnib\ttime\ttype\twave\tsimd\twgp\tsa\top\traw\n" &&
		printf "0\t0\t-\t%s\t%s\t-\t-\t-\t-\t-\t%s\n" 100 WAVE_START 0x3 200 ISSUE 0x20d 200 INST 0xa \
		    400 ISSUE 0x30d 404 ISSUE 0x20d 404 INST 0x280a 408 ISSUE 0x20d 408 INST 0x700a \
		    500 WAVE_END 0x6
	} > swap.tsv &&
	(cd "$TOP" && sqtt-walk "$T_DIR/swap.tsv") > swap.rows 2> err &&
	grep -v "^#" swap.rows | cut -f6,7,9 > actual &&
	printf "0x1300\t196\tINST:smem\n0x1308\t400\tINST:valu\n0x130c\t400\tINST:immed\n0x1310\t404\tINST:flat\n0x1310\t496\tWAVE_END\n" > expect &&
	test_cmp expect actual
'

# fixtures/gfx9/trap9.packets.tsv: the same kernel with two traps, as AMD's decoder reads
# them: a SAVE_CONTEXT MISC (252), the context save's and restore's WAVE_STARTs (count 65:
# 260, 500), then an INST go_to_trap (1612); in each, the wave's tokens (a valu at 300
# and at 1700) make no record, until an INST pc whose INST_PC gives the pc it resumes at
# (0x130c, then 0x1328): a TRAP record from the trap to 4 cycles after that INST pc
# (256-600: 344 cycles; 1608-1800: 192), no row, its cycles in the next row's delta.
test_expect_success 'a trap: no records inside it, the walk resumes at its INST_PC' '
	gfx9_capture trap9 trapcap &&
	sqtt-dump trapcap > trap.packets &&
	grep -v "^#" trap.packets | cut -f4,5,10 | grep -E "0x06|WAVE_START|pc\$|trap" > actual &&
	printf "%s\t%s\t%s\n" 100 WAVE_START - 252 MISC 0x06 260 WAVE_START - 500 WAVE_START - \
	    600 INST pc 1612 INST go_to_trap 1800 INST pc > expect &&
	test_cmp expect actual &&
	sqtt-walk trap.packets > trap.rows 2> err &&
	echo "sqtt-walk: warning: event 0 wave 0 (slot 0): 2 traps (a context save or a trap handler), 536 cycles, in the delta of the row after each" > expect &&
	echo "sqtt-walk: 1 warning" >> expect &&
	test_cmp expect err &&
	grep -v "^#" trap.rows | cut -f6-9 > actual &&
	cat > expect <<-\EOF &&
	0x1300	196	100	INST:smem
	0x1308	200	4	INST:valu
	0x130c	800	600	INST:immed
	0x1310	800	0	INST:flat
	0x1318	1600	800	INST:immed
	0x131c	1600	0	INST:valu
	0x1324	1604	4	INST:valu
	0x1328	1800	196	INST:message
	0x1328	2100	300	INST:immed
	0x132c	2300	200	INST:immed
	0x1330	2304	4	INST:flat
	0x1338	2308	4	INST:message
	0x1338	2596	288	WAVE_END
	EOF
	test_cmp expect actual
'

test_expect_success 'a trap: cycles conserved, WAVE_START - 4 to WAVE_END - 4' '
	stall-attr trap.rows > trap.costs 2> err && test_cmp /dev/null err &&
	cost_sum trap.costs > sum &&
	echo 2500 > expect && test_cmp expect sum &&
	stall --rows trapcap > trap.srows 2> /dev/null && test_cmp trap.costs trap.srows
'

test_expect_success CLANG 'sync9.hsaco is what sync9.s assembles to for gfx950' '
	clang-22 -target amdgcn-amd-amdhsa -mcpu=gfx950 -nogpulib -c -o sync9.o "$K/sync9.s" 2> /dev/null &&
	ld.lld-22 -shared -o sync9.hsaco sync9.o &&
	cmp sync9.hsaco "$K/sync9.hsaco"
'

test_done
