#include <err.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "json.h"
#include "timeline.h"
#include "tracejson.h"
#include "util.h"

struct tracejson {
	FILE *fp;
	char *path;
	uint64_t events;
};

struct tracejson *
tracejson_open(const char *path)
{
	struct tracejson *tj = xcalloc(1, sizeof(*tj));

	if ((tj->fp = fopen(path, "w")) == NULL)
		err(2, "%s", path);
	tj->path = xstrdup(path);
	fputs("{\"displayTimeUnit\": \"ns\", \"otherData\": {\"generator\": \"stall-table\", "
	    "\"time\": \"ts and dur are GPU cycles, written where microseconds go\"},\n"
	    "\"traceEvents\": [", tj->fp);
	return tj;
}

static void
sep(struct tracejson *tj)
{
	fputs(tj->events++ ? ",\n" : "\n", tj->fp);
}

void
tracejson_row(void *arg, const struct tl_row *r)
{
	struct tracejson *tj = arg;
	FILE *fp = tj->fp;
	char *name;

	if (r->new_process) {
		sep(tj);
		fprintf(fp, "{\"ph\": \"M\", \"name\": \"process_name\", \"pid\": %" PRIu64
		    ", \"tid\": 0, \"args\": {\"name\": ", r->process);
		if (asprintf(&name, "%s SE%" PRIu64 " (event %" PRIu64 ")", r->kernel, r->se,
		    r->event) < 0)
			err(2, NULL);
		json_put_string(fp, name);
		free(name);
		fprintf(fp, "}}");
		sep(tj);
		fprintf(fp, "{\"ph\": \"M\", \"name\": \"process_labels\", \"pid\": %" PRIu64
		    ", \"tid\": 0, \"args\": {\"labels\": \"SE %" PRIu64 ", event %" PRIu64
		    "\"}}", r->process, r->se, r->event);
		sep(tj);
		fprintf(fp, "{\"ph\": \"M\", \"name\": \"process_sort_index\", \"pid\": %" PRIu64
		    ", \"tid\": 0, \"args\": {\"sort_index\": %" PRIu64 "}}", r->process,
		    r->process);
	}
	if (r->first) {
		sep(tj);
		fprintf(fp, "{\"ph\": \"M\", \"name\": \"thread_name\", \"pid\": %" PRIu64
		    ", \"tid\": %" PRIu64 ", \"args\": {\"name\": \"slot %" PRIu64 " wave %"
		    PRIu64 "\"}}", r->process, r->thread, r->slot, r->wave);
	}
	sep(tj);
	fputs("{\"ph\": \"X\", \"name\": ", fp);
	json_put_string(fp, r->inst);
	fputs(", \"cat\": ", fp);
	json_put_string(fp, r->cause);
	fprintf(fp, ", \"ts\": %" PRId64 ", \"dur\": %" PRId64 ", \"pid\": %" PRIu64
	    ", \"tid\": %" PRIu64 ", \"args\": {\"pc\": ", r->start, r->cost, r->process,
	    r->thread);
	json_put_string(fp, r->pc);
	fputs(", \"inst\": ", fp);
	json_put_string(fp, r->inst);
	fputs(", \"cause\": ", fp);
	json_put_string(fp, r->cause);
	fprintf(fp, ", \"cycles\": %" PRId64 ", \"issue\": %" PRId64 "}}", r->cost, r->time);
}

void
tracejson_close(struct tracejson *tj)
{
	FILE *fp = tj->fp;

	fputs("\n]}\n", fp);
	if (fflush(fp) != 0 || ferror(fp))
		err(2, "%s", tj->path);
	tj->fp = NULL;
	if (fclose(fp) != 0)
		err(2, "%s", tj->path);
	free(tj->path);
	free(tj);
}

void
tracejson_discard(struct tracejson *tj)
{
	if (tj->fp)
		discard_output(tj->fp, tj->path);
	free(tj->path);
	free(tj);
}
