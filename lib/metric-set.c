/* SPDX-License-Identifier: MIT */
/* A metric over a set's counted values (pmu_metric_eval_set): the set's events and their values handed
 * to pmu_metric_eval_events(). Apart from metric.c, which the set's planning reaches (the TOPDOWN
 * keyword's events), so that the metrics do not depend on the sets. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include "pmu.h"
#include "common.h"
#include "error.h"
#include "set.h"

PMU_EXPORT int pmu_metric_eval_set(struct pmu_ctx *ctx, const char *metric_or_expr, struct pmu_set *s,
				   const struct pmu_value *vals, double *out)
{
	struct pmu_named_value *nv;
	struct pmu_event_info *infos;
	size_t n;
	int r;

	pmu__err_clear();
	if (!ctx || !s || !vals)
		return pmu__err(ctx, -EINVAL, "pmu_metric_eval_set: NULL argument");
	n = pmu_set_count(s);
	nv = calloc(n ? n : 1, sizeof(*nv));
	infos = calloc(n ? n : 1, sizeof(*infos));
	if (!nv || !infos) {
		free(nv);
		free(infos);
		return pmu__err(ctx, -ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < n; i++) {
		const struct pmu_event_info *e = pmu__set_info(s, i);
		nv[i].name = e->name;
		nv[i].value = (e->flags & PMU_EVF_UNSUPPORTED) ? NAN : (double)pmu_scale(&vals[i]);
		infos[i] = *e;
	}
	r = pmu_metric_eval_events(ctx, metric_or_expr, nv, infos, n, out);
	free(nv);
	free(infos);
	return r;
}
