/* libFuzzer harness for the rocpd reader: the input is an SQLite database, PID_results.db
 * of a run whose streams and code object are fixtures/demo's (agent handle 2, code object
 * 1), read through capture_open.  Seeds: the databases sqtt-encode -d --rocpd
 * [--kernel-trace] writes of the fixtures. */
#include <stdint.h>
#include <stdlib.h>

#include "capture.h"
#include "fuzz_exit.h"
#include "fuzz_run.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct capture c;
	char why[4096];
	size_t i;

	run_reset();
	run_copy("stall_shader_engine_0_0.att", "1_2_shader_engine_0_0.att");
	run_copy("stall_shader_engine_1_1.att", "1_2_shader_engine_1_1.att");
	run_copy("stall_code_object_id_0.out", "1_gfx1100_code_object_id_1.out");
	run_put("1_results.db", data, size);
	FUZZ_TRY({
		if (capture_open(&c, run_dir, NULL, why, sizeof(why)) == 0) {
			for (i = 0; i < c.nev; i++)
				if (c.ev[i].prog >= (int)c.nprog)
					abort();
			capture_close(&c);
		}
	});
	return 0;
}
