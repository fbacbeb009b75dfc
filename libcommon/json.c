#include <stddef.h>
#include <stdio.h>

#include "json.h"

/* Length of the valid UTF-8 sequence at s (2..4), 0 if there is none. */
static size_t
utf8_len(const unsigned char *s)
{
	unsigned c = s[0];

	if (c >= 0xc2 && c <= 0xdf)
		return (s[1] & 0xc0) == 0x80 ? 2 : 0;
	if (c >= 0xe0 && c <= 0xef) {
		/* no overlongs (e0 a0..), no surrogates (ed 80..9f) */
		unsigned lo = c == 0xe0 ? 0xa0 : 0x80, hi = c == 0xed ? 0x9f : 0xbf;
		if (s[1] < lo || s[1] > hi || (s[2] & 0xc0) != 0x80)
			return 0;
		return 3;
	}
	if (c >= 0xf0 && c <= 0xf4) {
		unsigned lo = c == 0xf0 ? 0x90 : 0x80, hi = c == 0xf4 ? 0x8f : 0xbf;
		if (s[1] < lo || s[1] > hi || (s[2] & 0xc0) != 0x80 || (s[3] & 0xc0) != 0x80)
			return 0;
		return 4;
	}
	return 0;
}

void
json_put_string(FILE *fp, const char *str)
{
	const unsigned char *s = (const unsigned char *)str, *run = s;
	size_t n;

	putc('"', fp);
	for (;;) {
		unsigned c = *s;

		if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\' && c != '<' && c != '>' &&
		    c != '&') {
			s++;
			continue;
		}
		if (c >= 0x80 && (n = utf8_len(s)) != 0 &&
		    !(n == 3 && s[0] == 0xe2 && s[1] == 0x80 && (s[2] == 0xa8 || s[2] == 0xa9))) {
			s += n;
			continue;
		}
		fwrite(run, 1, (size_t)(s - run), fp);
		if (c == 0)
			break;
		if (c == '"' || c == '\\')
			fprintf(fp, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", fp);
		else if (c == '\t')
			fputs("\\t", fp);
		else if (c < 0x80)
			fprintf(fp, "\\u%04x", c);
		else if (c == 0xe2 && utf8_len(s) == 3) {
			fprintf(fp, "\\u%04x", 0x2000u | ((s[1] & 0x3fu) << 6) | (s[2] & 0x3fu));
			s += 2;
		} else
			fputs("\\ufffd", fp);
		run = ++s;
	}
	putc('"', fp);
}
