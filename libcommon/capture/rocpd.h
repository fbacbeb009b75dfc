/* rocpd: the SQLite database rocprofv3 writes by default (PID_results.db), read and
 * written through libsqlite3.  Only what a thread trace run needs: its agents, code
 * objects, kernel symbols and kernel dispatches.  sqtt-dump(1), ROCPD DATABASES, says
 * what is relied on and where it comes from.  Errors: "prog: PATH: reason", exit 2. */
#ifndef ROCPD_H
#define ROCPD_H
#include <stddef.h>
#include <stdint.h>

/* Limits (sqtt-dump(1), LIMITS): rows of each table and the bytes of a name; SQLite's
 * own heap and the steps of one query, so that a hostile database (a view that never
 * ends) is one line, not a hang. */
#define ROCPD_ROWS_MAX 1000000
#define ROCPD_NAME_MAX 65536
#define ROCPD_HEAP_MAX (256LL << 20)
#define ROCPD_STEPS_MAX 100000000

struct rocpd_agent {
	long id;		/* the table's id (node id) */
	uint64_t handle;	/* extdata $.id.handle: the number in .att file names */
	int has_handle;
	char *name;		/* the gfx target, "gfx1100" */
	int gpu;
};

struct rocpd_code {
	long id;		/* code_object_id, the number in .out file names */
	long agent;
	uint64_t base, size, delta;	/* load_base, load_size, load_delta */
};

struct rocpd_symbol {
	int64_t id;		/* kernel_id */
	long code;		/* code_object_id */
	char *kernel_name;	/* the descriptor's symbol, NAME.kd */
	char *display_name;	/* the formatted name, NULL if empty */
	uint64_t kernel_object;	/* the descriptor's loaded address */
	int64_t entry_offset;	/* extdata $.kernel_code_entry_byte_offset */
	int has_entry;
};

struct rocpd_dispatch {
	int64_t id, kernel;
	long agent;
};

struct rocpd {
	struct rocpd_agent *agent;
	size_t nagent;
	struct rocpd_code *code;
	size_t ncode;
	struct rocpd_symbol *sym;
	size_t nsym;
	struct rocpd_dispatch *disp;
	size_t ndisp;
};

/* Read the database at path into r (zeroed first). */
void rocpd_read(const char *path, struct rocpd *r);
/* Write r as a new database at path (removed first if it is a regular file): the
 * tables rocprofv3 makes for these rows, under a uuid suffix, with their plain views
 * and the metadata (schema_version 3). */
void rocpd_write(const char *path, const struct rocpd *r, long pid);
void rocpd_free(struct rocpd *r);

#endif
