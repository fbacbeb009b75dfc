/* A scratch rocprofv3 run directory for the harnesses of the run readers: fixtures/demo's
 * two streams and its code object under the names given (FUZZ_TOP is the project, "../.."
 * from build/fuzz where scripts/fuzz.sh runs them). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char run_dir[64];

static void
run_put(const char *name, const void *p, size_t n)
{
	char path[512];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s", run_dir, name);
	if ((fp = fopen(path, "wb")) == NULL)
		return;
	fwrite(p, 1, n, fp);
	fclose(fp);
}

static void
run_copy(const char *from, const char *name)
{
	const char *top = getenv("FUZZ_TOP") ? getenv("FUZZ_TOP") : "../..";
	char path[512], buf[65536];
	FILE *fp;
	size_t n;

	snprintf(path, sizeof(path), "%s/fixtures/demo/%s", top, from);
	if ((fp = fopen(path, "rb")) == NULL)
		abort();	/* the harness cannot run without them */
	n = fread(buf, 1, sizeof(buf), fp);
	fclose(fp);
	run_put(name, buf, n);
}

/* The descriptors a reader's fatal error left open (a directory listing, a stream): closed
 * after each input, down to those open before the first. */
static int run_fd_base = -1;

static void
run_close_fds(void)
{
	int fd;

	if (run_fd_base < 0) {
		run_fd_base = dup(0);
		close(run_fd_base);
		return;
	}
	for (fd = run_fd_base; fd < run_fd_base + 256; fd++)
		close(fd);
}

/* A fresh, empty run directory. */
static void
run_reset(void)
{
	DIR *d;
	struct dirent *de;
	char path[512];

	run_close_fds();
	if (run_dir[0] == '\0') {
		snprintf(run_dir, sizeof(run_dir), "/tmp/fuzz_run.%ld", (long)getpid());
		mkdir(run_dir, 0777);
	}
	if ((d = opendir(run_dir)) == NULL)
		abort();
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", run_dir, de->d_name);
		unlink(path);
	}
	closedir(d);
}
