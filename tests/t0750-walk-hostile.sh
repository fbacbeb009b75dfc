#!/bin/sh
# t0750-walk-hostile: sqtt-walk on packet streams that are broken or made to mislead: no
# time is made up, buffers whose rows interleave are kept apart, names are not cut, a
# program that cannot be read does not stop the others, nothing is read without bound,
# and a capture of many programs is read once.
. "$(dirname "$0")/lib.sh"

DEMO="$TOP/fixtures/traces/demo.packets.tsv"

# rows FILE: the rows of a walk without the ## lines and the header
rows() {
	grep -v "^#" "$1"
}

test_expect_success 'a time that goes back within a wave: one line naming it, exit 2' '
	(cd "$TOP" && sqtt-dump "$TOP/fixtures/demo") > packets &&
	awk -F"\t" -v OFS="\t" "!/^#/ && \$1 == 0 && \$4 == 1401 { \$4 = 1399 } { print }" packets > back &&
	test_expect_code 2 sqtt-walk back > out 2> err &&
	test_one_line_error sqtt-walk err &&
	grep -q "back:[0-9]*: time 1399 is before the previous token of event 0 wave 2 (slot 2), at 1400\$" err
'

test_expect_success 'buffers whose rows interleave: each walked as if alone' '
	sqtt-walk packets > alone 2> err.alone &&
	{ grep "^#" packets && grep -v "^#" packets | awk -F"\t" "{ print \$4 \"\t\" NR \"\t\" \$0 }" |
		sort -n -k1,1 -k2,2 | cut -f3-; } > mixed &&
	test "$(grep -v "^#" mixed | cut -f1 | uniq | wc -l)" -gt 2 &&
	sqtt-walk mixed > walked 2> err.mixed &&
	rows alone | sort > expect &&
	rows walked | sort > actual &&
	test_cmp expect actual &&
	test $(rows alone | wc -l) -gt 50
'

test_expect_success 'a kernel name of 300 bytes and one with a tab: whole, one field' '
	long=$(printf "k%0299d" 0) &&
	sed "s/^##event	\\([01]\\)	\\([01]\\)	demo	/##event	\\1	\\2	$long	/; s/^##code	demo	/##code	$long	/" packets > named &&
	sqtt-walk named > out 2> err &&
	test "$(rows out | cut -f3 | sort -u)" = "$long" &&
	sed "s/^##event	\\([01]\\)	\\([01]\\)	demo	/##event	\\1	\\2	a\\\\tb	/; s/^##code	demo	/##code	a\\\\tb	/" packets > tabbed &&
	sqtt-walk tabbed > out 2> err &&
	test "$(rows out | cut -f3 | sort -u)" = "a\\tb" &&
	test "$(rows out | awk -F"\t" "{ print NF }" | sort -u)" = 13
'

test_expect_success 'a program whose code object is missing: the others still walked, exit 2' '
	code=$(grep "^##code" packets | cut -f6) &&
	cp "$code" copy.hsaco &&
	awk -F"\t" -v OFS="\t" -v here="$(pwd)" "
		/^##code/ { print; \$2 = \"ghost\"; \$6 = here \"/nothere.hsaco\"; print; next }
		/^##event/ && \$2 == 0 { \$4 = \"ghost\" } { print }" packets > ghost &&
	test_expect_code 2 sqtt-walk ghost > out 2> err &&
	test_one_line_error sqtt-walk err &&
	grep -q "nothere.hsaco: No such file or directory; its events are not walked" err &&
	test $(rows out | awk -F"\t" "\$1 == 0" | wc -l) -eq 0 &&
	test $(rows out | awk -F"\t" "\$1 == 1" | wc -l) -eq $(rows alone | awk -F"\t" "\$1 == 1" | wc -l) &&
	test $(rows alone | awk -F"\t" "\$1 == 1" | wc -l) -gt 0
'

test_expect_success 'sqtt-walk -c /dev/zero: stops at the code object limit, one line' '
	test_expect_code 2 sqtt-walk -c /dev/zero packets > out 2> err &&
	test_one_line_error sqtt-walk err &&
	grep -q "/dev/zero: more than 67108864 bytes (a code object)" err
'

test_expect_success PYTHON3 'a capture of 1000 programs is read once: in time' '
	python3 - "$TOP/fixtures/kernels/demo.hsaco" "$TOP/fixtures/demo/stall_shader_engine_0_0.att" many.pkl <<-\PY &&
	import pickle, sys
	class ProfileProgramEvent: pass
	class ProfileSQTTEvent: pass
	class ProfileDeviceEvent: pass
	def obj(cls, **kw):
	    o = cls(); o.__dict__.update(kw); return o
	code = open(sys.argv[1], "rb").read(); blob = open(sys.argv[2], "rb").read()
	ev = [obj(ProfileDeviceEvent, device="AMD", props={"gfx_target_version": 110000})]
	for i in range(1000):
	    ev.append(obj(ProfileProgramEvent, device="AMD", name="k%d" % i, lib=code, base=0x7f3a2c000000, tag=i))
	for i in range(1000):
	    ev.append(obj(ProfileSQTTEvent, device="AMD", kern=i, se=0, blob=blob, itrace=True))
	open(sys.argv[3], "wb").write(pickle.dumps(ev, protocol=5))
	PY
	sqtt-dump many.pkl > many.packets &&
	start=$(date +%s) &&
	sqtt-walk many.packets > many.rows 2> err &&
	end=$(date +%s) &&
	test $(rows many.rows | cut -f3 | sort -u | wc -l) -eq 1000 &&
	test $((end - start)) -lt 60 &&
	if test_part STRACE "the capture opened once"; then
		strace -f -e trace=openat -o trace sqtt-walk many.packets > /dev/null 2>&1 &&
		test $(grep -c "many.pkl" trace) -eq 1
	fi
'

test_done
