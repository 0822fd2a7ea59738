/* SPDX-License-Identifier: MIT */
/*
 * pmu list: the events and metrics known here, as perf list takes its
 * arguments: words for kinds (hw, sw, cache, tracepoint, pmu, metric,
 * metricgroup; and pmu's standard, native, libpfm4), glob patterns
 * ('task*', 'sched:*'), else a prefix (a subtree of the standard names),
 * else, as a last resort, a part of the name. --details: how each is
 * encoded, a metric's formula, unit, threshold and groups. --long-desc: the
 * tables' longer descriptions (PublicDescription) in place of the brief ones.
 */
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include "cli.h"
#include "opts.h"
#include "util.h"

static int cmd_list(int argc, char **argv, struct cli *cli);

enum { OPT_JSON = OPT_LONG, OPT_DETAILS, OPT_ALL, OPT_NO_DESC, OPT_LONG_DESC };
static const struct opt list_opts[] = {
	{ OPT_JSON, "json", NULL, NULL, "the same as a JSON array on stdout" },
	{ 'd', "desc", NULL, NULL, "each name with its kind and description (the default, as perf list's)" },
	{ OPT_NO_DESC, "no-desc", NULL, NULL, "the names alone, one per line" },
	{ OPT_LONG_DESC, "long-desc", NULL, NULL, "the longer description where the table has one (PublicDescription), "
	  "as perf list --long-desc" },
	{ OPT_DETAILS, "details", NULL, NULL, "how each event is encoded; a metric's formula, unit, threshold, groups" },
	{ OPT_ALL, "all", NULL, NULL, "without arguments: also the standard names and metrics no event of this CPU implements" },
	{ 0 },
};
static const char *const list_synopsis[] = {
	"[--json] [--details] [--all] [--no-desc | --long-desc] [KIND | PATTERN | PREFIX]...", NULL };
const struct command list_command = {
	"list", cmd_list, "The events and metrics known here, with descriptions", list_synopsis,
	"KIND, as perf list has them: hw (hardware), sw (software), cache (hwcache), tracepoint, pmu (sysfs),\n"
	"tool, metric, metricgroup; and standard, native (this CPU's table), libpfm4. A PATTERN has * ? [ ]\n"
	"('task*', 'sched:*'); anything else is a PREFIX (pmu list TOPDOWN: a subtree), or, matching no name,\n"
	"a part of one. Tracepoints are listed when asked for (tracepoint, or a pattern with ':').\n"
	"Names pmu stat cannot count here are marked [not countable here]. Without arguments, the text list\n"
	"leaves out the standard names and metrics no event of this CPU implements (--all, --json, or the\n"
	"kinds standard and metric list them). --json has long_desc where an entry's longer description\n"
	"differs from desc. Exit status 1 when nothing matches.\n"
	"pmu list groups: the performance groups of this CPU that pmu stat -g counts (LIKWID's, then libpmu's).\n",
	list_opts, false,
};

/* What kind of name an entry is, as the words of pmu list select them. */
enum cat {
	CAT_HW = 1 << 0, CAT_SW = 1 << 1, CAT_CACHE = 1 << 2, CAT_TRACEPOINT = 1 << 3, CAT_PMU = 1 << 4,
	CAT_METRIC = 1 << 5, CAT_STANDARD = 1 << 6, CAT_NATIVE = 1 << 7, CAT_PFM = 1 << 8, CAT_TOOL = 1 << 9,
	CAT_PAPI = 1 << 10,
};
static const struct { const char *word; unsigned cats; } words[] = {
	{ "hw", CAT_HW }, { "hardware", CAT_HW }, { "sw", CAT_SW }, { "software", CAT_SW },
	{ "cache", CAT_CACHE }, { "hwcache", CAT_CACHE }, { "tracepoint", CAT_TRACEPOINT }, { "pmu", CAT_PMU },
	{ "metric", CAT_METRIC }, { "standard", CAT_STANDARD }, { "native", CAT_NATIVE }, { "libpfm4", CAT_PFM },
	{ "pfm", CAT_PFM }, { "tool", CAT_TOOL }, { "papi", CAT_PAPI },
};

/* One name known here. */
struct item {
	char *name, *pmu, *desc;
	char *long_desc;        /* a longer description than desc (a table's PublicDescription), else NULL */
	const char *kind;       /* the word of the kind column */
	int source;             /* enum pmu_source; 0 for a tracepoint */
	unsigned cat;
	bool usable, shown;
};

struct items {
	struct item *v;
	size_t n;
	struct pmu_ctx *ctx;
};

static int item_add(struct items *it, const char *name, const char *pmu, const char *desc, const char *long_desc,
		    const char *kind, int source, unsigned cat, bool usable)
{
	struct item *n = realloc(it->v, (it->n + 1) * sizeof(*n));
	bool longer = long_desc && desc && strcmp(long_desc, desc);

	if (!n)
		return -ENOMEM;
	it->v = n;
	n = &n[it->n];
	memset(n, 0, sizeof(*n));
	n->name = strdup(name);
	n->pmu = strdup(pmu ? pmu : "");
	n->desc = strdup(desc ? desc : "");
	n->long_desc = longer ? strdup(long_desc) : NULL;
	n->kind = kind;
	n->source = source;
	n->cat = cat;
	n->usable = usable;
	it->n++;
	return n->name && n->pmu && n->desc && (!longer || n->long_desc) ? 0 : -ENOMEM;
}

static void items_free(struct items *it)
{
	for (size_t i = 0; i < it->n; i++) {
		free(it->v[i].name);
		free(it->v[i].pmu);
		free(it->v[i].desc);
		free(it->v[i].long_desc);
	}
	free(it->v);
}

/* The category of a library entry: a kernel event's by the type it resolves to. */
static unsigned cat_of(struct pmu_ctx *ctx, const struct pmu_event_entry *e)
{
	struct pmu_event_info info;

	switch (e->kind) {
	case PMU_ENTRY_SYSFS: return CAT_PMU;
	case PMU_ENTRY_STANDARD: return CAT_STANDARD;
	case PMU_ENTRY_NATIVE: return CAT_NATIVE;
	case PMU_ENTRY_METRIC: return CAT_METRIC;
	case PMU_ENTRY_LIBPFM: return CAT_PFM;
	case PMU_ENTRY_TOOL: return CAT_TOOL;
	case PMU_ENTRY_PAPI: return CAT_PAPI;
	}
	if (pmu_event_resolve(ctx, e->name, &info) == 0)
		return info.type == 1 ? CAT_SW : info.type == 3 ? CAT_CACHE : CAT_HW; /* PERF_TYPE_SOFTWARE, _HW_CACHE */
	return CAT_HW;
}

static int from_library(const struct pmu_event_entry *e, void *data)
{
	struct items *it = data;

	return item_add(it, e->name, e->pmu, e->desc, e->long_desc, pmu_kind_name(e->kind), e->source,
			cat_of(it->ctx, e), e->usable);
}

/* Tracepoints, from tracefs: "subsys:event". */
static int tracepoints(struct items *it, const struct pmu_caps *caps)
{
	const char *sys = cli_sysfs_root(); /* the context's: PMU_SYSFS_ROOT as the library reads it */
	char path[4096], name[512];
	struct dirent *s, *e;
	DIR *d = NULL, *sd;
	int r = 0;

	(void)caps;
	for (int i = 0; i < 2 && !d; i++) {
		snprintf(path, sizeof(path), "%s/kernel/%stracing/events", sys, i ? "debug/" : "");
		d = opendir(path);
	}
	if (!d) {
		fprintf(stderr, "pmu list: no tracepoints: tracefs is not readable here (%s; mounted on "
			"/sys/kernel/tracing?)\n", strerror(errno));
		return 0;
	}
	while (r == 0 && (s = readdir(d))) {
		char sub[4096 + 256];
		if (s->d_name[0] == '.' || snprintf(sub, sizeof(sub), "%s/%s", path, s->d_name) < 0 ||
		    !(sd = opendir(sub)))
			continue;
		while (r == 0 && (e = readdir(sd))) {
			struct pmu_event_info info;
			char id[4096 + 512];
			/* a perf event has an id (its config); most of ftrace's own events have none */
			if (e->d_name[0] == '.' || snprintf(id, sizeof(id), "%s/%s/id", sub, e->d_name) < 0 ||
			    access(id, F_OK) < 0)
				continue;
			snprintf(name, sizeof(name), "%s:%s", s->d_name, e->d_name);
			r = item_add(it, name, "tracepoint", "tracepoint (tracefs)", NULL, "tracepoint", PMU_SRC_TRACEPOINT,
				     CAT_TRACEPOINT,
				     pmu_event_resolve(it->ctx, name, &info) == 0);
		}
		closedir(sd);
	}
	closedir(d);
	return r;
}

/* libpfm4's names for this CPU, "pmu::EVENT" and "pmu::EVENT:UMASK" (the library's listing, which
 * loads libpfm4). Without libpfm4 the rest is listed, and a warning says why these are not. */
static int pfm_events(struct items *it)
{
	int r = pmu_libpfm_event_foreach(it->ctx, NULL, from_library, it);

	if (r == -ELIBACC || r == -ENOTSUP) {
		fprintf(stderr, "pmu: warning: %s\n", pmu_strerror(r));
		return 0;
	}
	return r < 0 ? r : 0;
}

static bool is_pattern(const char *a)
{
	return strpbrk(a, "*?[") != NULL;
}

/* Does @pat, a prefix (or with @part, a part of the name), match item @i? Sysfs names, and a core type's
 * own table events (armv8_cortex_a76/L1D_TLB_RD/), match by their event too. */
static bool matches(const struct item *i, const char *pat, bool part)
{
	const char *ev = (i->cat == CAT_PMU || i->cat == CAT_NATIVE) && strchr(i->name, '/') ?
			 strchr(i->name, '/') + 1 : NULL;
	size_t n = strlen(pat);

	if (is_pattern(pat))
		return !fnmatch(pat, i->name, FNM_CASEFOLD) || (ev && !fnmatch(pat, ev, FNM_CASEFOLD));
	if (part)
		return strcasestr(i->name, pat) != NULL;
	return !strncasecmp(i->name, pat, n) || (ev && !strncasecmp(ev, pat, n));
}

/* Mark the items argument @a selects: a word's kind, a pattern, a prefix, else a part. 0 if none. */
static size_t select_items(struct items *it, const char *a)
{
	size_t hits = 0;

	for (size_t w = 0; w < sizeof(words) / sizeof(words[0]); w++)
		if (!strcasecmp(a, words[w].word)) {
			for (size_t i = 0; i < it->n; i++)
				if (it->v[i].cat & words[w].cats)
					hits += it->v[i].shown = true;
			return hits;
		}
	for (int part = 0; part < 2 && !hits; part++)
		for (size_t i = 0; i < it->n; i++)
			if (matches(&it->v[i], a, part))
				hits += it->v[i].shown = true;
	return hits;
}

/* ---------------- printing ---------------- */

/* A metric's groups (perf's MetricGroup: "A;B") as a JSON array. */
static json_object *groups_json(const char *g)
{
	json_object *a = json_object_new_array();

	while (g && *g) {
		size_t n = strcspn(g, ";");
		if (n)
			json_object_array_add(a, json_object_new_string_len(g, (int)n));
		g += n + (g[n] == ';');
	}
	return a;
}

/* --details of item @i: added to @o (JSON), else printed. */
static void details(struct pmu_ctx *ctx, const struct item *i, json_object *o)
{
	struct pmu_metric_info mi;
	struct pmu_event_info e;
	int r = 0;

	if (i->cat == CAT_METRIC && pmu_metric_info(ctx, i->name, &mi) == 0) {
		if (o) {
			json_object_object_add(o, "expr", json_object_new_string(mi.expr ? mi.expr : ""));
			json_object_object_add(o, "scale_unit", json_object_new_string(mi.scale_unit ? mi.scale_unit : ""));
			json_object_object_add(o, "threshold", json_object_new_string(mi.threshold ? mi.threshold : ""));
			json_object_object_add(o, "groups", groups_json(mi.group));
			json_object_object_add(o, "file", json_object_new_string(mi.file ? mi.file : ""));
			return;
		}
		printf("        = %s\n", mi.expr);
		printf("        unit %s, threshold %s, groups %s (%s)\n", mi.scale_unit && *mi.scale_unit ? mi.scale_unit : "1",
		       mi.threshold && *mi.threshold ? mi.threshold : "none", mi.group && *mi.group ? mi.group : "none",
		       mi.file ? mi.file : "");
		return;
	}
	if (i->cat == CAT_METRIC || (r = pmu_event_resolve(ctx, i->name, &e)) < 0) {
		if (!o)
			printf("        no encoding here: %s\n", i->cat == CAT_METRIC ? "a metric" : pmu_strerror(r));
		return;
	}
	if (o) {
		json_object_object_add(o, "type", json_object_new_int64(e.type));
		json_object_object_add(o, "config", cli_jhex(e.config));
		json_object_object_add(o, "config1", cli_jhex(e.config1));
		json_object_object_add(o, "origin", json_object_new_string(e.origin));
		json_object_object_add(o, "approx_note", e.flags & PMU_EVF_APPROX ?
				       json_object_new_string(e.approx_note ? e.approx_note : "") : NULL);
		return;
	}
	printf("        pmu %s, type %u, config 0x%llx%s, from %s\n", e.pmu, e.type, (unsigned long long)e.config,
	       e.config1 ? " (and config1)" : "", e.origin);
	if (e.flags & PMU_EVF_APPROX)
		printf("        approximate: %s\n", e.approx_note && *e.approx_note ? e.approx_note : "(no detail)");
}

static void print_item(struct pmu_ctx *ctx, const struct item *i, bool details_too, bool long_desc)
{
	int depth = 0, w;

	if (i->cat == CAT_STANDARD)
		for (const char *p = i->name; *p; p++)
			depth += *p == '.';
	w = 2 * depth + (int)strlen(i->name);
	printf("  %*s%s%*s  %-8s %s%s\n", 2 * depth, "", i->name, w < 52 ? 52 - w : 0, "", i->kind,
	       long_desc && i->long_desc ? i->long_desc : i->desc, i->usable ? "" : " [not countable here]");
	if (details_too)
		details(ctx, i, NULL);
}

static json_object *item_json(struct pmu_ctx *ctx, const struct item *i, bool details_too)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "name", json_object_new_string(i->name));
	json_object_object_add(o, "pmu", json_object_new_string(i->pmu));
	json_object_object_add(o, "source", json_object_new_string(pmu_source_name(i->source)));
	json_object_object_add(o, "kind", json_object_new_string(i->kind));
	json_object_object_add(o, "usable", json_object_new_boolean(i->usable));
	json_object_object_add(o, "desc", json_object_new_string(i->desc));
	if (i->long_desc)
		json_object_object_add(o, "long_desc", json_object_new_string(i->long_desc));
	if (details_too)
		details(ctx, i, o);
	return o;
}

/* pmu list metricgroup: each group and its metrics (JSON: [{"group", "metrics"}]). */
static int print_groups(struct pmu_ctx *ctx, const struct items *it, json_object *arr)
{
	json_object *groups = json_object_new_object(); /* group -> array of metrics, in order */
	int n = 0;

	for (size_t i = 0; i < it->n; i++) {
		struct pmu_metric_info mi;
		json_object *gs;
		if (it->v[i].cat != CAT_METRIC || pmu_metric_info(ctx, it->v[i].name, &mi) < 0)
			continue;
		gs = groups_json(mi.group);
		for (size_t k = 0; k < json_object_array_length(gs); k++) {
			const char *g = json_object_get_string(json_object_array_get_idx(gs, k));
			json_object *m;
			if (!json_object_object_get_ex(groups, g, &m)) {
				m = json_object_new_array();
				json_object_object_add(groups, g, m);
			}
			json_object_array_add(m, json_object_new_string(it->v[i].name));
		}
		json_object_put(gs);
	}
	if (!arr)
		printf("Metric groups (group: metrics):\n");
	json_object_object_foreach(groups, g, m) {
		n++;
		if (arr) {
			json_object *o = json_object_new_object();
			json_object_object_add(o, "group", json_object_new_string(g));
			json_object_object_add(o, "metrics", json_object_get(m));
			json_object_array_add(arr, o);
			continue;
		}
		printf("  %s:", g);
		for (size_t k = 0; k < json_object_array_length(m); k++)
			printf("%s %s", k ? "," : "", json_object_get_string(json_object_array_get_idx(m, k)));
		printf("\n");
	}
	json_object_put(groups);
	return n;
}

struct list_opts {
	bool json, details, all, no_desc, long_desc;
};

static int on_opt(void *st, int id, const char *arg)
{
	struct list_opts *o = st;

	(void)arg;
	if (id == OPT_JSON)
		o->json = true;
	else if (id == OPT_ALL)
		o->all = true;
	else if (id == OPT_NO_DESC)
		o->no_desc = true, o->long_desc = false;
	else if (id == OPT_LONG_DESC)
		o->long_desc = true, o->no_desc = false;
	else if (id == 'd')
		o->no_desc = false;
	else
		o->details = true;
	return 0;
}

/* Does @i mean something on this CPU: an event that resolves here (counted here or not: a VM without a
 * PMU still has its CPU's events), a metric whose events all do? A standard name no event of this CPU
 * implements, a metric of another CPU's events (libpmu's catalogue is every architecture's), do not. */
static bool means_here(struct pmu_ctx *ctx, const struct item *i)
{
	struct pmu_event_info info;
	char need[4096], *save = NULL;

	if (i->usable || (i->cat != CAT_STANDARD && i->cat != CAT_METRIC && i->cat != CAT_PAPI))
		return true;
	/* a standard name, or a PAPI preset that is one name (a standard name's, or PAPI's natives); else a
	 * formula (a metric's, a derived preset's), here where each of its events is */
	if (i->cat != CAT_METRIC && pmu_event_resolve(ctx, i->name, &info) == 0)
		return true;
	if (i->cat == CAT_STANDARD)
		return false;
	if (pmu_metric_events(ctx, i->name, need, sizeof(need)) < 0)
		return false;
	for (char *e = strtok_r(need, ",", &save); e; e = strtok_r(NULL, ",", &save))
		if (pmu_event_resolve(ctx, e, &info) < 0 && pmu_event_resolve_each(ctx, e, NULL, 0) <= 0)
			return false;
	return true;
}

/* Everything the arguments may select: the library's names, libpfm4's, and (when asked) tracepoints. */
static int gather(struct pmu_ctx *ctx, int argc, char **argv, int first, struct items *it)
{
	struct pmu_caps caps;
	bool tp = false;
	int r;

	pmu_caps(ctx, &caps);
	for (int i = first; i < argc; i++)
		tp |= !strcasecmp(argv[i], "tracepoint") || (is_pattern(argv[i]) && strchr(argv[i], ':')) ||
		      (!is_pattern(argv[i]) && strchr(argv[i], ':') && !strstr(argv[i], "::"));
	it->ctx = ctx;
	if ((r = pmu_event_foreach(ctx, NULL, from_library, it)) < 0 || (r = pfm_events(it)) < 0 ||
	    (tp && (r = tracepoints(it, &caps)) < 0))
		return r;
	return 0;
}

/* pmu list groups: the performance groups of this CPU (LIKWID's, libpmu's own), as likwid-perfctr -a */
struct group_list {
	json_object *arr;
	bool no_desc;
};

static int group_item(const char *name, const char *arch, const char *path, const char *short_desc, void *data)
{
	struct group_list *gl = data;

	if (gl->arr) {
		json_object *o = json_object_new_object();
		json_object_object_add(o, "name", json_object_new_string(name));
		json_object_object_add(o, "arch", json_object_new_string(arch));
		json_object_object_add(o, "file", json_object_new_string(path));
		json_object_object_add(o, "short", json_object_new_string(short_desc));
		json_object_array_add(gl->arr, o);
	} else if (gl->no_desc) {
		printf("%s\n", name);
	} else {
		printf("  %-20s %-12s %s\n", name, arch, short_desc);
	}
	return 0;
}

static int list_groups(struct pmu_ctx *ctx, const struct list_opts *o)
{
	struct group_list gl = { o->json ? json_object_new_array() : NULL, o->no_desc };
	char arch[64];
	int n;

	if (!gl.arr && !o->no_desc)
		printf("Performance groups (name, arch, description; pmu stat -g NAME):\n");
	n = pmu_group_foreach(ctx, group_item, &gl);
	if (gl.arr) {
		json_write(stdout, gl.arr);
		json_object_put(gl.arr);
	} else if (o->no_desc) {
		/* names only, one a line (what completion reads): none is no line */
	} else if (n == 0 && pmu_group_arch(ctx, arch, sizeof(arch)) < 0) {
		printf("  (none: %s)\n", pmu_strerror(-ENOENT));
	} else if (n == 0) {
		printf("  (none: no group files for %s; LIKWID's are in Debian's likwid package)\n", arch);
	}
	return n < 0 ? 1 : 0;
}

static int cmd_list(int argc, char **argv, struct cli *cli)
{
	struct list_opts o = { false, false, false, false, false };
	size_t left_std = 0, left_metric = 0;
	struct items it = { NULL, 0, NULL };
	struct pmu_ctx *ctx;
	json_object *arr = NULL;
	size_t shown = 0;
	bool groups = false;
	int first = opts_parse(&list_command, argc, argv, cli, on_opt, &o), r;

	if (first < 0)
		return first == OPTS_EXIT_OK ? 0 : 2;
	if (cli_open_ctx(cli, NULL, &ctx) < 0)
		return 1;
	if (first == argc - 1 && (!strcasecmp(argv[first], "groups") || !strcasecmp(argv[first], "group"))) {
		r = list_groups(ctx, &o);
		pmu_ctx_free(ctx);
		return r;
	}
	if ((r = gather(ctx, argc, argv, first, &it)) < 0) {
		fprintf(stderr, "pmu: %s\n", pmu_strerror(r));
		items_free(&it);
		pmu_ctx_free(ctx);
		return 1;
	}
	for (int a = first; a < argc; a++)
		if (!strcasecmp(argv[a], "metricgroup") || !strcasecmp(argv[a], "metricgroups"))
			groups = true;
		else
			shown += select_items(&it, argv[a]);
	for (size_t i = 0; first >= argc && i < it.n; i++) {
		bool here = o.all || o.json || means_here(ctx, &it.v[i]); /* JSON: for programs, everything */
		shown += it.v[i].shown = it.v[i].cat != CAT_TRACEPOINT && here;
		left_std += !here && (it.v[i].cat == CAT_STANDARD || it.v[i].cat == CAT_PAPI);
		left_metric += !here && it.v[i].cat == CAT_METRIC;
	}
	if (o.json)
		arr = json_object_new_array();
	else if ((shown || !groups) && !o.no_desc)
		printf("Events%s (name, kind, description):\n", first < argc ? " matching the arguments" : "");
	for (size_t i = 0; i < it.n; i++)
		if (it.v[i].shown && arr)
			json_object_array_add(arr, item_json(ctx, &it.v[i], o.details));
		else if (it.v[i].shown && o.no_desc)
			printf("%s\n", it.v[i].name);
		else if (it.v[i].shown)
			print_item(ctx, &it.v[i], o.details, o.long_desc);
	if (!o.json && !shown && !groups)
		printf("  (none)\n");
	if (!o.json && (left_std || left_metric))
		printf("\n %zu standard names (PAPI presets included) and %zu metrics that no event of this CPU "
		       "implements are not listed: pmu list --all lists them too (pmu list standard, pmu list papi, "
		       "pmu list metric: all of each kind)\n",
		       left_std, left_metric);
	if (groups)
		shown += print_groups(ctx, &it, arr);
	if (arr) {
		json_write(stdout, arr);
		json_object_put(arr);
	}
	items_free(&it);
	pmu_ctx_free(ctx);
	return shown ? 0 : 1;
}
