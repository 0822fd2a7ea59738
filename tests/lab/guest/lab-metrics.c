/* SPDX-License-Identifier: MIT */
/*
 * Metrics from real counts: a set opened with standard names (INST.RET,
 * GEN.CYCLES: native events of the guest's table on arm64, kernel generic
 * events on riscv64) plus a software event; the metric engine evaluates an
 * IPC-style and an MPKI-style expression over the deltas, and the results
 * must equal the same arithmetic done on the raw values, with sane
 * magnitudes (64 fresh pages touched -> at least 64 faults).
 */
#include <math.h>
#include <sys/mman.h>
#include "labutil.h"

int main(void)
{
	struct pmu_ctx *ctx = lab_ctx();
	struct pmu_set *s;
	struct pmu_value a[3], b[3], d[3];
	struct pmu_set_opts o;
	struct pmu_event_info e;
	double ipc, mpki;
	int r;

	memset(&o, 0, sizeof(o));
	o.size = sizeof(o);
	o.flags = PMU_SET_ENABLE;
	r = pmu_set_open(ctx, "INST.RET:u,GEN.CYCLES:u,page-faults", &o, &s);
	if (r < 0) {
		printf("FAIL: open: %s\n", pmu_strerror(r));
		return 1;
	}
	for (int i = 0; i < 2; i++) {
		pmu_set_event(s, (size_t)i, &e);
		printf("%s -> %s\n", e.name, e.origin);
	}
	pmu_set_read(s, a);
	lab_spin(1000000);
	{
		size_t ps = 4096, n = 64;
		char *p = mmap(NULL, n * ps, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		for (size_t i = 0; p != MAP_FAILED && i < n; i++)
			p[i * ps] = 1;
		if (p != MAP_FAILED)
			munmap(p, n * ps);
	}
	pmu_set_read(s, b);
	pmu_delta(a, b, 3, d);
	printf("instructions %llu, cycles %llu, page faults %llu\n", (unsigned long long)d[0].value,
	       (unsigned long long)d[1].value, (unsigned long long)d[2].value);
	r = pmu_metric_eval_set(ctx, "INST.RET / GEN.CYCLES", s, d, &ipc);
	LAB_CHECK(r == 0, "IPC: %s", pmu_strerror(r));
	r = pmu_metric_eval_set(ctx, "1e3 * page\\-faults / INST.RET", s, d, &mpki);
	LAB_CHECK(r == 0, "faults per kilo-instruction: %s", pmu_strerror(r));
	printf("IPC %.4f, page faults per 1000 instructions %.4f\n", ipc, mpki);
	LAB_CHECK(fabs(ipc - (double)pmu_scale(&d[0]) / (double)pmu_scale(&d[1])) < 1e-12, "IPC differs from raw arithmetic");
	LAB_CHECK(fabs(mpki - 1e3 * (double)pmu_scale(&d[2]) / (double)pmu_scale(&d[0])) < 1e-12,
		  "MPKI differs from raw arithmetic");
	LAB_CHECK(d[0].value >= 2000000, "the 2M-instruction loop counted %llu", (unsigned long long)d[0].value);
	LAB_CHECK(d[2].value >= 64, "64 pages touched, %llu faults", (unsigned long long)d[2].value);
	LAB_CHECK(ipc > 0.05 && ipc <= 8, "IPC %.3f is not plausible", ipc);
	pmu_set_close(s);
	pmu_ctx_free(ctx);
	return lab_done("lab-metrics");
}
