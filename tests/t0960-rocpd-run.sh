#!/bin/sh
# A rocprofv3 run as ROCm 7 writes it by default: HOST/PID_ names, the rocpd SQLite
# database, no results JSON; with and without --kernel-trace.  Every fixture written so
# (sqtt-encode -d --rocpd) walks to the rows of the capture it came from, its kernels
# named without .kd, with no warning; a database made by the sqlite3 CLI from the
# documented tables reads the same; the JSON and rocpd readers give one --by-dispatch.
. "$(dirname "$0")/lib.sh"

command -v sqlite3 >/dev/null 2>&1 && test_set_prereq SQLITE3

rows() {	# rows CAPTURE: the costed rows, without the ## lines (their paths differ)
	sqtt-dump "$1" > rows.p 2> rows.err && sqtt-walk rows.p > rows.w 2>/dev/null &&
	stall-attr rows.w > rows.a && grep -v "^#" rows.a | awk -F"\t" -v OFS="\t" "{ NF--; print }"
}

# mkrun CAPTURE DIR [--kernel-trace]: the capture as a default rocprofv3 run, with the
# folders and files AMD's decoder writes beside the streams.
mkrun() {
	sqtt-dump -a "$1" > run.tsv && sqtt-encode -d "$2" --rocpd ${3-} run.tsv &&
	host=$(ls "$2") && pid=$(ls "$2/$host" | sed -n "s/_results\.db$//p") &&
	mkdir "$2/$host/ui_output_agent_2_dispatch_1" &&
	echo "Kernel,Hitcount" > "$2/$host/stats_ui_output_agent_2_dispatch_1.csv" &&
	echo "[]" > "$2/$host/ui_output_agent_2_dispatch_1/code.json"
}

test_expect_success 'the layout: HOST/PID_AGENT_shader_engine_SE_DISPATCH.att, PID_TARGET_code_object_id_N.out, PID_results.db' '
	mkrun "$TOP/fixtures/demo" demo.run &&
	test "$(ls demo.run | wc -l)" -eq 1 &&
	(cd demo.run/* && ls | sed "s/^[0-9]*_/PID_/") > actual &&
	cat > expect <<-EOF &&
	PID_2_shader_engine_0_0.att
	PID_2_shader_engine_1_1.att
	PID_gfx1100_code_object_id_1.out
	PID_results.db
	stats_ui_output_agent_2_dispatch_1.csv
	ui_output_agent_2_dispatch_1
	EOF
	test_cmp expect actual &&
	test "$pid" = "$(ls demo.run/$host | sed -n "s/_gfx1100_code_object_id_1\.out$//p")"
'

test_expect_success SQLITE3 'the database: schema 3, uuid tables under plain views, NAME.kd and the formatted name' '
	db=$(ls demo.run/*/*_results.db) &&
	sqlite3 "$db" "SELECT value FROM rocpd_metadata WHERE tag = '\''schema_version'\''" > actual &&
	echo 3 > expect && test_cmp expect actual &&
	sqlite3 "$db" "SELECT name FROM sqlite_master WHERE type = '\''table'\'' AND name LIKE '\''rocpd_info_code_object_%'\''" | wc -l > actual &&
	echo 1 > expect && test_cmp expect actual &&
	sqlite3 "$db" "SELECT kernel_name, display_name, code_object_id FROM rocpd_info_kernel_symbol" > actual &&
	echo "demo.kd|demo|1" > expect && test_cmp expect actual &&
	sqlite3 "$db" "SELECT id, name, json_extract(extdata, '\''\$.id.handle'\'') FROM rocpd_info_agent WHERE type = '\''GPU'\''" > actual &&
	echo "1|gfx1100|2" > expect && test_cmp expect actual &&
	sqlite3 "$db" "SELECT count(*) FROM rocpd_kernel_dispatch" > actual &&
	echo 0 > expect && test_cmp expect actual
'

# fixtures/demo and, where ../shared is, the 9 tinygrad captures: with --kernel-trace
# and without (no dispatch rows: each stream's program by its entry alone).
set -- "$TOP/fixtures/demo"
test_have_prereq SHARED && set -- "$@" "$FIXTURES"/*.pkl
n=0
for f in "$@"; do
	b=$(basename "$f" .pkl)
	for kt in "" --kernel-trace; do
		n=$((n + 1))
		test_expect_success "$b as a default rocprofv3 run ${kt:-without --kernel-trace}: the same rows, kernels without .kd, no warning" "
			rows '$f' > expect &&
			grep '^##event' rows.p | cut -f 3,4,11 > expect.ev &&
			mkrun '$f' run.$n $kt &&
			! ls run.$n/*/*.json 2>/dev/null &&
			rows run.$n > actual &&
			test_cmp /dev/null rows.err &&
			test_cmp expect actual &&
			grep '^##event' rows.p | cut -f 3,4,11 > actual.ev &&
			test_cmp expect.ev actual.ev &&
			! grep -q '\\.kd' rows.p &&
			grep '^##target' rows.p > actual &&
			printf '##target\tgfx1100\n' > expect &&
			test_cmp expect actual
		"
	done
done

test_expect_success 'a results JSON of NAME.kd symbols: no warning that the entry is NAME' '
	sqtt-dump -a "$TOP/fixtures/demo" > demo.tsv &&
	sqtt-encode -d json.run --no-index demo.tsv &&
	grep -q "\"kernel_name\": \"demo.kd\"" json.run/stall_results.json &&
	sqtt-dump json.run > out 2> err &&
	test_cmp /dev/null err &&
	grep "^##code" out | cut -f 2 > actual &&
	echo demo > expect && test_cmp expect actual
'

test_expect_success SHARED 'a results JSON of NAME.kd and no formatted name, streams with an entry: the ELF name, no warning' '
	sqtt-dump -a "$FIXTURES/20260314_profile_plus_run_0_b90bfc1.pkl" > plus.tsv &&
	sqtt-encode -d plus.run --no-index plus.tsv &&
	sed "s/, \"formatted_kernel_name\": \"[^\"]*\"//" plus.run/stall_results.json > j &&
	! grep -q formatted_kernel_name j && grep -q "\"E_3.kd\"" j &&
	mv j plus.run/stall_results.json &&
	sqtt-dump plus.run > out 2> err &&
	test_cmp /dev/null err &&
	grep "^##code" out | cut -f 2 > actual &&
	echo E_3 > expect && test_cmp expect actual
'

test_expect_success SHARED 'the JSON reader and the rocpd reader: one stall --by-dispatch table' '
	f="$FIXTURES/20260202_profile_gemm_run_0_ccf477c.pkl" &&
	sqtt-dump -a "$f" > gemm.tsv &&
	sqtt-encode -d gemm.json --no-index gemm.tsv &&
	sqtt-encode -d gemm.rocpd --rocpd --kernel-trace gemm.tsv &&
	stall --by-dispatch gemm.json > expect 2> err.json &&
	stall --by-dispatch gemm.rocpd > actual 2> err.rocpd &&
	test_cmp expect actual &&
	test_cmp /dev/null err.json && test_cmp /dev/null err.rocpd &&
	test "$(grep -vc "^#" actual)" -eq 3
'

# The database as the sqlite3 CLI makes it from rocpd_tables.sql's columns (the tables
# sqtt-dump reads, a uuid suffix, the plain views), for fixtures/demo's run.
mkdb() {	# mkdb DB SCHEMA_VERSION [EXTRA METADATA SQL]
	u=_0197c3a1_1111_7222_8333_944455556666
	sqlite3 "$1" <<-EOF
	CREATE TABLE "rocpd_metadata$u" (id INTEGER PRIMARY KEY AUTOINCREMENT, tag TEXT NOT NULL, value TEXT NOT NULL);
	CREATE TABLE "rocpd_info_agent$u" (id INTEGER PRIMARY KEY, guid TEXT, nid INTEGER, pid INTEGER, type TEXT, absolute_index INTEGER, logical_index INTEGER, type_index INTEGER, uuid INTEGER, name TEXT, model_name TEXT, vendor_name TEXT, product_name TEXT, user_name TEXT, extdata JSONB DEFAULT '{}' NOT NULL);
	CREATE TABLE "rocpd_info_code_object$u" (id INTEGER PRIMARY KEY, guid TEXT, nid INTEGER, pid INTEGER, agent_id INTEGER, uri TEXT, load_base BIGINT, load_size BIGINT, load_delta BIGINT, storage_type TEXT, extdata JSONB DEFAULT '{}' NOT NULL);
	CREATE TABLE "rocpd_info_kernel_symbol$u" (id INTEGER PRIMARY KEY, guid TEXT, nid INTEGER, pid INTEGER, code_object_id INTEGER NOT NULL, kernel_name TEXT, display_name TEXT, kernel_object INTEGER, kernarg_segment_size INTEGER, kernarg_segment_alignment INTEGER, group_segment_size INTEGER, private_segment_size INTEGER, sgpr_count INTEGER, arch_vgpr_count INTEGER, accum_vgpr_count INTEGER, extdata JSONB DEFAULT '{}' NOT NULL);
	CREATE TABLE "rocpd_kernel_dispatch$u" (id INTEGER PRIMARY KEY, guid TEXT, nid INTEGER, pid INTEGER, tid INTEGER, agent_id INTEGER NOT NULL, kernel_id INTEGER NOT NULL, dispatch_id INTEGER NOT NULL, queue_id INTEGER NOT NULL, stream_id INTEGER NOT NULL, start BIGINT NOT NULL, end BIGINT NOT NULL, extdata JSONB DEFAULT '{}' NOT NULL);
	CREATE VIEW rocpd_metadata AS SELECT * FROM "rocpd_metadata$u";
	CREATE VIEW rocpd_info_agent AS SELECT * FROM "rocpd_info_agent$u";
	CREATE VIEW rocpd_info_code_object AS SELECT * FROM "rocpd_info_code_object$u";
	CREATE VIEW rocpd_info_kernel_symbol AS SELECT * FROM "rocpd_info_kernel_symbol$u";
	CREATE VIEW rocpd_kernel_dispatch AS SELECT * FROM "rocpd_kernel_dispatch$u";
	INSERT INTO "rocpd_metadata$u" (tag, value) VALUES ('schema_version', '$2'), ('uuid', '$u')${3-};
	INSERT INTO "rocpd_info_agent$u" (id, type, name, extdata) VALUES (3, 'CPU', 'AMD Ryzen', '{"id": {"handle": 5}}'), (4, 'GPU', 'gfx1101', '{"id": {"handle": 7}, "name": "gfx1101"}');
	INSERT INTO "rocpd_info_code_object$u" (id, agent_id, load_base, load_size, load_delta, storage_type) VALUES (9, 4, 4096, 65536, 4096, 'MEMORY');
	INSERT INTO "rocpd_info_kernel_symbol$u" (id, code_object_id, kernel_name, display_name, kernel_object, extdata) VALUES (11, 9, 'demo.kd', '', 4352, '{"kernel_code_entry_byte_offset": -1024}');
	INSERT INTO "rocpd_kernel_dispatch$u" (agent_id, kernel_id, dispatch_id, queue_id, stream_id, start, end) VALUES (4, 11, 0, 1, 0, 0, 0), (4, 11, 1, 1, 0, 0, 0);
	EOF
}

test_expect_success SQLITE3 'a database made by the sqlite3 CLI: the agent handle of the names, its target, the entry in extdata' '
	mkdir cli.run &&
	d="$TOP/fixtures/demo" &&
	cp "$d/stall_shader_engine_0_0.att" cli.run/77_7_shader_engine_0_0.att &&
	cp "$d/stall_shader_engine_1_1.att" cli.run/77_7_shader_engine_1_1.att &&
	cp "$d/stall_code_object_id_0.out" cli.run/77_gfx1101_code_object_id_9.out &&
	mkdb cli.run/77_results.db 3 &&
	sqtt-dump cli.run > out 2> err &&
	test_cmp /dev/null err &&
	grep "^##target" out > actual &&
	printf "##target\tgfx1101\n" > expect && test_cmp expect actual &&
	grep "^##code" out | cut -f 2-4 > actual &&
	printf "demo\t9\t0x1000\n" > expect && test_cmp expect actual &&
	grep "^##event" out | cut -f 2,3,4,11 > actual &&
	printf "0\t0\tdemo\t0\n1\t1\tdemo\t1\n" > expect && test_cmp expect actual
'

test_expect_success SQLITE3 'a compressed database, another schema, no metadata, no SQLite: one line, exit 2' '
	mkdir z.run && cp cli.run/*.att z.run/ &&
	mkdb z.run/77_results.db 4 ", ('\''compression'\'', '\''lz4-frame-v1'\'')" &&
	test_expect_code 2 sqtt-dump z.run > out 2> err &&
	echo "sqtt-dump: $(pwd -P)/z.run/77_results.db: a compressed rocpd database (compression lz4-frame-v1, schema_version 4): its extdata is not JSON; only the uncompressed schema 3 is read" > expect &&
	test_cmp expect err &&
	rm z.run/77_results.db && mkdb z.run/77_results.db 2 &&
	test_expect_code 2 sqtt-dump z.run > out 2> err &&
	echo "sqtt-dump: $(pwd -P)/z.run/77_results.db: rocpd schema_version 2: only schema 3 is read" > expect &&
	test_cmp expect err &&
	rm z.run/77_results.db && sqlite3 z.run/77_results.db "CREATE TABLE t (x)" &&
	test_expect_code 2 sqtt-dump z.run > out 2> err &&
	echo "sqtt-dump: $(pwd -P)/z.run/77_results.db: rocpd_metadata: no such table: rocpd_metadata: not a rocpd database of schema 3" > expect &&
	test_cmp expect err &&
	rm z.run/77_results.db && head -c 4096 /dev/urandom > z.run/77_results.db &&
	test_expect_code 2 sqtt-dump z.run > out 2> err &&
	echo "sqtt-dump: $(pwd -P)/z.run/77_results.db: not an SQLite database: not a rocpd database" > expect &&
	test_cmp expect err
'

test_expect_success SQLITE3 'a view that never ends is one line, not a hang' '
	mkdir loop.run && cp cli.run/*.att cli.run/*.out loop.run/ &&
	sqlite3 loop.run/77_results.db "CREATE VIEW rocpd_metadata AS WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT '\''schema_version'\'' AS tag, (SELECT max(x) FROM c) AS value" &&
	test_expect_code 2 sqtt-dump loop.run > out 2> err &&
	echo "sqtt-dump: $(pwd -P)/loop.run/77_results.db: rocpd_metadata takes more than 100000000 steps: not a rocpd database" > expect &&
	test_cmp expect err &&
	sqlite3 loop.run/77_results.db "DROP VIEW rocpd_metadata; CREATE VIEW rocpd_metadata AS WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT '\''schema_version'\'' AS tag, x AS value FROM c" &&
	test_expect_code 2 sqtt-dump loop.run > out 2> err &&
	echo "sqtt-dump: $(pwd -P)/loop.run/77_results.db: rocpd_metadata: more than 1000000 rows" > expect &&
	test_cmp expect err
'

test_expect_success 'a shader engine past 255 or 2^32, a leading zero: one line, exit 2' '
	for n in 4294967296_0 256_0 00_0 0_00; do
		mkdir se.$n && cp demo.run/*/*_shader_engine_0_0.att se.$n/1_shader_engine_0_0.att &&
		cp demo.run/*/*_shader_engine_0_0.att se.$n/1_shader_engine_$n.att &&
		test_expect_code 2 sqtt-dump se.$n > out 2> err &&
		echo "sqtt-dump: $(pwd -P)/se.$n/1_shader_engine_$n.att: no shader engine 0..255 and dispatch id in the name" > expect &&
		test_cmp expect err || return 1
	done
'

test_expect_success 'two streams of one dispatch and shader engine: one line, exit 2' '
	mkdir two && cp demo.run/*/*_shader_engine_0_0.att two/1_2_shader_engine_0_0.att &&
	cp demo.run/*/*_shader_engine_0_0.att two/1_3_shader_engine_0_0.att &&
	test_expect_code 2 sqtt-dump two > out 2> err &&
	echo "sqtt-dump: $(pwd -P)/two: two streams of dispatch 0 on shader engine 0: 1_2_shader_engine_0_0.att and 1_3_shader_engine_0_0.att" > expect &&
	test_cmp expect err
'

test_done
