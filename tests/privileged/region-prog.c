/* SPDX-License-Identifier: MIT */
/* A program with one region, for test-privileged.sh (run setuid root by an
 * ordinary user); prints its real and effective uid and the AT_SECURE flag
 * so the test knows the privilege change really happened. Links libpmu
 * statically: a setuid program does not follow $ORIGIN or LD_LIBRARY_PATH. */
#include <stdio.h>
#include <sys/auxv.h>
#include <unistd.h>
#include <pmu.h>

int main(void)
{
	volatile unsigned long x __attribute__((unused)) = 0; /* the work the region measures */

	printf("uid=%d euid=%d secure=%lu\n", (int)getuid(), (int)geteuid(), getauxval(AT_SECURE));
	fflush(stdout);
	pmu_region_begin("work");
	for (int i = 0; i < 100000; i++)
		x += (unsigned long)i;
	pmu_region_end("work");
	return 0;
}
