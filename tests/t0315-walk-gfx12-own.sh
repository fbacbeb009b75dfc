#!/bin/sh
# t0315: a gfx12 trace authored for a gfx1200 kernel (fixtures/gfx12/sync12.s, built with
# clang-22 -mcpu=gfx1200), so the answer is known by construction: sqtt-encode writes it
# as a HEADER version 4 stream (exclude_barrier_wait set, gfx12 token layouts), and every
# program reads it as gfx12: the 12-byte global_load, the split waits named by what they
# waited for (s_wait_kmcnt: smem, s_wait_loadcnt: mem), s_wait_alu never traced, the
# token-less s_barrier_wait charged its wait.
. "$(dirname "$0")/lib.sh"

K="$TOP/fixtures/gfx12"

test_expect_success 'sqtt-encode writes a version 4 stream with gfx12 tokens' '
	(cd "$TOP" && sqtt-encode -d "$T_DIR/cap" fixtures/gfx12/sync12.packets.tsv) &&
	sqtt-dump cap > packets &&
	grep "^##target" packets > target && printf "##target\tgfx1200\n" > expect && test_cmp expect target &&
	grep -v "^#" packets | awk -F"\t" "\$5 != \"TIMESTAMP\" { print \$4, \$5, \$6, \$10, \$11 }" > actual &&
	cat > expect <<-\EOF &&
	0 HEADER - - 0x913100868700211
	100 WAVE_START 0 - 0x80000c
	300 INST 0 smem_rd 0x1002
	301 VALU_INST 0 - 0xb
	500 IMM_ONE 0 - 0xd
	501 INST 0 sgmem_rd_1 0x2100a
	1300 IMM_ONE 0 - 0xd
	1301 VALU_INST 0 - 0xb
	1303 INST 0 barrier_signal 0x7a012
	1400 INST 0 sgmem_wr_2 0x24002
	1500 WAVE_END 0 - 0x15
	EOF
	test_cmp expect actual &&
	grep "	TIMESTAMP	" packets | cut -f11 | head -n 1 > ts && echo 0x64001 > expect && test_cmp expect ts
'

test_expect_success 'walked and costed as constructed' '
	sqtt-walk packets > rows 2> err && test_cmp /dev/null err &&
	stall-attr rows > costs 2> err && test_cmp /dev/null err &&
	grep -v "^#" costs | cut -f6-8,9,11,13,14 > actual &&
	cat > expect <<-\EOF &&
	0x1300	300	200	INST:smem_rd	smem	200	wave_start
	0x1308	301	1	VALU_INST	valu	1	issue_cycle
	0x130c	500	199	IMM_ONE	waitcnt	199	smem
	0x1310	501	1	INST:sgmem_rd_1	global_load	1	issue_cycle
	0x131c	1300	799	IMM_ONE	waitcnt	799	mem
	0x1320	1301	1	VALU_INST	valu	1	issue_cycle
	0x1328	1303	2	INST:barrier_signal	barrier_signal	2	unexplained
	0x132c	1400	97	-	barrier	97	barrier
	0x1330	1400	0	INST:sgmem_wr_2	global_store	1	exec
	0x133c	1500	100	WAVE_END	endpgm	99	drain
	EOF
	test_cmp expect actual
'

test_expect_success 'stall: the same rows in one process, a table, --html and --trace-json' '
	stall --rows cap > srows 2> err && test_cmp /dev/null err &&
	test_cmp costs srows &&
	stall --plain -n 3 cap > table &&
	cut -f1-6 table > actual &&
	printf "kernel\tpc\thits\tcycles\tpct\tcause\nsync12\t0x131c\t1\t799\t57.07\tmem\nsync12\t0x130c\t1\t199\t14.21\tsmem\nsync12\t0x132c\t1\t97\t6.93\tbarrier\nsync12\t-\t1\t200\t14.29\twave_start\nsync12\t-\t1\t99\t7.07\tdrain\n" > expect &&
	test_cmp expect actual &&
	stall --html page.html --trace-json trace.json cap > /dev/null &&
	grep -q "s_barrier_wait" page.html &&
	grep -q "s_wait_loadcnt" trace.json
'

test_expect_success 'stall-annotate, stall-diff and stall-budget read gfx12 rows' '
	stall-annotate --waits costs > waits &&
	grep -v "^#" waits | cut -f2,3,8 > actual &&
	printf "0x130c\t0x1300\t199\n0x131c\t0x1310\t799\n" > expect &&
	test_cmp expect actual &&
	stall-diff costs costs > diff &&
	grep -q "^##stall-diff	kernel	sync12	sync12	waves	1	1	cycles	1400	1400" diff &&
	echo "sync12 cycles <= 1400" > ok.rules && stall-budget ok.rules costs > /dev/null &&
	echo "sync12 cycles <= 1399" > over.rules && test_expect_code 1 stall-budget over.rules costs > /dev/null
'

test_expect_success CLANG 'sync12.hsaco is what sync12.s assembles to for gfx1200' '
	clang-22 -target amdgcn-amd-amdhsa -mcpu=gfx1200 -nogpulib -c -o sync12.o "$K/sync12.s" 2> /dev/null &&
	ld.lld-22 -shared -o sync12.hsaco sync12.o &&
	cmp sync12.hsaco "$K/sync12.hsaco"
'

test_done
