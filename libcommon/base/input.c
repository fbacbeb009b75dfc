#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "input.h"
#include "util.h"

/* Decompressed past 32 MiB, a gzip file may grow at most 64 times its compressed size:
 * real captures compress 4 to 7 times, a gzip bomb 1000 times. */
#define GZ_FREE (32 << 20)
#define GZ_RATIO 64

struct input {
	gzFile gz;
	const char *path;
	uint64_t total;		/* bytes handed out */
};

struct input *
input_open(const char *path)
{
	struct input *in;
	struct stat st;
	int fd;

	if (strcmp(path, "-") == 0)
		fd = dup(STDIN_FILENO);
	else
		fd = open(path, O_RDONLY);
	if (fd < 0)
		die_errno(path);
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		close(fd);
		die("%s: is a directory", path);
	}
	in = xcalloc(1, sizeof(*in));
	in->path = path;
	if ((in->gz = gzdopen(fd, "rb")) == NULL) {
		close(fd);
		free(in);
		die("%s: cannot open for reading", path);
	}
	gzbuffer(in->gz, 1 << 17);
	return in;
}

size_t
input_read(struct input *in, void *dst, size_t max)
{
	int n, errnum;
	const char *msg;

	if (max > (1u << 30))
		max = 1u << 30;
	n = gzread(in->gz, dst, (unsigned)max);
	if (n < 0) {
		msg = gzerror(in->gz, &errnum);
		if (errnum == Z_ERRNO)
			die_errno(in->path);
		die("%s: %s (gzip data)", in->path, msg);
	}
	in->total += (uint64_t)n;
	if (in->total > GZ_FREE && !gzdirect(in->gz) &&
	    in->total / GZ_RATIO > (uint64_t)gzoffset(in->gz))
		die("%s: more than %d times its compressed size once decompressed (a gzip "
		    "bomb?)", in->path, GZ_RATIO);
	if ((size_t)n < max) {
		/* zlib hands over what it has of a cut gzip stream and only flags it here */
		msg = gzerror(in->gz, &errnum);
		if (errnum == Z_BUF_ERROR)
			die("%s: unexpected end of file (gzip data cut short)", in->path);
	}
	return (size_t)n;
}

void
input_close(struct input *in)
{
	if (in == NULL)
		return;
	gzclose(in->gz);
	free(in);
}

void
input_close_v(void *in)
{
	input_close(in);
}

/* What a slurp holds until it returns. */
struct slurp {
	struct input *in;
	uint8_t *buf;
};

static void
slurp_free(void *arg)
{
	struct slurp *s = arg;

	input_close(s->in);
	free(s->buf);
}

uint8_t *
input_slurp_rest(struct input *in, const uint8_t *head, size_t nhead, size_t max,
    const char *what, size_t *len)
{
	size_t cap = 1 << 16, n = nhead, got;
	uint8_t *buf, *nb;
	struct slurp s = { .in = in };

	fatal_push(slurp_free, &s);
	while (cap < nhead)
		cap *= 2;
	if ((buf = s.buf = malloc(cap + 16)) == NULL)
		die_errno(NULL);
	if (nhead)
		memcpy(buf, head, nhead);
	while ((got = input_read(in, buf + n, cap - n)) > 0) {
		n += got;
		if (n > max)
			die("%s: more than %zu bytes (%s)", in->path, max, what);
		if (n == cap) {
			cap *= 2;
			if ((nb = realloc(buf, cap + 16)) == NULL)
				die_errno(NULL);
			buf = s.buf = nb;
		}
	}
	fatal_pop(&s);
	input_close(in);
	memset(buf + n, 0, 16);
	*len = n;
	return buf;
}

uint8_t *
input_slurp(const char *path, size_t *len)
{
	return input_slurp_rest(input_open(path), NULL, 0, SIZE_MAX, "", len);
}
