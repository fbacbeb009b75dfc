/* dispatch: rows by the dispatch their trace buffer traced (the last field of the
 * ##event lines, sqtt-dump(1)): the rows of one dispatch (--dispatch N), and the view of
 * the application, one line per dispatch (--by-dispatch, stall-table(1)). */
#ifndef DISPATCH_H
#define DISPATCH_H
#include <stdint.h>
#include <stdio.h>

struct profile;
struct tsv;

struct dispatches;

/* only >= 0: keep the rows of that dispatch; by: count each dispatch as a kernel of its
 * own, for dispatch_put. */
struct dispatches *dispatch_new(long long only, int by);
void dispatch_free(struct dispatches *);
/* With by: count only the rows of this kernel (the string must outlive ds). */
void dispatch_only_kernel(struct dispatches *, const char *kernel);
/* Buffer event traced dispatch (-1: unknown); a later word on an event wins. */
void dispatch_event(struct dispatches *, uint64_t event, int64_t dispatch);
/* The kernel a row of event and kernel is counted under: 1 with *key kernel or a key of
 * its dispatch, 0 for a row left out, -1 with why past the limit of dispatches. */
int dispatch_kernel(struct dispatches *, uint64_t event, const char *kernel, const char **key,
    char *why, size_t whysz);
/* profile.row_kernel for a row stream (kernel_hook: the dispatches): the events' dispatches
 * from the ##event lines the profile has kept, the event from the row's event column. */
int dispatch_row_hook(void *, const struct tsv *, const char **kernel, char *why,
    size_t whysz);
void dispatch_watch(struct dispatches *, const struct profile *);
/* The dispatch of buffer event (-1: unknown), from the ##event lines the watched
 * profile has kept so far; a malformed one is kept for dispatch_error (and the events
 * after it are unknown). */
int64_t dispatch_of_event(struct dispatches *, uint64_t event);
/* The first malformed ##event line dispatch_of_event met, as a message; NULL: none. */
const char *dispatch_error(const struct dispatches *);
/* Rows kept so far. */
uint64_t dispatch_rows(const struct dispatches *);
/* The one line per dispatch, from the profile counted under the keys (profile_finish
 * done, with PROFILE_WALL): TSV, or aligned text. */
void dispatch_put(struct dispatches *, const struct profile *, int pretty, FILE *);

#endif
