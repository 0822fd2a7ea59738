/* SPDX-License-Identifier: MIT */
/* Event names -> perf_event_attr encodings, with provenance and
 * suggestions for unknown names. Order: pmu/terms/ syntax, raw rNNNN,
 * generic kernel events, named events of the core PMU(s). */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "pmu.h"
#include "resolve.h"
#include "common.h"
#include "context.h"
#include "cpu.h"
#include "editdist.h"
#include "error.h"
#include "generic.h"
#include "modifiers.h"
#include "papi.h"
#include "pfm.h"
#include "sysfs.h"
#include "tables.h"
#include "tool.h"
#include "topdown.h"
#include "tracepoint.h"
#include "util.h"

struct suggest {
	struct pmu_ctx *ctx;
	const char *want;
	size_t want_len;
	unsigned char want_bag[256]; /* how often each (case-folded) character occurs in want */
	unsigned cap;           /* distances at or above this are not suggested */
	char best[3][PMU_NAME_MAX];
	unsigned dist[3];
	char near[PMU_NAME_MAX]; /* the closest name that is known but cannot be counted here */
	unsigned near_dist;
};

/* Does @hay (length lh) contain @needle (length ln), ignoring case? For
 * names of at most PMU_NAME_MAX characters a plain scan is far cheaper than
 * strcasestr(), which prepares a two-way search at every call. */
static inline unsigned char fold(char c)
{
	return c >= 'A' && c <= 'Z' ? (unsigned char)(c + 'a' - 'A') : (unsigned char)c;
}

static bool contains_ci(const char *hay, size_t lh, const char *needle, size_t ln)
{
	unsigned char first;

	if (ln == 0)
		return true;
	first = fold(needle[0]);
	for (size_t i = 0; i + ln <= lh; i++) {
		size_t k = 1;
		if (fold(hay[i]) != first)
			continue;
		while (k < ln && fold(hay[i + k]) == fold(needle[k]))
			k++;
		if (k == ln)
			return true;
	}
	return false;
}

/* Only names `pmu stat` can count here are suggested; the closest other one is kept apart. */
static void suggest_add(struct suggest *s, const char *cand)
{
	/* only a distance below the third best so far (and the cap) is kept, and
	 * the distance is at least the difference of the lengths: both bound the
	 * work without changing what is suggested */
	size_t la = s->want_len, lb = strlen(cand);
	unsigned cap = s->cap < s->dist[2] ? s->cap : s->dist[2], d;
	bool sub = la <= lb ? contains_ci(cand, lb, s->want, la) : contains_ci(s->want, la, cand, lb);
	int at = -1;

	if (sub) {
		d = pmu__edit_distance(s->want, cand, 3);
		d = d > 2 ? 2 : d; /* substring hits rank close */
	} else {
		/* the bag distance (characters of one that the other lacks, counted
		 * with multiplicity, the larger side) never exceeds the edit distance */
		unsigned char bag[256];
		size_t extra = 0, missing;
		if ((la > lb ? la - lb : lb - la) >= cap || la > PMU_NAME_MAX || lb > PMU_NAME_MAX)
			return; /* (pmu__edit_distance() gives longer names the cap) */
		memcpy(bag, s->want_bag, sizeof(bag));
		for (size_t j = 0; j < lb; j++) {
			unsigned char c = fold(cand[j]);
			if (bag[c])
				bag[c]--;
			else
				extra++;
		}
		missing = la - (lb - extra); /* characters of want left unmatched */
		if ((extra > missing ? extra : missing) >= cap)
			return;
		d = pmu__edit_distance(s->want, cand, cap);
	}
	if (d >= s->cap)
		return;
	for (int i = 0; i < 3 && at < 0; i++) {
		if (d < s->dist[i])
			at = i;
		else if (!strcasecmp(s->best[i], cand))
			return;
	}
	if (at < 0)
		return;
	if (!pmu__name_countable(s->ctx, cand)) {
		if (d < s->near_dist) {
			s->near_dist = d;
			pmu__strlcpy(s->near, cand, PMU_NAME_MAX);
		}
		return;
	}
	for (int j = 2; j > at; j--) {
		s->dist[j] = s->dist[j - 1];
		memcpy(s->best[j], s->best[j - 1], PMU_NAME_MAX);
	}
	s->dist[at] = d;
	pmu__strlcpy(s->best[at], cand, PMU_NAME_MAX);
}

static int suggest_generic(const struct pmu_generic *g, void *data)
{
	suggest_add(data, g->name);
	return 0;
}

static int unknown(struct pmu_ctx *ctx, const char *name, const char *base)
{
	struct suggest s;
	char list[512], near[PMU_NAME_MAX + 160] = "", pfm[384] = "", pfm_why[256];
	size_t o = 0;
	unsigned limit = (unsigned)strlen(base) / 3 + 2;
	const struct pmu_dev *core = pmu__core_pmu(ctx);

	if (pmu__err_is_quiet())
		return -ENOENT; /* nobody reads the message: skip the suggestions */
	memset(&s, 0, sizeof(s));
	s.ctx = ctx;
	s.want = base;
	s.want_len = strlen(base);
	for (size_t i = 0; i < s.want_len && i < PMU_NAME_MAX; i++)
		s.want_bag[fold(base[i])]++;
	s.cap = limit + 1;
	s.dist[0] = s.dist[1] = s.dist[2] = s.near_dist = 64;
	pmu__generic_foreach(suggest_generic, &s);
	for (size_t i = 0; i < ctx->tables.nnames; i++)
		if (pmu__tables_kind(&ctx->tables, ctx->tables.names[i].order) != PMU_T_METRIC)
			suggest_add(&s, ctx->tables.names[i].name);
	for (size_t p = 0; p < ctx->n_pmus; p++)
		if (ctx->pmus[p].is_core)
			for (size_t i = 0; i < ctx->pmus[p].n_events; i++)
				suggest_add(&s, ctx->pmus[p].events[i].name);
	list[0] = 0;
	for (int i = 0; i < 3; i++)
		if (s.dist[i] <= limit)
			o += (size_t)snprintf(list + o, sizeof(list) - o, "%s%s", o ? ", " : "", s.best[i]);
	if (s.near_dist <= limit && s.near_dist < s.dist[0]) {
		/* a closer name that is known, but not countable here: named apart, with the reason */
		struct pmu_event_info info;
		const char *why = "this CPU has no event for it";
		if (pmu__resolve_quiet(ctx, s.near, &info) == 0)
			why = pmu__uncountable(ctx, &info);
		/* the closest name first, whether it counts here or not ("cyles": cycles, not cs) */
		snprintf(near, sizeof(near), "; did you mean '%s'? It cannot be counted here (%s)", s.near,
			 why ? why : "?");
	}
	if (pmu__pfm_missing(pfm_why, sizeof(pfm_why)))
		snprintf(pfm, sizeof(pfm), "; libpfm4, which knows more vendor names, cannot be loaded (%s): "
			 "install libpfm4", pfm_why);
	if (o && near[0])
		return pmu__err(ctx, -ENOENT, "unknown event '%s'%s; countable here and close to it: %s ('pmu list' "
				"shows all)%s", name, near, list, pfm);
	if (o)
		return pmu__err(ctx, -ENOENT, "unknown event '%s'; did you mean: %s?%s ('pmu list' shows all)%s",
				name, list, near, pfm);
	return pmu__err(ctx, -ENOENT,
			"unknown event '%s'%s; 'pmu list' shows the events known here%s%s", name, near,
			core ? "" : " (no hardware PMU: only software events can be counted)", pfm);
}

/* Is @term a format term or a named event of @d (which then win over generic names)? 1, 0, or -ENOMEM
 * (said) reading them */
static int sysfs_term(const struct pmu_ctx *ctx, const struct pmu_dev *d, const char *term)
{
	int r = pmu__pmu_load(ctx, d);

	if (r < 0)
		return r;
	for (size_t i = 0; i < d->n_formats; i++)
		if (!strcmp(d->formats[i].name, term))
			return 1;
	for (size_t i = 0; i < d->n_events; i++)
		if (!strcasecmp(d->events[i].name, term))
			return 1;
	return 0;
}

/* Is native entry @e counted by PMU @d: 2 by its Unit (@d, or a Unit whose PMUs include @d: uncore_cha_0
 * for "CHA"), 1 as an entry without Unit, or with a core Unit that names no other PMU here ("core" on
 * "cpu"), on a core PMU; 0 not. */
static int entry_on(struct pmu_ctx *ctx, const struct pmu_dev *d, const struct pmu_tentry *e)
{
	if (e->unit && (!strcasecmp(e->unit, d->name) || pmu__tables_unit_is(e->unit, d->name)))
		return 2;
	return d->is_core && (!e->unit || (pmu__tables_core_unit(e->unit) && !pmu__pmu_by_name(ctx, e->unit)));
}

/* The table event @ename as PMU @d counts it: its definition for @d, else one without Unit on a core PMU
 * (entry_on). NULL if none (the tables are loaded). */
static const struct pmu_tentry *table_event_on(struct pmu_ctx *ctx, const struct pmu_dev *d, const char *ename)
{
	const struct pmu_tname *defs;
	const struct pmu_tentry *none = NULL;
	size_t n;

	if (!(defs = pmu__tables_find_all(ctx, ename, PMU_TC_EVENT, &n)))
		return NULL;
	for (size_t i = 0; i < n; i++) {
		const struct pmu_tentry *e = defs[i].ent; /* made: pmu__tables_find_all */
		int on = e->kind == PMU_T_NATIVE ? entry_on(ctx, d, e) : 0;
		if (on == 2)
			return e;
		if (on && !none)
			none = e;
	}
	return none;
}

/* @out, the encoding of native event @n, as standard name @std: its origin says so, its approximation
 * (if @n counts @std only nearly) and the standard description where @n has none. */
static void as_standard(const struct pmu_tentry *std, const struct pmu_tentry *n, struct pmu_event_info *out)
{
	char origin[sizeof(out->origin)];

	if (pmu__tables_std_approx(n, std)) {
		out->flags |= PMU_EVF_APPROX;
		out->approx_note = n->approx_note ? n->approx_note : "";
	}
	snprintf(origin, sizeof(origin), "standard %s -> %s", std->name, out->origin);
	memcpy(out->origin, origin, sizeof(origin));
	if (!n->desc)
		out->desc = std->desc ? std->desc : "";
}

static void spelling_add(char *list, size_t len, size_t *o, const char *pmu, const char *event);

/* A standard name @std counted by its kernel generic event (already encoded in @out): its
 * description, note and approximation, and the origin saying so. */
static void std_as_generic(const struct pmu_tentry *std, struct pmu_event_info *out)
{
	char origin[sizeof(out->origin)];

	out->desc = std->desc ? std->desc : out->desc;
	out->note = std->notes ? std->notes : "";
	if (std->approx) {
		out->flags |= PMU_EVF_APPROX;
		out->approx_note = std->approx_note ? std->approx_note : "";
	}
	snprintf(origin, sizeof(origin), "standard %s (%s) -> %s", std->name, std->file, out->origin);
	memcpy(out->origin, origin, sizeof(origin));
}

/* The CPU's own event for standard name @std as PMU @d counts it (cpu_core/INST.RET/ on a hybrid CPU),
 * chosen as table_event_on chooses; NULL if none. */
static const struct pmu_tentry *std_native_on(struct pmu_ctx *ctx, const struct pmu_dev *d, const char *std)
{
	const struct pmu_tentry *v[16], *none = NULL;
	size_t n = pmu__tables_natives_for(ctx, std, v, 16);

	for (size_t i = 0; i < n && i < 16; i++) {
		int on = entry_on(ctx, d, v[i]);
		if (on == 2)
			return v[i];
		if (on && !none)
			none = v[i];
	}
	return none;
}

/*
 * A table event counted by PMU @d with more terms after it (perf's cpu/UOPS_ISSUED.ANY,cmask=1/, in
 * metrics cpu@UOPS_ISSUED.ANY\,cmask\=1@): the event's encoding, and the terms' bits added to it as
 * perf adds them on a core PMU (ORed in: a field the event sets is not cleared first, so
 * umask=0x10 on an event of umask 0x01 gives 0x11, as perf counts it).
 */
static int table_with_terms(struct pmu_ctx *ctx, const char *name, const struct pmu_dev *d,
			    const struct pmu_tentry *te, const char *terms, struct pmu_event_info *out)
{
	struct pmu_tentry on = *te;
	struct pmu_event_info more;
	int r;

	on.unit = (char *)d->name;
	if ((r = pmu__tables_encode(ctx, &on, name, out)) < 0 || !terms || !*terms)
		return r;
	memset(&more, 0, sizeof(more));
	if ((r = pmu__sysfs_encode(ctx, d, terms, name, &more, 0)) < 0)
		return r;
	out->config |= more.config;
	out->config1 |= more.config1;
	out->config2 |= more.config2;
	out->config3 |= more.config3;
	{
		size_t o = strlen(out->origin);
		snprintf(out->origin + o, sizeof(out->origin) - o, ", with %s", terms);
	}
	return 0;
}

/* PMU/TERMS/ (or EVENT/TERMS/) in @spec, its PMU @d where the caller found it (the first box of a unit's,
 * *@boxes of them), else found here; an EVENT/TERMS/ whose event counts on a unit of several boxes gets
 * its first box, their number into *@boxes. */
static int sysfs_syntax_on(struct pmu_ctx *ctx, const char *name, char *spec, const struct pmu_dev *d,
			   struct pmu_event_info *out, const char **mods, size_t *boxes)
{
	char *s1 = strchr(spec, '/'), *s2;
	const struct pmu_tentry *te, *std;
	char path[512];
	int r;

	s2 = strrchr(spec, '/');
	if (s1 == s2)
		return pmu__err(ctx, -EINVAL, "event '%s': sysfs syntax is PMU/term=value,.../ with a closing '/'",
				name);
	*s1 = 0;
	*s2 = 0;
	*mods = *(s2 + 1) ? s2 + 1 : NULL;
	if (*mods && **mods == ':')
		(*mods)++;
	if (!d)
		d = pmu__pmu_by_name(ctx, spec);
	if (!d && pmu__tables_unit_pmus(ctx, spec, &d) != 1)
		d = NULL; /* perf's names without "uncore_" (cha_0 is uncore_cha_0): when one PMU is meant */
	if (!d && !strchr(spec, '=') && (r = pmu__tables_load(ctx)) < 0)
		return r; /* the load's error, not 'no such PMU' */
	if (!d && !strchr(spec, '=') && (te = pmu__tables_find_pmu(ctx, spec, NULL, PMU_TC_EVENT)) &&
	    te->kind == PMU_T_NATIVE) {
		/* perf's EVENT/TERMS/ (a metric's UNC_CHA_TOR_OCCUPANCY.IA_MISS_DRD@thresh=1@): the table event,
		 * on its PMU, with the terms */
		size_t n = 0;
		const struct pmu_dev *first = NULL;
		if (!te->unit || pmu__tables_core_unit(te->unit))
			d = pmu__core_pmu(ctx);
		else if (!(d = pmu__pmu_by_name(ctx, te->unit)) && (n = pmu__tables_unit_pmus(ctx, te->unit, &first)) == 1)
			d = first;
		else if (!d && n > 1 && pmu__tables_unit_boxes(ctx, te->unit, &first, 1) == n) {
			d = first; /* counted on each box of the unit, as perf does: box 0's encoding here */
			*boxes = n;
		}
		if (!d)
			return pmu__err(ctx, -ENOENT, "event '%s': '%s' (%s) is counted by PMU '%s', which this machine does "
					"not have", name, spec, te->file, te->unit ? te->unit : "cpu");
		return table_with_terms(ctx, name, d, te, s1 + 1, out);
	}
	if (!d) {
		char list[512];
		list[0] = 0;
		for (size_t i = 0; i < ctx->n_pmus && pmu__list_add(list, sizeof(list), ctx->pmus[i].name); i++)
			;
		return pmu__err(ctx, -ENOENT, "event '%s': no PMU named '%s' here; PMUs present: %s", name,
				spec, list[0] ? list : "(none)");
	}
	if ((r = pmu__pmu_load(ctx, d)) < 0) /* its type (perhaps unread yet), formats and events */
		return r;
	pmu__strlcpy(out->pmu, d->name, sizeof(out->pmu));
	out->type = d->type;
	out->source = PMU_SRC_SYSFS;
	out->desc = "";
	out->unit = "";
	if (!*(s1 + 1))
		return pmu__err(ctx, -EINVAL, "event '%s': no terms between the slashes", name);
	pmu__path(path, sizeof(path), "%s/bus/event_source/devices/%s", ctx->sysfs_root, d->name);
	snprintf(out->origin, sizeof(out->origin), "sysfs: %s/format", path);
	{
		/* the first term: a kernel generic event or a table event (perf's hybrid tables define some once
		 * per core PMU), with more terms after it or not */
		char first[PMU_NAME_MAX * 2];
		const char *rest;
		struct pmu_generic g;
		pmu__strlcpy(first, s1 + 1, sizeof(first));
		first[strcspn(first, ",")] = 0;
		rest = s1 + 1 + strlen(first);
		rest += *rest == ',';
		if (!strchr(first, '=') && (r = sysfs_term(ctx, d, first)) < 0)
			return r;
		if (!strchr(first, '=') && !r) {
			if (!*rest && d->is_core && pmu__generic_lookup(first, &g) == 0 &&
			    (g.type == PERF_TYPE_HARDWARE || g.type == PERF_TYPE_HW_CACHE)) {
				return pmu__generic_on(ctx, d, &g, out);
			}
			if ((r = pmu__tables_load(ctx)) < 0)
				return r;
			if ((te = table_event_on(ctx, d, first)))
				return table_with_terms(ctx, name, d, te, rest, out);
			/* a standard name: the CPU's event for it on this PMU */
			if ((std = pmu__tables_find(ctx, first)) && std->kind == PMU_T_STANDARD &&
			    (te = std_native_on(ctx, d, first))) {
				if ((r = table_with_terms(ctx, name, d, te, rest, out)) < 0)
					return r;
				as_standard(std, te, out);
				return 0;
			}
			/* one this core PMU has no event of its own for (the other core type's table maps it):
			 * the kernel's generic event on this PMU, as on a CPU of one core PMU */
			if (std && std->kind == PMU_T_STANDARD && !*rest && d->is_core && std->generic &&
			    pmu__generic_lookup(std->generic, &g) == 0 &&
			    (g.type == PERF_TYPE_HARDWARE || g.type == PERF_TYPE_HW_CACHE)) {
				if ((r = pmu__generic_on(ctx, d, &g, out)) < 0)
					return r;
				std_as_generic(std, out);
				return 0;
			}
			if (std && std->kind == PMU_T_STANDARD && d->is_core) {
				/* and without a generic event: this core type cannot count it */
				char list[512];
				size_t o = 0;
				list[0] = 0;
				for (size_t i = 0; i < ctx->n_pmus; i++)
					if (ctx->pmus[i].is_core && std_native_on(ctx, &ctx->pmus[i], std->name))
						spelling_add(list, sizeof(list), &o, ctx->pmus[i].name, std->name);
				return pmu__err(ctx, -ENOENT, "event '%s': standard event %s cannot be counted on the %s "
						"cores: table %s maps no event of theirs to it and no kernel generic event "
						"expresses it%s%s", name, std->name, d->name,
						ctx->tables.cpu_dir ? ctx->tables.cpu_dir : "(none)",
						o ? "; the other core type's: " : "", list);
			}
			if (d->is_core && pmu__generic_lookup(first, &g) == 0 && g.type == PERF_TYPE_SOFTWARE)
				return pmu__err(ctx, -EINVAL, "event '%s': %s is a software event, counted by the kernel "
						"on no PMU of the CPU: write it alone ('%s')", name, first, first);
			if (d->is_core && !std) {
				/* a name this core PMU does not know (another core type's table may) */
				char known[256];
				known[0] = 0;
				for (size_t i = 0; i < d->n_formats && pmu__list_add(known, sizeof(known), d->formats[i].name); i++)
					;
				return pmu__err(ctx, -ENOENT, "event '%s': '%s' is no event of the %s PMU: not in its CPUs' "
						"table (%s), not one of its sysfs events, nor a kernel generic event, nor a "
						"format term (%s)", name, first, d->name,
						ctx->tables.cpu_dir ? ctx->tables.cpu_dir : "none", known);
			}
		}
		if (!strchr(s1 + 1, '=') && !strchr(s1 + 1, ','))
			snprintf(out->origin, sizeof(out->origin), "sysfs: %s/events/%s", path, s1 + 1);
	}
	return pmu__sysfs_encode(ctx, d, s1 + 1, name, out, 0);
}

/*
 * PMU/TERMS/ and EVENT/TERMS/. A PMU name that is no PMU here but stands for the boxes of an uncore unit
 * (uncore_imc/.../ or imc/.../ for uncore_imc_0 ... uncore_imc_N, as perf matches it), and an EVENT/TERMS/
 * whose table event counts on such a unit, are counted on every box: resolved here on the first box,
 * marked as the event of all of them (pmu__tables_boxes_mark; a set opens each box's encoding: boxes.c).
 */
static int resolve_sysfs_syntax(struct pmu_ctx *ctx, const char *name, char *spec,
				struct pmu_event_info *out, const char **mods)
{
	const struct pmu_dev *d = NULL;
	size_t pl = strcspn(spec, "/"), boxes = 0;
	char head[PMU_NAME_MAX];
	int r;

	if (pl < sizeof(head)) {
		memcpy(head, spec, pl);
		head[pl] = 0;
		if ((boxes = pmu__tables_unit_boxes(ctx, head, &d, 1)) < 2)
			boxes = 0, d = NULL;
	}
	if ((r = sysfs_syntax_on(ctx, name, spec, d, out, mods, &boxes)) < 0 || boxes < 2)
		return r;
	if (!d && !(d = pmu__pmu_by_type(ctx, out->type)))
		return pmu__err(ctx, -EINVAL, "event '%s': the first box of its unit has no type", name);
	pmu__tables_boxes_mark(out, d, boxes, NULL);
	return 0;
}

const char *pmu__uncountable(const struct pmu_ctx *ctx, const struct pmu_event_info *e)
{
	const struct pmu_dev *d;
	bool any = false;

	if ((e->flags & PMU_EVF_SOFTWARE) || e->type == PERF_TYPE_SOFTWARE)
		return NULL;
	if (e->type == PERF_TYPE_HARDWARE || e->type == PERF_TYPE_HW_CACHE) {
		/* on the core PMU in config bits 32-63 (hybrid), else on any core PMU */
		uint32_t ext = (uint32_t)(e->config >> 32);
		for (size_t p = 0; p < ctx->n_pmus; p++) {
			d = &ctx->pmus[p];
			if (!d->is_core || (ext && d->type != ext))
				continue;
			any = true;
			if (e->type == PERF_TYPE_HW_CACHE || pmu__generic_hw_on(ctx, d, e->config & 0xffffffffu))
				return NULL;
		}
		if (any)
			return "the core PMU does not have this kernel generic event (its sysfs events/ does not list it)";
		return ext ? "the core PMU it names is not on this machine" : "no hardware PMU is exposed";
	}
	if (e->type == PERF_TYPE_RAW)
		return pmu__core_pmu(ctx) ? NULL : "no hardware PMU is exposed";
	if (!(d = pmu__pmu_by_type(ctx, e->type)))
		return pmu__core_pmu(ctx) ? "its PMU is not on this machine" : "no hardware PMU is exposed";
	/* msr, RAPL, uncore PMUs filter no modes (the kernel refuses exclude_kernel): all or nothing */
	if (!d->is_core && !ctx->caps.can_count_kernel)
		return "kernel.perf_event_paranoid forbids kernel mode without CAP_PERFMON, and this PMU cannot "
		       "count user mode only";
	/* RAPL, uncore: a PMU that counts CPUs, which a task's set counts on the CPUs of its cpumask (set.c) */
	if (pmu__pmu_load(ctx, d) == 0 && d->cpumask) {
		if (!ctx->caps.cap_perfmon && !ctx->caps.cap_sys_admin &&
		    (ctx->caps.paranoid == PMU_UNKNOWN || ctx->caps.paranoid > 0))
			return "its PMU counts CPUs, not tasks, and counting every task of a CPU needs "
			       "kernel.perf_event_paranoid <= 0 or CAP_PERFMON";
	}
	return NULL;
}

bool pmu__name_countable(struct pmu_ctx *ctx, const char *name)
{
	struct pmu_event_info info;

	if (pmu__name_per_core_pmu(ctx, name)) {
		/* counted on each core PMU that gives it a meaning: countable where one does */
		char spelled[PMU_NAME_MAX + 80];
		for (size_t i = 0; i < ctx->n_pmus; i++)
			if (ctx->pmus[i].is_core && pmu__name_on_pmu(spelled, sizeof(spelled), ctx->pmus[i].name, name) == 0 &&
			    pmu__resolve_quiet(ctx, spelled, &info) == 0 && !pmu__uncountable(ctx, &info))
				return true;
		return false;
	}
	return pmu__resolve_quiet(ctx, name, &info) == 0 && !pmu__uncountable(ctx, &info);
}

/* A standard name this CPU cannot count: say so, and list what can be counted nearby. */
static int not_countable(struct pmu_ctx *ctx, const char *name, const struct pmu_tentry *e)
{
	const struct pmu_tables *t = &ctx->tables;
	const struct pmu_dev *core = pmu__core_pmu(ctx);
	char list[600], prefix[PMU_NAME_MAX];
	int shown = 0;

	if (pmu__err_is_quiet()) /* nobody reads the message: skip the search */
		return pmu__err(ctx, -ENOENT, "'%s' is a standard event, but this CPU cannot count it", name);
	pmu__strlcpy(prefix, e->name, sizeof(prefix));
	list[0] = 0;
	/* widen the prefix one level at a time until something countable shows up */
	while (!shown) {
		char *dot = strrchr(prefix, '.');
		if (dot)
			*dot = 0;
		for (size_t i = 0; i < t->n && shown < 8; i++) {
			const struct pmu_tentry *s = pmu__tables_entry(t, i);
			struct pmu_generic g;
			if (s->kind != PMU_T_STANDARD || (dot && !pmu__prefix(s->name, prefix)))
				continue;
			/* without a core PMU only a software event can count: no need to resolve the others */
			if (!core &&
			    !(s->generic && pmu__generic_lookup(s->generic, &g) == 0 && g.type == PERF_TYPE_SOFTWARE))
				continue;
			if (!pmu__name_countable(ctx, s->name))
				continue;
			if (!pmu__list_add(list, sizeof(list), s->name))
				break;
			shown++;
		}
		if (!dot)
			break;
	}
	{
		/* a CPU table may give the name as a formula over its events (TOPDOWN.SLOTS on Skylake) */
		const struct pmu_tentry *m = pmu__tables_find_pmu(ctx, e->name, NULL, PMU_TC_METRIC);
		char formula[PMU_NAME_MAX + 200] = "";
		if (m && m->kind == PMU_T_METRIC)
			snprintf(formula, sizeof(formula), ". This CPU's table offers it as a formula over its events "
				 "instead: 'pmu stat -M %s'%s.", m->name,
				 !pmu__prefix(m->name, "TOPDOWN") ? "" : m->group && strstr(m->group, "TopdownL2Slots") ?
				 ", or 'pmu stat --topdown -M TopdownL2Slots' for level 2 of the topdown tree" :
				 ", or the TOPDOWN keyword for the topdown tree");
		return pmu__err(ctx, -ENOENT,
				"'%s' is a standard event, but this CPU (%s, table %s) cannot count it: no native event "
				"implements it and no kernel event expresses it. Countable here: %s%s",
				name, ctx->cpu.cpuid[0] ? ctx->cpu.cpuid : "unidentified",
				t->cpu_dir ? t->cpu_dir : "none", shown ? list : "(none)", formula);
	}
}

/* Append the spelling "PMU/EVENT/" to the " or "-separated @list (@len bytes, *@o used so far). */
static void spelling_add(char *list, size_t len, size_t *o, const char *pmu, const char *event)
{
	*o += (size_t)snprintf(list + *o, *o < len ? len - *o : 0, "%s%s/%s/", *o ? " or " : "", pmu, event);
}

/*
 * A table name written without a PMU where one encoding cannot count what it names: refused, naming the
 * PMU/NAME/ spellings that can (perf counts such a name on each PMU; libpmu counts one encoding). The
 * one place of this rule (hybrid CPUs, names defined per PMU):
 *  - a native event (@e PMU_T_NATIVE) defined once per PMU (perf's Intel hybrid files: "Unit":
 *    "cpu_core" and "cpu_atom"), or without a Unit on a CPU of several core PMUs;
 *  - a standard name (@e PMU_T_STANDARD) whose native event is a core PMU's, on a CPU of several core
 *    PMUs (Intel's hybrid tables define one per core type; an arm64 table's serves each cluster): each
 *    core type counts it with its own event, and one alone would count a part of the work as if it
 *    were all of it.
 * 0 otherwise.
 */
static bool one_pmu_needed(struct pmu_ctx *ctx, const struct pmu_tentry *e)
{
	const struct pmu_tentry *v[1];
	size_t n;

	if (e->kind == PMU_T_STANDARD)
		return pmu__n_core_pmus(ctx) >= 2 && pmu__tables_natives_for(ctx, e->name, v, 1) &&
		       (!v[0]->unit || pmu__tables_core_unit(v[0]->unit));
	if (e->kind != PMU_T_NATIVE)
		return false;
	pmu__tables_find_all(ctx, e->name, PMU_TC_EVENT, &n);
	return n > 1 || (!e->unit && pmu__n_core_pmus(ctx) >= 2);
}

static int name_one_pmu(struct pmu_ctx *ctx, const char *name, const struct pmu_tentry *e)
{
	const struct pmu_tname *hit;
	char list[512];
	size_t o = 0, n;

	if (!one_pmu_needed(ctx, e))
		return 0;
	list[0] = 0;
	if (e->kind == PMU_T_STANDARD) {
		const struct pmu_tentry *v[16];
		size_t on = 0;
		n = pmu__tables_natives_for(ctx, e->name, v, 16);
		for (size_t i = 0; i < ctx->n_pmus; i++) {
			/* the spellings that resolve: a core type's own event, or the kernel's generic one */
			char spelled[2 * PMU_NAME_MAX + 4];
			struct pmu_event_info info;
			if (!ctx->pmus[i].is_core)
				continue;
			snprintf(spelled, sizeof(spelled), "%s/%s/", ctx->pmus[i].name, e->name);
			if (pmu__resolve_quiet(ctx, spelled, &info) == 0) {
				spelling_add(list, sizeof(list), &o, ctx->pmus[i].name, e->name);
				on++;
			}
		}
		if (on && on < pmu__n_core_pmus(ctx)) /* the other core types have no event for it */
			return pmu__err(ctx, -EINVAL, "standard event '%s' can be counted on only %zu of the %zu core "
					"PMUs of this hybrid CPU (table %s), a part of the work: to count that part, "
					"name the PMU: %s", name, on, pmu__n_core_pmus(ctx), v[0]->dir, list);
		return pmu__err(ctx, -EINVAL, "standard event '%s' is counted by another event on each core PMU of "
				"this hybrid CPU (%zu core PMUs, table %s): name the PMU: %s", name,
				pmu__n_core_pmus(ctx), v[0]->dir, o ? list : "(none counts it)");
	}
	hit = pmu__tables_find_all(ctx, e->name, PMU_TC_EVENT, &n);
	if (n > 1) {
		for (size_t i = 0; i < n; i++)
			spelling_add(list, sizeof(list), &o, hit[i].ent->unit ? hit[i].ent->unit : "cpu", e->name);
		return pmu__err(ctx, -EINVAL,
				"event '%s' is defined once per PMU in %s (perf counts it on each): one encoding cannot "
				"count it, name it: %s (an event list counts the bare name on each)", name, e->file, list);
	}
	for (size_t i = 0; i < ctx->n_pmus; i++)
		if (ctx->pmus[i].is_core)
			spelling_add(list, sizeof(list), &o, ctx->pmus[i].name, e->name);
	return pmu__err(ctx, -EINVAL,
			"event '%s' (%s) names no PMU and this CPU has %zu core PMUs (perf counts it on each): "
			"one encoding cannot count it, name it: %s (an event list counts the bare name on each)",
			name, e->file, pmu__n_core_pmus(ctx), list);
}

/* Whether more than one core PMU lists sysfs event @name (mem-loads on Intel hybrid; inst_retired on an
 * arm64 machine without a table for its cores), each with its own encoding. Not the kernel's generic names
 * that x86 lists there too (cpu-cycles, instructions: split as generic events) nor the topdown events
 * (slots, topdown-*), which stay with the core PMU whose group they lead or fill (topdown-role.c). */
static bool sysfs_on_several(const struct pmu_ctx *ctx, const char *name)
{
	struct pmu_generic g;
	size_t listing = 0;

	if (pmu__generic_lookup(name, &g) == 0)
		return false; /* a kernel generic name (instructions): split as one, its extended type on each */
	for (size_t i = 0; i < PMU_TD_ROLES; i++)
		if (!strcasecmp(name, pmu__td_roles[i].sysfs))
			return false;
	for (size_t i = 0; i < ctx->n_pmus; i++) {
		const struct pmu_dev *d = &ctx->pmus[i];
		for (size_t k = 0; d->is_core && k < d->n_events; k++)
			if (!strcasecmp(d->events[k].name, name)) {
				listing++;
				break;
			}
	}
	return listing > 1;
}

bool pmu__name_per_core_pmu(struct pmu_ctx *ctx, const char *name)
{
	char base[PMU_NAME_MAX];
	const struct pmu_tentry *e;
	size_t b = pmu__mode_base(name);

	if (pmu__n_core_pmus(ctx) < 2 || b >= sizeof(base) || memchr(name, '/', b))
		return false;
	if (memchr(name, ':', b)) {
		/* Intel's modifiers of a table event (INST_RETIRED.ANY:c1): the event's, on each core PMU */
		if (ctx->cpu.arch != PMU_ARCH_X86 || !pmu__intel_mods_only(name))
			return false;
		b = (size_t)((const char *)memchr(name, ':', b) - name);
	}
	memcpy(base, name, b);
	base[b] = 0;
	if (pmu__tables_load(ctx) == 0 && (e = pmu__tables_find(ctx, base)))
		return one_pmu_needed(ctx, e);
	/* not CPU 0's table's: a name of another core type's table (a big.LITTLE cluster's own event) */
	for (size_t i = 0; i < ctx->n_pmus && !ctx->core_child; i++) {
		struct pmu_ctx *own;
		if (!ctx->pmus[i].is_core || (own = pmu__core_ctx(ctx, &ctx->pmus[i])) == ctx || !own)
			continue;
		if (pmu__tables_load(own) == 0 && (e = pmu__tables_find(own, base)) && e->kind != PMU_T_METRIC)
			return true;
	}
	return sysfs_on_several(ctx, base);
}

/* Resolve from the tables. 0 done, -ENOENT not a table name, other errors final. */
static int resolve_table(struct pmu_ctx *ctx, const char *name, const char *spec, struct pmu_event_info *out)
{
	const struct pmu_tentry *e, *n;
	struct pmu_generic g;
	int r;

	if ((r = pmu__tables_load(ctx)) < 0)
		return r; /* the load's error (said), not 'unknown event' */
	if (!(e = pmu__tables_find(ctx, spec)))
		return -ENOENT;
	if (e->kind == PMU_T_METRIC)
		return pmu__err(ctx, -EINVAL, "'%s' is a metric (%s), not an event: evaluate it with pmu stat -M %s",
				name, e->file, e->name);
	if (e->kind == PMU_T_NATIVE)
		return (r = name_one_pmu(ctx, name, e)) < 0 ? r : pmu__tables_encode(ctx, e, name, out);
	/* a standard name: the CPU's native event first, then the kernel's generic one */
	if ((r = name_one_pmu(ctx, name, e)) < 0)
		return r;
	if ((n = pmu__tables_native_for(ctx, e->name))) {
		if ((r = pmu__tables_encode(ctx, n, name, out)) < 0)
			return r;
		as_standard(e, n, out);
		return 0;
	}
	if (e->generic && pmu__generic_lookup(e->generic, &g) == 0) {
		out->type = g.type;
		out->config = g.config;
		out->source = PMU_SRC_GENERIC;
		out->desc = g.desc;
		out->unit = g.unit;
		pmu__strlcpy(out->pmu, g.type == PERF_TYPE_SOFTWARE ? "software" : pmu__core_pmu_name(ctx), sizeof(out->pmu));
		snprintf(out->origin, sizeof(out->origin), "kernel generic event %s", e->generic);
		std_as_generic(e, out);
		return 0;
	}
	return not_countable(ctx, name, e);
}

/*
 * Intel's modifiers on a table event, as Intel's perfmon metric files write
 * them: EVENT:c1 (counter mask), :e1 (edge), :i1 (invert), :u0x80 (another
 * unit mask), :perf_metrics (the SLOTS event as topdown uses it), mixed with
 * perf's :u/:k/:h (collected into @priv). 0 done, -ENOENT not such a name,
 * other errors final.
 */
static int resolve_table_mods(struct pmu_ctx *ctx, const char *name, const char *spec, struct pmu_event_info *out,
			      char *priv, size_t privlen)
{
	char base[PMU_NAME_MAX], *tok, *save = NULL;
	const struct pmu_tentry *e;
	struct pmu_tentry m;
	size_t np = 0;
	const char *colon = strchr(spec, ':');
	int r;

	if (!colon || (size_t)(colon - spec) >= sizeof(base))
		return -ENOENT;
	memcpy(base, spec, (size_t)(colon - spec));
	base[colon - spec] = 0;
	if ((r = pmu__tables_load(ctx)) < 0)
		return r;
	if (!(e = pmu__tables_find(ctx, base)) || e->kind != PMU_T_NATIVE)
		return -ENOENT;
	if (!(e->have & PMU_TF_EVENT) || (strncmp(e->dir, "x86/", 4) && ctx->cpu.arch != PMU_ARCH_X86))
		return pmu__err(ctx, -EINVAL, "event '%s': modifiers c, e, i and u<mask> apply to Intel events; "
				"'%s' (%s) takes only :u, :k, :h", name, base, e->file);
	m = *e;
	pmu__strlcpy(base, colon + 1, sizeof(base));
	for (tok = strtok_r(base, ":", &save); tok; tok = strtok_r(NULL, ":", &save)) {
		const char *term;
		unsigned long long x;
		if (!strcmp(tok, "perf_metrics"))
			continue;
		if (pmu__is_mods(tok) && np + strlen(tok) < privlen) {
			memcpy(priv + np, tok, strlen(tok) + 1);
			np += strlen(tok);
			continue;
		}
		if (pmu__intel_mod(tok, &term, &x) < 0)
			return pmu__err(ctx, -EINVAL,
					"event '%s': '%s' is not a modifier; Intel's are c<N> (counter mask 0-255), "
					"e1 (edge), i1 (invert), u<mask> (unit mask, e.g. u0x80); perf's are u, k, h",
					name, tok);
		switch (tok[0]) {
		case 'c': m.cmask = x; m.have |= PMU_TF_CMASK; break;
		case 'e': m.edge = x; m.have |= PMU_TF_EDGE; break;
		case 'i': m.inv = x; m.have |= PMU_TF_INV; break;
		case 'u': m.umask = x; m.have |= PMU_TF_UMASK; break;
		}
	}
	/* the modifiers first: a bad one is said as such, also of an event defined once per PMU */
	if ((r = name_one_pmu(ctx, name, e)) < 0)
		return r;
	return pmu__tables_encode(ctx, &m, name, out);
}

/* The libpfm4 PMU that encoded @out (origin "libpfm4: MODEL::EVENT...") into @model; returns what follows
 * "MODEL::", NULL if @out is not libpfm4's. */
static const char *pfm_origin_model(const struct pmu_event_info *out, char *model, size_t size)
{
	const char *fstr = strstr(out->origin, "libpfm4: "), *sep;

	if (!fstr || !(sep = strstr(fstr += 9, "::")) || (size_t)(sep - fstr) >= size)
		return NULL;
	memcpy(model, fstr, (size_t)(sep - fstr));
	model[sep - fstr] = 0;
	return sep + 2;
}

/* The components of libpfm4 name @s that are not attributes (x=...), joined by @sep into @out: EVENT:UMASK
 * of "EVENT:UMASK:c=1" (@sep ':'), the tables' EVENT.UMASK (@sep '.'). Returns the length, 0 if none or
 * if they do not fit. */
static size_t pfm_components(const char *s, char sep, char *out, size_t size)
{
	size_t n = 0;

	for (const char *c = s, *next; *c; c = next) {
		size_t len = strcspn(c, ":");
		next = c + len + (c[len] == ':');
		if (memchr(c, '=', len))
			continue;
		if (n + len + 2 > size) {
			out[0] = 0;
			return 0;
		}
		if (n)
			out[n++] = sep;
		memcpy(out + n, c, len);
		n += len;
	}
	out[n] = 0;
	return n;
}

/* Refuse libpfm4's encoding @out of @spec (EVENT:UMASK as the user wrote it, perhaps with MODEL:: and
 * attributes x=v), made by libpfm4 PMU @model, where the context's own table is the table of that PMU's
 * CPU and encodes EVENT.UMASK so that it counts otherwise (pmu__pfm_same_count, the validator's
 * comparison, with libpfm4's encoding of MODEL::EVENT:UMASK without the attributes): the user meant the
 * CPU's event and would get another count without a word. perf's x86 tree has 118 such names against
 * libpfm4 4.13, most of them libpfm4's older encodings. */
static int pfm_table_differs(struct pmu_ctx *ctx, const struct pmu_event_info *out, const char *model,
			     const char *spec)
{
	char bare[PMU_NAME_MAX + 40], name[PMU_NAME_MAX];
	const char *sep, *mine;
	struct perf_event_attr attr;
	const struct pmu_tentry *e;
	uint64_t ours, ours1;
	size_t n;
	int r;

	if ((sep = strstr(spec, "::")))
		spec = sep + 2;
	n = pfm_components(spec, '.', name, sizeof(name));
	if ((r = pmu__tables_load(ctx)) == -ENOMEM)
		return pmu__err(ctx, r, "event '%s': out of memory loading the event tables", out->name);
	if (!n || r < 0 || !(mine = pmu__pfm_model(ctx->tables.cpu_dir)) || strcmp(mine, model) ||
	    !(e = pmu__tables_find(ctx, name)) || e->kind != PMU_T_NATIVE || !(e->have & PMU_TF_EVENT) ||
	    (e->have & PMU_TF_CONFIG) || e->unit)
		return 0;
	snprintf(bare, sizeof(bare), "%s::", model);
	pfm_components(spec, ':', bare + strlen(bare), sizeof(bare) - strlen(bare));
	if ((r = pmu__pfm_attr(bare, &attr)) == -ENOMEM)
		return pmu__err(ctx, r, "event '%s': out of memory encoding %s with libpfm4", out->name, bare);
	ours = pmu__tables_raw_config(e, pmu__pfm_x86(model));
	ours1 = (e->have & PMU_TF_MSR) ? e->msr_value : 0;
	if (r < 0 || pmu__pfm_same_count(model, ours, ours1, attr.config, attr.config1))
		return 0;
	return pmu__err(ctx, -EINVAL, "event '%s': libpfm4 encodes %s as config %#llx, and this CPU's table "
			"(%s, %s) encodes %s as %#llx: they differ, so one of them counts something else than the "
			"name says (pmu check-tables lists such differences). Count '%s' for the table's encoding, "
			"or write the encoding you mean as %s", out->name, bare,
			(unsigned long long)(attr.config & PMU_PFM_COMPARED), ctx->tables.cpu_dir,
			ctx->tables.cpu_dir_root ? ctx->tables.cpu_dir_root : "built-in", e->name,
			(unsigned long long)ours, e->name,
			pmu__pfm_x86(model) ? "cpu/event=...,umask=.../" : "a raw event (rNNNN: the event number)");
}

/* Refuse libpfm4's encoding @out of @ev (its origin after "MODEL::": EVENT:UMASK:attrs...), made by
 * libpfm4 PMU @model, where the built-in table of that model declares libpfm4's event of that name
 * wrongly encoded (PfmName "-": libpfm4 4.13's TOPDOWN:BACKEND_BOUND_SLOTS lacks its event code, and
 * TOPDOWN:BAD_SPEC_SLOTS is the SLOTS counter's encoding): the count would be another event's, without
 * a word. 0 if not declared. */
static int pfm_declared_wrong(struct pmu_ctx *ctx, const struct pmu_event_info *out, const char *model,
			      const char *ev)
{
	struct pmu_builtin_entry b;
	char pfm[PMU_NAME_MAX], name[PMU_NAME_MAX];
	size_t n;

	n = pfm_components(ev, ':', pfm, sizeof(pfm));
	pfm_components(ev, '.', name, sizeof(name));
	if (!n || !pmu__tables_builtin_event(pmu__pfm_dir(model), name, &b) || !b.pfm_name ||
	    strcmp(pmu__builtin_str(b.pfm_name), "-"))
		return 0;
	return pmu__err(ctx, -EINVAL, "event '%s': libpfm4 encodes %s::%s as config %#llx, and this library's %s "
			"table declares that encoding wrong: %s Count it as '%s' instead", out->name, model, pfm,
			(unsigned long long)out->config, pmu__builtin_str(b.dir),
			b.notes ? pmu__builtin_str(b.notes) : "", pmu__builtin_str(b.name));
}

int pmu__pfm_model_of(struct pmu_ctx *ctx, const char **model)
{
	int r;

	*model = NULL;
	if (!ctx->cpu.overridden)
		return 0;
	/* the CPU PMU_CPUID names, not this one */
	if ((r = pmu__tables_load(ctx)) == -ENOMEM)
		return r;
	return r < 0 || !(*model = pmu__pfm_model(ctx->tables.cpu_dir)) ? -ENOENT : 0;
}

/* libpfm4's encoding of @spec: PMU::EVENT as written, another name for the core PMU of the CPU
 * (pmu__pfm_model_of). -ENOENT when libpfm4 does not know the name or the named CPU; -EINVAL where
 * libpfm4's encoding of it is declared wrong (pfm_declared_wrong) or differs from the CPU table's of the
 * same name (pfm_table_differs). */
static int resolve_pfm(struct pmu_ctx *ctx, const char *spec, struct pmu_event_info *out)
{
	const char *model = NULL, *ev;
	char pmu[32];
	int r;

	if (!strstr(spec, "::") && (r = pmu__pfm_model_of(ctx, &model)) < 0)
		return r == -ENOMEM ? pmu__err(ctx, r, "event '%s': out of memory loading the event tables to find the "
					       "libpfm4 PMU of CPU %s", out->name, ctx->cpu.cpuid) : r;
	if ((r = pmu__pfm_resolve(ctx, spec, model, out)) < 0)
		return r;
	/* the libpfm4 PMU that encoded it (@model, or the one libpfm4 found here), for both checks */
	if (!(ev = pfm_origin_model(out, pmu, sizeof(pmu))))
		return 0;
	if ((r = pfm_declared_wrong(ctx, out, pmu, ev)) < 0)
		return r;
	return pfm_table_differs(ctx, out, pmu, spec);
}

/* Does @x resolve as an event on its own (so that X:Y is an event with a bad modifier)? Quiet. */
static bool is_event(struct pmu_ctx *ctx, const char *x)
{
	struct pmu_event_info tmp;

	return pmu__resolve_quiet(ctx, x, &tmp) == 0;
}

int pmu__resolve(struct pmu_ctx *ctx, const char *name, const char *mods_extra,
		 struct pmu_event_info *out)
{
	return pmu__resolve_mode(ctx, name, mods_extra, out, NULL);
}

int pmu__resolve_quiet(struct pmu_ctx *ctx, const char *name, struct pmu_event_info *out)
{
	int r;

	pmu__err_quiet(true); /* nests: a probe inside a probe (a hybrid name's spellings) stays quiet */
	r = pmu__resolve(ctx, name, NULL, out);
	pmu__err_quiet(false);
	return r;
}

int pmu__resolve_mode(struct pmu_ctx *ctx, const char *name, const char *mods_extra,
		      struct pmu_event_info *out, bool *mode_written)
{
	char priv[8] = "";
	char spec[PMU_NAME_MAX * 2];
	const char *mods = NULL, *bad_mods = NULL;
	struct pmu_generic g;
	int r;

	memset(out, 0, sizeof(*out));
	if (!name || !*name)
		return pmu__err(ctx, -EINVAL, "empty event name");
	if (strlen(name) >= PMU_NAME_MAX)
		return pmu__err(ctx, -EINVAL, "event name '%.40s...' is too long (at most %d characters)", name,
				PMU_NAME_MAX - 1);
	for (const char *c = name; *c; c++)
		if (!isprint((unsigned char)*c) || isspace((unsigned char)*c))
			return pmu__err(ctx, -EINVAL, "event name '%s' contains a space or control character",
					name);
	pmu__strlcpy(out->name, name, sizeof(out->name));
	pmu__strlcpy(spec, name, sizeof(spec));
	out->desc = "";
	out->unit = "";
	out->note = "";
	out->approx_note = "";

	if (strchr(spec, '/')) {
		/* a core PMU of other CPUs than CPU 0 (a big.LITTLE cluster): encoded from its CPUs' tables */
		const struct pmu_dev *d;
		struct pmu_ctx *own;
		char pmu[64];
		size_t pl = strcspn(spec, "/");
		if (pl < sizeof(pmu) && !ctx->core_child) {
			memcpy(pmu, spec, pl);
			pmu[pl] = 0;
			if ((d = pmu__pmu_by_name(ctx, pmu)) && d->is_core && (own = pmu__core_ctx(ctx, d)) != ctx)
				return own ? pmu__resolve_mode(own, name, mods_extra, out, mode_written) : -ENOMEM;
		}
		r = resolve_sysfs_syntax(ctx, name, spec, out, &mods);
		if (r < 0)
			return r;
		goto done;
	}
	{
		char *colon = strrchr(spec, ':');
		if (colon && pmu__is_mods_of(spec, colon + 1) && colon > spec && colon[-1] != ':') {
			*colon = 0;
			mods = name + (colon + 1 - spec);
		} else if (colon && !strstr(spec, "::")) {
			bad_mods = colon + 1; /* unless libpfm4 knows "EVENT:UMASK" */
		}
	}
	if (!strchr(spec, ':')) {
		if ((spec[0] == 'r' || spec[0] == 'R') && spec[1]) {
			bool hex = true;
			for (const char *c = spec + 1; *c; c++)
				hex = hex && isxdigit((unsigned char)*c);
			if (hex) {
				if (strlen(spec + 1) > 16)
					return pmu__err(ctx, -EINVAL, "event '%s': raw code wider than 64 bits", name);
				out->type = PERF_TYPE_RAW;
				out->config = strtoull(spec + 1, NULL, 16);
				out->source = PMU_SRC_RAW;
				pmu__strlcpy(out->pmu, pmu__core_pmu_name(ctx), sizeof(out->pmu));
				snprintf(out->origin, sizeof(out->origin), "raw: config 0x%llx for the core PMU",
					 (unsigned long long)out->config);
				out->desc = "raw event code";
				goto done;
			}
		}
		r = resolve_table(ctx, name, spec, out);
		if (r == 0)
			goto done;
		if (r != -ENOENT || pmu__tables_find(ctx, spec))
			return r;
		/* a PAPI preset (PAPI_TOT_INS): PAPI's own event for this CPU, else libpmu's mapping (papi.c) */
		if ((r = pmu__papi_resolve(ctx, name, spec, out)) != -ENOENT || pmu__papi_is_preset(spec)) {
			if (r < 0)
				return r;
			goto done;
		}
		if (pmu__generic_lookup(spec, &g) == 0) {
			out->type = g.type;
			out->config = g.config;
			out->source = PMU_SRC_GENERIC;
			out->desc = g.desc;
			out->unit = g.unit;
			if (g.type == PERF_TYPE_SOFTWARE) {
				pmu__strlcpy(out->pmu, "software", sizeof(out->pmu));
				out->flags |= PMU_EVF_SOFTWARE;
			} else {
				pmu__strlcpy(out->pmu, pmu__core_pmu_name(ctx), sizeof(out->pmu));
			}
			snprintf(out->origin, sizeof(out->origin), "kernel generic event: %s config 0x%llx",
				 g.type == PERF_TYPE_HARDWARE ? "PERF_TYPE_HARDWARE" :
				 g.type == PERF_TYPE_SOFTWARE ? "PERF_TYPE_SOFTWARE" : "PERF_TYPE_HW_CACHE",
				 (unsigned long long)g.config);
			goto done;
		}
		for (size_t p = 0; p < ctx->n_pmus; p++) {
			const struct pmu_dev *d = &ctx->pmus[p];
			if (!d->is_core)
				continue;
			for (size_t i = 0; i < d->n_events; i++) {
				if (strcasecmp(d->events[i].name, spec))
					continue;
				pmu__strlcpy(out->pmu, d->name, sizeof(out->pmu));
				out->type = d->type;
				out->source = PMU_SRC_SYSFS;
				snprintf(out->origin, sizeof(out->origin), "sysfs: %s/bus/event_source/devices/%s/events/%s",
					 ctx->sysfs_root, d->name, d->events[i].name);
				r = pmu__sysfs_encode_event(ctx, d, &d->events[i], name, out, 0);
				if (r < 0)
					return r;
				goto done;
			}
		}
	}
	if (strchr(spec, ':') && !strstr(spec, "::")) {
		/* the whole name: its last :u/:k/:h may have been split off above */
		r = resolve_table_mods(ctx, name, name, out, priv, sizeof(priv));
		if (r == 0) {
			mods = priv;
			goto done;
		}
		if (r != -ENOENT)
			return r;
	}
	/* a tool event (duration_time) before libpfm4, which knows none and need not be loaded for them */
	if (!strchr(spec, ':') && pmu__tool_resolve(ctx, spec, out) == 0)
		goto done;
	r = resolve_pfm(ctx, spec, out);
	if (r == 0)
		goto done;
	if (r != -ENOENT)
		return r;
	/* a tracepoint SYS:NAME (and what an unknown X:Y means): 1 if not */
	if (strchr(spec, ':') && (r = pmu__tracepoint_resolve(ctx, name, spec, out, is_event)) <= 0) {
		if (r == 0)
			goto done;
		return r;
	}
	if (bad_mods)
		return pmu__err(ctx, -EINVAL,
				"event '%s': '%s' is not a modifier (use :u user, :k kernel, :h hypervisor) and "
				"libpfm4 does not know '%s' either", name, bad_mods, spec);
	return unknown(ctx, name, spec);
done:
	if ((r = pmu__mods_apply(ctx, name, mods, mods_extra, out, mode_written)) < 0)
		return r;
	if (out->type == PERF_TYPE_SOFTWARE || !strcmp(out->pmu, "software"))
		out->flags |= PMU_EVF_SOFTWARE;
	pmu__topdown_mark(ctx, out);
	return 0;
}

PMU_EXPORT int pmu_event_resolve(struct pmu_ctx *ctx, const char *name, struct pmu_event_info *out)
{
	pmu__err_clear();
	if (!ctx || !out)
		return pmu__err(ctx, -EINVAL, "pmu_event_resolve: NULL context or output");
	return pmu__resolve(ctx, name, NULL, out);
}

PMU_EXPORT int pmu_event_scale(struct pmu_ctx *ctx, const struct pmu_event_info *e, double *scale)
{
	int r = -ENOENT;

	pmu__err_clear();
	if (!ctx || !e || !scale)
		return pmu__err(ctx, -EINVAL, "pmu_event_scale: NULL argument");
	*scale = 1;
	if (!(e->flags & PMU_EVF_SCALED))
		return 0;
	/* where the factor came from: a PMU's sysfs .scale, or a table event's ScaleUnit */
	if (e->source == PMU_SRC_SYSFS)
		r = pmu__sysfs_scale(ctx, e, scale);
	else if (e->source == PMU_SRC_TABLE)
		r = pmu__tables_scale(ctx, e, scale);
	if (r == -ENOENT)
		return pmu__err(ctx, r, "pmu_event_scale: '%s' (PMU %s, config 0x%llx) is no scaled event of this "
				"context's: its count's unit is unknown", e->name, e->pmu, (unsigned long long)e->config);
	return r;
}
