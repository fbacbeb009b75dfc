/* json: the toolkit's JSON.  Strings written as JSON that is safe anywhere, inside an
 * HTML <script> too; and a small reader for the toolkit's own files (stall tables,
 * baselines), whose text is hostile: depth, size, numbers and escapes are checked, errors
 * say the line. */
#ifndef JSON_H
#define JSON_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* s as a quoted JSON string: control characters, '"' and '\' escaped; '<', '>', '&',
 * U+2028 and U+2029 as \u escapes (so no "</script>" and no JavaScript line break can
 * appear); each byte that is not part of valid UTF-8 becomes U+FFFD. */
void json_put_string(FILE *fp, const char *s);
struct out_block;
void json_block_string(struct out_block *, const char *s);	/* the same, into a block */
/* Length of the valid UTF-8 sequence at s (1 for ASCII), 0 if the bytes there are not
 * one (a stray, overlong, surrogate or beyond U+10FFFF). */
size_t utf8_seq(const unsigned char *s);
/* s with every control byte (C0, DEL, C1) and byte that is not UTF-8 replaced by '?':
 * nothing in it can move a terminal's cursor or change its state.  A new string. */
char *text_printable(const char *s);

enum json_type { JSON_NULL, JSON_BOOL, JSON_NUMBER, JSON_STRING, JSON_ARRAY, JSON_OBJECT };

/* 48 bytes a value, in blocks of a document's own: a document of JSON_VALUES values
 * takes at most 48 MiB besides its strings. */
struct json {
	unsigned char type;	/* enum json_type */
	unsigned char is_int;	/* the number was an integer that fits int64: i, not num */
	unsigned line;		/* where the value starts, for messages */
	char *key;		/* a member of an object: its name */
	char *str;		/* JSON_STRING, without NUL bytes (\u0000 is refused) */
	union {
		double num;	/* JSON_NUMBER (not is_int) and JSON_BOOL */
		int64_t i;
	};
	struct json *child;	/* JSON_ARRAY, JSON_OBJECT: the first element */
	struct json *next;	/* the next element of the enclosing array or object */
};

/* The most values of one document, and the deepest nesting (more is an error). */
#define JSON_VALUES (1 << 20)
#define JSON_DEPTH 64

/* The value in buf[0..len), or NULL with a message ("line N: ...") in err; the message
 * holds no byte of the text that is not printable ASCII (each is \xHH). */
struct json *json_parse(const char *buf, size_t len, char *err, size_t errlen);
void json_free(struct json *);	/* a document json_parse gave, whole */
/* A member of an object by name, or NULL. */
const struct json *json_get(const struct json *obj, const char *key);

#endif
