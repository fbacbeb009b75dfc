/* worker_test PATH N: the pipeline run on the capture at PATH N times with two workers
 * (--threads 2), each run's error printed ("run I: ERROR"), then "returned N times": a
 * worker's error is returned by pipeline_run, it never ends the process.  Exit 0 when
 * every run failed with an error, 1 otherwise.
 * worker_test -s PATH N: N runs on one thread into one profile, the profile's lines and
 * hits after each ("run I: lines L hits H"): a run into a profile that has lines adds to
 * them, and makes none twice.  Exit 0 when every run succeeded. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pipeline.h"

static int
same_profile(const char *path, int n)
{
	struct pipeline_opts o = { 0 };
	struct pipeline *pl;
	struct profile prof;
	char why[4096];
	uint64_t hits;
	size_t j;
	int i;

	o.threads = 1;
	profile_init(&prof, 0);
	for (i = 0; i < n; i++) {
		if ((pl = pipeline_open(path, &o, why, sizeof(why))) == NULL ||
		    pipeline_run(pl, &prof, NULL, NULL) != 0) {
			printf("run %d: %s\n", i, pl ? pipeline_error(pl) : why);
			return 1;
		}
		for (j = 0, hits = 0; j < prof.nall; j++)
			hits += prof.all[j]->hits;
		printf("run %d: lines %zu hits %" PRIu64 "\n", i, prof.nall, hits);
		pipeline_close(pl);
	}
	profile_free(&prof);
	return 0;
}

int
main(int argc, char **argv)
{
	struct pipeline_opts o = { 0 };
	struct pipeline *pl;
	struct profile prof;
	char why[4096];
	int i, n, failed = 0;

	if (argc == 4 && strcmp(argv[1], "-s") == 0)
		return same_profile(argv[2], atoi(argv[3]));
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
