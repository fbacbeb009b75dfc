/* json: strings written as JSON that is safe anywhere, inside an HTML <script> too. */
#ifndef JSON_H
#define JSON_H
#include <stdio.h>

/* s as a quoted JSON string: control characters, '"' and '\' escaped; '<', '>', '&',
 * U+2028 and U+2029 as \u escapes (so no "</script>" and no JavaScript line break can
 * appear); each byte that is not part of valid UTF-8 becomes U+FFFD. */
void json_put_string(FILE *fp, const char *s);

#endif
