/* SPDX-License-Identifier: MIT */
/* Every shipped standard metric against the hand-computed vectors in
 * tests/metrics/standard-vectors.json ("expected": null means NaN). */
#include <json-c/json.h>
#include <math.h>
#include <string.h>
#include <pmu.h>
#include "harness.h"

int main(void)
{
	const char *src = getenv("PMU_TEST_SRCDIR");
	char path[1024];
	json_object *root;
	struct pmu_ctx *ctx;
	int n = 0;

	snprintf(path, sizeof(path), "%s/tests/metrics/standard-vectors.json", src ? src : ".");
	root = json_object_from_file(path);
	if (!root || !json_object_is_type(root, json_type_array)) {
		printf("cannot read %s\n", path);
		return 1;
	}
	for (size_t i = 0; i < json_object_array_length(root); i++) {
		json_object *v = json_object_array_get_idx(root, i), *m, *in, *params, *exp, *why;
		struct pmu_named_value vals[64];
		size_t nv = 0;
		double got = 0, want;
		int r;
		/* a context per vector: parameters set by one must not leak into the next */
		if (pmu_ctx_new(&ctx, NULL) < 0)
			return 1;
		json_object_object_get_ex(v, "metric", &m);
		json_object_object_get_ex(v, "inputs", &in);
		json_object_object_get_ex(v, "expected", &exp);
		json_object_object_get_ex(v, "why", &why);
		json_object_object_foreach(in, key, val) {
			if (nv < 64) {
				vals[nv].name = key;
				vals[nv++].value = json_object_get_double(val);
			}
		}
		if (json_object_object_get_ex(v, "params", &params)) {
			json_object_object_foreach(params, pk, pv)
				pmu_ctx_set_param(ctx, pk, json_object_get_double(pv));
		}
		want = exp && !json_object_is_type(exp, json_type_null) ? json_object_get_double(exp) : NAN;
		r = pmu_metric_eval(ctx, json_object_get_string(m), vals, nv, &got);
		CHECK(r == 0, "%s: %s", json_object_get_string(m), pmu_strerror(r));
		if (r == 0)
			CHECK((isnan(want) && isnan(got)) || (!isnan(want) && fabs(got - want) <= 1e-9 * (fabs(want) + 1)),
			      "%s = %.12g, expected %.12g (%s)", json_object_get_string(m), got, want,
			      why ? json_object_get_string(why) : "");
		n++;
		pmu_ctx_free(ctx);
	}
	json_object_put(root);
	CHECK(n >= 163, "only %d vectors", n);
	printf("%d vectors evaluated\n", n);
	return test_done("test-metric-vectors");
}
