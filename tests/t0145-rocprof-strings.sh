#!/bin/sh
# t0145-rocprof-strings: rocprofv3 writes some of its JSON's numbers as strings, in
# decimal or in hex (0x...): each form of the code object's load_base and the kernel's
# kernel_object reads as the same address (issue 24's survivor: the strings read in
# decimal only, 0x... ignored).  The run is sqtt-encode -d's of fixtures/demo, whose
# code object sqtt-encode loads at 0x7f3a2c000000 and whose descriptor is 0x280 in.
. "$(dirname "$0")/lib.sh"

test_expect_success 'the run, with its numbers as numbers' '
	sqtt-dump "$TOP/fixtures/demo" > p.tsv &&
	sqtt-encode -d run --no-index p.tsv &&
	grep -q "\"load_base\": 139887823028224," run/stall_results.json &&
	grep -q "\"kernel_object\": 139887823028864," run/stall_results.json &&
	sqtt-dump run > d.tsv &&
	grep "^##code" d.tsv | cut -f 2,4 > actual &&
	printf "demo\t0x7f3a2c000000\n" > expect &&
	test_cmp expect actual
'

for form in '"139887823028224"|"139887823028864"' '"0x7f3a2c000000"|"0x7f3a2c000280"' '"0X7F3A2C000000"|"0x7F3A2C000280"'; do
	base=${form%|*} obj=${form#*|}
	test_expect_success "load_base $base, kernel_object $obj: the same code object, the same rows" "
		rm -rf s && cp -r run s &&
		sed -e 's/\"load_base\": 139887823028224,/\"load_base\": $base,/' \
		    -e 's/\"load_delta\": 139887823028224,/\"load_delta\": $base,/' \
		    -e 's/\"kernel_object\": 139887823028864,/\"kernel_object\": $obj,/' \
		    run/stall_results.json > s/stall_results.json &&
		grep -q '\"load_base\": $base' s/stall_results.json &&
		grep -q '\"kernel_object\": $obj' s/stall_results.json &&
		sqtt-dump s > s.tsv 2> err &&
		test_cmp /dev/null err &&
		sed -e 's|/s/|/run/|g' -e 's|/s\$|/run|' s.tsv > actual &&
		test_cmp d.tsv actual
	"
done

test_done
