#!/bin/sh
# t0360-target: the stream's ##target chooses the instruction model and the disassembler's
# processor; a stream that names none is gfx1100; a target no model covers, or a code
# object built for another processor than the stream's, is refused with one line, exit 2.
. "$(dirname "$0")/lib.sh"

DEMO="$TOP/fixtures/demo"
KNOWN="this build knows gfx11: gfx1100, gfx1101, gfx1102, gfx1103, gfx1150, gfx1151, gfx1152, gfx1153; gfx12: gfx1200, gfx1201; gfx9: gfx950, gfx942"

poke() {	# poke FILE OFFSET BYTES: the ELF e_flags processor is the byte at 48
	printf "$3" | dd of="$1" bs=1 seek=$(($2)) conv=notrunc 2>/dev/null
}

# capture DIR TARGET [MACH]: the demo capture as a copy whose capture.tsv says TARGET and
# whose code object's e_flags processor is MACH (octal escape); the rest byte for byte
capture() {
	cp -r "$DEMO" "$1" &&
	sed "s/^##target	gfx1100\$/##target	$2/" "$DEMO/capture.tsv" > "$1/capture.tsv" &&
	{ [ $# -lt 3 ] || poke "$1/stall_code_object_id_0.out" 48 "$3"; }
}

# the lines of a stream that are not ## context
body() { grep -v '^##' "$1"; }

# the demo's 88 rows of its traced SIMD and 3 untraced rows of the waves on its SIMD 1
test_expect_success 'the demo as gfx1100: 91 rows' '
	sqtt-dump "$DEMO" > p1100 &&
	sqtt-walk p1100 > r1100 &&
	test "$(grep -c "^##target	gfx1100\$" r1100)" = 1 &&
	test "$(grep -vc "^#" r1100)" = 91 &&
	stall-attr r1100 > c1100 &&
	stall --rows "$DEMO" > s1100 &&
	stall -n 100 --plain "$DEMO" > t1100 &&
	test "$(grep -c . t1100)" = 24
'

test_expect_success 'a gfx1101 capture and code object: walked, costed and tabled as gfx1100' '
	capture d1101 gfx1101 "\106" &&
	! cmp -s "$DEMO/stall_code_object_id_0.out" d1101/stall_code_object_id_0.out &&
	sqtt-dump d1101 > p1101 &&
	test "$(grep "^##target" p1101)" = "##target	gfx1101" &&
	sqtt-walk p1101 > r1101 &&
	test "$(grep "^##target" r1101)" = "##target	gfx1101" &&
	body r1100 > expect && body r1101 > actual && test_cmp expect actual &&
	stall-attr r1101 > c1101 &&
	body c1100 > expect && body c1101 > actual && test_cmp expect actual &&
	stall --rows d1101 > s1101 &&
	body s1100 > expect && body s1101 > actual && test_cmp expect actual &&
	stall -n 100 --plain d1101 > t1101 &&
	test_cmp t1100 t1101 &&
	stall -n 100 --plain --threads 2 d1101 > t1101t &&
	test_cmp t1100 t1101t
'

test_expect_success 'a gfx11-generic code object is read under any gfx11 target' '
	capture d1102 gfx1102 "\124" &&
	stall --rows d1102 > s1102 &&
	body s1100 > expect && body s1102 > actual && test_cmp expect actual
'

test_expect_success 'no ##target, or -: gfx1100' '
	grep -v "^##target" p1100 > pnone &&
	sqtt-walk pnone > rnone &&
	body r1100 > expect && body rnone > actual && test_cmp expect actual &&
	sed "s/^##target	gfx1100\$/##target	-/" p1100 > pdash &&
	sqtt-walk pdash > rdash &&
	body r1100 > expect && body rdash > actual && test_cmp expect actual &&
	capture ddash - &&
	stall -n 100 --plain ddash > tdash &&
	test_cmp t1100 tdash
'

# refused TARGET SHOWN: sqtt-walk, stall-attr, sqtt-encode and stall each say it in one line
refused() {
	sed "s/^##target	gfx1100\$/##target	$1/" p1100 > bad.tsv &&
	test "$(grep -c "^##target	" bad.tsv)" = 1 &&
	test_expect_code 2 sqtt-walk bad.tsv > out 2> err &&
	echo "sqtt-walk: bad.tsv: no instruction model for target $2 ($KNOWN)" > expect &&
	test_cmp expect err &&
	sed "s/^##target	gfx1100\$/##target	$1/" r1100 > badrows.tsv &&
	test_expect_code 2 stall-attr badrows.tsv > out 2> err &&
	echo "stall-attr: badrows.tsv: no instruction model for target $2 ($KNOWN)" > expect &&
	test_cmp expect err &&
	test_expect_code 2 sqtt-encode -o bad.att bad.tsv 2> err &&
	echo "sqtt-encode: bad.tsv: no instruction model for target $2 ($KNOWN)" > expect &&
	test_cmp expect err &&
	rm -rf badcap && capture badcap "$1" &&
	test_expect_code 2 stall badcap > out 2> err &&
	echo "stall: badcap: no instruction model for target $2 ($KNOWN)" > expect &&
	test_cmp expect err &&
	test_cmp /dev/null out
}

test_expect_success 'gfx1250: no model, exit 2' '
	refused gfx1250 gfx1250
'

test_expect_success 'gfx90a (CDNA2): no model, exit 2' '
	refused gfx90a gfx90a
'

test_expect_success 'a target of 300 bytes: shown cut, exit 2' '
	long=gfx1100$(printf "%0293d" 0) &&
	refused "$long" "gfx1100$(printf "%025d" 0)..."
'

test_expect_success 'a target with a tab and a control byte (escaped in the stream): shown escaped' '
	refused "gfx\\\\x01\\\\t1100" "gfx\\\\x01\\\\x091100"
'

test_expect_success 'a target that is a processor name with something after it: refused' '
	refused "gfx1100:xnack-" "gfx1100:xnack-"
'

test_expect_success 'the code object is gfx1101, the stream gfx1100: refused' '
	capture mis gfx1100 "\106" &&
	test_expect_code 2 stall mis > out 2> err &&
	echo "stall: $PWD/mis/stall_code_object_id_0.out: program demo: code object is gfx1101, the stream'"'"'s target is gfx1100; its events are not walked" > expect &&
	test_cmp expect err &&
	sqtt-dump mis > pmis &&
	test_expect_code 2 sqtt-walk pmis > out 2> err &&
	head -n 1 err > first &&
	echo "sqtt-walk: $PWD/mis/stall_code_object_id_0.out: program demo: code object is gfx1101, the stream'"'"'s target is gfx1100; its events are not walked" > expect &&
	test_cmp expect first &&
	test "$(grep -vc "^#" out)" = 0
'

test_expect_success 'a gfx942 code object under a gfx1101 stream, and under none: refused' '
	capture mis942 gfx1101 "\114" &&
	test_expect_code 2 stall mis942 > out 2> err &&
	echo "stall: $PWD/mis942/stall_code_object_id_0.out: program demo: code object is gfx942, the stream'"'"'s target is gfx1101; its events are not walked" > expect &&
	test_cmp expect err &&
	capture mis942none - "\114" &&
	test_expect_code 2 stall mis942none > out 2> err &&
	echo "stall: $PWD/mis942none/stall_code_object_id_0.out: program demo: code object is gfx942, the stream'"'"'s target is gfx1100; its events are not walked" > expect &&
	test_cmp expect err
'

test_expect_success 'sqtt-encode: a gfx1101 stream is written as the gfx1100 one, HEADER version 3' '
	sqtt-encode -d e1100 p1100 &&
	sqtt-encode -d e1101 p1101 &&
	cmp e1100/stall_shader_engine_0_0.att e1101/stall_shader_engine_0_0.att &&
	cmp e1100/stall_shader_engine_1_1.att e1101/stall_shader_engine_1_1.att &&
	test "$(grep "^##target" e1101/capture.tsv)" = "##target	gfx1101" &&
	awk -F "	" "BEGIN { OFS = FS } \$5 == \"HEADER\" { \$3 = \"-\"; \$11 = \"-\" } { print }" \
	    p1101 > built.tsv &&
	test "$(grep -c "	HEADER	-	0	0	0	-	-\$" built.tsv)" = 2 &&
	sqtt-encode -e 0 -o built.att built.tsv &&
	cmp e1100/stall_shader_engine_0_0.att built.att
'

test_expect_success 'stall-annotate reads the programs for the rows'"'"' target' '
	stall-annotate --waits s1100 > w1100 &&
	stall-annotate --waits s1101 > w1101 &&
	test_cmp w1100 w1101 &&
	test "$(grep -vc "^#" w1101)" = 5 &&
	sed "s/^##target	gfx1101\$/##target	gfx1100/" s1101 > mis.rows &&
	test_expect_code 2 stall-annotate --waits mis.rows > out 2> err &&
	grep -q "^stall-annotate: mis.rows:[0-9]*: program demo: code object is gfx1101, the stream'"'"'s target is gfx1100\$" err &&
	test_one_line_error stall-annotate err &&
	sed "s/^##target	gfx1101\$/##target	gfx1250/" s1101 > bad.rows &&
	test_expect_code 2 stall-annotate --waits bad.rows > out 2> err &&
	echo "stall-annotate: bad.rows: no instruction model for target gfx1250 ($KNOWN)" > expect &&
	test_cmp expect err
'

# s_add_f32 s0, s1, s2 (SOP2 0xa0000201) is gfx1150's (SALU floats), no gfx1100
# instruction: put over the demo's s_mov_b32 s6, 3 at pc 0x1314 (file offset 0x314)
test_expect_success 'the disassembler is made for the target'"'"'s processor' '
	cp "$DEMO/stall_code_object_id_0.out" f1100.out &&
	poke f1100.out 0x314 "\001\002\000\240" &&
	"$TOP/build/codeobj_test" f1100.out > l1100 &&
	test "$(sed -n 5p l1100)" = "0x1314	4	salu	-	.long 0xa0000201" &&
	cp f1100.out f1150.out &&
	poke f1150.out 48 "\103" &&
	"$TOP/build/codeobj_test" -t gfx1150 f1150.out > l1150 &&
	test "$(sed -n 5p l1150)" = "0x1314	4	salu	-	s_add_f32 s0, s1, s2" &&
	"$TOP/build/codeobj_test" f1150.out > lown &&
	test_cmp l1150 lown &&
	"$TOP/build/codeobj_test" -t gfx1100 f1100.out > again &&
	test_cmp l1100 again &&
	grep -v "^0x1314	" l1100 > expect && grep -v "^0x1314	" l1150 > actual &&
	test_cmp expect actual
'

# profile VERSION CODE OUT: a tinygrad pickle of the demo (its code object CODE, both
# buffers) from a device of gfx_target_version VERSION
profile() {
	python3 - "$1" "$2" "$DEMO" "$3" <<-\PY
	import pickle, sys
	class ProfileProgramEvent: pass
	class ProfileSQTTEvent: pass
	class ProfileDeviceEvent: pass
	def obj(cls, **kw):
	    o = cls(); o.__dict__.update(kw); return o
	code = open(sys.argv[2], "rb").read()
	ev = [obj(ProfileDeviceEvent, device="AMD", props={"gfx_target_version": int(sys.argv[1])}),
	      obj(ProfileProgramEvent, device="AMD", name="demo", lib=code, base=0x7f3a2c000000, tag=1)]
	for se, f in ((0, "stall_shader_engine_0_0.att"), (1, "stall_shader_engine_1_1.att")):
	    blob = open(sys.argv[3] + "/" + f, "rb").read()
	    ev.append(obj(ProfileSQTTEvent, device="AMD", kern=1, se=se, blob=blob, itrace=se == 0))
	open(sys.argv[4], "wb").write(pickle.dumps(ev, protocol=5))
	PY
}

test_expect_success PYTHON3 'a pickle'"'"'s gfx_target_version: 110001 is gfx1101, 120000 gfx1200 (not the gfx1100 demo), 90010 (gfx90a) refused' '
	profile 110000 "$DEMO/stall_code_object_id_0.out" p1100.pkl &&
	stall -n 100 --plain p1100.pkl > k1100 &&
	test_cmp t1100 k1100 &&
	profile 110001 d1101/stall_code_object_id_0.out p1101.pkl &&
	sqtt-dump p1101.pkl > pk1101 &&
	test "$(grep "^##target" pk1101)" = "##target	gfx1101" &&
	stall -n 100 --plain p1101.pkl > k1101 &&
	test_cmp t1100 k1101 &&
	profile 110001 "$DEMO/stall_code_object_id_0.out" pmis.pkl &&
	test_expect_code 2 stall pmis.pkl > out 2> err &&
	echo "stall: $PWD/pmis.pkl: program demo: code object is gfx1100, the stream'"'"'s target is gfx1101; its events are not walked" > expect &&
	test_cmp expect err &&
	profile 120000 "$DEMO/stall_code_object_id_0.out" p1200.pkl &&
	test_expect_code 2 stall p1200.pkl > out 2> err &&
	echo "stall: $PWD/p1200.pkl: program demo: code object is gfx1100, the stream'"'"'s target is gfx1200; its events are not walked" > expect &&
	test_cmp expect err &&
	profile 90010 "$DEMO/stall_code_object_id_0.out" p942.pkl &&
	test_expect_code 2 stall p942.pkl > out 2> err &&
	echo "stall: p942.pkl: no instruction model for target gfx90a ($KNOWN)" > expect &&
	test_cmp expect err
'

test_done
