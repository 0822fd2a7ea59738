/* SPDX-License-Identifier: MIT */
/* malloc, calloc and realloc of the whole process forwarded to glibc's __libc_* functions, each failing
 * with NULL where fail_now() says so: the includer defines `static int fail_now(void)` first (which sets
 * errno). tests/oom-inject.h (a test's own process) and tests/oom-preload.c (a whole program, by
 * LD_PRELOAD) differ only in when it fails. */
#ifndef PMU_TEST_OOM_HOOKS_H
#define PMU_TEST_OOM_HOOKS_H
#include <stddef.h>

extern void *__libc_malloc(size_t n);
extern void *__libc_calloc(size_t a, size_t b);
extern void *__libc_realloc(void *p, size_t n);

void *malloc(size_t n)
{
	return fail_now() ? NULL : __libc_malloc(n);
}

void *calloc(size_t a, size_t b)
{
	return fail_now() ? NULL : __libc_calloc(a, b);
}

void *realloc(void *p, size_t n)
{
	return fail_now() ? NULL : __libc_realloc(p, n);
}
#endif
