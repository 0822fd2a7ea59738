/* SPDX-License-Identifier: MIT */
/*
 * pmu_tables_check() costs time linear in the size of a table: large
 * generated tables, each checked clean, of a size where the quadratic
 * checks it replaced took minutes (measured before the change: 300,000
 * metrics 3.5 minutes, 20,000 perfmon metrics with thresholds 2.5 minutes,
 * 20,000 ArchStdEvent references 3.7 s). No timing is asserted: a quadratic
 * check runs past the test's timeout. Argument: the parts to run ("13").
 */
#include <string.h>
#include <pmu.h>
#include "harness.h"
#include "tablegen.h"

int main(int argc, char **argv)
{
	const char *only = argc > 1 ? argv[1] : "123";
	struct probs p = { 0 };
	struct text t = { 0 };
	struct pmu_ctx *ctx = gen_ctx(NULL, NULL);
	int r;

	/* 1. 300,000 metrics, a binary tree: m<i> uses m<(i-1)/2> (18 deep) */
	if (strchr(only, '1')) {
		const size_t n = 300000;
		add(&t, "[\n");
		for (size_t i = 0; i < n; i++)
			add(&t, "{\"MetricName\": \"m%zu\", \"MetricExpr\": \"%s%zu + 1\"}%s\n", i, i ? "m" : "", i ? (i - 1) / 2 : 1,
			    i + 1 < n ? "," : "");
		add(&t, "]\n");
		gen_write("metrics/m.json", t.s, t.n);
		r = gen_check(ctx, gen_path("metrics"), &p);
		CHECK(r == 0, "300,000 metrics: %d problems:\n%.2000s", r, p.all.s);
	}

	/* 2. an Intel perfmon metric file of 50,000 metrics, each threshold naming another by LegacyName */
	if (strchr(only, '2')) {
		const size_t n = 50000;
		t.n = 0;
		add(&t, "{\"Header\": {}, \"Metrics\": [\n");
		for (size_t i = 0; i < n; i++)
			add(&t, "{\"MetricName\": \"pm%zu\", \"LegacyName\": \"metric_pm%zu\", \"Formula\": \"a / b\", "
				"\"Events\": [{\"Name\": \"instructions\", \"Alias\": \"a\"}, {\"Name\": \"cycles\", \"Alias\": \"b\"}], "
				"\"Threshold\": {\"Formula\": \"x > 1\", \"ThresholdMetrics\": [{\"Alias\": \"x\", "
				"\"Value\": \"metric_pm%zu\"}]}}%s\n", i, i, (i * 7) % n, i + 1 < n ? "," : "");
		add(&t, "]}\n");
		gen_write("perfmon/metrics.json", t.s, t.n);
		r = gen_check(ctx, gen_path("perfmon"), &p);
		CHECK(r == 0, "50,000 perfmon metrics: %d problems:\n%.2000s", r, p.all.s);
	}

	/* 3. 200,000 ArchStdEvent references to an architecture-level file of 200,000 events */
	if (strchr(only, '3')) {
		const size_t n = 200000;
		static const char map[] = "CPUID,Version,Directory,Type\n0x00000000410fd0c0,v1,vendor/cpu,core\n";
		t.n = 0;
		add(&t, "[\n");
		for (size_t i = 0; i < n; i++)
			add(&t, "{\"EventName\": \"E%zu\", \"EventCode\": \"0x%zx\"}%s\n", i, i & 0xffff, i + 1 < n ? "," : "");
		add(&t, "]\n");
		gen_write("archstd/arch.json", t.s, t.n);
		t.n = 0;
		add(&t, "[\n");
		for (size_t i = 0; i < n; i++)
			add(&t, "{\"ArchStdEvent\": \"e%zu\"}%s\n", n - 1 - i, i + 1 < n ? "," : "");
		add(&t, "]\n");
		gen_write("archstd/vendor/cpu/ev.json", t.s, t.n);
		gen_write("archstd/mapfile.csv", map, sizeof(map) - 1);
		r = gen_check(ctx, gen_path("archstd"), &p);
		CHECK(r == 0, "200,000 ArchStdEvent references: %d problems:\n%.2000s", r, p.all.s);
	}

	pmu_ctx_free(ctx);
	free(t.s);
	free(p.all.s);
	gen_done();
	return test_done("test-tables-scale");
}
