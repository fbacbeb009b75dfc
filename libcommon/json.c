#include <err.h>
#include <string.h>

#include "json.h"
#include "util.h"

size_t
utf8_seq(const unsigned char *s)
{
	unsigned c = s[0], cp;
	size_t n, i;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2, cp = c & 0x1f;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3, cp = c & 0x0f;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4, cp = c & 0x07;
	else
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

void
json_string(FILE *fp, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t n;

	putc('"', fp);
	while (*s) {
		if (*s == '"' || *s == '\\') {
			putc('\\', fp);
			putc(*s++, fp);
		} else if (*s < 0x20 || *s == 0x7f) {
			fprintf(fp, "\\u%04x", *s++);
		} else if ((n = utf8_seq(s)) == 0) {
			fputs("\\ufffd", fp);
			s++;
		} else {
			fwrite(s, 1, n, fp);
			s += n;
		}
	}
	putc('"', fp);
}

char *
text_printable(const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	char *d = xcalloc(strlen(str) + 1, 1), *p = d;
	size_t n;

	while (*s) {
		/* C1 controls (U+0080..U+009F) too: some terminals take U+009B as CSI */
		if (*s < 0x20 || *s == 0x7f || (n = utf8_seq(s)) == 0 ||
		    (s[0] == 0xc2 && s[1] < 0xa0)) {
			*p++ = '?';
			s++;
		} else {
			memcpy(p, s, n);
			p += n;
			s += n;
		}
	}
	*p = '\0';
	return d;
}
