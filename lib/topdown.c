/* SPDX-License-Identifier: MIT */
/*
 * Topdown: decoding Intel's PERF_METRICS (eight 8-bit fractions of the SLOTS
 * counter, level 1 in the low half, level 2 in the high half on Sapphire
 * Rapids) and the slot counts the kernel reports through read(2), into the
 * level-1 and level-2 fractions of the topdown method. On CPUs without those
 * events the five level-1 slot counts are the table's formulas
 * (pmu__topdown_formulas()), evaluated by the metric engine.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include "pmu.h"
#include "topdown.h"
#include "common.h"
#include "context.h"
#include "cpu.h"
#include "error.h"
#include "resolve.h"
#include "set.h"
#include "util.h"

static double field(uint64_t metrics, int i)
{
	return (double)((metrics >> (8 * i)) & 0xff);
}

static void derive(struct pmu_topdown *t)
{
	if (t->level < 2) {
		t->heavy_ops = t->light_ops = t->br_mispredict = t->machine_clears = NAN;
		t->fetch_lat = t->fetch_bw = t->mem_bound = t->core_bound = NAN;
		return;
	}
	t->light_ops = t->retiring - t->heavy_ops;
	t->machine_clears = t->bad_spec - t->br_mispredict;
	t->fetch_bw = t->fe_bound - t->fetch_lat;
	t->core_bound = t->be_bound - t->mem_bound;
}

PMU_EXPORT int pmu_topdown_decode(const struct pmu_topdown_sample *a, const struct pmu_topdown_sample *b,
				  int level, struct pmu_topdown *out)
{
	double *l1[4], *l2[4];

	pmu__err_clear();
	if (!a || !b || !out || (level != 1 && level != 2))
		return pmu__err(NULL, -EINVAL, "pmu_topdown_decode: NULL sample/output or level %d (1 or 2)", level);
	memset(out, 0, sizeof(*out));
	out->level = level;
	l1[0] = &out->retiring; l1[1] = &out->bad_spec; l1[2] = &out->fe_bound; l1[3] = &out->be_bound;
	l2[0] = &out->heavy_ops; l2[1] = &out->br_mispredict; l2[2] = &out->fetch_lat; l2[3] = &out->mem_bound;
	if (b->epoch != a->epoch || b->slots < a->slots) {
		/* a reset in between: only b's period is known */
		if (b->slots == 0)
			return pmu__err(NULL, -ENODATA, "topdown: no slots since the counters were reset");
		out->flags |= PMU_TOPDOWN_RESET;
		out->slots = b->slots;
		for (int i = 0; i < 4; i++) {
			*l1[i] = field(b->metrics, i) / 255.0;
			if (level == 2)
				*l2[i] = field(b->metrics, 4 + i) / 255.0;
		}
	} else {
		uint64_t ds = b->slots - a->slots;
		if (ds == 0)
			return pmu__err(NULL, -ENODATA, "topdown: no slots elapsed between the two samples");
		out->slots = ds;
		for (int i = 0; i < 4; i++) {
			/* slot-weighted: each sample's fraction applies to all its slots */
			double pa = field(a->metrics, i) * (double)a->slots / 255.0;
			double pb = field(b->metrics, i) * (double)b->slots / 255.0;
			*l1[i] = (pb - pa) / (double)ds;
			if (level == 2) {
				pa = field(a->metrics, 4 + i) * (double)a->slots / 255.0;
				pb = field(b->metrics, 4 + i) * (double)b->slots / 255.0;
				*l2[i] = (pb - pa) / (double)ds;
			}
		}
	}
	derive(out);
	return 0;
}

PMU_EXPORT int pmu_topdown_from_counts(const struct pmu_topdown_counts *c, struct pmu_topdown *out)
{
	double s;

	pmu__err_clear();
	if (!c || !out || (c->level != 1 && c->level != 2))
		return pmu__err(NULL, -EINVAL, "pmu_topdown_from_counts: NULL argument or level not 1/2");
	memset(out, 0, sizeof(*out));
	if (c->slots == 0)
		return pmu__err(NULL, -ENODATA, "topdown: no slots counted in the period");
	s = (double)c->slots;
	out->slots = c->slots;
	out->level = c->level;
	out->retiring = c->retiring / s;
	out->bad_spec = c->bad_spec / s;
	out->fe_bound = c->fe_bound / s;
	out->be_bound = c->be_bound / s;
	if (c->level == 2) {
		out->heavy_ops = c->heavy_ops / s;
		out->br_mispredict = c->br_mispredict / s;
		out->fetch_lat = c->fetch_lat / s;
		out->mem_bound = c->mem_bound / s;
	}
	derive(out);
	return 0;
}

/* How a formula is evaluated over the caller's values: pmu_metric_eval_set() or pmu_metric_eval(). */
struct formula_vals {
	struct pmu_set *s;
	const struct pmu_value *svals;
	const struct pmu_named_value *nvals;
	size_t n;
};

/* The table's formula of role @r over the caller's values, quietly: 0 with *d, or a negative errno with
 * the engine's sentence (or "gave no number") in @why. */
static int formula(struct pmu_ctx *ctx, const struct formula_vals *fv, size_t r, double *d, char *why, size_t len)
{
	const char *name = pmu__td_roles[r].std;
	int e;

	pmu__err_quiet(true); /* the engine's sentence goes into the caller's */
	e = fv->s ? pmu_metric_eval_set(ctx, name, fv->s, fv->svals, d) : pmu_metric_eval(ctx, name, fv->nvals, fv->n, d);
	pmu__err_quiet(false);
	if (e == 0 && isnan(*d)) {
		e = -ENODATA;
		snprintf(why, len, "metric '%s' gave no number", name);
	} else {
		snprintf(why, len, "%s", pmu__err_msg());
	}
	return e;
}

static void level2_formulas(struct pmu_ctx *ctx, const struct formula_vals *fv, struct pmu_topdown_counts *c);

/* The fractions of @c, marked on an AMD CPU, whose tables give AMD's method (PMU_TOPDOWN_AMD: level 1
 * leaves out the slots of SMT contention, level 2's rows are AMD's quantities under the tree's names) */
static int fractions(struct pmu_ctx *ctx, const struct pmu_topdown_counts *c, struct pmu_topdown *out)
{
	int e = pmu_topdown_from_counts(c, out);

	if (e == 0 && !strcmp(ctx->cpu.vendor, "AuthenticAMD"))
		out->flags |= PMU_TOPDOWN_AMD;
	return e;
}

/* The topdown events' counts as a set's or a saved run's values give them: each role's first value, all
 * from one PMU, the first topdown event's (one core type of a hybrid CPU: two types' counts never mix). */
struct roles {
	uint64_t v[PMU_TD_ROLES];
	bool have[PMU_TD_ROLES];
	char pmu[sizeof(((struct pmu_event_info *)0)->pmu)];
};

static void role_take(struct roles *t, int role, const char *pmu, uint64_t value)
{
	if (role < 0 || t->have[role] || (t->pmu[0] && strcmp(t->pmu, pmu)))
		return;
	if (!t->pmu[0])
		pmu__strlcpy(t->pmu, pmu, sizeof(t->pmu));
	t->v[role] = value;
	t->have[role] = true;
}

static bool roles_level1(const struct roles *t)
{
	return t->have[0] && t->have[1] && t->have[2] && t->have[3] && t->have[4];
}

/* The roles counted (@t); level 2 from the table's formulas where the events give level 1 only (Ice
 * Lake's PERF_METRICS) */
static int from_roles(struct pmu_ctx *ctx, const struct roles *t, const struct formula_vals *fv,
		      struct pmu_topdown *out)
{
	const uint64_t *v = t->v;
	const bool *have = t->have;
	struct pmu_topdown_counts c;
	char events[1024];

	if (!roles_level1(t)) {
		/* a CPU without topdown: why (the TOPDOWN keyword's sentence), not how to count what it cannot */
		if (pmu__topdown_events(ctx, events, sizeof(events)) == -ENOENT)
			return -ENOENT;
		return pmu__err(ctx, -ENOENT, "no complete level-1 topdown group (slots and the retiring, bad-spec, "
				"fe-bound and be-bound events) was counted; count it with the TOPDOWN keyword");
	}
	memset(&c, 0, sizeof(c));
	c.slots = v[0];
	c.retiring = v[1];
	c.bad_spec = v[2];
	c.fe_bound = v[3];
	c.be_bound = v[4];
	c.level = have[5] && have[6] && have[7] && have[8] ? 2 : 1;
	c.heavy_ops = v[5];
	c.br_mispredict = v[6];
	c.fetch_lat = v[7];
	c.mem_bound = v[8];
	if (c.level == 1)
		level2_formulas(ctx, fv, &c);
	return fractions(ctx, &c, out);
}

/* Level 1 from the table's formulas of the five slot counts (CPUs without a slots counter), and level 2
 * where the table has formulas for it and their events were counted (else level 1 alone). A count below
 * 0 (Skylake's backend-bound remainder, from counts that were multiplexed) is 0; a level-2 count above
 * its level-1 parent (multiplexed counts again) is the parent's. */
static int from_formulas(struct pmu_ctx *ctx, const struct formula_vals *fv, struct pmu_topdown *out)
{
	uint64_t *dst[PMU_TD_LEVEL1];
	struct pmu_topdown_counts c;
	char why[512];
	double d;
	int e;

	memset(&c, 0, sizeof(c));
	c.level = 1;
	dst[0] = &c.slots; dst[1] = &c.retiring; dst[2] = &c.bad_spec; dst[3] = &c.fe_bound; dst[4] = &c.be_bound;
	for (size_t r = 0; r < PMU_TD_LEVEL1; r++) {
		if ((e = formula(ctx, fv, r, &d, why, sizeof(why))) < 0)
			return pmu__err(ctx, e, "no complete level-1 topdown count: this CPU's slot counts are formulas "
					"over its events (%s); count their events with the TOPDOWN keyword", why);
		*dst[r] = d > 0 ? (uint64_t)(d + 0.5) : 0;
	}
	level2_formulas(ctx, fv, &c);
	return fractions(ctx, &c, out);
}

/* Level 2 of @c (level 1 filled) from the table's formulas, where it has them and they evaluate over the
 * caller's values (else @c stays level 1, no error). A count above its level-1 parent (multiplexed
 * counts) is the parent's. */
static void level2_formulas(struct pmu_ctx *ctx, const struct formula_vals *fv, struct pmu_topdown_counts *c)
{
	const uint64_t parent[] = { c->retiring, c->bad_spec, c->fe_bound, c->be_bound };
	uint64_t l2[PMU_TD_ROLES - PMU_TD_LEVEL1];
	char why[512];
	double d;
	size_t r;

	if (!fv || !pmu__topdown_formulas_l2(ctx))
		return;
	for (r = PMU_TD_LEVEL1; r < PMU_TD_ROLES && formula(ctx, fv, r, &d, why, sizeof(why)) == 0; r++) {
		uint64_t p = parent[r - PMU_TD_LEVEL1];
		l2[r - PMU_TD_LEVEL1] = d <= 0 ? 0 : d + 0.5 >= (double)p ? p : (uint64_t)(d + 0.5);
	}
	pmu__err_clear(); /* level 2's events not counted: level 1 */
	if (r < PMU_TD_ROLES)
		return;
	c->heavy_ops = l2[0];
	c->br_mispredict = l2[1];
	c->fetch_lat = l2[2];
	c->mem_bound = l2[3];
	c->level = 2;
}

/* The fractions of the roles found (@t), or of the table's formulas over the caller's values where the
 * roles give no level 1 and the table has formulas */
static int decode(struct pmu_ctx *ctx, const struct roles *t, const struct formula_vals *fv, struct pmu_topdown *out)
{
	if (!roles_level1(t) && pmu__topdown_formulas(ctx))
		return from_formulas(ctx, fv, out);
	return from_roles(ctx, t, fv, out);
}

PMU_EXPORT int pmu_topdown_from_set(struct pmu_set *s, const struct pmu_value *vals, struct pmu_topdown *out)
{
	const struct formula_vals fv = { s, vals, NULL, 0 };
	struct roles t;

	pmu__err_clear();
	if (!s || !vals || !out)
		return pmu__err(NULL, -EINVAL, "pmu_topdown_from_set: NULL argument");
	memset(&t, 0, sizeof(t));
	for (size_t i = 0, n = pmu_set_count(s); i < n; i++) {
		const struct pmu_event_info *e = pmu__set_info(s, i);
		if (!(e->flags & PMU_EVF_UNSUPPORTED))
			role_take(&t, pmu__topdown_role(e), e->pmu, pmu_scale(&vals[i]));
	}
	return decode(pmu__set_ctx(s), &t, &fv, out);
}

PMU_EXPORT int pmu_topdown_from_named(struct pmu_ctx *ctx, const struct pmu_named_value *vals, size_t n,
				      struct pmu_topdown *out)
{
	const struct formula_vals fv = { NULL, NULL, vals, n };
	struct roles t;

	pmu__err_clear();
	if (!ctx || (n && !vals) || !out)
		return pmu__err(ctx, -EINVAL, "pmu_topdown_from_named: NULL argument");
	memset(&t, 0, sizeof(t));
	for (size_t i = 0; i < n; i++) {
		struct pmu_event_info e;
		if (!isnan(vals[i].value) && pmu__resolve_quiet(ctx, vals[i].name, &e) == 0)
			role_take(&t, pmu__topdown_role(&e), e.pmu, (uint64_t)(vals[i].value + 0.5));
	}
	pmu__err_clear();
	return decode(ctx, &t, &fv, out);
}

PMU_EXPORT int pmu_topdown_sample(struct pmu_set *s, struct pmu_topdown_sample *out)
{
	pmu__err_clear();
	if (!s || !out)
		return pmu__err(NULL, -EINVAL, "pmu_topdown_sample: NULL argument");
#if defined(__x86_64__) || defined(__i386__)
	for (size_t i = 0, n = pmu_set_count(s); i < n; i++) {
		const struct perf_event_mmap_page *pg = pmu__set_page(s, i);
		if (!(pmu__set_info(s, i)->flags & PMU_EVF_TOPDOWN_SLOTS) || !pg || !pmu__set_mine(s) ||
		    pmu__set_forked(s))
			continue;
		if (pmu_topdown_page_sample(pg, out) == 0)
			return 0;
	}
#endif
	return pmu__err(pmu__set_ctx(s), -EOPNOTSUPP,
			"no user-space topdown reading here (needs x86 with rdpmc and a slots event opened by this "
			"thread); read the set with pmu_set_read() and decode with pmu_topdown_from_set()");
}
