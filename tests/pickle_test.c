/* pickle_test FILE: load a tinygrad profile pickle with libcommon/pickle and print one
 * line per ProfileSQTTEvent, ProfileProgramEvent and ProfileDeviceEvent of the top-level
 * list, then a count line.  On failure: "pickle_test: FILE: REASON" on stderr, exit 2.
 * Built by the Makefile as build/pickle_test; tests/t0110-pickle.sh runs it. */
#include <err.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pickle.h"

static void
print_str(const char *s, size_t n)
{
	size_t i;

	putchar('\'');
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '\'' || c == '\\')
			printf("\\%c", c);
		else if (c < 0x20 || c >= 0x7f)
			printf("\\x%02x", c);
		else
			putchar(c);
	}
	putchar('\'');
}

static void
print_value(const struct pk_value *v)
{
	size_t i;

	switch (v->type) {
	case PK_NONE:
		printf("None");
		break;
	case PK_BOOL:
		printf("%s", v->u.i ? "True" : "False");
		break;
	case PK_INT:
		printf("%" PRId64, v->u.i);
		break;
	case PK_BIGINT:
		printf("bigint[%zu]", v->u.str.len);
		break;
	case PK_FLOAT:
		printf("%.17g", v->u.f);
		break;
	case PK_STR:
		print_str(v->u.str.s, v->u.str.len);
		break;
	case PK_BYTES:
		printf("bytes[%zu]:", v->u.str.len);
		for (i = 0; i < v->u.str.len && i < 8; i++)
			printf("%02x", (unsigned char)v->u.str.s[i]);
		break;
	case PK_LIST:
		printf("list[%zu]", v->u.seq.n);
		break;
	case PK_TUPLE:
		printf("tuple[%zu]", v->u.seq.n);
		break;
	case PK_SET:
		printf("set[%zu]", v->u.seq.n);
		break;
	case PK_DICT:
		printf("dict[%zu]", v->u.dict.n);
		break;
	case PK_GLOBAL:
		printf("global:%s.%s", v->u.obj.module, v->u.obj.name);
		break;
	case PK_OBJECT:
		printf("object:%s.%s", v->u.obj.module, v->u.obj.name);
		break;
	}
}

static void
print_attrs(const struct pk_value *obj, const char *const *names)
{
	const struct pk_value *v;

	printf("%s", obj->u.obj.name);
	for (; *names != NULL; names++) {
		if ((v = pk_attr(obj, *names)) == NULL)
			continue;
		printf(" %s=", *names);
		print_value(v);
	}
}

static const char *const sqtt_attrs[] = {
	"device", "kern", "se", "blob", "itrace", "exec_tag", NULL
};
static const char *const prog_attrs[] = { "device", "name", "lib", "base", "tag", NULL };
static const char *const dev_attrs[] = { "device", "props", NULL };

int
main(int argc, char *argv[])
{
	const struct pk_value *root, *item, *props, *gfx;
	struct pk_value *r;
	struct pickle *pk;
	unsigned char *buf = NULL;
	size_t len = 0, cap = 0, n, i, nsqtt = 0, nprog = 0, ndev = 0;
	char reason[256];
	FILE *fp;

	if (argc != 2) {
		fprintf(stderr, "usage: pickle_test file.pkl\n");
		return 2;
	}
	if ((fp = fopen(argv[1], "rb")) == NULL)
		err(2, "%s", argv[1]);
	for (;;) {
		if (len == cap) {
			cap = cap ? cap * 2 : 65536;
			if ((buf = realloc(buf, cap)) == NULL)
				err(2, NULL);
		}
		if ((n = fread(buf + len, 1, cap - len, fp)) == 0)
			break;
		len += n;
	}
	if (ferror(fp))
		err(2, "%s", argv[1]);
	fclose(fp);

	if ((pk = pickle_load(buf, len, &r, reason, sizeof(reason))) == NULL) {
		fflush(stdout);
		fprintf(stderr, "pickle_test: %s: %s\n", argv[1], reason);
		free(buf);
		return 2;
	}
	root = r;
	if (root->type != PK_LIST) {
		printf("root ");
		print_value(root);
		putchar('\n');
	} else {
		printf("items %zu\n", root->u.seq.n);
		for (i = 0; i < root->u.seq.n; i++) {
			item = root->u.seq.item[i];
			if (pk_is_object(item, "ProfileSQTTEvent")) {
				print_attrs(item, sqtt_attrs);
				nsqtt++;
			} else if (pk_is_object(item, "ProfileProgramEvent")) {
				print_attrs(item, prog_attrs);
				nprog++;
			} else if (pk_is_object(item, "ProfileDeviceEvent")) {
				print_attrs(item, dev_attrs);
				props = pk_attr(item, "props");
				if ((gfx = pk_dict_get(props, "gfx_target_version")) != NULL) {
					printf(" gfx_target_version=");
					print_value(gfx);
				}
				ndev++;
			} else
				continue;
			putchar('\n');
		}
		printf("sqtt %zu program %zu device %zu other %zu\n", nsqtt, nprog, ndev,
		    root->u.seq.n - nsqtt - nprog - ndev);
	}
	pickle_free(pk);
	free(buf);
	if (fflush(stdout) == EOF || ferror(stdout))
		err(2, "stdout");
	return 0;
}
