#!/bin/sh
# t0720-captures: hostile captures through sqtt-dump, sqtt-encode -d and stall-table: names
# that are paths, carry tabs, newlines or escape sequences, or are not UTF-8; pickles of
# every protocol tinygrad writes; a gzip bomb; --raw --code paths.
. "$(dirname "$0")/lib.sh"

MK="$TOP/tests/bad/mkpickle.py"
DEMO="$TOP/fixtures/demo"
test_require PYTHON3 "python3 makes the pickles"



test_expect_success 'pickles of protocols 2 to 5 read the same, bytes of every value' '
	for p in 2 3 4 5; do
		python3 "$MK" p$p.pkl $p plain "$DEMO/stall_shader_engine_0_0.att" &&
		sqtt-dump p$p.pkl > out$p 2> err$p &&
		test_cmp /dev/null err$p &&
		sed 1d out$p > body$p || return 1
	done &&
	test $(grep -c "	INST	" body2) -gt 10 &&
	test_cmp body5 body2 && test_cmp body5 body3 && test_cmp body5 body4 &&
	sqtt-dump --raw "$DEMO/stall_shader_engine_0_0.att" >stage33.0.out && <stage33.0.out grep -v "^##" > raw &&
	grep -v "^##" body2 > tokens &&
	test_cmp raw tokens
'

test_expect_success 'a pickle of protocol 0, 1 or 6 is refused by name' '
	printf "\200\006N." > p6.pkl &&
	test_expect_code 2 sqtt-dump p6.pkl > out 2> err &&
	echo "sqtt-dump: p6.pkl: a pickle of protocol 6: tinygrad writes 2 to 5" > expect &&
	test_cmp expect err &&
	printf "(lp0\nI1\na." > p0.pkl &&
	test_expect_code 2 sqtt-dump p0.pkl > out 2> err &&
	echo "sqtt-dump: p0.pkl: not a pickle of protocol 2 to 5 (first byte 0x28); a raw stream wants --raw" > expect &&
	test_cmp expect err &&
	printf "\200\001N." > p1.pkl &&
	test_expect_code 2 sqtt-dump p1.pkl > out 2> err &&
	echo "sqtt-dump: p1.pkl: a pickle of protocol 1: tinygrad writes 2 to 5" > expect &&
	test_cmp expect err
'

test_expect_success 'an SQTT event without a usable se' '
	python3 "$MK" nose.pkl 4 nose &&
	test_expect_code 2 sqtt-dump nose.pkl > out 2> err.abs &&
	sed "s|$(pwd -P)/||" err.abs > err &&
	echo "sqtt-dump: nose.pkl: SQTT event 0 has no shader engine number 0..255 (se)" > expect &&
	test_cmp expect err &&
	python3 "$MK" bigse.pkl 4 bigse &&
	test_expect_code 2 sqtt-dump bigse.pkl > out 2> err.abs &&
	sed "s|$(pwd -P)/||" err.abs > err &&
	echo "sqtt-dump: bigse.pkl: SQTT event 0 has no shader engine number 0..255 (se)" > expect &&
	test_cmp expect err
'

test_expect_success '-x: a program named ../../x stays in the directory' '
	mkdir -p a/b &&
	python3 "$MK" a/b/dotdot.pkl 4 dotdot &&
	(cd a/b && sqtt-dump -x code dotdot.pkl > out) &&
	test ! -e x.hsaco && test ! -e a/x.hsaco &&
	ls a/b/code > actual &&
	echo "%2E.%2F..%2Fx.hsaco" > expect &&
	test_cmp expect actual &&
	test $(wc -c < "a/b/code/%2E.%2F..%2Fx.hsaco") -eq 64
'

test_expect_success '-x: two programs of one name are two files' '
	python3 "$MK" twin.pkl 4 twin &&
	sqtt-dump -x tw twin.pkl > out &&
	ls tw > actual &&
	printf "E_1.hsaco\nE_1~2.hsaco\n" > expect &&
	test_cmp expect actual &&
	! cmp -s tw/E_1.hsaco tw/E_1~2.hsaco
'

test_expect_success 'a rocprofv3 directory whose load_base is not an address' '
	mkdir roc2 &&
	cp "$DEMO/stall_shader_engine_0_0.att" roc2/r_shader_engine_0_0.att &&
	cp "$DEMO/stall_code_object_id_0.out" roc2/r_code_object_id_1.out &&
	printf "{\"code_objects\": [{\"code_object_id\": 1, \"load_base\": \"abc\"}]}\n" > roc2/results.json &&
	test_expect_code 2 sqtt-dump roc2 > out 2> err.abs &&
	sed "s|$(pwd -P)/||" err.abs > err &&
	echo "sqtt-dump: roc2/results.json: the load_base of code object 1 is not an address" > expect &&
	test_cmp expect err &&
	printf "{\"code_objects\": [{\"code_object_id\": 1, \"load_base\": 4096}]}\n" > roc2/results.json &&
	sqtt-dump roc2 > out &&
	test "$(grep "^##code" out | cut -f 4)" = 0x1000
'

test_expect_success 'a name with a tab, a newline and a backslash stays one field and round-trips' '
	python3 "$MK" tab.pkl 4 tab &&
	sqtt-dump tab.pkl > packets &&
	grep "^##code" packets > code &&
	test $(wc -l < code) -eq 1 &&
	test "$(awk -F"\t" "{ print NF }" code)" = 6 &&
	test "$(cut -f 2 code)" = "k\\tx\\ny\\\\z" &&
	grep "^##event" packets | cut -f 4 > name &&
	test "$(cat name)" = "k\\tx\\ny\\\\z" &&
	sqtt-encode -d cap packets &&
	sqtt-dump cap > again &&
	grep "^##code" again | cut -f 2 > name2 &&
	test "$(cat name2)" = "k\\tx\\ny\\\\z" &&
	grep "^##event" again | cut -f 4 > name3 &&
	test_cmp name name3 &&
	sqtt-dump -x x tab.pkl > /dev/null &&
	ls x > actual &&
	echo "k%09x%0Ay%5Cz.hsaco" > expect &&
	test_cmp expect actual
'

test_expect_success 'a program named - is not the placeholder -' '
	python3 "$MK" dash.pkl 4 dash &&
	sqtt-dump dash.pkl > packets &&
	test "$(grep "^##code" packets | cut -f 2,3)" = "\\x2d	7" &&
	test "$(grep "^##event" packets | cut -f 4,5)" = "\\x2d	7" &&
	sqtt-encode -d cap.dash packets &&
	sqtt-dump cap.dash > again &&
	test "$(grep "^##event" again | cut -f 4,5)" = "\\x2d	7" &&
	test "$(grep "^##target" again | cut -f 2)" = gfx1100
'

# Kernel names as a row stream carries them: ESC, DEL, a lone surrogate's bytes.
test_expect_success 'JSON stays valid and --pretty stays inert with ESC, DEL and bytes that are not UTF-8' '
	printf "#kernel\tpc\tinst\ttoken\tcost\tcause\nk\033[2J\177\355\263\277\t0x100\tv_nop \302\233x\tVALU_INST\t5\tunexplained\n" > rows.tsv &&
	stall-table --json rows.tsv > out.json &&
	python3 -c "import json, sys; d = json.load(open(sys.argv[1])); k = d[\"kernels\"][0]; assert k[\"kernel\"] == \"k\x1b[2J\x7f\ufffd\ufffd\ufffd\", k; assert k[\"rows\"][0][\"inst\"] == \"v_nop \x9bx\"" out.json &&
	grep -q "\"k\\\\u001b\[2J\\\\u007f\\\\ufffd\\\\ufffd\\\\ufffd\"" out.json &&
	stall-table --pretty rows.tsv > out.txt &&
	grep -q "^ Kernel k?\[2J????: 0 waves, 5 cycles" out.txt &&
	grep -q "v_nop ??x$" out.txt &&
	test $(tr -d "\n" < out.txt | LC_ALL=C tr -d "\040-\176" | wc -c) -eq 0 &&
	stall-table --tsv rows.tsv > out.tsv &&
	grep "^##stall-table	kernel	" out.tsv | cut -f 3 > name &&
	printf "k\\\\x1b[2J\\\\x7f\355\263\277\n" > expect &&
	test_cmp expect name
'

test_expect_success 'a valid HEADER and then 1 MiB of random bytes: an error, not a table' '
	python3 -c "import random, sys; sys.stdout.buffer.write(bytes.fromhex(\"9101906800000000\") + random.Random(7).randbytes(1048568))" > noise.att &&
	test_expect_code 2 test_mem sqtt-dump --raw noise.att > out 2> err.abs &&
	sed "s|$(pwd -P)/||" err.abs > err &&
	echo "sqtt-dump: noise.att: event 0: 27633 of 393747 tokens UNKNOWN: random bytes or a damaged stream, not gfx11 SQTT" > expect &&
	test_cmp expect err &&
	python3 "$MK" noise.pkl 4 plain noise.att &&
	test_expect_code 2 stall noise.pkl > out 2> err.abs &&
	sed "s|$(pwd -P)/||" err.abs > err &&
	echo "stall: noise.pkl: event 0: 27633 of 393747 tokens UNKNOWN: random bytes or a damaged stream, not gfx11 SQTT" > expect &&
	test_cmp expect err
'

test_expect_success 'random bytes after a gfx12 HEADER: the error names gfx12' '
	sqtt-encode -o s12.att "$TOP/fixtures/gfx12/sync12.packets.tsv" &&
	head -c 8 s12.att > noise12.att &&
	python3 -c "import random, sys; sys.stdout.buffer.write(random.Random(7).randbytes(1048568))" >> noise12.att &&
	test_expect_code 2 sqtt-dump --raw noise12.att > out 2> err.abs &&
	sed "s|$(pwd -P)/||" err.abs > err &&
	echo "sqtt-dump: noise12.att: event 0: 38266 of 408733 tokens UNKNOWN: random bytes or a damaged stream, not gfx12 SQTT" > expect &&
	test_cmp expect err
'

test_expect_success 'a capture directory whose files are links out of it or devices' '
	mkdir roc &&
	ln -s /etc/passwd roc/x_shader_engine_0_0.att &&
	test_expect_code 2 sqtt-dump roc > out 2> err.abs &&
	sed "s|$(pwd -P)/||" err.abs > err &&
	echo "sqtt-dump: roc: x_shader_engine_0_0.att is not a regular file inside the capture directory" > expect &&
	test_cmp expect err &&
	cp -r "$DEMO" cap &&
	rm cap/stall_code_object_id_0.out &&
	ln -s /dev/zero cap/stall_code_object_id_0.out &&
	test_expect_code 2 sqtt-dump cap > out 2> err.abs &&
	sed "s|$(pwd -P)/||" err.abs > err &&
	echo "sqtt-dump: cap: stall_code_object_id_0.out is not a regular file inside the capture directory" > expect &&
	test_cmp expect err
'

test_expect_success 'a gzip bomb that starts as a pickle stops at 32 MiB' '
	{ printf "\200\004" && head -c 41943040 /dev/zero; } | gzip -1 > pbomb.pkl.gz &&
	test_expect_code 2 test_mem sqtt-dump pbomb.pkl.gz > out 2> err &&
	echo "sqtt-dump: pbomb.pkl.gz: more than 64 times its compressed size once decompressed (a gzip bomb?)" > expect &&
	test_cmp expect err
'

test_expect_success 'a gzip bomb that is no pickle stops at its first byte' '
	head -c 67108864 /dev/zero | gzip -1 > bomb.pkl.gz &&
	test_expect_code 2 test_mem sqtt-dump bomb.pkl.gz > out 2> err &&
	echo "sqtt-dump: bomb.pkl.gz: not a pickle of protocol 2 to 5 (first byte 0x00); a raw stream wants --raw" > expect &&
	test_cmp expect err
'

test_expect_success '--raw --code: the code path is absolute, and a missing file is an error' '
	cp "$DEMO/stall_code_object_id_0.out" code.out &&
	cp "$DEMO/stall_shader_engine_0_0.att" s.att &&
	sqtt-dump --raw --code code.out --base 0x1000 s.att > out &&
	test "$(grep "^##code" out | cut -f 6)" = "$(pwd -P)/code.out" &&
	test_expect_code 2 sqtt-dump --raw --code nosuch.out --base 0x1000 s.att > out 2> err &&
	echo "sqtt-dump: nosuch.out: No such file or directory" > expect &&
	test_cmp expect err
'

test_expect_success 'a code object larger than 64 MiB is not copied (sqtt-encode -d), 64 MiB is' '
	mkdir big &&
	{ printf "\177ELF" && head -c $((67108864 - 4)) /dev/zero; } > big/c.out &&
	printf "##code\tk\t7\t0x1000\t0\t$(pwd -P)/big/c.out\n#event\tse\tnib\ttime\ttype\twave\tsimd\twgp\tsa\top\traw\n0\t0\t-\t0\tHEADER\t-\t0\t0\t0\t-\t-\n" > p.tsv &&
	sqtt-encode -d cap.at p.tsv &&
	test $(wc -c < cap.at/stall_code_object_id_0.out) -eq 67108864 &&
	rm -rf cap.at &&
	printf x >> big/c.out &&
	test_expect_code 2 sqtt-encode -d cap.past p.tsv 2> err.abs &&
	sed "s|$(pwd -P)/||" err.abs > err &&
	echo "sqtt-encode: big/c.out: more than 67108864 bytes (a code object)" > expect &&
	test_cmp expect err
'

# ##code lines between the records of an event grow the walker's program array while
# waves are open: nothing may keep a pointer into it (ASan builds catch a stale one).
test_expect_success 'sqtt-walk: code lines between the records of an event' '
	sqtt-dump "$DEMO" > packets &&
	awk -F"\t" "/^#/ { print; next } { print } \$5 == \"WAVE_START\" { for (i = 0; i < 40; i++) printf \"##code\tp%d\t%d\t0x1000\t0\t-\n\", i, 100 + i }" packets > grown &&
	{ sqtt-walk grown > out 2> err; st=$?; } &&
	case $st in 0|2) ;; *) echo "status $st"; cat err; false ;; esac
'

test_done
