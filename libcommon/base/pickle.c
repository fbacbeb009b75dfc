/* pickle: a small Python pickle machine (protocols 0-5 read, 2-5 in practice) that builds
 * generic objects and never resolves classes.  See pickle.h.
 *
 * Hostile input is the norm here: every read is bounds-checked, nothing recurses on the
 * input, memo indices are bounded by the input size, and after STOP one iterative pass
 * over the result rejects cycles and nesting deeper than PK_MAX_DEPTH, so callers may walk
 * the tree recursively.  Values live in an arena; the stack, mark stack and memo are
 * working storage freed before pickle_load returns. */
#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "pickle.h"

#define PK_MAX_DEPTH	1000	/* levels of nesting a caller may meet */
#define PK_MAX_DIGITS	4300	/* as CPython's int(str) limit; keeps text ints linear */
/* values made (the largest real profile pickle makes under 50000): memory follows them */
#define PK_MAX_VALUES	(1 << 20)

/* Lists, tuples, dicts, sets and objects: the value, its capacity, and the marks of the
 * depth pass.  The value comes first so a struct pk_value * of those types is a node. */
struct node {
	struct pk_value v;
	struct dict_index *index;	/* big dicts, once loaded */
	uint32_t cap;		/* at most twice PK_MAX_VALUES */
	uint32_t depth : 30;	/* at most PK_MAX_DEPTH */
	uint32_t color : 2;	/* 0 unseen, 1 on the path, 2 done */
};

/* A loaded dict of more than DICT_SCAN str keys gets its str keys sorted (by length,
 * bytes, then position), so a lookup is a binary search: many objects sharing one big
 * state dict can not make a caller's lookups quadratic. */
#define DICT_SCAN	8
struct dict_ent {
	const struct pk_value *key;
	size_t i;
};
struct dict_index {
	size_t n;
	struct dict_ent e[];
};

/* what the arena holds needs no more (a node: 56 bytes, not 64 at max_align_t's 16:
 * a million values are the most of a pickle's memory) */
#define ALIGN		(_Alignof(struct node))

struct pickle {
	struct arena arena;
};

struct ld {
	struct pickle *pk;
	const unsigned char *d;
	size_t len, pos, op_at;
	unsigned char op;
	struct pk_value **stack;
	size_t sp, scap;
	size_t *marks;
	size_t nmarks, mcap;
	struct pk_value **memo;
	size_t memo_cap, memo_count;
	struct pk_value *none, *yes, *no, *empty_tuple;
	char *err;
	size_t errsz;
	size_t nvalues;
};

static const char *const opname[256] = {
	['('] = "MARK", ['.'] = "STOP", ['0'] = "POP", ['1'] = "POP_MARK", ['2'] = "DUP",
	['F'] = "FLOAT", ['I'] = "INT", ['J'] = "BININT", ['K'] = "BININT1", ['L'] = "LONG",
	['M'] = "BININT2", ['N'] = "NONE", ['P'] = "PERSID", ['Q'] = "BINPERSID",
	['R'] = "REDUCE", ['S'] = "STRING", ['T'] = "BINSTRING", ['U'] = "SHORT_BINSTRING",
	['V'] = "UNICODE", ['X'] = "BINUNICODE", ['a'] = "APPEND", ['b'] = "BUILD",
	['c'] = "GLOBAL", ['d'] = "DICT", ['}'] = "EMPTY_DICT", ['e'] = "APPENDS",
	['g'] = "GET", ['h'] = "BINGET", ['i'] = "INST", ['j'] = "LONG_BINGET", ['l'] = "LIST",
	[']'] = "EMPTY_LIST", ['o'] = "OBJ", ['p'] = "PUT", ['q'] = "BINPUT",
	['r'] = "LONG_BINPUT", ['s'] = "SETITEM", ['t'] = "TUPLE", [')'] = "EMPTY_TUPLE",
	['u'] = "SETITEMS", ['G'] = "BINFLOAT", ['B'] = "BINBYTES", ['C'] = "SHORT_BINBYTES",
	[0x80] = "PROTO", [0x81] = "NEWOBJ", [0x82] = "EXT1", [0x83] = "EXT2", [0x84] = "EXT4",
	[0x85] = "TUPLE1", [0x86] = "TUPLE2", [0x87] = "TUPLE3", [0x88] = "NEWTRUE",
	[0x89] = "NEWFALSE", [0x8a] = "LONG1", [0x8b] = "LONG4", [0x8c] = "SHORT_BINUNICODE",
	[0x8d] = "BINUNICODE8", [0x8e] = "BINBYTES8", [0x8f] = "EMPTY_SET", [0x90] = "ADDITEMS",
	[0x91] = "FROZENSET", [0x92] = "NEWOBJ_EX", [0x93] = "STACK_GLOBAL", [0x94] = "MEMOIZE",
	[0x95] = "FRAME", [0x96] = "BYTEARRAY8", [0x97] = "NEXT_BUFFER",
	[0x98] = "READONLY_BUFFER",
};

/* For messages: "target is a tuple". */
static const char *const tname[] = {
	[PK_NONE] = "None", [PK_BOOL] = "a bool", [PK_INT] = "an int", [PK_BIGINT] = "an int",
	[PK_FLOAT] = "a float", [PK_STR] = "a str", [PK_BYTES] = "bytes", [PK_LIST] = "a list",
	[PK_TUPLE] = "a tuple", [PK_DICT] = "a dict", [PK_SET] = "a set",
	[PK_GLOBAL] = "a global", [PK_OBJECT] = "an object",
};

static void *
arena_of(struct pickle *pk, size_t n)
{
	return arena_alloc(&pk->arena, n, ALIGN);
}

void
pickle_free(struct pickle *pk)
{
	if (pk == NULL)
		return;
	arena_free(&pk->arena);
	free(pk);
}

/* Errors: one line in L->err; the callers return NULL or -1. */

static void
fail(struct ld *L, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void
fail(struct ld *L, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(L->err, L->errsz, fmt, ap);
	va_end(ap);
}

static const char *
op_name(unsigned char op)
{
	return opname[op] != NULL ? opname[op] : "?";
}

static void
fail_op(struct ld *L, const char *what)
{
	fail(L, "%s at byte %zu (%s)", what, L->op_at, op_name(L->op));
}

static void
fail_type(struct ld *L, const char *what, const struct pk_value *v)
{
	fail(L, "%s is %s at byte %zu (%s)", what, tname[v->type], L->op_at,
	    op_name(L->op));
}

static void
fail_nomem(struct ld *L)
{
	fail(L, "out of memory at byte %zu (%s)", L->op_at, op_name(L->op));
}

/* Input */

static const unsigned char *
take(struct ld *L, uint64_t n)
{
	const unsigned char *p;

	if (n > (uint64_t)(L->len - L->pos)) {
		fail(L, "truncated at byte %zu (%s wants %" PRIu64 " bytes, %zu left)",
		    L->op_at, op_name(L->op), n, L->len - L->pos);
		return NULL;
	}
	p = L->d + L->pos;
	L->pos += (size_t)n;
	return p;
}

static int
take_le(struct ld *L, int n, uint64_t *out)
{
	const unsigned char *p;
	uint64_t v = 0;

	if ((p = take(L, (uint64_t)n)) == NULL)
		return -1;
	while (n-- > 0)
		v = v << 8 | p[n];
	*out = v;
	return 0;
}

/* A text argument: the bytes up to '\n', which is consumed and not returned. */
static const unsigned char *
take_line(struct ld *L, size_t *n)
{
	const unsigned char *p = L->d + L->pos, *nl;

	if ((nl = memchr(p, '\n', L->len - L->pos)) == NULL) {
		fail(L, "truncated at byte %zu (%s has no end of line)", L->op_at,
		    op_name(L->op));
		return NULL;
	}
	*n = (size_t)(nl - p);
	L->pos += *n + 1;
	return p;
}

static int
in_input(const struct ld *L, const char *s)
{
	uintptr_t a = (uintptr_t)s, b = (uintptr_t)L->d;

	return a >= b && a - b < L->len;
}

/* Values */

/* Zeroed arena memory; NULL (and the load failed) when out of memory. */
static void *
zalloc(struct ld *L, size_t size)
{
	void *p;

	if (++L->nvalues > PK_MAX_VALUES) {
		fail(L, "more than %d values at byte %zu: more than a profile pickle holds",
		    PK_MAX_VALUES, L->op_at);
		return NULL;
	}
	if ((p = arena_of(L->pk, size)) == NULL) {
		fail_nomem(L);
		return NULL;
	}
	return memset(p, 0, size);
}

static struct pk_value *
new_val(struct ld *L, enum pk_type type)
{
	struct pk_value *v = zalloc(L, sizeof(*v));

	if (v != NULL)
		v->type = type;
	return v;
}

static struct pk_value *
new_node(struct ld *L, enum pk_type type)
{
	struct node *n = zalloc(L, sizeof(*n));

	if (n == NULL)
		return NULL;
	n->v.type = type;
	return &n->v;
}

static struct pk_value *
new_int(struct ld *L, int64_t i)
{
	struct pk_value *v;

	if ((v = new_val(L, PK_INT)) != NULL)
		v->u.i = i;
	return v;
}

static struct pk_value *
new_str(struct ld *L, enum pk_type type, const void *s, size_t n)
{
	struct pk_value *v;

	if ((v = new_val(L, type)) != NULL) {
		v->u.str.s = s;
		v->u.str.len = n;
	}
	return v;
}

/* A built string: arena copy with a NUL after it. */
static char *
arena_str(struct ld *L, size_t n)
{
	char *s;

	if (n == SIZE_MAX || (s = arena_of(L->pk, n + 1)) == NULL) {
		fail_nomem(L);
		return NULL;
	}
	s[n] = '\0';
	return s;
}

static struct pk_value **
new_items(struct ld *L, size_t n)
{
	struct pk_value **item;

	if (n > SIZE_MAX / sizeof(*item) ||
	    (item = arena_of(L->pk, n * sizeof(*item))) == NULL) {
		fail_nomem(L);
		return NULL;
	}
	return item;
}

/* A list, tuple or set holding item[0..n). */
static struct pk_value *
new_seq(struct ld *L, enum pk_type type, struct pk_value **item, size_t n)
{
	struct pk_value *v;

	if (type == PK_TUPLE && n == 0)
		return L->empty_tuple;
	if ((v = new_node(L, type)) == NULL)
		return NULL;
	if (n > 0) {
		if ((v->u.seq.item = new_items(L, n)) == NULL)
			return NULL;
		memcpy(v->u.seq.item, item, n * sizeof(*item));
	}
	v->u.seq.n = n;
	((struct node *)v)->cap = n;
	return v;
}

/* Grow a list or set by item[0..k); arrays double so appends stay linear. */
static int
seq_add(struct ld *L, struct pk_value *v, struct pk_value **item, size_t k)
{
	struct node *nd = (struct node *)v;
	struct pk_value **a;
	size_t cap;

	if (k == 0)
		return 0;
	if (k > nd->cap - v->u.seq.n) {
		cap = nd->cap * 2 > v->u.seq.n + k ? nd->cap * 2 : v->u.seq.n + k;
		if (cap < 4)
			cap = 4;
		if ((a = new_items(L, cap)) == NULL)
			return -1;
		if (v->u.seq.n > 0)
			memcpy(a, v->u.seq.item, v->u.seq.n * sizeof(*a));
		v->u.seq.item = a;
		nd->cap = cap;
	}
	memcpy(v->u.seq.item + v->u.seq.n, item, k * sizeof(*item));
	v->u.seq.n += k;
	return 0;
}

/* Add the k/2 pairs of kv[0..k) to a dict.  A repeated key is kept twice; lookups
 * search from the end, so the later one wins as in Python. */
static int
dict_add(struct ld *L, struct pk_value *v, struct pk_value **kv, size_t k)
{
	struct node *nd = (struct node *)v;
	struct pk_value **nk, **nv;
	size_t i, n = k / 2, cap;

	if (k % 2 != 0) {
		fail_op(L, "odd number of items for a dict");
		return -1;
	}
	if (n == 0)
		return 0;
	if (n > nd->cap - v->u.dict.n) {
		cap = nd->cap * 2 > v->u.dict.n + n ? nd->cap * 2 : v->u.dict.n + n;
		if (cap < 4)
			cap = 4;
		if ((nk = new_items(L, cap)) == NULL || (nv = new_items(L, cap)) == NULL)
			return -1;
		if (v->u.dict.n > 0) {
			memcpy(nk, v->u.dict.key, v->u.dict.n * sizeof(*nk));
			memcpy(nv, v->u.dict.val, v->u.dict.n * sizeof(*nv));
		}
		v->u.dict.key = nk;
		v->u.dict.val = nv;
		nd->cap = cap;
	}
	for (i = 0; i < n; i++) {
		v->u.dict.key[v->u.dict.n] = kv[2 * i];
		v->u.dict.val[v->u.dict.n] = kv[2 * i + 1];
		v->u.dict.n++;
	}
	return 0;
}

/* Stack and marks */

static int
push(struct ld *L, struct pk_value *v)
{
	struct pk_value **s;
	size_t cap;

	if (v == NULL)
		return -1;	/* the maker has said why */
	if (L->sp == L->scap) {
		cap = L->scap ? L->scap * 2 : 256;
		if ((s = realloc(L->stack, cap * sizeof(*s))) == NULL) {
			fail_nomem(L);
			return -1;
		}
		L->stack = s;
		L->scap = cap;
	}
	L->stack[L->sp++] = v;
	return 0;
}

static size_t
stack_base(const struct ld *L)
{
	return L->nmarks > 0 ? L->marks[L->nmarks - 1] : 0;
}

/* The k values on top of the stack (above the last mark), oldest first. */
static struct pk_value **
top_n(struct ld *L, size_t k)
{
	if (L->sp - stack_base(L) < k) {
		fail_op(L, "stack underflow");
		return NULL;
	}
	return L->stack + L->sp - k;
}

static struct pk_value *
pop(struct ld *L)
{
	struct pk_value **v;

	if ((v = top_n(L, 1)) == NULL)
		return NULL;
	L->sp--;
	return *v;
}

static struct pk_value *
top(struct ld *L)
{
	struct pk_value **v;

	return (v = top_n(L, 1)) != NULL ? *v : NULL;
}

/* Pop back to the last MARK: the k values above it, valid until the next push. */
static int
pop_mark(struct ld *L, struct pk_value ***items, size_t *k)
{
	size_t base;

	if (L->nmarks == 0) {
		fail_op(L, "MARK missing");
		return -1;
	}
	base = L->marks[--L->nmarks];
	*k = L->sp - base;
	*items = *k > 0 ? L->stack + base : NULL;
	L->sp = base;
	return 0;
}

static int
push_mark(struct ld *L)
{
	size_t *m, cap;

	if (L->nmarks == L->mcap) {
		cap = L->mcap ? L->mcap * 2 : 64;
		if ((m = realloc(L->marks, cap * sizeof(*m))) == NULL) {
			fail_nomem(L);
			return -1;
		}
		L->marks = m;
		L->mcap = cap;
	}
	L->marks[L->nmarks++] = L->sp;
	return 0;
}

/* Memo: dense, as Python numbers it 0, 1, 2...; an index can not exceed the input size,
 * since each entry costs at least one byte of PUT or MEMOIZE. */
static int
memo_put(struct ld *L, uint64_t idx)
{
	struct pk_value *v, **m;
	size_t cap;

	if ((v = top(L)) == NULL)
		return -1;
	if (idx >= L->len) {
		fail(L, "memo index %" PRIu64 " out of range at byte %zu (%s)", idx,
		    L->op_at, op_name(L->op));
		return -1;
	}
	if (idx >= L->memo_cap) {
		cap = L->memo_cap ? L->memo_cap : 256;
		while (cap <= idx)
			cap *= 2;
		if (cap > L->len)
			cap = L->len;
		if ((m = realloc(L->memo, cap * sizeof(*m))) == NULL) {
			fail_nomem(L);
			return -1;
		}
		memset(m + L->memo_cap, 0, (cap - L->memo_cap) * sizeof(*m));
		L->memo = m;
		L->memo_cap = cap;
	}
	if (L->memo[idx] == NULL)
		L->memo_count++;
	L->memo[idx] = v;
	return 0;
}

static int
memo_get(struct ld *L, uint64_t idx)
{
	if (idx >= L->memo_cap || L->memo[idx] == NULL) {
		fail(L, "memo index %" PRIu64 " not defined at byte %zu (%s)", idx,
		    L->op_at, op_name(L->op));
		return -1;
	}
	return push(L, L->memo[idx]);
}

/* Numbers */

/* LONG1/LONG4 bytes: little-endian two's complement. */
static struct pk_value *
make_long(struct ld *L, const unsigned char *p, size_t n)
{
	uint64_t u = 0;
	unsigned char ext;
	size_t i;

	if (n == 0)
		return new_int(L, 0);
	ext = (p[n - 1] & 0x80) ? 0xff : 0x00;
	for (i = 8; i < n; i++)
		if (p[i] != ext)
			return new_str(L, PK_BIGINT, p, n);
	if (n >= 8 && (p[7] & 0x80) != (ext & 0x80))
		return new_str(L, PK_BIGINT, p, n);
	for (i = 0; i < 8; i++)
		u |= (uint64_t)(i < n ? p[i] : ext) << (8 * i);
	return new_int(L, (int64_t)u);
}

static int
is_space(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

/* A decimal integer of INT or LONG: PK_INT when it fits in int64, else PK_BIGINT bytes
 * built as LONG1 would have them. */
static struct pk_value *
make_int_text(struct ld *L, const unsigned char *s, size_t n)
{
	uint32_t *limb;
	unsigned char *b;
	size_t i, j, nd, nl = 0, nb;
	uint64_t u = 0, carry;
	int neg = 0, big = 0;

	while (n > 0 && is_space(s[n - 1]))
		n--;
	while (n > 0 && is_space(*s))
		s++, n--;
	if (n > 0 && (*s == '-' || *s == '+')) {
		neg = *s == '-';
		s++, n--;
	}
	if (n == 0) {
		fail_op(L, "bad integer");
		return NULL;
	}
	if (n > PK_MAX_DIGITS) {
		fail_op(L, "integer of too many digits");
		return NULL;
	}
	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9') {
			fail_op(L, "bad integer");
			return NULL;
		}
		if (u > (UINT64_MAX - 9) / 10)
			big = 1;
		else
			u = u * 10 + (uint64_t)(s[i] - '0');
	}
	if (!big && !neg && u <= INT64_MAX)
		return new_int(L, (int64_t)u);
	if (!big && neg && u <= (uint64_t)INT64_MAX + 1)
		return new_int(L, u == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)u);

	/* magnitude in 32-bit limbs, 9 digits at a time */
	nd = n / 9 + 2;
	if ((limb = (uint32_t *)new_items(L, nd)) == NULL)
		return NULL;
	for (i = 0; i < n; ) {
		uint64_t mul = 1, add = 0;

		for (j = 0; j < 9 && i < n; j++, i++) {
			mul *= 10;
			add = add * 10 + (uint64_t)(s[i] - '0');
		}
		carry = add;
		for (j = 0; j < nl; j++) {
			uint64_t t = (uint64_t)limb[j] * mul + carry;

			limb[j] = (uint32_t)t;
			carry = t >> 32;
		}
		if (carry != 0)
			limb[nl++] = (uint32_t)carry;
	}
	/* two's complement bytes, one more for the sign */
	nb = nl * 4 + 1;
	if ((b = (unsigned char *)arena_str(L, nb)) == NULL)
		return NULL;
	for (i = 0; i < nb; i++)
		b[i] = i / 4 < nl ? (unsigned char)(limb[i / 4] >> (8 * (i % 4))) : 0;
	if (neg) {
		carry = 1;
		for (i = 0; i < nb; i++) {
			carry += (unsigned char)~b[i];
			b[i] = (unsigned char)carry;
			carry >>= 8;
		}
	}
	while (nb > 1 && b[nb - 1] == (neg ? 0xff : 0x00) &&
	    (b[nb - 2] & 0x80) == (neg ? 0x80 : 0x00))
		nb--;
	return new_str(L, PK_BIGINT, b, nb);
}

static struct pk_value *
make_float_text(struct ld *L, const unsigned char *s, size_t n)
{
	char buf[256], *end;
	struct pk_value *v;
	double f;

	if (n == 0 || n >= sizeof(buf)) {
		fail_op(L, "bad float");
		return NULL;
	}
	memcpy(buf, s, n);
	buf[n] = '\0';
	f = strtod(buf, &end);
	while (is_space((unsigned char)*end))
		end++;
	if (end == buf || *end != '\0') {
		fail_op(L, "bad float");
		return NULL;
	}
	if ((v = new_val(L, PK_FLOAT)) != NULL)
		v->u.f = f;
	return v;
}

/* Strings of the text opcodes */

/* STRING: a quoted repr, undone as codecs.escape_decode does. */
static struct pk_value *
make_string_text(struct ld *L, const unsigned char *s, size_t n)
{
	char *o;
	size_t i, k = 0;
	int h1, h2;

	if (n < 2 || s[0] != s[n - 1] || (s[0] != '\'' && s[0] != '"')) {
		fail_op(L, "STRING argument not quoted");
		return NULL;
	}
	s++;
	n -= 2;
	if ((o = arena_str(L, n)) == NULL)
		return NULL;
	for (i = 0; i < n; i++) {
		unsigned char c = s[i];

		if (c != '\\') {
			o[k++] = (char)c;
			continue;
		}
		if (++i == n) {
			fail_op(L, "trailing \\ in STRING");
			return NULL;
		}
		switch (c = s[i]) {
		case '\n': break;
		case '\\': case '\'': case '"': o[k++] = (char)c; break;
		case 'a': o[k++] = '\a'; break;
		case 'b': o[k++] = '\b'; break;
		case 'f': o[k++] = '\f'; break;
		case 'n': o[k++] = '\n'; break;
		case 'r': o[k++] = '\r'; break;
		case 't': o[k++] = '\t'; break;
		case 'v': o[k++] = '\v'; break;
		case 'x':
			if (i + 2 >= n || (h1 = hex_digit((unsigned char)s[i + 1])) < 0 ||
			    (h2 = hex_digit((unsigned char)s[i + 2])) < 0) {
				fail_op(L, "bad \\x escape in STRING");
				return NULL;
			}
			o[k++] = (char)(h1 * 16 + h2);
			i += 2;
			break;
		default:
			if (c >= '0' && c <= '7') {
				unsigned v = c - '0';
				int j;

				for (j = 0; j < 2 && i + 1 < n && s[i + 1] >= '0' &&
				    s[i + 1] <= '7'; j++)
					v = v * 8 + (unsigned)(s[++i] - '0');
				o[k++] = (char)(v & 0xff);
			} else {
				o[k++] = '\\';
				o[k++] = (char)c;
			}
		}
	}
	o[k] = '\0';
	return new_str(L, PK_STR, o, k);
}

static size_t
put_utf8(char *o, uint32_t c)
{
	if (c < 0x80) {
		o[0] = (char)c;
		return 1;
	}
	if (c < 0x800) {
		o[0] = (char)(0xc0 | c >> 6);
		o[1] = (char)(0x80 | (c & 0x3f));
		return 2;
	}
	if (c < 0x10000) {
		o[0] = (char)(0xe0 | c >> 12);
		o[1] = (char)(0x80 | ((c >> 6) & 0x3f));
		o[2] = (char)(0x80 | (c & 0x3f));
		return 3;
	}
	o[0] = (char)(0xf0 | c >> 18);
	o[1] = (char)(0x80 | ((c >> 12) & 0x3f));
	o[2] = (char)(0x80 | ((c >> 6) & 0x3f));
	o[3] = (char)(0x80 | (c & 0x3f));
	return 4;
}

/* UNICODE: raw-unicode-escape (Latin-1 with \uXXXX and \UXXXXXXXX) into UTF-8.  Each
 * input byte yields at most two output bytes. */
static struct pk_value *
make_unicode_text(struct ld *L, const unsigned char *s, size_t n)
{
	char *o;
	size_t i = 0, k = 0, bs, j, w;
	uint32_t c;
	int h;

	if (n > (SIZE_MAX - 1) / 2) {
		fail_nomem(L);
		return NULL;
	}
	if ((o = arena_str(L, 2 * n)) == NULL)
		return NULL;
	while (i < n) {
		if (s[i] != '\\') {
			k += put_utf8(o + k, s[i++]);
			continue;
		}
		/* \u escapes only after an odd run of backslashes */
		for (bs = 0; i < n && s[i] == '\\'; i++, bs++)
			o[k++] = '\\';
		if (bs % 2 == 0 || i == n || (s[i] != 'u' && s[i] != 'U'))
			continue;
		k--;
		w = s[i] == 'u' ? 4 : 8;
		i++;
		for (c = 0, j = 0; j < w; j++, i++) {
			if (i == n || (h = hex_digit((unsigned char)s[i])) < 0) {
				fail_op(L, "truncated \\uXXXX escape in UNICODE");
				return NULL;
			}
			c = c << 4 | (uint32_t)h;
		}
		if (c > 0x10ffff) {
			fail_op(L, "\\Uxxxxxxxx out of range in UNICODE");
			return NULL;
		}
		k += put_utf8(o + k, c);
	}
	o[k] = '\0';
	return new_str(L, PK_STR, o, k);
}

/* Globals and objects */

/* The NUL-terminated text of a str for a class name: copied once, then the str points
 * at the copy (same bytes), so a memoized name reused many times costs nothing more. */
static const char *
cstr(struct ld *L, struct pk_value *v)
{
	char *s;

	if (v->u.str.len == 0)
		return "";
	if (!in_input(L, v->u.str.s))
		return v->u.str.s;	/* built by us, NUL-terminated */
	if ((s = arena_str(L, v->u.str.len)) == NULL)
		return NULL;
	memcpy(s, v->u.str.s, v->u.str.len);
	v->u.str.s = s;
	return s;
}

static struct pk_value *
make_global(struct ld *L, const char *module, const char *name)
{
	struct pk_value *v;

	if ((v = new_val(L, PK_GLOBAL)) != NULL) {
		v->u.obj.module = module;
		v->u.obj.name = name;
	}
	return v;
}

/* GLOBAL and INST: "module\nname\n", copied to be NUL-terminated. */
static struct pk_value *
global_text(struct ld *L)
{
	const unsigned char *m, *n;
	size_t mlen, nlen;
	char *ms, *ns;

	if ((m = take_line(L, &mlen)) == NULL || (n = take_line(L, &nlen)) == NULL)
		return NULL;
	if ((ms = arena_str(L, mlen)) == NULL || (ns = arena_str(L, nlen)) == NULL)
		return NULL;
	memcpy(ms, m, mlen);
	memcpy(ns, n, nlen);
	return make_global(L, ms, ns);
}

static struct pk_value *
make_object(struct ld *L, const struct pk_value *cls, struct pk_value *args)
{
	struct pk_value *v;

	if (cls->type != PK_GLOBAL) {
		fail_type(L, "callable or class", cls);
		return NULL;
	}
	if (args->type != PK_TUPLE) {
		fail_type(L, "argument list", args);
		return NULL;
	}
	if ((v = new_node(L, PK_OBJECT)) != NULL) {
		v->u.obj.module = cls->u.obj.module;
		v->u.obj.name = cls->u.obj.name;
		v->u.obj.args = args;
	}
	return v;
}

/* The loop */

enum { PROTO_MAX = 5 };

static int
step(struct ld *L, struct pk_value **root)
{
	struct pk_value *v, *w, *x, **items;
	const unsigned char *p;
	uint64_t u;
	size_t n, k;

	L->op_at = L->pos;
	L->op = L->d[L->pos++];
	switch (L->op) {
	case 0x80:	/* PROTO */
		if (take_le(L, 1, &u) < 0)
			return -1;
		if (u > PROTO_MAX) {
			fail(L, "unsupported pickle protocol %" PRIu64 " at byte %zu", u,
			    L->op_at);
			return -1;
		}
		return 0;
	case 0x95:	/* FRAME: framing is only a hint for buffered readers */
		if (take_le(L, 8, &u) < 0)
			return -1;
		if (u > L->len - L->pos) {
			fail(L, "truncated at byte %zu (FRAME of %" PRIu64 " bytes, %zu left)",
			    L->op_at, u, L->len - L->pos);
			return -1;
		}
		return 0;
	case '.':	/* STOP */
		if ((v = pop(L)) == NULL)
			return -1;
		*root = v;
		return 1;
	case '(':
		return push_mark(L);
	case '0':	/* POP: with nothing above the mark, Python drops the mark */
		if (L->sp > stack_base(L))
			L->sp--;
		else if (L->nmarks > 0)
			L->nmarks--;
		else
			return fail_op(L, "stack underflow"), -1;
		return 0;
	case '1':
		return pop_mark(L, &items, &k);
	case '2':
		return (v = top(L)) == NULL ? -1 : push(L, v);
	case 'N':
		return push(L, L->none);
	case 0x88:
		return push(L, L->yes);
	case 0x89:
		return push(L, L->no);

	case 'I':
		if ((p = take_line(L, &n)) == NULL)
			return -1;
		if (n == 2 && p[0] == '0' && (p[1] == '0' || p[1] == '1'))
			return push(L, p[1] == '1' ? L->yes : L->no);
		return push(L, make_int_text(L, p, n));
	case 'L':
		if ((p = take_line(L, &n)) == NULL)
			return -1;
		if (n > 0 && p[n - 1] == 'L')
			n--;
		return push(L, make_int_text(L, p, n));
	case 'J':
		if (take_le(L, 4, &u) < 0)
			return -1;
		return push(L, new_int(L, (int32_t)(uint32_t)u));
	case 'K':
		if (take_le(L, 1, &u) < 0)
			return -1;
		return push(L, new_int(L, (int64_t)u));
	case 'M':
		if (take_le(L, 2, &u) < 0)
			return -1;
		return push(L, new_int(L, (int64_t)u));
	case 0x8a:	/* LONG1 */
	case 0x8b:	/* LONG4 */
		if (take_le(L, L->op == 0x8a ? 1 : 4, &u) < 0)
			return -1;
		if (L->op == 0x8b && (int32_t)(uint32_t)u < 0)
			return fail_op(L, "negative length"), -1;
		if ((p = take(L, u)) == NULL)
			return -1;
		return push(L, make_long(L, p, (size_t)u));
	case 'G':	/* BINFLOAT: big-endian */
		if ((p = take(L, 8)) == NULL)
			return -1;
		if ((v = new_val(L, PK_FLOAT)) == NULL)
			return -1;
		for (u = 0, k = 0; k < 8; k++)
			u = u << 8 | p[k];
		memcpy(&v->u.f, &u, sizeof(v->u.f));
		return push(L, v);
	case 'F':
		if ((p = take_line(L, &n)) == NULL)
			return -1;
		return push(L, make_float_text(L, p, n));

	case 'S':
		if ((p = take_line(L, &n)) == NULL)
			return -1;
		return push(L, make_string_text(L, p, n));
	case 'V':
		if ((p = take_line(L, &n)) == NULL)
			return -1;
		return push(L, make_unicode_text(L, p, n));
	case 'T':	/* BINSTRING: a signed length */
		if (take_le(L, 4, &u) < 0)
			return -1;
		if ((int32_t)(uint32_t)u < 0)
			return fail_op(L, "negative length"), -1;
		if ((p = take(L, u)) == NULL)
			return -1;
		return push(L, new_str(L, PK_STR, p, (size_t)u));
	case 'U':	/* SHORT_BINSTRING */
	case 0x8c:	/* SHORT_BINUNICODE */
	case 'X':	/* BINUNICODE */
	case 0x8d:	/* BINUNICODE8 */
		if (take_le(L, L->op == 'X' ? 4 : L->op == 0x8d ? 8 : 1, &u) < 0 ||
		    (p = take(L, u)) == NULL)
			return -1;
		return push(L, new_str(L, PK_STR, p, (size_t)u));
	case 'C':	/* SHORT_BINBYTES */
	case 'B':	/* BINBYTES */
	case 0x8e:	/* BINBYTES8 */
	case 0x96:	/* BYTEARRAY8 */
		if (take_le(L, L->op == 'C' ? 1 : L->op == 'B' ? 4 : 8, &u) < 0 ||
		    (p = take(L, u)) == NULL)
			return -1;
		return push(L, new_str(L, PK_BYTES, p, (size_t)u));

	case ']':
		return push(L, new_node(L, PK_LIST));
	case 'l':
		if (pop_mark(L, &items, &k) < 0)
			return -1;
		return push(L, new_seq(L, PK_LIST, items, k));
	case 'a':	/* APPEND */
	case 'e':	/* APPENDS */
		if (L->op == 'a') {
			if ((items = top_n(L, 1)) == NULL)
				return -1;
			L->sp--;
			k = 1;
		} else if (pop_mark(L, &items, &k) < 0)
			return -1;
		if ((v = top(L)) == NULL)
			return -1;
		if (v->type == PK_LIST)
			return seq_add(L, v, items, k);
		if (v->type == PK_OBJECT)
			return 0;	/* a list subclass: its items are not kept */
		return fail_type(L, "target", v), -1;

	case ')':
		return push(L, L->empty_tuple);
	case 't':
		if (pop_mark(L, &items, &k) < 0)
			return -1;
		return push(L, new_seq(L, PK_TUPLE, items, k));
	case 0x85:	/* TUPLE1 */
	case 0x86:
	case 0x87:
		k = (size_t)(L->op - 0x84);
		if ((items = top_n(L, k)) == NULL)
			return -1;
		L->sp -= k;
		return push(L, new_seq(L, PK_TUPLE, items, k));

	case '}':
		return push(L, new_node(L, PK_DICT));
	case 'd':
		if (pop_mark(L, &items, &k) < 0)
			return -1;
		if ((v = new_node(L, PK_DICT)) == NULL || dict_add(L, v, items, k) < 0)
			return -1;
		return push(L, v);
	case 's':	/* SETITEM */
	case 'u':	/* SETITEMS */
		if (L->op == 's') {
			if ((items = top_n(L, 2)) == NULL)
				return -1;
			L->sp -= 2;
			k = 2;
		} else if (pop_mark(L, &items, &k) < 0)
			return -1;
		if ((v = top(L)) == NULL)
			return -1;
		if (v->type == PK_DICT)
			return dict_add(L, v, items, k);
		if (v->type == PK_OBJECT)
			return k % 2 == 0 ? 0 : (fail_op(L, "odd number of items for a dict"), -1);
		return fail_type(L, "target", v), -1;

	case 0x8f:	/* EMPTY_SET */
		return push(L, new_node(L, PK_SET));
	case 0x90:	/* ADDITEMS */
		if (pop_mark(L, &items, &k) < 0 || (v = top(L)) == NULL)
			return -1;
		if (v->type == PK_SET)
			return seq_add(L, v, items, k);
		if (v->type == PK_OBJECT)
			return 0;
		return fail_type(L, "target", v), -1;
	case 0x91:	/* FROZENSET */
		if (pop_mark(L, &items, &k) < 0)
			return -1;
		if ((v = new_node(L, PK_SET)) == NULL || seq_add(L, v, items, k) < 0)
			return -1;
		return push(L, v);

	case 'c':	/* GLOBAL */
		return push(L, global_text(L));
	case 0x93:	/* STACK_GLOBAL */
		if ((items = top_n(L, 2)) == NULL)
			return -1;
		if (items[0]->type != PK_STR)
			return fail_type(L, "module name", items[0]), -1;
		if (items[1]->type != PK_STR)
			return fail_type(L, "class name", items[1]), -1;
		{
			const char *mod, *name;

			if ((mod = cstr(L, items[0])) == NULL ||
			    (name = cstr(L, items[1])) == NULL)
				return -1;
			L->sp -= 2;
			return push(L, make_global(L, mod, name));
		}
	case 'R':	/* REDUCE */
		if ((items = top_n(L, 2)) == NULL)
			return -1;
		if ((v = make_object(L, items[0], items[1])) == NULL)
			return -1;
		L->sp -= 2;
		return push(L, v);
	case 0x81:	/* NEWOBJ */
		if ((items = top_n(L, 2)) == NULL)
			return -1;
		if ((v = make_object(L, items[0], items[1])) == NULL)
			return -1;
		L->sp -= 2;
		return push(L, v);
	case 0x92:	/* NEWOBJ_EX: keyword arguments are checked and dropped */
		if ((items = top_n(L, 3)) == NULL)
			return -1;
		if (items[2]->type != PK_DICT)
			return fail_type(L, "keyword arguments", items[2]), -1;
		if ((v = make_object(L, items[0], items[1])) == NULL)
			return -1;
		L->sp -= 3;
		return push(L, v);
	case 'o':	/* OBJ: MARK cls args... */
		if (pop_mark(L, &items, &k) < 0)
			return -1;
		if (k == 0)
			return fail_op(L, "no class"), -1;
		x = items[0];
		if ((w = new_seq(L, PK_TUPLE, items + 1, k - 1)) == NULL ||
		    (v = make_object(L, x, w)) == NULL)
			return -1;
		return push(L, v);
	case 'i':	/* INST: MARK args... then the class as text */
		if ((x = global_text(L)) == NULL)
			return -1;
		if (pop_mark(L, &items, &k) < 0)
			return -1;
		if ((w = new_seq(L, PK_TUPLE, items, k)) == NULL ||
		    (v = make_object(L, x, w)) == NULL)
			return -1;
		return push(L, v);
	case 'b':	/* BUILD: the latest state wins */
		if ((items = top_n(L, 2)) == NULL)
			return -1;
		if (items[0]->type != PK_OBJECT)
			return fail_type(L, "target", items[0]), -1;
		items[0]->u.obj.state = items[1];
		L->sp--;
		return 0;

	case 'p':	/* PUT */
	case 'g':	/* GET */
		if ((p = take_line(L, &n)) == NULL)
			return -1;
		for (u = 0, k = 0; k < n; k++) {
			if (p[k] < '0' || p[k] > '9' || u > UINT64_MAX / 10 - 1)
				return fail_op(L, "bad memo index"), -1;
			u = u * 10 + (uint64_t)(p[k] - '0');
		}
		if (n == 0)
			return fail_op(L, "bad memo index"), -1;
		return L->op == 'p' ? memo_put(L, u) : memo_get(L, u);
	case 'q':
		if (take_le(L, 1, &u) < 0)
			return -1;
		return memo_put(L, u);
	case 'r':
		if (take_le(L, 4, &u) < 0)
			return -1;
		return memo_put(L, u);
	case 0x94:	/* MEMOIZE */
		return memo_put(L, L->memo_count);
	case 'h':
		if (take_le(L, 1, &u) < 0)
			return -1;
		return memo_get(L, u);
	case 'j':
		if (take_le(L, 4, &u) < 0)
			return -1;
		return memo_get(L, u);

	case 0x82:
	case 0x83:
	case 0x84:
		return fail_op(L, "extension registry code unsupported"), -1;
	case 'P':
	case 'Q':
		return fail_op(L, "persistent id unsupported"), -1;
	case 0x97:
	case 0x98:
		return fail_op(L, "out-of-band buffer unsupported"), -1;
	default:
		fail(L, "unknown opcode 0x%02x at byte %zu", L->op, L->op_at);
		return -1;
	}
}

/* After STOP: reject cycles and nesting beyond PK_MAX_DEPTH, walking iteratively with
 * each node's depth remembered so shared subtrees are seen once. */
static int
is_node(const struct pk_value *v)
{
	return v->type == PK_LIST || v->type == PK_TUPLE || v->type == PK_DICT ||
	    v->type == PK_SET || v->type == PK_OBJECT;
}

static struct pk_value *
child(const struct pk_value *v, size_t i)
{
	switch (v->type) {
	case PK_LIST:
	case PK_TUPLE:
	case PK_SET:
		return i < v->u.seq.n ? v->u.seq.item[i] : NULL;
	case PK_DICT:
		return i < 2 * v->u.dict.n ?
		    (i % 2 ? v->u.dict.val : v->u.dict.key)[i / 2] : NULL;
	case PK_OBJECT:
		return i == 0 ? v->u.obj.args : i == 1 ? v->u.obj.state : NULL;
	default:
		return NULL;
	}
}

static size_t
nchild(const struct pk_value *v)
{
	switch (v->type) {
	case PK_LIST:
	case PK_TUPLE:
	case PK_SET:
		return v->u.seq.n;
	case PK_DICT:
		return 2 * v->u.dict.n;
	case PK_OBJECT:
		return 2;
	default:
		return 0;
	}
}

static int
key_cmp(const char *s, size_t n, const struct pk_value *k)
{
	int c;

	if (n != k->u.str.len)
		return n < k->u.str.len ? -1 : 1;
	if (n > 0 && (c = memcmp(s, k->u.str.s, n)) != 0)
		return c;
	return 0;
}

static int
ent_cmp(const void *a, const void *b)
{
	const struct dict_ent *x = a, *y = b;
	int c;

	if ((c = key_cmp(x->key->u.str.s, x->key->u.str.len, y->key)) != 0)
		return c;
	return x->i < y->i ? -1 : x->i > y->i;
}

static int
index_dict(struct ld *L, struct node *nd)
{
	const struct pk_value *d = &nd->v;
	struct dict_index *ix;
	size_t i, n = 0;

	for (i = 0; i < d->u.dict.n; i++)
		n += d->u.dict.key[i]->type == PK_STR;
	if (n <= DICT_SCAN)
		return 0;
	if ((ix = arena_of(L->pk, sizeof(*ix) + n * sizeof(ix->e[0]))) == NULL) {
		fail(L, "out of memory indexing a dict");
		return -1;
	}
	ix->n = 0;
	for (i = 0; i < d->u.dict.n; i++)
		if (d->u.dict.key[i]->type == PK_STR)
			ix->e[ix->n++] = (struct dict_ent){ d->u.dict.key[i], i };
	xqsort(ix->e, ix->n, sizeof(ix->e[0]), ent_cmp);
	nd->index = ix;
	return 0;
}

static int
check_shape(struct ld *L, struct pk_value *root)
{
	struct frame { struct node *n; size_t i; } *st;
	struct node *n, *c;
	struct pk_value *v;
	size_t sp = 0;
	int rc = 0;

	if (!is_node(root))
		return 0;
	if ((st = malloc(PK_MAX_DEPTH * sizeof(*st))) == NULL) {
		fail(L, "out of memory checking nesting");
		return -1;
	}
	st[sp++] = (struct frame){ (struct node *)root, 0 };
	((struct node *)root)->color = 1;
	while (sp > 0) {
		struct frame *f = &st[sp - 1];

		n = f->n;
		if (f->i == nchild(&n->v)) {
			n->color = 2;
			if (n->v.type == PK_DICT && index_dict(L, n) < 0) {
				rc = -1;
				break;
			}
			if (--sp > 0 && st[sp - 1].n->depth < n->depth + 1)
				st[sp - 1].n->depth = n->depth + 1;
			continue;
		}
		v = child(&n->v, f->i++);
		if (v == NULL || !is_node(v))
			continue;
		c = (struct node *)v;
		if (c->color == 1) {
			fail(L, "recursive structure: %s contains itself", tname[v->type]);
			rc = -1;
			break;
		}
		/* the chain root..n is sp nodes long; c and what is below it add 1 + depth */
		if (c->color == 2) {
			if (sp + 1 + c->depth > PK_MAX_DEPTH) {
				fail(L, "nesting deeper than %d levels", PK_MAX_DEPTH);
				rc = -1;
				break;
			}
			if (n->depth < c->depth + 1)
				n->depth = c->depth + 1;
			continue;
		}
		if (sp >= PK_MAX_DEPTH) {
			fail(L, "nesting deeper than %d levels", PK_MAX_DEPTH);
			rc = -1;
			break;
		}
		c->color = 1;
		st[sp++] = (struct frame){ c, 0 };
	}
	free(st);
	return rc;
}

struct pickle *
pickle_load(const unsigned char *data, size_t len, struct pk_value **root, char *err,
    size_t errsz)
{
	struct ld L;
	struct pk_value *r = NULL;
	char why[256] = "";
	int rc = 0;

	*root = NULL;
	if (errsz > 0)
		err[0] = '\0';
	if (len == 0 || data == NULL) {
		snprintf(err, errsz, "empty input");
		return NULL;
	}
	memset(&L, 0, sizeof(L));
	L.d = data;
	L.len = len;
	L.err = why;
	L.errsz = sizeof(why);
	if ((L.pk = calloc(1, sizeof(*L.pk))) == NULL) {
		snprintf(err, errsz, "out of memory");
		return NULL;
	}
	if ((L.none = new_val(&L, PK_NONE)) == NULL ||
	    (L.yes = new_val(&L, PK_BOOL)) == NULL ||
	    (L.no = new_val(&L, PK_BOOL)) == NULL ||
	    (L.empty_tuple = new_node(&L, PK_TUPLE)) == NULL)
		rc = -1;
	else
		L.yes->u.i = 1;
	while (rc == 0) {
		if (L.pos >= L.len) {
			fail(&L, "truncated at byte %zu (no STOP opcode)", L.len);
			rc = -1;
			break;
		}
		rc = step(&L, &r);
	}
	if (rc > 0 && check_shape(&L, r) < 0)
		rc = -2;	/* it parsed: a pickle, if an unusable one */
	free(L.stack);
	free(L.marks);
	free(L.memo);
	if (rc < 0) {
		if (data[0] != 0x80 && rc == -1)
			snprintf(err, errsz, "not a pickle (first byte 0x%02x is not PROTO: %s)",
			    data[0], why);
		else
			snprintf(err, errsz, "%s", why);
		pickle_free(L.pk);
		return NULL;
	}
	*root = r;
	return L.pk;
}

/* Lookups */

const struct pk_value *
pk_dict_get(const struct pk_value *dict, const char *key)
{
	const struct dict_index *ix;
	size_t i, n;

	if (dict == NULL || dict->type != PK_DICT || key == NULL)
		return NULL;
	n = strlen(key);
	if ((ix = ((const struct node *)dict)->index) != NULL) {
		size_t lo = 0, hi = ix->n, mid;

		/* the last entry not after key: the latest of equal keys */
		while (lo < hi) {
			mid = lo + (hi - lo) / 2;
			if (key_cmp(key, n, ix->e[mid].key) < 0)
				hi = mid;
			else
				lo = mid + 1;
		}
		if (lo > 0 && key_cmp(key, n, ix->e[lo - 1].key) == 0)
			return dict->u.dict.val[ix->e[lo - 1].i];
		return NULL;
	}
	for (i = dict->u.dict.n; i-- > 0; ) {
		const struct pk_value *k = dict->u.dict.key[i];

		if (k->type == PK_STR && k->u.str.len == n && memcmp(k->u.str.s, key, n) == 0)
			return dict->u.dict.val[i];
	}
	return NULL;
}

const struct pk_value *
pk_attr(const struct pk_value *obj, const char *name)
{
	const struct pk_value *st, *v;

	if (obj == NULL || obj->type != PK_OBJECT || (st = obj->u.obj.state) == NULL)
		return NULL;
	if (st->type == PK_DICT)
		return pk_dict_get(st, name);
	if (st->type == PK_TUPLE && st->u.seq.n == 2) {
		if ((v = pk_dict_get(st->u.seq.item[0], name)) != NULL)
			return v;
		return pk_dict_get(st->u.seq.item[1], name);
	}
	return NULL;
}

int
pk_is_object(const struct pk_value *v, const char *classname)
{
	return v != NULL && v->type == PK_OBJECT && classname != NULL &&
	    strcmp(v->u.obj.name, classname) == 0;
}
