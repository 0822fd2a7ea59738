/* SPDX-License-Identifier: MIT */
/* Event tables, validation: pmu check-tables' checks of a table directory (entries, names, metric
 * graphs, encodings against libpfm4 and sysfs), and the fuzzers' entry points over them. Loading
 * and encoding are tables.c's (the pmu__tables_* functions of tables.h). */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <limits.h>
#include <regex.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>
#include "pmu.h"
#include "common.h"
#include "context.h"
#include "error.h"
#include "expr.h"
#include "generic.h"
#include "metric.h"
#include "namelist.h"
#include "pfm.h"
#include "resolve.h"
#include "sysfs.h"
#include "tables.h"
#include "topdown.h"
#include "util.h"

static const char *const known_consts[] = {
	"smt_on", "slots", "num_cpus", "num_cpus_online", "num_dies", "num_packages", "num_cores",
	"system_tsc_freq", "core_wide", "has_pmem", "chas_per_socket",
};

struct check {
	struct pmu_tables *t;
	const struct pmu_tables *std;   /* standard names to accept in StdNames (may be t) */
	const struct pmu_tentry *metric;
	pmu_problem_fn pf;
	void *pd;
	int problems;
	struct pmu_ctx *ctx;            /* the machine names are looked up on (NULL: none) */
	const struct pmu_tables *arch;  /* the architecture-level files' entries (may be NULL) */
};

/* A note: what the check cannot tell on this machine, or a harmless oddity. Said to the callback with
 * "note: " first, not counted as a problem. */
static void note(struct check *c, const struct pmu_tentry *e, const char *fmt, ...) PMU_PRINTF(3, 4);
static void note(struct check *c, const struct pmu_tentry *e, const char *fmt, ...)
{
	char buf[640];
	va_list ap;
	int n = snprintf(buf, sizeof(buf), "note: ");

	va_start(ap, fmt);
	vsnprintf(buf + n, sizeof(buf) - (size_t)n, fmt, ap);
	va_end(ap);
	if (c->pf)
		c->pf(c->pd, e ? e->file : "", e ? e->name : NULL, buf);
}

static bool is_note(const char *msg)
{
	return !strncmp(msg, "note: ", 6);
}

static void problem(struct check *c, const struct pmu_tentry *e, const char *fmt, ...) PMU_PRINTF(3, 4);
static void problem(struct check *c, const struct pmu_tentry *e, const char *fmt, ...)
{
	char buf[512], *msg = buf;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n >= (int)sizeof(buf) && (msg = malloc((size_t)n + 1))) {
		va_start(ap, fmt);
		vsnprintf(msg, (size_t)n + 1, fmt, ap);
		va_end(ap);
	}
	c->problems++;
	if (c->pf)
		c->pf(c->pd, e ? e->file : "", e ? e->name : NULL, msg ? msg : buf);
	if (msg != buf)
		free(msg);
}

/*
 * Events the kernel names in sysfs on machines that have them (perf looks a name a metric uses up
 * among the events of the machine's PMUs too): Linux 6.12's x86 drivers, intel/core.c (TSX, topdown,
 * slots, memory sampling), msr.c, intel/cstate.c, rapl.c. arm64's architected events are in perf's
 * architecture-level files, which the check reads.
 */
static const struct { const char *pmu, *name; } kernel_events[] = {
	{ "cpu", "cycles-t" }, { "cpu", "cycles-ct" }, { "cpu", "tx-start" }, { "cpu", "tx-commit" },
	{ "cpu", "tx-abort" }, { "cpu", "tx-capacity" }, { "cpu", "tx-capacity-read" }, { "cpu", "tx-capacity-write" },
	{ "cpu", "tx-conflict" }, { "cpu", "el-start" }, { "cpu", "el-commit" }, { "cpu", "el-abort" },
	{ "cpu", "el-capacity" }, { "cpu", "el-capacity-read" }, { "cpu", "el-capacity-write" },
	{ "cpu", "el-conflict" }, { "cpu", "slots" }, { "cpu", "topdown-retiring" }, { "cpu", "topdown-bad-spec" },
	{ "cpu", "topdown-fe-bound" }, { "cpu", "topdown-be-bound" }, { "cpu", "topdown-heavy-ops" },
	{ "cpu", "topdown-br-mispredict" }, { "cpu", "topdown-fetch-lat" }, { "cpu", "topdown-mem-bound" },
	{ "cpu", "topdown-total-slots" }, { "cpu", "topdown-slots-issued" }, { "cpu", "topdown-slots-retired" },
	{ "cpu", "topdown-fetch-bubbles" }, { "cpu", "topdown-recovery-bubbles" }, { "cpu", "mem-loads" },
	{ "cpu", "mem-loads-aux" }, { "cpu", "mem-stores" }, { "msr", "tsc" }, { "msr", "aperf" }, { "msr", "mperf" },
	{ "msr", "pperf" }, { "msr", "smi" }, { "msr", "ptsc" }, { "msr", "irperf" }, { "msr", "cpu_thermal_margin" },
	{ "cstate_core", "c1-residency" }, { "cstate_core", "c3-residency" }, { "cstate_core", "c6-residency" },
	{ "cstate_core", "c7-residency" }, { "cstate_pkg", "c2-residency" }, { "cstate_pkg", "c3-residency" },
	{ "cstate_pkg", "c6-residency" }, { "cstate_pkg", "c7-residency" }, { "cstate_pkg", "c8-residency" },
	{ "cstate_pkg", "c9-residency" }, { "cstate_pkg", "c10-residency" }, { "power", "energy-cores" },
	{ "power", "energy-pkg" }, { "power", "energy-ram" }, { "power", "energy-gpu" }, { "power", "energy-psys" },
	/* drivers/perf/arm_pmuv3.c's names that perf's arm64 architecture-level files lack */
	{ "armv8_pmuv3", "l2i_cache" }, { "armv8_pmuv3", "l2i_cache_refill" }, { "armv8_pmuv3", "l2i_cache_lmiss" },
	{ "armv8_pmuv3", "l3d_cache_wb" }, { "armv8_pmuv3", "ll_cache" }, { "armv8_pmuv3", "ll_cache_miss" },
};

/* The PMU whose kernel driver names event @name in sysfs, or NULL. */
static const char *kernel_event_pmu(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(kernel_events); i++)
		if (!strcasecmp(kernel_events[i].name, name))
			return kernel_events[i].pmu;
	return NULL;
}

/* Whether @name is defined without the machine: the table, the architecture-level files, the kernel's
 * generic events, perf's tool events. */
static bool check_known(const struct check *c, const char *name)
{
	struct pmu_generic g;

	return pmu__tables_find_in(c->t, name) || (c->arch && pmu__tables_find_in(c->arch, name)) ||
	       pmu__generic_lookup(name, &g) == 0 || !strcmp(name, "duration_time") || !strcmp(name, "user_time") ||
	       !strcmp(name, "system_time");
}

/* Whether a PMU of the checking machine has an event @name in sysfs (@pmu NULL: any PMU): 1, 0, or
 * -ENOMEM reading a PMU's events */
static int sysfs_event_here(const struct pmu_ctx *ctx, const char *pmu, const char *name)
{
	for (size_t p = 0; ctx && p < ctx->n_pmus; p++) {
		const struct pmu_dev *d = &ctx->pmus[p];
		int r;
		if (pmu && strcmp(d->name, pmu))
			continue;
		if ((r = pmu__pmu_load(ctx, d)) < 0)
			return r;
		for (size_t i = 0; i < d->n_events; i++)
			if (!strcasecmp(d->events[i].name, name))
				return 1;
	}
	return 0;
}

/*
 * A name with perf's '@' (the PMU syntax of metrics): "PMU@EVENT@", "PMU@EVENT,TERMS@",
 * "PMU@TERMS@" or "EVENT@TERMS@". A table event is checked against the table; a PMU's own event or
 * terms against that PMU where the machine has it, else a note (nothing to check them with).
 */
static void check_at_name(struct check *c, const struct pmu_tentry *m, const char *name, const char *at)
{
	const char *end = strrchr(name, '@');
	char head[PMU_NAME_MAX], inner[PMU_NAME_MAX], first[PMU_NAME_MAX];
	size_t hl = (size_t)(at - name), il = end > at ? (size_t)(end - at - 1) : 0;

	if (hl >= sizeof(head) || il >= sizeof(inner) || !il) {
		problem(c, m, "MetricExpr refers to '%s', which is not PMU@EVENT@ (or PMU@TERMS@)", name);
		return;
	}
	memcpy(head, name, hl);
	head[hl] = 0;
	memcpy(inner, at + 1, il);
	inner[il] = 0;
	pmu__strlcpy(first, inner, sizeof(first));
	first[strcspn(first, ",")] = 0;
	if (check_known(c, head))   /* EVENT@TERMS@: the table's event with terms */
		return;
	if (!strchr(first, '=') && check_known(c, first))
		return;                 /* PMU@EVENT[,TERMS]@: the table's event */
	if (c->ctx && pmu__pmu_by_name(c->ctx, head)) {
		/* the machine has the PMU: its format terms and events say */
		struct pmu_event_info info;
		char spec[2 * PMU_NAME_MAX + 4];
		int r;
		snprintf(spec, sizeof(spec), "%s/%s/", head, inner);
		r = pmu__resolve_quiet(c->ctx, spec, &info);
		if (r < 0 && !strpbrk(inner, "=,") && kernel_event_pmu(inner))
			note(c, m, "MetricExpr uses '%s', an event the kernel's %s PMU lists in sysfs where the hardware "
			     "has it; this machine's %s lists none: not checked", name, kernel_event_pmu(inner), head);
		else if (r < 0)
			problem(c, m, "MetricExpr refers to '%s': %s", name, pmu__err_msg());
		pmu__err_clear();
		return;
	}
	if (c->ctx && pmu__tables_unit_pmus(c->ctx, head, NULL))
		return; /* boxes of an uncore PMU (cha_0 is uncore_cha_0) */
	note(c, m, "MetricExpr uses '%s' of PMU '%s', which this machine does not have: not checked", inner, head);
}

static int check_name(const char *name, int is_const, void *data)
{
	struct check *c = data;
	const struct pmu_tentry *m = c->metric;
	int r;

	if (is_const == PMU_NAME_HAS_EVENT || is_const == PMU_NAME_CPUID) /* asks the machine: any name */
		return 0;
	if (is_const == PMU_NAME_CONST) {
		for (size_t i = 0; i < ARRAY_SIZE(known_consts); i++)
			if (!strcasecmp(name, known_consts[i]))
				return 0;
		if (m->params) {
			char key[PMU_NAME_MAX + 2];
			snprintf(key, sizeof(key), "%s=", name);
			for (const char *p = m->params; (p = strcasestr(p, key)); p++)
				if (p == m->params || p[-1] == ',' || isspace((unsigned char)p[-1]))
					return 0;
		}
		problem(c, m, "MetricExpr uses constant '#%s', which is neither a context constant nor in MetricParams",
			name);
		return 0;
	}
	if (check_known(c, name))
		return 0;
	if (strchr(name, '@')) {
		check_at_name(c, m, name, strchr(name, '@'));
		return 0;
	}
	{
		/* an event with modifiers (EVENT:c1, EVENT:u): the event must be in the table */
		const char *colon = strchr(name, ':');
		char base[PMU_NAME_MAX];
		if (colon && (size_t)(colon - name) < sizeof(base)) {
			memcpy(base, name, (size_t)(colon - name));
			base[colon - name] = 0;
			if (check_known(c, base))
				return 0;
		}
	}
	/* a bare name: perf looks it up among the sysfs events of the machine's PMUs too */
	if ((r = sysfs_event_here(c->ctx, NULL, name)) < 0) {
		problem(c, m, "MetricExpr's '%s' could not be looked up: %s", name, pmu__err_msg());
		pmu__err_clear();
		return 0;
	}
	if (r)
		return 0;
	if (kernel_event_pmu(name)) {
		note(c, m, "MetricExpr uses '%s', an event the kernel's %s PMU lists in sysfs where the hardware has it "
		     "(perf finds it there); this machine has none: not checked", name, kernel_event_pmu(name));
		return 0;
	}
	problem(c, m, "MetricExpr refers to '%s', which is not an event or metric of this table", name);
	return 0;
}

/*
 * The metric graph of a table: the metrics each metric's MetricExpr refers
 * to, resolved as evaluation resolves them (among the definitions of the
 * referring metric's PMU). Edges of entry i (its index in t->v) are
 * edge[first[i] .. first[i + 1]), each target once.
 */
struct mgraph {
	struct pmu_pmap node;   /* metric entry -> its index in t->v */
	size_t *first, *edge, nedge, cap;
	size_t *eh;             /* per entry: the height of its MetricExpr (see PMU_METRIC_MAX_NEST) */
	size_t *last_from;      /* per target: 1 + the entry whose edges named it last */
	int err;
};

struct edge_walk {
	struct check *c;
	struct mgraph *g;
	const struct pmu_tentry *m;
	size_t from;
};

static int add_edge(const char *name, int is_const, void *data)
{
	struct edge_walk *w = data;
	struct mgraph *g = w->g;
	const struct pmu_tentry *e;
	double id;
	size_t to;

	if (is_const || g->err)
		return 0;
	e = pmu__tables_find_pmu_in(w->c->t, name, w->m->unit, PMU_TC_METRIC);
	if (!e || e->kind != PMU_T_METRIC || !pmu__pmap_get(&g->node, e, &id))
		return 0;
	to = (size_t)id;
	if (g->last_from[to] == w->from + 1)
		return 0;
	g->last_from[to] = w->from + 1;
	if (g->nedge == g->cap && pmu__grow(&g->edge, &g->cap, 64, sizeof(*g->edge)) < 0) {
		g->err = -ENOMEM;
		return 1;
	}
	g->edge[g->nedge++] = to;
	return 0;
}

/* A problem naming a chain of metrics (entries @idx[0..n) of the table), followed by @last if not SIZE_MAX. */
static void chain_problem(struct check *c, const struct pmu_tentry *at, const size_t *idx, size_t n, size_t last,
			  const char *what)
{
	const struct pmu_tentry **v = malloc((n + 1) * sizeof(*v));
	char *text = NULL;

	for (size_t i = 0; v && i < n; i++)
		v[i] = pmu__tables_entry(c->t, idx[i]);
	if (v && last != SIZE_MAX)
		v[n++] = pmu__tables_entry(c->t, last);
	if (v)
		text = pmu__chain_text(v, n);
	problem(c, at, "%s: %s", what, text ? text : "(out of memory naming them)");
	free(text);
	free(v);
}

/* The chain that makes metric @r's @depth (the longest by height or by nest; each metric's own
 * share is @own[u], or 1 when @own is NULL), into @stack; returns its length. */
static size_t deepest_chain(const struct mgraph *g, const unsigned char *state, const size_t *depth,
			    const size_t *own, size_t r, size_t *stack, size_t n)
{
	size_t len = 0;

	for (size_t u = r;;) {
		size_t down = SIZE_MAX, mine = own ? own[u] : 1;
		stack[len++] = u;
		for (size_t k = g->first[u]; k < g->first[u + 1] && down == SIZE_MAX; k++)
			if (state[g->edge[k]] == 2 && depth[g->edge[k]] + mine == depth[u])
				down = g->edge[k];
		if (down == SIZE_MAX || len == n)
			return len;
		u = down;
	}
}

/*
 * Cycles and depth, in time linear in the table: an iterative depth-first
 * walk (a chain of any length costs no C stack). Each edge back to a metric
 * on the walk's path is a cycle, reported once. A metric no other refers to
 * whose chains of references go deeper than evaluation follows
 * (PMU_METRIC_MAX_DEPTH metrics, PMU_METRIC_MAX_NEST expression levels) is
 * reported with the deepest chain.
 */
static void check_metric_graph(struct check *c, struct mgraph *g)
{
	size_t n = c->t->n;
	unsigned char *state = calloc(n, 1);    /* 0 unseen, 1 on the path, 2 done */
	size_t *height = calloc(n, sizeof(*height)), *indeg = calloc(n, sizeof(*indeg)), *nest = calloc(n, sizeof(*nest));
	size_t *stack = malloc(n * sizeof(*stack)), *pos = malloc(n * sizeof(*pos)), *next = malloc(n * sizeof(*next));

	if (!state || !height || !indeg || !nest || !stack || !pos || !next) {
		problem(c, NULL, "out of memory checking the metrics for cycles");
		goto out;
	}
	for (size_t k = 0; k < g->nedge; k++)
		indeg[g->edge[k]]++;
	for (size_t r = 0; r < n; r++) {
		size_t sp = 0;
		if (pmu__tables_entry(c->t, r)->kind != PMU_T_METRIC || state[r])
			continue;
		state[r] = 1;
		pos[r] = sp;
		next[r] = g->first[r];
		stack[sp++] = r;
		while (sp) {
			size_t u = stack[sp - 1], h = 0, ne = 0;
			if (next[u] < g->first[u + 1]) {
				size_t v = g->edge[next[u]++];
				if (state[v] == 1) {
					chain_problem(c, pmu__tables_entry(c->t, v), stack + pos[v], sp - pos[v], v,
						      "metrics refer to each other in a cycle");
				} else if (state[v] == 0) {
					state[v] = 1;
					pos[v] = sp;
					next[v] = g->first[v];
					stack[sp++] = v;
				}
				continue;
			}
			for (size_t k = g->first[u]; k < g->first[u + 1]; k++) {
				size_t v = g->edge[k];
				if (state[v] == 2 && height[v] > h)
					h = height[v];
				if (state[v] == 2 && nest[v] > ne)
					ne = nest[v];
			}
			height[u] = h + 1;
			nest[u] = ne + g->eh[u];
			state[u] = 2;
			sp--;
		}
	}
	for (size_t r = 0; r < n; r++) {
		char what[200];
		size_t len;
		if (pmu__tables_entry(c->t, r)->kind != PMU_T_METRIC || indeg[r])
			continue;
		if (height[r] > PMU_METRIC_MAX_DEPTH) {
			len = deepest_chain(g, state, height, NULL, r, stack, n);
			snprintf(what, sizeof(what), "metrics nest %zu deep (each uses the next), more than the %d levels "
				 "evaluation follows", height[r], PMU_METRIC_MAX_DEPTH);
		} else if (nest[r] > PMU_METRIC_MAX_NEST) {
			len = deepest_chain(g, state, nest, g->eh, r, stack, n);
			snprintf(what, sizeof(what), "the expressions of metrics that use each other nest %zu levels deep "
				 "(their heights added), more than the %d evaluation follows", nest[r], PMU_METRIC_MAX_NEST);
		} else {
			continue;
		}
		chain_problem(c, pmu__tables_entry(c->t, r), stack, len, SIZE_MAX, what);
	}
out:
	free(state);
	free(height);
	free(indeg);
	free(nest);
	free(stack);
	free(pos);
	free(next);
}

/* Is every name of the comma-separated @sub in the comma-separated @list? */
static bool names_within(const char *sub, const char *list)
{
	char *copy = strdup(sub), *save = NULL;
	bool all = copy != NULL;

	for (char *tok = copy ? strtok_r(copy, ",", &save) : NULL; tok && all; tok = strtok_r(NULL, ",", &save)) {
		while (isspace((unsigned char)*tok))
			tok++;
		all = pmu__names_has(list, tok);
	}
	free(copy);
	return all;
}

static void check_list_names(struct check *c, const struct pmu_tentry *e, const char *list, const char *key)
{
	char *copy = strdup(list), *save = NULL;

	for (char *tok = copy ? strtok_r(copy, ",", &save) : NULL; tok; tok = strtok_r(NULL, ",", &save)) {
		const struct pmu_tentry *s;
		while (isspace((unsigned char)*tok))
			tok++;
		s = pmu__tables_find_in(c->std, tok);
		if (!s || s->kind != PMU_T_STANDARD)
			problem(c, e, "%s names '%s', which is not a standard event", key, tok);
	}
	free(copy);
}


static void check_namespace(struct check *c)
{
	struct pmu_tables *t = c->t;
	struct mgraph g;

	memset(&g, 0, sizeof(g));
	g.first = calloc(t->n + 1, sizeof(*g.first));
	g.last_from = calloc(t->n ? t->n : 1, sizeof(*g.last_from));
	g.eh = calloc(t->n ? t->n : 1, sizeof(*g.eh));
	if (!g.first || !g.last_from || !g.eh)
		g.err = -ENOMEM;
	for (size_t i = 0; i < t->n && !g.err; i++)
		if (pmu__tables_entry(t, i)->kind == PMU_T_METRIC)
			g.err = pmu__pmap_put(&g.node, pmu__tables_entry(t, i), (double)i);
	for (size_t i = 0; i < t->n; i++) {
		const struct pmu_tentry *e = pmu__tables_entry(t, i);
		struct pmu_generic gen;
		char err[256];

		if (g.first)
			g.first[i] = g.nedge;
		if (e->stdnames)
			check_list_names(c, e, e->stdnames, "StdNames");
		if (e->generic && pmu__generic_lookup(e->generic, &gen) < 0)
			problem(c, e, "Generic '%s' is not a kernel generic event name", e->generic);
		if (e->approx && !e->approx_note)
			problem(c, e, "Approximate without an ApproxNote saying how it differs");
		if (e->approx_names) {
			check_list_names(c, e, e->approx_names, "ApproxNames");
			if (!e->approx_note)
				problem(c, e, "ApproxNames without an ApproxNote saying how they differ");
			if (e->approx)
				problem(c, e, "ApproxNames with Approximate: Approximate already makes every StdNames "
					"approximate; keep one");
			if (!e->stdnames || !names_within(e->approx_names, e->stdnames))
				problem(c, e, "ApproxNames lists a name that StdNames does not: '%s' (StdNames '%s')",
					e->approx_names, e->stdnames ? e->stdnames : "");
		}
		if (e->aliases && e->kind != PMU_T_STANDARD)
			problem(c, e, "Aliases are for standard events only");
		if (e->kind == PMU_T_METRIC) {
			struct pmu_expr *ex = pmu__expr_parse(e->expr, err, sizeof(err));
			if (!ex) {
				problem(c, e, "MetricExpr does not parse: %s: '%s'", err, e->expr);
			} else {
				struct edge_walk w = { c, &g, e, i };
				if (g.eh)
					g.eh[i] = (size_t)ex->height;
				c->metric = e;
				pmu__expr_names(ex, check_name, c);
				if (!g.err)
					pmu__expr_names(ex, add_edge, &w);
				pmu__expr_free(ex);
			}
			if (e->threshold) {
				ex = pmu__expr_parse(e->threshold, err, sizeof(err));
				if (!ex)
					problem(c, e, "MetricThreshold does not parse: %s", err);
				pmu__expr_free(ex);
			}
		}
	}
	if (g.first)
		g.first[t->n] = g.nedge;
	if (g.err)
		problem(c, NULL, "out of memory checking the metrics for cycles");
	else
		check_metric_graph(c, &g);
	pmu__pmap_free(&g.node);
	free(g.first);
	free(g.edge);
	free(g.last_from);
	free(g.eh);
}

static void forward_problem(void *data, const char *file, const char *entry, const char *msg)
{
	struct check *c = data;

	if (!is_note(msg))
		c->problems++;
	if (c->pf)
		c->pf(c->pd, file, entry, msg);
}

/* Compare the x86 or arm64 encodings of @t (table directory @dir, a CPU libpfm4 knows: pmu__pfm_model)
 * with libpfm4's for the same name: PfmName where the names differ, else EVENT.UMASK as EVENT:UMASK. Each
 * difference a problem to @fn. A libpfm4 built for another architecture has no such PMU: not compared,
 * which an info line says. */
static int check_pfm_encodings(struct pmu_ctx *ctx, struct pmu_tables *t, const char *dir, pmu_problem_fn fn,
			       void *data)
{
	const char *model = pmu__pfm_model(dir);
	char why[256];
	int unknown = 0, compared = 0, r;

	if (!model)
		return 0;
	if ((r = pmu__pfm_ready()) == -ENOMEM)
		return pmu__err(ctx, r, "%s: out of memory setting up libpfm4 to compare the encodings with", dir);
	if (r < 0) {
		if (pmu__pfm_missing(why, sizeof(why)))
			pmu__log(ctx, PMU_LOG_WARN, "%s: encodings not compared with libpfm4, which cannot be loaded "
				 "(%s): install libpfm4", dir, why);
		return 0;
	}
	if (!pmu__pfm_knows(model, why, sizeof(why))) {
		if (why[0])
			pmu__log(ctx, PMU_LOG_INFO, "%s: encodings not compared with libpfm4: it has PMU %s but encodes "
				 "this machine's PMUs only here (%s)", dir, model, why);
		else
			pmu__log(ctx, PMU_LOG_INFO, "%s: encodings not compared with libpfm4: the libpfm4 loaded here has "
				 "no PMU %s (each is built with its own architecture's PMUs only)", dir, model);
		return 0;
	}
	for (size_t i = 0; i < t->n; i++) {
		const struct pmu_tentry *e = pmu__tables_entry(t, i);
		char name[PMU_NAME_MAX * 2], *dot, msg[256];
		struct perf_event_attr attr;
		uint64_t ours, ours1 = 0;
		const char *pfm;
		bool known_wrong;
		if (e->kind != PMU_T_NATIVE || !(e->have & PMU_TF_EVENT) || (e->have & PMU_TF_CONFIG) || e->unit)
			continue;
		if (pmu__topdown_metric_code(e->event, e->umask) && !e->pfm_name)
			continue; /* topdown metric pseudo-events: libpfm4 has no equivalent */
		/* the equivalent libpfm4 event: PfmName where the names differ, else EVENT.UMASK -> EVENT:UMASK;
		 * PfmName "-": libpfm4's event of this name is encoded wrongly (the entry's Notes say how) */
		known_wrong = e->pfm_name && strcmp(e->pfm_name, "-") == 0;
		pfm = known_wrong ? NULL : e->pfm_name;
		snprintf(name, sizeof(name), "%s::%s", model, pfm ? pfm : e->name);
		if (!pfm && (dot = strchr(name + strlen(model) + 2, '.')))
			*dot = ':';
		if (pmu__pfm_attr(name, &attr) < 0) {
			unknown++;
			continue;
		}
		compared++;
		ours = pmu__tables_raw_config(e, pmu__pfm_x86(model));
		if ((e->have & PMU_TF_MSR) && e->msr_value)
			ours1 = e->msr_value;
		if (known_wrong) {
			/* declared, and checked: a libpfm4 that has been corrected makes the declaration a problem */
			if (pmu__pfm_same_count(model, ours, ours1, attr.config, attr.config1) && fn)
				fn(data, e->file, e->name, "PfmName \"-\" says libpfm4 encodes this event otherwise, but "
				   "its encoding now equals this table's: remove the PfmName (and the Notes about it)");
			continue;
		}
		if (!pmu__pfm_same_count(model, ours, ours1, attr.config, attr.config1)) {
			/* Intel's own published data (x86/intel/, events/README.md) is the source libpmu and perf
			 * follow: libpfm4 differing from it is said, not counted against the table */
			bool vendor = !strncmp(e->dir, "x86/intel/", 10);
			snprintf(msg, sizeof(msg), "%sencoding config=0x%llx config1=0x%llx differs from libpfm4's %s: "
				 "config=0x%llx config1=0x%llx%s", vendor ? "note: " : "", (unsigned long long)ours,
				 (unsigned long long)ours1, name, (unsigned long long)(attr.config & PMU_PFM_COMPARED),
				 (unsigned long long)attr.config1,
				 vendor ? "; this table is Intel's published data, which libpmu follows, as perf does" : "");
			if (fn)
				fn(data, e->file, e->name, msg); /* counts the problem, unless a note */
		}
	}
	pmu__log(ctx, PMU_LOG_INFO, "%s: %d encodings compared with libpfm4 (%s), %d events unknown to it", dir,
		 compared, model, unknown);
	return 0;
}

/* Check one namespace: the standard directory plus one table directory. */
static int check_one(struct pmu_ctx *ctx, const char *root, const char *dir, bool with_standard, struct check *c)
{
	struct pmu_tables t, arch;
	char path[1024];
	int r, parse_problems = 0;
	struct check sub = *c;

	memset(&t, 0, sizeof(t));
	sub.t = &t;
	sub.std = &t;
	sub.problems = 0;
	if (pmu__path(path, sizeof(path), "%s/%s", root, dir) < 0)
		return -ENAMETOOLONG;
	r = pmu__tables_load_disk_dir(&t, dir[0] ? path : root, dir[0] ? dir : "user", forward_problem, &sub, &parse_problems);
	memset(&arch, 0, sizeof(arch));
	if (r == 0 && strcmp(dir, "standard")) {
		if (dir[0])
			pmu__tables_load_ancestors_disk(&arch, root, dir);
		else
			pmu__tables_load_ancestors_flat(&arch, root);
		pmu__tables_fill_archstd(&t, 0, &arch, forward_problem, &sub, &parse_problems);
		if (pmu__tables_build_index(&arch, NULL, NULL, &parse_problems) == 0)
			sub.arch = &arch;
	}
	if (r == 0 && with_standard) {
		char sp[1024];
		if (pmu__path(sp, sizeof(sp), "%s/standard", root) == 0) {
			struct stat st;
			if (stat(sp, &st) == 0)
				r = pmu__tables_load_disk_dir(&t, sp, "standard", NULL, NULL, &parse_problems);
			else
				r = pmu__tables_compiled(&t, "standard");
		}
	}
	if (r == 0)
		r = pmu__tables_build_index(&t, forward_problem, &sub, &parse_problems);
	if (r == 0)
		check_namespace(&sub);
	if (r == 0)
		r = check_pfm_encodings(ctx, &t, dir, forward_problem, &sub);
	c->problems += sub.problems;
	pmu__tables_free(&arch);
	pmu__tables_free(&t);
	return r;
}

int pmu__tables_check(struct pmu_ctx *ctx, const char *root, pmu_problem_fn fn, void *data)
{
	struct check c = { NULL, NULL, NULL, fn, data, 0, ctx, NULL };
	char map[1024], why[128] = "", *text = NULL;
	size_t len;
	int r = 0, rm;
	struct stat st;

	if (stat(root, &st) < 0)
		return -errno;
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	if (pmu__path(map, sizeof(map), "%s/mapfile.csv", root) < 0)
		return -ENAMETOOLONG;
	rm = pmu__tables_read_whole(map, &text, &len, why, sizeof(why));
	if (rm == -ENOMEM)
		return rm;
	if (rm == -EINVAL) {
		if (fn)
			fn(data, map, NULL, why);
		return 1;
	}
	if (rm == 0) {
		/* a tree: each directory the mapfile names, plus standard/ */
		char **seen = NULL;
		size_t nseen = 0;
		const char *p = text;
		int lineno = 0;
		struct map_row row;
		while (r >= 0 && pmu__tables_map_next(&p, &lineno, &row)) {
			regex_t re;
			char bad[PMU_MAP_PATTERN_MAX + 200];
			int pr = pmu__tables_map_pattern(row.cpuid, NULL, 0, &re, bad, sizeof(bad));
			if (pr == -ENOMEM) {
				r = pr;
				break;
			}
			if (pr == 0) {
				regfree(&re);
			} else {
				char msg[sizeof(bad) + 32];
				snprintf(msg, sizeof(msg), "line %d: %s", row.lineno, bad);
				c.problems++;
				if (fn)
					fn(data, map, NULL, msg);
			}
			/* a row may name several directories, "A+B": each checked once */
			for (char *part = row.dir, *plus; part && r >= 0; part = plus ? plus + 1 : NULL) {
				bool dup = false;
				if ((plus = strchr(part, '+')))
					*plus = '\0';
				for (size_t i = 0; i < nseen; i++)
					dup |= !strcmp(seen[i], part);
				if (dup)
					continue;
				char sub[1024], **ns;
				if (pmu__path(sub, sizeof(sub), "%s/%s", root, part) < 0 || stat(sub, &st) < 0 ||
				    !S_ISDIR(st.st_mode)) {
					c.problems++;
					if (fn)
						fn(data, map, part, "mapfile names a directory that does not exist");
				} else if ((r = check_one(ctx, root, part, true, &c)) < 0) {
					break;
				}
				ns = realloc(seen, (nseen + 1) * sizeof(*ns));
				if (!ns || !(ns[nseen] = strdup(part))) {
					if (ns)
						seen = ns;
					r = -ENOMEM;
					break;
				}
				seen = ns;
				nseen++;
			}
			if (r < 0)
				break;
		}
		for (size_t i = 0; i < nseen; i++)
			free(seen[i]);
		free(seen);
		free(text);
		if (r >= 0 && pmu__path(map, sizeof(map), "%s/standard", root) == 0 && stat(map, &st) == 0)
			r = check_one(ctx, root, "standard", false, &c);
	} else {
		r = check_one(ctx, root, "", true, &c);
	}
	return r < 0 ? r : c.problems;
}

/* For the fuzzers: the name checks and every native entry's encoding over loaded, indexed @t. */
static void fuzz_check_encode(struct pmu_ctx *ctx, struct pmu_tables *t)
{
	struct check c;

	memset(&c, 0, sizeof(c));
	c.t = t;
	c.std = t;
	check_namespace(&c);
	for (size_t i = 0; i < t->n; i++) {
		struct pmu_event_info info;
		memset(&info, 0, sizeof(info));
		if (pmu__tables_entry(t, i)->kind == PMU_T_NATIVE)
			pmu__tables_encode(ctx, pmu__tables_entry(t, i), pmu__tables_entry(t, i)->name, &info);
	}
}

/* For the fuzzer: load @text as one table file and run every check on it. */
int pmu__tables_fuzz(struct pmu_ctx *ctx, const char *text, size_t len)
{
	struct pmu_tables t;
	int problems = 0, r;

	memset(&t, 0, sizeof(t));
	r = pmu__tables_load_text(&t, "fuzz.json", "fuzz", text, len, NULL, NULL, &problems);
	if (r == 0)
		r = pmu__tables_build_index(&t, NULL, NULL, &problems);
	if (r == 0)
		fuzz_check_encode(ctx, &t);
	pmu__tables_free(&t);
	return problems;
}

int pmu__tables_disk(struct pmu_tables *t, const char *path, const char *dir)
{
	int problems = 0, r = pmu__tables_load_disk_dir(t, path, dir, NULL, NULL, &problems);
	return r < 0 ? r : problems ? -EINVAL : 0;
}

/* For the fuzzer: @n texts as the files of one table directory (@texts[0]: an architecture-level
 * file, the source of ArchStdEvent references; the others: the CPU directory's files, perfmon metric
 * files among them), loaded, references filled, indexed, checked and encoded as a tree is. */
int pmu__tables_fuzz_dir(struct pmu_ctx *ctx, const char *const *texts, const size_t *lens, size_t n)
{
	struct pmu_tables t, arch;
	int problems = 0, r = 0;

	memset(&t, 0, sizeof(t));
	memset(&arch, 0, sizeof(arch));
	if (n)
		r = pmu__tables_load_text(&arch, "arch.json", "x86", texts[0], lens[0], NULL, NULL, &problems);
	for (size_t i = 1; i < n && r == 0; i++) {
		char file[32];
		snprintf(file, sizeof(file), "file%zu.json", i);
		r = pmu__tables_load_text(&t, file, "x86/fuzz", texts[i], lens[i], NULL, NULL, &problems);
	}
	if (r == 0) {
		pmu__tables_fill_archstd(&t, 0, &arch, NULL, NULL, &problems);
		r = pmu__tables_build_index(&t, NULL, NULL, &problems);
	}
	if (r == 0)
		fuzz_check_encode(ctx, &t);
	pmu__tables_free(&arch);
	pmu__tables_free(&t);
	return r < 0 ? r : problems;
}

/* For the fuzzer: @text, one table file, becomes @ctx's tables in place of those it had (freed),
 * loaded and indexed as a CPU directory's file is, so that the metric functions evaluate its
 * metrics. Returns the number of problems loading found, or a negative errno (the context is
 * then left without tables). */
int pmu__tables_fuzz_load(struct pmu_ctx *ctx, const char *text, size_t len)
{
	struct pmu_tables *t = &ctx->tables;
	int problems = 0, r;

	pthread_mutex_lock(&ctx->tables_lock);
	pmu__tables_free(t);
	r = pmu__tables_load_text(t, "fuzz.json", "x86/fuzz", text, len, NULL, NULL, &problems);
	if (r == 0)
		r = pmu__tables_build_index(t, NULL, NULL, &problems);
	if (r < 0)
		pmu__tables_free(t);
	t->status = r < 0 ? r : 0;
	t->loaded = true;
	pthread_mutex_unlock(&ctx->tables_lock);
	return r < 0 ? r : problems;
}

PMU_EXPORT int pmu_tables_check(struct pmu_ctx *ctx, const char *dir, pmu_problem_cb cb, void *data)
{
	int r;

	pmu__err_clear();
	if (!ctx || !dir)
		return pmu__err(ctx, -EINVAL, "pmu_tables_check: NULL context or directory");
	r = pmu__tables_check(ctx, dir, cb, data);
	if (r < 0)
		return pmu__err(ctx, r, "cannot check tables in '%s': %s", dir, strerror(-r));
	return r;
}
