/* SPDX-License-Identifier: MIT */
/* Fuzz target: several files of one table directory from one input, split at lines "====": the
 * first an architecture-level file (what ArchStdEvent references name), the others the CPU
 * directory's files (perf's event and metric arrays, Intel perfmon {"Events"}/{"Metrics"} files),
 * through loading, reference filling, indexing, the checks and the encoder. */
#include <stdlib.h>
#include <string.h>
#include <pmu.h>
#include "tables.h"
#include "trace.h"

#define MAX_FILES 8

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct pmu_ctx *ctx;
	const char *texts[MAX_FILES];
	size_t lens[MAX_FILES], n = 0;
	char *text, *p;

	if (!ctx && pmu_ctx_new(&ctx, NULL) < 0)
		abort();
	if (size > 65536 || !(text = malloc(size + 1)))
		return 0;
	memcpy(text, data, size);
	text[size] = 0;
	for (p = text; n < MAX_FILES;) {
		char *sep = strstr(p, "\n====\n");
		texts[n] = p;
		if (!sep || n == MAX_FILES - 1) {
			lens[n++] = size - (size_t)(p - text);
			break;
		}
		lens[n++] = (size_t)(sep - p);
		p = sep + 6;
	}
	fuzz_trace("problems %d\n", pmu__tables_fuzz_dir(ctx, texts, lens, n));
	free(text);
	return 0;
}
