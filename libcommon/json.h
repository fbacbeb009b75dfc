/* json: strings for people and programs, from bytes that came out of a capture: JSON
 * string literals that are always valid, and text that is safe on a terminal. */
#ifndef JSON_H
#define JSON_H
#include <stddef.h>
#include <stdio.h>

/* Length of the valid UTF-8 sequence at s (1 for ASCII), 0 if the bytes there are not
 * one (a stray, overlong, surrogate or beyond U+10FFFF). */
size_t utf8_seq(const unsigned char *s);
/* s as a JSON string literal with its quotes: control bytes and DEL as \u00XX, bytes
 * that are not UTF-8 as \ufffd. */
void json_string(FILE *, const char *s);
/* s with every control byte, DEL and byte that is not UTF-8 replaced by '?': nothing
 * in it can move a terminal's cursor or change its state.  A new string. */
char *text_printable(const char *s);

#endif
