/* fatal_test PATH...: each capture PATH opened 200 times through capture_open, every
 * open ending in an error deep in a reader that capture_open returns (nothing exits:
 * util.h's fatal_catch).  What an error leaves must not grow: after the first 100 opens
 * of a PATH (a first error's lazy allocations: stdio, SQLite's), the heap in use and the
 * open descriptors are the same after the next 100.  Prints "PATH: grew N bytes, M
 * descriptors" for each that grows, "ok PATH" for the others; the errors' lines go to
 * stderr as each program's would ("fatal_test: ERROR"). */
#include <dirent.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>

#include "capture.h"

static long
fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	long n = 0;

	if (d == NULL)
		return -1;
	while (readdir(d) != NULL)
		n++;
	closedir(d);
	return n;
}

static int
opens(const char *path, int n)
{
	struct capture c;
	char why[4096];
	int i, errors = 0;

	for (i = 0; i < n; i++) {
		if (capture_open(&c, path, NULL, why, sizeof(why)) == 0) {
			capture_close(&c);
		} else {
			fprintf(stderr, "fatal_test: %s\n", why);
			errors++;
		}
	}
	return errors;
}

int
main(int argc, char **argv)
{
	int i, bad = 0;

	for (i = 1; i < argc; i++) {
		size_t heap;
		long nfd;
		if (opens(argv[i], 100) != 100) {
			printf("%s: not a fatal error on every open\n", argv[i]);
			bad = 1;
			continue;
		}
		heap = mallinfo2().uordblks;
		nfd = fds();
		opens(argv[i], 100);
		if (mallinfo2().uordblks != heap || fds() != nfd) {
			printf("%s: grew %zd bytes, %ld descriptors\n", argv[i],
			    (ssize_t)(mallinfo2().uordblks - heap), fds() - nfd);
			bad = 1;
		} else
			printf("ok %s\n", argv[i]);
	}
	return bad;
}
