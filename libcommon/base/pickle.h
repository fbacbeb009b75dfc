/* pickle: a small Python pickle machine (protocols 2-5) that builds generic objects.
 * Classes are never resolved: an instance is kept as (module, name, args, state), so a
 * pickle of classes we do not know still loads.  Everything lives in one arena owned
 * by struct pickle; str and bytes point into the caller's input buffer where possible,
 * so the input must outlive the pickle. */
#ifndef PICKLE_H
#define PICKLE_H
#include <stddef.h>
#include <stdint.h>

enum pk_type {
	PK_NONE, PK_BOOL, PK_INT, PK_BIGINT, PK_FLOAT, PK_STR, PK_BYTES,
	PK_LIST, PK_TUPLE, PK_DICT, PK_SET, PK_GLOBAL, PK_OBJECT
};

struct pk_value {
	enum pk_type type;
	union {
		int64_t i;			/* PK_BOOL (0/1), PK_INT */
		double f;			/* PK_FLOAT */
		struct { const char *s; size_t len; } str;	/* PK_STR (UTF-8), PK_BYTES, PK_BIGINT (raw LE bytes) */
		struct { struct pk_value **item; size_t n; } seq;	/* PK_LIST, PK_TUPLE, PK_SET */
		struct { struct pk_value **key, **val; size_t n; } dict;	/* PK_DICT */
		/* PK_GLOBAL: a class or function named module.name (args, state NULL).
		 * PK_OBJECT: the result of NEWOBJ/NEWOBJ_EX/REDUCE/OBJ/INST applied to a global:
		 * args is the argument tuple, state what BUILD gave it (often a dict), or NULL. */
		struct { const char *module, *name; struct pk_value *args, *state; } obj;
	} u;
};

struct pickle;

/* Load one pickle from data[0..len).  On failure returns NULL with a one-line reason in
 * err (e.g. "truncated at byte 1234 in BINBYTES", "unknown opcode 0x9f at byte 12",
 * "not a pickle: no PROTO opcode"). */
struct pickle *pickle_load(const unsigned char *data, size_t len, struct pk_value **root,
    char *err, size_t errsz);
void pickle_free(struct pickle *);

/* Lookups that return NULL when the shape does not fit. */
const struct pk_value *pk_dict_get(const struct pk_value *dict, const char *key);
/* An object's attribute: its state dict entry (or state[1] dict of a (None, slots) tuple). */
const struct pk_value *pk_attr(const struct pk_value *obj, const char *name);
/* Is this an object of class NAME (module ignored)? */
int pk_is_object(const struct pk_value *, const char *classname);

#endif
