/* codeobj: decode an AMDGPU code object once: sections and symbols with libelf (or, for
 * hand-made objects with a broken ELF header, a bounds-checked raw ELF64 section-header
 * parser), every executable section disassembled with LLVM's C API for the processor of
 * the stream's target (or of the object itself), each instruction classified by that
 * processor's instruction model, s_delay_alu dependencies attached, and the kernel entry
 * found.
 * Input may be hostile: every offset and size is checked against the image. */
#include "codeobj.h"
#include "gen.h"
#include "util.h"

#include <gelf.h>
#include <libelf.h>
#include <llvm-c/Disassembler.h>
#include <llvm-c/Target.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <threads.h>

#ifndef EM_AMDGPU
#define EM_AMDGPU 224
#endif

#include <stdatomic.h>

/* The instructions of one region, as a linear sweep from its start gives them. */
struct chunk {
	struct inst *insts;	/* pc-sorted, unique pcs */
	size_t n;
	char *strs;		/* texts and mnemonics of insts */
	/* direct index: slot[(pc - base) / 4] = index + 1 (0: none) */
	uint32_t *slot;
	size_t nslot;
	uint64_t base;
	int slot_exact;		/* every instruction is in the table: a miss is final */
};

/* Code is disassembled a region at a time, when a pc in it is first asked for: a region
 * runs from a function symbol's address, or from the start of an executable section, to
 * the next of these (or the section's end). */
struct region {
	uint64_t lo, hi;
	atomic_int state;	/* 0 not read yet, 1 read, -1 could not be (out of memory) */
	struct chunk c;
};

struct build;

struct codeobj {
	struct region *reg;	/* sorted by lo, disjoint */
	size_t nreg;
	struct build *b;	/* the image, sections and symbols, kept for the regions */
	mtx_t mtx;		/* held while a region is read */
	size_t ndecoded;	/* instructions read so far: the next one's index */
	size_t nparts;		/* parts of sweeps read by threads of their own */
	struct inst *all;	/* codeobj_insts of an object of many regions */
	size_t nall;
	int all_done;
	uint64_t entry;
	const struct isa_model *model;
};

/* ---- small helpers ---- */

static void seterr(char *err, size_t errsz, const char *fmt, ...)
{
	va_list ap;

	if (!err || !errsz)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errsz, fmt, ap);
	va_end(ap);
	for (char *p = err; *p; p++)	/* one line, always */
		if (*p == '\n' || *p == '\r')
			*p = ' ';
}

static uint16_t rd16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static uint32_t rd32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static uint64_t rd64(const uint8_t *p) { return rd32(p) | (uint64_t)rd32(p + 4) << 32; }


/* [off, off+len) lies inside an object of size sz */
static int inside(uint64_t off, uint64_t len, uint64_t sz) { return off <= sz && len <= sz - off; }

/* ---- LLVM: one process-wide disassembler per processor, used under a lock ---- */

static once_flag llvm_once = ONCE_FLAG_INIT;
static mtx_t llvm_mtx;
static int llvm_ok;
/* The processors' names come from the models' tables, never from a file: a few at most,
 * each with a disassembler for every thread that reads a region at once (LLVM's are not
 * shared between threads). */
#define NDISASM 64
static struct {
	const char *cpu;
	unsigned lane;
	LLVMDisasmContextRef dc;
} disasm_cache[NDISASM];
static size_t ndisasm;
/* codeobj_threads: the threads that read a region, and the least bytes a thread is given */
static atomic_uint read_threads = 1;
static atomic_size_t read_min = CODEOBJ_SPLIT_MIN;

static void llvm_init(void)
{
	LLVMInitializeAMDGPUTargetInfo();
	LLVMInitializeAMDGPUTargetMC();
	LLVMInitializeAMDGPUDisassembler();
	llvm_ok = mtx_init(&llvm_mtx, mtx_plain) == thrd_success;
}

/* The disassembler for processor cpu on thread lane of a read (0: the reader's own), made
 * on first use; NULL if LLVM cannot make it.  Called with llvm_mtx held. */
static LLVMDisasmContextRef disasm_for(const char *cpu, unsigned lane)
{
	LLVMDisasmContextRef dc;
	size_t i;

	for (i = 0; i < ndisasm; i++)
		if (disasm_cache[i].lane == lane && strcmp(disasm_cache[i].cpu, cpu) == 0)
			return disasm_cache[i].dc;
	if (ndisasm == NDISASM)
		return NULL;
	dc = LLVMCreateDisasmCPU("amdgcn-amd-amdhsa", cpu, NULL, 0, NULL, NULL);
	if (dc)
		LLVMSetDisasmOptions(dc, LLVMDisassembler_Option_PrintImmHex);
	disasm_cache[ndisasm].cpu = cpu;
	disasm_cache[ndisasm].lane = lane;
	disasm_cache[ndisasm++].dc = dc;
	return dc;
}

/* LLVM 22's AMDGPU disassembler crashes on some words no compiler emits (a call into its
 * decoder tables, a null register class): the models' disasm_unsafe name those found,
 * and a fault inside LLVMDisasmInstruction that none names makes its word one LLVM
 * cannot read, as if it had said so.  The handlers are LLVM's while a region is read
 * (llvm_mtx held); a fault elsewhere, on any thread, is left to what was there before. */
static const int guard_signals[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE };
#define NGUARD (sizeof guard_signals / sizeof guard_signals[0])
static _Thread_local sigjmp_buf *guard_jmp;
static struct sigaction guard_old[NGUARD];

static void
guard_fault(int sig)
{
	size_t i;

	if (guard_jmp != NULL)
		siglongjmp(*guard_jmp, 1);
	for (i = 0; i < NGUARD; i++)	/* not LLVM's: the fault again, as it was before */
		if (guard_signals[i] == sig)
			sigaction(sig, &guard_old[i], NULL);
}

static void
guard_on(void)
{
	struct sigaction sa;
	size_t i;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = guard_fault;
	sa.sa_flags = SA_NODEFER;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < NGUARD; i++)
		sigaction(guard_signals[i], &sa, &guard_old[i]);
}

static void
guard_off(void)
{
	size_t i;

	for (i = 0; i < NGUARD; i++)
		sigaction(guard_signals[i], &guard_old[i], NULL);
}

/* LLVMDisasmInstruction, 0 when it faults. */
static size_t
disasm_guarded(LLVMDisasmContextRef dc, uint8_t *win, size_t len, uint64_t pc, char *buf,
    size_t bufsz)
{
	sigjmp_buf jb;
	volatile size_t n = 0;

	if (sigsetjmp(jb, 0) == 0) {	/* SA_NODEFER: no mask to restore */
		guard_jmp = &jb;
		n = LLVMDisasmInstruction(dc, win, len, pc, buf, bufsz);
	}
	guard_jmp = NULL;
	return n;
}

/* One instruction of win (a zero-padded window longer than any) at pc into buf: its
 * length, 0 if LLVM reads none.  LLVM tries the longest encodings first (12 bytes on
 * gfx11 and later, the most costly): an instruction of a known family its encoding says
 * is shorter is given its length and a dword more (a literal the encoding did not show is
 * read, never past the bytes), and taken when that is the length LLVM finds; else the
 * whole window. */
static size_t
disasm_one(LLVMDisasmContextRef dc, const struct isa_model *m, uint8_t *win, size_t len,
    uint64_t pc, char *buf, size_t bufsz)
{
	size_t guess = m->length(win, len), n;

	if (guess + 4 < m->inst_max_bytes && guess + 4 <= len &&
	    m->family_class(rd32(win)) != IC_UNKNOWN &&
	    (n = disasm_guarded(dc, win, guess + 4, pc, buf, bufsz)) == guess)
		return n;
	return disasm_guarded(dc, win, len, pc, buf, bufsz);
}

static once_flag elf_once = ONCE_FLAG_INIT;
static int elf_ok;
static void elf_init(void) { elf_ok = elf_version(EV_CURRENT) != EV_NONE; }

/* ---- sections and symbols ---- */

struct sec {
	const char *name;	/* never NULL */
	int code;		/* disassembled: its code is the object's */
	uint32_t type;
	uint64_t flags, addr, off, size;
	int data_ok;		/* bytes [off, off+size) are in the image */
};

struct sym {
	const char *name;
	unsigned type;
	uint64_t value;
	size_t shndx;
	uint64_t size;
};

/* An instruction while building: what its struct inst is made of, a third of its size.
 * Its text is at toff in the arena, after every text made before it in the build. */
struct binst {
	uint64_t pc;
	size_t toff, moff;	/* text and mnemonic offsets in the arena */
	uint32_t w0;		/* first instruction word */
	uint8_t size;
	uint8_t undecoded;	/* LLVM could not read it: classed by its encoding family */
};

struct build {
	uint8_t *img;		/* private copy of the image */
	size_t size;
	Elf *elf;
	int rel;		/* ET_REL: descriptors' entry offsets are unrelocated */
	const struct isa_target *cpu;	/* the processor it is disassembled for */
	struct sec *secs;
	size_t nsecs;
	struct sym *syms;
	size_t nsyms, symcap;
	struct binst *bi;
	size_t nbi, bicap;
	char *arena;
	size_t alen, acap;
};

static const char *elferr(void)
{
	const char *m = elf_errmsg(-1);

	return m ? m : "unknown libelf error";
}

/* Sections (and symbols) with libelf.  -1 with a reason in why on failure. */
/* The section table of shnum entries, every name "" until read; both readers use it. */
static int alloc_secs(struct build *b, size_t shnum, char *why, size_t whysz)
{
	if ((b->secs = calloc(shnum, sizeof *b->secs)) == NULL) {
		seterr(why, whysz, "out of memory");
		return -1;
	}
	b->nsecs = shnum;
	for (size_t i = 0; i < shnum; i++)
		b->secs[i].name = "";
	return 0;
}

static int libelf_read(struct build *b, char *why, size_t whysz)
{
	GElf_Ehdr eh;
	size_t shnum, shstrndx;
	Elf_Scn *scn;

	b->elf = elf_memory((char *)b->img, b->size);
	if (!b->elf) {
		seterr(why, whysz, "libelf: %s", elferr());
		return -1;
	}
	if (elf_kind(b->elf) != ELF_K_ELF) {
		seterr(why, whysz, "libelf: not an ELF object");
		return -1;
	}
	if (!gelf_getehdr(b->elf, &eh)) {
		seterr(why, whysz, "libelf: %s", elferr());
		return -1;
	}
	b->rel = eh.e_type == ET_REL;
	if (gelf_getclass(b->elf) != ELFCLASS64) {
		seterr(why, whysz, "libelf: not a 64-bit ELF");
		return -1;
	}
	if (elf_getshdrnum(b->elf, &shnum) != 0 || elf_getshdrstrndx(b->elf, &shstrndx) != 0) {
		seterr(why, whysz, "libelf: %s", elferr());
		return -1;
	}
	if (shnum == 0 || shnum > b->size / sizeof(Elf64_Shdr) + 1) {
		seterr(why, whysz, "libelf: no section headers");
		return -1;
	}
	if (alloc_secs(b, shnum, why, whysz) != 0)
		return -1;
	for (scn = NULL; (scn = elf_nextscn(b->elf, scn)) != NULL;) {
		GElf_Shdr sh;
		size_t i = elf_ndxscn(scn);
		const char *nm;
		struct sec *s;

		if (i >= shnum)
			continue;
		if (!gelf_getshdr(scn, &sh)) {
			seterr(why, whysz, "libelf: section %zu: %s", i, elferr());
			return -1;
		}
		s = &b->secs[i];
		nm = elf_strptr(b->elf, shstrndx, sh.sh_name);
		if (!nm)
			(void)elf_errno();	/* nameless: clear the error */
		s->name = nm ? nm : "";
		s->type = sh.sh_type;
		s->flags = sh.sh_flags;
		s->addr = sh.sh_addr;
		s->off = sh.sh_offset;
		s->size = sh.sh_size;
		s->data_ok = s->type != SHT_NOBITS && inside(s->off, s->size, b->size);
	}
	(void)elf_errno();

	/* symbols: .symtab, then .dynsym (the same kernels, normally) */
	for (int pass = 0; pass < 2; pass++) {
		uint32_t want = pass == 0 ? SHT_SYMTAB : SHT_DYNSYM;

		for (scn = NULL; (scn = elf_nextscn(b->elf, scn)) != NULL;) {
			GElf_Shdr sh;
			Elf_Data *d;
			GElf_Sym sym;

			if (!gelf_getshdr(scn, &sh) || sh.sh_type != want)
				continue;
			d = elf_getdata(scn, NULL);
			if (!d) {
				seterr(why, whysz, "libelf: symbol table: %s", elferr());
				return -1;
			}
			for (int j = 0; gelf_getsym(d, j, &sym) != NULL; j++) {
				const char *nm = elf_strptr(b->elf, sh.sh_link, sym.st_name);
				unsigned t = GELF_ST_TYPE(sym.st_info);

				if (!nm || !*nm || (t != STT_OBJECT && t != STT_FUNC))
					continue;
				if (b->nsyms == b->symcap) {
					size_t nc = b->symcap ? 2 * b->symcap : 32;
					struct sym *ns = realloc(b->syms, nc * sizeof *ns);
					if (!ns) {
						seterr(why, whysz, "out of memory");
						return -1;
					}
					b->syms = ns;
					b->symcap = nc;
				}
				b->syms[b->nsyms++] = (struct sym){ nm, t, sym.st_value,
					sym.st_shndx, sym.st_size };
			}
			(void)elf_errno();	/* gelf_getsym's end-of-table */
		}
	}
	return 0;
}

/* Raw ELF64 little-endian section headers, for objects libelf rejects (broken e_ident,
 * e_shentsize 0, no null section).  No symbols. */
static int raw_read(struct build *b, char *why, size_t whysz)
{
	const uint8_t *p = b->img;
	uint64_t shoff, shent, shnum, shstrndx;
	const struct sec *str = NULL;

	if (b->size < 64) {
		seterr(why, whysz, "truncated ELF header");
		return -1;
	}
	shoff = rd64(p + 0x28);
	shent = rd16(p + 0x3a);
	shnum = rd16(p + 0x3c);
	shstrndx = rd16(p + 0x3e);
	if (shent == 0)
		shent = 64;
	if (shent < 64) {
		seterr(why, whysz, "bad e_shentsize %llu", (unsigned long long)shent);
		return -1;
	}
	if (shoff == 0) {
		seterr(why, whysz, "no section header table");
		return -1;
	}
	if (!inside(shoff, 64, b->size)) {
		seterr(why, whysz, "section header table at 0x%llx is beyond the end (0x%zx bytes)",
		    (unsigned long long)shoff, b->size);
		return -1;
	}
	if (shnum == 0)			/* extended numbering: count in section 0's sh_size */
		shnum = rd64(p + shoff + 32);
	if (shstrndx == 0xffff)		/* SHN_XINDEX: index in section 0's sh_link */
		shstrndx = rd32(p + shoff + 40);
	if (shnum == 0) {
		seterr(why, whysz, "no section headers");
		return -1;
	}
	if (shnum > (b->size - shoff) / shent) {
		seterr(why, whysz, "section header table (%llu x %llu at 0x%llx) is beyond the end "
		    "(0x%zx bytes)", (unsigned long long)shnum, (unsigned long long)shent,
		    (unsigned long long)shoff, b->size);
		return -1;
	}
	if (alloc_secs(b, shnum, why, whysz) != 0)
		return -1;
	for (uint64_t i = 0; i < shnum; i++) {
		const uint8_t *h = p + shoff + i * shent;
		struct sec *s = &b->secs[i];

		s->name = "";
		s->type = rd32(h + 4);
		s->flags = rd64(h + 8);
		s->addr = rd64(h + 16);
		s->off = rd64(h + 24);
		s->size = rd64(h + 32);
		s->data_ok = s->type != SHT_NOBITS && inside(s->off, s->size, b->size);
	}
	if (shstrndx < shnum && b->secs[shstrndx].data_ok)
		str = &b->secs[shstrndx];
	for (uint64_t i = 0; str && i < shnum; i++) {
		uint32_t nm = rd32(p + shoff + i * shent);
		const char *base = (const char *)b->img + str->off;

		if (nm < str->size && memchr(base + nm, 0, str->size - nm))
			b->secs[i].name = base + nm;
	}
	return 0;
}

/* ---- disassembly ---- */

static int arena_add(struct build *b, const char *s, size_t n, size_t *off)
{
	if (b->acap - b->alen < n + 1) {
		size_t nc = b->acap ? b->acap : 4096;
		char *na;

		while (nc - b->alen < n + 1)
			nc *= 2;
		na = realloc(b->arena, nc);
		if (!na)
			return -1;
		b->arena = na;
		b->acap = nc;
	}
	memcpy(b->arena + b->alen, s, n);
	b->arena[b->alen + n] = 0;
	*off = b->alen;
	b->alen += n + 1;
	return 0;
}

/* whitespace runs to one space, trimmed */
static size_t normalise(char *s)
{
	char *w = s;
	int sp = 0;

	for (char *r = s; *r; r++) {
		if (*r == ' ' || *r == '\t' || *r == '\n' || *r == '\r' || *r == '\v' || *r == '\f') {
			sp = w != s;
			continue;
		}
		if (sp)
			*w++ = ' ';
		sp = 0;
		*w++ = *r;
	}
	*w = 0;
	return (size_t)(w - s);
}

static int add_inst(struct build *b, uint64_t pc, unsigned size, const char *text, uint32_t w0,
    int undecoded)
{
	struct binst *x;
	size_t tl = strlen(text), ml = strcspn(text, " ");

	if (b->nbi == b->bicap) {
		size_t nc = b->bicap ? 2 * b->bicap : 256;
		struct binst *nb = realloc(b->bi, nc * sizeof *nb);
		if (!nb)
			return -1;
		b->bi = nb;
		b->bicap = nc;
	}
	x = &b->bi[b->nbi];
	x->pc = pc;
	x->size = (uint8_t)size;
	x->w0 = w0;
	x->undecoded = (uint8_t)undecoded;
	if (arena_add(b, text, tl, &x->toff) || arena_add(b, text, ml, &x->moff))
		return -1;
	b->nbi++;
	return 0;
}

static int u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int is_exec(const struct sec *s) { return (s->flags & SHF_EXECINSTR) && s->type != SHT_NOBITS; }

static int is_code(const struct build *b, const struct sec *s, int any_exec)
{
	(void)b;
	return any_exec ? is_exec(s) : (strcmp(s->name, ".text") == 0 && s->type != SHT_NOBITS);
}

/* The code of the object checked (every SHF_EXECINSTR section; .text regardless of flags
 * if none is marked) and cut into regions; nothing is disassembled yet. */
static int code_regions(struct codeobj *co, struct build *b, char *err, size_t errsz)
{
	int any_exec = 0;
	uint64_t total = 0, *pt;
	size_t np = 0, i, k;

	for (i = 0; i < b->nsecs; i++)
		any_exec |= is_exec(&b->secs[i]);
	for (i = 0; i < b->nsecs; i++) {
		struct sec *s = &b->secs[i];

		s->code = is_code(b, s, any_exec);
		if (!s->code)
			continue;
		if (!s->data_ok) {
			seterr(err, errsz, "section %zu (%s) is beyond the end of the file", i,
			    *s->name ? s->name : "unnamed");
			return -1;
		}
		if (s->addr + s->size < s->addr) {
			seterr(err, errsz, "section %zu (%s): address 0x%llx + size 0x%llx overflows", i,
			    *s->name ? s->name : "unnamed", (unsigned long long)s->addr,
			    (unsigned long long)s->size);
			return -1;
		}
		total += s->size;
		if (total > CODEOBJ_CODE_MAX) {
			seterr(err, errsz, "more than %u bytes of code (%llu): beyond what a code "
			    "object holds", CODEOBJ_CODE_MAX, (unsigned long long)total);
			return -1;
		}
		if (total > b->size) {	/* overlapping copies of the same bytes: hostile */
			seterr(err, errsz, "executable sections overlap (more code than file)");
			return -1;
		}
	}
	if (total == 0) {
		seterr(err, errsz, "no .text section");
		return -1;
	}
	/* the cuts: every code section's ends, every function's start within one */
	if ((pt = calloc(2 * b->nsecs + b->nsyms + 1, sizeof *pt)) == NULL)
		goto oom;
	for (i = 0; i < b->nsecs; i++)
		if (b->secs[i].code && b->secs[i].size) {
			pt[np++] = b->secs[i].addr;
			pt[np++] = b->secs[i].addr + b->secs[i].size;
		}
	for (i = 0; i < b->nsyms; i++) {
		const struct sym *y = &b->syms[i];
		uint64_t a = y->value;

		if (y->type != STT_FUNC)
			continue;
		if (b->rel) {	/* section-relative */
			if (y->shndx >= b->nsecs)
				continue;
			a += b->secs[y->shndx].addr;
		}
		for (k = 0; k < b->nsecs; k++)
			if (b->secs[k].code && a >= b->secs[k].addr &&
			    a - b->secs[k].addr < b->secs[k].size) {
				pt[np++] = a;
				break;
			}
	}
	xqsort(pt, np, sizeof *pt, u64_cmp);
	if ((co->reg = calloc(np ? np : 1, sizeof *co->reg)) == NULL) {
		free(pt);
		goto oom;
	}
	for (i = 0; i + 1 < np; i++) {
		if (pt[i] == pt[i + 1])
			continue;
		for (k = 0; k < b->nsecs; k++)
			if (b->secs[k].code && pt[i] >= b->secs[k].addr &&
			    pt[i] - b->secs[k].addr < b->secs[k].size)
				break;
		if (k == b->nsecs)
			continue;	/* between sections */
		co->reg[co->nreg].lo = pt[i];
		co->reg[co->nreg++].hi = pt[i + 1];
	}
	free(pt);
	for (i = 0; i < co->nreg; i++)
		if (co->reg[i].hi - co->reg[i].lo > CODEOBJ_REGION_MAX) {
			seterr(err, errsz, "more than %u bytes of code (%llu) from 0x%llx with no "
			    "function symbol between: beyond what one function holds",
			    CODEOBJ_REGION_MAX, (unsigned long long)(co->reg[i].hi - co->reg[i].lo),
			    (unsigned long long)co->reg[i].lo);
			return -1;
		}
	return 0;
oom:
	seterr(err, errsz, "out of memory");
	return -1;
}

static void build_index(struct chunk *c);
static void fill_insts(const struct isa_model *m, struct chunk *c, const struct binst *bi,
    size_t index0);
static void finish_insts(const struct isa_model *m, struct chunk *c, const struct binst *bi);
static int binst_cmp(const void *a, const void *b);

/* The instruction at offset o of a code section (p its bytes, addr its address, to its
 * size) into b, its length in *len.  0, or -1 out of memory. */
static int sweep_one(struct build *b, LLVMDisasmContextRef dc, const struct isa_model *m,
    const uint8_t *p, uint64_t addr, uint64_t o, uint64_t to, size_t *len)
{
	uint64_t rem = to - o, pc = addr + o;
	char buf[512];
	/* LLVM 22 crashes (SEGV in Twine::print) when an instruction's literal dword lies past
	 * the end of the bytes it is given, so it always gets a zero-padded window longer than
	 * any instruction; an instruction that needs bytes beyond the section (n > rem) is
	 * then not one. */
	uint8_t win[32] = { 0 };
	size_t n;
	uint32_t w0;
	int undecoded;

	memcpy(win, p + o, rem < sizeof win ? rem : sizeof win);
	n = m->disasm_unsafe(win, rem < sizeof win ? rem : sizeof win) ? 0 :
	    disasm_one(dc, m, win, sizeof win, pc, buf, sizeof buf);
	w0 = rd32(win);
	undecoded = n == 0 || n > rem;
	if (undecoded) {
		/* its length from its encoding, so the words after it stay aligned; every
		 * dword shown */
		int k = 0;
		n = m->length(win, sizeof win);
		if (n > rem)
			n = rem < 4 ? rem : 4;
		for (size_t d = 0; d < n; d += 4)
			k += snprintf(buf + k, sizeof buf - (size_t)k, "%s0x%08x",
			    d ? ", " : ".long ", rd32(win + d));
	} else {
		buf[sizeof buf - 1] = 0;
		if (normalise(buf) == 0)
			snprintf(buf, sizeof buf, ".long 0x%08x", w0);
	}
	*len = n;
	return add_inst(b, pc, (unsigned)n, buf, w0, undecoded);
}

/* A linear sweep of a section's bytes from offset o while o < end, into b; *at: the
 * offset after its last instruction.  0, or -1 out of memory. */
static int sweep(struct build *b, LLVMDisasmContextRef dc, const struct isa_model *m,
    const uint8_t *p, uint64_t addr, uint64_t o, uint64_t end, uint64_t to, uint64_t *at)
{
	size_t n;

	while (o < end) {
		if (sweep_one(b, dc, m, p, addr, o, to, &n) != 0)
			return -1;
		o += n;
	}
	*at = o;
	return 0;
}

/* A part of a sweep a thread of its own reads, from a cut that may fall inside an
 * instruction: its instructions are kept from the first one the sweep before it reaches,
 * where the two agree from there on (an instruction depends on its bytes only). */
struct part {
	struct build b;
	LLVMDisasmContextRef dc;
	const struct isa_model *m;
	const uint8_t *p;
	uint64_t addr, from, end, to, at;
	int rc;
	thrd_t thread;
};

static int part_sweep(void *arg)
{
	struct part *t = arg;

	t->rc = sweep(&t->b, t->dc, t->m, t->p, t->addr, t->from, t->end, t->to, &t->at);
	return 0;
}

/* Part t's instructions from its j-th on, appended to b: their texts with them. */
static int part_append(struct build *b, const struct part *t, size_t j)
{
	size_t base, k, n = t->b.nbi - j;

	if (n == 0)
		return 0;
	if (b->bicap - b->nbi < n) {
		struct binst *nb = realloc(b->bi, (b->nbi + n) * sizeof *nb);
		if (!nb)
			return -1;
		b->bi = nb;
		b->bicap = b->nbi + n;
	}
	if (arena_add(b, t->b.arena, t->b.alen, &base))
		return -1;
	for (k = 0; k < n; k++) {
		struct binst *x = &b->bi[b->nbi + k];

		*x = t->b.bi[j + k];
		x->toff += base;
		x->moff += base;
	}
	b->nbi += n;
	return 0;
}

/* A section's bytes [from, end) swept into b, in parts on threads of their own when
 * codeobj_threads allows and the bytes are enough: the same instructions as one sweep.
 * Called with llvm_mtx held, the guard on; *nrun counts the parts threads read.  0, or -1
 * out of memory. */
static int sweep_parts(struct build *b, LLVMDisasmContextRef dc, const struct isa_model *m,
    const uint8_t *p, uint64_t addr, uint64_t from, uint64_t end, uint64_t to, size_t *nrun)
{
	struct part part[CODEOBJ_THREADS_MAX];
	uint64_t o, span = end - from, min = atomic_load(&read_min);
	size_t nparts = atomic_load(&read_threads), i, j;
	int rc = 0;

	if (min < 4)
		min = 4;
	if (nparts > span / min)
		nparts = (size_t)(span / min);
	if (nparts <= 1)
		return sweep(b, dc, m, p, addr, from, end, to, &o);
	memset(part, 0, sizeof part);
	for (i = 1; i < nparts; i++) {	/* part 0 is this thread's */
		struct part *t = &part[i];

		t->b.cpu = b->cpu;
		t->m = m;
		t->p = p;
		t->addr = addr;
		t->from = from + ((span * i / nparts) & ~(uint64_t)3);
		t->end = i + 1 < nparts ? from + ((span * (i + 1) / nparts) & ~(uint64_t)3) : end;
		t->to = to;
		t->rc = -1;	/* a part that does not run is swept below */
		if ((t->dc = disasm_for(b->cpu->name, (unsigned)i)) != NULL &&
		    thrd_create(&t->thread, part_sweep, t) != thrd_success)
			t->dc = NULL;
	}
	rc = sweep(b, dc, m, p, addr, from, part[1].from, to, &o);
	for (i = 1; i < nparts; i++)
		if (part[i].dc != NULL)
			thrd_join(part[i].thread, NULL);
	for (i = 1; i < nparts; i++) {
		struct part *t = &part[i];
		size_t n;

		if (t->rc != 0)	/* not run, or out of memory: this thread sweeps it */
			t->b.nbi = 0;
		else
			(*nrun)++;
		for (j = 0; rc == 0 && o < t->end;) {
			while (j < t->b.nbi && t->b.bi[j].pc - addr < o)
				j++;
			if (j < t->b.nbi && t->b.bi[j].pc - addr == o) {
				rc = part_append(b, t, j);
				o = t->at;
				break;
			}
			if ((rc = sweep_one(b, dc, m, p, addr, o, to, &n)) == 0)
				o += n;
		}
		free(t->b.bi);
		free(t->b.arena);
	}
	return rc;
}

/* Region r disassembled: a linear sweep of every code section's part in [lo, hi).  Called
 * with co->mtx held.  0, or -1 out of memory. */
static int read_region(struct codeobj *co, struct region *r)
{
	const struct build *ob = co->b;
	const struct isa_model *m = ob->cpu->model;
	struct build tb = { 0 }, *b = &tb;
	struct chunk *c = &r->c;
	LLVMDisasmContextRef dc;
	int rc = 0;

	b->cpu = ob->cpu;
	mtx_lock(&llvm_mtx);
	if ((dc = disasm_for(b->cpu->name, 0)) == NULL) {
		mtx_unlock(&llvm_mtx);
		return -1;
	}
	guard_on();
	for (size_t i = 0; i < ob->nsecs && rc == 0; i++) {
		const struct sec *s = &ob->secs[i];

		if (!s->code || r->hi <= s->addr || r->lo >= s->addr + s->size)
			continue;
		uint64_t from = r->lo > s->addr ? r->lo - s->addr : 0;
		uint64_t end = r->hi < s->addr + s->size ? r->hi - s->addr : s->size;
		rc = sweep_parts(b, dc, m, ob->img + s->off, s->addr, from, end, s->size,
		    &co->nparts);
	}
	guard_off();
	mtx_unlock(&llvm_mtx);
	if (rc == 0 && co->ndecoded + b->nbi >= UINT32_MAX)
		rc = -1;
	if (rc == 0) {
		size_t w = 1;
		/* a region read in pc order is in order already (sections that overlap are
		 * not): the sort of a million instructions was 5% of reading them */
		while (w < b->nbi && b->bi[w - 1].pc <= b->bi[w].pc)
			w++;
		if (w < b->nbi)
			xqsort(b->bi, b->nbi, sizeof *b->bi, binst_cmp);
		w = 0;	/* drop duplicate pcs (overlapping sections): keep the first */
		for (size_t k = 0; k < b->nbi; k++)
			if (w == 0 || b->bi[k].pc != b->bi[w - 1].pc)
				b->bi[w++] = b->bi[k];
		b->nbi = w;
		if ((c->insts = calloc(b->nbi ? b->nbi : 1, sizeof *c->insts)) == NULL)
			rc = -1;
	}
	if (rc == 0) {
		c->strs = b->arena;
		b->arena = NULL;
		c->n = b->nbi;
		fill_insts(m, c, b->bi, co->ndecoded);
		if (c->n > 0)
			c->insts[c->n - 1].last = 1;
		co->ndecoded += c->n;
		finish_insts(m, c, b->bi);
		build_index(c);
	}
	free(b->bi);
	free(b->arena);
	return rc;
}

/* The region holding pc, read if it was not; NULL if none holds it or it cannot be read. */
static struct region *region_at(const struct codeobj *cco, uint64_t pc)
{
	struct codeobj *co = (struct codeobj *)cco;	/* the regions are a cache */
	size_t lo = 0, hi = co->nreg;
	struct region *r;
	int st;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (co->reg[mid].hi <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == co->nreg || pc < co->reg[lo].lo)
		return NULL;
	r = &co->reg[lo];
	if ((st = atomic_load_explicit(&r->state, memory_order_acquire)) == 0) {
		mtx_lock(&co->mtx);
		if ((st = atomic_load_explicit(&r->state, memory_order_relaxed)) == 0) {
			st = read_region(co, r) == 0 ? 1 : -1;
			atomic_store_explicit(&r->state, st, memory_order_release);
		}
		mtx_unlock(&co->mtx);
	}
	return st == 1 ? r : NULL;
}

static int binst_cmp(const void *a, const void *b)
{
	const struct binst *x = a, *y = b;

	if (x->pc != y->pc)
		return x->pc < y->pc ? -1 : 1;
	return x->toff < y->toff ? -1 : x->toff > y->toff;	/* the one read first */
}

/* s_delay_alu instid value → dependency.  If two announcements reach one instruction the
 * first one (in pc order; for one s_delay_alu with instskip SAME, instid0) is kept. */
static void set_dep(const struct isa_model *m, struct inst *in, unsigned id)
{
	enum inst_dep dep;
	unsigned arg;

	if (in->dep == DEP_NONE && m->dep_of_id(id, &dep, &arg) == 0) {
		in->dep = dep;
		in->dep_arg = arg;
		in->dep_id = id;
		in->dep_name = m->dep_name(id);
	}
}

/* the index of the next non-s_delay_alu instruction after i, n if none */
static size_t next_real(const struct inst *v, size_t n, size_t i)
{
	for (i++; i < n && v[i].cls == IC_DELAY_ALU; i++)
		;
	return i;
}

/* What the walk and the rules ask of every issue of an instruction, asked once. */
static void inst_facts(const struct isa_model *m, struct inst *in)
{
	unsigned kind = 0;
	long want[ISA_NCOUNTER];

	in->facts = 1;
	in->exec_write = m->exec_write != NULL && m->exec_write(in->cls, in->text);
	in->exec0_valu = isa_exec_zero_imm(m, in->cls, in->mnemonic);
	in->mem_counter = (int8_t)m->mem_counter(in->cls, in->text, &kind);
	in->mem_kind = (uint8_t)kind;
	if (in->cls == IC_WAITCNT) {
		m->waitcnt(in->text, want);
		for (int c = 0; c < ISA_NCOUNTER; c++)
			in->want[c] = (int32_t)want[c];
	}
}

/* Instructions [lo, hi) of a chunk made of what the build says, and what each says of
 * itself: its class, a branch's target, a wait's counters, its facts. */
struct fill {
	const struct isa_model *m;
	struct chunk *c;
	const struct binst *bi;
	size_t lo, hi, index0;
	thrd_t thread;
};

static int fill_range(void *arg)
{
	const struct fill *f = arg;
	const struct isa_model *m = f->m;

	for (size_t i = f->lo; i < f->hi; i++) {
		const struct binst *x = &f->bi[i];
		struct inst *in = &f->c->insts[i];

		in->pc = x->pc;
		in->size = x->size;
		in->target = -1;
		in->text = f->c->strs + x->toff;
		in->mnemonic = f->c->strs + x->moff;
		in->cls = x->undecoded ? m->family_class(x->w0) :
		    m->classify(in->mnemonic, in->text, x->w0);
		in->index = (uint32_t)(f->index0 + i);
		in->dep_name = m->dep_name(0);
		if (in->cls == IC_BRANCH)
			in->target = (int64_t)(in->pc + 4 +
			    4 * (uint64_t)(int64_t)(int16_t)(x->w0 & 0xffff));
		if (in->cls == IC_WAITCNT)
			in->wait = m->wait_bits(in->text);
		inst_facts(m, in);
	}
	return 0;
}

/* Every instruction of c filled (fill_range), in ranges on threads of their own as
 * codeobj_threads allows (what each is does not depend on the others); a range no thread
 * could be started for, here. */
static void fill_insts(const struct isa_model *m, struct chunk *c, const struct binst *bi,
    size_t index0)
{
	struct fill f[CODEOBJ_THREADS_MAX];
	size_t per = atomic_load(&read_min) / 8, nf = atomic_load(&read_threads), i;

	if (per < 1)
		per = 1;
	if (nf > c->n / per)
		nf = c->n / per;
	if (nf < 1)
		nf = 1;
	for (i = 0; i < nf; i++)
		f[i] = (struct fill){ m, c, bi, c->n * i / nf, c->n * (i + 1) / nf, index0, 0 };
	for (i = 1; i < nf; i++)
		if (thrd_create(&f[i].thread, fill_range, &f[i]) != thrd_success)
			break;
	fill_range(&f[0]);
	for (size_t k = 1; k < i; k++)
		thrd_join(f[k].thread, NULL);
	for (; i < nf; i++)
		fill_range(&f[i]);
}

/* The s_delay_alu dependencies, each given to the instruction it announces. */
static void finish_insts(const struct isa_model *m, struct chunk *co, const struct binst *bi)
{
	struct inst *v = co->insts;
	size_t n = co->n;

	for (size_t i = 0; i < n; i++) {
		unsigned s = bi[i].w0 & 0xffff, id0, skip, id1;
		size_t k;

		if (v[i].cls != IC_DELAY_ALU)
			continue;
		m->delay_fields(s, &id0, &skip, &id1);
		k = next_real(v, n, i);
		if (k >= n)
			continue;
		if (id0)
			set_dep(m, &v[k], id0);
		if (!id1)
			continue;
		for (unsigned j = 0; j < skip && k < n; j++)	/* SAME 0, NEXT 1, SKIP_n n+1 */
			k = next_real(v, n, k);
		if (k < n)
			set_dep(m, &v[k], id1);
	}
}

static void build_index(struct chunk *co)
{
	uint64_t base, span;
	size_t nslot;

	if (co->n == 0 || co->n >= UINT32_MAX)
		return;
	base = co->insts[0].pc;
	span = co->insts[co->n - 1].pc - base;
	if (span / 4 >= 4 * (uint64_t)co->n + 1024)	/* sparse: binary search only */
		return;
	nslot = (size_t)(span / 4) + 1;
	co->slot = calloc(nslot, sizeof *co->slot);
	if (!co->slot)
		return;
	co->nslot = nslot;
	co->base = base;
	co->slot_exact = 1;
	for (size_t i = 0; i < co->n; i++) {
		uint64_t d = co->insts[i].pc - base;

		if (d % 4 || co->slot[d / 4]) {
			co->slot_exact = 0;	/* misaligned or colliding: fall back on a miss */
			continue;
		}
		co->slot[d / 4] = (uint32_t)(i + 1);
	}
}

/* ---- entry ---- */

/* The entry a kernel descriptor at address kd announces; shndx hints its section. */
static int kd_entry(const struct build *b, uint64_t kd, size_t shndx, uint64_t *entry)
{
	for (size_t pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < b->nsecs; i++) {
			const struct sec *s = &b->secs[i];
			uint64_t o;

			if (pass == 0 && i != shndx)
				continue;
			if (!s->data_ok || s->size < 64 || kd < s->addr || kd - s->addr > s->size - 64)
				continue;
			o = s->off + (kd - s->addr);
			*entry = kd + rd64(b->img + o + 16);
			return 0;
		}
	}
	return -1;
}

static int ends_kd(const char *nm, const char *kernel)
{
	size_t n = strlen(nm);

	if (n < 4 || strcmp(nm + n - 3, ".kd") != 0)
		return 0;
	return !kernel || (strlen(kernel) == n - 3 && strncmp(nm, kernel, n - 3) == 0);
}

/* ET_REL: the function a descriptor NAME.kd describes (its entry offset is a relocation) */
static int kd_func(const struct build *b, const char *kd, uint64_t *entry)
{
	size_t n = strlen(kd) - 3;

	for (size_t i = 0; i < b->nsyms; i++)
		if (b->syms[i].type == STT_FUNC && strlen(b->syms[i].name) == n &&
		    strncmp(b->syms[i].name, kd, n) == 0) {
			*entry = b->syms[i].value;
			return 0;
		}
	return -1;
}

static int choose_entry(struct codeobj *co, const struct build *b, const char *kernel)
{
	uint64_t e = 0;

	/* 1. NAME.kd; 2. the function NAME; 3. the first .kd (in symbol table order) whose
	 * entry is an instruction.  An entry must be the pc of a decoded instruction. */
	for (int step = kernel ? 1 : 3; step <= 3; step++) {
		for (size_t i = 0; i < b->nsyms; i++) {
			const struct sym *y = &b->syms[i];

			if (step == 2) {
				if (y->type != STT_FUNC || strcmp(y->name, kernel) != 0)
					continue;
				e = y->value;
			} else {
				if (y->type != STT_OBJECT || !ends_kd(y->name, step == 1 ? kernel : NULL))
					continue;
				if (b->rel ? kd_func(b, y->name, &e) : kd_entry(b, y->value, y->shndx, &e))
					continue;
			}
			if (codeobj_at(co, e)) {
				co->entry = e;
				return 0;
			}
		}
	}
	/* 4. hand-made objects: a .rodata that is a kernel descriptor (reserved bytes zero) */
	for (size_t i = 0; i < b->nsecs; i++) {
		const struct sec *s = &b->secs[i];
		const uint8_t *kd;
		int zero = 1;

		if (b->rel || strcmp(s->name, ".rodata") != 0 || !s->data_ok || s->size < 64)
			continue;
		kd = b->img + s->off;
		for (int j = 12; j < 16; j++)
			zero &= kd[j] == 0;
		for (int j = 24; j < 44; j++)
			zero &= kd[j] == 0;
		e = s->addr + rd64(kd + 16);
		if (zero && codeobj_at(co, e)) {
			co->entry = e;
			return 0;
		}
	}
	/* 5. the start of .text, else of the first code */
	for (size_t i = 0; i < b->nsecs; i++) {
		if (strcmp(b->secs[i].name, ".text") == 0 && codeobj_at(co, b->secs[i].addr)) {
			co->entry = b->secs[i].addr;
			return 0;
		}
	}
	for (size_t i = 0; i < co->nreg; i++) {	/* the first instruction of all */
		const struct region *r = region_at(co, co->reg[i].lo);
		if (r && r->c.n) {
			co->entry = r->c.insts[0].pc;
			return 0;
		}
	}
	co->entry = 0;
	return 0;
}

/* ---- public ---- */

static void build_free(struct build *b)
{
	if (b->elf)
		elf_end(b->elf);
	free(b->secs);
	free(b->syms);
	free(b->bi);
	free(b->arena);
	free(b->img);
}

/* A processor's name for messages (gen_mach_name), else its EF_AMDGPU_MACH value. */
static void mach_name(unsigned mach, char *out, size_t outsz)
{
	const char *name = gen_mach_name(mach);

	if (name)
		snprintf(out, outsz, "%s", name);
	else
		snprintf(out, outsz, "e_flags processor 0x%03x", mach);
}

/* The processor to disassemble for: the stream's target, which the object's EF_AMDGPU_MACH
 * (0: not said) must be or be the generic one of its generation; with no target said,
 * the object's own processor of the default model.  NULL and why when they disagree. */
static const struct isa_target *
choose_cpu(const struct isa_target *want, unsigned mach, char *err, size_t errsz)
{
	const struct isa_target *own = isa_target_by_mach(mach);
	const struct isa_model *m = want ? want->model : isa_default_model();
	char name[64];

	if (want && (mach == 0 || mach == want->mach || mach == m->generic_mach))
		return want;
	if (!want && (mach == 0 || mach == m->generic_mach))
		return &m->targets[0];
	if (!want && own && own->model == m)
		return own;
	mach_name(mach, name, sizeof name);
	seterr(err, errsz, "code object is %s, the stream's target is %s", name,
	    want ? want->name : m->targets[0].name);
	return NULL;
}

struct codeobj *codeobj_open(const void *image, size_t size, const char *kernel,
    const struct isa_target *target, char *err, size_t errsz)
{
	const uint8_t *id = image;
	struct build b = { 0 };
	struct codeobj *co = NULL;
	char why1[256], why2[256];
	int sane;

	static const uint8_t zero_ident[EI_NIDENT];
	int zeroed;

	if (!image || size < EI_NIDENT) {
		seterr(err, errsz, "not an ELF file");
		return NULL;
	}
	/* Some hand-written kernels are stored with the whole identification zeroed (magic,
	 * class, data), the section headers valid: read those as ELF64 little-endian. */
	zeroed = memcmp(id, zero_ident, EI_NIDENT) == 0;
	if (!zeroed && memcmp(id, ELFMAG, SELFMAG) != 0) {
		seterr(err, errsz, "not an ELF file");
		return NULL;
	}
	if (size < sizeof(Elf64_Ehdr)) {
		seterr(err, errsz, "truncated ELF header (%zu bytes)", size);
		return NULL;
	}
	if (id[EI_CLASS] == ELFCLASS32) {
		seterr(err, errsz, "not a 64-bit ELF (ELFCLASS32)");
		return NULL;
	}
	if (id[EI_DATA] == ELFDATA2MSB) {
		seterr(err, errsz, "big-endian ELF");
		return NULL;
	}
	/* e_machine must say AMDGPU, or be zeroed too (taken as "unknown", not as foreign). */
	sane = id[EI_CLASS] == ELFCLASS64 && id[EI_DATA] == ELFDATA2LSB;
	if ((sane || zeroed) && rd16(id + 18) != EM_AMDGPU && rd16(id + 18) != EM_NONE) {
		seterr(err, errsz, "not an AMDGPU code object (e_machine %u)", rd16(id + 18));
		return NULL;
	}
	/* The processor in e_flags (EF_AMDGPU_MACH, the low byte) must be the stream's: the
	 * instruction model is its.  0 is "not said", as in some hand-made objects. */
	b.cpu = choose_cpu(target, sane && !zeroed && rd16(id + 18) == EM_AMDGPU ?
	    rd32(id + 48) & 0xff : 0, err, errsz);
	if (b.cpu == NULL)
		return NULL;
	/* A private copy: libelf may want aligned/writable data, and the fuzzer's is const. */
	b.img = malloc(size);
	if (!b.img) {
		seterr(err, errsz, "out of memory");
		return NULL;
	}
	memcpy(b.img, image, size);
	b.size = size;

	call_once(&elf_once, elf_init);
	if (zeroed) {
		/* libelf refuses it: straight to the raw section headers */
		if (raw_read(&b, why2, sizeof why2) != 0) {
			seterr(err, errsz, "not an ELF file (identification zeroed; %s)", why2);
			goto fail;
		}
		b.rel = rd16(b.img + 16) == ET_REL;
		goto sections;
	}
	if (!elf_ok) {
		seterr(why1, sizeof why1, "libelf: %s", elferr());
	} else if (libelf_read(&b, why1, sizeof why1) == 0) {
		goto sections;
	}
	/* libelf refused: raw section headers, no symbols */
	if (b.elf)
		elf_end(b.elf);
	b.elf = NULL;
	free(b.secs);
	b.secs = NULL;
	b.nsecs = 0;
	b.nsyms = 0;
	b.rel = rd16(b.img + 16) == ET_REL;
	if (raw_read(&b, why2, sizeof why2) != 0) {
		seterr(err, errsz, "%s; raw ELF64: %s", why1, why2);
		goto fail;
	}
sections:
	co = calloc(1, sizeof *co);
	if (!co || (co->b = calloc(1, sizeof *co->b)) == NULL) {
		free(co);
		co = NULL;
		goto oom;
	}
	if (mtx_init(&co->mtx, mtx_plain) != thrd_success) {
		free(co->b);
		free(co);
		co = NULL;
		seterr(err, errsz, "cannot make a lock");
		goto fail;
	}
	co->model = b.cpu->model;
	if (code_regions(co, &b, err, errsz) != 0)
		goto fail;
	call_once(&llvm_once, llvm_init);
	if (!llvm_ok) {
		seterr(err, errsz, "LLVM: cannot make a lock");
		goto fail;
	}
	mtx_lock(&llvm_mtx);
	if (disasm_for(b.cpu->name, 0) == NULL) {
		mtx_unlock(&llvm_mtx);
		seterr(err, errsz, "LLVM: cannot create the %s disassembler", b.cpu->name);
		goto fail;
	}
	mtx_unlock(&llvm_mtx);
	*co->b = b;	/* kept: the regions are read from it */
	memset(&b, 0, sizeof b);
	choose_entry(co, co->b, kernel);
	return co;
oom:
	seterr(err, errsz, "out of memory");
fail:
	codeobj_close(co);
	build_free(&b);
	return NULL;
}

void codeobj_threads(unsigned n, size_t min_bytes)
{
	atomic_store(&read_threads, n < 1 ? 1 : n > CODEOBJ_THREADS_MAX ? CODEOBJ_THREADS_MAX : n);
	atomic_store(&read_min, min_bytes ? min_bytes : CODEOBJ_SPLIT_MIN);
}

void codeobj_prepare(const struct isa_target *target)
{
	call_once(&elf_once, elf_init);
	call_once(&llvm_once, llvm_init);
	if (!llvm_ok)
		return;
	mtx_lock(&llvm_mtx);
	(void)disasm_for(target ? target->name : isa_default_model()->targets[0].name, 0);
	mtx_unlock(&llvm_mtx);
}

const struct isa_model *codeobj_model(const struct codeobj *co)
{
	return co ? co->model : isa_default_model();
}

void codeobj_close(struct codeobj *co)
{
	if (!co)
		return;
	for (size_t i = 0; i < co->nreg; i++) {
		free(co->reg[i].c.insts);
		free(co->reg[i].c.strs);
		free(co->reg[i].c.slot);
	}
	free(co->reg);
	free(co->all);
	if (co->b) {
		build_free(co->b);
		free(co->b);
	}
	mtx_destroy(&co->mtx);
	free(co);
}

uint64_t codeobj_entry(const struct codeobj *co) { return co ? co->entry : 0; }

const struct inst *codeobj_at(const struct codeobj *co, uint64_t pc)
{
	const struct region *r;
	const struct chunk *c;
	size_t lo, hi;

	if (!co || (r = region_at(co, pc)) == NULL || (c = &r->c)->n == 0)
		return NULL;
	if (c->slot) {
		uint64_t d = pc - c->base;

		if (pc >= c->base && d / 4 < c->nslot && d % 4 == 0) {
			uint32_t k = c->slot[d / 4];
			if (k && c->insts[k - 1].pc == pc)
				return &c->insts[k - 1];
		}
		if (c->slot_exact)
			return NULL;
	}
	lo = 0;
	hi = c->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (c->insts[mid].pc < pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < c->n && c->insts[lo].pc == pc ? &c->insts[lo] : NULL;
}

const struct inst *codeobj_insts(const struct codeobj *cco, size_t *n)
{
	struct codeobj *co = (struct codeobj *)cco;
	const struct inst *v = NULL;
	size_t total = 0, nonempty = 0;

	if (n)
		*n = 0;
	if (!co)
		return NULL;
	for (size_t i = 0; i < co->nreg; i++) {	/* every region read */
		const struct region *r = region_at(co, co->reg[i].lo);
		if (r && r->c.n) {
			total += r->c.n;
			v = r->c.insts;
			nonempty++;
		}
	}
	if (nonempty <= 1) {	/* one region of code: its own array */
		if (n)
			*n = total;
		return v;
	}
	mtx_lock(&co->mtx);
	if (!co->all_done) {
		co->all = calloc(total, sizeof *co->all);
		if (co->all)
			for (size_t i = 0; i < co->nreg; i++)
				if (atomic_load(&co->reg[i].state) == 1 && co->reg[i].c.n) {
					memcpy(co->all + co->nall, co->reg[i].c.insts,
					    co->reg[i].c.n * sizeof *co->all);
					co->nall += co->reg[i].c.n;
				}
		co->all_done = 1;
	}
	mtx_unlock(&co->mtx);
	if (n)
		*n = co->nall;
	return co->all;
}

/* A count of co's (one of its fields), read under the lock its regions are read with. */
static size_t locked_count(const struct codeobj *cco, const size_t *field)
{
	struct codeobj *co = (struct codeobj *)cco;
	size_t n;

	mtx_lock(&co->mtx);
	n = *field;
	mtx_unlock(&co->mtx);
	return n;
}

size_t codeobj_parts(const struct codeobj *co)
{
	return co ? locked_count(co, &co->nparts) : 0;
}

size_t codeobj_read(const struct codeobj *co)
{
	return co ? locked_count(co, &co->ndecoded) : 0;
}
