#!/bin/sh
# A rocprofv3 run with a part missing or wrong: one warning line for each stream left
# out (naming it and why), the rest of the run still decoded; nothing left is exit 2.
. "$(dirname "$0")/lib.sh"

T="$TOP/fixtures/traces"

# The own run: demo as dispatch 1, branchy as dispatch 2 (no COMPUTE_PGM writes: the
# results JSON says which kernel each dispatch ran).
mkrun() {
	{
		printf "##code\tdemo\t1\t0x7f3a2c000000\t0\t%s\n" "$TOP/fixtures/kernels/demo.hsaco"
		printf "##code\tbranchy\t2\t0x7f3a2c100000\t0\t%s\n" "$TOP/fixtures/kernels/branchy.hsaco"
		printf "##event\t0\t0\tdemo\t1\t1\t0\t0\t0\t-\t1\n"
		printf "##event\t1\t0\tbranchy\t2\t1\t0\t0\t0\t-\t2\n"
		printf "#event\tse\tnib\ttime\ttype\twave\tsimd\twgp\tsa\top\traw\n"
		grep -v "^#" "$T/demo.packets.tsv" | awk -F"\t" "\$1 == 0"
		grep -v "^#" "$T/branchy.packets.tsv" | awk -F"\t" -v OFS="\t" "{ \$1 = 1; print }"
	} > run.tsv &&
	rm -rf "$1" &&
	sqtt-encode -d "$1" --no-index run.tsv
}

strip() { sed "s|$(pwd -P)/||" "$1"; }

test_expect_success 'a missing code object: its dispatch left out with a warning, the rest decoded' '
	mkrun miss &&
	rm miss/stall_code_object_id_1.out &&
	sqtt-dump miss > out 2> err.abs &&
	strip err.abs > err &&
	echo "sqtt-dump: warning: miss/stall_shader_engine_0_2.att: no entry address in the stream, and kernel branchy of its dispatch is in code object 1, which has no .out file in the run; left out" > expect &&
	test_cmp expect err &&
	grep "^##event" out | cut -f 4,11 > actual &&
	printf "demo\t1\n" > expect &&
	test_cmp expect actual
'

test_expect_success 'a stream of no known program: left out with a warning' '
	mkrun foreign &&
	cp foreign/stall_shader_engine_0_1.att foreign/stall_shader_engine_3_9.att &&
	sqtt-dump foreign > out 2> err.abs &&
	strip err.abs > err &&
	echo "sqtt-dump: warning: foreign/stall_shader_engine_3_9.att: no entry address in the stream (COMPUTE_PGM) and no record of its dispatch in a results JSON; left out" > expect &&
	test_cmp expect err &&
	grep "^##event" out | cut -f 3,4,11 > actual &&
	printf "0\tdemo\t1\n0\tbranchy\t2\n" > expect &&
	test_cmp expect actual
'

test_expect_success 'a results JSON that is not JSON: said in one line; nothing left is exit 2' '
	mkrun bad &&
	printf "{\"code_objects\": [{\"code_object_id\": 0,\n" > bad/stall_results.json &&
	test_expect_code 2 sqtt-dump bad > out 2> err.abs &&
	strip err.abs > err &&
	cat > expect <<-EOF &&
	sqtt-dump: warning: bad/stall_results.json: not JSON (line 2: an object member without a name): no load bases, kernel names or dispatches from it
	sqtt-dump: warning: bad/stall_shader_engine_0_1.att: no entry address in the stream (COMPUTE_PGM) and no record of its dispatch in a results JSON; left out
	sqtt-dump: warning: bad/stall_shader_engine_0_2.att: no entry address in the stream (COMPUTE_PGM) and no record of its dispatch in a results JSON; left out
	sqtt-dump: bad: no stream'"'"'s program was found: nothing to decode
	EOF
	test_cmp expect err
'

test_expect_success 'a run of one code object without its JSON: named by its only kernel' '
	(cd "$TOP" && sqtt-encode -d "$T_DIR/one" --no-index fixtures/traces/demo.packets.tsv) &&
	rm one/stall_results.json &&
	sqtt-dump one > out 2> err &&
	! test -s err &&
	grep "^##code" out | cut -f 2,3,4 > actual &&
	printf "demo\t0\t0x0\n" > expect &&
	test_cmp expect actual &&
	test "$(grep -c "^##event	[01]	[01]	demo	0	" out)" -eq 2
'

test_expect_success 'the results of two processes in one directory: one line, exit 2' '
	mkrun two &&
	cp two/stall_results.json two/4343_results.json &&
	test_expect_code 2 sqtt-dump two > out 2> err.abs &&
	strip err.abs > err &&
	grep -q "^sqtt-dump: two: the results of two processes, .*results.json and .*results.json: give the files of one a directory of their own\$" err &&
	test "$(wc -l < err)" -eq 1
'

test_expect_success '--base of a code object the run does not have is an error' '
	test_expect_code 2 sqtt-dump --base 7=0x1000 bad > out 2> err.abs &&
	strip err.abs > err &&
	echo "sqtt-dump: bad: --base 7=0x1000: no code object 7 in the run" > expect &&
	test_cmp expect err &&
	test_expect_code 2 sqtt-dump --name k foreign > out 2> err.abs &&
	strip err.abs > err &&
	echo "sqtt-dump: foreign: --name names the kernel of a run of one code object; this one has more" > expect &&
	test_cmp expect err &&
	test_expect_code 2 sqtt-dump --base 7=zz bad > out 2> err &&
	echo "sqtt-dump: --base is not an address: zz" > expect &&
	test_cmp expect err
'

if test_have_prereq SHARED; then
G=$FIXTURES/20260120_profile_gemm_run_0_e540cad.pkl
P=$FIXTURES/20260314_profile_plus_run_0_b90bfc1.pkl

test_expect_success 'real streams: a missing code object leaves out its dispatch, by entry address' '
	sqtt-dump "$G" > g.tsv &&
	sqtt-encode -d gemm --no-index g.tsv &&
	rm gemm/stall_code_object_id_1.out &&
	sqtt-dump gemm > out 2> err.abs &&
	strip err.abs > err &&
	for se in 0 1 2 3 4 5; do
		echo "sqtt-dump: warning: gemm/stall_shader_engine_${se}_2.att: its entry 0x20000100d600 is in code object 1, which has no .out file in the run; left out" || return 1
	done > expect &&
	test_cmp expect err &&
	grep "^##event" out | cut -f 4,11 | uniq -c | sed "s/^ *//" > actual &&
	printf "6 E_32_32_4\t1\n6 r_2_8_16_4_4_16_4\t3\n" > expect &&
	test_cmp expect actual
'

test_expect_success 'real streams: a stream of another program is left out; a broken JSON and --base' '
	rm -rf gemm && sqtt-encode -d gemm --no-index g.tsv &&
	sqtt-dump -X pstreams "$P" > /dev/null &&
	cp pstreams/0.att gemm/stall_shader_engine_0_9.att &&
	sqtt-dump gemm > out 2> err.abs &&
	strip err.abs > err &&
	echo "sqtt-dump: warning: gemm/stall_shader_engine_0_9.att: its entry 0x200001009600 (COMPUTE_PGM) is in no code object of the run; left out" > expect &&
	test_cmp expect err &&
	test "$(grep -c "^##event" out)" -eq 18 &&
	echo "[" > gemm/stall_results.json &&
	sqtt-dump --base 0=0x200001006000 --base 1=0x20000100c000 --base 2=0x200001014000 gemm > out 2> err.abs &&
	strip err.abs > err &&
	cat > expect <<-EOF &&
	sqtt-dump: warning: gemm/stall_results.json: not JSON (line 2: the text ends where a value should be): no load bases, kernel names or dispatches from it
	sqtt-dump: warning: gemm/stall_shader_engine_0_9.att: its entry 0x200001009600 (COMPUTE_PGM) is in no code object of the run; left out
	EOF
	test_cmp expect err &&
	grep "^##event" out | cut -f 4,11 | uniq -c | sed "s/^ *//" > actual &&
	printf "6 E_32_32_4\t1\n6 E_8_8_16_4\t2\n6 r_2_8_16_4_4_16_4\t3\n" > expect &&
	test_cmp expect actual &&
	test_expect_code 2 sqtt-dump gemm > out 2> err &&
	test "$(grep -c "of a known load base (--base ID=ADDR gives one); left out" err)" -eq 19 &&
	tail -1 err | strip /dev/stdin > last &&
	echo "sqtt-dump: gemm: no stream'"'"'s program was found: nothing to decode" > expect &&
	test_cmp expect last
'
else
	test_skip SHARED 'real streams of the shared captures'
fi

test_done
