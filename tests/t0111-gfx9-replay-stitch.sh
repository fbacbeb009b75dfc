#!/bin/sh
# t0111: two rules of the gfx9 (gfx950) ISSUE-slot walk (analysis/slotwalk.c, facts in
# gen/gfx9/gfx9-slots.c) that no real capture exercises (none of ../shared's gfx950
# captures has a *_replay INST, and every record of their goldens has a pc), on traces
# authored with sqtt-encode, so that each figure is known by construction:
# * a replay (INST flat_rd_replay) lengthens the last record of the op it repeats
#   (flat_rd), however far back it was issued, to 4 cycles after the replay, the added
#   cycles its stall, which moves its issue time (fixtures/gfx9/replay9.packets.tsv,
#   replaylag9.packets.tsv);
# * the stitching (records onto the code, from the wave's entry pc, one line after the
#   other) stops where a record fits neither the line it is at nor, swapped, the line
#   after, when that line is a wait or a load other than a scratch load; at any other line
#   it steps over the line (fixtures/gfx9/stitchload9.packets.tsv,
#   stitchwait9.packets.tsv, on fixtures/gfx9/stitch9.s).
# The walk's clock is the token's time less 4 (a wave64 issue).
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/gfx9-lib.sh"

K="$TOP/fixtures/gfx9"

# replay9 is sync9's trace (t0108) with a flat_rd_replay ISSUE and INST at 1212, after the
# waitcnt vmcnt (IMMED, ISSUE 1200), the MFMA (1204) and the v_add (1208), the later tokens
# 4 cycles later.  The global_load's record (0x1310) issued at 400 (ISSUE 404) lasted 4
# cycles; the replay at 1212 (clock 1208) makes it last to 1208 + 4: duration 812, the 808
# added cycles its stall, its issue 400 + 808 = 1208.  The replay's own ISSUE makes no
# record.  The records after it keep their times (0x1318, the ISSUE M at 1200: an IMMED
# from the global_load's end as it was then, 404, a stall of 796, issued at 1200); the rows are
# at issue times that never go back (w.last), so 0x1318 to the barrier's message are at
# 1208 with a delta of 0, and stall-attr gives the 808 cycles to the global_load.
test_expect_success 'a replay lengthens the last record of its op, far back, and moves its issue' '
	gfx9_capture replay9 rcap &&
	sqtt-dump rcap > r.packets &&
	grep -v "^#" r.packets | cut -f4,5,10 | grep replay > actual &&
	printf "1212\tINST\tflat_rd_replay\n" > expect && test_cmp expect actual &&
	gfx9_records rcap 6- &&
	cat > expect <<-\EOF &&
	pc	issue	stall	duration	category
	0x1300	196	0	4	SMEM
	0x1308	200	0	4	VALU
	0x130c	400	196	196	IMMED
	0x1310	1208	808	812	FLAT
	0x1318	1200	796	796	IMMED
	0x131c	1200	0	4	VALU
	0x1324	1204	0	4	VALU
	0x1328	1208	0	8	MESSAGE
	0x1328	1500	284	284	IMMED
	0x132c	1700	200	200	IMMED
	0x1330	1708	0	4	FLAT
	0x1338	1712	0	12	MESSAGE
	EOF
	test_cmp expect actual
'

test_expect_success 'a replay: the rows, and the costs conserved' '
	sqtt-walk r.packets > r.rows 2> err && test_cmp /dev/null err &&
	stall-attr r.rows > r.costs 2> err && test_cmp /dev/null err &&
	grep -v "^#" r.costs | cut -f6-9,11,13,14 > actual &&
	cat > expect <<-\EOF &&
	0x1300	196	100	INST:smem	smem	100	wave_start
	0x1308	200	4	INST:valu	valu	4	issue_cycle
	0x130c	400	200	INST:immed	waitcnt	200	smem
	0x1310	1208	808	INST:flat	global_load	808	vmem_issue
	0x1318	1208	0	INST:immed	waitcnt	0	mem
	0x131c	1208	0	INST:valu	valu	0	issue_cycle
	0x1324	1208	0	INST:valu	valu	0	issue_cycle
	0x1328	1208	0	INST:message	barrier	0	barrier
	0x1328	1500	292	INST:immed	barrier	292	barrier
	0x132c	1700	200	INST:immed	imm	200	sleep
	0x1330	1708	8	INST:flat	global_store	8	vmem_issue
	0x1338	1712	4	INST:message	endpgm	4	issue_cycle
	0x1338	1996	284	WAVE_END	endpgm	284	drain
	EOF
	test_cmp expect actual &&
	cost_sum r.costs > sum &&
	echo 1900 > expect && test_cmp expect sum &&
	stall --rows rcap > r.srows 2> err && test_cmp /dev/null err && test_cmp r.costs r.srows
'

# replaylag9 is replay9 with the replay's INST late (1220), after the ISSUE of the
# barrier's message (1216, clock 1212): each INST is the next issued instruction's, in
# order, so the replay's INST is the replay's (its ISSUE at 1212 made no record) and the
# message's INST (1220) the message's record.  The global_load's record now lasts to
# 1216 + 4: duration 820, stall 816, issue 1216; the message is what it was in replay9
# (from the v_add's end, 1208, to 4 cycles after its ISSUE: 8 cycles).  Before this walk
# renumbered the issued records after a replay's (slotwalk.c drop_record), the message's
# INST was dropped, its record left open, and the 5 records from it on got no pc.
test_expect_success 'a replay whose INST comes after a later ISSUE: the INST after it is its own' '
	gfx9_capture replaylag9 lagcap &&
	gfx9_records lagcap 6- &&
	cat > expect <<-\EOF &&
	pc	issue	stall	duration	category
	0x1300	196	0	4	SMEM
	0x1308	200	0	4	VALU
	0x130c	400	196	196	IMMED
	0x1310	1216	816	820	FLAT
	0x1318	1200	796	796	IMMED
	0x131c	1200	0	4	VALU
	0x1324	1204	0	4	VALU
	0x1328	1208	0	8	MESSAGE
	0x1328	1500	284	284	IMMED
	0x132c	1700	200	200	IMMED
	0x1330	1708	0	4	FLAT
	0x1338	1712	0	12	MESSAGE
	EOF
	test_cmp expect actual &&
	gfx9_rows replaylag9 && test_cmp /dev/null err &&
	cat > expect <<-\EOF &&
	0x1300	196	100	INST:smem
	0x1308	200	4	INST:valu
	0x130c	400	200	INST:immed
	0x1310	1216	816	INST:flat
	0x1318	1216	0	INST:immed
	0x131c	1216	0	INST:valu
	0x1324	1216	0	INST:valu
	0x1328	1216	0	INST:message
	0x1328	1500	284	INST:immed
	0x132c	1700	200	INST:immed
	0x1330	1708	8	INST:flat
	0x1338	1712	4	INST:message
	0x1338	1996	284	WAVE_END
	EOF
	test_cmp expect actual
'

# stitchload9: smem (0x1300), valu (0x1308), the waitcnt's IMMED (0x130c), then a VALU at
# the scratch_load (0x1310): it fits neither it nor, swapped with the next record (a VALU,
# not a VMEM), the line after; a scratch load does not stop the stitching, the line is
# stepped over and the VALU is the v_add at 0x1318.  The next VALU is at the global_load
# (0x131c), the record after it an IMMED, not a VMEM: a load other than scratch's stops
# the stitching there.  The 6 records from it on (VALU, IMMED, VALU, VALU, FLAT, MESSAGE)
# get no pc (0x0), no row, and the WAVE_END (1000, clock 996) is at the last row's pc.
test_expect_success 'the stitching steps over a scratch load and stops at a global load' '
	gfx9_capture stitchload9 lcap &&
	gfx9_records lcap 4- &&
	cat > expect <<-\EOF &&
	begin	end	pc	issue	stall	duration	category
	96	996	0x1300	196	0	4	SMEM
	96	996	0x1308	200	0	4	VALU
	96	996	0x130c	400	196	196	IMMED
	96	996	0x1318	400	0	4	VALU
	96	996	0x0	404	0	4	VALU
	96	996	0x0	800	392	392	IMMED
	96	996	0x0	800	0	4	VALU
	96	996	0x0	804	0	4	VALU
	96	996	0x0	808	0	4	FLAT
	96	996	0x0	812	0	12	MESSAGE
	EOF
	test_cmp expect actual &&
	gfx9_rows stitchload9 &&
	printf "%s\t%s\t%s\t%s\n" 0x1300 196 100 INST:smem 0x1308 200 4 INST:valu \
	    0x130c 400 200 INST:immed 0x1318 400 0 INST:valu 0x1318 996 596 WAVE_END > expect &&
	test_cmp expect actual &&
	cat > expect <<-\EOF &&
	sqtt-walk: warning: event 0 wave 0 (slot 0): WAVE_END at pc 0x1318 (v_add_f32_e32 v4, v0, v0), not an s_endpgm
	sqtt-walk: warning: event 0 wave 0 (slot 0): 6 of 10 records fit no instruction of the code from the wave'\''s entry on
	sqtt-walk: 2 warnings
	EOF
	test_cmp expect err
'

# stitchwait9: smem (0x1300), valu (0x1308), then a VALU at the s_waitcnt (0x130c), the
# record after it a FLAT (not an IMMED): a wait stops the stitching; the VALU and the FLAT
# get no pc, no row.  (Were waits stepped over, the VALU would step over the scratch load
# too and be the v_add at 0x1318, the FLAT the global_load.)
test_expect_success 'the stitching stops at a wait' '
	gfx9_capture stitchwait9 wcap &&
	gfx9_records wcap 4- &&
	cat > expect <<-\EOF &&
	begin	end	pc	issue	stall	duration	category
	96	396	0x1300	196	0	4	SMEM
	96	396	0x1308	200	0	4	VALU
	96	396	0x0	204	0	4	VALU
	96	396	0x0	208	0	4	FLAT
	EOF
	test_cmp expect actual &&
	gfx9_rows stitchwait9 &&
	printf "%s\t%s\t%s\t%s\n" 0x1300 196 100 INST:smem 0x1308 200 4 INST:valu \
	    0x1308 396 196 WAVE_END > expect &&
	test_cmp expect actual &&
	cat > expect <<-\EOF &&
	sqtt-walk: warning: event 0 wave 0 (slot 0): WAVE_END at pc 0x1308 (v_lshlrev_b32_e32 v1, 2, v0), not an s_endpgm
	sqtt-walk: warning: event 0 wave 0 (slot 0): 2 of 4 records fit no instruction of the code from the wave'\''s entry on
	sqtt-walk: 2 warnings
	EOF
	test_cmp expect err
'

test_expect_success CLANG 'stitch9.hsaco is what stitch9.s assembles to for gfx950' '
	clang-22 -target amdgcn-amd-amdhsa -mcpu=gfx950 -nogpulib -c -o stitch9.o "$K/stitch9.s" 2> /dev/null &&
	ld.lld-22 -shared -o stitch9.hsaco stitch9.o &&
	cmp stitch9.hsaco "$K/stitch9.hsaco"
'

test_done
