/* rocprof: a rocprofv3 --att run directory read into a capture (sqtt-dump(1), ROCPROFV3
 * RUNS, says what of rocprofv3's layout is relied on and where it comes from).  Every
 * stream becomes an event with its shader engine and dispatch id, its program found by
 * the entry address the stream's COMPUTE_PGM writes give; a stream whose program is not
 * found is a warning and left out; none found is fatal. */
#ifndef ROCPROF_H
#define ROCPROF_H

struct capture;
struct capture_opts;

void rocprof_open(struct capture *, const struct capture_opts *);

/* Writing a run as rocprofv3 writes one (sqtt-encode -d): the file names of its streams
 * and code objects, and its results. */
#include <stddef.h>
#include <stdint.h>
struct rocprof_layout {
	int rocpd;		/* the default run: HOST/PID_ names, PID_results.db, no JSON */
	int kernel_trace;	/* rocpd: dispatch records (the JSON has them always) */
	const char *target;	/* the GPU agent's name, NULL: gfx1100 */
	long pid;		/* private */
	char *host;
};
/* Set l up for a run written into dir (rocpd: the HOST folder made). */
void rocprof_layout_init(struct rocprof_layout *l, const char *dir);
void rocprof_layout_free(struct rocprof_layout *l);
/* File names relative to dir: a stream of shader engine se and a dispatch, and the code
 * object of the index-th program (the run's code object index + 1 under rocpd). */
char *rocprof_stream_name(const struct rocprof_layout *l, int se, int64_t dispatch);
char *rocprof_code_name(const struct rocprof_layout *l, size_t index);
struct rocprof_kernel {
	const char *name;	/* the kernel, NULL if unknown */
	uint64_t base, size;	/* the code object's load base and loaded extent */
	uint64_t entry, kd;	/* the entry and descriptor offsets, if has_entry */
	int has_entry;
};
struct rocprof_run_dispatch {
	int64_t id;
	long kernel;		/* index into the kernels, -1: none written */
};
/* The results: the JSON (stall_results.json) or the rocpd database; kernel i is in code
 * object i. */
void rocprof_write_results(const char *dir, const struct rocprof_layout *l,
    const struct rocprof_kernel *k, size_t nk, const struct rocprof_run_dispatch *d,
    size_t nd);

#endif
