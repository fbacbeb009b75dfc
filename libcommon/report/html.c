#include <err.h>
#include <stdio.h>
#include <string.h>

#include "html.h"
#include "timeline.h"

/* html-page.html, made into a C string by the Makefile */
extern const char html_page[];

#define DATA_MARK "<!--DATA-->\n"

void
html_write(FILE *fp, const char *table_json, size_t len, const struct timeline *tl)
{
	const char *mark = strstr(html_page, DATA_MARK), *s, *end = table_json + len;

	if (mark == NULL)
		errx(2, "html: the page has no place for its data");
	fwrite(html_page, 1, (size_t)(mark - html_page), fp);
	fputs("<script type=\"application/json\" id=\"stall-table\">", fp);
	for (s = table_json; s < end; s++)
		if (*s == '<')
			fputs("\\u003c", fp);	/* only inside strings in JSON */
		else
			putc(*s, fp);
	fputs("</script>\n<script type=\"application/json\" id=\"stall-timeline\">", fp);
	timeline_json(tl, fp);
	fputs("</script>\n", fp);
	fputs(mark + strlen(DATA_MARK), fp);
}
