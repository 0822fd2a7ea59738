/* SPDX-License-Identifier: MIT */
/* Metrics and topdown over counted rows (analysis.h says what each is for). */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "analysis.h"
#include "namelist.h"

int params_add(struct metric_params *p, const char *arg)
{
	const char *eq = strchr(arg, '=');
	char *end;
	if (!eq || eq == arg || (strtod(eq + 1, &end), end == eq + 1 || *end)) {
		fprintf(stderr, "pmu: --param wants NAME=NUMBER (a metric parameter such as a=2), not '%s'\n", arg);
		return -1;
	}
	if (p->n == METRIC_PARAMS_MAX) {
		fprintf(stderr, "pmu: at most %d --param parameters\n", METRIC_PARAMS_MAX);
		return -1;
	}
	p->v[p->n++] = arg;
	return 0;
}

int params_apply(const struct metric_params *p, struct pmu_ctx *ctx)
{
	for (int i = 0; i < p->n; i++) {
		const char *eq = strchr(p->v[i], '=');
		char *name = strndup(p->v[i], (size_t)(eq - p->v[i]));
		int r = name ? pmu_ctx_set_param(ctx, name, strtod(eq + 1, NULL)) : -ENOMEM;
		free(name);
		if (r < 0) {
			fprintf(stderr, "pmu: --param %s: %s\n", p->v[i], pmu_strerror(r));
			return -1;
		}
	}
	return 0;
}

static int constant_add(const struct pmu_constant_info *c, void *data)
{
	/* a constant the machine cannot tell (NaN) is left out: JSON has no NaN */
	if (isfinite(c->value))
		json_object_object_add(data, c->name, json_object_new_double(c->value));
	return 0;
}

int constants_record(struct pmu_ctx *ctx, json_object *doc)
{
	json_object *o = json_object_new_object();
	int r;

	if (!o)
		return -ENOMEM;
	if ((r = pmu_constant_foreach(ctx, constant_add, o)) < 0) {
		json_object_put(o);
		return r;
	}
	json_object_object_add(doc, "constants", o);
	return 0;
}

int constants_apply(json_object *constants, struct pmu_ctx *ctx)
{
	if (!constants)
		return 0;
	json_object_object_foreach(constants, name, v) {
		int r = pmu_ctx_set_param(ctx, name, json_object_get_double(v));
		if (r < 0) {
			fprintf(stderr, "pmu: the file's constant #%s: %s\n", name, pmu_strerror(r));
			return -1;
		}
	}
	return 0;
}

int analysis_opt(struct analysis_opts *a, const char *cmd, int id, const char *arg)
{
	switch (id) {
	case 'M':
		if (strv_add_metrics(&a->metrics, arg) == 0)
			return 0;
		fprintf(stderr, "pmu %s: out of memory\n", cmd);
		return -1;
	case OPT_TOPDOWN:
		if (!a->topdown) /* --td-level's, else every level */
			a->topdown = TOPDOWN_COUNTED;
		return 0;
	case OPT_TD_LEVEL: {
		int level;
		if (opts_int(arg, 0, 2, &level) < 0) {
			fprintf(stderr, "pmu %s: --td-level wants a level of the topdown tree: 1, 2 or 0 (every level "
				"counted), not '%s'\n", cmd, arg);
			return -1;
		}
		a->topdown = level ? level : TOPDOWN_COUNTED;
		return 0;
	}
	case OPT_PARAM:
		return params_add(&a->params, arg);
	default:
		return 1;
	}
}

int analysis_old_param(const char *cmd, const char *arg)
{
	fprintf(stderr, "pmu %s: -D %s: metric parameters are set with --param %s now (-D is perf's --delay MS "
		"in pmu stat)\n", cmd, arg, arg);
	return -1;
}

void analysis_opts_free(struct analysis_opts *a)
{
	strv_free(&a->metrics);
}

/* The rows as named values for the metric engine (@nv has room for n + 1: duration_time). Tool
 * events are counted in ns and used by metrics in seconds, as perf's metrics expect them
 * (Intel's DURATIONTIMEINMILLISECONDS is duration_time * 1000); without a duration_time row
 * the command's elapsed seconds stand for it. @ev (NULL: not wanted, else zeroed, room for n + 1)
 * gets each value's event where the rows are what this run counted. @pmu: only that PMU's rows
 * (and no duration_time added); NULL: all. */
static size_t named_rows(const struct counted *c, struct pmu_named_value *nv, struct pmu_event_info *ev,
			 const char *pmu)
{
	const struct stat_row *rows = c->rows;
	bool have_duration = false;
	size_t k = 0;
	for (size_t i = 0; i < c->n; i++) {
		if (!rows[i].supported || rows[i].not_summed || (rows[i].v.enabled && !rows[i].v.running) ||
		    (pmu && strcmp(rows[i].info.pmu, pmu)))
			continue;
		nv[k].name = rows[i].info.name;
		nv[k].value = (double)pmu_scale(&rows[i].v);
		if (ev && c->counted)
			ev[k] = rows[i].info; /* else pmu "": matched by name */
		if (rows[i].info.flags & PMU_EVF_TOOL) {
			nv[k].value /= 1e9;
			have_duration |= !strcmp(rows[i].info.name, "duration_time");
		}
		k++;
	}
	if (c->seconds > 0 && !have_duration && !pmu) {
		nv[k].name = "duration_time";
		nv[k++].value = c->seconds;
	}
	return k;
}

/* Why a metric has no value although it was computed: JSON has no NaN or Infinity, and neither means a number. */
static const char *not_finite(double v)
{
	return isnan(v) ? "not a number (a division by zero, or 0/0)" : "infinite (beyond the range of a double)";
}

static char no_memory[] = "out of memory";

/* The value of metric @m over @nv (@k values) into @out. */
static void metric_eval(struct pmu_ctx *ctx, const char *m, const struct pmu_named_value *nv,
			const struct pmu_event_info *ev, size_t k, struct metric_value *out)
{
	struct pmu_metric_info mi;
	const char *why = NULL;
	double v, factor = 1;
	int r, has_info = pmu_metric_info(ctx, m, &mi) == 0;

	memset(out, 0, sizeof(*out));
	out->name = m;
	out->unit = "";
	if (has_info)
		factor = pmu__scale_unit(mi.scale_unit, &out->unit);
	r = pmu_metric_eval_events(ctx, m, nv, ev, k, &v);
	if (r < 0)
		why = pmu_strerror(r);
	else if (!isfinite(v * factor))
		why = not_finite(v * factor);
	if (!why && has_info && mi.threshold[0] && pmu_metric_threshold_events(ctx, m, nv, ev, k, &out->crossed) < 0)
		out->crossed = 0;
	out->value = why ? NAN : v * factor;
	if (why && !(out->why = strdup(why)))
		out->why = no_memory;
}

int metrics_eval(struct pmu_ctx *ctx, const struct strv *ms, const struct counted *c, struct metric_value *out)
{
	struct pmu_named_value *nv = calloc(c->n + 1, sizeof(*nv));
	struct pmu_event_info *ev = calloc(c->n + 1, sizeof(*ev)); /* zeroed: pmu "" for every value */
	size_t k;
	int bad = 0;

	if (!nv || !ev) {
		free(nv);
		free(ev);
		return -ENOMEM;
	}
	k = named_rows(c, nv, ev, NULL);
	for (size_t i = 0; i < ms->n; i++) {
		metric_eval(ctx, ms->v[i], nv, ev, k, &out[i]);
		bad += out[i].why != NULL;
	}
	free(nv);
	free(ev);
	return bad;
}

void metric_values_free(struct metric_value *v, size_t n)
{
	for (size_t i = 0; v && i < n; i++)
		if (v[i].why != no_memory)
			free(v[i].why);
	free(v);
}

json_object *metric_json(const struct metric_value *m)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "name", json_object_new_string(m->name));
	json_object_object_add(o, "value", m->why ? NULL : jnum(m->value));
	json_object_object_add(o, "unit", json_object_new_string(m->unit));
	json_object_object_add(o, "threshold_crossed", json_object_new_boolean(m->crossed));
	if (m->why)
		json_object_object_add(o, "error", json_object_new_string(m->why));
	return o;
}

/* Evaluate metrics @ms; print them (text) or add them to @arr. 1 if one has no value. */
static int report_metrics(FILE *f, struct pmu_ctx *ctx, const struct strv *ms, const struct counted *c,
			  json_object *arr)
{
	struct metric_value *mv = calloc(ms->n + 1, sizeof(*mv));
	int bad = mv ? metrics_eval(ctx, ms, c, mv) : -ENOMEM;

	if (bad < 0) {
		free(mv);
		return -1;
	}
	int w = 40; /* the names' column: as wide as the longest ("armv8_cortex_a76/NAME/") */

	for (size_t i = 0; i < ms->n; i++)
		if ((int)strlen(mv[i].name) > w)
			w = (int)strlen(mv[i].name);
	if (!arr && ms->n)
		fprintf(f, " Metrics:\n");
	for (size_t i = 0; i < ms->n; i++) {
		const struct metric_value *m = &mv[i];
		if (arr)
			json_object_array_add(arr, metric_json(m));
		else if (m->why)
			fprintf(f, "   %-*s  n/a: %s\n", w, m->name, m->why);
		else
			fprintf(f, "   %-*s %14.3f %-10s%s\n", w, m->name, m->value, m->unit,
				m->crossed ? "  <== over threshold" : "");
	}
	if (!arr && ms->n)
		fprintf(f, "\n");
	metric_values_free(mv, ms->n);
	return bad != 0;
}

static void bar(FILE *f, double frac, int width)
{
	static const char *const part[] = { "", "\u258f", "\u258e", "\u258d", "\u258c", "\u258b", "\u258a", "\u2589" };
	int eighths = (int)(frac * width * 8 + 0.5);
	if (isnan(frac) || frac < 0)
		eighths = 0;
	if (eighths > width * 8)
		eighths = width * 8;
	for (int i = 0; i < eighths / 8; i++)
		fputs("\u2588", f);
	fputs(part[eighths % 8], f);
}

/* A node of the tree at level @depth, printed down to level @max */
static void topdown_line(FILE *f, int max, int depth, const char *name, double v, const char *mark)
{
	if (isnan(v) || depth > max)
		return;
	fprintf(f, "   %*s%-*s %6.1f%%  ", 2 * depth, "", 22 - 2 * depth, name, v * 100);
	bar(f, v, 40);
	fprintf(f, "%s\n", mark);
}

/* @pmu: the core type the tree is of, on a hybrid CPU (NULL elsewhere); @depth: the deepest level printed */
static void print_topdown(FILE *f, const struct pmu_topdown *t, const char *pmu, int depth)
{
	const char *names[4] = { "Retiring", "Bad speculation", "Frontend bound", "Backend bound" };
	double l1[4] = { t->retiring, t->bad_spec, t->fe_bound, t->be_bound };
	/* level 2's parts as counted: Intel's names, or AMD's where its method gave them */
	bool amd = t->flags & PMU_TOPDOWN_AMD;
	int worst = 1;
	/* the bottleneck: the largest of the three non-retiring categories */
	for (int i = 2; i < 4; i++)
		if (l1[i] > l1[worst])
			worst = i;
	fprintf(f, " Topdown%s%s, level %d", pmu ? " of " : "", pmu ? pmu : "", depth < t->level ? depth : t->level);
	if (depth < t->level)
		fprintf(f, " of the %d counted", t->level);
	fprintf(f, " (%llu slots%s):\n", (unsigned long long)t->slots,
		(t->flags & PMU_TOPDOWN_RESET) ? ", since a counter reset" : "");
	topdown_line(f, depth, 1, names[0], t->retiring, "");
	topdown_line(f, depth, 2, amd ? "Fast-path ops" : "Light operations", t->light_ops, "");
	topdown_line(f, depth, 2, amd ? "Microcode ops" : "Heavy operations", t->heavy_ops, "");
	topdown_line(f, depth, 1, names[1], t->bad_spec, worst == 1 ? "  <== bottleneck" : "");
	topdown_line(f, depth, 2, "Branch mispredicts", t->br_mispredict, "");
	topdown_line(f, depth, 2, amd ? "Pipeline restarts" : "Machine clears", t->machine_clears, "");
	topdown_line(f, depth, 1, names[2], t->fe_bound, worst == 2 ? "  <== bottleneck" : "");
	topdown_line(f, depth, 2, "Fetch latency", t->fetch_lat, "");
	topdown_line(f, depth, 2, "Fetch bandwidth", t->fetch_bw, "");
	topdown_line(f, depth, 1, names[3], t->be_bound, worst == 3 ? "  <== bottleneck" : "");
	topdown_line(f, depth, 2, "Memory bound", t->mem_bound, "");
	topdown_line(f, depth, 2, amd ? "CPU bound" : "Core bound", t->core_bound, "");
	/* AMD's fifth level-1 category, the slots the other SMT thread took: what the four leave (pmu.h) */
	if (amd && 1 - (l1[0] + l1[1] + l1[2] + l1[3]) >= 0.0005)
		topdown_line(f, depth, 1, "SMT contention", 1 - (l1[0] + l1[1] + l1[2] + l1[3]), "  (the rest of the slots)");
	if (depth != TOPDOWN_COUNTED && depth > t->level)
		fprintf(f, " (level %d was asked for: this CPU's counters give the tree to level %d)\n", depth, t->level);
	fprintf(f, "\n");
}

static json_object *topdown_json(const struct pmu_topdown *t)
{
	json_object *o = json_object_new_object();
	json_object_object_add(o, "level", json_object_new_int(t->level));
	json_object_object_add(o, "slots", json_object_new_uint64(t->slots));
	json_object_object_add(o, "retiring", jnum(t->retiring));
	json_object_object_add(o, "bad_speculation", jnum(t->bad_spec));
	json_object_object_add(o, "frontend_bound", jnum(t->fe_bound));
	json_object_object_add(o, "backend_bound", jnum(t->be_bound));
	json_object_object_add(o, "heavy_operations", jnum(t->heavy_ops));
	json_object_object_add(o, "light_operations", jnum(t->light_ops));
	json_object_object_add(o, "branch_mispredicts", jnum(t->br_mispredict));
	json_object_object_add(o, "machine_clears", jnum(t->machine_clears));
	json_object_object_add(o, "fetch_latency", jnum(t->fetch_lat));
	json_object_object_add(o, "fetch_bandwidth", jnum(t->fetch_bw));
	json_object_object_add(o, "memory_bound", jnum(t->mem_bound));
	json_object_object_add(o, "core_bound", jnum(t->core_bound));
	return o;
}

/* A hybrid CPU's topdown trees, one per core type: the rows of each PMU the rows name (in their
 * order) decoded alone; a PMU whose rows give no tree (software events, an uncore PMU) is left out.
 * Elsewhere at most one PMU gives a tree, and the caller decodes all the rows together as before. */
enum { CORE_TREES_MAX = 4 };
struct core_tree {
	const char *pmu;
	struct pmu_topdown t;
};
static size_t core_trees(struct pmu_ctx *ctx, const struct counted *c, struct pmu_named_value *nv,
			 struct core_tree *out)
{
	size_t nt = 0;

	for (size_t i = 0; i < c->n && nt < CORE_TREES_MAX; i++) {
		const char *pmu = c->rows[i].info.pmu;
		bool seen = !pmu[0];
		for (size_t j = 0; j < i && !seen; j++)
			seen = !strcmp(c->rows[j].info.pmu, pmu);
		if (seen)
			continue;
		if (pmu_topdown_from_named(ctx, nv, named_rows(c, nv, NULL, pmu), &out[nt].t) == 0)
			out[nt++].pmu = pmu;
	}
	return nt;
}

/* The names of the rows that have no count (<not supported>, or never on a counter), comma separated
 * (malloc'd), or NULL */
static char *uncounted_rows(const struct counted *c)
{
	char *names = NULL;

	for (size_t i = 0; i < c->n; i++)
		if (!c->rows[i].not_summed && (!c->rows[i].supported || (c->rows[i].v.enabled && !c->rows[i].v.running)) &&
		    str_append(&names, ", ", c->rows[i].info.name) < 0)
			break;
	return names;
}

/* The metrics and topdown parts of a report; returns 1 if something could not be computed. */
int analysis(FILE *f, struct pmu_ctx *ctx, const struct strv *metrics, int topdown, const struct counted *c,
	     json_object *json)
{
	int bad = 0;
	if (metrics->n) {
		json_object *arr = json ? json_object_new_array() : NULL;
		bad |= report_metrics(f, ctx, metrics, c, arr) != 0;
		if (json)
			json_object_object_add(json, "metrics", arr);
	}
	if (topdown) {
		struct pmu_named_value *nv = calloc(c->n + 1, sizeof(*nv));
		struct core_tree trees[CORE_TREES_MAX];
		size_t nt = nv ? core_trees(ctx, c, nv, trees) : 0;
		struct pmu_topdown t;
		int r;
		struct pmu_caps caps;
		char *uncounted = NULL;
		/* named by core type: a hybrid CPU's trees, or one tree of a core PMU that is not this
		 * machine's (first) one (a hybrid CPU's counts whose other type gave no tree, or reported
		 * on another machine) */
		if (nt > 1 || (nt == 1 && (pmu_caps(ctx, &caps) < 0 || strcmp(trees[0].pmu, caps.core_pmu)))) {
			json_object *by = json ? json_object_new_object() : NULL;
			for (size_t i = 0; i < nt; i++)
				if (by)
					json_object_object_add(by, trees[i].pmu, topdown_json(&trees[i].t));
				else
					print_topdown(f, &trees[i].t, trees[i].pmu, topdown);
			if (json) {
				json_object_object_add(json, "topdown", topdown_json(&trees[0].t));
				json_object_object_add(json, "topdown_by_pmu", by);
			}
			free(nv);
			return bad;
		}
		r = nv ? pmu_topdown_from_named(ctx, nv, named_rows(c, nv, NULL, NULL), &t) : -ENOMEM;
		if (json)
			json_object_object_add(json, "topdown", r == 0 ? topdown_json(&t) : NULL);
		else if (r == 0)
			print_topdown(f, &t, NULL, topdown);
		else if ((uncounted = uncounted_rows(c)))
			/* --topdown listed the events: the library's fix (count them) was done, and failed */
			fprintf(f, " Topdown: not available: %s %s not counted (<not supported>, or never on a "
				"counter)\n\n", uncounted, strchr(uncounted, ',') ? "were" : "was");
		else
			fprintf(f, " Topdown: not available: %s\n\n", pmu_strerror(r));
		free(uncounted);
		bad |= r != 0;
		free(nv);
	}
	return bad;
}

/* Is @s a name (of a metric or a group), not an expression: [A-Za-z0-9_.]+, or PMU/NAME/? */
static bool bare_name(const char *s)
{
	size_t n = strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.");

	if (n && !s[n])
		return true;
	if (!n || s[n] != '/')
		return false;
	s += n + 1;
	n = strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.");
	return n && s[n] == '/' && !s[n + 1];
}

/* Does perf's MetricGroup list @groups ("A;B") hold @g (any case)? */
static bool in_groups(const char *groups, const char *g)
{
	size_t n = strlen(g);

	for (const char *p = groups; p && *p; p += strcspn(p, ";"), p += *p == ';')
		if (strcspn(p, ";") == n && !strncasecmp(p, g, n))
			return true;
	return false;
}

struct group_walk {
	struct pmu_ctx *ctx;
	const char *group;
	struct strv *out;
	int r;
};

/* A metric of the group walked: added (as PMU/NAME/ when the tables define it once per PMU). */
static int group_member(const struct pmu_event_entry *e, void *data)
{
	struct group_walk *w = data;
	struct pmu_metric_info mi;
	char name[PMU_NAME_MAX * 2];
	int r;

	if (e->kind != PMU_ENTRY_METRIC)
		return 0;
	snprintf(name, sizeof(name), "%s", e->name);
	if ((r = pmu_metric_info(w->ctx, name, &mi)) == -EINVAL && e->pmu && *e->pmu) {
		snprintf(name, sizeof(name), "%s/%s/", e->pmu, e->name);
		r = pmu_metric_info(w->ctx, name, &mi);
	}
	if (r < 0 || !in_groups(mi.group, w->group))
		return 0;
	for (size_t i = 0; i < w->out->n; i++)
		if (!strcasecmp(w->out->v[i], name))
			return 0;
	if ((w->r = strv_add(w->out, name, strlen(name))) < 0)
		return 1;
	return 0;
}

/* On a machine of several core PMUs, their names into @names (at most @max); how many (0: one core PMU). */
static size_t core_pmus(struct pmu_ctx *ctx, char (*names)[64], size_t max)
{
	struct pmu_pmu_info p;
	size_t n = 0;

	for (size_t i = 0; i < pmu_pmu_count(ctx) && n < max; i++)
		if (pmu_pmu_get(ctx, i, &p) == 0 && p.is_core && p.cpus[0])
			snprintf(names[n++], sizeof(names[0]), "%s", p.name);
	return n > 1 ? n : 0;
}

/* Does metric @m need a name that is counted on each core PMU (one part per core type)? */
static bool counted_per_core(struct pmu_ctx *ctx, const char *m)
{
	char need[4096], *save = NULL;
	bool split = false;

	if (pmu_metric_events(ctx, m, need, sizeof(need)) < 0)
		return false;
	for (char *e = strtok_r(need, ",", &save); e && !split; e = strtok_r(NULL, ",", &save))
		split = pmu_event_resolve_each(ctx, e, NULL, 0) > 1;
	return split;
}

/*
 * Metric @m as given to -M, into @out: on a machine of several core PMUs, as perf does, once per core
 * type too ("armv8_cortex_a76/NAME/": that core type's tables and counts, see pmu_metric_eval()) where
 * it needs a name counted on each, after the whole; a metric defined once per PMU (Intel's
 * cpu_core/cpu_atom tables) once per core PMU that defines it.
 */
static int metric_add(struct pmu_ctx *ctx, struct strv *out, const char *m, int info)
{
	char core[8][64], spelled[PMU_NAME_MAX * 2];
	size_t nc = strchr(m, '/') ? 0 : core_pmus(ctx, core, 8), added = 0;
	struct pmu_metric_info mi;
	int r = 0;

	/* the whole first, unless it is defined once per PMU (then only the core PMUs' spellings) */
	if (info != -EINVAL || nc == 0)
		if ((r = strv_add(out, m, strlen(m))) < 0 || nc == 0 || info != 0 || !counted_per_core(ctx, m))
			return r;
	for (size_t c = 0; r == 0 && c < nc; c++) {
		snprintf(spelled, sizeof(spelled), "%s/%s/", core[c], m);
		if (pmu_metric_info(ctx, spelled, &mi) == 0 && (r = strv_add(out, spelled, strlen(spelled))) == 0)
			added++;
	}
	/* defined per PMU, none of this machine's core PMUs: as given, said later */
	return r == 0 && info == -EINVAL && !added ? strv_add(out, m, strlen(m)) : r;
}

int metrics_expand(struct pmu_ctx *ctx, const char *cmd, struct strv *ms)
{
	struct strv out = { NULL, 0 };
	struct pmu_metric_info mi;
	int r = 0;

	for (size_t i = 0; r == 0 && i < ms->n; i++) {
		const char *m = ms->v[i];
		size_t before = out.n;
		struct group_walk w = { ctx, m, &out, 0 };
		int info = pmu_metric_info(ctx, m, &mi);
		if (info == 0 || info == -EINVAL || !bare_name(m)) {
			r = metric_add(ctx, &out, m, info); /* a metric (-EINVAL: one per PMU), an expression */
			continue;
		}
		if (pmu_event_foreach(ctx, NULL, group_member, &w) < 0 || w.r < 0) {
			r = -ENOMEM;
			break;
		}
		if (out.n == before) {
			fprintf(stderr, "pmu %s: unknown metric or metric group '%s' ('pmu list metric' and 'pmu list "
				"metricgroup' list them; -e counts events)\n", cmd, m);
			r = -ENOENT;
		}
	}
	if (r == -ENOMEM)
		fprintf(stderr, "pmu %s: out of memory\n", cmd);
	if (r < 0) {
		strv_free(&out);
		return -1;
	}
	strv_free(ms);
	*ms = out;
	return 0;
}

struct countable_arg {
	struct pmu_ctx *ctx;
	const char *metric;
	int topdown;            /* the TOPDOWN keyword counts the topdown events */
	struct strv *notes;
	char *const *events;    /* the list so far */
};

/* Does the event list @list count event @info already, under another name: an item of the same
 * encoding (perf's tables name the topdown SLOTS event "slots" in one metric and "TOPDOWN.SLOTS" in
 * another; a set would open it twice, and topdown refuses a second SLOTS), or the TOPDOWN keyword for a
 * topdown event? A metric finds the value by its encoding (pmu_metric_eval_events). */
static bool counted_already(struct pmu_ctx *ctx, const char *list, const struct pmu_event_info *info)
{
	const unsigned modes = PMU_EVF_EXCL_USER | PMU_EVF_EXCL_KERNEL | PMU_EVF_EXCL_HV;
	char item[PMU_NAME_MAX * 2];

	for (const char *p = list ? list : ""; *p;) {
		size_t n = strcspn(p, ",");
		struct pmu_event_info other;
		const char *a = p, *b = p + n;
		p = *b ? b + 1 : b;
		while (a < b && (*a == '{' || *a == ' '))
			a++;
		while (b > a && (b[-1] == ' ' || b[-1] == '}'))
			b--;
		if ((size_t)(b - a) >= sizeof(item))
			continue;
		snprintf(item, sizeof(item), "%.*s", (int)(b - a), a);
		if (!strncasecmp(item, "TOPDOWN", 7) && (!item[7] || item[7] == ':'))
			if (info->flags & (PMU_EVF_TOPDOWN_SLOTS | PMU_EVF_TOPDOWN_METRIC))
				return true;
		if (pmu_event_resolve(ctx, item, &other) == 0 && other.type == info->type &&
		    other.config == info->config && other.config1 == info->config1 && other.config2 == info->config2 &&
		    (other.flags & modes) == (info->flags & modes))
			return true;
	}
	return false;
}

/* Is event @e, which a metric needs, countable here? 0 yes; 1 no, with a note saying why (the other
 * metrics are counted, this one says n/a); -ENOMEM. */
static int countable(const char *e, void *data)
{
	struct countable_arg *a = data;
	struct pmu_event_info info;
	char note[1024];
	int rr = pmu_event_resolve(a->ctx, e, &info);

	if (rr == 0 && a->topdown && (info.flags & (PMU_EVF_TOPDOWN_SLOTS | PMU_EVF_TOPDOWN_METRIC)))
		return 1; /* counted by the TOPDOWN keyword, in its group */
	if (rr == 0 && counted_already(a->ctx, *a->events, &info))
		return 1;
	if (rr != -ENOENT && rr != -ENODEV && rr != -EINVAL)
		return 0;
	/* not countable on this machine: a PMU it lacks, an event its tables do not have */
	snprintf(note, sizeof(note), "metric '%s' needs '%s', which cannot be counted here: %s", a->metric, e,
		 pmu_strerror(rr));
	return strv_add(a->notes, note, strlen(note)) < 0 ? -ENOMEM : 1;
}

/* Append the events metrics @ms need to the list *@events (malloc'd), skipping names already there. */
int add_metric_events(struct pmu_ctx *ctx, const struct strv *ms, int topdown, char **events, struct strv *notes)
{
	int r = 0;

	for (size_t i = 0; i < ms->n && r >= 0; i++) {
		char *need = NULL;
		/* the length first, then the list */
		r = pmu_metric_events(ctx, ms->v[i], NULL, 0);
		if (r >= 0 && !(need = malloc((size_t)r + 1)))
			r = -ENOMEM;
		if (r >= 0)
			r = pmu_metric_events(ctx, ms->v[i], need, (size_t)r + 1);
		if (r < 0) {
			fprintf(stderr, "pmu: metric '%s': %s\n", ms->v[i], pmu_strerror(r));
			free(need);
			break;
		}
		{
			struct countable_arg a = { ctx, ms->v[i], topdown, notes, events };
			if ((r = pmu__names_add_new(events, need, countable, &a)) < 0)
				fprintf(stderr, "pmu stat: out of memory\n");
		}
		free(need);
	}
	return r < 0 ? -1 : 0;
}
