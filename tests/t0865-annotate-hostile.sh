#!/bin/sh
# t0865-annotate-hostile: what the input names is data, not the user's word.  The DWARF
# of fixtures/annotate/hostile.hsaco (scale's code under #line names: /dev/stdin,
# /etc/passwd, a ../ that climbs out, names holding a tab, ESC, a newline, a backslash)
# forges no field, row or terminal control in --lines and --annotate, and --annotate
# opens none of those files; a ##code file that is a FIFO is refused, not waited on.
. "$(dirname "$0")/lib.sh"

test_expect_success 'the rows of scale, on hostile.hsaco' '
	(cd "$TOP" && sqtt-walk fixtures/annotate/scale.packets.tsv) > scale.walk &&
	sed "s|	fixtures/annotate/scale.hsaco|	$TOP/fixtures/annotate/hostile.hsaco|" scale.walk > h.rows &&
	stall-attr h.rows > h.attr
'

test_expect_success '--lines: the names escaped, one field each, five rows' '
	stall-annotate --lines h.attr > out 2> err &&
	cat > expect <<-\EOF &&
	##stall-annotate	lines
	#kernel	source	cycles	percent	hits	insts	cause
	scale	fixtures/annotate/tab\there\x1b[2J.cl:4	1602	44.43	4	2	mem
	scale	/dev/stdin:1	1002	27.79	4	2	wave_start
	scale	fixtures/annotate/new\nline\\back.cl:5	600	16.64	2	1	drain
	scale	/etc/passwd:2	400	11.09	6	3	smem
	scale	fixtures/annotate/../../../../../../../../etc/passwd:3	2	0.06	2	1	issue_cycle
	EOF
	test_cmp expect out &&
	test_cmp /dev/null err &&
	awk -F"\t" "!/^##/ && NF != 7" out > bad && test_cmp /dev/null bad &&
	! grep -q "$(printf "\033")" out
'

# stdin a FIFO nobody writes to (open for writing here, so a read would wait for ever)
test_expect_success '--annotate: no file the DWARF names is opened; one warning each' '
	mkfifo never &&
	exec 3<>never &&
	test_when_finished "exec 3>&-" &&
	(cd "$TOP" && timeout 10 stall-annotate --annotate "$T_DIR/h.attr" > "$T_DIR/out" 2> "$T_DIR/err") <&3 &&
	cat > expect <<-\EOF &&
	stall-annotate: warning: /dev/stdin: source file outside the code object'"'"'s directory: not read (--source-dir DIR allows it)
	stall-annotate: warning: /etc/passwd: source file outside the code object'"'"'s directory: not read (--source-dir DIR allows it)
	stall-annotate: warning: fixtures/annotate/../../../../../../../../etc/passwd: source file outside the code object'"'"'s directory: not read (--source-dir DIR allows it)
	EOF
	test_cmp expect err &&
	! grep -q root: out &&
	! grep -q "$(printf "\033")" out &&
	grep -x " */etc/passwd:2" out > /dev/null &&
	grep -x " */dev/stdin:1" out > /dev/null
'

test_expect_success '--source-dir /etc lets /etc/passwd be read; a device under it is still refused' '
	stall-annotate --annotate --source-dir /etc h.attr > out 2> err &&
	grep -q "^ */etc/passwd:2  " out &&
	stall-annotate --annotate --source-dir /dev h.attr < /dev/null > out 2> err &&
	grep -q "/dev/stdin: source file is not a regular file: not read" err
'

test_expect_success 'a ##code file that is a FIFO: refused at once, one line' '
	mkfifo code.fifo &&
	sed "s|	[^	]*/fixtures/annotate/hostile.hsaco|	$T_DIR/code.fifo|" h.attr > fifo.attr &&
	test_expect_code 2 timeout 10 stall-annotate fifo.attr > out 2> err &&
	echo "stall-annotate: fifo.attr:6: $T_DIR/code.fifo: not a regular file" > expect &&
	test_cmp expect err
'

test_done
