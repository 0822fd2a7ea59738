/* SPDX-License-Identifier: MIT */
/* tests/perf-corpus-libpfm4.txt, read by the C tests: whether perf's directory @dir encodes @event as
 * @ours where libpfm4 encodes its name as @theirs (a difference perf-corpus.py checks against perf's tree,
 * with Intel's perfmon data as the third source). @src is the source tree. */
#ifndef PMU_TEST_PERF_LIBPFM4_H
#define PMU_TEST_PERF_LIBPFM4_H
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static inline bool perf_libpfm4_listed(const char *src, const char *dir, const char *event, unsigned long long ours,
				       unsigned long long theirs)
{
	char path[600], line[512];
	bool found = false;
	FILE *f;

	snprintf(path, sizeof(path), "%s/tests/perf-corpus-libpfm4.txt", src);
	if (!(f = fopen(path, "r")))
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		char ld[64], le[256];
		unsigned long long a, b;
		found = line[0] != '#' && sscanf(line, "%63s %255s %llx %llx", ld, le, &a, &b) == 4 &&
			!strcmp(ld, dir) && !strcmp(le, event) && a == ours && b == theirs;
	}
	fclose(f);
	return found;
}
#endif
