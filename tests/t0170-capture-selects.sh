#!/bin/sh
# t0170-capture-selects: what -e, -k and --dispatch select, by the man page's words
# (sqtt-dump(1)): buffers numbered from 0 across all captures given, a kernel by its
# whole name, and a tinygrad capture's dispatches counted where the shader engine does
# not increase (issue 24's survivors: -e numbered per capture, -k a prefix, a repeated
# shader engine not a new dispatch).
. "$(dirname "$0")/lib.sh"

D1="$TOP/fixtures/demo"
D2="$TOP/fixtures/demo-v2"

test_expect_success '-e N counts the buffers of every capture given, in order' '
	for e in 0 1 2 3; do
		sqtt-dump -e $e "$D1" "$D2" > out 2> err &&
		test_cmp /dev/null err &&
		grep "^##event" out | cut -f 2,10 > actual.$e || return 1
	done &&
	printf "0\t%s\n" "$D1/stall_shader_engine_0_0.att" > expect.0 &&
	printf "1\t%s\n" "$D1/stall_shader_engine_1_1.att" > expect.1 &&
	printf "2\t%s\n" "$D2/stall_shader_engine_0_0.att" > expect.2 &&
	printf "3\t%s\n" "$D2/stall_shader_engine_1_1.att" > expect.3 &&
	test_cmp expect.0 actual.0 && test_cmp expect.1 actual.1 &&
	test_cmp expect.2 actual.2 && test_cmp expect.3 actual.3 &&
	test_expect_code 2 sqtt-dump -e 4 "$D1" "$D2" > out 2> err &&
	echo "sqtt-dump: no trace buffer matches -e 4 (4 in all, numbered from 0)" > expect &&
	test_cmp expect err
'

test_expect_success '-k NAME is the whole name: a prefix of it selects nothing' '
	sqtt-dump -k demo "$D1" > out &&
	test "$(grep -c "^##event" out)" -eq 2 &&
	for k in dem d demo2; do
		test_expect_code 2 sqtt-dump -k $k "$D1" > out 2> err &&
		echo "sqtt-dump: no trace buffer matches -k $k (2 in all)" > expect &&
		test_cmp expect err || return 1
	done
'

# capture SE... FILE: a tinygrad capture of one program, a buffer per SE given, in order
capture() {
	python3 - "$TOP/fixtures/kernels/demo.hsaco" "$TOP/fixtures/demo/stall_shader_engine_0_0.att" "$@" <<-\PY
	import pickle, sys
	class ProfileProgramEvent: pass
	class ProfileSQTTEvent: pass
	class ProfileDeviceEvent: pass
	def obj(cls, **kw):
	    o = cls(); o.__dict__.update(kw); return o
	code = open(sys.argv[1], "rb").read(); blob = open(sys.argv[2], "rb").read()
	ev = [obj(ProfileDeviceEvent, device="AMD", props={"gfx_target_version": 110000}),
	      obj(ProfileProgramEvent, device="AMD", name="k", lib=code, base=0x7f3a2c000000, tag=1)]
	for se in sys.argv[3:-1]:
	    ev.append(obj(ProfileSQTTEvent, device="AMD", kern=1, se=int(se), blob=blob, itrace=True))
	open(sys.argv[-1], "wb").write(pickle.dumps(ev, protocol=5))
	PY
}

test_expect_success PYTHON3 'a tinygrad capture: a new dispatch where the shader engine repeats or goes back' '
	capture 0 1 1 2 0 0 t.pkl &&
	sqtt-dump t.pkl > out 2> err &&
	test_cmp /dev/null err &&
	grep "^##event" out | cut -f 2,3,11 > actual &&
	printf "0\t0\t1\n1\t1\t1\n2\t1\t2\n3\t2\t2\n4\t0\t3\n5\t0\t4\n" > expect &&
	test_cmp expect actual &&
	sqtt-dump --dispatch 2 t.pkl | grep "^##event" | cut -f 2,3 > actual &&
	printf "2\t1\n3\t2\n" > expect &&
	test_cmp expect actual
'

test_done
