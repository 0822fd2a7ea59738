/* SPDX-License-Identifier: MIT */
/* Page faults a test knows the mode of: PAGE_FAULTS pages each, taken in kernel mode (read(2) from
 * /dev/zero into untouched pages) or user mode (stores into untouched pages). 0, or -1 when the
 * memory or /dev/zero cannot be had. */
#ifndef PMU_TEST_PAGE_FAULTS_H
#define PMU_TEST_PAGE_FAULTS_H
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#define PAGE_FAULTS 256

static inline int kernel_faults(void)
{
	size_t ps = (size_t)sysconf(_SC_PAGESIZE), len = PAGE_FAULTS * ps;
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int fd = open("/dev/zero", O_RDONLY | O_CLOEXEC), ok;

	if (p == MAP_FAILED || fd < 0) {
		if (p != MAP_FAILED)
			munmap(p, len);
		if (fd >= 0)
			close(fd);
		return -1;
	}
	madvise(p, len, MADV_NOHUGEPAGE); /* one fault per page, not one per huge page */
	ok = read(fd, p, len) == (ssize_t)len ? 0 : -1;
	close(fd);
	munmap(p, len);
	return ok;
}

static inline int user_faults(void)
{
	size_t ps = (size_t)sysconf(_SC_PAGESIZE), len = PAGE_FAULTS * ps;
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return -1;
	madvise(p, len, MADV_NOHUGEPAGE);
	for (size_t i = 0; i < PAGE_FAULTS; i++)
		((volatile char *)p)[i * ps] = 1;
	munmap(p, len);
	return 0;
}

#endif
