/* SPDX-License-Identifier: MIT */
/*
 * Metrics that use metrics, in tables generated here: cycles of long names
 * and chains deeper than evaluation follows are each reported with their
 * own message by pmu_tables_check() (no fixed-size text to overflow) and by
 * pmu_metric_eval() / pmu_metric_events(); a metric used by many is
 * evaluated once (diamonds of 25 and 60 levels: 2^60 evaluations without
 * that), its value computed by hand here, also when the #constant at the
 * bottom of the diamond comes from the MetricParams of the metric at the top;
 * a metric is evaluated again where another metric's MetricParams change a
 * #constant it uses (also one it took from the machine before), and a table
 * that makes that exponential stops at a bound, with a message naming it.
 * (test-tables-scale: the check's cost.)
 */
#include <math.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
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

/* a diamond whose bottom is a #constant of the top's MetricParams: q<i> = q<i-1> + q<i-1> (i <= levels), q0 =
 * #p, qtop = q<levels> with p=3 (so qtop = 3 * 2^levels) */
static void q_name(size_t i, char *b) { snprintf(b, 256, "q%zu", i); }
static void q_next(size_t i, char *b)
{
	if (i)
		snprintf(b, 512, "q%zu + q%zu", i - 1, i - 1);
	else
		snprintf(b, 512, "#p");
}

/* o_x takes #num_cpus from the machine where o_a uses it, from o_b's MetricParams where o_b does: the
 * value kept from one is not the other's, in either order */
static const char order[] =
	"{\"MetricName\": \"o_a\", \"MetricExpr\": \"o_x\"},\n"
	"{\"MetricName\": \"o_b\", \"MetricExpr\": \"o_x\", \"MetricParams\": \"num_cpus=1000\"},\n"
	"{\"MetricName\": \"o_ab\", \"MetricExpr\": \"o_a + o_b\"},\n"
	"{\"MetricName\": \"o_ba\", \"MetricExpr\": \"o_b + o_a\"}";
static void o_name(size_t i, char *b) { (void)i; snprintf(b, 256, "o_x"); }
static void o_next(size_t i, char *b) { (void)i; snprintf(b, 512, "#num_cpus"); }

/* values that really differ with the path: r<k> = r<k-1> + s<k>, s<k> = r<k-1> with p<k>=1 (k = 1..levels),
 * r0 = #p1 + ... + #p<levels>, rtop = r<levels> with every p<k>=0. r0 under the s<k> of a set S on the
 * path is |S|, so rtop = the sum of |S| over the subsets of {1..levels} = levels * 2^(levels-1), from
 * 2^(levels+1) evaluations that differ: too many at 20 levels. */
static void r_name(size_t i, char *b)
{
	if (i <= levels)
		snprintf(b, 256, "r%zu", i);
	else if (i <= 2 * levels)
		snprintf(b, 256, "s%zu", i - levels);
	else
		snprintf(b, 256, "rtop");
}
static void r_next(size_t i, char *b)
{
	int n = 0;
	if (i == 0)
		for (size_t k = 1; k <= levels; k++)
			n += snprintf(b + n, 4096 - (size_t)n, "%s#p%zu", k > 1 ? " + " : "", k);
	else if (i <= levels)
		snprintf(b, 512, "r%zu + s%zu", i - 1, i);
	else if (i <= 2 * levels)
		snprintf(b, 512, "r%zu", i - levels - 1);
	else
		snprintf(b, 512, "r%zu", levels);
}
/* the MetricParams of the r table, as objects of their own are not possible with table(): the whole
 * table is written here */
static const char *r_table(const char *dir)
{
	char rel[300], nb[256], eb[4096];
	struct text t = { 0 };

	add(&t, "[\n");
	for (size_t i = 0; i <= 2 * levels + 1; i++) {
		r_name(i, nb);
		r_next(i, eb);
		add(&t, "{\"MetricName\": \"%s\", \"MetricExpr\": \"%s\"", nb, eb);
		if (i > levels && i <= 2 * levels)
			add(&t, ", \"MetricParams\": \"p%zu=1\"", i - levels);
		if (i == 2 * levels + 1)
			for (size_t k = 1; k <= levels; k++)
				add(&t, "%sp%zu=0%s", k == 1 ? ", \"MetricParams\": \"" : "", k, k == levels ? "\"" : ",");
		add(&t, "}%s\n", i < 2 * levels + 1 ? "," : "");
	}
	add(&t, "]\n");
	snprintf(rel, sizeof(rel), "%s/m.json", dir);
	gen_write(rel, t.s, t.n);
	free(t.s);
	return gen_path(dir);
}

static void too_slow(int sig)
{
	static const char msg[] = "test-metric-graph: FAIL: a diamond of MetricParams took more than 20 s "
				  "(evaluated once per path, not once per metric)\n";
	(void)sig;
	if (write(2, msg, sizeof(msg) - 1) < 0)
		_exit(1);
	_exit(1);
}

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

	/* 5. a diamond of 30 and of 60 levels whose bottom is #p of the top's MetricParams (the fuzzer's hang:
	 *    kept values were not reused when a #constant came from a metric above): once per metric */
	if (part(5)) {
		signal(SIGALRM, too_slow);
		alarm(20);
		for (int k = 0; k < 2; k++) {
			char top[160];
			levels = k ? 60 : 30;
			snprintf(top, sizeof(top), "{\"MetricName\": \"qtop\", \"MetricExpr\": \"q%zu\", "
				 "\"MetricParams\": \"p=3\"}", levels);
			dir = table(k ? "pdiamond60" : "pdiamond30", levels + 1, q_name, q_next, top);
			ctx = ctx_for(dir);
			r = check(ctx, dir, &p);
			/* the check wants #p declared where it is used; evaluation takes it from the top */
			CHECK(r == 1 && strstr(p.all.s, "q0: MetricExpr uses constant '#p'"),
			      "params diamond of %zu: %d problems:\n%s", levels, r, p.all.s);
			r = pmu_metric_eval(ctx, "qtop", NULL, 0, &v);
			CHECK(r == 0 && v == ldexp(3, (int)levels), "params diamond of %zu: qtop = %.17g (%s), expected "
			      "3 * 2^%zu", levels, v, r ? pmu_strerror(r) : "", levels);
			/* a threshold-free expression over it, and the context's #p over the default */
			r = pmu_metric_eval(ctx, "qtop + 1", NULL, 0, &v);
			CHECK(r == 0 && v == ldexp(3, (int)levels) + 1, "qtop + 1 = %.17g (%s)", v, r ? pmu_strerror(r) : "");
			CHECK(pmu_ctx_set_param(ctx, "p", 5) == 0, "set #p");
			r = pmu_metric_eval(ctx, "qtop", NULL, 0, &v);
			CHECK(r == 0 && v == ldexp(5, (int)levels), "params diamond of %zu with #p=5: qtop = %.17g (%s)",
			      levels, v, r ? pmu_strerror(r) : "");
			pmu_ctx_free(ctx);
		}
		alarm(0);
	}

	/* 6. a #constant the machine gave is no value to reuse where a metric's MetricParams give it:
	 *    o_a + o_b = o_b + o_a = num_cpus + 1000 */
	if (part(6)) {
		double want = (double)sysconf(_SC_NPROCESSORS_CONF) + 1000;
		dir = table("order", 1, o_name, o_next, order);
		ctx = ctx_for(dir);
		r = pmu_metric_eval(ctx, "o_ab", NULL, 0, &v);
		CHECK(r == 0 && v == want, "o_ab = %g (%s), expected %g", v, r ? pmu_strerror(r) : "", want);
		r = pmu_metric_eval(ctx, "o_ba", NULL, 0, &v);
		CHECK(r == 0 && v == want, "o_ba = %g (%s), expected %g", v, r ? pmu_strerror(r) : "", want);
		pmu_ctx_free(ctx);
	}

	/* 7. values that differ along every path: 8 levels evaluate (8 * 2^7 = 1024, the values kept for one
	 *    set of #constants not reused for another); 20 levels stop at the bound, naming it */
	if (part(7)) {
		signal(SIGALRM, too_slow);
		alarm(20);
		for (int k = 0; k < 2; k++) {
			levels = k ? 20 : 8;
			dir = r_table(k ? "paths20" : "paths8");
			ctx = ctx_for(dir);
			r = pmu_metric_eval(ctx, "rtop", NULL, 0, &v);
			if (!k)
				CHECK(r == 0 && v == 1024, "paths of 8: rtop = %.17g (%s), expected 8 * 2^7", v,
				      r ? pmu_strerror(r) : "");
			else
				CHECK(r == -ELOOP && strstr(pmu_strerror(r), "'rtop'") && strstr(pmu_strerror(r), "65536"),
				      "paths of 20: %d %s", r, r ? pmu_strerror(r) : "");
			pmu_ctx_free(ctx);
		}
		alarm(0);
	}

	free(p.all.s);
	gen_done();
	return test_done("test-metric-graph");
}
