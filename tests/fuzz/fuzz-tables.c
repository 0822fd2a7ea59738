/* SPDX-License-Identifier: MIT */
/* Fuzz target: a table file through the loader, the validator and the encoder. */
#include <stdlib.h>
#include <pmu.h>
#include "tables.h"
#include "trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct pmu_ctx *ctx;
	if (!ctx && pmu_ctx_new(&ctx, NULL) < 0)
		abort();
	fuzz_trace("problems %d\n", pmu__tables_fuzz(ctx, (const char *)data, size));
	return 0;
}
