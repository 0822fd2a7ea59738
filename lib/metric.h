/* SPDX-License-Identifier: MIT */
/* Metrics (metric.c), what they share with the table checks (tables-check.c): how deep metric
 * chains may go, a chain's names as text, and the map from entries to numbers both keep. */
#ifndef PMU_METRIC_H
#define PMU_METRIC_H
#include <stdbool.h>
#include <stddef.h>

struct pmu_tentry;

/* How deep metrics may refer to metrics (a metric that uses one that uses one ... counts each):
 * evaluation recurses that deep at most, and pmu_tables_check() reports deeper chains. perf's
 * tables (Linux 6.12) nest 9 deep at most. */
#define PMU_METRIC_MAX_DEPTH 64
/* And how deep their expressions may nest along such a chain: the sum of the heights of the
 * expressions of the metrics on it (see PMU_EXPR_MAX_HEIGHT), which evaluation recurses through on
 * the C stack. perf's tables reach 9 metrics of heights up to 20. */
#define PMU_METRIC_MAX_NEST 2048

/* "A -> B -> C": the names of a chain of @n entries, the middle of a long one elided (saying how
 * many names are left out). A string to free; NULL when out of memory. */
char *pmu__chain_text(const struct pmu_tentry *const *v, size_t n);

/* A map from pointers (table entries) to numbers: open addressing, grows as needed. Zeroed = empty. */
struct pmu_pmap {
	const void **keys;
	double *vals;
	size_t cap, n;
};
/* Set @key's number. Returns 0 or -ENOMEM. */
int pmu__pmap_put(struct pmu_pmap *m, const void *key, double v);
/* Whether @key is in the map (its number in *v, when @v is not NULL). */
bool pmu__pmap_get(const struct pmu_pmap *m, const void *key, double *v);
void pmu__pmap_free(struct pmu_pmap *m);

#endif
