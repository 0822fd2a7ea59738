/* SPDX-License-Identifier: MIT */
/*
 * A table event of an x86 PMU that has format files is encoded through them,
 * field by field: each value placed in the bits its format file names (also a
 * format split over two ranges), the MSR value in the term its MSRIndex means
 * (0x3f6 ldlat, 0x3f7 frontend, else offcore_rsp). A field the PMU has no
 * format for, and a value wider than its format, are errors naming event,
 * term, PMU (and the terms it has, or the width). The expected configs are
 * written by hand here from the format strings below, bit by bit.
 */
#include "common.h"
#include "error.h"
#include "tables.h"
#include "harness.h"
#include "tablegen.h"

static void pmu_dir(const char *name, const char *type, const char *const *formats)
{
	char rel[256];

	snprintf(rel, sizeof(rel), "sys/bus/event_source/devices/%s/type", name);
	gen_write(rel, type, strlen(type));
	for (; *formats; formats += 2) {
		snprintf(rel, sizeof(rel), "sys/bus/event_source/devices/%s/format/%s", name, formats[0]);
		gen_write(rel, formats[1], strlen(formats[1]));
	}
}

static const struct want {
	const char *name;
	int r;
	uint64_t config, config1;
	const char *pmu, *msg;
} wants[] = {
	/* cpu: event 0-7, umask 8-15, edge 18, inv 23, cmask 24-31; 0xd1 | 0x20 << 8 */
	{ "T.CORE", 0, 0x20d1, 0, "cpu", NULL },
	/* 0xc4 | 2 << 8 | 1 << 18 | 1 << 23 | 3 << 24 = 0x038402c4 */
	{ "T.CORE_FLAGS", 0, 0x038402c4ull, 0, "cpu", NULL },
	/* offcore_rsp config1:0-63; ldlat config1:0-15; frontend config1:0-23 */
	{ "T.OFFCORE", 0, 0x01b7, 0x3fbfc00001ull, "cpu", NULL },
	{ "T.LDLAT", 0, 0x01cd, 0x20, "cpu", NULL },
	{ "T.FRONTEND", 0, 0x01c6, 0x11, "cpu", NULL },
	/* uncore_imc_0: event 0-7, umask 8-15 */
	{ "T.IMC", 0, 0xf005, 0, "uncore_imc_0", NULL },
	/* uncore_iio_0: umask config:8-11,36-43: 0x5a3 -> low 4 bits 0x3 at 8, the next 8 bits 0x5a at 36 */
	{ "T.IIO_SPLIT", 0, 0x83 | 0x3ull << 8 | 0x5aull << 36, 0, "uncore_iio_0", NULL },
	{ "T.IMC_CMASK", -EINVAL, 0, 0, NULL,
	  "event 'T.IMC_CMASK': PMU uncore_imc_0 has no format term or named event 'cmask'; its terms are: event, "
	  "umask, config, config1, config2" },
	{ "T.IMC_WIDE", -EINVAL, 0, 0, NULL,
	  "event 'T.IMC_WIDE': value 0x1ff does not fit term 'umask' of PMU uncore_imc_0 (8 bits)" },
	{ "T.IIO_WIDE", -EINVAL, 0, 0, NULL,
	  "event 'T.IIO_WIDE': value 0x1000 does not fit term 'umask' of PMU uncore_iio_0 (12 bits)" },
};

int main(void)
{
	static const char *const cpu[] = { "event", "config:0-7\n", "umask", "config:8-15\n", "edge", "config:18\n",
					   "inv", "config:23\n", "cmask", "config:24-31\n", "offcore_rsp",
					   "config1:0-63\n", "ldlat", "config1:0-15\n", "frontend", "config1:0-23\n", NULL };
	static const char *const imc[] = { "event", "config:0-7\n", "umask", "config:8-15\n", NULL };
	static const char *const iio[] = { "event", "config:0-7\n", "umask", "config:8-11,36-43\n", NULL };
	static const char table[] =
		"[{\"EventName\": \"T.CORE\", \"EventCode\": \"0xd1\", \"UMask\": \"0x20\"},\n"
		"{\"EventName\": \"T.CORE_FLAGS\", \"EventCode\": \"0xc4\", \"UMask\": \"0x2\", \"CounterMask\": \"3\", "
		"\"Invert\": \"1\", \"EdgeDetect\": \"1\"},\n"
		"{\"EventName\": \"T.OFFCORE\", \"EventCode\": \"0xB7, 0xBB\", \"UMask\": \"0x1\", \"MSRIndex\": "
		"\"0x1a6,0x1a7\", \"MSRValue\": \"0x3FBFC00001\"},\n"
		"{\"EventName\": \"T.LDLAT\", \"EventCode\": \"0xcd\", \"UMask\": \"0x1\", \"MSRIndex\": \"0x3F6\", "
		"\"MSRValue\": \"0x20\"},\n"
		"{\"EventName\": \"T.FRONTEND\", \"EventCode\": \"0xc6\", \"UMask\": \"0x1\", \"MSRIndex\": \"0x3F7\", "
		"\"MSRValue\": \"0x11\"},\n"
		"{\"EventName\": \"T.IMC\", \"EventCode\": \"0x5\", \"UMask\": \"0xf0\", \"Unit\": \"iMC\"},\n"
		"{\"EventName\": \"T.IIO_SPLIT\", \"EventCode\": \"0x83\", \"UMask\": \"0x5a3\", \"Unit\": \"IIO\"},\n"
		"{\"EventName\": \"T.IMC_CMASK\", \"EventCode\": \"0x4\", \"UMask\": \"0x3\", \"CounterMask\": \"2\", "
		"\"Unit\": \"iMC\"},\n"
		"{\"EventName\": \"T.IMC_WIDE\", \"EventCode\": \"0x4\", \"UMask\": \"0x1ff\", \"Unit\": \"iMC\"},\n"
		"{\"EventName\": \"T.IIO_WIDE\", \"EventCode\": \"0x4\", \"UMask\": \"0x1000\", \"Unit\": \"IIO\"}]\n";
	struct probs p = { 0 };
	struct pmu_ctx *ctx;
	int r;

	pmu_dir("cpu", "4\n", cpu);
	pmu_dir("uncore_imc_0", "20\n", imc);
	pmu_dir("uncore_iio_0", "23\n", iio);
	gen_write("t/events.json", table, sizeof(table) - 1);
	setenv("PMU_SYSFS_ROOT", gen_path("sys"), 1);
	ctx = gen_ctx(gen_path("t"), "GenuineIntel-6-6A-6");
	CHECK(pmu__tables_load(ctx) == 0, "tables: load failed");
	for (size_t i = 0; i < ARRAY_SIZE(wants); i++) {
		const struct want *w = &wants[i];
		const struct pmu_tentry *e = pmu__tables_find(ctx, w->name);
		struct pmu_event_info info;
		memset(&info, 0, sizeof(info));
		CHECK(e != NULL, "%s: not loaded", w->name);
		if (!e)
			continue;
		r = pmu__tables_encode(ctx, e, e->name, &info);
		if (w->r == 0)
			CHECK(r == 0 && info.config == w->config && info.config1 == w->config1 && !strcmp(info.pmu, w->pmu),
			      "%s: %d, config 0x%llx config1 0x%llx on %s; want config 0x%llx config1 0x%llx on %s (%s)",
			      w->name, r, (unsigned long long)info.config, (unsigned long long)info.config1, info.pmu,
			      (unsigned long long)w->config, (unsigned long long)w->config1, w->pmu, r ? pmu__err_msg() : "");
		else
			CHECK(r == w->r && !strcmp(pmu__err_msg(), w->msg), "%s: %d '%s'; want %d '%s'", w->name, r,
			      pmu__err_msg(), w->r, w->msg);
	}
	/* the three refused are this machine's PMUs' limits, not problems of the table itself */
	r = gen_check(ctx, gen_path("t"), &p);
	CHECK(r == 0, "check-tables: %d problems:\n%s", r, p.all.s);
	pmu_ctx_free(ctx);
	free(p.all.s);
	gen_done();
	return test_done("test-table-formats");
}
