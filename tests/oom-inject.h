/* SPDX-License-Identifier: MIT */
/* Allocation failure injection for the OOM tests: malloc, calloc and realloc of the whole process
 * (libpmu.so's and libjson-c's included) forward to glibc's __libc_* functions, and the @nth call
 * after @armed is set fails once with ENOMEM (@fired says it happened; @count counts the calls).
 * Not in sanitizer builds, whose allocators these would bypass: PMU_SANITIZED is defined there and
 * a test skips. */
#ifndef PMU_TEST_OOM_INJECT_H
#define PMU_TEST_OOM_INJECT_H
#include <errno.h>
#include <stddef.h>

#include "sanitizer.h"

#ifndef PMU_SANITIZED
static int armed, nth, count, fired;

static int fail_now(void)
{
	if (!armed || ++count != nth)
		return 0;
	fired = 1;
	errno = ENOMEM;
	return 1;
}

#include "oom-hooks.h"
#endif
#endif
