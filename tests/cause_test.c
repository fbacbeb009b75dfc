/* cause_test: the cause vocabulary (libcommon/cause) as "name<TAB>column<TAB>what" lines, in
 * column order, for the tests that check the man pages against it. */
#include <stdio.h>

#include "cause.h"

int
main(void)
{
	int c;

	for (c = 0; c < NCAUSE; c++)
		printf("%s\t%s\t%s\n", cause_info[c].name, cause_info[c].col, cause_info[c].what);
	return ferror(stdout) ? 2 : 0;
}
