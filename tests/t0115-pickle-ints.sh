#!/bin/sh
# t0115-pickle-ints: a pickle's integers are signed as Python's are: BININT is a 32-bit
# two's complement, LONG1 little-endian two's complement of any length (issue 24's
# survivors: BININT read unsigned, LONG1 not sign-extended).  The program's tag of a
# tinygrad capture carries them to sqtt-dump's ##event line, where a negative tag is
# none ('-').  The pickles are made by python3's own pickle module.
. "$(dirname "$0")/lib.sh"

# capture TAG FILE: a one-program, one-buffer capture whose tag (and kern) is TAG
capture() {
	python3 - "$TOP/fixtures/kernels/demo.hsaco" "$TOP/fixtures/demo/stall_shader_engine_0_0.att" "$1" "$2" <<-\PY
	import pickle, sys
	class ProfileProgramEvent: pass
	class ProfileSQTTEvent: pass
	class ProfileDeviceEvent: pass
	def obj(cls, **kw):
	    o = cls(); o.__dict__.update(kw); return o
	code = open(sys.argv[1], "rb").read(); blob = open(sys.argv[2], "rb").read()
	tag = int(sys.argv[3])
	ev = [obj(ProfileDeviceEvent, device="AMD", props={"gfx_target_version": 110000}),
	      obj(ProfileProgramEvent, device="AMD", name="k", lib=code, base=0x7f3a2c000000, tag=tag),
	      obj(ProfileSQTTEvent, device="AMD", kern=tag, se=0, blob=blob, itrace=True)]
	open(sys.argv[4], "wb").write(pickle.dumps(ev, protocol=5))
	PY
}

# opcode TAG: the pickle opcode python3 writes TAG with
opcode() {
	python3 -c "import pickle, pickletools, sys
ops = [o.name for o, a, p in pickletools.genops(pickle.dumps(int(sys.argv[1]), protocol=5)) if o.name not in ('PROTO', 'FRAME', 'STOP', 'MEMOIZE')]
print(*ops)" "$1"
}

while read -r tag op shown; do
	test_expect_success PYTHON3 "tag $tag ($op): the ##event line says $shown" "
		test \"\$(opcode $tag)\" = $op &&
		capture $tag t.pkl &&
		sqtt-dump t.pkl > out 2> err &&
		test_cmp /dev/null err &&
		grep '^##event' out | cut -f 4,5 > actual &&
		printf 'k\t%s\n' '$shown' > expect &&
		test_cmp expect actual
	"
done <<'EOF'
5 BININT1 5
-1 BININT -
-2147483648 BININT -
2147483647 BININT 2147483647
-1099511627776 LONG1 -
1099511627776 LONG1 1099511627776
-9223372036854775808 LONG1 -
EOF

test_done
