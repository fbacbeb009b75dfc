/* libFuzzer harness for the rocprofv3 run reader (rocprof_open through capture_open):
 * the input is a results JSON, after an optional first line "#NAME NAME ..." of more file
 * names for the directory (a name ending .att gets a stream, .out the code object), beside
 * fixtures/demo's streams and code object in the default layout.  Seeds: the results JSON
 * sqtt-encode -d writes of the fixtures (several kernels and files), rocprofv3-like ones. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "fuzz_exit.h"
#include "fuzz_run.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct capture c;
	char why[4096];
	const uint8_t *json = data;
	size_t n = size, i;

	run_reset();
	run_copy("stall_shader_engine_0_0.att", "1_2_shader_engine_0_0.att");
	run_copy("stall_shader_engine_1_1.att", "1_2_shader_engine_1_1.att");
	run_copy("stall_code_object_id_0.out", "1_gfx1100_code_object_id_0.out");
	if (n > 0 && data[0] == '#') {
		const uint8_t *nl = memchr(data, '\n', n);
		size_t m = nl ? (size_t)(nl - data) : n, j = 1;
		while (j < m) {
			char name[128];
			size_t k = 0;
			while (j < m && data[j] == ' ')
				j++;
			while (j < m && data[j] != ' ' && k < sizeof(name) - 1) {
				name[k++] = data[j] == '/' || data[j] == '\0' ? '_' : (char)data[j];
				j++;
			}
			name[k] = '\0';
			if (k == 0 || name[0] == '.')
				continue;
			if (k > 4 && strcmp(name + k - 4, ".att") == 0)
				run_copy("stall_shader_engine_0_0.att", name);
			else if (k > 4 && strcmp(name + k - 4, ".out") == 0)
				run_copy("stall_code_object_id_0.out", name);
			else
				run_put(name, "", 0);
		}
		json = nl ? nl + 1 : data + n;
		n = size - (size_t)(json - data);
	}
	run_put("1_results.json", json, n);
	FUZZ_TRY({
		if (capture_open(&c, run_dir, NULL, why, sizeof(why)) == 0) {
			for (i = 0; i < c.nev; i++)
				if (c.ev[i].prog >= (int)c.nprog || c.ev[i].file == NULL)
					abort();
			capture_close(&c);
		}
	});
	return 0;
}
