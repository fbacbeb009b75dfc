/* elfsym: the kernels of an AMDGPU code object (ELF64, little-endian) by their symbols,
 * read straight from the bytes with every offset checked and no disassembly: enough to
 * name the kernel that starts at an address, or to find where a named kernel starts. */
#ifndef ELFSYM_H
#define ELFSYM_H
#include <stddef.h>
#include <stdint.h>

/* The kernel whose first instruction is at pc (an ELF virtual address): its function
 * symbol (STT_FUNC) there.  1 with *name a new string; 0 if no function starts there;
 * -1 with a reason in why when the bytes are no ELF64 file with a symbol table. */
int elfsym_kernel_at(const uint8_t *img, size_t size, uint64_t pc, char **name,
    char *why, size_t whysz);
/* Kernel name's entry (its function symbol's value) and its kernel descriptor's address
 * (the symbol NAME.kd; 0 if there is none).  1, 0 if no such kernel, -1 as above. */
int elfsym_kernel(const uint8_t *img, size_t size, const char *name, uint64_t *entry,
    uint64_t *kd, char *why, size_t whysz);

/* Kernel name's own bytes: [*start, *end) from its function symbol's value and size (a
 * symbol of size 0: up to the next function's start, else UINT64_MAX).  1, 0 if no
 * such kernel, -1 as above. */
int elfsym_kernel_range(const uint8_t *img, size_t size, const char *name, uint64_t *start,
    uint64_t *end, char *why, size_t whysz);
/* The code object's only kernel (function symbol): 1 with *name a new string; 0 if it
 * has none or several; -1 as above. */
int elfsym_only_kernel(const uint8_t *img, size_t size, char **name, char *why, size_t whysz);
/* The bytes the code object takes once loaded: the end of its last PT_LOAD segment
 * (p_vaddr + p_memsz); 0 if it has no program headers within the file. */
uint64_t elfsym_load_size(const uint8_t *img, size_t size);
/* The processor an AMDGPU code object is built for: its e_flags' EF_AMDGPU_MACH, 0 when
 * the bytes are no ELF64 AMDGPU file. */
unsigned elfsym_mach(const uint8_t *img, size_t size);

#endif
