/* SPDX-License-Identifier: MIT */
/* Fuzz target: mapfile.csv text and a CPU id through map matching (pattern bounds, regcomp, regexec).
 * The input's first line is the CPU id (x86 Vendor-Family-Model[-Stepping], arm64 MIDR, riscv
 * mvendorid-marchid-mimpid; GenuineIntel-6-55-4 if it does not parse), the rest the mapfile. Every
 * line that pmu__tables_map_plain decides without regex is decided again by regcomp/regexec: the same. */
#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include "pmu.h"
#include "cpu.h"
#include "tables.h"
#include "trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void quiet(void *data, int level, const char *msg)
{
	(void)data, (void)level, (void)msg;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct pmu_ctx *ctx;
	struct pmu_cpu cpu;
	char *text, *nl, *dir = NULL;
	int r;

	if (!ctx) {
		struct pmu_ctx_opts o;
		memset(&o, 0, sizeof(o));
		o.size = sizeof(o);
		o.log_fn = quiet;
		if (pmu_ctx_new(&ctx, &o) < 0)
			abort();
	}
	if (size > 16384 || !(text = malloc(size + 1)))
		return 0;
	memcpy(text, data, size);
	text[size] = 0;
	nl = strchr(text, '\n');
	if (nl)
		*nl = 0;
	memset(&cpu, 0, sizeof(cpu));
	if (strlen(text) >= sizeof(cpu.cpuid) || pmu__cpu_parse_id(text, &cpu) < 0)
		pmu__cpu_parse_id("GenuineIntel-6-55-4", &cpu);
	{
		/* every line a plain pattern decides (pmu__tables_map_plain): as regcomp/regexec decide it */
		const char *p = nl ? nl + 1 : "";
		char keys[2][64], why[PMU_MAP_PATTERN_MAX + 160];
		int nk = pmu__tables_cpu_keys(&cpu, keys), lineno = 0;
		struct map_row row;
		while (pmu__tables_map_next(&p, &lineno, &row)) {
			int plain = pmu__tables_map_plain(row.cpuid, keys, nk), m = 0;
			regex_t re;
			if (plain < 0)
				continue;
			if (pmu__tables_map_pattern(row.cpuid, NULL, 0, &re, why, sizeof(why)) != 0)
				abort(); /* a plain pattern is within every bound and compiles */
			for (int k = 0; k < nk; k++)
				m |= regexec(&re, keys[k], 0, NULL, 0) == 0;
			regfree(&re);
			if (m != plain)
				abort();
		}
	}
	r = pmu__tables_map_match(ctx, &cpu, nl ? nl + 1 : "", "fuzz/mapfile.csv", &dir);
	if (r > 0 && !dir)
		abort();
	fuzz_trace("match %d %s\n", r, dir ? dir : "");
	free(dir);
	free(text);
	return 0;
}
