/* SPDX-License-Identifier: MIT */
/* Event tables, Intel's perfmon metric files ({"Header": ..., "Metrics": [...]}, e.g.
 * ICX/metrics/icelakex_metrics.json): each metric converted, on loading, into perf's form (an
 * object with MetricName and MetricExpr), its Events, Constants and ThresholdMetrics aliases
 * replaced. events/README.md says what maps to what. */
#include <ctype.h>
#include <json-c/json.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "pmu.h"
#include "common.h"
#include "tables.h"
#include "util.h"

/* A field as text (util.c's rule: strings as they are, numbers printed), NULL if absent. */
static const char *field(json_object *o, const char *key)
{
	return pmu__json_field(o, key);
}

/* A problem with metric @name: @what, with @bad in place of %s. */
static void pm_problem(pmu_problem_fn pf, void *pd, int *problems, const char *file, const char *name, const char *what,
		       const char *bad)
{
	char msg[PMU_NAME_MAX + 160];

	snprintf(msg, sizeof(msg), what, bad);
	(*problems)++;
	if (pf)
		pf(pd, file, name, msg);
}

/* An alias of a perfmon metric (Events, Constants, ThresholdMetrics). */
struct pm_alias {
	const char *alias;
	char text[PMU_NAME_MAX + 64];
};

/*
 * perfmon's constants (the Names of a metric's "Constants" in Intel's files) as the metric engine's
 * #constants and values: the machine's topology, the run's duration (perf's duration_time is in
 * seconds), and a Name that is a number (Intel writes "20" for a weight) that number. Others become
 * #name (-D NAME=value sets them).
 */
static void pm_constant(const char *name, char *out, size_t len)
{
	static const struct { const char *name, *expr; } known[] = {
		{ "SOCKET_COUNT", "#num_packages" },
		{ "CORES_PER_SOCKET", "(#num_cores / #num_packages)" },
		{ "THREADS_PER_CORE", "(#smt_on + 1)" },
		{ "HYPERTHREADING_ON", "#smt_on" },
		{ "SYSTEM_TSC_FREQ", "#system_tsc_freq" },
		{ "TSC", "#system_tsc_freq" },
		{ "CHAS_PER_SOCKET", "#chas_per_socket" },
		{ "DURATIONTIMEINMILLISECONDS", "(duration_time * 1000)" },
		{ "DURATIONTIMEINSECONDS", "duration_time" },
		/* the CPUs of socket 0 times the sockets: the machine's CPUs */
		{ "system.sockets[0].cpus.count * system.socket_count", "#num_cpus_online" },
	};
	size_t o;
	char *end;

	for (size_t i = 0; i < ARRAY_SIZE(known); i++)
		if (!strcmp(name, known[i].name)) {
			snprintf(out, len, "%s", known[i].expr);
			return;
		}
	if (*name && (isdigit((unsigned char)*name) || *name == '.') && (strtod(name, &end), !*end)) {
		snprintf(out, len, "(%s)", name);
		return;
	}
	o = (size_t)snprintf(out, len, "#");
	for (const char *c = name; *c && o + 1 < len; c++)
		out[o++] = (char)(isalnum((unsigned char)*c) ? tolower((unsigned char)*c) : '_');
	out[o] = 0;
}

/* An event name as a metric expression name: characters other than letters,
 * digits, '_', '.', ':' are escaped with '\'. Intel's PERF_METRICS.* (the topdown
 * fractions of the PERF_METRICS MSR) are the kernel's topdown events, as Intel's
 * own converter to perf's files (scripts/create_perf_json.py) writes them. */
static void pm_event(const char *name, char *out, size_t len)
{
	static const struct { const char *perfmon, *kernel; } topdown[] = {
		{ "PERF_METRICS.RETIRING", "topdown-retiring" }, { "PERF_METRICS.BAD_SPECULATION", "topdown-bad-spec" },
		{ "PERF_METRICS.FRONTEND_BOUND", "topdown-fe-bound" }, { "PERF_METRICS.BACKEND_BOUND", "topdown-be-bound" },
		{ "PERF_METRICS.HEAVY_OPERATIONS", "topdown-heavy-ops" },
		{ "PERF_METRICS.BRANCH_MISPREDICTS", "topdown-br-mispredict" },
		{ "PERF_METRICS.FETCH_LATENCY", "topdown-fetch-lat" }, { "PERF_METRICS.MEMORY_BOUND", "topdown-mem-bound" },
	};
	size_t o = 0;

	for (size_t i = 0; i < ARRAY_SIZE(topdown); i++)
		if (!strcmp(name, topdown[i].perfmon))
			name = topdown[i].kernel;

	for (const char *c = name; *c && o + 2 < len; c++) {
		if (!isalnum((unsigned char)*c) && !strchr("_.:", *c))
			out[o++] = '\\';
		out[o++] = *c;
	}
	out[o] = 0;
}

/* Formula with every alias replaced; NULL if an identifier is neither an alias nor known. */
static char *pm_formula(const char *f, const struct pm_alias *a, size_t n, char *bad, size_t badlen)
{
	size_t cap = strlen(f) * 4 + 64, o = 0;
	char *out = malloc(cap);

	if (!out)
		return NULL;
	while (*f) {
		const char *s = f;
		char word[PMU_NAME_MAX];
		const char *rep = NULL;
		size_t l;
		if (isdigit((unsigned char)*f) || (*f == '.' && isdigit((unsigned char)f[1]))) {
			while (isalnum((unsigned char)*f) || *f == '.' ||
			       ((*f == '-' || *f == '+') && (f[-1] == 'e' || f[-1] == 'E') && !(f[-2] == '0' && f[-1] == 'x')))
				f++;
		} else if (isalpha((unsigned char)*f) || *f == '_') {
			while (isalnum((unsigned char)*f) || *f == '_')
				f++;
			l = (size_t)(f - s);
			if (l >= sizeof(word))
				l = sizeof(word) - 1;
			memcpy(word, s, l);
			word[l] = 0;
			for (size_t i = 0; i < n && !rep; i++)
				if (!strcmp(a[i].alias, word))
					rep = a[i].text;
			if (!rep && !strcmp(word, "DURATIONTIMEINSECONDS"))
				rep = "duration_time";
			if (!rep && strcmp(word, "if") && strcmp(word, "else") && strcmp(word, "max") && strcmp(word, "min") &&
			    strcmp(word, "d_ratio")) {
				snprintf(bad, badlen, "%s", word);
				free(out);
				return NULL;
			}
		} else if (strchr("<>=!", *f) && f[1] == ' ') {
			/* Intel writes "q > = 0": one operator */
			const char *nx = f + 1;
			while (*nx == ' ')
				nx++;
			if (*nx == '=') {
				rep = *f == '<' ? "<=" : *f == '>' ? ">=" : *f == '=' ? "==" : "!=";
				f = nx + 1;
			} else {
				f++;
			}
		} else {
			f++;
		}
		if (!rep)
			rep = s, l = (size_t)(f - s);
		else
			l = strlen(rep);
		if (o + l + 1 > cap) {
			char *nb = realloc(out, cap = (o + l) * 2 + 64);
			if (!nb) {
				free(out);
				return NULL;
			}
			out = nb;
		}
		memcpy(out + o, rep, l);
		o += l;
	}
	out[o] = 0;
	return out;
}

/* The number of entries of an Events/Constants/ThresholdMetrics array (0 if it is none). */
static size_t pm_count(json_object *arr)
{
	return arr && json_object_is_type(arr, json_type_array) ? json_object_array_length(arr) : 0;
}

static size_t pm_aliases(json_object *arr, struct pm_alias *a, size_t max, bool constants)
{
	size_t n = 0;

	for (size_t i = 0; arr && json_object_is_type(arr, json_type_array) && i < json_object_array_length(arr) &&
			   n < max; i++) {
		json_object *o = json_object_array_get_idx(arr, i);
		const char *al = field(o, "Alias"), *nm = field(o, "Name");
		if (!al || !nm)
			continue;
		a[n].alias = al;
		if (constants)
			pm_constant(nm, a[n].text, sizeof(a[n].text));
		else
			pm_event(nm, a[n].text, sizeof(a[n].text));
		n++;
	}
	return n;
}

/*
 * Intel perfmon metric files ({"Header": {...}, "Metrics": [...]}) become
 * perf-style metric objects: MetricName; Formula with its Events aliases
 * replaced by the event names (Intel's modifiers such as :c1 resolve too)
 * and its Constants aliases by #constants; Threshold.Formula with its
 * aliases replaced by the metric names their LegacyName values stand for;
 * UnitOfMeasure "percent" as ScaleUnit "1%" (the formulas already multiply
 * by 100); MetricGroup, else Category. A metric that cannot be converted is
 * a problem naming the reason.
 */
/* A perfmon metric's LegacyName and MetricName, in the file's order (the first of a LegacyName wins). */
struct pm_legacy {
	const char *legacy, *name;
	size_t order;
};

static int cmp_legacy(const void *a, const void *b)
{
	const struct pm_legacy *x = a, *y = b;
	int c = strcmp(x->legacy, y->legacy);

	return c ? c : x->order < y->order ? -1 : x->order > y->order;
}

/* The MetricName of the first metric whose LegacyName is @legacy, in @v sorted by cmp_legacy; NULL if none. */
static const char *pm_by_legacy(const struct pm_legacy *v, size_t n, const char *legacy)
{
	size_t lo = 0, hi = n;

	while (lo < hi) { /* the first element not below @legacy */
		size_t mid = lo + (hi - lo) / 2;
		if (strcmp(v[mid].legacy, legacy) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && !strcmp(v[lo].legacy, legacy) ? v[lo].name : NULL;
}

json_object *pmu__tables_perfmon_metrics(json_object *metrics, const char *file, pmu_problem_fn pf, void *pd,
					  int *problems)
{
	json_object *out = json_object_new_array();
	size_t n = json_object_array_length(metrics), nl = 0;
	struct pm_legacy *legacy = malloc((n ? n : 1) * sizeof(*legacy));

	if (!legacy) {
		json_object_put(out);
		return NULL;
	}
	for (size_t j = 0; j < n; j++) {
		json_object *other = json_object_array_get_idx(metrics, j);
		const char *ln = field(other, "LegacyName"), *mn = field(other, "MetricName");
		if (ln && mn)
			legacy[nl++] = (struct pm_legacy){ ln, mn, j };
	}
	qsort(legacy, nl, sizeof(*legacy), cmp_legacy);
	for (size_t i = 0; out && i < n; i++) {
		json_object *m = json_object_array_get_idx(metrics, i), *o, *ev = NULL, *co = NULL, *th = NULL, *tm = NULL;
		struct pm_alias *a = NULL, *ta = NULL;  /* as many as the metric has (Intel's reach 104) */
		size_t na, nt = 0, cap, tcap;
		const char *name = field(m, "MetricName"), *formula = field(m, "Formula"), *unit = field(m, "UnitOfMeasure");
		const char *group = field(m, "MetricGroup"), *tf = NULL;
		char bad[PMU_NAME_MAX] = "", *expr, *thr = NULL;

		if (!json_object_is_type(m, json_type_object) || !name || !formula) {
			pm_problem(pf, pd, problems, file, name, "perfmon metric without MetricName or Formula%s", "");
			continue;
		}
		json_object_object_get_ex(m, "Events", &ev);
		json_object_object_get_ex(m, "Constants", &co);
		cap = pm_count(ev) + pm_count(co);
		if (!(a = malloc((cap ? cap : 1) * sizeof(*a)))) {
			json_object_put(out);
			out = NULL;
			break;
		}
		na = pm_aliases(ev, a, cap, false);
		na += pm_aliases(co, a + na, cap - na, true);
		expr = pm_formula(formula, a, na, bad, sizeof(bad));
		free(a);
		if (!expr && !bad[0]) {
			json_object_put(out);
			out = NULL;
			break;
		}
		if (!expr) {
			pm_problem(pf, pd, problems, file, name,
				   "Formula uses '%s', which is neither an alias of its Events or Constants nor a function",
				   bad);
			continue;
		}
		if (json_object_object_get_ex(m, "Threshold", &th) && json_object_object_get_ex(th, "ThresholdMetrics", &tm) &&
		    json_object_is_type(tm, json_type_array) && (tf = field(th, "Formula")) && *tf &&
		    (ta = malloc(((tcap = pm_count(tm)) ? tcap : 1) * sizeof(*ta)))) {
			/* each alias names a metric by its LegacyName */
			for (size_t k = 0; k < json_object_array_length(tm) && nt < tcap; k++) {
				json_object *t = json_object_array_get_idx(tm, k);
				const char *al = field(t, "Alias"), *lv = field(t, "Value"), *mn;
				if (al && lv && (mn = pm_by_legacy(legacy, nl, lv))) {
					ta[nt].alias = al;
					pm_event(mn, ta[nt++].text, sizeof(ta[0].text));
				}
			}
			bad[0] = 0;
			thr = pm_formula(tf, ta, nt, bad, sizeof(bad));
			free(ta);
			if (!thr && !bad[0]) { /* out of memory */
				free(expr);
				json_object_put(out);
				out = NULL;
				break;
			}
			if (!thr)
				pm_problem(pf, pd, problems, file, name,
					   "Threshold uses '%s', which names no metric of this file (by LegacyName); the "
					   "threshold is left out", bad);
		}
		o = json_object_new_object();
		if (o) {
			json_object_object_add(o, "MetricName", json_object_new_string(name));
			json_object_object_add(o, "MetricExpr", json_object_new_string(expr));
			if (field(m, "BriefDescription"))
				json_object_object_add(o, "BriefDescription",
						       json_object_new_string(field(m, "BriefDescription")));
			if ((group && *group) || field(m, "Category"))
				json_object_object_add(o, "MetricGroup",
						       json_object_new_string(group && *group ? group : field(m, "Category")));
			if (unit && *unit) {
				char su[96];
				snprintf(su, sizeof(su), "1%s", !strcmp(unit, "percent") ? "%" : unit);
				json_object_object_add(o, "ScaleUnit", json_object_new_string(su));
			}
			if (thr)
				json_object_object_add(o, "MetricThreshold", json_object_new_string(thr));
			json_object_array_add(out, o);
		}
		free(expr);
		free(thr);
	}
	free(legacy);
	return out;
}
