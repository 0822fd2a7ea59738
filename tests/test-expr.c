/* SPDX-License-Identifier: MIT */
/* The MetricExpr parser and evaluator: hand-computed vectors and errors with positions. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "expr.h"
#include "harness.h"

static int lookup(const char *name, int is_const, void *data, double *out)
{
	(void)data;
	static const struct { const char *n; int c; double v; } vars[] = {
		{ "INST_RETIRED.ANY", 0, 1000 }, { "CPU_CLK_UNHALTED.THREAD", 0, 400 }, { "a", 0, 3 }, { "b", 0, 4 },
		{ "zero", 0, 0 }, { "topdown-retiring", 0, 7 }, { "cpu_core@x@", 0, 0 }, { "slots", 1, 4 },
		{ "smt_on", 1, 1 }, { "MEM_LOAD_RETIRED.L3_MISS", 0, 12 },
		/* has_event() (kind 2) and source_count() (kind 3) answers */
		{ "cycles-t", 2, 1 }, { "el-start", 2, 0 }, { "UNC_CHA_CLOCKTICKS", 3, 6 }, { "cpu_core@x@", 2, 1 },
		/* strcmp_cpuid_str() (kind 4) answers, and a name that begins with a digit */
		{ "0x410fd490", 4, 1 }, { "0x410fd493", 4, 0 }, { "4K_Aliasing", 0, 5 },
	};
	for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++)
		if (!strcmp(vars[i].n, name) && vars[i].c == is_const) {
			*out = vars[i].v;
			return 0;
		}
	return -ENOENT;
}

static void val(const char *src, double want)
{
	char err[128];
	double got = -12345;
	const char *bad = NULL;
	struct pmu_expr *e = pmu__expr_parse(src, err, sizeof(err));
	CHECK(e != NULL, "'%s' does not parse: %s", src, err);
	if (!e)
		return;
	CHECK(pmu__expr_eval(e, lookup, NULL, &got, &bad) == 0, "'%s' does not evaluate (%s)", src, bad ? bad : "");
	CHECK((isnan(want) && isnan(got)) || fabs(got - want) < 1e-9, "'%s' = %g, expected %g", src, got, want);
	pmu__expr_free(e);
}

static void bad(const char *src, const char *words)
{
	char err[128];
	struct pmu_expr *e = pmu__expr_parse(src, err, sizeof(err));
	CHECK(e == NULL, "'%s' should not parse", src);
	CHECK(strstr(err, words) != NULL, "'%s': error '%s' lacks '%s'", src, err, words);
	pmu__expr_free(e);
}

static int count_names(const char *name, int is_const, void *data)
{
	(void)name;
	(void)is_const;
	(*(int *)data)++;
	return 0;
}

int main(void)
{
	val("1 + 2 * 3", 7);
	val("(1 + 2) * 3", 9);
	val("10 - 4 - 3", 3);
	val("2e3 / 4", 500);
	val("1.5e-1 * 10", 1.5);
	val(".5 + .25", 0.75);
	val("-a + b", 1);
	val("--a", 3);
	val("7 % 4", 3);
	val("INST_RETIRED.ANY / CPU_CLK_UNHALTED.THREAD", 2.5);
	val("1e3 * MEM_LOAD_RETIRED.L3_MISS / INST_RETIRED.ANY", 12);
	val("topdown\\-retiring * 2", 14);
	val("cpu_core@x@ + 1", 1);
	val("@MEM_LOAD_RETIRED.L3_MISS@ * 2", 24);
	val("#slots * #smt_on", 4);
	val("a / zero", NAN);
	val("d_ratio(a, zero)", 0);
	val("d_ratio(b, 2)", 2);
	val("min(a, b) + max(a, b) * 10", 43);
	val("a if a > b else b", 4);
	val("a if a < b else b", 3);
	val("1 if zero else 2 if a == 3 else 5", 2);
	val("a <= 3 & b >= 4", 1);
	val("a != 3 | zero", 0);
	val("!zero", 1);
	val("a < b < 2", 1); /* (a < b) < 2 */
	/* only the chosen branch is evaluated: an unknown name in the other is fine */
	val("1 if a else UNKNOWN.EVENT", 1);
	/* perf's has_event() and source_count(): the callback answers for the name, not its value */
	val("has_event(cycles\\-t) * 10 + has_event(el\\-start)", 10);
	val("a / source_count(UNC_CHA_CLOCKTICKS) * 4", 2);
	val("has_event(cpu_core@x@)", 1);
	val("(a if has_event(el\\-start) else b) + 0", 4);
	bad("has_event(1)", "expected an event name as the argument of has_event()");
	bad("source_count(a b)", "expected ')' after the event name of source_count()");
	bad("has_event(a", "expected ')'");

	bad("1 +", "position 3");
	bad("(1 + 2", "expected ')'");
	bad("1 2", "after a complete expression");
	bad("a if b", "'if' without 'else'");
	bad("foo(1, 2)", "unknown function 'foo'");
	bad("min(1)", "expected ','");
	bad("#", "constant name");
	bad("@abc", "closing '@'");
	bad("1 + * 2", "unexpected '*'");
	bad("", "ends where a value was expected");
	/* a name may begin with a digit, as in perf's lexer (the longer reading wins) */
	val("4K_Aliasing * 2", 10);
	val("4e1 + 4K_Aliasing", 45);
	/* '^' between '|' and '&', as perf's grammar ranks them */
	val("1 ^ 1", 0);
	val("0 | 1 ^ 1", 0);
	val("1 | 1 ^ 1", 1);
	val("2 ^ zero & zero", 1);
	val("strcmp_cpuid_str(0x410fd490) * 10 + strcmp_cpuid_str(0x410fd493)", 10);
	{
		char deep[2000] = "";
		for (int i = 0; i < 400; i++)
			strcat(deep, "(");
		bad(deep, "nested too deeply");
	}
	{
		/* a flat sum is as tall as it has terms: at most PMU_EXPR_MAX_HEIGHT
		 * (512) of them; 1+1+... of 512 terms is 512 */
		static char sum[2 * 300000];
		char err[160];
		size_t o = 0;
		for (int i = 0; i < 512; i++)
			o += (size_t)sprintf(sum + o, i ? "+1" : "1");
		val(sum, 512);
		strcat(sum, "+1");
		bad(sum, "more than 512 operations chained");
		/* 300,000 terms: refused by length before any tree is built (it used
		 * to overflow the stack when the tree was freed or evaluated) */
		o = 0;
		for (int i = 0; i < 300000; i++)
			o += (size_t)sprintf(sum + o, i ? "+1" : "1");
		{
			struct pmu_expr *e = pmu__expr_parse(sum, err, sizeof(err));
			CHECK(e == NULL && strstr(err, "longer than 131072 characters"), "300,000 terms: %s", err);
			pmu__expr_free(e);
		}
	}
	{
		char err[128];
		double v;
		const char *badname = NULL;
		struct pmu_expr *e = pmu__expr_parse("a + NOPE.X * 2", err, sizeof(err));
		int n = 0;
		CHECK(e && pmu__expr_eval(e, lookup, NULL, &v, &badname) == -ENOENT && badname &&
		      !strcmp(badname, "NOPE.X"), "unknown name reported");
		pmu__expr_names(e, count_names, &n);
		CHECK(n == 2, "two names, got %d", n);
		pmu__expr_free(e);
	}
	{
		/* the names a metric counts: only the branch a has_event() condition takes */
		char err[128];
		int n = 0;
		struct pmu_expr *e = pmu__expr_parse("(x / y if has_event(cycles\\-t) else z) + w", err, sizeof(err));
		CHECK(e != NULL, "parse: %s", err);
		pmu__expr_names_live(e, count_names, &n, lookup, NULL);
		CHECK(n == 3, "x, y and w (cycles-t is there), got %d", n);
		n = 0;
		pmu__expr_names(e, count_names, &n);
		CHECK(n == 5, "without folding: x, y, cycles-t, z, w; got %d", n);
		pmu__expr_free(e);
	}
	return test_done("test-expr");
}
