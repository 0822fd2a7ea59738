/* SPDX-License-Identifier: MIT */
/* Replace one imported function of a loaded library (got.h says what for). */
#include <dlfcn.h>
#include <errno.h>
#include <link.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "got.h"

/* a relocation's symbol, in this process's ELF class (<link.h> gives ElfW for the types only) */
#if UINTPTR_MAX > 0xffffffffu
#define REL_SYM(info) ELF64_R_SYM(info)
#else
#define REL_SYM(info) ELF32_R_SYM(info)
#endif

/* What the dynamic section of a loaded library gives: its symbols, their names, its relocations
 * (rela[0] its PLT's, DT_JMPREL; rela[1] the others, DT_RELA). */
struct dynamic {
	const ElfW(Sym) *sym;
	const char *str;
	size_t strsz;
	const ElfW(Rela) *rela[2];
	size_t relasz[2];
	ElfW(Sxword) pltrel; /* DT_RELA or DT_REL: the kind of the PLT's relocations */
};

/*
 * The address a d_ptr of @lm's dynamic section stands for. glibc relocates these in place, except where
 * the section is read-only (MIPS, RISC-V); musl never does. The library's own addresses start at 0 and
 * it is loaded above its size, so a value below its load address is one still to be relocated.
 */
static uintptr_t dyn_addr(const struct link_map *lm, ElfW(Addr) v)
{
	return v < lm->l_addr ? lm->l_addr + v : v;
}

static void read_dynamic(const struct link_map *lm, struct dynamic *d)
{
	memset(d, 0, sizeof(*d));
	d->pltrel = DT_RELA;
	for (const ElfW(Dyn) *e = lm->l_ld; e && e->d_tag != DT_NULL; e++) {
		switch (e->d_tag) {
		case DT_SYMTAB: d->sym = (const ElfW(Sym) *)dyn_addr(lm, e->d_un.d_ptr); break;
		case DT_STRTAB: d->str = (const char *)dyn_addr(lm, e->d_un.d_ptr); break;
		case DT_STRSZ: d->strsz = e->d_un.d_val; break;
		case DT_JMPREL: d->rela[0] = (const ElfW(Rela) *)dyn_addr(lm, e->d_un.d_ptr); break;
		case DT_PLTRELSZ: d->relasz[0] = e->d_un.d_val; break;
		case DT_PLTREL: d->pltrel = (ElfW(Sxword))e->d_un.d_val; break;
		case DT_RELA: d->rela[1] = (const ElfW(Rela) *)dyn_addr(lm, e->d_un.d_ptr); break;
		case DT_RELASZ: d->relasz[1] = e->d_un.d_val; break;
		default: break;
		}
	}
	if (d->pltrel != DT_RELA)
		d->rela[0] = NULL, d->relasz[0] = 0;
}

/* Where the loader left a page: the page @page of the library loaded at @base, found by dl_iterate_phdr */
struct page_query {
	uintptr_t base, page, slot;
	size_t pagesz;
	int prot;      /* out: its protection; -1 if in no segment of the library */
};

static int page_prot(struct dl_phdr_info *info, size_t size, void *data)
{
	struct page_query *q = data;
	bool relro = false;
	int prot = -1;

	(void)size;
	if (info->dlpi_addr != q->base)
		return 0;
	for (ElfW(Half) i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t start = q->base + ph->p_vaddr, end = start + ph->p_memsz;
		/* glibc and musl make the whole pages of the RELRO segment read-only once relocated: its
		 * last page, shared with the data after it, stays writable */
		if (ph->p_type == PT_GNU_RELRO && (start & ~(q->pagesz - 1)) <= q->page &&
		    q->page + q->pagesz <= (end & ~(q->pagesz - 1)))
			relro = true;
		if (ph->p_type == PT_LOAD && start <= q->slot && q->slot < end)
			prot = ((ph->p_flags & PF_R) ? PROT_READ : 0) | ((ph->p_flags & PF_W) ? PROT_WRITE : 0) |
			       ((ph->p_flags & PF_X) ? PROT_EXEC : 0);
	}
	q->prot = prot >= 0 && relro ? PROT_READ : prot;
	return 1;
}

/* *@slot = @fn, the page made writable for it where the loader left it read-only. 0 or -errno. */
static int write_slot(const struct link_map *lm, void **slot, void *fn)
{
	long pagesz = sysconf(_SC_PAGESIZE);
	struct page_query q;

	if (pagesz <= 0)
		return -EINVAL;
	q.base = lm->l_addr;
	q.slot = (uintptr_t)slot;
	q.pagesz = (size_t)pagesz;
	q.page = q.slot & ~(q.pagesz - 1);
	q.prot = -1;
	dl_iterate_phdr(page_prot, &q);
	if (q.prot < 0)
		return -EFAULT; /* not in the library: a relocation this file does not understand */
	if (!(q.prot & PROT_WRITE) && mprotect((void *)q.page, q.pagesz, q.prot | PROT_WRITE) != 0)
		return -errno;
	__atomic_store_n(slot, fn, __ATOMIC_RELEASE);
	if (!(q.prot & PROT_WRITE) && mprotect((void *)q.page, q.pagesz, q.prot) != 0)
		return -errno;
	return 0;
}

int pmu__got_replace(void *handle, const char *name, void *fn, void **was)
{
	struct link_map *lm = NULL;
	struct dynamic d;
	int n = 0, r;

	if (dlinfo(handle, RTLD_DI_LINKMAP, &lm) != 0 || !lm)
		return -EINVAL;
	read_dynamic(lm, &d);
	if (!d.sym || !d.str)
		return 0;
	for (int t = 0; t < 2; t++) {
		for (size_t i = 0; d.rela[t] && i < d.relasz[t] / sizeof(ElfW(Rela)); i++) {
			const ElfW(Rela) *rel = &d.rela[t][i];
			size_t s = REL_SYM(rel->r_info);
			void **slot, *now;
			if (!s || rel->r_addend || d.sym[s].st_shndx != SHN_UNDEF || d.sym[s].st_name >= d.strsz ||
			    strcmp(d.str + d.sym[s].st_name, name))
				continue;
			slot = (void **)(lm->l_addr + rel->r_offset);
			now = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
			if (!*was)
				*was = now;
			if (now != *was)
				continue; /* not the function's address (a .rela.plt inside DT_RELA, seen twice) */
			if ((r = write_slot(lm, slot, fn)) < 0)
				return r;
			n++;
		}
	}
	return n;
}
