/* SPDX-License-Identifier: MIT */
/*
 * Metrics: evaluating MetricExpr (a table's metric or an expression typed by
 * the user) over counted values. A name in an expression is looked up as
 *   1. a value of that name (case-insensitive),
 *   2. a metric of the tables (evaluated recursively, each metric once per
 *      evaluation and way its #constants resolve: see struct kept; cycles,
 *      chains deeper than PMU_METRIC_MAX_DEPTH or PMU_METRIC_MAX_NEST, and
 *      more than METRIC_MAX_STEPS steps are errors),
 *   3. a value whose event has the same encoding (so INST.RET is satisfied
 *      by a counted "instructions" where INST.RET maps to it),
 * and #constants come from pmu_ctx_set_param(), the metric's MetricParams,
 * or the machine (smt_on, num_cpus, ...: read by constants.c).
 *
 * perf's functions that ask the machine, answered from this context's
 * machine (its sysfs PMUs and the tables): has_event(X) is 1 when a value
 * named X was given (X was counted) or X is an event of this machine (it
 * resolves and its PMU is here; a table event of an uncore Unit when at least
 * one box of that PMU is here), else 0; source_count(X) is the number of PMUs
 * that count X here: every box of an uncore PMU (uncore_cha_0, uncore_cha_1,
 * ...) for a table event of that Unit, 1 for any other event, and a value the
 * metric lacks (-ENOENT) when X is not an event of this machine. The events
 * a metric needs (pmu_metric_events) leave out the branch of an 'if' whose
 * has_event() condition is false here, as perf counts only the other.
 *
 * Hybrid CPUs: perf's tables define some metrics (and events) once per core
 * PMU ("Unit": "cpu_core" / "cpu_atom"). A metric's references are resolved
 * among the definitions of its own PMU, as perf's metricgroup.c does; its
 * event names are spelled as an event list names them ("cpu_core@X@" is
 * "cpu_core/X/", as perf turns it); "PMU/NAME/" selects one definition, and a
 * bare NAME is evaluated with the definition whose values were given.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>
#include "pmu.h"
#include "metric.h"
#include "common.h"
#include "constants.h"
#include "context.h"
#include "cpu.h"
#include "error.h"
#include "expr.h"
#include "generic.h"
#include "modifiers.h"
#include "papi.h"
#include "resolve.h"
#include "sysfs.h"
#include "tables.h"

/* ---------------------------------------------------------------- */
/* chains of entries, and maps keyed by them                         */
/* ---------------------------------------------------------------- */

char *pmu__chain_text(const struct pmu_tentry *const *v, size_t n)
{
	enum { KEEP = 3 }; /* names kept at each end of a long chain */
	const bool elide = n > 2 * KEEP + 2;
	size_t len = 64, o = 0;
	char *s;

	for (size_t i = 0; i < n; i++)
		if (!elide || i < KEEP || i >= n - KEEP)
			len += strlen(v[i]->name) + 4;
	if (!(s = malloc(len)))
		return NULL;
	s[0] = 0;
	for (size_t i = 0; i < n; i++) {
		if (elide && i == KEEP) {
			o += (size_t)snprintf(s + o, len - o, " -> ... (%zu more) ...", n - 2 * KEEP);
			i = n - KEEP - 1;
			continue;
		}
		o += (size_t)snprintf(s + o, len - o, "%s%s", i ? " -> " : "", v[i]->name);
	}
	return s;
}

static size_t pmap_slot(const struct pmu_pmap *m, const void *key)
{
	uint64_t h = (uint64_t)(uintptr_t)key * 0x9e3779b97f4a7c15ull;
	size_t i = (size_t)(h >> 32) & (m->cap - 1);

	while (m->keys[i] && m->keys[i] != key)
		i = (i + 1) & (m->cap - 1);
	return i;
}

int pmu__pmap_put(struct pmu_pmap *m, const void *key, double v)
{
	size_t i;

	if ((m->n + 1) * 2 > m->cap) {
		struct pmu_pmap g = { NULL, NULL, m->cap ? m->cap * 2 : 16, 0 };
		g.keys = calloc(g.cap, sizeof(*g.keys));
		g.vals = malloc(g.cap * sizeof(*g.vals));
		if (!g.keys || !g.vals) {
			free(g.keys);
			free(g.vals);
			return -ENOMEM;
		}
		for (size_t k = 0; k < m->cap; k++)
			if (m->keys[k]) {
				i = pmap_slot(&g, m->keys[k]);
				g.keys[i] = m->keys[k];
				g.vals[i] = m->vals[k];
			}
		g.n = m->n;
		pmu__pmap_free(m);
		*m = g;
	}
	i = pmap_slot(m, key);
	if (!m->keys[i]) {
		m->keys[i] = key;
		m->n++;
	}
	m->vals[i] = v;
	return 0;
}

bool pmu__pmap_get(const struct pmu_pmap *m, const void *key, double *v)
{
	size_t i;

	if (!m->cap)
		return false;
	i = pmap_slot(m, key);
	if (!m->keys[i])
		return false;
	if (v)
		*v = m->vals[i];
	return true;
}

void pmu__pmap_free(struct pmu_pmap *m)
{
	free(m->keys);
	free(m->vals);
	memset(m, 0, sizeof(*m));
}


/* A metric evaluation stops after this many steps (a table metric evaluated, or the kept values
 * of one compared with where it is used again): each metric is evaluated once per set of
 * #constants from MetricParams it sees (see struct kept), which a table can make grow
 * exponentially with metrics whose MetricParams differ along every path. perf's tables need one
 * evaluation per metric, a few hundred at most. */
#define METRIC_MAX_STEPS 65536

/* A #constant looked up while a metric was evaluated that neither its MetricParams nor those of the
 * metrics it uses gave: its value depends on where the metric is used. */
struct dep {
	size_t name;     /* index in eval.cname */
	int level;       /* the stack level whose MetricParams gave it; -1: none (then the context's or the
			  * machine's, the same wherever the metric is used) */
	double value;    /* the value given at @level (0 for -1) */
};

/* The #constants (names) a value of a metric depended on: the values kept for one shape differ in
 * how those names resolve (struct kept). One per metric unless an 'if' took other names. */
struct shape {
	size_t name0, nnames;        /* in eval.snames */
	size_t next;                 /* the next shape of the same metric + 1; 0: none */
};

/* A value of a metric kept for reuse where the names of its shape resolve as they did (found on the
 * stack or not, same value): a metric using #p evaluated under a top metric's "p=3" is reused by
 * every other metric under that top, and evaluated again under another metric's "p=5". */
struct kept {
	size_t shape;
	uint64_t sig;                /* hash of the resolutions */
	size_t res0;                 /* the resolutions (level -1 or 0: not found or found), in eval.res */
	double value;
};

struct eval {
	struct pmu_ctx *ctx;
	/* "PMU/NAME/" of a core PMU, NAME no PMU's own metric, on a machine of several core PMUs: the
	 * values of names counted on each core PMU are that PMU's parts only (see metric_defs()) */
	const char *only;
	const struct pmu_named_value *vals;
	size_t n;
	struct pmu_event_info *val_info; /* resolved encodings of vals, lazily */
	signed char *val_ok;             /* 1 resolved, 0 not, -1 not tried */
	/* what is being evaluated: metrics, and at the bottom the expression (NULL) of a user's
	 * expression or a threshold */
	const struct pmu_tentry *stack[PMU_METRIC_MAX_DEPTH + 1];
	int depth;
	int nmetrics;                    /* metrics on the stack */
	int nest;                        /* the heights of their expressions, added */
	long steps;                      /* see METRIC_MAX_STEPS */
	const struct pmu_tentry *base;   /* metric whose MetricParams apply to a threshold */
	/* Values of the metrics evaluated so far (a metric used by several is evaluated once for
	 * each way the #constants it depends on resolve): memo maps a metric to its first shape + 1;
	 * khash holds the kept values (index + 1) by shape and sig. */
	struct pmu_pmap memo;
	struct shape *shape;
	size_t nshape, shape_cap;
	size_t *snames;
	size_t nsnames, snames_cap;
	struct kept *kept;
	size_t nkept, kept_cap;
	struct dep *res;                 /* resolutions of kept values, and scratch for one site */
	size_t nres, res_cap;
	size_t *khash;
	size_t khash_cap;
	/* The #constant lookups of the metrics being evaluated, innermost last: a metric that returns
	 * leaves those it did not give itself, once per name */
	struct dep *live;
	size_t nlive, live_cap;
	/* the names of #constants looked up (any case), each once: a hash of indexes + 1 */
	char **cname;
	unsigned *cstamp;                /* per name: the last frame that kept it (frame_deps) */
	size_t ncname, cname_cap, cstamp_cap;
	size_t *cslot;
	size_t cslots;
	unsigned stamp;
	char missing[768];
	int nmissing;
	double mc_val[MC_N];             /* machine constants read so far (mc_state 1; -1 not told) */
	signed char mc_state[MC_N];
	int err;
	char *errmsg;                    /* the sentence for err, allocated */
};

static void eval_fail(struct eval *ev, int err, const char *fmt, ...) PMU_PRINTF(3, 4);
static void eval_fail(struct eval *ev, int err, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	free(ev->errmsg);
	if (n >= 0 && (ev->errmsg = malloc((size_t)n + 1))) {
		va_start(ap, fmt);
		vsnprintf(ev->errmsg, (size_t)n + 1, fmt, ap);
		va_end(ap);
	}
	ev->err = err;
}

/* A problem naming the metrics on the stack from level @from, then @last: "A -> B -> C". */
static void eval_fail_chain(struct eval *ev, int err, const char *what, int from, const struct pmu_tentry *last)
{
	const struct pmu_tentry *v[PMU_METRIC_MAX_DEPTH + 2];
	size_t n = 0;
	char *text;

	for (int d = from; d < ev->depth; d++)
		if (ev->stack[d])
			v[n++] = ev->stack[d];
	v[n++] = last;
	text = pmu__chain_text(v, n);
	eval_fail(ev, err, "%s: %s", what, text ? text : last->name);
	free(text);
}

/* Machine constants perf's metrics use (any case: perf's tables write #SMT_on), each read once per
 * evaluation. Returns 0, -ENOENT, or -ENOMEM. */
static int machine_const(struct eval *ev, const char *name, double *out)
{
	int i = pmu__mc_index(name), r;
	char origin[512];

	if (i < 0)
		return -ENOENT;
	if (ev->mc_state[i] == 0) {
		r = pmu__mc_read(ev->ctx, i, &ev->mc_val[i], origin, sizeof(origin));
		if (r == -ENOMEM)
			return r;
		ev->mc_state[i] = r == 0 ? 1 : -1;
	}
	*out = ev->mc_val[i];
	return ev->mc_state[i] > 0 ? 0 : -ENOENT;
}

static int param_default(const struct pmu_tentry *m, const char *name, double *out)
{
	size_t l = strlen(name);

	for (const char *p = m && m->params ? m->params : ""; *p;) {
		while (*p == ',' || isspace((unsigned char)*p))
			p++;
		if (!strncasecmp(p, name, l) && p[l] == '=') {
			char *end;
			double v = strtod(p + l + 1, &end);
			if (end != p + l + 1) {
				*out = v;
				return 0;
			}
		}
		p = strchr(p, ',') ? strchr(p, ',') : p + strlen(p);
	}
	return -ENOENT;
}

static size_t name_hash(const char *s, size_t l)
{
	size_t h = 5381;

	for (size_t i = 0; i < l; i++)
		h = h * 33 + (size_t)tolower((unsigned char)s[i]);
	return h;
}

/* Make room for @need items of @size in *@v (capacity *@cap). Returns 0 or -ENOMEM. */
static int grow(void *v, size_t *cap, size_t need, size_t size)
{
	void **p = v, *n;
	size_t c = *cap ? *cap : 16;

	/* need 0 still allocates once: callers take pointers into the array (NULL + 0 is undefined) */
	if (need <= *cap && *p)
		return 0;
	while (c < need)
		c *= 2;
	if (!(n = realloc(*p, c * size)))
		return -ENOMEM;
	*p = n;
	*cap = c;
	return 0;
}

/* The index of #constant @name in ev->cname (added if new). Returns it, or -ENOMEM. */
static long cname_index(struct eval *ev, const char *name)
{
	size_t l = strlen(name), i;

	if ((ev->ncname + 1) * 2 > ev->cslots) {
		size_t ns = ev->cslots ? ev->cslots * 2 : 64, *slot = calloc(ns, sizeof(*slot));
		if (!slot)
			return -ENOMEM;
		for (size_t k = 0; k < ev->ncname; k++) {
			for (i = name_hash(ev->cname[k], strlen(ev->cname[k])) & (ns - 1); slot[i]; i = (i + 1) & (ns - 1))
				;
			slot[i] = k + 1;
		}
		free(ev->cslot);
		ev->cslot = slot;
		ev->cslots = ns;
	}
	for (i = name_hash(name, l) & (ev->cslots - 1); ev->cslot[i]; i = (i + 1) & (ev->cslots - 1))
		if (!strcasecmp(ev->cname[ev->cslot[i] - 1], name))
			return (long)ev->cslot[i] - 1;
	if (grow(&ev->cname, &ev->cname_cap, ev->ncname + 1, sizeof(*ev->cname)) < 0 ||
	    grow(&ev->cstamp, &ev->cstamp_cap, ev->ncname + 1, sizeof(*ev->cstamp)) < 0 ||
	    !(ev->cname[ev->ncname] = strdup(name)))
		return -ENOMEM;
	ev->cstamp[ev->ncname] = 0;
	ev->cslot[i] = ev->ncname + 1;
	return (long)ev->ncname++;
}

/* The MetricParams default of #@name for an expression evaluated above stack level @depth: the
 * innermost metric's that gives one. Returns the level of that metric, or -1. */
static int stack_param(const struct eval *ev, int depth, const char *name, double *out)
{
	for (int d = depth - 1; d >= 0; d--)
		if (param_default(ev->stack[d], name, out) == 0)
			return d;
	return -1;
}

/* Note that #@name was looked up on the stack and found at @level (-1: not found) with @value. */
static int note_dep(struct eval *ev, const char *name, int level, double value)
{
	long k = cname_index(ev, name);

	if (k < 0 || grow(&ev->live, &ev->live_cap, ev->nlive + 1, sizeof(*ev->live)) < 0)
		return -ENOMEM;
	ev->live[ev->nlive].name = (size_t)k;
	ev->live[ev->nlive].level = level;
	ev->live[ev->nlive++].value = level < 0 ? 0 : value;
	return 0;
}

/* A metric evaluated at stack level @level, whose lookups are ev->live from @from, returns: keep those
 * it did not give itself, once per name (two lookups of one name that got past it resolved alike). */
static void frame_deps(struct eval *ev, size_t from, int level)
{
	size_t o = from;

	ev->stamp++;
	for (size_t i = from; i < ev->nlive; i++) {
		struct dep d = ev->live[i];
		if (d.level >= level || ev->cstamp[d.name] == ev->stamp)
			continue;
		ev->cstamp[d.name] = ev->stamp;
		ev->live[o++] = d;
	}
	ev->nlive = o;
}

static uint64_t sig_of(const struct dep *r, size_t n)
{
	uint64_t h = 1469598103934665603u;

	for (size_t i = 0; i < n; i++) {
		uint64_t bits;
		memcpy(&bits, &r[i].value, sizeof(bits));
		h = (h ^ (uint64_t)(r[i].level >= 0)) * 1099511628211u;
		h = (h ^ bits) * 1099511628211u;
	}
	return h;
}

static size_t khash_slot(const struct eval *ev, size_t shape, uint64_t sig)
{
	return (size_t)((sig ^ (shape * 0x9e3779b97f4a7c15u)) & (ev->khash_cap - 1));
}

/* Whether resolutions @a and @b (of one shape, @n names) are alike: found at some level or not, the
 * same value (bit for bit). */
static bool same_res(const struct dep *a, const struct dep *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if ((a[i].level < 0) != (b[i].level < 0) || memcmp(&a[i].value, &b[i].value, sizeof(a[i].value)))
			return false;
	return true;
}

/* @n steps more (METRIC_MAX_STEPS) on the way to metric @m: 0, or -ELOOP past the bound. */
static int step(struct eval *ev, const struct pmu_tentry *m, long n)
{
	char what[200];

	if ((ev->steps += n) <= METRIC_MAX_STEPS)
		return 0;
	snprintf(what, sizeof(what), "evaluation stopped after %d steps (a metric is evaluated again for each set "
		 "of MetricParams defaults it sees, and this table's metrics see too many)", METRIC_MAX_STEPS);
	eval_fail_chain(ev, -ELOOP, what, 0, m);
	return -ELOOP;
}

/* A kept value of metric @m that holds where it is used now (at level ev->depth): 1 and *out set (its
 * deps become lookups of the metric using it), 0 none, or a negative errno. */
static int reuse(struct eval *ev, const struct pmu_tentry *m, double *out)
{
	double first;

	if (!pmu__pmap_get(&ev->memo, m, &first))
		return 0;
	for (size_t s = (size_t)first; s; s = ev->shape[s - 1].next) {
		const struct shape *sh = &ev->shape[s - 1];
		struct dep *site;
		uint64_t sig;
		int r;
		if ((r = step(ev, m, 1 + (long)sh->nnames)) < 0)
			return r;
		/* how the shape's names resolve here, after the kept resolutions */
		if (grow(&ev->res, &ev->res_cap, ev->nres + sh->nnames, sizeof(*ev->res)) < 0)
			return -ENOMEM;
		site = ev->res + ev->nres;
		for (size_t i = 0; i < sh->nnames; i++) {
			site[i].name = ev->snames[sh->name0 + i];
			site[i].value = 0;
			site[i].level = stack_param(ev, ev->depth, ev->cname[site[i].name], &site[i].value);
			if (site[i].level < 0)
				site[i].value = 0;
		}
		sig = sig_of(site, sh->nnames);
		for (size_t i = khash_slot(ev, s - 1, sig); ev->khash[i]; i = (i + 1) & (ev->khash_cap - 1)) {
			const struct kept *kv = &ev->kept[ev->khash[i] - 1];
			if (kv->shape != s - 1 || kv->sig != sig || !same_res(ev->res + kv->res0, site, sh->nnames))
				continue;
			*out = kv->value;
			for (size_t k = 0; k < sh->nnames; k++) {
				if (grow(&ev->live, &ev->live_cap, ev->nlive + 1, sizeof(*ev->live)) < 0)
					return -ENOMEM;
				ev->live[ev->nlive++] = ev->res[ev->nres + k]; /* site: ev->res may have moved */
			}
			return 1;
		}
	}
	return 0;
}

/* Keep @value of metric @m, which depends on the lookups ev->live from @from. Returns 0 or -ENOMEM. */
static int keep(struct eval *ev, const struct pmu_tentry *m, size_t from, double value)
{
	const struct dep *d = ev->live ? ev->live + from : NULL; /* NULL: nothing was looked up yet (nd 0) */
	size_t nd = ev->nlive - from, s, i;
	double first = 0;
	struct kept *kv;

	/* its shape: the metric's with these names, or a new one */
	pmu__pmap_get(&ev->memo, m, &first);
	for (s = (size_t)first; s; s = ev->shape[s - 1].next) {
		const struct shape *sh = &ev->shape[s - 1];
		for (i = 0; sh->nnames == nd && i < nd && ev->snames[sh->name0 + i] == d[i].name; i++)
			;
		if (sh->nnames == nd && i == nd)
			break;
	}
	if (!s) {
		struct shape *sh;
		if (grow(&ev->shape, &ev->shape_cap, ev->nshape + 1, sizeof(*ev->shape)) < 0 ||
		    grow(&ev->snames, &ev->snames_cap, ev->nsnames + nd, sizeof(*ev->snames)) < 0 ||
		    pmu__pmap_put(&ev->memo, m, (double)(ev->nshape + 1)) < 0)
			return -ENOMEM;
		sh = &ev->shape[ev->nshape++];
		sh->name0 = ev->nsnames;
		sh->nnames = nd;
		sh->next = (size_t)first;
		for (i = 0; i < nd; i++)
			ev->snames[ev->nsnames++] = d[i].name;
		s = ev->nshape;
	}
	/* the value, by shape and resolutions */
	if ((ev->nkept + 1) * 2 > ev->khash_cap) {
		size_t nc = ev->khash_cap ? ev->khash_cap * 2 : 64, *h = calloc(nc, sizeof(*h));
		if (!h)
			return -ENOMEM;
		free(ev->khash);
		ev->khash = h;
		ev->khash_cap = nc;
		for (size_t k = 0; k < ev->nkept; k++) {
			for (i = khash_slot(ev, ev->kept[k].shape, ev->kept[k].sig); h[i]; i = (i + 1) & (nc - 1))
				;
			h[i] = k + 1;
		}
	}
	if (grow(&ev->kept, &ev->kept_cap, ev->nkept + 1, sizeof(*ev->kept)) < 0 ||
	    grow(&ev->res, &ev->res_cap, ev->nres + nd, sizeof(*ev->res)) < 0)
		return -ENOMEM;
	kv = &ev->kept[ev->nkept];
	kv->shape = s - 1;
	kv->res0 = ev->nres;
	kv->value = value;
	if (nd)
		memcpy(ev->res + ev->nres, d, nd * sizeof(*ev->res));
	ev->nres += nd;
	kv->sig = sig_of(ev->res + kv->res0, nd);
	for (i = khash_slot(ev, kv->shape, kv->sig); ev->khash[i]; i = (i + 1) & (ev->khash_cap - 1))
		;
	ev->khash[i] = ++ev->nkept;
	return 0;
}

/* Note a value the evaluation lacks: @name as a variable, "#name" for a #constant, "source_count(name)". */
static void note_missing(struct eval *ev, const char *name, int kind)
{
	size_t o = strlen(ev->missing);
	char item[PMU_NAME_MAX + 16];

	snprintf(item, sizeof(item), kind == PMU_NAME_CONST ? "#%s" : kind == PMU_NAME_SOURCE_COUNT ?
		 "source_count(%s)" : "%s", name);
	/* once per name */
	for (const char *p = ev->missing; (p = strstr(p, item)); p++)
		if ((p == ev->missing || p[-1] == ' ') && (p[strlen(item)] == ',' || !p[strlen(item)]))
			return;
	snprintf(ev->missing + o, sizeof(ev->missing) - o, "%s%s", o ? ", " : "", item);
	ev->nmissing++;
}

static bool same_encoding(const struct pmu_event_info *a, const struct pmu_event_info *b)
{
	return a->type == b->type && a->config == b->config && a->config1 == b->config1 && a->config2 == b->config2;
}

static int eval_metric(struct eval *ev, const struct pmu_tentry *m, const char *expr, double *out);

/* The PMU whose definitions the names of the metric being evaluated refer to:
 * the Unit of the innermost table metric, NULL in a user's expression. */
static const char *cur_pmu(const struct eval *ev)
{
	for (int d = ev->depth - 1; d >= 0; d--)
		if (ev->stack[d])
			return ev->stack[d]->unit;
	return ev->base ? ev->base->unit : NULL;
}

/* The table metric @name within PMU @pmu (see pmu__tables_find_pmu), or NULL. */
static const struct pmu_tentry *metric_on(struct pmu_ctx *ctx, const char *name, const char *pmu)
{
	const struct pmu_tentry *e = pmu__tables_load(ctx) == 0 ? pmu__tables_find_pmu(ctx, name, pmu, PMU_TC_METRIC)
								 : NULL;

	if (!e && !pmu)
		return pmu__papi_metric(ctx, name); /* a derived PAPI preset (papi.c) */
	return e && e->kind == PMU_T_METRIC ? e : NULL;
}

/*
 * The event a name in a metric of PMU @pmu stands for, spelled as an event
 * list names it: perf's "PMU@EVENT@" is "PMU/EVENT/" (perf's metricgroup.c
 * turns it so); named bare in a metric of core PMU P, a table event defined
 * once per PMU, or a generic event on a CPU with several core PMUs, is
 * "P/EVENT/" (perf counts P's only). Returns @name itself when it is
 * spelled as it is.
 */
static const char *event_spelling(const struct pmu_ctx *ctx, const char *name, const char *pmu, char *out,
				  size_t len)
{
	const char *at = strchr(name, '@'), *end = strrchr(name, '@');
	struct pmu_generic g;
	size_t n;

	if (at && at > name && end > at + 1) {
		snprintf(out, len, "%.*s/%.*s/%s", (int)(at - name), name, (int)(end - at - 1), at + 1, end + 1);
		return out;
	}
	if (pmu && *pmu && !at &&
	    ((pmu__tables_find_all(ctx, name, PMU_TC_EVENT, &n) && n > 1) ||
	     (pmu__n_core_pmus(ctx) > 1 && pmu__generic_lookup(name, &g) == 0 &&
	      (g.type == PERF_TYPE_HARDWARE || g.type == PERF_TYPE_HW_CACHE)))) {
		snprintf(out, len, "%s/%s/", pmu, name);
		return out;
	}
	return name;
}

/*
 * Hybrid CPUs: a set counts a generic event once per core type
 * ("cpu_core/cycles/", "cpu_atom/cycles/", maybe with ":u" or "u" after the
 * slash). A metric naming "cycles" gets the sum of the parts, or with @only
 * the part of core PMU @only. Only core PMUs: an uncore PMU's "cycles" is
 * another clock. Returns the number of parts added into *out; *any: @name has
 * parts (on any core PMU).
 */
static size_t sum_parts(const struct eval *ev, const char *name, const char *only, bool *any, double *out)
{
	size_t len = strlen(name), n = 0;
	double sum = 0;

	*any = false;
	for (size_t i = 0; i < ev->n; i++) {
		const char *v = ev->vals[i].name, *slash = strchr(v, '/');
		const struct pmu_dev *d;
		char pmu[64];
		if (!slash || (size_t)(slash - v) >= sizeof(pmu) || strncasecmp(slash + 1, name, len) ||
		    slash[1 + len] != '/' || pmu__mode_base(v) != (size_t)(slash + 2 + len - v))
			continue;
		memcpy(pmu, v, (size_t)(slash - v));
		pmu[slash - v] = 0;
		/* a core PMU here, or (counts from another machine) one named like a core PMU */
		d = pmu__pmu_by_name(ev->ctx, pmu);
		if (d ? !d->is_core : strncmp(pmu, "cpu", 3) && strncmp(pmu, "armv8_", 6))
			continue;
		*any = true;
		if (only && strcmp(pmu, only))
			continue;
		sum += ev->vals[i].value;
		n++;
	}
	if (n)
		*out = sum;
	return n;
}

/*
 * perf's has_event() and source_count(), from what this context knows of its machine: the number of
 * PMUs that count event @name (spelled in a metric of PMU @pmu, see event_spelling()). A table event
 * whose Unit is an uncore PMU with several instances here (uncore_cha_0, uncore_cha_1, ...: see
 * pmu__tables_unit_pmus()) counts on each of them, and so does a sysfs name of such a unit
 * (uncore_cha/event=0x0/, counted on every box: PMU_EVF_BOXES); another event that resolves (tables, sysfs,
 * kernel generic events) counts on one, when its PMU is on this machine (a core PMU for raw and
 * generic hardware events). 0: not an event of this machine. A negative errno: out of memory.
 */
static int event_sources(struct pmu_ctx *ctx, const char *name, const char *pmu)
{
	struct pmu_event_info info;
	const struct pmu_tentry *e;
	char buf[PMU_NAME_MAX * 2];
	const char *spelled = event_spelling(ctx, name, pmu, buf, sizeof(buf));
	bool was = pmu__err_is_quiet();
	int r;

	if ((r = pmu__tables_load(ctx)) < 0)
		return r;
	if (!strpbrk(spelled, "/:") && (e = pmu__tables_find_pmu(ctx, spelled, pmu, PMU_TC_EVENT)) &&
	    e->kind == PMU_T_NATIVE && e->unit && !pmu__tables_core_unit(e->unit))
		return (int)pmu__tables_unit_pmus(ctx, e->unit, NULL);
	r = pmu__resolve_quiet(ctx, spelled, &info);
	if (!was)
		pmu__err_clear();
	if (r == -ENOMEM)
		return pmu__err(ctx, r, "out of memory resolving '%s'", spelled);
	if (r < 0)
		return 0;
	if (info.type == PERF_TYPE_SOFTWARE || (info.flags & PMU_EVF_SOFTWARE))
		return 1;
	if (info.flags & PMU_EVF_BOXES) /* uncore_imc/.../, imc/.../: on each box of the unit */
		return (int)info.boxes;
	if (info.type == PERF_TYPE_RAW || info.type == PERF_TYPE_HARDWARE || info.type == PERF_TYPE_HW_CACHE)
		return pmu__uncountable(ctx, &info) == NULL;
	return pmu__pmu_by_type(ctx, info.type) != NULL;
}

static int lookup(const char *name, int is_const, void *data, double *out)
{
	struct eval *ev = data;
	const struct pmu_tentry *e;
	char buf[PMU_NAME_MAX * 2];
	const char *spelled;
	int r, level;

	if (is_const == PMU_NAME_CPUID) {
		r = pmu__tables_cpuid_matches(ev->ctx, name);
		if (r == -EINVAL) {
			eval_fail(ev, -EINVAL, "strcmp_cpuid_str(%s): not a CPU id (%s) this CPU can be compared with", name,
				  ev->ctx->cpu.arch == PMU_ARCH_ARM64 ? "a MIDR, 0x410fd490" : "a mapfile CPU pattern");
			return -EINVAL;
		}
		if (r < 0)
			return r;
		*out = r;
		return 0;
	}
	if (is_const == PMU_NAME_HAS_EVENT || is_const == PMU_NAME_SOURCE_COUNT) {
		int n;
		/* has_event(): an event whose value was given was counted */
		spelled = event_spelling(ev->ctx, name, cur_pmu(ev), buf, sizeof(buf));
		for (size_t i = 0; is_const == PMU_NAME_HAS_EVENT && i < ev->n; i++)
			if (!strcasecmp(ev->vals[i].name, name) || !strcasecmp(ev->vals[i].name, spelled)) {
				*out = 1;
				return 0;
			}
		if ((n = event_sources(ev->ctx, name, cur_pmu(ev))) < 0)
			return n;
		*out = is_const == PMU_NAME_HAS_EVENT ? n > 0 : n;
		if (is_const == PMU_NAME_SOURCE_COUNT && n == 0) {
			note_missing(ev, name, PMU_NAME_SOURCE_COUNT);
			*out = NAN;
		}
		return 0;
	}
	if (is_const) {
		for (size_t i = 0; i < ev->ctx->nparams; i++)
			if (!strcasecmp(ev->ctx->params[i].name, name)) {
				*out = ev->ctx->params[i].value;
				return 0;
			}
		level = stack_param(ev, ev->depth, name, out);
		ev->steps++; /* a walk down the stack: counted, and the bound checked with the next metric */
		if (note_dep(ev, name, level, level >= 0 ? *out : 0) < 0) {
			eval_fail(ev, -ENOMEM, "out of memory");
			return -ENOMEM;
		}
		if (level >= 0 || param_default(ev->base, name, out) == 0)
			return 0;
		if ((r = machine_const(ev, name, out)) == 0)
			return 0;
		if (r == -ENOMEM)
			return r;
		note_missing(ev, name, PMU_NAME_CONST);
		*out = NAN;
		return 0;
	}
	if (ev->only) {
		/* one core type's value: its part; a name with parts on the other core types only has none */
		bool any;
		if (sum_parts(ev, name, ev->only, &any, out))
			return 0;
		if (any) {
			note_missing(ev, name, PMU_NAME_VAR);
			*out = NAN;
			return 0;
		}
	}
	spelled = event_spelling(ev->ctx, name, cur_pmu(ev), buf, sizeof(buf));
	for (size_t i = 0; i < ev->n; i++)
		if (!strcasecmp(ev->vals[i].name, name) || !strcasecmp(ev->vals[i].name, spelled)) {
			*out = ev->vals[i].value;
			return 0;
		}
	{
		bool any;
		if (sum_parts(ev, name, NULL, &any, out))
			return 0;
	}
	if ((e = metric_on(ev->ctx, name, cur_pmu(ev)))) {
		size_t from = ev->nlive;
		r = reuse(ev, e, out);
		if (r == 0 && (r = eval_metric(ev, e, e->expr, out)) == 0)
			r = keep(ev, e, from, *out);
		if (r == -ENOMEM)
			eval_fail(ev, -ENOMEM, "out of memory");
		return r < 0 ? r : 0;
	}
	/* match by encoding */
	{
		struct pmu_event_info want;
		r = pmu__resolve_quiet(ev->ctx, spelled, &want);
		for (size_t i = 0; r == 0 && i < ev->n; i++) {
			if (ev->val_ok[i] < 0)
				ev->val_ok[i] = pmu__resolve_quiet(ev->ctx, ev->vals[i].name, &ev->val_info[i]) == 0;
			if (ev->val_ok[i] && same_encoding(&want, &ev->val_info[i])) {
				*out = ev->vals[i].value;
				return 0;
			}
		}
		pmu__err_clear();
	}
	note_missing(ev, name, PMU_NAME_VAR);
	*out = NAN;
	return 0;
}

static int eval_metric(struct eval *ev, const struct pmu_tentry *m, const char *expr, double *out)
{
	char err[160];
	const char *bad = NULL;
	struct pmu_expr *ex;
	int r, level = ev->depth;
	size_t from = ev->nlive;

	for (int d = 0; m && d < ev->depth; d++)
		if (ev->stack[d] == m) {
			eval_fail_chain(ev, -ELOOP, "metrics refer to each other in a cycle", d, m);
			return -ELOOP;
		}
	if (m && ev->nmetrics == PMU_METRIC_MAX_DEPTH) {
		char what[128];
		snprintf(what, sizeof(what), "metrics nest deeper than the %d levels evaluation follows",
			 PMU_METRIC_MAX_DEPTH);
		eval_fail_chain(ev, -ELOOP, what, 0, m);
		return -ELOOP;
	}
	if (m && (r = step(ev, m, 1)) < 0)
		return r;
	ex = pmu__expr_parse(expr, err, sizeof(err));
	if (!ex && errno == ENOMEM) {
		eval_fail(ev, -ENOMEM, "out of memory parsing %s", m ? m->name : expr);
		return -ENOMEM;
	}
	if (!ex) {
		eval_fail(ev, -EINVAL, "%s '%s' does not parse: %s", m ? "metric" : "expression", m ? m->name : expr, err);
		return -EINVAL;
	}
	if (m && ev->nest + ex->height > PMU_METRIC_MAX_NEST) {
		char what[160];
		snprintf(what, sizeof(what), "the expressions of metrics that use each other nest more than the %d "
			 "levels evaluation follows (their heights added)", PMU_METRIC_MAX_NEST);
		eval_fail_chain(ev, -ELOOP, what, 0, m);
		pmu__expr_free(ex);
		return -ELOOP;
	}
	ev->stack[ev->depth++] = m;
	ev->nmetrics += m != NULL;
	ev->nest += m ? ex->height : 0;
	r = pmu__expr_eval(ex, lookup, ev, out, &bad);
	/* what its value depends on: the #constants it did not give itself */
	frame_deps(ev, from, level);
	ev->nmetrics -= m != NULL;
	ev->nest -= m ? ex->height : 0;
	ev->depth--;
	pmu__expr_free(ex);
	return r;
}

/* Where a metric named "PMU/NAME/" is evaluated (metric_defs()). */
struct mscope {
	struct pmu_ctx *ctx;    /* the context whose tables hold the definition */
	const char *only;       /* a core PMU whose parts alone are the values of names counted on each */
};

/*
 * The table metric @what names: "NAME", or "PMU/NAME/" for the definition of
 * one PMU. Sets *one to it (NULL: not a table metric, an expression), or,
 * when a bare NAME is defined once per PMU, *defs and *nd to those
 * definitions. Returns 0, or -ENOENT for a PMU/NAME/ that names no metric.
 * On a machine of several core PMUs, "PMU/NAME/" of a core PMU whose tables
 * give NAME no definition of that PMU's own (a metric without a Unit: arm64's
 * tables, libpmu's standard metrics) is NAME as that core type's tables
 * define it (pmu__core_ctx()), over that core type's parts only: @scope (if
 * not NULL) gets that context and the PMU; else @ctx and NULL.
 */
static int metric_defs(struct pmu_ctx *ctx, const char *what, const struct pmu_tentry **one,
		       const struct pmu_tname **defs, size_t *nd, struct mscope *scope)
{
	const char *s1 = strchr(what, '/');
	size_t l = strlen(what);
	struct mscope sc = { ctx, NULL };
	int r;

	*one = NULL;
	*defs = NULL;
	*nd = 0;
	if (scope)
		*scope = sc;
	if ((r = pmu__tables_load(ctx)) < 0)
		return r; /* the load's error, not 'no such metric' */
	if (s1 && s1 > what && l >= 4 && what[l - 1] == '/' && s1 < what + l - 2 &&
	    !memchr(s1 + 1, '/', (size_t)(what + l - 2 - s1))) {
		char pmu[64], name[PMU_NAME_MAX];
		if ((size_t)(s1 - what) < sizeof(pmu) && (size_t)(what + l - 2 - s1) < sizeof(name)) {
			const struct pmu_dev *d;
			snprintf(pmu, sizeof(pmu), "%.*s", (int)(s1 - what), what);
			snprintf(name, sizeof(name), "%.*s", (int)(what + l - 2 - s1), s1 + 1);
			if ((*one = metric_on(ctx, name, pmu)) && !(*one)->unit && pmu__n_core_pmus(ctx) > 1 &&
			    (d = pmu__pmu_by_name(ctx, pmu)) && d->is_core) {
				const struct pmu_tentry *own;
				struct pmu_ctx *cc = pmu__core_ctx(ctx, d);
				if (cc && cc != ctx && pmu__tables_load(cc) == 0 && (own = metric_on(cc, name, pmu))) {
					*one = own;
					sc.ctx = cc;
				}
				sc.only = d->name;
				if (scope)
					*scope = sc;
			}
			if (*one)
				return 0;
		}
		return pmu__err(ctx, -ENOENT, "no metric '%.*s' for PMU '%.*s' ('pmu list' shows the metrics)",
				(int)(what + l - 2 - s1), s1 + 1, (int)(s1 - what), what);
	}
	*defs = pmu__tables_find_all(ctx, what, PMU_TC_METRIC, nd);
	if (!*defs && (*defs = pmu__papi_tname(ctx, what))) /* a derived PAPI preset (papi.c) */
		*nd = 1;
	if (!*defs || (*defs)->ent->kind != PMU_T_METRIC) {
		*defs = NULL;
		*nd = 0;
	} else if (*nd == 1) {
		*one = (*defs)->ent;
	}
	return 0;
}

/* "cpu_core/NAME/ or cpu_atom/NAME/": the spellings of a metric's definitions */
static const char *spellings(const struct pmu_tname *defs, size_t nd, char *buf, size_t len)
{
	size_t o = 0;

	buf[0] = 0;
	for (size_t i = 0; i < nd && o < len; i++)
		o += (size_t)snprintf(buf + o, len - o, "%s%s/%s/", i ? " or " : "",
				      defs[i].ent->unit ? defs[i].ent->unit : "cpu", defs[i].ent->name);
	return buf;
}

/* A user's expression with a name spelled with '-' ("page-faults / task-clock"), which the expression
 * reads as a subtraction: the hint to escape it ("; '-' is minus in an expression: write page\-faults"),
 * else "". */
static void minus_hint(const char *expr, char *out, size_t len)
{
	for (const char *p = expr; *p; p++) {
		size_t n = strspn(p, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-\\");
		const char *dash = memchr(p, '-', n);
		if (dash && dash > p && dash[-1] != '\\' && dash + 1 < p + n && !isdigit((unsigned char)*p)) {
			char word[PMU_NAME_MAX], *o = word;
			for (const char *q = p; q < p + n && o + 2 < word + sizeof(word); q++) {
				if (*q == '-' && (q == p || q[-1] != '\\'))
					*o++ = '\\';
				*o++ = *q;
			}
			*o = 0;
			snprintf(out, len, "; '-' is minus in an expression: write %s", word);
			return;
		}
		p += n ? n - 1 : 0;
	}
	out[0] = 0;
}

/*
 * Evaluate metric @m (its threshold with @threshold), or @what as an
 * expression when @m is NULL. Returns 0, or a negative errno with the
 * sentence for it in @why.
 */
static int eval_run(struct pmu_ctx *ctx, const char *what, const struct pmu_tentry *m, bool threshold,
		    const struct pmu_named_value *vals, const struct pmu_event_info *infos, size_t n, double *out,
		    char *why, size_t wl, const char *only)
{
	struct eval *ev;
	int r;

	ev = calloc(1, sizeof(*ev));
	if (!ev) {
		snprintf(why, wl, "out of memory");
		return -ENOMEM;
	}
	ev->ctx = ctx;
	ev->only = only;
	ev->vals = vals;
	ev->n = n;
	ev->val_info = calloc(n ? n : 1, sizeof(*ev->val_info));
	ev->val_ok = malloc(n ? n : 1);
	if (!ev->val_info || !ev->val_ok) {
		free(ev->val_info);
		free(ev->val_ok);
		free(ev);
		snprintf(why, wl, "out of memory");
		return -ENOMEM;
	}
	memset(ev->val_ok, -1, n ? n : 1);
	for (size_t i = 0; infos && i < n; i++) /* counted values: their encodings are known, not resolved again */
		if (infos[i].pmu[0]) { /* every resolved event names its PMU; "" is a value without one */
			ev->val_info[i] = infos[i];
			ev->val_ok[i] = 1;
		}
	/* a threshold is an expression over the metric (by name), not the metric itself */
	ev->base = m;
	r = eval_metric(ev, threshold ? NULL : m, threshold ? m->threshold : m ? m->expr : what, out);
	if (r == 0 && ev->err)
		r = ev->err;
	if (r == -ELOOP)
		snprintf(why, wl, "metric '%s': %s", what, ev->errmsg ? ev->errmsg : "out of memory");
	else if (r == -EINVAL)
		snprintf(why, wl, "%s", ev->errmsg ? ev->errmsg : "out of memory");
	else if (r == 0 && ev->nmissing) {
		char minus[PMU_NAME_MAX + 96] = "";
		if (!m)
			minus_hint(what, minus, sizeof(minus));
		snprintf(why, wl, "%s '%s' needs values that were not counted or set: %s%s%s", m ? "metric" : "expression",
			 what, ev->missing,
			 strchr(ev->missing, '#') ? " (set #constants with pmu_ctx_set_param or -D NAME=VALUE)" : "", minus);
		r = -ENOENT;
	}
	else if (r < 0)
		snprintf(why, wl, "%s '%s': %s", m ? "metric" : "expression", what, strerror(-r));
	pmu__pmap_free(&ev->memo);
	for (size_t i = 0; i < ev->ncname; i++)
		free(ev->cname[i]);
	free(ev->cname);
	free(ev->cstamp);
	free(ev->cslot);
	free(ev->shape);
	free(ev->snames);
	free(ev->kept);
	free(ev->res);
	free(ev->khash);
	free(ev->live);
	free(ev->errmsg);
	free(ev->val_info);
	free(ev->val_ok);
	free(ev);
	return r;
}

/* @infos are the encodings of @vals, as a set has them (NULL, or an entry whose pmu is "": resolved
 * from the name when needed). */
static int eval_common(struct pmu_ctx *ctx, const char *what, bool threshold, const struct pmu_named_value *vals,
		       const struct pmu_event_info *infos, size_t n, double *out)
{
	const struct pmu_tentry *m;
	const struct pmu_tname *defs;
	struct mscope sc;
	size_t nd, nfit = 0;
	char why[1024], list[512];
	double v = 0, got = 0;
	int r;

	if (!ctx || !what || !out || (n && !vals))
		return pmu__err(ctx, -EINVAL, "pmu_metric_eval: NULL argument");
	for (size_t i = 0; i < n; i++)
		if (!vals[i].name)
			return pmu__err(ctx, -EINVAL, "pmu_metric_eval: value %zu has a NULL name", i);
	if ((r = metric_defs(ctx, what, &m, &defs, &nd, &sc)) < 0)
		return r;
	if (threshold && !m && !defs)
		return pmu__err(ctx, -ENOENT, "no metric named '%s'", what);
	if (threshold && m && !m->threshold)
		return pmu__err(ctx, -ENODATA, "metric '%s' has no threshold", what);
	if (!defs || nd == 1) {
		r = eval_run(sc.ctx, what, m, threshold, vals, infos, n, out, why, sizeof(why), sc.only);
		return r < 0 ? pmu__err(ctx, r, "%s", why) : 0;
	}
	/* defined once per PMU: the definition whose values were given */
	list[0] = 0;
	for (size_t i = 0; i < nd; i++) {
		size_t o = strlen(list);
		if (threshold && !defs[i].ent->threshold)
			continue;
		r = eval_run(ctx, what, defs[i].ent, threshold, vals, infos, n, &v, why, sizeof(why), NULL);
		if (r == 0 && nfit++ == 0)
			got = v;
		if (r < 0 && o + 2 < sizeof(list))
			snprintf(list + o, sizeof(list) - o, "%s%s/%s/: %s", o ? "; " : "", defs[i].ent->unit ? defs[i].ent->unit : "cpu",
				 defs[i].ent->name, why);
	}
	if (nfit == 1) {
		*out = got;
		return 0;
	}
	if (nfit > 1)
		return pmu__err(ctx, -EINVAL, "metric '%s' is defined once per PMU and the values fit more than one "
				"definition: name one, %s", what, spellings(defs, nd, why, sizeof(why)));
	return pmu__err(ctx, -ENOENT, "metric '%s' is defined once per PMU and the values fit none: %s", what, list);
}

PMU_EXPORT int pmu_metric_eval(struct pmu_ctx *ctx, const char *metric_or_expr, const struct pmu_named_value *vals,
			       size_t n, double *out)
{
	pmu__err_clear();
	return eval_common(ctx, metric_or_expr, false, vals, NULL, n, out);
}

PMU_EXPORT int pmu_metric_eval_events(struct pmu_ctx *ctx, const char *metric_or_expr,
				      const struct pmu_named_value *vals, const struct pmu_event_info *events, size_t n,
				      double *out)
{
	pmu__err_clear();
	return eval_common(ctx, metric_or_expr, false, vals, events, n, out);
}

static int threshold_of(struct pmu_ctx *ctx, const char *metric, const struct pmu_named_value *vals,
		     const struct pmu_event_info *events, size_t n, int *crossed)
{
	double v;
	int r;

	pmu__err_clear();
	if (!ctx || !metric || !crossed)
		return pmu__err(ctx, -EINVAL, "pmu_metric_threshold: NULL argument");
	r = eval_common(ctx, metric, true, vals, events, n, &v);
	if (r == 0)
		*crossed = v != 0 && !isnan(v);
	return r;
}

PMU_EXPORT int pmu_metric_threshold(struct pmu_ctx *ctx, const char *metric, const struct pmu_named_value *vals,
				    size_t n, int *crossed)
{
	return threshold_of(ctx, metric, vals, NULL, n, crossed);
}

PMU_EXPORT int pmu_metric_threshold_events(struct pmu_ctx *ctx, const char *metric,
					   const struct pmu_named_value *vals, const struct pmu_event_info *events,
					   size_t n, int *crossed)
{
	return threshold_of(ctx, metric, vals, events, n, crossed);
}

/* ---- the events a metric needs ---- */

struct collect {
	struct pmu_ctx *ctx;
	char *all;              /* every name so far, ',' separated */
	size_t used, cap;
	struct name_ref { size_t off, len; } *set; /* the names, hashed case-insensitively */
	size_t nset, setcap;
	struct pmu_pmap expanded; /* metrics being expanded (1) or whose names are in (2): each once */
	const struct pmu_tentry *stack[PMU_METRIC_MAX_DEPTH + 1]; /* the metrics being expanded */
	int depth;
	int nest;               /* the heights of their expressions, added */
	int err;
	const char *pmu;        /* Unit of the metric whose names are collected */
};

static int collect_names(const char *name, int is_const, void *data);

/* What a condition can be told before counting: has_event(), strcmp_cpuid_str() (numbers fold by
 * themselves). perf counts
 * only the events of the branch it takes ('cycles\-t / cycles if has_event(cycles\-t) else 0' needs no
 * cycles-t where there is none). */
static int fold_now(const char *name, int kind, void *data, double *out)
{
	struct collect *c = data;
	int n;

	if (kind == PMU_NAME_CPUID) {
		n = pmu__tables_cpuid_matches(c->ctx, name);
		if (n == -ENOMEM)
			c->err = pmu__err(c->ctx, n, "out of memory");
		*out = n;
		return n < 0 ? n : 0;
	}
	if (kind != PMU_NAME_HAS_EVENT)
		return -EAGAIN;
	if ((n = event_sources(c->ctx, name, c->pmu)) < 0) {
		c->err = n; /* the message is said */
		return n;
	}
	*out = n > 0;
	return 0;
}

/* The names of @expr, the expression of metric @m (NULL: a user's expression). */
static void collect_expr(struct collect *c, const struct pmu_tentry *m, const char *expr)
{
	char err[160];
	struct pmu_expr *ex = pmu__expr_parse(expr, err, sizeof(err));

	if (!ex && errno == ENOMEM) {
		c->err = -ENOMEM;
		return;
	}
	if (!ex) {
		c->err = pmu__err(c->ctx, -EINVAL, "%s '%s' does not parse: %s", m ? "metric" : "expression",
				  m ? m->name : expr, err);
		return;
	}
	if (m && c->nest + ex->height > PMU_METRIC_MAX_NEST) {
		char *text = pmu__chain_text(c->stack, (size_t)c->depth);
		c->err = pmu__err(c->ctx, -ELOOP, "metric '%s': the expressions of metrics that use each other nest more "
				  "than the %d levels evaluation follows (their heights added): %s", c->stack[0]->name,
				  PMU_METRIC_MAX_NEST, text ? text : m->name);
		free(text);
	} else {
		c->nest += m ? ex->height : 0;
		pmu__expr_names_live(ex, collect_names, c, fold_now, c);
		c->nest -= m ? ex->height : 0;
	}
	pmu__expr_free(ex);
}

/* The slot of @name in the set: where it is, or the empty one where it goes. */
static size_t name_slot(const struct collect *c, const char *name, size_t l)
{
	size_t i = name_hash(name, l) & (c->setcap - 1);

	while (c->set[i].len && (c->set[i].len != l || strncasecmp(c->all + c->set[i].off, name, l)))
		i = (i + 1) & (c->setcap - 1);
	return i;
}

/* Add @name unless listed: 0, or -ENOMEM. */
static int add_name(struct collect *c, const char *name)
{
	size_t l = strlen(name), i;

	if (!l)
		return 0;
	if ((c->nset + 1) * 2 > c->setcap) {
		struct collect g = *c;
		g.setcap = c->setcap ? c->setcap * 2 : 64;
		if (!(g.set = calloc(g.setcap, sizeof(*g.set))))
			return -ENOMEM;
		for (size_t k = 0; k < c->setcap; k++)
			if (c->set[k].len)
				g.set[name_slot(&g, c->all + c->set[k].off, c->set[k].len)] = c->set[k];
		free(c->set);
		c->set = g.set;
		c->setcap = g.setcap;
	}
	i = name_slot(c, name, l);
	if (c->set[i].len)
		return 0;
	if (c->used + l + 2 > c->cap) {
		size_t nc = (c->used + l + 2) * 2;
		char *na = realloc(c->all, nc);
		if (!na)
			return -ENOMEM;
		c->all = na;
		c->cap = nc;
	}
	if (c->used)
		c->all[c->used++] = ',';
	memcpy(c->all + c->used, name, l);
	c->set[i].off = c->used;
	c->set[i].len = l;
	c->used += l;
	c->all[c->used] = 0;
	c->nset++;
	return 0;
}

static int collect_names(const char *name, int is_const, void *data)
{
	struct collect *c = data;
	const struct pmu_tentry *e;
	char buf[PMU_NAME_MAX * 2];

	/* source_count(X) needs X counted (perf counts it); has_event(X), strcmp_cpuid_str(X) do not */
	if ((is_const && is_const != PMU_NAME_SOURCE_COUNT) || c->err)
		return 0;
	if (!is_const && (e = metric_on(c->ctx, name, c->pmu))) {
		const char *outer = c->pmu;
		double state = 0;
		if (pmu__pmap_get(&c->expanded, e, &state) && state == 2)
			return 0; /* its names are in already */
		if (state == 1 || c->depth == PMU_METRIC_MAX_DEPTH) {
			int from = 0;
			char *text;
			while (state == 1 && c->stack[from] != e)
				from++;
			c->stack[c->depth] = e;
			text = pmu__chain_text(c->stack + from, (size_t)(c->depth - from) + (state == 1));
			if (state == 1)
				c->err = pmu__err(c->ctx, -ELOOP, "metric '%s': metrics refer to each other in a cycle: %s",
						  c->stack[0]->name, text ? text : name);
			else
				c->err = pmu__err(c->ctx, -ELOOP, "metric '%s': metrics nest deeper than the %d levels "
						  "evaluation follows: %s -> %s", c->stack[0]->name, PMU_METRIC_MAX_DEPTH,
						  text ? text : "...", name);
			free(text);
			return 1;
		}
		if (pmu__pmap_put(&c->expanded, e, 1) < 0) {
			c->err = pmu__err(c->ctx, -ENOMEM, "out of memory");
			return 1;
		}
		c->stack[c->depth++] = e;
		c->pmu = e->unit;
		collect_expr(c, e, e->expr);
		c->pmu = outer;
		c->depth--;
		if (!c->err && pmu__pmap_put(&c->expanded, e, 2) < 0)
			c->err = pmu__err(c->ctx, -ENOMEM, "out of memory");
		return c->err ? 1 : 0;
	}
	name = event_spelling(c->ctx, name, c->pmu, buf, sizeof(buf));
	if (!strcmp(name, "duration_time"))
		return 0;
	if (add_name(c, name) < 0) {
		c->err = pmu__err(c->ctx, -ENOMEM, "out of memory");
		return 1;
	}
	return 0;
}

PMU_EXPORT int pmu_metric_events(struct pmu_ctx *ctx, const char *metric_or_expr, char *buf, size_t len)
{
	const struct pmu_tentry *m = NULL;
	const struct pmu_tname *defs;
	struct collect c;
	struct mscope sc;
	char list[512];
	size_t nd;
	int r;

	pmu__err_clear();
	if (!ctx || !metric_or_expr || (!buf && len))
		return pmu__err(ctx, -EINVAL, "pmu_metric_events: NULL argument");
	if (len)
		buf[0] = 0;
	if ((r = metric_defs(ctx, metric_or_expr, &m, &defs, &nd, &sc)) < 0)
		return r;
	if (nd > 1)
		return pmu__err(ctx, -EINVAL, "metric '%s' is defined once per PMU, with other events for each: name "
				"one, %s", metric_or_expr, spellings(defs, nd, list, sizeof(list)));
	memset(&c, 0, sizeof(c));
	/* one core type's metric (sc.only): its names as the whole list counts them, each on every core
	 * PMU; the evaluation takes that core type's parts */
	c.ctx = sc.ctx;
	c.pmu = m ? m->unit : NULL;
	if (m && pmu__pmap_put(&c.expanded, m, 1) < 0) {
		c.err = pmu__err(ctx, -ENOMEM, "out of memory");
	} else {
		if (m)
			c.stack[c.depth++] = m;
		collect_expr(&c, m, m ? m->expr : metric_or_expr);
	}
	r = c.err;
	if (!r && c.used > INT_MAX - 1)
		r = pmu__err(ctx, -E2BIG, "pmu_metric_events: the list of events is longer than %d bytes", INT_MAX);
	else if (!r && c.used + 1 > len && len)
		r = pmu__err(ctx, -ENOSPC, "pmu_metric_events: %zu bytes needed", c.used + 1);
	else if (!r && len)
		memcpy(buf, c.all ? c.all : "", c.used + 1);
	if (!r)
		r = (int)c.used;
	free(c.all);
	free(c.set);
	pmu__pmap_free(&c.expanded);
	return r;
}

PMU_EXPORT int pmu_metric_info(struct pmu_ctx *ctx, const char *name, struct pmu_metric_info *out)
{
	const struct pmu_tentry *m;
	const struct pmu_tname *defs;
	char list[512];
	size_t nd;
	int r;

	pmu__err_clear();
	if (!ctx || !name || !out)
		return pmu__err(ctx, -EINVAL, "pmu_metric_info: NULL argument");
	if ((r = metric_defs(ctx, name, &m, &defs, &nd, NULL)) < 0)
		return r;
	if (nd > 1)
		return pmu__err(ctx, -EINVAL, "metric '%s' is defined once per PMU: name one, %s", name,
				spellings(defs, nd, list, sizeof(list)));
	if (!m)
		return pmu__err(ctx, -ENOENT, "no metric named '%s' for this CPU ('pmu list' shows the metrics)", name);
	memset(out, 0, sizeof(*out));
	out->name = m->name;
	out->expr = m->expr;
	out->desc = m->desc ? m->desc : "";
	out->group = m->group ? m->group : "";
	out->scale_unit = m->scale_unit ? m->scale_unit : "";
	out->threshold = m->threshold ? m->threshold : "";
	out->params = m->params ? m->params : "";
	out->file = m->file;
	return 0;
}
