/* rocpd: rocprofv3's SQLite database (rocpd.h). */
#include <errno.h>
#include <stdarg.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sqlite3.h>

#include "rocpd.h"
#include "util.h"

struct db {
	sqlite3 *h;
	const char *path;
	long steps;
};

/* What a fatal error closes (fatal_push): the database with its statements, so that
 * nothing of SQLite's is left behind it. */
static void
db_close(void *arg)
{
	struct db *d = arg;
	sqlite3_stmt *st;

	if (d->h == NULL)
		return;
	while ((st = sqlite3_next_stmt(d->h, NULL)) != NULL)
		sqlite3_finalize(st);
	sqlite3_close_v2(d->h);
	d->h = NULL;
}

static void
rocpd_free_v(void *r)
{
	rocpd_free(r);
}

static void
fail(struct db *d, const char *what)
{
	const char *why = d->h ? sqlite3_errmsg(d->h) : "cannot open";

	if (d->h != NULL && sqlite3_errcode(d->h) == SQLITE_NOTADB)
		die("%s: not an SQLite database: not a rocpd database", d->path);
	if (d->steps > ROCPD_STEPS_MAX)
		die("%s: %s takes more than %d steps: not a rocpd database", d->path, what,
		    ROCPD_STEPS_MAX);
	die("%s: %s: %s", d->path, what, why);
}

static int
progress(void *arg)
{
	struct db *d = arg;

	d->steps += 1000;
	return d->steps > ROCPD_STEPS_MAX;
}

static sqlite3_stmt *
prepare(struct db *d, const char *sql, const char *what)
{
	sqlite3_stmt *st;

	if (sqlite3_prepare_v2(d->h, sql, -1, &st, NULL) != SQLITE_OK) {
		const char *why = sqlite3_errmsg(d->h);
		if (strncmp(why, "no such table", 13) == 0 || strncmp(why, "no such column", 14) == 0)
			die("%s: %s: %s: not a rocpd database of schema 3", d->path, what, why);
		fail(d, what);
	}
	return st;
}

/* The next row of st, 0 at the end; more than ROCPD_ROWS_MAX rows is fatal. */
static int
step(struct db *d, sqlite3_stmt *st, size_t nrow, const char *what)
{
	int rc = sqlite3_step(st);

	if (rc == SQLITE_DONE)
		return 0;
	if (rc != SQLITE_ROW)
		fail(d, what);
	if (nrow >= ROCPD_ROWS_MAX)
		die("%s: %s: more than %d rows", d->path, what, ROCPD_ROWS_MAX);
	return 1;
}

static char *
text(struct db *d, sqlite3_stmt *st, int col, const char *what)
{
	const unsigned char *s = sqlite3_column_text(st, col);
	int n = sqlite3_column_bytes(st, col);

	if (s == NULL || n == 0)
		return NULL;
	if (n > ROCPD_NAME_MAX || memchr(s, '\0', (size_t)n) != NULL)
		die("%s: %s: a name of %d bytes or with a NUL byte", d->path, what, n);
	return xstrndup((const char *)s, (size_t)n);
}

static int
is_int(sqlite3_stmt *st, int col)
{
	return sqlite3_column_type(st, col) == SQLITE_INTEGER;
}

/* rocpd_metadata's schema_version: 3 is read; a compressed database (schema 4's
 * compression tag: its extdata columns are lz4 frames, not JSON) is refused by name. */
static void
check_schema(struct db *d)
{
	sqlite3_stmt *st = prepare(d, "SELECT tag, value FROM rocpd_metadata WHERE tag IN "
	    "('schema_version', 'compression')", "rocpd_metadata");
	char *version = NULL, *compression = NULL, *v;
	size_t n = 0;

	fatal_push(fatal_free_at, &version);
	fatal_push(fatal_free_at, &compression);
	while (step(d, st, n++, "rocpd_metadata")) {
		const char *tag = (const char *)sqlite3_column_text(st, 0);
		v = text(d, st, 1, "rocpd_metadata");
		if (tag != NULL && strcmp(tag, "compression") == 0 && compression == NULL)
			compression = v;
		else if (tag != NULL && strcmp(tag, "schema_version") == 0 && version == NULL)
			version = v;
		else
			free(v);
	}
	sqlite3_finalize(st);
	if (compression != NULL)
		die("%s: a compressed rocpd database (compression %.40s, schema_version %.20s): "
		    "its extdata is not JSON; only the uncompressed schema 3 is read", d->path,
		    compression, version ? version : "-");
	if (version == NULL)
		die("%s: rocpd_metadata has no schema_version: not a rocpd database", d->path);
	if (strcmp(version, "3") != 0)
		die("%s: rocpd schema_version %.20s: only schema 3 is read", d->path, version);
	fatal_pop(&compression);
	fatal_pop(&version);
	free(version);
}

#define GROW(arr, n) ((arr) = xreallocarray((arr), (n) + 1, sizeof(*(arr))), \
    memset(&(arr)[(n)], 0, sizeof(*(arr))), &(arr)[(n)++])

/* A JSON member of extdata, NULL where extdata is no JSON object. */
#define EXT(path) "CASE WHEN json_valid(extdata) THEN json_extract(extdata, '" path "') END"

void
rocpd_read(const char *path, struct rocpd *r)
{
	struct db d = { .path = path };
	sqlite3_stmt *st;
	struct stat sb;

	memset(r, 0, sizeof(*r));
	fatal_push(rocpd_free_v, r);
	if (stat(path, &sb) != 0)
		die("%s: %s", path, strerror(errno));
	if (!S_ISREG(sb.st_mode))
		die("%s: not a regular file: not a rocpd database", path);
	sqlite3_hard_heap_limit64(ROCPD_HEAP_MAX);
	fatal_push(db_close, &d);
	if (sqlite3_open_v2(path, &d.h, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, NULL) !=
	    SQLITE_OK)
		fail(&d, "open");
	/* the views are the file's own SQL: nothing they call may have effects */
	sqlite3_db_config(d.h, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, NULL);
	sqlite3_db_config(d.h, SQLITE_DBCONFIG_DEFENSIVE, 1, NULL);
	sqlite3_progress_handler(d.h, 1000, progress, &d);
	check_schema(&d);

	st = prepare(&d, "SELECT id, name, type, " EXT("$.id.handle") " FROM rocpd_info_agent "
	    "ORDER BY id", "rocpd_info_agent");
	while (step(&d, st, r->nagent, "rocpd_info_agent")) {
		struct rocpd_agent *a = GROW(r->agent, r->nagent);
		const char *type = (const char *)sqlite3_column_text(st, 2);
		a->id = (long)sqlite3_column_int64(st, 0);
		a->name = text(&d, st, 1, "rocpd_info_agent");
		a->gpu = type != NULL && strcmp(type, "GPU") == 0;
		if ((a->has_handle = is_int(st, 3)))
			a->handle = (uint64_t)sqlite3_column_int64(st, 3);
	}
	sqlite3_finalize(st);

	st = prepare(&d, "SELECT id, agent_id, load_base, load_size, load_delta FROM "
	    "rocpd_info_code_object ORDER BY id", "rocpd_info_code_object");
	while (step(&d, st, r->ncode, "rocpd_info_code_object")) {
		struct rocpd_code *k = GROW(r->code, r->ncode);
		if (!is_int(st, 0) || sqlite3_column_int64(st, 0) < 0 || !is_int(st, 2))
			die("%s: rocpd_info_code_object: a row without an id or load_base", path);
		k->id = (long)sqlite3_column_int64(st, 0);
		k->agent = (long)sqlite3_column_int64(st, 1);
		k->base = (uint64_t)sqlite3_column_int64(st, 2);
		k->size = is_int(st, 3) && sqlite3_column_int64(st, 3) > 0 ?
		    (uint64_t)sqlite3_column_int64(st, 3) : 0;
		k->delta = (uint64_t)sqlite3_column_int64(st, 4);
	}
	sqlite3_finalize(st);

	st = prepare(&d, "SELECT id, code_object_id, kernel_name, display_name, kernel_object, "
	    EXT("$.kernel_code_entry_byte_offset") " FROM rocpd_info_kernel_symbol ORDER BY id",
	    "rocpd_info_kernel_symbol");
	while (step(&d, st, r->nsym, "rocpd_info_kernel_symbol")) {
		struct rocpd_symbol *s = GROW(r->sym, r->nsym);
		if (!is_int(st, 0) || !is_int(st, 1) || sqlite3_column_int64(st, 0) < 0 ||
		    sqlite3_column_int64(st, 1) < 0)
			die("%s: rocpd_info_kernel_symbol: a row without an id or code_object_id",
			    path);
		s->id = sqlite3_column_int64(st, 0);
		s->code = (long)sqlite3_column_int64(st, 1);
		s->kernel_name = text(&d, st, 2, "rocpd_info_kernel_symbol");
		s->display_name = text(&d, st, 3, "rocpd_info_kernel_symbol");
		if (s->kernel_name == NULL)
			s->kernel_name = xstrdup("");
		if (is_int(st, 4) && is_int(st, 5)) {
			s->kernel_object = (uint64_t)sqlite3_column_int64(st, 4);
			s->entry_offset = sqlite3_column_int64(st, 5);
			s->has_entry = s->kernel_object != 0;
		}
	}
	sqlite3_finalize(st);

	st = prepare(&d, "SELECT dispatch_id, kernel_id, agent_id FROM rocpd_kernel_dispatch "
	    "ORDER BY dispatch_id", "rocpd_kernel_dispatch");
	while (step(&d, st, r->ndisp, "rocpd_kernel_dispatch")) {
		struct rocpd_dispatch *k = GROW(r->disp, r->ndisp);
		if (!is_int(st, 0) || !is_int(st, 1) || sqlite3_column_int64(st, 0) < 0)
			die("%s: rocpd_kernel_dispatch: a row without a dispatch_id or kernel_id", path);
		k->id = sqlite3_column_int64(st, 0);
		k->kernel = sqlite3_column_int64(st, 1);
		k->agent = (long)sqlite3_column_int64(st, 2);
	}
	sqlite3_finalize(st);
	fatal_pop(&d);
	db_close(&d);
	fatal_pop(r);
}

void
rocpd_free(struct rocpd *r)
{
	size_t i;

	for (i = 0; i < r->nagent; i++)
		free(r->agent[i].name);
	for (i = 0; i < r->nsym; i++) {
		free(r->sym[i].kernel_name);
		free(r->sym[i].display_name);
	}
	free(r->agent);
	free(r->code);
	free(r->sym);
	free(r->disp);
	memset(r, 0, sizeof(*r));
}

/* The writer: the tables as rocpd_tables.sql declares them (their columns and types,
 * for the rows written here), the views of rocpd_views.sql over them. */
static const char *const tables[][2] = {
	{ "rocpd_metadata", "id INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT, tag TEXT NOT NULL, "
	    "value TEXT NOT NULL" },
	{ "rocpd_info_agent", "id INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT, guid TEXT NOT NULL, "
	    "nid INTEGER NOT NULL, pid INTEGER NOT NULL, type TEXT CHECK (type IN ('CPU', 'GPU', "
	    "'NIC')), absolute_index INTEGER, logical_index INTEGER, type_index INTEGER, "
	    "uuid INTEGER, name TEXT, model_name TEXT, vendor_name TEXT, product_name TEXT, "
	    "user_name TEXT, extdata JSONB DEFAULT '{}' NOT NULL" },
	{ "rocpd_info_code_object", "id INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT, guid TEXT "
	    "NOT NULL, nid INTEGER NOT NULL, pid INTEGER NOT NULL, agent_id INTEGER, uri TEXT, "
	    "load_base BIGINT, load_size BIGINT, load_delta BIGINT, storage_type TEXT CHECK "
	    "(storage_type IN ('FILE', 'MEMORY')), extdata JSONB DEFAULT '{}' NOT NULL" },
	{ "rocpd_info_kernel_symbol", "id INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT, guid TEXT "
	    "NOT NULL, nid INTEGER NOT NULL, pid INTEGER NOT NULL, code_object_id INTEGER NOT "
	    "NULL, kernel_name TEXT, display_name TEXT, kernel_object INTEGER, "
	    "kernarg_segment_size INTEGER, kernarg_segment_alignment INTEGER, group_segment_size "
	    "INTEGER, private_segment_size INTEGER, sgpr_count INTEGER, arch_vgpr_count INTEGER, "
	    "accum_vgpr_count INTEGER, extdata JSONB DEFAULT '{}' NOT NULL" },
	{ "rocpd_kernel_dispatch", "id INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT, guid TEXT NOT "
	    "NULL, nid INTEGER NOT NULL, pid INTEGER NOT NULL, tid INTEGER, agent_id INTEGER NOT "
	    "NULL, kernel_id INTEGER NOT NULL, dispatch_id INTEGER NOT NULL, queue_id INTEGER NOT "
	    "NULL, stream_id INTEGER NOT NULL, start BIGINT NOT NULL, end BIGINT NOT NULL, "
	    "private_segment_size INTEGER, group_segment_size INTEGER, workgroup_size_x INTEGER "
	    "NOT NULL, workgroup_size_y INTEGER NOT NULL, workgroup_size_z INTEGER NOT NULL, "
	    "grid_size_x INTEGER NOT NULL, grid_size_y INTEGER NOT NULL, grid_size_z INTEGER NOT "
	    "NULL, region_name_id INTEGER, event_id INTEGER, extdata JSONB DEFAULT '{}' NOT NULL" },
};

static void
exec(struct db *d, const char *sql)
{
	if (sqlite3_exec(d->h, sql, NULL, NULL, NULL) != SQLITE_OK)
		fail(d, "writing");
}

/* sqlite3_mprintf's formats: %Q a quoted string or NULL, %w an identifier's text */
static void
execf(struct db *d, const char *fmt, ...)
{
	va_list ap;
	char *sql;

	va_start(ap, fmt);
	sql = sqlite3_vmprintf(fmt, ap);
	va_end(ap);
	if (sql == NULL)
		die("%s: out of memory", d->path);
	exec(d, sql);
	sqlite3_free(sql);
}

void
rocpd_write(const char *path, const struct rocpd *r, long pid)
{
	/* a fixed uuid: the same input writes the same database */
	static const char uuid[] = "_0190a5d2_7c4e_7b1a_9d3f_5e2c8a6b4f10";
	static const char guid[] = "0190a5d2-7c4e-7b1a-9d3f-5e2c8a6b4f10";
	struct db d = { .path = path };
	struct stat sb;
	size_t i;

	if (lstat(path, &sb) == 0 && S_ISREG(sb.st_mode) && unlink(path) != 0)
		die("%s: %s", path, strerror(errno));
	fatal_push(db_close, &d);
	if (sqlite3_open_v2(path, &d.h, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) !=
	    SQLITE_OK)
		fail(&d, "create");
	exec(&d, "BEGIN");
	for (i = 0; i < sizeof(tables) / sizeof(tables[0]); i++) {
		execf(&d, "CREATE TABLE \"%w%w\" (%s)", tables[i][0], uuid, tables[i][1]);
		execf(&d, "CREATE VIEW \"%w\" AS SELECT * FROM \"%w%w\"", tables[i][0],
		    tables[i][0], uuid);
	}
	execf(&d, "INSERT INTO \"rocpd_metadata%w\" (tag, value) VALUES ('schema_version', '3'), "
	    "('uuid', %Q), ('guid', %Q)", uuid, uuid + 1, guid);
	for (i = 0; i < r->nagent; i++) {
		const struct rocpd_agent *a = &r->agent[i];
		execf(&d, "INSERT INTO \"rocpd_info_agent%w\" (id, guid, nid, pid, type, "
		    "absolute_index, logical_index, type_index, name, extdata) VALUES (%ld, %Q, 1, "
		    "%ld, %Q, %ld, %ld, %ld, %Q, json_object('id', json_object('handle', %lld), "
		    "'name', %Q))", uuid, a->id, guid, pid, a->gpu ? "GPU" : "CPU", a->id, a->id,
		    a->gpu ? 0L : a->id, a->name, (long long)a->handle, a->name);
	}
	for (i = 0; i < r->ncode; i++) {
		const struct rocpd_code *k = &r->code[i];
		execf(&d, "INSERT INTO \"rocpd_info_code_object%w\" (id, guid, nid, pid, agent_id, "
		    "uri, load_base, load_size, load_delta, storage_type, extdata) VALUES (%ld, %Q, "
		    "1, %ld, %ld, 'memory://%ld#offset=0x%llx&size=%llu', %lld, %lld, %lld, 'MEMORY', "
		    "json_object('code_object_id', %ld, 'load_base', %lld, 'load_size', %lld))",
		    uuid, k->id, guid, pid, k->agent, pid, (unsigned long long)k->base,
		    (unsigned long long)k->size, (long long)k->base, (long long)k->size,
		    (long long)k->delta, k->id, (long long)k->base, (long long)k->size);
	}
	for (i = 0; i < r->nsym; i++) {
		const struct rocpd_symbol *s = &r->sym[i];
		execf(&d, "INSERT INTO \"rocpd_info_kernel_symbol%w\" (id, guid, nid, pid, "
		    "code_object_id, kernel_name, display_name, kernel_object, extdata) VALUES "
		    "(%lld, %Q, 1, %ld, %ld, %Q, %Q, %lld, json_object('kernel_id', %lld, "
		    "'code_object_id', %ld, 'kernel_name', %Q, 'kernel_object', %lld, "
		    "'kernel_code_entry_byte_offset', %lld))", uuid, (long long)s->id, guid, pid,
		    s->code, s->kernel_name, s->display_name ? s->display_name : "",
		    (long long)s->kernel_object, (long long)s->id, s->code, s->kernel_name,
		    (long long)s->kernel_object, (long long)s->entry_offset);
	}
	for (i = 0; i < r->ndisp; i++) {
		const struct rocpd_dispatch *k = &r->disp[i];
		execf(&d, "INSERT INTO \"rocpd_kernel_dispatch%w\" (guid, nid, pid, agent_id, "
		    "kernel_id, dispatch_id, queue_id, stream_id, start, end, workgroup_size_x, "
		    "workgroup_size_y, workgroup_size_z, grid_size_x, grid_size_y, grid_size_z) "
		    "VALUES (%Q, 1, %ld, %ld, %lld, %lld, 1, 0, 0, 0, 1, 1, 1, 1, 1, 1)", uuid, guid,
		    pid, k->agent, (long long)k->kernel, (long long)k->id);
	}
	exec(&d, "COMMIT");
	if (sqlite3_close(d.h) != SQLITE_OK)
		fail(&d, "closing");
	d.h = NULL;
	fatal_pop(&d);
}
