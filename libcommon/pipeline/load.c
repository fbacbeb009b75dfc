#include <sys/stat.h>
#include <sys/wait.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "load.h"
#include "tsv.h"
#include "util.h"

#define SNIFF 4096
#define JSON_MAX (64u << 20)	/* a stall table of 100000 instructions is less */


static size_t
read_some(int fd, char *buf, size_t max, const char *name)
{
	ssize_t n;

	do
		n = read(fd, buf, max);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		err(2, "%s", name);
	return (size_t)n;
}

static void
read_stream(struct profile *p, int fd, const char *name, const char *head, size_t nhead)
{
	struct tsv t;
	FILE *fp;

	if ((fp = fdopen(fd, "r")) == NULL)
		err(2, "%s", name);
	tsv_open(&t, fp, name);
	tsv_prime(&t, head, nhead);
	if (profile_read_tsv(p, &t) < 0)
		die("%s: no '#' column header line: not a row stream or stall table", name);
	tsv_close(&t);
	fclose(fp);
}

static void
read_json(struct profile *p, int fd, const char *name, const char *head, size_t nhead)
{
	size_t cap = SNIFF * 4, len = nhead, n;
	char *buf = xcalloc(1, cap);

	memcpy(buf, head, nhead);
	for (;;) {
		if (len == cap) {
			if (cap >= JSON_MAX)
				die("%s: more than %u MiB: too large for a stall table", name,
				    JSON_MAX >> 20);
			cap *= 2;
			buf = xreallocarray(buf, cap, 1);
		}
		if ((n = read_some(fd, buf + len, cap - len, name)) == 0)
			break;
		len += n;
	}
	close(fd);
	profile_read_json(p, name, buf, len);
	free(buf);
}

/* The stall driver beside this program (a build tree's bin/), else the one in PATH. */
static const char *
stall_path(void)
{
	static char path[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", path, sizeof(path) - 1);
	char *slash;

	if (n > 0) {
		path[n] = '\0';
		if ((slash = strrchr(path, '/')) != NULL &&
		    (size_t)(slash - path) + sizeof("/stall") <= sizeof(path)) {
			strcpy(slash, "/stall");
			if (access(path, X_OK) == 0)
				return path;
		}
	}
	return "stall";
}

/* A capture: its rows from `stall --rows`.  The driver says why when it fails. */
static void
read_capture(struct profile *p, const char *path)
{
	const char *stall = stall_path();
	int fds[2], status;
	pid_t pid;
	struct tsv t;
	FILE *fp;
	int r;

	fflush(stdout);
	if (pipe(fds) < 0)
		err(2, "pipe");
	if ((pid = fork()) < 0)
		err(2, "fork");
	if (pid == 0) {
		close(fds[0]);
		if (dup2(fds[1], STDOUT_FILENO) < 0)
			err(127, "dup2");
		close(fds[1]);
		execlp(stall, "stall", "--rows", "--", path, (char *)NULL);
		err(127, "%s", stall);
	}
	close(fds[1]);
	if ((fp = fdopen(fds[0], "r")) == NULL)
		err(2, "%s", path);
	tsv_open(&t, fp, path);
	r = profile_read_tsv(p, &t);
	tsv_close(&t);
	fclose(fp);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			err(2, "waitpid");
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		exit(2);	/* the driver has said why, in one line */
	if (r < 0)
		die("%s: stall --rows wrote no row stream", path);
}

void
load_profile(struct profile *p, const char *path)
{
	const char *name = path;
	char head[SNIFF];
	size_t n = 0, i;
	struct stat st;
	int fd;

	if (strcmp(path, "-") == 0) {
		fd = STDIN_FILENO;
		name = "stdin";
	} else {
		if (stat(path, &st) < 0)
			err(2, "%s", path);
		if (S_ISDIR(st.st_mode)) {
			read_capture(p, path);
			goto done;
		}
		if ((fd = open(path, O_RDONLY)) < 0)
			err(2, "%s", path);
	}
	/* the first byte that is not white space tells the format */
	for (i = 0;; i++) {
		if (i == n) {
			size_t m = n < SNIFF ? read_some(fd, head + n, SNIFF - n, name) : 0;
			if (m == 0)
				break;
			n += m;
		}
		if (head[i] != ' ' && head[i] != '\t' && head[i] != '\r' && head[i] != '\n')
			break;
	}
	if (i == n)
		die("%s: no rows: the input is empty", name);
	if (head[i] == '#')
		read_stream(p, fd, name, head, n);
	else if (head[i] == '{')
		read_json(p, fd, name, head, n);
	else if (fd == STDIN_FILENO)
		die("%s: not a row stream or stall table (a capture is named by its path)", name);
	else {
		close(fd);
		read_capture(p, path);
	}
done:
	profile_finish(p);
	if (p->nkernel == 0)
		die("%s: no rows", name);
}
