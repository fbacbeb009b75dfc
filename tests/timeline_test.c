/* timeline_test MAX_LANES MAX_BARS PARTS ROWS.tsv: the rows of a row stream with cost and
 * cause columns (and cost2, cause2 where it has them), each event's rows to timeline
 * event % PARTS, the timelines merged into the first (timeline_merge), then its drawing
 * (timeline_json) and its occupancy (timeline_occupancy) on stdout.  The rows must come
 * event by event, in event order, as a stream's do: the drawing is then the same for
 * every PARTS (t0600). */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>

#include "timeline.h"
#include "tsv.h"

#define MAX_PARTS 16

int
main(int argc, char **argv)
{
	struct timeline *tl[MAX_PARTS];
	struct tsv t;
	char why[4096];
	long lanes, bars, parts, i;
	int c_event = -1, c_cost = -1, c_cause = -1, c_cost2 = -1, c_cause2 = -1;

	if (argc != 5 || (lanes = atol(argv[1])) < 0 || (bars = atol(argv[2])) < 0 ||
	    (parts = atol(argv[3])) < 1 || parts > MAX_PARTS)
		errx(2, "usage: timeline_test MAX_LANES MAX_BARS PARTS ROWS.tsv");
	for (i = 0; i < parts; i++)
		tl[i] = timeline_new(1, (size_t)lanes, (size_t)bars);
	tsv_open_path(&t, argv[4]);
	for (;;) {
		enum tsv_kind k = tsv_next(&t);
		uint64_t event;
		int64_t cost, cost2 = 0;
		struct timeline *to;

		if (k == TSV_EOF)
			break;
		if (k == TSV_HEADER) {
			for (i = 0; i < parts; i++)
				if (timeline_header(tl[i], &t, why, sizeof(why)) != 0)
					errx(2, "%s", why);
			c_event = tsv_need(&t, "event");
			c_cost = tsv_need(&t, "cost");
			c_cause = tsv_need(&t, "cause");
			c_cost2 = tsv_col(&t, "cost2");
			c_cause2 = tsv_col(&t, "cause2");
			continue;
		}
		if (k != TSV_RECORD)
			continue;
		if (c_event < 0 || !tsv_get_u64(&t, c_event, &event) ||
		    !tsv_get_i64(&t, c_cost, &cost) ||
		    (c_cost2 >= 0 && !tsv_get_i64(&t, c_cost2, &cost2)))
			errx(2, "%s: a row before the header, or not a number", argv[4]);
		to = tl[event % (uint64_t)parts];
		if (timeline_row(to, &t, cost, t.field[c_cause], cost2, c_cause2 >= 0 &&
		    cost2 > 0 ? t.field[c_cause2] : NULL, why, sizeof(why)) != 0)
			errx(2, "%s", why);
	}
	for (i = 1; i < parts; i++)
		if (timeline_merge(tl[0], tl[i]) != 0)
			errx(2, "merge: %s", timeline_error(tl[0]));
	timeline_json(tl[0], stdout);
	putchar('\n');
	timeline_occupancy(tl[0], NULL, stdout, 0);
	timeline_free(tl[0]);
	tsv_close(&t);
	return fflush(stdout) != 0 || ferror(stdout) ? 2 : 0;
}
