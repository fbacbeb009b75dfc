#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "util.h"

static void
put_synopsis(FILE *fp, const char *const *synopsis)
{
	const char *prog = getprogname();
	int indent = (int)strlen(prog) + 8;	/* "usage: " and the space after the name */
	size_t i;

	for (i = 0; synopsis[i] != NULL; i++) {
		if (synopsis[i][0] == '\t')
			fprintf(fp, "%*s%s\n", indent, "", synopsis[i] + 1);
		else
			fprintf(fp, "%s %s %s\n", i == 0 ? "usage:" : "      ", prog, synopsis[i]);
	}
}

void
cli_usage(const char *const *synopsis)
{
	fflush(stdout);
	put_synopsis(stderr, synopsis);
	exit(2);
}

void
cli_help(const char *const *synopsis, const char *text)
{
	put_synopsis(stdout, synopsis);
	fputs(text, stdout);
	if (fflush(stdout) != 0 || ferror(stdout))
		exit(2);
	exit(0);
}

void
cli_version(void)
{
	printf("%s (stall) %s\n", getprogname(), STALL_VERSION);
	if (fflush(stdout) != 0 || ferror(stdout))
		exit(2);
	exit(0);
}
