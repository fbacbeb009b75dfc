/* cause: the causes stall-attr(1) gives a row's wait, and the table columns they have in
 * stall-table(1).  The order is the order of the table's columns: never rename one, add
 * new ones before "untraced". */
#ifndef CAUSE_H
#define CAUSE_H
#include <stddef.h>

struct cause {
	const char *name;	/* as stall-attr writes it */
	const char *col;	/* its column in a stall table */
};

#define NCAUSE 22
#define CAUSE_UNTRACED (NCAUSE - 3)	/* a wave that says nothing of its instructions */
#define CAUSE_NONE (NCAUSE - 2)	/* "-": rows without a cause column */
#define CAUSE_OTHER (NCAUSE - 1)	/* a cause this toolkit does not know */

extern const struct cause causes[NCAUSE];

/* The index of a cause by name ("other" included), or -1. */
int cause_find(const char *name);
/* The index of a cause by its column name (c_mem), or -1. */
int cause_find_col(const char *col);

#endif
