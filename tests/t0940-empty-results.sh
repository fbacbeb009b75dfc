#!/bin/sh
# A result that matched nothing is an error (exit 2, one line saying what matched nothing),
# never an empty table with exit 0; a stream that mostly does not fit its code object is
# refused ("wrong code object?"); the walker's warnings are capped per kind, with a count.
. "$(dirname "$0")/lib.sh"

DEMO="$TOP/fixtures/demo"
# the demo's packet stream, its code object named by an absolute path
sed "s|	fixtures/kernels/|	$TOP/fixtures/kernels/|" "$TOP/fixtures/traces/demo.packets.tsv" \
	> "$T_DIR/demo.tsv"
sed "s|kernels/demo.hsaco|kernels/branchy.hsaco|" "$T_DIR/demo.tsv" > "$T_DIR/wrong.tsv"

# fails CODE PROG MESSAGE CMD...: exit CODE, and MESSAGE the one line on stderr
fails() {
	code=$1 prog=$2 msg=$3; shift 3
	test_expect_code "$code" "$@" > out 2> err &&
	printf '%s\n' "$prog: $msg" > expect &&
	test_cmp expect err
}

test_expect_success 'sqtt-dump -e 99: no such trace buffer, and nothing on standard output' '
	fails 2 sqtt-dump "no trace buffer matches -e 99 (2 in all, numbered from 0)" \
		sqtt-dump -e 99 "$DEMO" &&
	test_cmp /dev/null out &&
	fails 2 sqtt-dump "no trace buffer matches --dispatch 99 (2 in all)" \
		sqtt-dump --dispatch 99 "$DEMO" &&
	test_cmp /dev/null out
'

test_expect_success 'sqtt-dump -k nosuch: no trace buffer of that kernel' '
	fails 2 sqtt-dump "no trace buffer matches -k nosuch (2 in all)" \
		sqtt-dump -k nosuch "$DEMO" &&
	fails 2 sqtt-dump "no trace buffer matches -e 1 -k nosuch (2 in all, numbered from 0)" \
		sqtt-dump -e 1 -k nosuch "$DEMO"
'

test_expect_success 'sqtt-dump -e 1 and -k demo still select' '
	sqtt-dump -e 1 -k demo "$DEMO" > one 2> err &&
	test_cmp /dev/null err &&
	grep -v "^#" one | cut -f1 | sort -u > actual &&
	echo 1 > expect &&
	test_cmp expect actual
'

test_expect_success 'stall -k nosuch, stall on a stream with no code object: exit 2, one line' '
	fails 2 stall "$DEMO: no trace buffer matches -k nosuch (2 in all)" stall -k nosuch "$DEMO" &&
	test_cmp /dev/null out &&
	sqtt-encode -d wrongcap wrong.tsv &&
	fails 2 stall "wrongcap: event 0 (kernel demo): 69 of 84 instruction tokens do not fit the code object $T_DIR/wrongcap/stall_code_object_id_0.out: wrong code object?" \
		stall wrongcap
'

test_expect_success 'stall-table -k: one kernel, or an error when none is of that name' '
	sqtt-walk demo.tsv > rows &&
	stall-attr rows > cause &&
	cp cause two &&
	grep -v "^#" cause | sed "s/	demo	/	other	/" >> two &&
	stall-table -k other two > t.other &&
	grep -v "^#" t.other | cut -f1 | sort -u > actual &&
	echo other > expect &&
	test_cmp expect actual &&
	grep -c "^##stall-table	kernel	" t.other > n &&
	echo 1 > expect.n &&
	test_cmp expect.n n &&
	fails 2 stall-table "-k nosuch: no kernel of that name in two (2 kernels)" \
		stall-table -k nosuch two
'

test_expect_success 'stall-table on a row stream of no row: an error' '
	grep "^#" cause > header-only &&
	fails 2 stall-table "header-only: no rows: nothing to count" stall-table header-only
'

test_expect_success 'a packet stream with no ##code line: an error, not an empty row stream' '
	grep -v "^##code" demo.tsv > nocode.tsv &&
	fails 2 sqtt-walk "nocode.tsv: no trace buffer has a code object (2 buffers, 0 ##code lines): no row" \
		sqtt-walk nocode.tsv &&
	test "$(grep -vc "^#" out)" -eq 0
'

test_expect_success 'a buffer whose kernel has no code object: a warning, the others walked' '
	sed "s/^##event	1	1	demo	/##event	1	1	lost	/" demo.tsv > lost.tsv &&
	sqtt-walk lost.tsv > rows.lost 2> err &&
	echo "sqtt-walk: warning: event 1: no ##code line names its kernel lost: its tokens are not walked (2)" > expect &&
	echo "sqtt-walk: 1 warning" >> expect &&
	test_cmp expect err &&
	grep -v "^#" rows > all &&
	awk -F"\t" "\$1 == 0" all > expect.rows &&
	grep -v "^#" rows.lost > actual.rows &&
	test_cmp expect.rows actual.rows
'

test_expect_success 'the wrong code object: one line, "wrong code object?", exit 2' '
	fails 2 sqtt-walk "wrong.tsv: event 0 (kernel demo): 69 of 84 instruction tokens do not fit the code object $TOP/fixtures/kernels/branchy.hsaco: wrong code object?" \
		sqtt-walk wrong.tsv
'

test_expect_success 'fifteen misfit tokens: ten warnings said, the rest counted, the rows intact' '
	awk "BEGIN { OFS = \"\t\" } { print } \$4 == 601 && \$5 == \"INST\" && \$6 == 0 {
		for (i = 0; i < 15; i++) print 0, 0, \"-\", 601, \"INST\", 0, \"-\", \"-\", \"-\", \"message\", \"-\" }" \
		demo.tsv > noisy.tsv &&
	sqtt-walk noisy.tsv > rows.noisy 2> err &&
	grep -c "INST:message at time 601 does not fit pc 0x1310 (v_lshlrev_b32_e32 v0, 2, v0); token dropped$" err > n &&
	echo 10 > expect.n &&
	test_cmp expect.n n &&
	tail -n 2 err > actual &&
	printf "%s\n" "sqtt-walk: warning: 5 more of the kind '"'"'token that does not fit'"'"' not shown" \
		"sqtt-walk: 15 warnings" > expect &&
	test_cmp expect actual &&
	test_cmp rows rows.noisy
'

test_expect_success 'a capture whose buffers match no program: stall and sqtt-walk say so, exit 2' '
	cp -r "$DEMO" nocap &&
	grep -v "^##code" "$DEMO/capture.tsv" > nocap/capture.tsv &&
	fails 2 stall "nocap: no trace buffer has a code object (2 buffers, 0 ##code lines): no row" \
		stall nocap &&
	sqtt-dump nocap > nocap.packets &&
	fails 2 sqtt-walk "nocap.packets: no trace buffer has a code object (2 buffers, 0 ##code lines): no row" \
		sqtt-walk nocap.packets
'

test_expect_success 'stall-attr: fifteen waves with no WAVE_END row, ten said, five counted' '
	{ printf "#event\tse\tkernel\twave\tslot\tpc\ttime\tdelta\ttoken\tinst\tclass\tdep\n" &&
	  awk "BEGIN { for (i = 0; i < 15; i++) printf \"0\t0\tk\t%d\t%d\t0x100\t%d\t10\tVALU_INST\tv_mov_b32_e32 v0, 0\tvalu\t-\n\", i, i, 100 + i }"; } > noend.tsv &&
	stall-attr noend.tsv > costed 2> err &&
	test "$(grep -c "has no WAVE_END row$" err)" -eq 10 &&
	tail -n 1 err > actual &&
	echo "stall-attr: warning: noend.tsv:16: 5 more of the kind '"'"'wave with no WAVE_END row'"'"' not shown" > expect &&
	test_cmp expect actual &&
	test "$(grep -vc "^#" costed)" -eq 15
'

test_expect_success 'stall: a reader that goes away is no failure (exit 0, nothing said)' '
	{ stall -a --tsv "$DEMO" 2> err.pipe; echo $? > rc; } | { exec <&-; sleep 1; } &&
	echo 0 > expect.rc &&
	test_cmp expect.rc rc &&
	test_cmp /dev/null err.pipe
'

test_expect_success 'a raw stream on standard input or from a FIFO: decoded as from its file' '
	att="$DEMO/stall_shader_engine_0_0.att" &&
	sqtt-dump --raw "$att" > from-file &&
	sqtt-dump --raw - < "$att" > from-stdin &&
	grep -v "^##" from-file > expect &&
	grep -v "^##" from-stdin > actual &&
	test_cmp expect actual &&
	mkfifo fifo &&
	{ cat "$att" > fifo & } &&
	timeout 10 sqtt-dump --raw fifo > from-fifo &&
	grep -v "^##" from-fifo > actual &&
	test_cmp expect actual &&
	test_expect_code 2 sqtt-dump --raw - < /dev/null > out 2> err &&
	test_one_line_error sqtt-dump err
'

test_expect_success SHARED 'a pickle on standard input: stall - and stall FILE agree' '
	pkl="$FIXTURES/20260314_profile_plus_run_0_b90bfc1.pkl" &&
	stall -a --tsv "$pkl" > from-file &&
	stall -a --tsv - < "$pkl" > from-stdin &&
	grep -v "^##source" from-file > expect &&
	grep -v "^##source" from-stdin > actual &&
	test_cmp expect actual
'

test_expect_success 'sqtt-dump --types of a type no buffer has, stall-attr of no row: exit 2' '
	fails 2 sqtt-dump "--types: no token of those types in the 2 trace buffers selected" \
		sqtt-dump --types WAVE_READY "$DEMO" &&
	printf "#event\tse\tkernel\twave\tslot\tpc\ttime\tdelta\ttoken\tinst\tclass\tdep\n" > norow.tsv &&
	fails 2 stall-attr "norow.tsv: no rows: nothing to cost" stall-attr norow.tsv
'

test_done
