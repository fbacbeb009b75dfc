/* elfsym: kernels by their ELF symbols (elfsym.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elfsym.h"
#include "util.h"

static uint64_t
rd(const uint8_t *p, int n)
{
	uint64_t v = 0;

	while (n-- > 0)
		v = v << 8 | p[n];
	return v;
}

static int
inside(uint64_t off, uint64_t len, size_t size)
{
	return off <= size && len <= size - off;
}

enum { SHT_SYMTAB_ = 2, SHT_DYNSYM_ = 11, STT_FUNC_ = 2, STT_OBJECT_ = 1 };

/* Calls fn for every named FUNC or OBJECT symbol of the first symbol table (.symtab,
 * else .dynsym) until fn returns non-zero, which is returned; -1 on a malformed file. */
static int
each_symbol(const uint8_t *img, size_t size, char *why, size_t whysz,
    int (*fn)(void *, const char *, unsigned type, uint64_t value, uint64_t size), void *ctx)
{
	uint64_t shoff, shent, shnum, i, j;
	int pass, r;

	static const uint8_t zero[16];

	/* some runtimes hand over code objects with a zeroed identification: the rest of
	 * the header still says where the sections are */
	if (size < 64 || (memcmp(img, zero, 16) != 0 &&
	    (memcmp(img, "\177ELF", 4) != 0 || img[4] != 2 || img[5] != 1))) {
		snprintf(why, whysz, "not an ELF64 little-endian file");
		return -1;
	}
	shoff = rd(img + 0x28, 8);
	shent = rd(img + 0x3a, 2);
	shnum = rd(img + 0x3c, 2);
	if (shent == 0)
		shent = 64;
	if (shent < 64 || shnum == 0 || shoff > size || shnum > (size - shoff) / shent) {
		snprintf(why, whysz, "no section header table within the file");
		return -1;
	}
	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < shnum; i++) {
			const uint8_t *h = img + shoff + i * shent, *sl;
			uint64_t off = rd(h + 24, 8), len = rd(h + 32, 8), link = rd(h + 40, 4);
			uint64_t ent = rd(h + 56, 8), soff, slen;
			if (rd(h + 4, 4) != (pass == 0 ? SHT_SYMTAB_ : SHT_DYNSYM_))
				continue;
			if (ent < 24 || !inside(off, len, size) || link >= shnum) {
				snprintf(why, whysz, "a symbol table beyond the end of the file");
				return -1;
			}
			sl = img + shoff + link * shent;
			soff = rd(sl + 24, 8);
			slen = rd(sl + 32, 8);
			if (!inside(soff, slen, size)) {
				snprintf(why, whysz, "a string table beyond the end of the file");
				return -1;
			}
			for (j = 1; j < len / ent; j++) {
				const uint8_t *s = img + off + j * ent;
				uint64_t nm = rd(s, 4);
				unsigned type = s[4] & 15;
				const char *name = (const char *)img + soff + nm;
				if ((type != STT_FUNC_ && type != STT_OBJECT_) || nm == 0 || nm >= slen ||
				    memchr(name, 0, slen - nm) == NULL)
					continue;
				if ((r = fn(ctx, name, type, rd(s + 8, 8), rd(s + 16, 8))) != 0)
					return r;
			}
			return 0;
		}
	}
	snprintf(why, whysz, "no symbol table");
	return -1;
}

struct at { uint64_t pc; char **name; };

static int
func_at(void *ctx, const char *name, unsigned type, uint64_t value, uint64_t size)
{
	struct at *a = ctx;

	(void)size;
	if (type != STT_FUNC_ || value != a->pc)
		return 0;
	*a->name = xstrdup(name);
	return 1;
}

int
elfsym_kernel_at(const uint8_t *img, size_t size, uint64_t pc, char **name, char *why,
    size_t whysz)
{
	struct at a = { pc, name };

	*name = NULL;
	return each_symbol(img, size, why, whysz, func_at, &a);
}

struct named { const char *name; size_t len; uint64_t entry, kd; int found; };

static int
named(void *ctx, const char *name, unsigned type, uint64_t value, uint64_t size)
{
	struct named *n = ctx;

	(void)size;
	if (type == STT_FUNC_ && strcmp(name, n->name) == 0) {
		n->entry = value;
		n->found = 1;
	} else if (type == STT_OBJECT_ && strncmp(name, n->name, n->len) == 0 &&
	    strcmp(name + n->len, ".kd") == 0)
		n->kd = value;
	return 0;
}

int
elfsym_kernel(const uint8_t *img, size_t size, const char *name, uint64_t *entry,
    uint64_t *kd, char *why, size_t whysz)
{
	struct named n = { name, strlen(name), 0, 0, 0 };

	if (each_symbol(img, size, why, whysz, named, &n) < 0)
		return -1;
	*entry = n.entry;
	*kd = n.kd;
	return n.found;
}

struct range { const char *name; uint64_t start, size, next; int found; };

static int
range_of(void *ctx, const char *name, unsigned type, uint64_t value, uint64_t size)
{
	struct range *r = ctx;

	if (type != STT_FUNC_)
		return 0;
	if (strcmp(name, r->name) == 0) {
		r->start = value;
		r->size = size;
		r->found = 1;
	}
	return 0;
}

static int
next_func(void *ctx, const char *name, unsigned type, uint64_t value, uint64_t size)
{
	struct range *r = ctx;

	(void)name;
	(void)size;
	if (type == STT_FUNC_ && value > r->start && value < r->next)
		r->next = value;
	return 0;
}

int
elfsym_kernel_range(const uint8_t *img, size_t size, const char *name, uint64_t *start,
    uint64_t *end, char *why, size_t whysz)
{
	struct range r = { name, 0, 0, UINT64_MAX, 0 };

	if (each_symbol(img, size, why, whysz, range_of, &r) < 0)
		return -1;
	if (!r.found)
		return 0;
	*start = r.start;
	if (r.size > 0 && r.start + r.size > r.start)
		*end = r.start + r.size;
	else {
		(void)each_symbol(img, size, why, whysz, next_func, &r);
		*end = r.next;
	}
	return 1;
}

struct only { char **name; int n; };

static int
only_func(void *ctx, const char *name, unsigned type, uint64_t value, uint64_t size)
{
	struct only *o = ctx;

	(void)value;
	(void)size;
	if (type != STT_FUNC_ || (o->n == 1 && strcmp(*o->name, name) == 0))
		return 0;	/* .symtab and .dynsym may both name it */
	if (o->n++ == 0)
		*o->name = xstrdup(name);
	return 0;
}

int
elfsym_only_kernel(const uint8_t *img, size_t size, char **name, char *why, size_t whysz)
{
	struct only o = { name, 0 };

	*name = NULL;
	if (each_symbol(img, size, why, whysz, only_func, &o) < 0)
		return -1;
	if (o.n == 1)
		return 1;
	free(*name);
	*name = NULL;
	return 0;
}

uint64_t
elfsym_load_size(const uint8_t *img, size_t size)
{
	uint64_t phoff, phent, phnum, i, end = 0;

	if (size < 64)
		return 0;
	phoff = rd(img + 0x20, 8);
	phent = rd(img + 0x36, 2);
	phnum = rd(img + 0x38, 2);
	if (phent < 56 || phoff > size || phnum > (size - phoff) / phent)
		return 0;
	for (i = 0; i < phnum; i++) {
		const uint8_t *h = img + phoff + i * phent;
		uint64_t vaddr = rd(h + 16, 8), memsz = rd(h + 40, 8);
		if (rd(h, 4) == 1 && vaddr + memsz > end && vaddr + memsz >= vaddr)
			end = vaddr + memsz;
	}
	return end;
}

unsigned
elfsym_mach(const uint8_t *img, size_t size)
{
	uint32_t flags;
	uint16_t machine;

	if (size < 64 || memcmp(img, "\177ELF", 4) != 0 || img[4] != 2 || img[5] != 1)
		return 0;
	memcpy(&machine, img + 18, 2);
	memcpy(&flags, img + 48, 4);
	return machine == 224 ? flags & 0xff : 0;	/* EM_AMDGPU, EF_AMDGPU_MACH */
}
