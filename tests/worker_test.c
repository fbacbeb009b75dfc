/* worker_test PATH N: the pipeline run on the capture at PATH N times with two workers
 * (--threads 2), each run's error printed ("run I: ERROR"), then "returned N times": a
 * worker's error is returned by pipeline_run, it never ends the process.  Exit 0 when
 * every run failed with an error, 1 otherwise. */
#include <stdio.h>
#include <stdlib.h>

#include "pipeline.h"

int
main(int argc, char **argv)
{
	struct pipeline_opts o = { 0 };
	struct pipeline *pl;
	struct profile prof;
	char why[4096];
	int i, n, failed = 0;

	if (argc != 3)
		return 2;
	n = atoi(argv[2]);
	o.threads = 2;
	for (i = 0; i < n; i++) {
		if ((pl = pipeline_open(argv[1], &o, why, sizeof(why))) == NULL) {
			printf("run %d: open: %s\n", i, why);
			continue;
		}
		profile_init(&prof, 0);
		if (pipeline_run(pl, &prof, NULL, NULL) != 0) {
			printf("run %d: %s\n", i, pipeline_error(pl));
			failed++;
		}
		profile_free(&prof);
		pipeline_close(pl);
	}
	printf("returned %d times\n", n);
	return failed == n ? 0 : 1;
}
