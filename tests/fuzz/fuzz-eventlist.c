/* SPDX-License-Identifier: MIT */
/* Fuzz target: an event list (names, modifiers, braces, PMU/term=value/
 * syntax, raw codes, TOPDOWN) through parsing, resolution and group
 * arrangement, on the Ice Lake server fixture (topdown events, formats). */
#include <stdlib.h>
#include <string.h>
#include "set.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct pmu_ctx *ctx;
	struct pmu_set_opts o;
	struct pmu_set *s = NULL;
	char *text;

	if (!ctx) {
		struct pmu_ctx_opts co;
		const char *src = getenv("PMU_TEST_SRCDIR");
		static char sys[1024];
		snprintf(sys, sizeof(sys), "%s/tests/fixtures/intel-icx/sys", src ? src : ".");
		memset(&co, 0, sizeof(co));
		co.size = sizeof(co);
		co.sysfs_root = sys;
		co.cpuid = "GenuineIntel-6-6A-6";
		if (pmu_ctx_new(&ctx, &co) < 0)
			abort();
	}
	if (size > 4096)
		return 0;
	text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = 0;
	memset(&o, 0, sizeof(o));
	o.size = sizeof(o);
	if (pmu__set_plan(ctx, text, &o, &s) == 0)
		pmu_set_close(s);
	{
		struct pmu_event_info info;
		pmu_event_resolve(ctx, text, &info);
	}
	free(text);
	return 0;
}
