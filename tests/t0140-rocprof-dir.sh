#!/bin/sh
# sqtt-dump reads a rocprofv3 --att directory: streams, code objects, load bases.
. "$(dirname "$0")/lib.sh"
need_shared

F=$FIXTURES/20260314_profile_plus_run_0_b90bfc1.pkl
test_expect_success 'a rocprofv3-style directory decodes like the pickle it came from' '
	sqtt-dump -x objs -X streams "$F" > pickle.tsv &&
	mkdir att &&
	for e in 0 1 2 3 4 5; do cp streams/$e.att att/4242_shader_engine_${e}_3.att || exit 1; done &&
	cp objs/E_3.hsaco att/4242_code_object_id_2.out &&
	printf "{\"code_objects\": [{\"code_object_id\": 2, \"load_base\": 35184388898816}]}\n" > att/4242_results.json &&
	sqtt-dump att > dir.tsv &&
	grep -v "^##" pickle.tsv > expect &&
	grep -v "^##" dir.tsv > actual &&
	test_cmp expect actual &&
	grep "^##code" dir.tsv > actual.code &&
	printf "##code\tE_3\t2\t0x200001008000\t4152\t%s/att/4242_code_object_id_2.out\n" "$(pwd -P)" > expect.code &&
	test_cmp expect.code actual.code
'

test_expect_success 'and walks to the same rows' '
	sqtt-dump "$F" >stage23.0.out && <stage23.0.out sqtt-walk >stage23.1.out && <stage23.1.out grep -v "^#" | cut -f1,2,4-12 > expect.rows &&
	sqtt-dump att >stage24.0.out && <stage24.0.out sqtt-walk >stage24.1.out && <stage24.1.out grep -v "^#" | cut -f1,2,4-12 > actual.rows &&
	test_cmp expect.rows actual.rows &&
	test "$(wc -l < actual.rows)" -eq 12
'

test_expect_success '--base ID=ADDR and --base ADDR stand in for the JSON' '
	rm att/4242_results.json &&
	sqtt-dump --base 2=0x200001008000 att >stage31.0.out && <stage31.0.out grep "^##code" > actual &&
	printf "##code\tE_3\t2\t0x200001008000\t4152\t%s/att/4242_code_object_id_2.out\n" "$(pwd -P)" > expect &&
	test_cmp expect actual &&
	sqtt-dump --base 0x200001008000 --name E3 att >stage34.0.out && <stage34.0.out grep "^##code" > actual &&
	printf "##code\tE3\t2\t0x200001008000\t4152\t%s/att/4242_code_object_id_2.out\n" "$(pwd -P)" > expect &&
	test_cmp expect actual
'

test_done
