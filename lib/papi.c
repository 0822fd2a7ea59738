/* SPDX-License-Identifier: MIT */
/* PAPI's preset names: libpmu's mapping (the built-in directory "papi", from events/papi/presets.json)
 * and PAPI's own papi_events.csv where it is installed, read in place. */
#include <ctype.h>
#include <errno.h>
#include <glob.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "pmu.h"
#include "papi.h"
#include "common.h"
#include "context.h"
#include "error.h"
#include "pfm.h"
#include "resolve.h"
#include "tables.h"
#include "util.h"

/* The preset names of PAPI 7's papiStdEventDefs.h (identifiers: the API's names, no prose). */
static const char *const preset_names[] = {
	"L1_DCM", "L1_ICM", "L2_DCM", "L2_ICM", "L3_DCM", "L3_ICM", "L1_TCM", "L2_TCM", "L3_TCM", "CA_SNP",
	"CA_SHR", "CA_CLN", "CA_INV", "CA_ITV", "L3_LDM", "L3_STM", "BRU_IDL", "FXU_IDL", "FPU_IDL", "LSU_IDL",
	"TLB_DM", "TLB_IM", "TLB_TL", "L1_LDM", "L1_STM", "L2_LDM", "L2_STM", "BTAC_M", "PRF_DM", "L3_DCH",
	"TLB_SD", "CSR_FAL", "CSR_SUC", "CSR_TOT", "MEM_SCY", "MEM_RCY", "MEM_WCY", "STL_ICY", "FUL_ICY",
	"STL_CCY", "FUL_CCY", "HW_INT", "BR_UCN", "BR_CN", "BR_TKN", "BR_NTK", "BR_MSP", "BR_PRC", "FMA_INS",
	"TOT_IIS", "TOT_INS", "INT_INS", "FP_INS", "LD_INS", "SR_INS", "BR_INS", "VEC_INS", "RES_STL",
	"FP_STAL", "TOT_CYC", "LST_INS", "SYC_INS", "L1_DCH", "L2_DCH", "L1_DCA", "L2_DCA", "L3_DCA", "L1_DCR",
	"L2_DCR", "L3_DCR", "L1_DCW", "L2_DCW", "L3_DCW", "L1_ICH", "L2_ICH", "L3_ICH", "L1_ICA", "L2_ICA",
	"L3_ICA", "L1_ICR", "L2_ICR", "L3_ICR", "L1_ICW", "L2_ICW", "L3_ICW", "L1_TCH", "L2_TCH", "L3_TCH",
	"L1_TCA", "L2_TCA", "L3_TCA", "L1_TCR", "L2_TCR", "L3_TCR", "L1_TCW", "L2_TCW", "L3_TCW", "FML_INS",
	"FAD_INS", "FDV_INS", "FSQ_INS", "FNV_INS", "FP_OPS", "SP_OPS", "DP_OPS", "VEC_SP", "VEC_DP", "REF_CYC",
};

/* Preset @name (pmu__papi_is_preset's: 13 characters at most) as PAPI writes it, upper case, in @out. */
static void canonical(const char *name, char out[16])
{
	size_t i = 0;

	for (; i < 15 && name[i]; i++)
		out[i] = (char)toupper((unsigned char)name[i]);
	out[i] = 0;
}

int pmu__papi_is_preset(const char *name)
{
	if (!name || strncasecmp(name, "PAPI_", 5))
		return 0;
	for (size_t i = 0; i < ARRAY_SIZE(preset_names); i++)
		if (!strcasecmp(name + 5, preset_names[i]))
			return 1;
	return 0;
}

static pthread_once_t once = PTHREAD_ONCE_INIT;
static struct pmu_tblock *blk;     /* the "papi" directory's entries, all made at the load */
static struct pmu_tname *tnames;   /* one index name per entry, for the metric lookups */

static void load_once(void)
{
	if (pmu__tblock_new("papi", &blk) < 0 || !blk)
		return;
	if (!(tnames = calloc(blk->bd->n, sizeof(*tnames)))) {
		pmu__tblock_free(blk);
		blk = NULL;
		return;
	}
	/* a few dozen entries: all made here, once, so that readers need no lock */
	for (size_t k = 0; k < blk->bd->n; k++) {
		pmu__tblock_make(blk, k);
		tnames[k] = (struct pmu_tname){ blk->e[k].name, &blk->e[k], k };
	}
}

static const struct pmu_tentry *entry(size_t k)
{
	return &blk->e[k];
}

static long find(const char *name)
{
	pthread_once(&once, load_once);
	if (!blk || !name || strncasecmp(name, "PAPI_", 5))
		return -1;
	for (size_t k = 0; k < blk->bd->n; k++)
		if (!strcasecmp(blk->e[k].name, name))
			return (long)k;
	return -1;
}

const struct pmu_tentry *pmu__papi_preset(const char *name)
{
	long k = find(name);

	return k < 0 ? NULL : entry((size_t)k);
}

int pmu__papi_derived(const struct pmu_tentry *e)
{
	return e && e->expr && strpbrk(e->expr, " +-*/()") != NULL;
}


/* The libpfm4 PMU whose name PAPI's CPU lines use for @ctx's CPU: of its table directories ("x86/skylakex+
 * x86/intel/cascadelakex"), the last that names one (clx, not the skx of the directory it shares), NULL if none. */
static const char *papi_model(struct pmu_ctx *ctx)
{
	const char *dir, *m = NULL;

	if (pmu__tables_load(ctx) < 0 || !(dir = ctx->tables.cpu_dir))
		return NULL;
	for (const char *p = dir, *plus; p && *p; p = plus ? plus + 1 : NULL) {
		char part[128];
		const char *pm;
		size_t n = (plus = strchr(p, '+')) ? (size_t)(plus - p) : strlen(p);
		snprintf(part, sizeof(part), "%.*s", (int)n, p);
		if ((pm = pmu__pfm_model(part)))
			m = pm;
	}
	return m;
}

/* papi_events.csv: $PMU_PAPI_EVENTS (set and empty: none), else the newest /usr/share/papi/VERSION/. */
static int csv_path(char *path, size_t len)
{
	const char *env = getenv("PMU_PAPI_EVENTS");
	glob_t g;

	if (env) {
		if (!*env || strlen(env) >= len)
			return -ENOENT;
		pmu__strlcpy(path, env, len);
		return 0;
	}
	if (glob("/usr/share/papi/*/papi_events.csv", 0, NULL, &g) != 0)
		return -ENOENT;
	pmu__strlcpy(path, g.gl_pathv[g.gl_pathc - 1], len);
	globfree(&g);
	return 0;
}

/* A field of a csv line, blanks around it dropped, in place: the next field's start, or NULL. */
static char *field(char **s)
{
	char *f = *s, *end;

	if (!f)
		return NULL;
	if ((end = strchr(f, ',')))
		*end++ = 0;
	*s = end;
	while (*f == ' ' || *f == '\t')
		f++;
	for (char *e = f + strlen(f); e > f && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'); )
		*--e = 0;
	return f;
}

/*
 * PAPI's definition of @preset for libpfm4 PMU @model in the csv at @path: a run of CPU lines opens a
 * block, whose PRESET lines apply where one of its CPU lines names @model; a later definition replaces an
 * earlier one. *@kind (NOT_DERIVED, DERIVED_ADD, DERIVED_SUB, DERIVED_POSTFIX) and the rest of the
 * line up to NOTE in @events. 0 found, -ENOENT none, -errno the file.
 */
static int csv_find(const char *path, const char *model, const char *preset, char *kind, size_t klen,
		    char *events, size_t elen)
{
	FILE *f = fopen(path, "re");
	char line[2048];
	int found = -ENOENT;
	bool in_cpus = false, match = false;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		char *s = line, *t;
		line[strcspn(line, "\n")] = 0;
		if (line[0] == '#' || !*(t = field(&s))) /* comments and blank lines do not end a CPU run */
			continue;
		if (!strcmp(t, "CPU")) {
			if (!in_cpus)
				match = false;
			in_cpus = true;
			if ((t = field(&s)) && !strcasecmp(t, model))
				match = true;
			continue;
		}
		in_cpus = false;
		if (strcmp(t, "PRESET") || !match || !(t = field(&s)) || strcasecmp(t, preset) || !(t = field(&s)))
			continue;
		pmu__strlcpy(kind, t, klen);
		events[0] = 0;
		for (size_t o = 0; o < elen && (t = field(&s)) && strcmp(t, "NOTE"); )
			o += (size_t)snprintf(events + o, elen - o, "%s%s", o ? "," : "", t);
		found = 0;
	}
	fclose(f);
	return found;
}

/*
 * A derived preset of PAPI's table as a metric of PAPI's own events: its formula in perf's MetricExpr
 * language over libpfm4's names (model::EVENT:UMASK, the characters the language reserves escaped), made
 * at the first need and kept for the process (a list pushed without a lock: two threads making the same
 * one keep both, either serves).
 */
struct csv_metric {
	struct csv_metric *next;
	char key[160];          /* path, model, preset */
	struct pmu_tentry e;
	struct pmu_tname tn;
};
static struct csv_metric *csv_metrics;

/* Event @ev of PAPI's line as a name of the expression language: its libpfm4 PMU in front (the model's,
 * or ix86arch's for an Intel CPU's architectural events where libpfm4 has that PMU), escaped. */
static void expr_name(struct pmu_ctx *ctx, const char *model, const char *ev, char *out, size_t len)
{
	char full[256];
	size_t o = 0;

	if (strstr(ev, "::")) {
		pmu__strlcpy(full, ev, sizeof(full));
	} else {
		struct pmu_event_info tmp;
		const char *pmu = model;
		memset(&tmp, 0, sizeof(tmp));
		pmu__err_quiet(true);
		if (pmu__pfm_resolve(ctx, ev, model, &tmp) == -ENOENT && pmu__pfm_x86(model) &&
		    strncmp(model, "amd64", 5) && pmu__pfm_resolve(ctx, ev, "ix86arch", &tmp) == 0)
			pmu = "ix86arch";
		pmu__err_quiet(false);
		snprintf(full, sizeof(full), "%s::%s", pmu, ev);
	}
	for (const char *c = full; *c && o + 2 < len; c++) {
		if (!isalnum((unsigned char)*c) && *c != '_' && *c != '.' && *c != ':')
			out[o++] = '\\';
		out[o++] = *c;
	}
	out[o] = 0;
}

/* PAPI's formula (@kind, @events: comma-separated, DERIVED_POSTFIX's first being the formula in reverse
 * Polish notation over N0, N1, ...) in infix into @out: 0, or -EINVAL where it cannot be read. */
static int csv_formula(struct pmu_ctx *ctx, const char *model, const char *kind, char *events, char *out, size_t len)
{
	char *names[16], *parts[16], *save = NULL, *rpn = NULL;
	size_t n = 0, sp = 0;
	int r = 0;

	for (char *t = strtok_r(events, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		if (!strcmp(kind, "DERIVED_POSTFIX") && !rpn) {
			rpn = t;
			continue;
		}
		if (n == 16 || !(names[n] = malloc(512))) {
			r = n == 16 ? -EINVAL : -ENOMEM;
			break;
		}
		expr_name(ctx, model, t, names[n++], 512);
	}
	out[0] = 0;
	if (r == 0 && !rpn) { /* DERIVED_ADD (and several events on a NOT_DERIVED line, which PAPI adds), DERIVED_SUB */
		for (size_t i = 0, o = 0; i < n && o < len; i++)
			o += (size_t)snprintf(out + o, len - o, "%s%s", i ? !strcmp(kind, "DERIVED_SUB") ? " - " : " + " : "",
					      names[i]);
	} else if (r == 0) {
		save = NULL;
		for (char *t = strtok_r(rpn, "|", &save); t && r == 0; t = strtok_r(NULL, "|", &save)) {
			char *v;
			if (sp == 16) {
				r = -EINVAL;
				break;
			}
			if (t[0] == 'N' && t[1] && strspn(t + 1, "0123456789") == strlen(t + 1)) {
				size_t k = strtoul(t + 1, NULL, 10);
				if (k >= n) {
					r = -EINVAL;
					break;
				}
				v = strdup(names[k]);
			} else if (strspn(t, "0123456789.") == strlen(t)) {
				v = strdup(t);
			} else if (strlen(t) == 1 && strchr("+-*/", t[0]) && sp >= 2) {
				size_t l = strlen(parts[sp - 2]) + strlen(parts[sp - 1]) + 6;
				if ((v = malloc(l)))
					snprintf(v, l, "(%s %c %s)", parts[sp - 2], t[0], parts[sp - 1]);
				free(parts[--sp]);
				free(parts[--sp]);
			} else {
				r = -EINVAL;
				break;
			}
			if (!v) {
				r = r ? r : -ENOMEM;
				break;
			}
			parts[sp++] = v;
		}
		if (r == 0 && sp == 1 && strlen(parts[0]) < len)
			pmu__strlcpy(out, parts[0], len);
		else
			r = r ? r : -EINVAL;
		while (sp)
			free(parts[--sp]);
	}
	while (n)
		free(names[--n]);
	return r == 0 && (!out[0] || strlen(out) + 1 >= len) ? -EINVAL : r;
}

/* PAPI's formula of preset @name for this CPU as a metric, NULL where PAPI's table is not read here, does
 * not define it for this CPU (*@defined false) or defines it as one event (*@defined true). */
static const struct csv_metric *csv_metric(struct pmu_ctx *ctx, const char *name, bool *defined)
{
	char path[512], kind[32], events[1024], expr[2048], key[160], canon[16];
	const struct pmu_tentry *e;
	struct csv_metric *m;
	const char *model;

	*defined = false;
	canonical(name, canon);
	if (!(model = papi_model(ctx)) || csv_path(path, sizeof(path)) < 0 ||
	    csv_find(path, model, canon, kind, sizeof(kind), events, sizeof(events)) < 0)
		return NULL;
	*defined = true;
	if (!strcmp(kind, "NOT_DERIVED") && !strchr(events, ','))
		return NULL;
	snprintf(key, sizeof(key), "%.120s %s %s", path, model, canon);
	for (m = __atomic_load_n(&csv_metrics, __ATOMIC_ACQUIRE); m; m = m->next)
		if (!strcmp(m->key, key))
			return m;
	if (csv_formula(ctx, model, kind, events, expr, sizeof(expr)) < 0 || !(m = calloc(1, sizeof(*m))))
		return NULL;
	pmu__strlcpy(m->key, key, sizeof(m->key));
	e = pmu__papi_preset(canon);
	m->e.kind = PMU_T_METRIC;
	m->e.name = strdup(canon);
	m->e.expr = strdup(expr);
	m->e.file = strdup(path);
	m->e.dir = strdup("papi");
	m->e.group = strdup("PAPI");
	m->e.desc = strdup(e && e->desc ? e->desc : "PAPI preset: PAPI's formula for this CPU");
	if (!m->e.name || !m->e.expr || !m->e.file || !m->e.dir || !m->e.group || !m->e.desc) {
		free(m->e.name), free(m->e.expr), free(m->e.file), free(m->e.dir), free(m->e.group), free(m->e.desc);
		free(m);
		return NULL;
	}
	m->tn = (struct pmu_tname){ m->e.name, &m->e, 0 };
	m->next = __atomic_load_n(&csv_metrics, __ATOMIC_RELAXED);
	while (!__atomic_compare_exchange_n(&csv_metrics, &m->next, m, false, __ATOMIC_RELEASE, __ATOMIC_RELAXED))
		;
	return m;
}

/* "PAPI preset X (...): " before the origin the resolution wrote */
static void origin_prefix(struct pmu_event_info *out, const char *fmt_pre)
{
	char o[sizeof(out->origin)];

	snprintf(o, sizeof(o), "%s%s", fmt_pre, out->origin);
	pmu__strlcpy(out->origin, o, sizeof(out->origin));
}

int pmu__papi_resolve(struct pmu_ctx *ctx, const char *name, const char *spec, struct pmu_event_info *out)
{
	const struct pmu_tentry *e;
	const char *model = NULL;
	char path[512], kind[32], events[1024], pre[256], canon[16];
	int r = -ENOENT;

	if (!pmu__papi_is_preset(spec))
		return -ENOENT;
	canonical(spec, canon);
	spec = canon;
	e = pmu__papi_preset(spec);
	model = papi_model(ctx);
	/* PAPI's own table first: the events PAPI counts for this CPU */
	pre[0] = 0;
	if (model && csv_path(path, sizeof(path)) == 0 &&
	    (r = csv_find(path, model, spec, kind, sizeof(kind), events, sizeof(events))) == 0 &&
	    (strcmp(kind, "NOT_DERIVED") || strchr(events, ','))) {
		/* PAPI's formula of native events: libpmu's formula of the same meaning, or its one standard name */
		if (!e || pmu__papi_derived(e))
			return pmu__err(ctx, -EINVAL, "'%s' is a derived PAPI preset (%s's %s for %s: %s), not one "
					"event: evaluate it with pmu stat -M %s (PAPI's formula of its events)", name, path,
					kind, model, events, spec);
		snprintf(pre, sizeof(pre), "PAPI preset %s (%s's %s for %s: %s) as libpmu's standard %s: ", spec, path,
			 kind, model, events, e->expr);
	} else if (model && r == 0) {
		r = pmu__pfm_resolve(ctx, events, model, out);
		/* an architectural event (LLC_REFERENCES): libpfm4's ix86arch PMU, active beside an Intel model's */
		if (r == -ENOENT && pmu__pfm_x86(model) && strncmp(model, "amd64", 5))
			r = pmu__pfm_resolve(ctx, events, "ix86arch", out);
		if (r < 0)
			return r == -ENOENT ? pmu__err(ctx, r, "PAPI preset '%s': %s defines it for %s as %s, which "
						       "libpfm4 cannot encode here: update libpfm4 or count a native "
						       "event", name, path, model, events) : r;
		snprintf(pre, sizeof(pre), "PAPI preset %s (%s, %s): %s%s%s; ", spec, path, model, events,
			 e && !pmu__papi_derived(e) ? ", standard name " : "", e && !pmu__papi_derived(e) ? e->expr : "");
		pmu__strlcpy(out->name, name, sizeof(out->name));
		if (e)
			out->desc = e->desc;
		origin_prefix(out, pre);
		return 0;
	}
	if (!e)
		return pmu__err(ctx, -ENOENT, "PAPI preset '%s': libpmu maps it to no standard name (none means "
				"it) and PAPI's papi_events.csv %s: install libpapi7.0 (or set PMU_PAPI_EVENTS to the "
				"file) for PAPI's own events, or count a native event ('pmu list')", name,
				!model ? "is not read here (libpfm4 has no PMU for this CPU's table)" :
				csv_path(path, sizeof(path)) ? "is not installed" : "defines it not for this CPU");
	if (pmu__papi_derived(e))
		return pmu__err(ctx, -EINVAL, "'%s' is a derived PAPI preset (%s, events/papi/presets.json), not "
				"one event: evaluate it with pmu stat -M %s", name, e->expr, spec);
	pmu__err_quiet(true); /* said below, with the preset's name */
	r = pmu__resolve(ctx, e->expr, NULL, out);
	pmu__err_quiet(false);
	if (r < 0) {
		char why[256];
		pmu__strlcpy(why, pmu__err_msg(), sizeof(why));
		return pmu__err(ctx, r, "PAPI preset '%s' is libpmu's %s, which cannot be counted here: %s", name,
				e->expr, why);
	}
	if (!pre[0])
		snprintf(pre, sizeof(pre), "PAPI preset %s = standard %s (events/papi/presets.json): ", spec, e->expr);
	pmu__strlcpy(out->name, name, sizeof(out->name));
	origin_prefix(out, pre);
	return 0;
}

const struct pmu_tname *pmu__papi_tname(struct pmu_ctx *ctx, const char *name)
{
	const struct csv_metric *m;
	bool defined;
	long k;

	if (!pmu__papi_is_preset(name))
		return NULL;
	if ((m = csv_metric(ctx, name, &defined)))
		return &m->tn;
	k = find(name);
	return defined || k < 0 || !pmu__papi_derived(&blk->e[k]) ? NULL : &tnames[k];
}

const struct pmu_tentry *pmu__papi_metric(struct pmu_ctx *ctx, const char *name)
{
	const struct pmu_tname *t = pmu__papi_tname(ctx, name);

	return t ? t->ent : NULL;
}

int pmu__papi_foreach(struct pmu_ctx *ctx, bool (*accept)(const char *name, const void *data),
		      int (*fn)(const struct pmu_papi_listed *p, void *data), void *data)
{
	char path[512], kind[32], events[1024], name[16], from[1400];
	const char *model = NULL;
	bool csv;
	int r;

	pthread_once(&once, load_once);
	model = papi_model(ctx);
	csv = model && csv_path(path, sizeof(path)) == 0;
	for (size_t i = 0; i < ARRAY_SIZE(preset_names); i++) {
		const struct pmu_tentry *e;
		struct pmu_papi_listed p;
		bool in_csv;
		snprintf(name, sizeof(name), "PAPI_%s", preset_names[i]);
		if (accept && !accept(name, data))
			continue;
		e = pmu__papi_preset(name);
		in_csv = csv && csv_find(path, model, name, kind, sizeof(kind), events, sizeof(events)) == 0;
		if (!e && !in_csv)
			continue;
		p.name = e ? e->name : name;
		p.desc = e && e->desc ? e->desc : "defined by PAPI's table for this CPU alone";
		p.metric = in_csv ? strcmp(kind, "NOT_DERIVED") || strchr(events, ',') : pmu__papi_derived(e);
		snprintf(from, sizeof(from), "%s%s%s%s%s%s%s%s%s", in_csv ? "PAPI's " : "", in_csv ? path : "",
			 in_csv ? " for " : "", in_csv ? model : "", in_csv ? ": " : "", in_csv ? kind : "",
			 in_csv ? " " : "", in_csv ? events : "", in_csv && e ? "; " : "");
		if (e)
			snprintf(from + strlen(from), sizeof(from) - strlen(from),
				 "libpmu's mapping (events/papi/presets.json): %s", e->expr);
		p.from = from;
		if ((r = fn(&p, data)))
			return r;
	}
	return 0;
}
