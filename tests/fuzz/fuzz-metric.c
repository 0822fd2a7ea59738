/* SPDX-License-Identifier: MIT */
/* Fuzz target: the metrics of a table evaluated over counts. The input is a table file, then a
 * line "====", then lines of counts and settings:
 *   NAME=VALUE    the count of event NAME (strtod: nan, inf and -1e308 too)
 *   #NAME=VALUE   a #constant (pmu_ctx_set_param)
 *   ?EXPR         an expression to evaluate as well (it may name the table's metrics)
 *   only          events without a count line stay uncounted (else they get made-up counts)
 *   hybrid        the Alder Lake hybrid fixture (else the Ice Lake server one)
 * The table becomes the context's tables (pmu__tables_fuzz_load). Each of its first 32 metrics
 * ("PMU/NAME/" where it has a Unit) is listed with pmu_metric_events(), evaluated twice with
 * pmu_metric_eval() over the counts, which must give the same result (NaN equals NaN), and its
 * threshold is evaluated. A metric whose expression is NAME op NAME (op + - * /) over two counted
 * events must equal what this file computes from their counts (division by 0: NaN, as
 * lib/expr.h says). Leaks: ASan in libFuzzer runs, valgrind on the replay test; hangs:
 * libFuzzer's -timeout (run.sh: 10 s an input). */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "context.h"
#include "error.h"
#include "tables.h"
#include "machines.h"
#include "trace.h"

#define MAX_METRICS 32
#define MAX_VALS 128
#define MAX_EXPRS 8

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct input {
	struct pmu_named_value vals[MAX_VALS];
	size_t nvals;   /* the counts the input gives */
	const char *exprs[MAX_EXPRS];
	size_t nexprs;
	bool only, hybrid;
};

static bool same(double a, double b)
{
	return (isnan(a) && isnan(b)) || a == b;
}

/* A made-up count for an event the input gives none: from the name, 0 for one name in 8. */
static double made_up(const char *name)
{
	uint32_t h = 2166136261u;

	for (const char *p = name; *p; p++)
		h = (h ^ (unsigned char)tolower((unsigned char)*p)) * 16777619u;
	return h % 8 == 0 ? 0 : (double)(h % 1000003);
}

/* The first value named @name (case-insensitive), as pmu_metric_eval() looks values up. */
static const double *value_of(const struct pmu_named_value *v, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcasecmp(v[i].name, name))
			return &v[i].value;
	return NULL;
}

/* A plain name of the expression language (no escapes, '@' or ':'). */
static const char *ident(const char *p, char *out, size_t len)
{
	size_t n = 0;

	if (!isalpha((unsigned char)*p) && *p != '_')
		return NULL;
	while (isalnum((unsigned char)p[n]) || p[n] == '_' || p[n] == '.')
		n++;
	if (n >= len)
		return NULL;
	memcpy(out, p, n);
	out[n] = 0;
	return !strcmp(out, "if") || !strcmp(out, "else") ? NULL : p + n;
}

/* Whether @expr is "A op B" for plain names A and B: *op one of + - * /. */
static bool binary_shape(const char *expr, char *a, char *b, size_t len, char *op)
{
	const char *p = expr;

	while (isspace((unsigned char)*p))
		p++;
	if (!(p = ident(p, a, len)))
		return false;
	while (isspace((unsigned char)*p))
		p++;
	if (!*p || !strchr("+-*/", *p))
		return false;
	*op = *p++;
	while (isspace((unsigned char)*p))
		p++;
	if (!(p = ident(p, b, len)))
		return false;
	while (isspace((unsigned char)*p))
		p++;
	return !*p;
}

static void fail(const char *what, const char *metric, int r1, double v1, int r2, double v2)
{
	fprintf(stderr, "fuzz-metric: %s: %s: %d %.17g, then %d %.17g\n", metric, what, r1, v1, r2, v2);
	abort();
}

/* Evaluate @what (a metric's spelling, or an expression) twice over @v; the first result in *out. */
static int eval_twice(struct pmu_ctx *ctx, const char *what, const struct pmu_named_value *v, size_t n,
		      double *out)
{
	double v1 = 0, v2 = 0;
	int r1 = pmu_metric_eval(ctx, what, v, n, &v1), r2;

	fuzz_trace("eval %s: %d %.17g %s\n", what, r1, r1 == 0 ? v1 : 0.0, r1 < 0 ? pmu__err_msg() : "");
	r2 = pmu_metric_eval(ctx, what, v, n, &v2);
	if (r1 != r2 || (r1 == 0 && !same(v1, v2)))
		fail("evaluated twice, two results", what, r1, v1, r2, v2);
	*out = v1;
	return r1;
}

/* Add made-up counts for the events @what needs (a metric or an expression) to @v. */
static size_t add_events(struct pmu_ctx *ctx, const char *what, char *list, size_t len, struct pmu_named_value *v,
			 size_t n)
{
	int r = pmu_metric_events(ctx, what, list, len);

	fuzz_trace("events %s: %d %s\n", what, r, r < 0 ? pmu__err_msg() : list);
	if (r < 0)
		return n;
	for (char *p = list, *e; *p && n < MAX_VALS; p = e) {
		e = strchr(p, ',');
		if (e)
			*e++ = 0;
		else
			e = p + strlen(p);
		if (*p && !value_of(v, n, p)) {
			v[n].name = p;
			v[n++].value = made_up(p);
		}
	}
	return n;
}

/* The values of one evaluation: the input's counts, then (unless "only") made-up counts for the
 * events @what needs, and @threshold needs (a table metric's MetricThreshold, or NULL). */
static size_t values_for(struct pmu_ctx *ctx, const struct input *in, const char *what, const char *threshold,
			 char *list, size_t len, struct pmu_named_value *v)
{
	size_t n = in->nvals, half = len / 2;

	memcpy(v, in->vals, n * sizeof(*v));
	if (in->only)
		return n;
	n = add_events(ctx, what, list, half, v, n);
	return threshold ? add_events(ctx, threshold, list + half, len - half, v, n) : n;
}

static void check_metric(struct pmu_ctx *ctx, const struct input *in, const struct pmu_tentry *m)
{
	static struct pmu_named_value v[MAX_VALS];
	static char list[8192];
	char what[PMU_NAME_MAX + 80], a[PMU_NAME_MAX], b[PMU_NAME_MAX], op = 0;
	struct pmu_metric_info mi;
	double got = 0;
	size_t n;
	int r, crossed;

	if ((size_t)snprintf(what, sizeof(what), m->unit ? "%s/%s/" : "%s%s", m->unit ? m->unit : "", m->name) >=
	    sizeof(what))
		return;
	n = values_for(ctx, in, what, m->threshold, list, sizeof(list), v);
	r = eval_twice(ctx, what, v, n, &got);
	if (pmu_metric_threshold(ctx, what, v, n, &crossed) == 0)
		fuzz_trace("threshold %s: %d\n", what, crossed);
	if (m->unit) { /* the bare name too: the definition whose values were given, if one fits */
		double bare;
		eval_twice(ctx, m->name, v, n, &bare);
	}
	/* the oracle: NAME op NAME over counted events, when @what names this metric */
	if (m->unit || !m->expr || !binary_shape(m->expr, a, b, sizeof(a), &op) ||
	    pmu_metric_info(ctx, what, &mi) < 0 || mi.expr != m->expr)
		return;
	{
		const double *x = value_of(v, n, a), *y = value_of(v, n, b);
		double want;
		if (!x || !y)
			return;
		want = op == '+' ? *x + *y : op == '-' ? *x - *y : op == '*' ? *x * *y : *y == 0 ? NAN : *x / *y;
		if (r != 0 || !same(got, want)) {
			char how[PMU_NAME_MAX * 2 + 96];
			snprintf(how, sizeof(how), "'%s' over %s=%.17g, %s=%.17g: result, then the oracle", m->expr, a, *x,
				 b, *y);
			fail(how, what, r, got, 0, want);
		}
		fuzz_trace("oracle %s: %.17g\n", what, want);
	}
}

/* Reads the lines after "====". */
static void read_counts(char *p, struct input *in, struct pmu_ctx *ctx)
{
	for (char *e; p && *p; p = e) {
		char *eq;
		e = strchr(p, '\n');
		if (e)
			*e++ = 0;
		if (!strcmp(p, "only")) {
			in->only = true;
		} else if (!strcmp(p, "hybrid")) {
			in->hybrid = true;
		} else if (*p == '?') {
			if (in->nexprs < MAX_EXPRS)
				in->exprs[in->nexprs++] = p + 1;
		} else if ((eq = strchr(p, '='))) {
			*eq = 0;
			if (*p == '#' && ctx)
				pmu_ctx_set_param(ctx, p + 1, strtod(eq + 1, NULL));
			else if (*p != '#' && in->nvals < MAX_VALS / 2) {
				in->vals[in->nvals].name = p;
				in->vals[in->nvals++].value = strtod(eq + 1, NULL);
			}
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct pmu_ctx *ctxs[2];
	static struct input in;
	struct pmu_ctx *ctx;
	char *text, *counts;
	size_t tlen, done = 0;
	int problems;

	if (!ctxs[0])
		fuzz_machines(ctxs);
	if (size > 65536 || !(text = malloc(size + 1)))
		return 0;
	memcpy(text, data, size);
	text[size] = 0;
	counts = strstr(text, "\n====\n");
	tlen = counts ? (size_t)(counts - text) : size;
	if (counts) {
		*counts = 0;
		counts += 6;
	}
	/* the settings first (which machine), then the #constants on that machine's context */
	memset(&in, 0, sizeof(in));
	if (counts) {
		char *copy = strdup(counts);
		if (copy) {
			read_counts(copy, &in, NULL);
			free(copy);
		}
	}
	ctx = ctxs[in.hybrid];
	ctx->nparams = 0; /* the #constants of the input before: an input sets its own */
	memset(&in, 0, sizeof(in));
	read_counts(counts, &in, ctx);
	problems = pmu__tables_fuzz_load(ctx, text, tlen);
	fuzz_trace("machine %d, table: %d problems, %zu entries, %zu counts\n", in.hybrid, problems, ctx->tables.n,
		   in.nvals);
	for (size_t i = 0; problems >= 0 && i < ctx->tables.n && done < MAX_METRICS; i++)
		if (pmu__tables_entry(&ctx->tables, i)->kind == PMU_T_METRIC) {
			check_metric(ctx, &in, pmu__tables_entry(&ctx->tables, i));
			done++;
		}
	for (size_t i = 0; problems >= 0 && i < in.nexprs; i++) {
		static struct pmu_named_value v[MAX_VALS];
		static char list[4096];
		double got;
		size_t n = values_for(ctx, &in, in.exprs[i], NULL, list, sizeof(list), v);
		eval_twice(ctx, in.exprs[i], v, n, &got);
	}
	free(text);
	return 0;
}
