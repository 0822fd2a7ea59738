/* SPDX-License-Identifier: MIT */
/*
 * Numbers of native events that do not fit the field they are encoded into
 * are a table problem naming entry, field, value and limit, and the entry is
 * not loaded: "CounterMask": "999999999999" became cmask 0xff and "UMask":
 * "0x100" was dropped without a word. The limits, written here from the
 * layouts (not from the library): x86 core PMUs (PERF_CTL) event 12 bits
 * (AMD's extended event bits), umask 8, cmask 8, edge/inv/any 1; arm64
 * PMUv3's event config:0-15; RISC-V SBI PMU's event config:0-47. Values at
 * each limit load. An entry of a flat directory (no architecture in its
 * path) is checked when encoded for the CPU's layout.
 */
#include "common.h"
#include "error.h"
#include "tables.h"
#include "harness.h"
#include "tablegen.h"

struct bad {
	const char *dir, *name, *field, *value, *msg;
};

static const struct bad bads[] = {
	{ "x86/cpu", "X86.CMASK", "CounterMask", "999999999999", "CounterMask 999999999999 (0xe8d4a50fff) does not fit the field it is encoded into (x86: at most 0xff)" },
	{ "x86/cpu", "X86.UMASK", "UMask", "0x100", "UMask 256 (0x100) does not fit the field it is encoded into (x86: at most 0xff)" },
	{ "x86/cpu", "X86.EVENT", "EventCode", "0x1000", "EventCode 4096 (0x1000) does not fit the field it is encoded into (x86: at most 0xfff)" },
	{ "x86/cpu", "X86.INV", "Invert", "2", "Invert 2 (0x2) does not fit the field it is encoded into (x86: at most 0x1)" },
	{ "x86/cpu", "X86.EDGE", "EdgeDetect", "0x10", "EdgeDetect 16 (0x10) does not fit the field it is encoded into (x86: at most 0x1)" },
	{ "x86/cpu", "X86.ANY", "AnyThread", "3", "AnyThread 3 (0x3) does not fit the field it is encoded into (x86: at most 0x1)" },
	{ "arm64/cpu", "ARM.EVENT", "EventCode", "0x10000", "EventCode 65536 (0x10000) does not fit the field it is encoded into (arm64: at most 0xffff)" },
	{ "riscv/cpu", "RV.EVENT", "EventCode", "0x1000000000000", "EventCode 281474976710656 (0x1000000000000) does not fit the field it is encoded into (riscv: at most 0xffffffffffff)" },
};

/* Each directory: its bad entries, and one at every limit (which must load). */
static void write_tables(void)
{
	static const char *const dirs[] = { "x86/cpu", "arm64/cpu", "riscv/cpu" };
	static const char *const good[] = {
		("{\"EventName\": \"X86.GOOD\", \"EventCode\": \"0xfff\", \"UMask\": \"0xff\", \"CounterMask\": \"255\", "
		 "\"Invert\": \"1\", \"EdgeDetect\": \"1\", \"AnyThread\": \"1\"}"),
		"{\"EventName\": \"ARM.GOOD\", \"EventCode\": \"0xffff\"}",
		"{\"EventName\": \"RV.GOOD\", \"EventCode\": \"0xffffffffffff\"}",
	};
	char rel[64];

	for (size_t d = 0; d < 3; d++) {
		struct text t = { 0 };
		add(&t, "[%s", good[d]);
		for (size_t i = 0; i < ARRAY_SIZE(bads); i++)
			if (!strcmp(bads[i].dir, dirs[d]))
				add(&t, ",\n{\"EventName\": \"%s\", \"EventCode\": \"0x3c\", \"%s\": \"%s\"}", bads[i].name,
				    bads[i].field, bads[i].value);
		add(&t, "]\n");
		snprintf(rel, sizeof(rel), "t/%s/events.json", dirs[d]);
		gen_write(rel, t.s, t.n);
		free(t.s);
	}
	/* (an EventCode case gives the key twice: the last one counts, in json-c as in Python) */
	{
		static const char map[] = "CPUID,Version,Directory,Type\nGenuineIntel-6-55,v1,x86/cpu,core\n"
					  "0x00000000410fd0c0,v1,arm64/cpu,core\n"
					  "0x489-0x8000000000000007-0x[[:xdigit:]]+,v1,riscv/cpu,core\n";
		gen_write("t/mapfile.csv", map, sizeof(map) - 1);
	}
}

int main(void)
{
	struct probs p = { 0 };
	struct pmu_ctx *ctx = gen_ctx(NULL, NULL);
	char want[512];
	int r;

	write_tables();
	r = gen_check(ctx, gen_path("t"), &p);
	CHECK(r == (int)ARRAY_SIZE(bads), "check-tables: %d problems, %zu expected:\n%s", r, ARRAY_SIZE(bads), p.all.s);
	for (size_t i = 0; i < ARRAY_SIZE(bads); i++) {
		snprintf(want, sizeof(want), "%s/events.json: %s: %s\n", bads[i].dir, bads[i].name, bads[i].msg);
		CHECK(strstr(p.all.s, want), "missing problem '%s' in:\n%s", want, p.all.s);
	}
	pmu_ctx_free(ctx);

	/* loading as each CPU: the bad entries are absent, the one at the limits is there */
	{
		static const char *const cpus[] = { "GenuineIntel-6-55-4", "0x00000000410fd0c0", "0x489-0x8000000000000007-0x1" };
		static const char *const goods[] = { "X86.GOOD", "ARM.GOOD", "RV.GOOD" };
		static const char *const dirs[] = { "x86/cpu", "arm64/cpu", "riscv/cpu" };
		for (size_t k = 0; k < 3; k++) {
			ctx = gen_ctx(gen_path("t"), cpus[k]);
			CHECK(pmu__tables_load(ctx) == 0, "%s: load failed", cpus[k]);
			CHECK(pmu__tables_find(ctx, goods[k]) != NULL, "%s: %s not loaded", cpus[k], goods[k]);
			for (size_t i = 0; i < ARRAY_SIZE(bads); i++)
				if (!strcmp(bads[i].dir, dirs[k]))
					CHECK(pmu__tables_find(ctx, bads[i].name) == NULL, "%s: %s loaded", cpus[k], bads[i].name);
			pmu_ctx_free(ctx);
		}
	}

	/* a flat directory: EventCode 0x1000 loads (no layout known) and is refused when encoded for x86 */
	{
		static const char flat[] = "[{\"EventName\": \"FLAT.EVENT\", \"EventCode\": \"0x1000\"}]\n";
		const struct pmu_tentry *e;
		struct pmu_event_info info;
		gen_write("flat/events.json", flat, sizeof(flat) - 1);
		ctx = gen_ctx(gen_path("flat"), "GenuineIntel-6-55-4");
		CHECK(pmu__tables_load(ctx) == 0, "flat: load failed");
		e = pmu__tables_find(ctx, "FLAT.EVENT");
		CHECK(e != NULL, "flat: FLAT.EVENT not loaded");
		memset(&info, 0, sizeof(info));
		if (e) {
			r = pmu__tables_encode(ctx, e, e->name, &info);
			CHECK(r == -EINVAL && strstr(pmu__err_msg(), "EventCode 4096 (0x1000) does not fit the field it is "
						       "encoded into (x86: at most 0xfff)"),
			      "flat: encoded %d config 0x%llx: %s", r, (unsigned long long)info.config, pmu__err_msg());
		}
		pmu_ctx_free(ctx);
	}
	free(p.all.s);
	gen_done();
	return test_done("test-table-ranges");
}
