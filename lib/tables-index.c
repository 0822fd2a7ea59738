/* SPDX-License-Identifier: MIT */
/*
 * Event tables, the name index: names and aliases in order (a CPU's definitions before standard
 * names, then load order; the built-in directories come presorted and are merged; one definition
 * per PMU kept side by side, other duplicates reported), and every lookup by name: an entry, its
 * definitions per PMU, the native events implementing a standard name.
 */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "pmu.h"
#include "context.h"
#include "namelist.h"
#include "tables.h"
#include "util.h"

/* ---------------------------------------------------------------- */
/* index                                                             */
/* ---------------------------------------------------------------- */

int pmu__tables_cmp_name(const void *a, const void *b)
{
	return strcasecmp(((const struct pmu_tname *)a)->name, ((const struct pmu_tname *)b)->name);
}

/* names, then a CPU's own definitions before standard names (a CPU table's native TOPDOWN.SLOTS is that
 * CPU's event, whatever directory was loaded first), then load order: the first loaded of equal names
 * comes first */
int pmu__tables_cmp_order(const void *a, const void *b)
{
	const struct pmu_tname *x = a, *y = b; /* their entries made (sorted_names makes them all) */
	int c = strcasecmp(x->name, y->name), mx = x->ent->kind == PMU_T_METRIC, my = y->ent->kind == PMU_T_METRIC;
	int sx = x->ent->kind == PMU_T_STANDARD, sy = y->ent->kind == PMU_T_STANDARD;

	if (c || mx != my)  /* the events of a name, then its metrics */
		return c ? c : mx - my;
	if (sx != sy)
		return sx - sy;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* What a name in the index is: an event (native or standard) or a metric, by its entry's kind. */
static int kclass(int kind)
{
	return kind == PMU_T_METRIC ? PMU_TC_METRIC : PMU_TC_EVENT;
}

static int tclass(const struct pmu_tentry *e)
{
	return kclass(e->kind);
}

static bool same_unit(const struct pmu_tentry *a, const struct pmu_tentry *b)
{
	return !strcasecmp(a->unit ? a->unit : "", b->unit ? b->unit : "");
}

static bool same_text(const char *a, const char *b)
{
	return !strcmp(a ? a : "", b ? b : "");
}

/* Whether two entries define the same thing: an event with the same encoding, a metric with the same
 * expression (descriptions aside). */
static bool same_definition(const struct pmu_tentry *a, const struct pmu_tentry *b)
{
	if (a->kind != b->kind || !same_unit(a, b))
		return false;
	if (a->kind == PMU_T_METRIC)
		return same_text(a->expr, b->expr) && same_text(a->threshold, b->threshold) &&
		       same_text(a->params, b->params);
	return a->have == b->have && a->event == b->event && a->umask == b->umask && a->cmask == b->cmask &&
	       a->inv == b->inv && a->edge == b->edge && a->any == b->any && a->msr_index == b->msr_index &&
	       a->msr_value == b->msr_value && a->config_code == b->config_code && same_text(a->generic, b->generic);
}

/*
 * Index names and aliases. A name is defined once, by the entry loaded
 * first, except that one table directory may define it once per PMU (perf's
 * Intel hybrid files: an event or metric for "Unit": "cpu_core" and another
 * for "cpu_atom"): those are kept side by side. Other duplicates are
 * reported (loading: only within one directory, as a PMU_EVENTS_PATH
 * directory overrides the built-in tables by design; checking: every one).
 */
/* A name of the index for entry i, room made. 0 or -ENOMEM. */
static int push_name(struct pmu_tname **v, size_t *n, size_t *cap, const char *name, struct pmu_tentry *e, size_t i)
{
	if (*n == *cap && pmu__grow(v, cap, 64, sizeof(**v)) < 0)
		return -ENOMEM;
	(*v)[*n].name = name;
	(*v)[*n].order = i;
	(*v)[(*n)++].ent = e;
	return 0;
}

/* Entry @i's aliases ("A, B") as names: one copy of the list, split in place and kept in
 * t->alias_store (a copy per alias and a store grown by one cost ~100,000 instructions of a first
 * context). 0 or -ENOMEM. */
static int push_aliases(struct pmu_tables *t, struct pmu_tname **v, size_t *n, size_t *cap, size_t i)
{
	struct pmu_tentry *e = pmu__tables_entry(t, i);
	char *save = NULL, *copy, *tok;

	if (!e->aliases)
		return 0;
	if (t->nalias == t->alias_cap && pmu__grow(&t->alias_store, &t->alias_cap, 64, sizeof(*t->alias_store)) < 0)
		return -ENOMEM;
	if (!(copy = strdup(e->aliases)))
		return -ENOMEM;
	t->alias_store[t->nalias++] = copy; /* owned by the store from here, whatever happens */
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		size_t l;
		while (isspace((unsigned char)*tok))
			tok++;
		l = strlen(tok);
		while (l && isspace((unsigned char)tok[l - 1]))
			tok[--l] = 0;
		if (*tok && push_name(v, n, cap, tok, e, i) < 0)
			return -ENOMEM;
	}
	return 0;
}

/* Merge the sorted runs v[bound[r]..bound[r + 1]) (r < nr) into one, pairwise: n log(runs) comparisons
 * where sorting would take n log n. The order is total (load order breaks ties), so the result is
 * what sorting gives. 0 or -ENOMEM. */
static int merge_runs(struct pmu_tname *v, size_t *bound, size_t nr)
{
	struct pmu_tname *tmp;

	if (nr < 2)
		return 0;
	if (!(tmp = malloc((bound[nr] ? bound[nr] : 1) * sizeof(*tmp))))
		return -ENOMEM;
	while (nr > 1) {
		size_t w = 0;
		for (size_t r = 0; r < nr; r += 2) {
			size_t lo = bound[r], mid = bound[r + 1], hi = r + 1 < nr ? bound[r + 2] : mid;
			size_t x = lo, y = mid, o = lo;
			while (x < mid && y < hi)
				tmp[o++] = pmu__tables_cmp_order(&v[x], &v[y]) <= 0 ? v[x++] : v[y++];
			while (x < mid)
				tmp[o++] = v[x++];
			while (y < hi)
				tmp[o++] = v[y++];
			memcpy(v + lo, tmp + lo, (hi - lo) * sizeof(*v));
			bound[w++] = lo;
		}
		bound[w] = bound[nr];
		nr = w;
	}
	free(tmp);
	return 0;
}

/*
 * The names in index order of a table that holds a built-in CPU directory then the standard names, or
 * the standard names alone — every context without PMU_EVENTS_PATH: taken from gen-tables.py's merge
 * script, no comparison made (the merge and the sort of the aliases were most of a first context's
 * index, 110-215 us on the development VM). 0, 1 when @t is not such a table, -ENOMEM.
 */
static int scripted_names(struct pmu_tables *t, struct pmu_tname **out, size_t *nout, const unsigned char **same)
{
	const struct pmu_tchunk *cpu, *std;
	const struct pmu_builtin_dir *sd, *script;
	size_t nc, pos[4] = { 0, 0, 0, 0 }, n = 0;
	struct pmu_tname *v;

	if (!t->nchunks || t->nchunks > 2)
		return 1;
	cpu = t->nchunks == 2 ? &t->chunks[0] : NULL;
	std = &t->chunks[t->nchunks - 1];
	sd = std->bd;
	script = cpu ? cpu->bd : sd;
	nc = cpu ? cpu->n : 0;
	if (strcmp(sd->dir, "standard") || (cpu && (cpu->first || cpu->bd == sd)) || std->first != nc ||
	    t->n != nc + std->n)
		return 1;
	if (!(v = malloc((script->nmerge ? script->nmerge : 1) * sizeof(*v))))
		return -ENOMEM;
	for (size_t k = 0; k < script->nmerge; k++) {
		unsigned r = (script->merge[k / 4] >> (2 * (k % 4))) & 3;
		const struct pmu_tchunk *ch = r & 1 ? std : cpu;
		size_t i;
		const char *name;
		if (!ch || pos[r] >= (r < 2 ? ch->n : ch->bd->naliases))
			break; /* not this table's script: the general way below */
		if (r < 2) { /* the compiled entry's name (not read from the entry: made at its first use) */
			i = ch->first + ch->bd->order[pos[r]];
			name = pmu__builtin_str(ch->bd->order_name[pos[r]++]);
		} else {
			const struct pmu_builtin_alias *a = &ch->bd->aliases[pos[r]++];
			i = ch->first + a->entry;
			name = pmu__builtin_str(a->name);
		}
		v[n].name = name;
		v[n].ent = t->ent[i];
		v[n++].order = i;
	}
	if (n != script->nmerge || pos[0] + pos[1] != t->n || pos[2] != (cpu ? cpu->bd->naliases : 0) ||
	    pos[3] != sd->naliases) {
		free(v);
		return 1;
	}
	*out = v;
	*nout = n;
	*same = script->same;
	t->scripted = true;
	return 0;
}

/*
 * The names in index order. A built-in directory's entries come in that order (gen-tables.py writes
 * it; test-tables-compiled checks it for every directory, with the comparator here, and that merging
 * gives what sorting gives: not checked again at every start, ~70,000 instructions), every other entry
 * and all aliases are sorted here, and the sorted runs are merged: at start-up the built-in tables
 * cost no sort, and the usual table (scripted_names) no merge either.
 */
static int sorted_names(struct pmu_tables *t, struct pmu_tname **out, size_t *nout)
{
	size_t n = 0, cap = t->n + t->n / 4 + 8, nr = 0, *bound = malloc((t->nchunks + 3) * sizeof(*bound));
	struct pmu_tname *v = malloc(cap * sizeof(*v)); /* names and some aliases: grown when more */
	unsigned char *in_chunk = calloc(t->n ? t->n : 1, 1);
	int r = -ENOMEM;

	if (!v || !bound || !in_chunk)
		goto out;
	for (size_t i = 0; i < t->n; i++)
		pmu__tables_entry(t, i); /* the general way reads every entry: made first */
	for (size_t c = 0; c < t->nchunks; c++) {
		const struct pmu_tchunk *ch = &t->chunks[c];
		if (ch->first + ch->n > t->n)
			continue; /* not this table's entries any more: sorted with the rest */
		bound[nr++] = n;
		for (size_t k = 0; k < ch->n; k++) {
			size_t i = ch->first + ch->bd->order[k];
			in_chunk[i] = 1;
			if (push_name(&v, &n, &cap, t->ent[i]->name, t->ent[i], i) < 0)
				goto out;
		}
	}
	bound[nr++] = n;
	for (size_t i = 0; i < t->n; i++)
		if (!in_chunk[i] && push_name(&v, &n, &cap, t->ent[i]->name, t->ent[i], i) < 0)
			goto out;
	qsort(v + bound[nr - 1], n - bound[nr - 1], sizeof(*v), pmu__tables_cmp_order);
	bound[nr++] = n;
	for (size_t i = 0; i < t->n; i++)
		if (push_aliases(t, &v, &n, &cap, i) < 0)
			goto out;
	qsort(v + bound[nr - 1], n - bound[nr - 1], sizeof(*v), pmu__tables_cmp_order);
	bound[nr] = n;
	if ((r = merge_runs(v, bound, nr)) < 0)
		goto out;
	*out = v;
	*nout = n;
	v = NULL;
	r = 0;
out:
	free(v);
	free(bound);
	free(in_chunk);
	return r;
}

/* The entry of index name @nm of the table being indexed (made if it was not yet). */
#define NE(nm) pmu__tables_name_entry(t, (nm))

int pmu__tables_build_index(struct pmu_tables *t, pmu_problem_fn pf, void *pd, int *problems)
{
	const unsigned char *same = NULL; /* following the script: which names equal the one before */
	struct pmu_tname *v;
	size_t n;
	int r = scripted_names(t, &v, &n, &same);

	if (r < 0 || (r > 0 && sorted_names(t, &v, &n) < 0))
		return -ENOMEM;
	{
		/* v[run..w): the names kept for the current name and class. An event and a metric of one name
		 * are both kept (perf's uncore files define LLC_MISSES.PCIE_READ as both, in one object): a
		 * metric's expression uses the metric, an event list the event. */
		size_t w = 0, run = 0;
		for (size_t i = 0; i < n; i++) {
			const struct pmu_tentry *first, *e, *dup = NULL;
			/* v[w - 1] is v[i - 1] or a name equal to it (dropped names equal the one kept before) */
			bool eq = w && (same ? (same[i / 8] >> (i % 8)) & 1 : !strcasecmp(v[w - 1].name, v[i].name));
			/* kinds and directories read without making the entries (a built-in one's compiled entry) */
			int kind = pmu__tables_kind(t, v[i].order);
			if (!eq || kclass(pmu__tables_kind(t, v[w - 1].order)) != kclass(kind)) {
				run = w;
				v[w++] = v[i];
				continue;
			}
			/* a CPU table's native event under a standard name is the CPU's own event for it */
			if (pmu__tables_kind(t, v[run].order) == PMU_T_NATIVE && kind == PMU_T_STANDARD &&
			    strcmp(pmu__tables_dir(t, v[run].order), pmu__tables_dir(t, v[i].order)))
				continue;
			first = NE(&v[run]);
			e = NE(&v[i]);
			for (size_t k = run; k < w && !dup; k++)
				if (v[k].ent == v[i].ent || same_unit(NE(&v[k]), e))
					dup = NE(&v[k]);
			if (!dup && !strcmp(first->dir, e->dir) && first->kind == e->kind) {
				v[w++] = v[i]; /* the same directory's definition for another PMU */
				continue;
			}
			if (dup && dup != v[i].ent && same_definition(dup, e)) {
				/* the same definition twice (perf's amdzen4 metrics): harmless, said when checking */
				char msg[PMU_NAME_MAX + 160];
				snprintf(msg, sizeof(msg), "note: name '%s' is defined again with the same definition as in %s; "
					 "the first is used", v[i].name, first->file);
				if (pf)
					pf(pd, e->file, v[i].name, msg);
				continue;
			}
			if (dup != v[i].ent && (pf || !strcmp(first->dir, e->dir))) {
				char msg[PMU_NAME_MAX + 160];
				snprintf(msg, sizeof(msg), "name '%s' is also defined in %s", v[i].name, first->file);
				(*problems)++;
				if (pf)
					pf(pd, e->file, v[i].name, msg);
			}
		}
		n = w;
	}
	t->names = v;
	t->nnames = n;
	return 0;
}
#undef NE

/* The index entries of @name of class @cls (PMU_TC_ANY: events, then metrics): the first, and in *n how
 * many (PMU definitions). */
static const struct pmu_tname *find_all(const struct pmu_tables *t, const char *name, int cls, size_t *n)
{
	struct pmu_tname key = { name, NULL, 0 };
	const struct pmu_tname *hit, *end;

	*n = 0;
	if (!t->names || !(hit = bsearch(&key, t->names, t->nnames, sizeof(*t->names), pmu__tables_cmp_name)))
		return NULL;
	while (hit > t->names && !strcasecmp(hit[-1].name, name))
		hit--;
	/* the class read without making the entries of the other class (as the index's build reads it) */
	while (cls != PMU_TC_ANY && hit < t->names + t->nnames && !strcasecmp(hit->name, name) &&
	       kclass(pmu__tables_kind(t, hit->order)) != cls)
		hit++;
	for (end = hit; end < t->names + t->nnames && !strcasecmp(end->name, name) &&
			(cls == PMU_TC_ANY || kclass(pmu__tables_kind(t, end->order)) == cls); end++)
		(*n)++;
	for (size_t i = 0; i < *n; i++)
		pmu__tables_name_entry(t, &hit[i]); /* what it returns is made: callers read .ent */
	return *n ? hit : NULL;
}

const struct pmu_tentry *pmu__tables_find_in(const struct pmu_tables *t, const char *name)
{
	size_t n;
	const struct pmu_tname *hit = find_all(t, name, PMU_TC_ANY, &n);

	return hit ? hit->ent : NULL;
}

/* The definition of @name of class @cls for PMU @pmu (see pmu__tables_find_pmu). */
const struct pmu_tentry *pmu__tables_find_pmu_in(const struct pmu_tables *t, const char *name, const char *pmu, int cls)
{
	size_t n;
	const struct pmu_tname *hit = find_all(t, name, cls, &n);
	const struct pmu_tentry *any = NULL;

	if (!pmu || !*pmu)
		return n == 1 ? hit->ent : NULL;
	for (size_t i = 0; i < n; i++) {
		if (hit[i].ent->unit && !strcasecmp(hit[i].ent->unit, pmu))
			return hit[i].ent;
		if (!hit[i].ent->unit)
			any = hit[i].ent;
	}
	return any;
}

const struct pmu_tentry *pmu__tables_find(const struct pmu_ctx *ctx, const char *name)
{
	return pmu__tables_find_in(&ctx->tables, name);
}

const struct pmu_tname *pmu__tables_find_all(const struct pmu_ctx *ctx, const char *name, int cls, size_t *n)
{
	return find_all(&ctx->tables, name, cls, n);
}

const struct pmu_tentry *pmu__tables_find_pmu(const struct pmu_ctx *ctx, const char *name, const char *pmu, int cls)
{
	return pmu__tables_find_pmu_in(&ctx->tables, name, pmu, cls);
}

bool pmu__tables_indexed(const struct pmu_ctx *ctx, const struct pmu_tentry *e)
{
	size_t n;
	const struct pmu_tname *hit = find_all(&ctx->tables, e->name, tclass(e), &n);

	for (size_t i = 0; i < n; i++)
		if (hit[i].ent == e)
			return true;
	return false;
}

/* Does the comma-separated @list name standard event @std, by its name or one of its Aliases (items of
 * both lists compared as namelist.c compares them: no copy, nothing allocated)? */
static bool names_std(const char *list, const struct pmu_tentry *std)
{
	return pmu__names_has(list, std->name) || pmu__names_any(list, std->aliases);
}

/* Whether entry @i of @t is a native event whose StdNames name @stdname, as asked or as the standard
 * entry @std it finds (the table may name an alias of it). A built-in entry is judged by its kind byte
 * and its record's StdNames, read alone: only one that matches is made (by the caller). */
static bool implements(const struct pmu_tables *t, size_t i, const char *stdname, const struct pmu_tentry *std)
{
	size_t k;
	const struct pmu_builtin_dir *bd = pmu__tables_builtin_of(t, i, &k);
	const char *list;

	if (bd ? bd->kinds[k] != PMU_T_NATIVE : t->ent[i]->kind != PMU_T_NATIVE)
		return false;
	list = bd ? pmu__builtin_str((uint32_t)pmu__builtin_field(bd, k, PMU_BF_STDNAMES)) : t->ent[i]->stdnames;
	return list && (pmu__names_has(list, stdname) || (std && names_std(list, std)));
}

/* Entry @i of @t, if it implements @stdname: in @out[*n] while *n < @max; counted in *n. */
static void collect(const struct pmu_tables *t, size_t i, const char *stdname, const struct pmu_tentry *std,
		    const struct pmu_tentry **out, size_t max, size_t *n)
{
	if (!implements(t, i, stdname, std))
		return;
	if (*n < max)
		out[*n] = pmu__tables_entry(t, i);
	(*n)++;
}

size_t pmu__tables_natives_in(const struct pmu_tables *t, const char *stdname, const struct pmu_tentry **out,
			      size_t max, bool all)
{
	const struct pmu_tentry *std = pmu__tables_find_in(t, stdname);
	size_t n = 0;

	for (size_t i = 0; i < t->n && (all || n < max); i++) {
		const struct pmu_tchunk *ch = pmu__tables_chunk_of(t, i);
		if (ch && i == ch->first && ch->first + ch->n <= t->n) {
			/* a built-in directory's entries: those with StdNames alone, in order (the others cannot
			 * implement a standard name, and their compiled entries are not read) */
			for (size_t k = 0; k < ch->bd->nwith_std && (all || n < max); k++) {
				size_t j = ch->first + ch->bd->with_std[k];
				if (pmu__tables_chunk_of(t, j) == ch)
					collect(t, j, stdname, std, out, max, &n);
			}
			/* the rest of its range: its own entries, read through the list above (entries are only
			 * appended, a chunk's with it, and taken back with it: tables-load.c), so skipped whole;
			 * reading each to be sure cost 10 instructions an entry per standard name looked up,
			 * 550,000 of Skylake-X's first context once Intel's uncore events and metrics came */
			i = ch->first + ch->n - 1;
			continue;
		}
		collect(t, i, stdname, std, out, max, &n);
	}
	return n;
}

const struct pmu_tentry *pmu__tables_native_for(const struct pmu_ctx *ctx, const char *stdname)
{
	const struct pmu_tentry *e = NULL;

	return pmu__tables_natives_in(&ctx->tables, stdname, &e, 1, false) ? e : NULL;
}

size_t pmu__tables_natives_for(const struct pmu_ctx *ctx, const char *stdname, const struct pmu_tentry **out,
			       size_t max)
{
	return pmu__tables_natives_in(&ctx->tables, stdname, out, max, true);
}

bool pmu__tables_std_approx(const struct pmu_tentry *n, const struct pmu_tentry *std)
{
	if (n->kind != PMU_T_NATIVE)
		return false;
	/* Approximate: every name of its StdNames; ApproxNames: those (spelled as StdNames spells them) */
	return n->approx || (n->approx_names && names_std(n->approx_names, std));
}
