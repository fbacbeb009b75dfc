#!/bin/sh
# Bad input: one line naming sqtt-dump and the file, exit 2, no output that looks valid.
. "$(dirname "$0")/lib.sh"

# expect_error FILE PATTERN sqtt-dump-args...
expect_error() {
	ef=$1 ep=$2; shift 2
	test_expect_code 2 sqtt-dump "$@" > out 2> err &&
	test_one_line_error sqtt-dump err &&
	grep -q -- "$ef" err || { echo "error does not name $ef:" >&2; cat err >&2; return 1; }
	grep -q -- "$ep" err || { echo "error does not say $ep:" >&2; cat err >&2; return 1; }
}

test_expect_success 'an empty file' '
	: > empty.pkl &&
	expect_error empty.pkl "empty file" empty.pkl &&
	expect_error empty.pkl "empty stream" --raw empty.pkl
'

test_expect_success 'a file that is not a pickle' '
	printf "hello, world\n" > text.pkl &&
	expect_error text.pkl "not a pickle" text.pkl &&
	expect_error /bin/true "not a pickle" /bin/true
'

test_expect_success 'a pickle with no SQTT events' '
	printf "\200\004]\224." > nolist.pkl &&
	expect_error nolist.pkl "no SQTT events" nolist.pkl &&
	printf "\200\004K\001." > int.pkl &&
	expect_error int.pkl "not a tinygrad profile" int.pkl
'

test_expect_success 'a missing file' '
	expect_error nosuch.pkl "No such file" nosuch.pkl
'

test_expect_success 'random bytes as --raw' '
	perl -e "srand(7); print map { chr int rand 256 } 1 .. 4096" > random.att &&
	expect_error random.att "not an SQTT stream" --raw random.att
'

test_expect_success 'a HEADER of another generation' '
	printf "#event\tse\tnib\ttime\ttype\twave\tsimd\twgp\tsa\top\traw\n0\t0\t-\t0\tHEADER\t-\t-\t-\t-\t-\t0x68900111\n0\t0\t-\t9\tVALU_INST\t0\t-\t-\t-\t-\t-\n" > v2.tsv &&
	sqtt-encode -o v2.att v2.tsv &&
	expect_error v2.att "HEADER version 2 (gfx10): this build reads versions 3 (gfx11), 4 (gfx12)" --raw v2.att
'

test_expect_success 'a stream cut in the middle of a token' '
	sqtt-encode -o whole.att "$TOP/tests/data/authored.packets.tsv" &&
	sqtt-dump -a --raw whole.att >stage50.0.out && <stage50.0.out awk -F"\t" "\$5 == \"WAVE_END\" { print \$3; exit }" > nib &&
	head -c $(( $(cat nib) / 2 + 2 )) whole.att > cut.att &&
	expect_error cut.att "stream cut inside a token" --raw cut.att &&
	head -c 5 whole.att > tiny.att &&
	expect_error tiny.att "cut inside its first token" --raw tiny.att
'

if test_have_prereq SHARED; then
F=$FIXTURES/20260314_profile_gemm_run_0_7379d89.pkl
for n in 1 100 1000 30000 70000; do
	test_expect_success "a pickle truncated to $n bytes" "
		head -c $n '$F' > trunc$n.pkl &&
		expect_error trunc$n.pkl truncated trunc$n.pkl
	"
done

test_expect_success 'a gzip file cut short' '
	gzip -c "$F" | head -c 12000 > cut.pkl.gz &&
	expect_error cut.pkl.gz "unexpected end of file" cut.pkl.gz
'
else
	test_skip SHARED 'truncated shared captures'
fi

test_expect_success 'a directory that is not a capture' '
	mkdir notcap &&
	expect_error notcap "not a capture directory" notcap
'

test_expect_success 'bad options' '
	test_expect_code 2 sqtt-dump -e x foo 2> err &&
	test_one_line_error sqtt-dump err &&
	test_expect_code 2 sqtt-dump --types BOGUS foo 2> err &&
	grep -q "unknown token type" err &&
	test_expect_code 2 sqtt-dump 2> err &&
	grep -q "^usage: sqtt-dump" err
'

test_done
