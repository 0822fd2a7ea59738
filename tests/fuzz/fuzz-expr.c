/* SPDX-License-Identifier: MIT */
/* Fuzz target: MetricExpr parsing, name walking and evaluation, and the
 * public evaluator (metric references, encoding matches, constants). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "pmu.h"
#include "error.h"
#include "expr.h"
#include "trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int lookup(const char *name, int is_const, void *data, double *out)
{
	(void)data;
	(void)is_const;
	*out = (double)(strlen(name) % 7) - 1; /* includes 0 and negatives */
	return name[0] == 'X' ? -ENOENT : 0;
}

static int count(const char *name, int is_const, void *data)
{
	(void)name;
	(void)is_const;
	++*(int *)data;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct pmu_ctx *ctx;
	char err[160], *text;
	struct pmu_expr *e;
	double v;
	int n = 0;

	if (!ctx && pmu_ctx_new(&ctx, NULL) < 0)
		abort();
	text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = 0;
	e = pmu__expr_parse(text, err, sizeof(err));
	if (e) {
		pmu__expr_names(e, count, &n);
		pmu__expr_eval(e, lookup, NULL, &v, NULL);
		pmu__expr_free(e);
	}
	{
		struct pmu_named_value vals[2] = { { "INST.RET", 1000 }, { "cycles", 0 } };
		int r = pmu_metric_eval(ctx, text, vals, 2, &v);
		fuzz_trace("eval %d %.17g %s\n", r, r == 0 ? v : 0.0, r < 0 ? pmu__err_msg() : "");
	}
	free(text);
	return 0;
}
