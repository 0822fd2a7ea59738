/* SPDX-License-Identifier: MIT */
/*
 * Replace one imported function of a loaded library: the slots of its global offset table that its
 * relocations fill with that function's address (its calls through the PLT, its function pointers)
 * are written with another function's. For a setting a library takes only from a function it calls:
 * pfm.c answers libpfm4's getenv("LIBPFM_ENCODE_INACTIVE") itself, the process's environment untouched.
 */
#ifndef PMU_GOT_H
#define PMU_GOT_H

/* In the library @handle (dlopen's), each slot that a relocation for imported function @name (an
 * undefined symbol of the library, addend 0) fills, and that holds *@was, is set to @fn; with *@was
 * NULL, the first such slot's value is taken for it and stored into *@was (the function the library
 * calls now: put it back with pmu__got_replace(handle, name, *was, &fn)). A slot on a page the loader
 * made read-only (RELRO) is written with the page made writable for the store and read-only again.
 * Returns the number of slots set: 0 where the library imports no @name that way (or its relocations
 * are of a kind other than RELA: the arches libpmu is built for have RELA); -EINVAL when @handle has no
 * link map; mprotect's -errno (slots set before it stay set: put them back as above). Callers serialise
 * calls for one library; another thread calling the function meanwhile calls the old one or @fn. */
int pmu__got_replace(void *handle, const char *name, void *fn, void **was);

#endif
