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

#endif
