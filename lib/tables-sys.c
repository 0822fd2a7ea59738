/* SPDX-License-Identifier: MIT */
/*
 * perf's "sys" tables of a tree (<arch>/<vendor>/<name>/sys/ files: Arm's CMN, NXP's i.MX DDR, ...):
 * events and metrics of system PMUs chosen not by the CPU but by a PMU here whose name the entry's Unit
 * matches (perf's pmu_uncore_alias_match: arm_cmn matches arm_cmn_0, imx8_ddr imx8_ddr0) and whose sysfs
 * identifier file its Compat matches (perf's pmu_uncore_identifier_match: a POSIX extended regular
 * expression matching the whole identifier). Read only where some PMU here has an identifier file.
 * An event's encoding is perf's event string (jevents.py's) placed by that PMU's format files.
 */
#include <dirent.h>
#include <errno.h>
#include <json-c/json.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ctype.h>
#include "tables.h"
#include "common.h"
#include "context.h"
#include "error.h"
#include "jsonparse.h"
#include "sysfs.h"
#include "util.h"

struct idpmu {
	const struct pmu_dev *d;
	char id[128];
};

/* perf's pmu_uncore_identifier_match: @compat a POSIX extended regex matching all of @id. */
static bool compat_match(const char *compat, const char *id)
{
	regex_t re;
	regmatch_t m[1];
	bool ok;

	if (regcomp(&re, compat, REG_EXTENDED) != 0)
		return false;
	ok = !regexec(&re, id, 1, m, 0) && m[0].rm_so == 0 && (size_t)m[0].rm_eo == strlen(id);
	regfree(&re);
	return ok;
}

/* perf's event string of @o, as jevents.py writes it: config=, eventid= or event= first, then the other
 * fields that are not zero, then Filter. -E2BIG where it does not fit. */
static int perf_event_string(json_object *o, char *buf, size_t len)
{
	static const struct { const char *key, *term; } f[] = {
		{ "AnyThread", "any=" }, { "PortMask", "ch_mask=" }, { "CounterMask", "cmask=" },
		{ "EdgeDetect", "edge=" }, { "FCMask", "fc_mask=" }, { "Invert", "inv=" }, { "UMask", "umask=" },
		{ "NodeType", "type=" }, { "RdWrMask", "rdwrmask=" }, { "EnAllCores", "enallcores=" },
		{ "EnAllSlices", "enallslices=" }, { "SliceId", "sliceid=" }, { "ThreadMask", "threadmask=" },
	};
	const char *s;
	uint64_t v = 0;
	size_t n;

	if ((s = pmu__json_field(o, "ConfigCode")))
		n = snprintf(buf, len, "config=%#llx", (unsigned long long)strtoull(s, NULL, 0));
	else if ((s = pmu__json_field(o, "EventidCode")))
		n = snprintf(buf, len, "eventid=%#llx", (unsigned long long)strtoull(s, NULL, 0));
	else {
		if ((s = pmu__json_field(o, "EventCode")))
			v = strtoull(s, NULL, 0);
		if ((s = pmu__json_field(o, "ExtSel")))
			v |= strtoull(s, NULL, 10) << 8;
		n = snprintf(buf, len, "event=%#llx", (unsigned long long)v);
	}
	for (size_t i = 0; i < ARRAY_SIZE(f) && n < len; i++)
		if ((s = pmu__json_field(o, f[i].key)) && *s && strtoull(s, NULL, 0))
			n += snprintf(buf + n, len - n, ",%s%s", f[i].term, s);
	if (n < len && (s = pmu__json_field(o, "Filter")) && *s)
		n += snprintf(buf + n, len - n, ",%s", s);
	return n < len ? 0 : -E2BIG;
}

/* @o made the entry of PMU(s) @unit: its encoding on @d a ConfigCode, the event fields gone, a note of where
 * it came from. NULL (said) where it cannot be encoded or placed beyond config; -ENOMEM in *r. */
static json_object *sys_entry(struct pmu_ctx *ctx, json_object *o, const char *file, const struct idpmu *ip,
			      const char *unit, bool event, int *problems, int *r)
{
	static const char *const drop[] = { "EventCode", "EventidCode", "ConfigCode", "ExtSel", "UMask", "NodeType",
		"PortMask", "FCMask", "Filter", "CounterMask", "EdgeDetect", "Invert", "AnyThread", "RdWrMask",
		"EnAllCores", "EnAllSlices", "SliceId", "ThreadMask", "Compat", "Unit", "Notes" };
	const char *name = pmu__json_field(o, event ? "EventName" : "MetricName");
	char terms[512], note[512], code[32];
	json_object *c = json_object_new_object();

	if (!c) {
		*r = -ENOMEM;
		return NULL;
	}
	if (!name) {
		json_object_put(c);
		return NULL;
	}
	if (event) {
		struct pmu_event_info info;
		int e;
		memset(&info, 0, sizeof(info));
		if (perf_event_string(o, terms, sizeof(terms)) < 0 || (e = pmu__pmu_load(ctx, ip->d)) < 0 ||
		    (e = pmu__sysfs_encode(ctx, ip->d, terms, name, &info, 0)) < 0 || info.config1 || info.config2 ||
		    info.config3) {
			(*problems)++;
			pmu__log(ctx, PMU_LOG_WARN, "%s: event %s (%s) is not placed in config alone by PMU %s's format "
				 "files: not offered (count it as %s/%s/)", file, name, terms, ip->d->name, ip->d->name, terms);
			json_object_put(c);
			return NULL;
		}
		snprintf(code, sizeof(code), "%#llx", (unsigned long long)info.config);
	}
	json_object_object_foreach(o, k, v) {
		bool skip = false;
		for (size_t i = event ? 0 : ARRAY_SIZE(drop) - 3; i < ARRAY_SIZE(drop); i++) /* a metric: the last 3 */
			skip |= !strcmp(k, drop[i]);
		if (!skip && json_object_object_add(c, k, json_object_get(v)))
			goto nomem;
	}
	snprintf(note, sizeof(note), "perf's sys table: Compat '%s' matches PMU %s's identifier %s%s%s%s",
		 pmu__json_field(o, "Compat"), ip->d->name, ip->id, event ? " (perf's event " : "", event ? terms : "",
		 event ? ")" : "");
	if ((event && json_object_object_add(c, "ConfigCode", json_object_new_string(code))) ||
	    json_object_object_add(c, "Unit", json_object_new_string(unit)) ||
	    json_object_object_add(c, "Notes", json_object_new_string(note)))
		goto nomem;
	return c;
nomem:
	json_object_put(c);
	*r = -ENOMEM;
	return NULL;
}

/* A problem of a sys table's entry, said (the loader's own count says how many). */
static void said(void *data, const char *file, const char *entry, const char *msg)
{
	pmu__log(data, PMU_LOG_WARN, "%s: %s: %s", file, entry ? entry : "-", msg);
}

/* Whether some "Unit" of table text @text names one of the PMUs @ip: a file that names none is not parsed
 * (a string search, a tenth of the parse's cost). A Unit written with escapes is taken as a match. */
static bool names_some(const char *text, size_t len, const struct idpmu *ip, size_t nip)
{
	const char *end = text + len;

	for (const char *p = text; (p = memmem(p, end - p, "\"Unit\"", 6)); ) {
		char unit[128];
		size_t n;
		p += 6;
		while (p < end && (isspace((unsigned char)*p) || *p == ':'))
			p++;
		if (p >= end || *p++ != '"')
			continue;
		n = strcspn(p, "\"\\");
		if (p + n >= end || p[n] == '\\' || n >= sizeof(unit))
			return true;
		memcpy(unit, p, n);
		unit[n] = 0;
		for (size_t k = 0; k < nip; k++)
			if (pmu__tables_alias_match(unit, ip[k].d->name))
				return true;
	}
	return false;
}

/* One sys table file @path (@dir its directory in the tree) for the PMUs @ip (@nip of them). */
static int load_file(struct pmu_ctx *ctx, struct pmu_tables *t, const char *path, const char *dir,
		     const struct idpmu *ip, size_t nip, int *problems)
{
	char why[160], *text;
	size_t len;
	struct pmu_json_error jerr;
	json_object *root, *out;
	int r = pmu__tables_read_whole(path, &text, &len, why, sizeof(why));

	if (r < 0)
		return r == -ENOMEM ? r : 0;
	if (!names_some(text, len, ip, nip)) {
		free(text);
		return 0;
	}
	r = pmu__json_parse(text, len, 64, PMU_JSON_SCALAR_TEXT | PMU_JSON_LAX, &root, &jerr);
	free(text);
	if (r < 0) {
		if (r == -ENOMEM)
			return r;
		(*problems)++;
		pmu__log(ctx, PMU_LOG_WARN, "%s: JSON syntax error at line %zu (offset %zu): %s; not loaded", path,
			 jerr.line, jerr.offset, jerr.what);
		return 0;
	}
	if (!json_object_is_type(root, json_type_array)) {
		json_object_put(root);
		(*problems)++;
		pmu__log(ctx, PMU_LOG_WARN, "%s: top level is not an array of events/metrics; not loaded", path);
		return 0;
	}
	if (!(out = json_object_new_array())) {
		json_object_put(root);
		return -ENOMEM;
	}
	for (size_t i = 0; r == 0 && i < json_object_array_length(root); i++) {
		json_object *o = json_object_array_get_idx(root, i), *c;
		const char *unit = pmu__json_field(o, "Unit"), *compat = pmu__json_field(o, "Compat");
		bool event = pmu__json_field(o, "EventName") != NULL;
		const struct idpmu *m[64];
		size_t nm = 0, here;
		if (!unit || !compat)
			continue;
		for (size_t k = 0; k < nip && nm < ARRAY_SIZE(m); k++)
			if (pmu__tables_alias_match(unit, ip[k].d->name) && compat_match(compat, ip[k].id))
				m[nm++] = &ip[k];
		if (!nm)
			continue;
		/* the Unit as it is where it names these PMUs and no other here (an uncore unit of several boxes,
		 * summed); else an entry per PMU, named by it */
		here = pmu__tables_unit_pmus(ctx, unit, NULL);
		if (here == nm) {
			if ((c = sys_entry(ctx, o, path, m[0], unit, event, problems, &r)) &&
			    json_object_array_add(out, c))
				r = -ENOMEM;
			continue;
		}
		for (size_t k = 0; k < nm && r == 0; k++)
			if ((c = sys_entry(ctx, o, path, m[k], m[k]->d->name, event, problems, &r)) &&
			    json_object_array_add(out, c))
				r = -ENOMEM;
	}
	json_object_put(root);
	if (r == 0 && json_object_array_length(out)) {
		size_t n;
		const char *s = json_object_to_json_string_length(out, JSON_C_TO_STRING_PLAIN, &n);
		r = s ? pmu__tables_load_text(t, path, dir, s, n, said, ctx, problems) : -ENOMEM;
	}
	json_object_put(out);
	return r;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The files of <@root>/<@sub>/sys/, sorted, each loaded. */
static int load_sys_dir(struct pmu_ctx *ctx, struct pmu_tables *t, const char *root, const char *sub,
			const struct idpmu *ip, size_t nip, int *problems)
{
	char path[1024], dir[512];
	char *names[64];
	size_t n = 0;
	struct dirent *de;
	DIR *d;
	int r = 0;

	if (pmu__path(dir, sizeof(dir), "%s/sys", sub) < 0 || pmu__path(path, sizeof(path), "%s/%s", root, dir) < 0 ||
	    !(d = opendir(path)))
		return 0;
	while ((de = readdir(d)) && n < ARRAY_SIZE(names)) {
		size_t l = strlen(de->d_name);
		if (l > 5 && !strcmp(de->d_name + l - 5, ".json") && !(names[n++] = strdup(de->d_name))) {
			n--;
			r = -ENOMEM;
			break;
		}
	}
	closedir(d);
	qsort(names, n, sizeof(*names), cmp_str);
	for (size_t i = 0; i < n; i++) {
		if (r == 0 && pmu__path(path, sizeof(path), "%s/%s/%s", root, dir, names[i]) == 0)
			r = load_file(ctx, t, path, dir, ip, nip, problems);
		free(names[i]);
	}
	return r;
}

int pmu__tables_load_sys(struct pmu_ctx *ctx, struct pmu_tables *t, const char *root, int *problems)
{
	struct idpmu *ip = NULL;
	size_t nip = 0;
	int r = 0;
	DIR *top;
	struct dirent *v;

	for (size_t i = 0; i < ctx->n_pmus; i++) {
		char path[512], id[128];
		const struct pmu_dev *d = &ctx->pmus[i];
		if (d->is_core || pmu__path(path, sizeof(path), "%s/bus/event_source/devices/%s/identifier",
					    ctx->sysfs_root, d->name) < 0 || pmu__read_file(path, id, sizeof(id)) < 0)
			continue;
		id[strcspn(id, "\n")] = 0;
		struct idpmu *n = realloc(ip, (nip + 1) * sizeof(*ip));
		if (!n) {
			free(ip);
			return -ENOMEM;
		}
		ip = n;
		ip[nip].d = d;
		pmu__strlcpy(ip[nip++].id, id, sizeof(ip->id));
	}
	if (!nip)
		return 0; /* no PMU here is matched by identifier: the tree's sys tables are not read */
	/* <root>/<vendor>/sys and <root>/<vendor>/<name>/sys, as perf's jevents.py finds them */
	if (!(top = opendir(root))) {
		free(ip);
		return 0;
	}
	while (r == 0 && (v = readdir(top))) {
		char path[1024];
		DIR *vd;
		struct dirent *w;
		if (v->d_name[0] == '.' || pmu__path(path, sizeof(path), "%s/%s", root, v->d_name) < 0 ||
		    !(vd = opendir(path)))
			continue;
		while (r == 0 && (w = readdir(vd))) {
			char sub[512];
			if (w->d_name[0] == '.')
				continue;
			if (!strcmp(w->d_name, "sys"))
				r = load_sys_dir(ctx, t, root, v->d_name, ip, nip, problems);
			else if (w->d_type == DT_DIR || w->d_type == DT_UNKNOWN || w->d_type == DT_LNK)
				r = pmu__path(sub, sizeof(sub), "%s/%s", v->d_name, w->d_name) < 0 ? 0 :
				    load_sys_dir(ctx, t, root, sub, ip, nip, problems);
		}
		closedir(vd);
	}
	closedir(top);
	free(ip);
	return r;
}
