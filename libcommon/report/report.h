/* report: a profile written as stall-table(1) writes it: the instructions ordered and cut
 * to the top N of each kernel, as TSV, JSON or aligned text, and the pictures (--html,
 * --trace-json) from the rows in time.  stall-table and stall share it. */
#ifndef REPORT_H
#define REPORT_H
#include "profile.h"
#include "timeline.h"

enum report_format { REPORT_AUTO, REPORT_TSV, REPORT_PRETTY, REPORT_JSON };
enum report_sort { REPORT_CYCLES, REPORT_HITS, REPORT_PC };

struct report_opts {
	long long top;		/* 0: every instruction */
	enum report_format format;
	enum report_sort sort;
	const char *html, *trace_json;	/* NULL: none */
	const char *kernel;	/* NULL: every kernel; else that one, an error if none */
	unsigned plain;		/* TSV for other tools: PROFILE_PUT_PLAIN, _NOHEADER */
};

/* The options of the tables, the same in stall-table and stall: their names for struct
 * cli, and their parser, which takes them into o and returns 1 (0 for any other option). */
#define REPORT_OPTIONS "html json/j no-header/H plain pretty/p sort/s top/n trace-json tsv/t"
int report_option(struct report_opts *o, int ch, const char *arg);

struct report;

/* Opens the pictures' files: NULL with why when they cannot be written (or the options
 * do not go together). */
struct report *report_open(const struct report_opts *, char *why, size_t whysz);
/* The profile whose ## lines (##event) say each buffer's dispatch, for --trace-json's
 * clocks; read as the rows come. */
void report_watch(struct report *, const struct profile *);
/* The timeline the rows in time go to, NULL without pictures. */
struct timeline *report_timeline(struct report *);
/* A sort key by name (cycles, hits, pc): 0, or -1 for an unknown one. */
int report_sort_key(const char *, enum report_sort *);
/* After the last row: the tables on stdout, then the pictures; the report is freed.
 * from names the input in the message when there were no rows, or none of the kernel
 * chosen: an error, never an empty table.  0, or -1 with why (the report is then left
 * as it is: the program's exit discards its half-written pictures). */
int report_finish(struct report *, struct profile *, const char *from, char *why,
    size_t whysz);

#endif
