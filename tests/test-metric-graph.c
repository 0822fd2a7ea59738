/* SPDX-License-Identifier: MIT */
/*
 * Metrics that use metrics, in tables generated here: cycles of long names
 * and chains deeper than evaluation follows are each reported with their
 * own message by pmu_tables_check() (no fixed-size text to overflow) and by
 * pmu_metric_eval() / pmu_metric_events(); a metric used by many is
 * evaluated once (diamonds of 25 and 60 levels: 2^60 evaluations without
 * that), its value computed by hand here. (test-tables-scale: the check's
 * cost.)
 */
#include <math.h>
#include <string.h>
#include <pmu.h>
#include "harness.h"
#include "tablegen.h"

/* Write the metrics named by @name(i, buf) with expressions @expr(i, buf), i < n, and @extra
 * (objects, may be NULL) as <root>/<dir>/m.json; returns the directory. */
static const char *table(const char *dir, size_t n, void (*name)(size_t, char *), void (*expr)(size_t, char *),
			 const char *extra)
{
	char rel[300], nb[256], eb[4096];
	struct text t = { 0 };

	add(&t, "[\n");
	for (size_t i = 0; i < n; i++) {
		name(i, nb);
		expr(i, eb);
		add(&t, "{\"MetricName\": \"%s\", \"MetricExpr\": \"%s\"}%s\n", nb, eb, i + 1 < n || extra ? "," : "");
	}
	if (extra)
		add(&t, "%s\n", extra);
	add(&t, "]\n");
	snprintf(rel, sizeof(rel), "%s/m.json", dir);
	gen_write(rel, t.s, t.n);
	free(t.s);
	return gen_path(dir);
}

static int check(struct pmu_ctx *ctx, const char *dir, struct probs *p)
{
	return gen_check(ctx, dir, p);
}

static struct pmu_ctx *ctx_for(const char *path)
{
	return gen_ctx(path, NULL);
}

/* ---- the generated tables ---- */

/* a cycle of 5 metrics with 121-character names: m0_xxx... uses m1_xxx..., m4 uses m0 */
static void long_name(size_t i, char *b)
{
	snprintf(b, 256, "m%zu_", i % 5);
	memset(b + 3, 'x', 118);
	b[121] = 0;
}
static void long_next(size_t i, char *b)
{
	long_name(i + 1, b);
	strcat(b, " + 1");
}

/* chains: c<i> = c<i+1> + 1, the last = 1 (so c0 = the chain's length) */
static size_t chain_len;
static void c_name(size_t i, char *b) { snprintf(b, 256, "c%zu", i); }
static void c_next(size_t i, char *b)
{
	if (i + 1 < chain_len)
		snprintf(b, 512, "c%zu + 1", i + 1);
	else
		snprintf(b, 512, "1");
}

/* a chain of long names: 120 characters each */
static void l_name(size_t i, char *b)
{
	int n = snprintf(b, 256, "l%zu_", i);
	memset(b + n, 'y', (size_t)(120 - n));
	b[120] = 0;
}
static void l_next(size_t i, char *b)
{
	if (i + 1 < chain_len) {
		l_name(i + 1, b);
		strcat(b, " * 2");
	} else {
		snprintf(b, 512, "1");
	}
}

/* tall expressions: t<i> = t<i+1> + 1 + 1 ... (500 times), 501 levels high, the last 1 + 1 ... */
static void tall_name(size_t i, char *b) { snprintf(b, 256, "tall%zu", i); }
static void tall_next(size_t i, char *b)
{
	static char text[4096];
	int n = i + 1 < chain_len ? snprintf(text, sizeof(text), "tall%zu", i + 1) : snprintf(text, sizeof(text), "1");
	for (int k = 0; k < 500; k++)
		n += snprintf(text + n, sizeof(text) - (size_t)n, " + 1");
	strcpy(b, text);
}

/* a diamond: d<i> = d<i+1> + d<i+1>, the last = instructions (so d0 = 2^levels * instructions) */
static size_t levels;
static void d_name(size_t i, char *b) { snprintf(b, 256, "d%zu", i); }
static void d_next(size_t i, char *b)
{
	if (i < levels)
		snprintf(b, 512, "d%zu + d%zu", i + 1, i + 1);
	else
		snprintf(b, 512, "instructions");
}

/* MetricParams defaults come from the metric that uses a shared one: its value depends on it */
static const char params[] =
	"{\"MetricName\": \"p_shared\", \"MetricExpr\": \"#k * 10\"},\n"
	"{\"MetricName\": \"p_two\", \"MetricExpr\": \"p_shared\", \"MetricParams\": \"k=2\"},\n"
	"{\"MetricName\": \"p_five\", \"MetricExpr\": \"p_shared + 0\", \"MetricParams\": \"k=5\"},\n"
	"{\"MetricName\": \"p_both\", \"MetricExpr\": \"p_two + p_five + p_two\"}";

/* Whether to run part @n: every part, or those named in argv[1] ("35": parts 3 and 5). */
static const char *only;
static int part(int n)
{
	return !only || strchr(only, '0' + n);
}

int main(int argc, char **argv)
{
	struct probs p = { 0 };
	struct pmu_ctx *ctx;
	const char *dir;
	char events[256], name0[256];
	double v;
	int r;

	only = argc > 1 ? argv[1] : NULL;

	/* 1. a cycle of five 121-character names (a 2 KB table): reported whole, once */
	if (part(1)) {
		dir = table("cycle", 5, long_name, long_next, NULL);
		ctx = ctx_for(dir);
		r = check(ctx, dir, &p);
		long_name(0, name0);
		CHECK(r == 1 && strstr(p.all.s, "cycle"), "cycle of 5: %d problems:\n%s", r, p.all.s);
		for (size_t i = 0; i < 5; i++) {
			char nb[256];
			long_name(i, nb);
			CHECK(strstr(p.all.s, nb) != NULL, "the cycle's report names %s:\n%s", nb, p.all.s);
		}
		r = pmu_metric_eval(ctx, name0, NULL, 0, &v);
		CHECK(r == -ELOOP && strstr(pmu_strerror(r), "cycle") && strstr(pmu_strerror(r), name0),
		      "evaluating the cycle: %d %s", r, pmu_strerror(r));
		r = pmu_metric_events(ctx, name0, events, sizeof(events));
		CHECK(r == -ELOOP && strstr(pmu_strerror(r), "cycle"), "events of the cycle: %d %s", r, pmu_strerror(r));
		pmu_ctx_free(ctx);
	}

	/* 2. chains: 64 metrics deep evaluate (c0 = 64); 65 and 70 are too deep, which is not a cycle */
	if (part(2)) {
		chain_len = 64;
		dir = table("chain64", chain_len, c_name, c_next, NULL);
		ctx = ctx_for(dir);
		r = check(ctx, dir, &p);
		CHECK(r == 0, "chain of 64: %d problems:\n%s", r, p.all.s);
		r = pmu_metric_eval(ctx, "c0", NULL, 0, &v);
		CHECK(r == 0 && v == 64, "chain of 64: c0 = %g (%s), expected 64", v, r ? pmu_strerror(r) : "");
		pmu_ctx_free(ctx);
		for (int k = 0; k < 2; k++) {
			chain_len = k ? 70 : 65;
			dir = table(k ? "chain70" : "chain65", chain_len, c_name, c_next, NULL);
			ctx = ctx_for(dir);
			r = check(ctx, dir, &p);
			CHECK(r == 1 && !strstr(p.all.s, "cycle") && strstr(p.all.s, k ? "nest 70 deep" : "nest 65 deep") &&
			      strstr(p.all.s, "c0 -> c1 -> c2 -> ..."),
			      "chain of %zu: %d problems:\n%s", chain_len, r, p.all.s);
			r = pmu_metric_eval(ctx, "c0", NULL, 0, &v);
			CHECK(r == -ELOOP && !strstr(pmu_strerror(r), "cycle") && strstr(pmu_strerror(r), "deeper than the 64"),
			      "evaluating a chain of %zu: %d %s", chain_len, r, pmu_strerror(r));
			r = pmu_metric_events(ctx, "c0", events, sizeof(events));
			CHECK(r == -ELOOP && !strstr(pmu_strerror(r), "cycle") && strstr(pmu_strerror(r), "deeper than the 64"),
			      "events of a chain of %zu: %d %s", chain_len, r, pmu_strerror(r));
			/* the last 64 of the chain: fine, 64 */
			r = pmu_metric_eval(ctx, k ? "c6" : "c1", NULL, 0, &v);
			CHECK(r == 0 && v == 64, "64 of the chain: %g (%s)", v, r ? pmu_strerror(r) : "");
			pmu_ctx_free(ctx);
		}
		/* 300 names of 120 characters: the middle is left out, saying how much */
		chain_len = 300;
		dir = table("chain300", chain_len, l_name, l_next, NULL);
		ctx = ctx_for(dir);
		r = check(ctx, dir, &p);
		CHECK(r == 1 && strstr(p.all.s, "nest 300 deep") && strstr(p.all.s, "(294 more)"), "chain of 300: %d:\n%s",
		      r, p.all.s);
		l_name(0, name0);
		r = pmu_metric_eval(ctx, name0, NULL, 0, &v);
		CHECK(r == -ELOOP && strstr(pmu_strerror(r), "deeper than the 64") && strstr(pmu_strerror(r), "(59 more)"),
		      "evaluating a chain of 300 long names: %d %s", r, pmu_strerror(r));
		pmu_ctx_free(ctx);
		/* expressions 501 high: 4 nest 2004 levels, fine (4 * 500 + 1); 5 nest 2505, 32 nest 16032: more
		 * than the 2048 that evaluation recurses through (32 overflowed the stack under ASan) */
		for (int k = 0; k < 3; k++) {
			static const size_t lens[] = { 4, 5, 32 };
			char dn[32], want[64];
			chain_len = lens[k];
			snprintf(dn, sizeof(dn), "tall%zu", chain_len);
			dir = table(dn, chain_len, tall_name, tall_next, NULL);
			ctx = ctx_for(dir);
			r = check(ctx, dir, &p);
			snprintf(want, sizeof(want), "nest %zu levels deep", chain_len * 501);
			CHECK(k ? r == 1 && strstr(p.all.s, want) && !strstr(p.all.s, "cycle") : r == 0,
			      "%zu tall expressions: %d problems:\n%s", chain_len, r, p.all.s);
			r = pmu_metric_eval(ctx, "tall0", NULL, 0, &v);
			CHECK(k ? r == -ELOOP && strstr(pmu_strerror(r), "more than the 2048 levels") &&
				  strstr(pmu_strerror(r), "tall0 -> tall1 -> tall2 -> tall3 -> tall4")
				: r == 0 && v == 2001,
			      "evaluating %zu tall expressions: %d %g %s", chain_len, r, v, r ? pmu_strerror(r) : "");
			r = pmu_metric_events(ctx, "tall0", events, sizeof(events));
			CHECK(k ? r == -ELOOP && strstr(pmu_strerror(r), "more than the 2048 levels") : r == 0,
			      "events of %zu tall expressions: %d %s", chain_len, r, pmu_strerror(r));
			pmu_ctx_free(ctx);
		}
	}

	/* 3. diamonds: each level uses the next twice; evaluated once per metric, not 2^levels times */
	for (int k = 0; k < 2 && part(3); k++) {
		struct pmu_named_value leaf = { "instructions", 3 };
		char dn[32];
		levels = k ? 60 : 25;
		snprintf(dn, sizeof(dn), "diamond%zu", levels);
		dir = table(dn, levels + 1, d_name, d_next, NULL);
		ctx = ctx_for(dir);
		r = check(ctx, dir, &p);
		CHECK(r == 0, "diamond of %zu: %d problems:\n%s", levels, r, p.all.s);
		r = pmu_metric_eval(ctx, "d0", &leaf, 1, &v);
		CHECK(r == 0 && v == ldexp(3, (int)levels), "diamond of %zu: d0 = %.17g (%s), expected 3 * 2^%zu", levels,
		      v, r ? pmu_strerror(r) : "", levels);
		r = pmu_metric_events(ctx, "d0", events, sizeof(events));
		CHECK(r == 12 && !strcmp(events, "instructions"), "events of the diamond of %zu: %d '%s'", levels, r,
		      r >= 0 ? events : pmu_strerror(r));
		pmu_ctx_free(ctx);
	}

	/* 4. a metric whose #constant comes from the metric using it is not reused across users:
	 *    p_both = p_two + p_five + p_two = 2*10 + 5*10 + 2*10 */
	if (part(4)) {
		levels = 0;
		dir = table("params", 1, d_name, d_next, params);
		ctx = ctx_for(dir);
		r = pmu_metric_eval(ctx, "p_both", NULL, 0, &v);
		CHECK(r == 0 && v == 90, "p_both = %g (%s), expected 90", v, r ? pmu_strerror(r) : "");
		pmu_ctx_free(ctx);
	}

	free(p.all.s);
	gen_done();
	return test_done("test-metric-graph");
}
