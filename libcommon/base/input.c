#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
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
	int returns;		/* errors returned (input_open_why), not fatal */
	char error[INPUT_WHY_MAX];	/* a returned error, "" for none */
};

/* A read's error: fatal, or kept for input_error (and every read after it gives 0). */
static void __attribute__((format(printf, 2, 3)))
read_fail(struct input *in, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(in->error, sizeof(in->error), fmt, ap);
	va_end(ap);
	if (!in->returns)
		die("%s", in->error);
}

struct input *
input_open_why(const char *path, char *why, size_t whysz)
{
	struct input *in;
	struct stat st;
	int fd;

	if (strcmp(path, "-") == 0)
		fd = dup(STDIN_FILENO);
	else
		fd = open(path, O_RDONLY);
	if (fd < 0) {
		snprintf(why, whysz, "%s: %s", path, strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		close(fd);
		snprintf(why, whysz, "%s: is a directory", path);
		return NULL;
	}
	in = xcalloc(1, sizeof(*in));
	in->path = path;
	in->returns = 1;
	if ((in->gz = gzdopen(fd, "rb")) == NULL) {
		close(fd);
		free(in);
		snprintf(why, whysz, "%s: cannot open for reading", path);
		return NULL;
	}
	gzbuffer(in->gz, 1 << 17);
	return in;
}

struct input *
input_open(const char *path)
{
	char why[INPUT_WHY_MAX];
	struct input *in;

	if ((in = input_open_why(path, why, sizeof(why))) == NULL)
		die("%s", why);
	in->returns = 0;
	return in;
}

const char *
input_error(const struct input *in)
{
	return in->error[0] ? in->error : NULL;
}

size_t
input_read(struct input *in, void *dst, size_t max)
{
	int n, errnum;
	const char *msg;

	if (in->error[0])
		return 0;
	if (max > (1u << 30))
		max = 1u << 30;
	n = gzread(in->gz, dst, (unsigned)max);
	if (n < 0) {
		msg = gzerror(in->gz, &errnum);
		if (errnum == Z_ERRNO)
			read_fail(in, "%s: %s", in->path, strerror(errno));
		else
			read_fail(in, "%s: %s (gzip data)", in->path, msg);
		return 0;
	}
	in->total += (uint64_t)n;
	if (in->total > GZ_FREE && !gzdirect(in->gz) &&
	    in->total / GZ_RATIO > (uint64_t)gzoffset(in->gz)) {
		read_fail(in, "%s: more than %d times its compressed size once decompressed "
		    "(a gzip bomb?)", in->path, GZ_RATIO);
		return 0;
	}
	if ((size_t)n < max) {
		/* zlib hands over what it has of a cut gzip stream and only flags it here */
		msg = gzerror(in->gz, &errnum);
		if (errnum == Z_BUF_ERROR) {
			read_fail(in, "%s: unexpected end of file (gzip data cut short)",
			    in->path);
			return 0;
		}
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
input_slurp_why(struct input *in, const uint8_t *head, size_t nhead, size_t max,
    const char *what, size_t *len, char *why, size_t whysz)
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
		if (n > max) {
			snprintf(in->error, sizeof(in->error), "%s: more than %zu bytes (%s)",
			    in->path, max, what);
			break;
		}
		if (n == cap) {
			cap *= 2;
			if ((nb = realloc(buf, cap + 16)) == NULL)
				die_errno(NULL);
			buf = s.buf = nb;
		}
	}
	fatal_pop(&s);
	if (in->error[0]) {
		snprintf(why, whysz, "%s", in->error);
		input_close(in);
		free(buf);
		return NULL;
	}
	input_close(in);
	memset(buf + n, 0, 16);
	*len = n;
	return buf;
}

uint8_t *
input_slurp_rest(struct input *in, const uint8_t *head, size_t nhead, size_t max,
    const char *what, size_t *len)
{
	char why[INPUT_WHY_MAX];
	uint8_t *buf;

	if ((buf = input_slurp_why(in, head, nhead, max, what, len, why, sizeof(why))) == NULL)
		die("%s", why);
	return buf;
}

uint8_t *
input_slurp(const char *path, size_t *len)
{
	return input_slurp_rest(input_open(path), NULL, 0, SIZE_MAX, "", len);
}
