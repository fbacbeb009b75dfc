#!/bin/sh
# t0987: a reader's error frees what the readers held (util.h, fatal_push) and is
# returned by capture_open, nothing exiting: through build/fatal_test, on
# captures that each end in an error deep in a reader (a results JSON's object, a rocpd
# database, capture.tsv's lines, an RGP file's chunks, a gzip stream cut short), 200
# times each.  The heap in use and the open descriptors stay the same from the 100th
# open on; each error is still its one line.
. "$(dirname "$0")/lib.sh"

DEMO="$TOP/fixtures/demo"
run() {	# run DIR: the demo's streams and code object, rocprofv3's way (no capture.tsv)
	mkdir "$1" && cp "$DEMO"/*.att "$DEMO"/*.out "$1"/
}

# GLIBC_TUNABLES: no per-thread cache of freed blocks, which mallinfo2 counts as in use
test_expect_success 'five readers, five fatal errors, 200 times each: nothing left behind' '
	run json && printf "{\"code_objects\": [{\"code_object_id\": 0, \"load_base\": \"zz\"}]}" > json/1_results.json &&
	run db && echo "not a database, but longer than a header of one" > db/1_results.db &&
	cp -r "$DEMO" tsv && printf "##code\tx\n" >> tsv/capture.tsv &&
	sqtt-dump --rgp whole.rgp "$DEMO" > /dev/null && head -c 2000 whole.rgp > cut.rgp &&
	{ printf "\200\004"; seq 1 200000; } | gzip -c > whole.gz &&
	head -c $(( $(wc -c < whole.gz) / 2 )) whole.gz > cut.pkl &&
	GLIBC_TUNABLES=glibc.malloc.tcache_count=0 "$TOP/build/fatal_test" json db tsv cut.rgp cut.pkl > actual 2> err &&
	printf "ok %s\n" json db tsv cut.rgp cut.pkl > expect &&
	test_cmp expect actual &&
	sort err | uniq -c | sed "s/^ *//" > actual &&
	d=$(pwd -P) &&
	cat > expect <<-EOF &&
	200 fatal_test: $d/cut.rgp: the CODE_OBJECT_DATABASE chunk at offset 1496 declares 2124 bytes (504 left in the file)
	200 fatal_test: $d/db/1_results.db: not an SQLite database: not a rocpd database
	200 fatal_test: $d/json/1_results.json: the load_base of code object 0 is not an address
	200 fatal_test: $d/tsv/capture.tsv:6: ##code wants NAME TAG BASE SIZE FILE
	200 fatal_test: cut.pkl: unexpected end of file (gzip data cut short)
	EOF
	test_cmp expect actual
'

test_done
