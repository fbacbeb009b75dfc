#!/bin/sh
# t0110-pickle: libcommon/pickle.c through its test program build/pickle_test, which the
# Makefile builds (build/pickle_test: tests/pickle_test.c build/pickle.o); this script
# compiles nothing.  Hostile and hand-made inputs run always; the tinygrad fixtures only
# when ../shared is beside the project.
. "$(dirname "$0")/lib.sh"

PT="$TOP/build/pickle_test"
DATA="$TOP/tests/data"

# expect_fail FILE PATTERN: exit 2, one line on stderr, and that line matches PATTERN.
expect_fail() {
	test_expect_code 2 "$PT" "$1" >out 2>err &&
	test_one_line_error pickle_test err &&
	grep -q "^pickle_test: $1: " err &&
	grep -q -- "$2" err || { cat err >&2; return 1; }
}

test_expect_success 'pickle_test is built' '
	test -x "$PT"
'

# Hand-made pickles: printf with octal escapes, one per case.
mk() { printf "$2" > "$T_DIR/$1.pkl"; }
mk none '\200\004N.'
mk small '\200\004\225\015\000\000\000\000\000\000\000]\224(K\001\214\001a\224h\001e.'
mk proto0 '(lp0\nI1\naS'"'"'x'"'"'\np1\nag1\na.'
mk nostop '\200\004]'
mk proto6 '\200\006N.'
mk unknown '\200\004\377.'
mk underflow '\200\004a.'
mk nomark '\200\004K\001e.'
mk memo '\200\004h\005.'
mk memobig '\200\004Nr\377\377\377\377.'
mk appendtuple '\200\004)K\001a.'
mk setitemlist '\200\004]K\001K\002s.'
mk buildlist '\200\004]}b.'
mk reduceint '\200\004K\001)R.'
mk sgbytes '\200\004C\001mC\001c\223.'
mk bytes8 '\200\004\216\377\377\377\377\377\377\377\177.'
mk binunicode '\200\004X\100\000\000\000abc.'
mk long4 '\200\004\213\377\377\377\377.'
mk frame '\200\004\225\000\000\000\000\001\000\000\000N.'
mk ext '\200\004\202\001.'
mk persid '\200\004N\121.'
mk recursive '\200\004]\224h\000a.'

test_expect_success 'a small valid pickle loads' '
	"$PT" "$T_DIR/none.pkl" >out 2>err &&
	echo "root None" >expect &&
	test_cmp expect out && test ! -s err &&
	"$PT" "$T_DIR/small.pkl" >out 2>err &&
	printf "items 3\nsqtt 0 program 0 device 0 other 3\n" >expect &&
	test_cmp expect out
'

test_expect_success 'a protocol 0 pickle loads' '
	"$PT" "$T_DIR/proto0.pkl" >out &&
	printf "items 3\nsqtt 0 program 0 device 0 other 3\n" >expect &&
	test_cmp expect out
'

test_expect_success 'empty input' '
	: >empty.pkl &&
	expect_fail empty.pkl "empty input"
'

test_expect_success 'a text file is not a pickle' '
	printf "hello, world\nthis is text\n" >text.pkl &&
	expect_fail text.pkl "not a pickle"
'

test_expect_success 'an ELF file is not a pickle' '
	cp "$PT" elf.pkl &&
	expect_fail elf.pkl "not a pickle"
'

test_expect_success 'random bytes' '
	# an LCG small enough to be exact in any awk
	awk "BEGIN { x = 7; for (i = 0; i < 4096; i++) { x = (x * 75 + 74) % 65537; printf \"%c\", x % 256 } }" >random.pkl &&
	test "$(wc -c <random.pkl)" -eq 4096 &&
	expect_fail random.pkl "."
'

while read -r name pattern; do
	test_expect_success "hostile input: $name" "
		expect_fail '$T_DIR/$name.pkl' '$pattern'
	"
done <<'EOF'
nostop truncated at byte 3 (no STOP opcode)
proto6 unsupported pickle protocol 6
unknown unknown opcode 0xff at byte 2
underflow stack underflow at byte 2 (APPEND)
nomark MARK missing at byte 4 (APPENDS)
memo memo index 5 not defined at byte 2 (BINGET)
memobig memo index 4294967295 out of range
appendtuple target is a tuple at byte 5 (APPEND)
setitemlist target is a list at byte 7 (SETITEM)
buildlist target is a list at byte 4 (BUILD)
reduceint callable or class is an int at byte 5 (REDUCE)
sgbytes module name is bytes at byte 8 (STACK_GLOBAL)
bytes8 truncated at byte 2 (BINBYTES8 wants 9223372036854775807 bytes, 1 left)
binunicode truncated at byte 2 (BINUNICODE wants 64 bytes, 4 left)
long4 negative length at byte 2 (LONG4)
frame truncated at byte 2 (FRAME of 4294967296 bytes, 2 left)
ext extension registry code unsupported at byte 2 (EXT1)
persid persistent id unsupported at byte 3 (BINPERSID)
recursive recursive structure: a list contains itself
EOF

test_expect_success 'deep nesting is refused' '
	{ printf "\200\004" && awk "BEGIN { for (i = 0; i < 5000; i++) printf \"(\" }" &&
	  awk "BEGIN { for (i = 0; i < 5000; i++) printf \"l\" }" && printf "." ; } >deep.pkl &&
	expect_fail deep.pkl "nesting deeper than"
'

test_expect_success 'deep but not too deep nesting loads' '
	{ printf "\200\004" && awk "BEGIN { for (i = 0; i < 999; i++) printf \"(\" }" &&
	  awk "BEGIN { for (i = 0; i < 999; i++) printf \"l\" }" && printf "." ; } >deep.pkl &&
	"$PT" deep.pkl >out &&
	printf "items 1\nsqtt 0 program 0 device 0 other 1\n" >expect &&
	test_cmp expect out
'

# Inputs the fuzzer (tests/fuzz/fuzz_pickle.c) reached, one per error path the hand-made
# ones above miss; tests/data/pickle-fuzz.expect gives each one's message.  The list must
# match the files: a loop over a glob that matches nothing would test nothing.
test_expect_success 'fuzz regressions: every listed input is there, and only those' '
	(cd "$DATA" && ls pickle-fuzz-*.bin) | sort >files &&
	cut -f1 "$DATA/pickle-fuzz.expect" | sort >listed &&
	test_cmp listed files &&
	test "$(wc -l <files)" -ge 12
'
while IFS='	' read -r name message; do
	test_expect_success "fuzz regression $name" "
		test_expect_code 2 \"\$PT\" '$DATA/$name' >out 2>err &&
		echo 'pickle_test: $DATA/$name: $message' >expect &&
		test_cmp expect err
	"
done <"$DATA/pickle-fuzz.expect"

# The tinygrad fixtures.
if ! test_have_prereq SHARED; then
	test_skip SHARED 'the tinygrad fixtures'
	test_done
	exit
fi

while read -r name summary; do
	f="$FIXTURES/$name.pkl"
	test_expect_success "fixture $name loads" "
		\"\$PT\" '$f' >out 2>err &&
		test ! -s err &&
		echo '$summary' >expect &&
		tail -n 1 out >actual &&
		test_cmp expect actual
	"
done <<'EOF'
20260120_profile_gemm_run_0_e540cad sqtt 18 program 3 device 2 other 178
20260202_profile_gemm_run_0_ccf477c sqtt 18 program 3 device 2 other 178
20260305_profile_gemm_run_0_b6d1936 sqtt 6 program 1 device 3 other 89
20260314_profile_empty_run_0_f1048a1 sqtt 6 program 1 device 3 other 69
20260314_profile_gemm_run_0_7379d89 sqtt 6 program 1 device 3 other 85
20260314_profile_ops_run_0_c2d10d8 sqtt 6 program 1 device 3 other 61
20260314_profile_plus_run_0_b90bfc1 sqtt 6 program 1 device 3 other 90
20260507_profile_sync_run_0_ccf76d9 sqtt 12 program 2 device 3 other 147
EOF

cat >"$T_DIR/gemm.expect" <<'EOF'
items 95
ProfileDeviceEvent device='CPU' props=None
ProfileProgramEvent device='AMD' name='r_32_32_16_2' lib=bytes[4752]:7f454c4602010140 base=35184388890624 tag=0
ProfileSQTTEvent device='AMD' kern=0 se=0 blob=bytes[6976]:9101906800000000 itrace=True exec_tag=1
ProfileSQTTEvent device='AMD' kern=0 se=1 blob=bytes[6976]:9101906800000000 itrace=True exec_tag=1
ProfileSQTTEvent device='AMD' kern=0 se=2 blob=bytes[5920]:9101906800000000 itrace=False exec_tag=1
ProfileSQTTEvent device='AMD' kern=0 se=3 blob=bytes[5952]:9101906800000000 itrace=False exec_tag=1
ProfileSQTTEvent device='AMD' kern=0 se=4 blob=bytes[5984]:9101906800000000 itrace=False exec_tag=1
ProfileSQTTEvent device='AMD' kern=0 se=5 blob=bytes[5952]:9101906800000000 itrace=False exec_tag=1
ProfileDeviceEvent device='AMD' props=dict[10] gfx_target_version=110000
ProfileDeviceEvent device='AMD:SDMA:0' props=dict[10] gfx_target_version=110000
sqtt 6 program 1 device 3 other 85
EOF
test_expect_success 'gemm 7379d89: every event' '
	"$PT" "$FIXTURES/20260314_profile_gemm_run_0_7379d89.pkl" >out &&
	test_cmp gemm.expect out
'

cat >"$T_DIR/old.expect" <<'EOF'
ProfileProgramEvent device='AMD' name='E_32_32_4' lib=bytes[4208]:7f454c4602010140 base=35184388890624
ProfileProgramEvent device='AMD' name='E_8_8_16_4' lib=bytes[4344]:7f454c4602010140 base=35184388915200
ProfileProgramEvent device='AMD' name='r_2_8_16_4_4_16_4' lib=bytes[5184]:7f454c4602010140 base=35184388947968
EOF
Q="'"
test_expect_success 'gemm e540cad: the older layout, kern is the program name, no tag' '
	"$PT" "$FIXTURES/20260120_profile_gemm_run_0_e540cad.pkl" >out &&
	grep "^ProfileProgramEvent" out >programs &&
	test_cmp old.expect programs &&
	test "$(grep -c "^ProfileSQTTEvent device=${Q}AMD${Q} kern=${Q}" out)" -eq 18 &&
	grep -q "^ProfileSQTTEvent .* kern=${Q}r_2_8_16_4_4_16_4${Q} se=0 blob=bytes\[24832\]:9101906800000000 itrace=True exec_tag=3\$" out
'

test_expect_success 'truncated fixtures fail with one line' '
	f="$FIXTURES/20260314_profile_gemm_run_0_7379d89.pkl" &&
	size=$(wc -c <"$f") &&
	for n in 1 2 3 11 12 100 1000 27040 34021 50000 $((size - 1)); do
		head -c $n "$f" >trunc.pkl &&
		expect_fail trunc.pkl "truncated at byte" || { echo "at $n bytes" >&2; exit 1; }
	done
'

test_done
