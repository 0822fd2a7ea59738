/* SPDX-License-Identifier: MIT */
/* What the libpfm4 tests ask of this process and this machine: whether libpfm.so is mapped (the library
 * loads it at the first name that needs it), and whether the machine is a Skylake-SP (the tests encode
 * for "another CPU" than this one, which must then be another). */
#ifndef PMU_TEST_PFM_PROBE_H
#define PMU_TEST_PFM_PROBE_H
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* libpfm.so is in this process's maps. */
__attribute__((unused)) static bool pfm_mapped(void)
{
	char line[4096];
	bool found = false;
	FILE *f = fopen("/proc/self/maps", "r");

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f))
		found |= strstr(line, "/libpfm.so") != NULL;
	fclose(f);
	return found;
}

/* This machine is an Intel family 6 model 0x55 (Skylake-SP, Cascade Lake), by /proc/cpuinfo. */
__attribute__((unused)) static bool skylake_sp(void)
{
	char line[256];
	bool intel = false, m55 = false;
	FILE *f = fopen("/proc/cpuinfo", "r");

	while (f && fgets(line, sizeof(line), f) && strncmp(line, "flags", 5)) {
		intel |= !strncmp(line, "vendor_id", 9) && strstr(line, "GenuineIntel");
		m55 |= !strncmp(line, "model\t", 6) && atoi(strchr(line, ':') + 1) == 0x55;
	}
	if (f)
		fclose(f);
	return intel && m55;
}
#endif
