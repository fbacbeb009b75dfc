#!/bin/sh
# sqtt-dump RUNDIR: a rocprofv3 --att run of several code objects and dispatches, as
# sqtt-encode -d --no-index writes it, reads to the same rows as the capture it came from,
# every dispatch named and numbered; stall-table --by-dispatch has a line per dispatch.
. "$(dirname "$0")/lib.sh"

T="$TOP/fixtures/traces"

rows() {	# rows < PACKETS: the costed rows, each program writing to a file, without their
	# tag (column 18, the last): a program's tag is its capture's (the pickle's number, the run's
	# code object id), not the same in a run written from a stream
	cat > rows.in && sqtt-walk rows.in > rows.walk && stall-attr rows.walk > rows.attr &&
	test "$(grep "^#[^#]" rows.attr | cut -f18-)" = tag &&
	grep -v "^#" rows.attr | cut -f1-17
}

# A run of 3 dispatches (5, 6, 7) of 2 kernels: demo twice (two shader engines each),
# branchy once; the hand-made traces have no COMPUTE_PGM writes, so the results JSON
# says which kernel each dispatch ran.
mkrun() {
	{
		printf "##target\tgfx1100\n"
		printf "##code\tdemo\t1\t0x7f3a2c000000\t0\t%s\n" "$TOP/fixtures/kernels/demo.hsaco"
		printf "##code\tbranchy\t2\t0x7f3a2c100000\t0\t%s\n" "$TOP/fixtures/kernels/branchy.hsaco"
		printf "##event\t0\t0\tdemo\t1\t1\t0\t0\t0\t-\t5\n"
		printf "##event\t1\t1\tdemo\t1\t0\t0\t0\t0\t-\t5\n"
		printf "##event\t2\t0\tbranchy\t2\t1\t0\t0\t0\t-\t6\n"
		printf "##event\t3\t0\tdemo\t1\t1\t0\t0\t0\t-\t7\n"
		printf "##event\t4\t1\tdemo\t1\t0\t0\t0\t0\t-\t7\n"
		printf "#event\tse\tnib\ttime\ttype\twave\tsimd\twgp\tsa\top\traw\n"
		grep -v "^#" "$T/demo.packets.tsv"
		grep -v "^#" "$T/branchy.packets.tsv" | awk -F"\t" -v OFS="\t" "{ \$1 = 2; print }"
		grep -v "^#" "$T/demo.packets.tsv" | awk -F"\t" -v OFS="\t" "{ \$1 += 3; print }"
	} > run.tsv
}

test_expect_success 'sqtt-encode -d --no-index writes the rocprofv3 layout with its results JSON' '
	mkrun &&
	sqtt-encode -d run --no-index run.tsv &&
	(cd run && ls) > actual &&
	cat > expect <<-EOF &&
	stall_code_object_id_0.out
	stall_code_object_id_1.out
	stall_results.json
	stall_shader_engine_0_5.att
	stall_shader_engine_0_6.att
	stall_shader_engine_0_7.att
	stall_shader_engine_1_5.att
	stall_shader_engine_1_7.att
	EOF
	test_cmp expect actual &&
	if test_part PYTHON3 "the results JSON read by python"; then
	python3 -c "import json,sys; d = json.load(open(\"run/stall_results.json\"))[\"rocprofiler-sdk-tool\"][0]; print(len(d[\"code_objects\"]), len(d[\"kernel_symbols\"]), [r[\"dispatch_info\"][\"dispatch_id\"] for r in d[\"buffer_records\"][\"kernel_dispatch\"]])" > actual &&
	echo "2 2 [5, 6, 7]" > expect &&
	test_cmp expect actual
	fi
'

test_expect_success 'every dispatch an event with its dispatch id and kernel, in dispatch order' '
	sqtt-dump run > packets 2> err &&
	! test -s err &&
	grep "^##event" packets | cut -f 2,3,4,5,11 > actual &&
	printf "0\t0\tdemo\t0\t5\n1\t1\tdemo\t0\t5\n2\t0\tbranchy\t1\t6\n3\t0\tdemo\t0\t7\n4\t1\tdemo\t0\t7\n" > expect &&
	test_cmp expect actual &&
	grep "^##code" packets | cut -f 2,3,4 > actual &&
	printf "demo\t0\t0x7f3a2c000000\nbranchy\t1\t0x7f3a2c100000\n" > expect &&
	test_cmp expect actual
'

# 224 rows of the traced SIMDs and 7 untraced ones, a wave each on SIMD 1: demo's 3 twice
# (fixtures/traces/demo.packets.tsv), branchy's 1
test_expect_success 'the run walks to the rows of the packet stream it was written from' '
	rows < run.tsv > expect &&
	rows < packets > actual &&
	test_cmp expect actual &&
	test "$(wc -l < actual)" -eq 231 &&
	awk -F"\t" "\$4 >= 2147483648" actual | wc -l > n.other && echo 7 > expect &&
	test_cmp expect n.other
'

test_expect_success '--dispatch N and -k NAME select' '
	sqtt-dump --dispatch 7 run >stage70.0.out && <stage70.0.out grep "^##event" | cut -f 2,11 > actual &&
	printf "3\t7\n4\t7\n" > expect &&
	test_cmp expect actual &&
	sqtt-dump --dispatch 7 run >stage73.0.out && <stage73.0.out grep -v "^#" | cut -f 1 | sort -u > actual &&
	printf "3\n4\n" > expect &&
	test_cmp expect actual &&
	sqtt-dump -k branchy run >stage76.0.out && <stage76.0.out grep "^##event" | cut -f 2,4,11 > actual &&
	printf "2\tbranchy\t6\n" > expect &&
	test_cmp expect actual &&
	test_expect_code 2 sqtt-dump --dispatch 99 run > none 2> err &&
	echo "sqtt-dump: no trace buffer matches --dispatch 99 (5 in all)" > expect &&
	test_cmp expect err
'

test_expect_success 'stall-table --by-dispatch: 3 lines whose cycles are the per-dispatch tables' '
	sqtt-dump run > run.packets && sqtt-walk run.packets > run.rows &&
	stall-attr run.rows > rows.tsv &&
	stall-table --by-dispatch rows.tsv > by &&
	test "$(grep -vc "^#" by)" -eq 3 &&
	head -1 by > actual &&
	printf "#dispatch\tkernel\twaves\tcycles\twall\tcause\tcause_pct\tpc\tinst\n" > expect &&
	test_cmp expect actual &&
	grep -v "^#" by | cut -f 1,2 > actual &&
	printf "5\tdemo\n6\tbranchy\n7\tdemo\n" > expect &&
	test_cmp expect actual &&
	for d in 5 6 7; do
		stall-table --dispatch $d rows.tsv > t.$d &&
		total=$(awk -F"\t" "\$2 == \"TOTAL\" { print \$4 }" t.$d) &&
		test -n "$total" &&
		test "$(awk -F"\t" -v d=$d "\$1 == d { print \$4 }" by)" = "$total" || return 1
	done &&
	stall-table rows.tsv >stage99.0.out && <stage99.0.out awk -F"\t" "\$1 == \"demo\" && \$2 == \"TOTAL\" { print \$4 }" > demo.total &&
	test "$(cat demo.total)" -eq $(( $(awk -F"\t" "\$2 == \"TOTAL\" { print \$4 }" t.5) + $(awk -F"\t" "\$2 == \"TOTAL\" { print \$4 }" t.7) ))
'

test_expect_success 'stall-table --dispatch of no rows is an error' '
	test_expect_code 2 stall-table --dispatch 8 rows.tsv > out 2> err &&
	echo "stall-table: rows.tsv: no rows of dispatch 8" > expect &&
	test_cmp expect err
'

test_expect_success 'an ##event line whose dispatch is not a number: one line, exit 2' '
	sed "s/^\(##event	0	.*	\)5\$/\1x5/" rows.tsv > bad.tsv &&
	test "$(grep -c "	x5\$" bad.tsv)" -eq 1 &&
	test_expect_code 2 stall-table --by-dispatch bad.tsv > out 2> err &&
	line=$(grep -n -m1 -v "^#" bad.tsv | cut -d: -f1) &&
	echo "stall-table: bad.tsv:$line: an ##event line above: its event or dispatch is not a number" > expect &&
	test_cmp expect err
'

if test_have_prereq SHARED; then
for f in "$FIXTURES"/*.pkl; do
	b=$(basename "$f" .pkl)
	test_expect_success "$b as a rocprofv3 run: the same rows per dispatch, the kernels named" "
		sqtt-dump '$f' > p.$b &&
		sqtt-encode -d r.$b --no-index p.$b &&
		sqtt-dump r.$b > d.$b 2> err.$b &&
		grep '^##event' p.$b | cut -f 2,3,4,11 > expect &&
		grep '^##event' d.$b | cut -f 2,3,4,11 > actual &&
		test_cmp expect actual &&
		rows < p.$b > expect &&
		rows < d.$b > actual &&
		test_cmp expect actual &&
		rm r.$b/stall_results.json &&
		bases=\$(grep '^##code' d.$b | awk -F'\t' '{ printf \" --base %s=%s\", \$3, \$4 }') &&
		sqtt-dump \$bases r.$b > n.$b 2> err.$b &&
		if grep -q 'no symbol table\\|not an ELF64' err.$b; then f=2,3,11; else f=2,3,4,11; fi &&
		grep '^##event' n.$b | cut -f \$f > actual.n &&
		grep '^##event' d.$b | cut -f \$f > expect.n &&
		test_cmp expect.n actual.n
	"
done
else
	test_skip SHARED 'the shared captures as rocprofv3 runs'
fi

test_done
