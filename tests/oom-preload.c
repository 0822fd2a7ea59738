/* SPDX-License-Identifier: MIT */
/* Allocation failure injection for a whole program (LD_PRELOAD; tests/test-oom-report.c runs pmu
 * with it): malloc, calloc and realloc forward to glibc's __libc_* functions, and the call numbered
 * PMU_OOM_NTH (from 1, counting from the program's start) fails once with ENOMEM; when it does, one
 * byte is written to the file descriptor PMU_OOM_FD, so that the caller knows the program reached it.
 * tests/oom-inject.h is the same for a test program's own process. */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

static long nth = -1, count;
static int fd = -1, ready;

static int fail_now(void)
{
	if (!ready) { /* getenv allocates nothing */
		const char *n = getenv("PMU_OOM_NTH"), *f = getenv("PMU_OOM_FD");
		nth = n ? atol(n) : -1;
		fd = f ? atoi(f) : -1;
		ready = 1;
	}
	if (++count != nth)
		return 0;
	if (fd >= 0 && write(fd, "F", 1) != 1)
		_exit(125);
	errno = ENOMEM;
	return 1;
}

#include "oom-hooks.h"
