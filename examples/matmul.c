/* SPDX-License-Identifier: MIT */
/*
 * matmul: the same matrix product in two loop orders, each marked as a
 * region. i-j-k walks B down its columns (a cache miss per step for large
 * N); i-k-j walks every matrix row by row. Run it as it is: the region
 * report appears at exit (PMU_EVENTS, PMU_FORMAT, PMU_OUTPUT choose what and
 * how; e.g. PMU_EVENTS=TOPDOWN on Ice Lake or later shows where the slots
 * went). It also prints the two orders side by side from
 * pmu_region_foreach().
 *   usage: matmul [N]   (default 256)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pmu.h>

static double *A, *B, *C;

static void ijk(int n)
{
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++) {
			double s = 0;
			for (int k = 0; k < n; k++)
				s += A[i * n + k] * B[k * n + j];
			C[i * n + j] = s;
		}
}

static void ikj(int n)
{
	memset(C, 0, sizeof(double) * (size_t)n * (size_t)n);
	for (int i = 0; i < n; i++)
		for (int k = 0; k < n; k++) {
			double a = A[i * n + k];
			for (int j = 0; j < n; j++)
				C[i * n + j] += a * B[k * n + j];
		}
}

struct pick {
	const char *name;
	uint64_t v[2];
	char ev[2][64]; /* copied: the result's strings live only during the callback */
	size_t n;
};

static int pick(const struct pmu_region_result *r, void *data)
{
	struct pick *p = data;
	for (int i = 0; i < 2; i++)
		if (!strcmp(r->name, p[i].name)) {
			p[i].n = r->nvalues < 2 ? r->nvalues : 2;
			for (size_t k = 0; k < p[i].n; k++) {
				p[i].v[k] = pmu_scale(&r->values[k]);
				snprintf(p[i].ev[k], sizeof(p[i].ev[k]), "%s", r->events[k]);
			}
		}
	return 0;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 256;
	struct pick p[2] = { { "matmul i-j-k", { 0 }, { "" }, 0 }, { "matmul i-k-j", { 0 }, { "" }, 0 } };
	struct pmu_ctx *ctx;
	double check = 0;
	int r;

	if (n < 8 || n > 4096) {
		fprintf(stderr, "matmul: N must be 8..4096\n");
		return 2;
	}
	A = malloc(sizeof(double) * (size_t)n * (size_t)n);
	B = malloc(sizeof(double) * (size_t)n * (size_t)n);
	C = malloc(sizeof(double) * (size_t)n * (size_t)n);
	if (!A || !B || !C)
		return 1;
	for (int i = 0; i < n * n; i++) {
		A[i] = (i % 17) * 0.25;
		B[i] = (i % 13) * 0.5;
	}
	if ((r = pmu_region_begin("matmul i-j-k")) < 0) {
		fprintf(stderr, "matmul: %s\n", pmu_strerror(r));
		return 1;
	}
	ijk(n);
	pmu_region_end("matmul i-j-k");
	check += C[n * n / 3];
	pmu_region_begin("matmul i-k-j");
	ikj(n);
	pmu_region_end("matmul i-k-j");
	check -= C[n * n / 3];
	printf("matmul %dx%d, the two orders agree: %s\n", n, n, check == 0 ? "yes" : "NO");
	pmu_region_foreach(0, pick, p);
	if (pmu_ctx_new(&ctx, NULL) < 0)
		ctx = NULL;
	for (size_t k = 0; k < p[0].n; k++) {
		/* the event's unit, where it has one (task-clock counts ns) */
		struct pmu_event_info info;
		char label[80];
		if (ctx && pmu_event_resolve(ctx, p[0].ev[k], &info) == 0 && info.unit && info.unit[0])
			snprintf(label, sizeof(label), "%s (%s)", p[0].ev[k], info.unit);
		else
			snprintf(label, sizeof(label), "%s", p[0].ev[k]);
		printf("  %-24s i-j-k %14llu   i-k-j %14llu   (%.2fx)\n", label, (unsigned long long)p[0].v[k],
		       (unsigned long long)p[1].v[k], p[1].v[k] ? (double)p[0].v[k] / (double)p[1].v[k] : 0.0);
	}
	pmu_ctx_free(ctx);
	free(A);
	free(B);
	free(C);
	return check == 0 && p[0].n ? 0 : 1;
}
