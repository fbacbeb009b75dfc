#include <stdint.h>
#include <string.h>

#include "cause.h"

const struct cause causes[NCAUSE] = {
	{ "wave start", "c_wave_start" },
	{ "mem", "c_mem" },
	{ "smem", "c_smem" },
	{ "lds", "c_lds" },
	{ "mem+smem", "c_mem_smem" },
	{ "mem+lds", "c_mem_lds" },
	{ "smem+lds", "c_smem_lds" },
	{ "mem+smem+lds", "c_mem_smem_lds" },
	{ "barrier", "c_barrier" },
	{ "depctr", "c_depctr" },
	{ "valu dep", "c_valu_dep" },
	{ "trans dep", "c_trans_dep" },
	{ "salu dep", "c_salu_dep" },
	{ "issue wait", "c_issue_wait" },
	{ "fetch", "c_fetch" },
	{ "vmem issue", "c_vmem_issue" },
	{ "lds queue", "c_lds_queue" },
	{ "drain", "c_drain" },
	{ "issue", "c_issue" },
	{ "untraced", "c_untraced" },
	{ "-", "c_none" },
	{ "other", "c_other" },
};

static unsigned
cause_hash(const char *s)
{
	unsigned h = 2166136261u;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h & 63;
}

/* Every row of a stream asks: causes are found by a hash of their name. */
int
cause_find(const char *name)
{
	static int8_t bucket[64];
	static int ready;
	unsigned h;
	int i;

	if (!ready) {
		memset(bucket, -1, sizeof(bucket));
		for (i = 0; i < NCAUSE; i++) {
			for (h = cause_hash(causes[i].name); bucket[h] >= 0; h = (h + 1) & 63)
				;
			bucket[h] = (int8_t)i;
		}
		ready = 1;
	}
	for (h = cause_hash(name); bucket[h] >= 0; h = (h + 1) & 63)
		if (strcmp(causes[bucket[h]].name, name) == 0)
			return bucket[h];
	return -1;
}

int
cause_find_col(const char *col)
{
	int i;

	for (i = 0; i < NCAUSE; i++)
		if (strcmp(causes[i].col, col) == 0)
			return i;
	return -1;
}
