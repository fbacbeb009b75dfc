#!/bin/sh
# stall takes what sqtt-dump takes, with its option names: a rocprofv3 run (--dispatch,
# --base ID=ADDR), a raw stream (--raw --se --code --base --name); --by-dispatch as
# stall-table has it; the cost view is --deltas, so --raw means raw input everywhere.
. "$(dirname "$0")/lib.sh"

T="$TOP/fixtures/traces"

pipeline() {	# pipeline DUMP-OPTS TABLE-OPTS
	sqtt-dump $1 > p.packets &&
	sqtt-walk p.packets > p.rows 2> /dev/null &&
	stall-attr p.rows > p.attr &&
	stall-table $2 p.attr
}

# demo twice in a row (dispatches 5 and 6), then branchy (7)
test_expect_success 'a run of 3 dispatches of 2 kernels' '
	{
		printf "##code\tdemo\t1\t0x7f3a2c000000\t0\t%s\n" "$TOP/fixtures/kernels/demo.hsaco"
		printf "##code\tbranchy\t2\t0x7f3a2c100000\t0\t%s\n" "$TOP/fixtures/kernels/branchy.hsaco"
		printf "##event\t0\t0\tdemo\t1\t1\t0\t0\t0\t-\t5\n"
		printf "##event\t1\t0\tdemo\t1\t1\t0\t0\t0\t-\t6\n"
		printf "##event\t2\t0\tbranchy\t2\t1\t0\t0\t0\t-\t7\n"
		printf "#event\tse\tnib\ttime\ttype\twave\tsimd\twgp\tsa\top\traw\n"
		grep -v "^#" "$T/demo.packets.tsv" | awk -F"\t" "\$1 == 0"
		grep -v "^#" "$T/demo.packets.tsv" | awk -F"\t" -v OFS="\t" "\$1 == 0 { \$1 = 1; print }"
		grep -v "^#" "$T/branchy.packets.tsv" | awk -F"\t" -v OFS="\t" "{ \$1 = 2; print }"
	} > run.tsv &&
	sqtt-encode -d run --no-index run.tsv
'

test_expect_success 'stall RUNDIR, --dispatch and --by-dispatch: what the pipeline makes of it' '
	pipeline run "--top 10 --tsv" > expect &&
	stall --tsv run > actual &&
	test_cmp expect actual &&
	pipeline "--dispatch 7 run" "--top 10 --tsv" > expect &&
	stall --tsv --dispatch 7 run > actual &&
	test_cmp expect actual &&
	test "$(grep -c "^##event" actual)" -eq 1 &&
	pipeline run "--by-dispatch" > expect &&
	stall --by-dispatch run > actual &&
	test_cmp expect actual &&
	grep -v "^#" actual | cut -f 1,2 > ids &&
	printf "5\tdemo\n6\tdemo\n7\tbranchy\n" > expect &&
	test_cmp expect ids &&
	stall --by-dispatch --pretty run > pretty &&
	test "$(wc -l < pretty)" -eq 4 &&
	test_expect_code 2 stall --dispatch 9 run > out 2> err.abs &&
	sed "s|$(pwd -P)/||" err.abs > err &&
	echo "stall: run: no trace buffer matches --dispatch 9 (3 in all)" > expect &&
	test_cmp expect err
'

test_expect_success 'stall --base ID=ADDR of a code object the run lacks: one line, exit 2' '
	cp -r run nojson && rm nojson/stall_results.json &&
	test_expect_code 2 stall --base 5=0x1000 nojson > out 2> err.abs &&
	sed "s|$(pwd -P)/||" err.abs > err &&
	echo "stall: nojson: --base 5=0x1000: no code object 5 in the run" > expect &&
	test_cmp expect err
'

G=$FIXTURES/20260120_profile_gemm_run_0_e540cad.pkl
test_expect_success SHARED 'stall --base ID=ADDR: a real run without its JSON, as the pickle' '
	sqtt-dump "$G" > g.tsv &&
	sqtt-encode -d gemm --no-index g.tsv &&
	rm gemm/stall_results.json &&
	stall --tsv --base 0=0x200001006000 --base 1=0x20000100c000 --base 2=0x200001014000 \
		gemm > actual 2> err &&
	! test -s err &&
	stall --tsv "$G" >stage71.0.out && <stage71.0.out grep -v "^##" > expect &&
	grep -v "^##" actual > a &&
	test_cmp expect a &&
	stall --by-dispatch "$G" >stage74.0.out && <stage74.0.out cut -f 1-4 > expect &&
	stall --by-dispatch --base 0=0x200001006000 --base 1=0x20000100c000 \
		--base 2=0x200001014000 gemm | cut -f 1-4 > actual &&
	test_cmp expect actual &&
	test "$(grep -vc "^#" actual)" -eq 3 &&
	stall --threads 1 --by-dispatch "$G" > one &&
	stall --threads 3 --by-dispatch "$G" > three &&
	test_cmp one three
'

test_expect_success 'stall --raw --code --base --name: a raw stream, as sqtt-dump reads it' '
	o="--raw --se 0 --code $TOP/fixtures/kernels/demo.hsaco --base 0x7f3a2c000000 --name demo" &&
	pipeline "$o $TOP/fixtures/demo/stall_shader_engine_0_0.att" "--top 10 --tsv" > expect &&
	stall --tsv $o "$TOP/fixtures/demo/stall_shader_engine_0_0.att" > actual &&
	test_cmp expect actual &&
	grep -q "^demo	TOTAL" actual
'

test_expect_success '--deltas is the cost view, -r is no longer an option of stall' '
	sqtt-dump "$TOP/fixtures/demo" >stage94.0.out && <stage94.0.out sqtt-walk 2> /dev/null >stage94.1.out && <stage94.1.out stall-attr --deltas >stage94.2.out && <stage94.2.out stall-table --tsv --top 10 > expect &&
	stall --tsv --deltas "$TOP/fixtures/demo" > actual &&
	test_cmp expect actual &&
	sqtt-dump "$TOP/fixtures/demo" >stage97.0.out && <stage97.0.out sqtt-walk 2> /dev/null >stage97.1.out && <stage97.1.out stall-attr --raw > old &&
	sqtt-dump "$TOP/fixtures/demo" >stage98.0.out && <stage98.0.out sqtt-walk 2> /dev/null >stage98.1.out && <stage98.1.out stall-attr --deltas > new &&
	test_cmp old new &&
	test_expect_code 2 stall -r "$TOP/fixtures/demo" > out 2> err &&
	grep -q "^usage: stall" err
'

test_done
