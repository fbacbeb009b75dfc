#!/bin/sh
# sqtt-capture runs rocprofv3 --att with the options that matter on a 7900 XTX, says the
# command, then runs stall on the run: here against a stand-in rocprofv3 on PATH that
# records its arguments and writes a run (under HOST/PID, as rocprofv3 does).
. "$(dirname "$0")/lib.sh"

T="$TOP/fixtures/traces"

test_expect_success 'a run to hand out, and the stand-in rocprofv3' '
	{
		printf "##code\tdemo\t1\t0x7f3a2c000000\t0\t%s\n" "$TOP/fixtures/kernels/demo.hsaco"
		printf "##code\tbranchy\t2\t0x7f3a2c100000\t0\t%s\n" "$TOP/fixtures/kernels/branchy.hsaco"
		printf "##event\t0\t0\tdemo\t1\t1\t0\t0\t0\t-\t1\n"
		printf "##event\t1\t0\tbranchy\t2\t1\t0\t0\t0\t-\t2\n"
		printf "#event\tse\tnib\ttime\ttype\twave\tsimd\twgp\tsa\top\traw\n"
		grep -v "^#" "$T/demo.packets.tsv" | awk -F"\t" "\$1 == 0"
		grep -v "^#" "$T/branchy.packets.tsv" | awk -F"\t" -v OFS="\t" "{ \$1 = 1; print }"
	} > run.tsv &&
	sqtt-encode -d run --no-index run.tsv &&
	mkdir fake &&
	cat > fake/rocprofv3 <<-EOF &&
	#!/bin/sh
	for a in "\$@"; do printf "%s\n" "\$a"; done > "$(pwd -P)/args"
	while [ \$# -gt 0 ]; do
		[ "\$1" = -d ] && { mkdir -p "\$2/host/4242" && cp "$(pwd -P)"/run/* "\$2/host/4242/"; }
		[ "\$1" = -- ] && break
		shift
	done
	exit \${FAKE_RC:-0}
	EOF
	chmod +x fake/rocprofv3
'

test_expect_success 'the rocprofv3 command, said and run, then stall on the run' '
	PATH="$(pwd -P)/fake:$PATH" sqtt-capture -o out -k "^demo$" --range "[1-2]" --wgp 2 \
		--se-mask 0x3f --simd 1 --buffer 0x6000000 --serialize -- ./app "a b" > table 2> err &&
	cat > expect.args <<-EOF &&
	--att
	--kernel-trace
	-f
	json
	-d
	out
	--att-target-cu
	2
	--att-shader-engine-mask
	0x3f
	--att-simd-select
	1
	--att-buffer-size
	0x6000000
	--att-serialize-all
	--kernel-include-regex
	^demo$
	--kernel-iteration-range
	[1-2]
	--
	./app
	a b
	EOF
	test_cmp expect.args args &&
	cat > expect.err <<-EOF &&
	sqtt-capture: rocprofv3 --att --kernel-trace -f json -d out --att-target-cu 2 --att-shader-engine-mask 0x3f --att-simd-select 1 --att-buffer-size 0x6000000 --att-serialize-all --kernel-include-regex '"'"'^demo\$'"'"' --kernel-iteration-range '"'"'[1-2]'"'"' -- ./app '"'"'a b'"'"'
	sqtt-capture: stall out
	EOF
	test_cmp expect.err err &&
	stall run >stage67.0.out && <stage67.0.out grep -v "^##" > expect &&
	grep -v "^##" table > actual &&
	test_cmp expect actual &&
	grep "^##code" table | cut -f 6 > actual &&
	printf "%s/out/host/4242/stall_code_object_id_%d.out\n" "$(pwd -P)" 0 "$(pwd -P)" 1 > expect &&
	test_cmp expect actual &&
	grep -q "^demo	TOTAL" table && grep -q "^branchy	TOTAL" table
'

test_expect_success '--dry-run says the command and runs nothing' '
	PATH="$(pwd -P)/fake:$PATH" sqtt-capture --dry-run -o dry ./app > out.n 2> err.n &&
	! test -e dry && ! test -s out.n &&
	echo "sqtt-capture: rocprofv3 --att --kernel-trace -f json -d dry -- ./app" > expect &&
	test_cmp expect err.n
'

test_expect_success 'bad options, a used directory, a failing rocprofv3: one line, exit 2' '
	test_expect_code 2 sqtt-capture --se-mask 0x40 ./app 2> err &&
	echo "sqtt-capture: --se-mask: a 7900 XTX has 6 shader engines (0x1..0x3f): 0x40" > expect &&
	test_cmp expect err &&
	test_expect_code 2 sqtt-capture --simd 4 ./app 2> err &&
	echo "sqtt-capture: --simd: not a SIMD 0..3: 4" > expect &&
	test_cmp expect err &&
	test_expect_code 2 sqtt-capture --buffer 12k ./app 2> err &&
	echo "sqtt-capture: --buffer: not a number: 12k" > expect &&
	test_cmp expect err &&
	test_expect_code 2 sqtt-capture --range 3 ./app 2> err &&
	echo "sqtt-capture: --range: not an iteration range like [2] or [1-3]: 3" > expect &&
	test_cmp expect err &&
	test_expect_code 2 sqtt-capture -o out ./app 2> err &&
	echo "sqtt-capture: out: not empty: a second run there would mix with the first" > expect &&
	test_cmp expect err &&
	FAKE_RC=3 PATH="$(pwd -P)/fake:$PATH" test_expect_code 2 sqtt-capture -o out3 ./app 2> err &&
	tail -1 err > last &&
	echo "sqtt-capture: rocprofv3 exited 3; the run, if any, is in out3" > expect &&
	test_cmp expect last &&
	ROCPROFV3=/nonexistent/rocprofv3 test_expect_code 2 sqtt-capture -o out4 ./app 2> err &&
	tail -1 err > last &&
	echo "sqtt-capture: /nonexistent/rocprofv3: not found (ROCPROFV3 names another)" > expect &&
	test_cmp expect last
'

test_expect_success '--help and --version to a full device: one line, exit 2' '
	test_expect_code 2 sqtt-capture --help > /dev/full 2> err &&
	echo "sqtt-capture: stdout: write error" > expect &&
	test_cmp expect err &&
	test_expect_code 2 sqtt-capture --version > /dev/full 2> err &&
	test_cmp expect err &&
	sqtt-capture --version > version.out &&
	test "$(cat version.out)" = "sqtt-capture (stall) 0.1"
'

test_expect_success 'the command said is the command run: backslashes, quotes, newlines kept' '
	q=$(printf "\047") && nl=$(printf "two\nlines") &&
	PATH="$(pwd -P)/fake:$PATH" sqtt-capture -o outq -k "a\\b\\nc" -- ./app "x\\ty" \
		"c\\\\d" "it${q}s" "$nl" > table 2> err &&
	sed -n "/^sqtt-capture: rocprofv3 /,/^sqtt-capture: stall /p" err | sed "\$d" |
	    sed "1s/^sqtt-capture: //" > said &&
	eval "set -- $(cat said)" && shift &&
	for a in "$@"; do printf "%s\n" "$a"; done > said.args &&
	test_cmp args said.args &&
	test "$(grep -c "^a.b.nc\$" args)" = 1 &&
	test "$(grep -F -c "c\\\\d" args)" = 1 &&
	test "$(grep -F -c "x\\ty" args)" = 1
'

test_done
