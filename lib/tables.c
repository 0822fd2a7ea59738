/* SPDX-License-Identifier: MIT */
/*
 * Event tables: the perf pmu-events JSON files of events/ (built in) and of
 * the directories in PMU_EVENTS_PATH, loaded lazily for the detected CPU and
 * indexed by name and alias. Intel's perfmon metric files are converted by
 * tables-perfmon.c, entries encoded by tables-encode.c, directories checked
 * by tables-check.c (all through tables.h).
 */
#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <limits.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>
#include "internal.h"
#include "tables.h"

#define MAX_TABLE_FILE (64u << 20) /* larger files are refused, not parsed */

/* ---------------------------------------------------------------- */
/* entries                                                           */
/* ---------------------------------------------------------------- */

static void entry_free(struct pmu_tentry *e)
{
	if (!e)
		return;
	if (e->borrowed) { /* strings are the library's compiled data */
		free(e);
		return;
	}
	free(e->name); free(e->file); free(e->dir); free(e->desc); free(e->pdesc); free(e->notes);
	free(e->stdnames); free(e->approx_note); free(e->approx_names); free(e->topdown); free(e->aliases); free(e->generic);
	free(e->source); free(e->unit); free(e->expr); free(e->group); free(e->scale_unit);
	free(e->threshold); free(e->params); free(e->counter_csr); free(e->pfm_name);
	free(e);
}

void pmu__tables_free(struct pmu_tables *t)
{
	for (size_t i = 0; i < t->n; i++)
		if (!t->v[i]->shared)
			entry_free(t->v[i]);
	free(t->v);
	free(t->names);
	for (size_t i = 0; i < t->nalias; i++)
		free(t->alias_store[i]);
	free(t->alias_store);
	free(t->cpu_dir);
	free(t->cpu_dir_root);
	memset(t, 0, sizeof(*t));
}

/* A field as text: strings as they are, numbers printed. NULL if absent. */
static const char *field(json_object *o, const char *key)
{
	json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || !v)
		return NULL;
	if (json_object_is_type(v, json_type_string) || json_object_is_type(v, json_type_int) ||
	    json_object_is_type(v, json_type_double) || json_object_is_type(v, json_type_boolean))
		return json_object_get_string(v);
	return NULL;
}

const char *pmu__tables_field(json_object *o, const char *key)
{
	return field(o, key);
}

static int dup_field(json_object *o, const char *key, char **out)
{
	const char *s = field(o, key);

	if (!s || !*s)
		return 0;
	*out = strdup(s);
	return *out ? 0 : -ENOMEM;
}

/* First number of a field such as "0xB7, 0xBB" or "0x1a6,0x1a7". */
static int num_field(json_object *o, const char *key, uint64_t *out, bool *present, char *why, size_t wl)
{
	const char *s = field(o, key);
	char buf[64];
	size_t n;

	*present = false;
	if (!s || !*s)
		return 0;
	n = strcspn(s, ",");
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	if (n == 0 || n >= sizeof(buf)) {
		snprintf(why, wl, "%s '%s' is not a number", key, s);
		return -EINVAL;
	}
	memcpy(buf, s, n);
	buf[n] = 0;
	if (pmu__parse_u64(buf, out) < 0) {
		snprintf(why, wl, "%s '%s' is not a number", key, s);
		return -EINVAL;
	}
	*present = true;
	return 0;
}

static int add_entry(struct pmu_tables *t, struct pmu_tentry *e)
{
	if (t->n == t->cap) {
		size_t nc = t->cap ? t->cap * 2 : 256;
		struct pmu_tentry **nv = realloc(t->v, nc * sizeof(*nv));
		if (!nv)
			return -ENOMEM;
		t->v = nv;
		t->cap = nc;
	}
	t->v[t->n++] = e;
	return 0;
}

/*
 * perf's encoding rules for native events (facts from perf's jevents.py,
 * JsonEvent.real_event() and its event= term), so that a table encodes what
 * perf encodes: a missing EventCode is event 0 (Intel's fixed-counter
 * pseudo-events, TOPDOWN.SLOTS = umask 0x4); and six Intel names are encoded
 * by name, whatever the file says, because Intel's files give them the
 * fixed-counter pseudo-encodings (event 0, umask 1/2/3) that Linux accepts
 * only from Ice Lake on (umask 2 on no CPU). Returns false for an entry with
 * no encoding at all on the core PMU, which would count event 0 umask 0:
 * nothing.
 */
static bool perf_event_rules(struct pmu_tentry *e)
{
	static const struct { const char *name; uint64_t event, umask, any; } by_name[] = {
		{ "INST_RETIRED.ANY", 0xc0, 0, 0 },     { "INST_RETIRED.ANY_P", 0xc0, 0, 0 },
		{ "CPU_CLK_UNHALTED.REF", 0x00, 0x03, 0 }, { "CPU_CLK_UNHALTED.THREAD", 0x3c, 0, 0 },
		{ "CPU_CLK_UNHALTED.CORE", 0x3c, 0, 0 }, { "CPU_CLK_UNHALTED.THREAD_ANY", 0x3c, 0, 1 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(by_name); i++)
		if (!strcasecmp(e->name, by_name[i].name)) {
			/* perf's string replaces the entry's: other fields are dropped */
			e->have = PMU_TF_EVENT | (by_name[i].umask ? PMU_TF_UMASK : 0) | (by_name[i].any ? PMU_TF_ANY : 0);
			e->event = by_name[i].event;
			e->umask = by_name[i].umask;
			e->any = by_name[i].any;
			e->cmask = e->inv = e->edge = e->msr_index = e->msr_value = e->config_code = 0;
			return true;
		}
	if (e->have & (PMU_TF_EVENT | PMU_TF_CONFIG))
		return true;
	if (!e->have && !e->unit)
		return false;
	e->event = 0;
	e->have |= PMU_TF_EVENT;
	return true;
}

/* The architecture a table directory's layout is ("x86", "x86/skylakex", "arm64/..."); 0: unknown
 * (a flat PMU_EVENTS_PATH directory: the encoder checks against the CPU's layout). */
int pmu__tables_dir_arch(const char *dir)
{
	static const struct { const char *name; int arch; } a[] = {
		{ "x86", PMU_ARCH_X86 }, { "arm64", PMU_ARCH_ARM64 }, { "riscv", PMU_ARCH_RISCV },
	};

	for (size_t i = 0; i < ARRAY_SIZE(a); i++) {
		size_t l = strlen(a[i].name);
		if (!strncmp(dir, a[i].name, l) && (dir[l] == '/' || !dir[l]))
			return a[i].arch;
	}
	return 0;
}

/*
 * The widest value each encoding field of a native event holds in the layout of @arch (0: unknown,
 * the widest of the three), so that no bit of a table's number is dropped when encoded. x86 core
 * PMUs (Intel SDM / AMD APM PERF_CTL, and the kernel's cpu format): event bits 0-7 with AMD's
 * extended event bits 8-11 (config 32-35), umask 8 bits, cmask 8 bits, edge, any, inv 1 bit each.
 * arm64 (PMUv3's format): event config:0-15. RISC-V (the SBI PMU's format): event config:0-47.
 * Another PMU's (Unit: an uncore PMU) fields are its sysfs format's, checked when encoding.
 */
static const struct field_limit {
	unsigned bit;
	const char *key;
	uint64_t x86, arm64, riscv;
} field_limits[] = {
	{ PMU_TF_EVENT, "EventCode", 0xfff, 0xffff, 0xffffffffffffull },
	{ PMU_TF_UMASK, "UMask", 0xff, 0xff, 0xff },
	{ PMU_TF_CMASK, "CounterMask", 0xff, 0xff, 0xff },
	{ PMU_TF_INV, "Invert", 1, 1, 1 },
	{ PMU_TF_EDGE, "EdgeDetect", 1, 1, 1 },
	{ PMU_TF_ANY, "AnyThread", 1, 1, 1 },
};

static uint64_t field_value(const struct pmu_tentry *e, unsigned bit)
{
	return bit == PMU_TF_EVENT ? e->event : bit == PMU_TF_UMASK ? e->umask : bit == PMU_TF_CMASK ? e->cmask :
	       bit == PMU_TF_INV ? e->inv : bit == PMU_TF_EDGE ? e->edge : e->any;
}

bool pmu__tables_core_unit(const char *unit)
{
	return !strcasecmp(unit, "cpu") || !strcasecmp(unit, "core") || !strcasecmp(unit, "cpu_core") ||
	       !strcasecmp(unit, "cpu_atom") || !strcasecmp(unit, "armv8_pmuv3") || !strncasecmp(unit, "armv8_", 6);
}

/* Whether a core PMU counts @e (no Unit, or the core PMUs' names): the fixed layouts apply. */
static bool core_unit(const struct pmu_tentry *e)
{
	return !e->unit || pmu__tables_core_unit(e->unit);
}

/* Whether PMU @dev is @base or an instance of it (@base followed by '_' and digits). */
static bool pmu_instance_of(const char *dev, const char *base)
{
	size_t l = strlen(base);

	if (strncasecmp(dev, base, l))
		return false;
	if (!dev[l])
		return true;
	if (dev[l] != '_' || !dev[l + 1])
		return false;
	for (const char *c = dev + l + 1; *c; c++)
		if (!isdigit((unsigned char)*c))
			return false;
	return true;
}

/* The PMU name perf gives Unit @unit: "uncore_" + the unit, or its own name for the Units perf's tables
 * write otherwise (facts of perf's jevents.py). */
static void unit_perf_name(const char *unit, char *out, size_t len)
{
	static const struct { const char *unit, *pmu; } renamed[] = {
		{ "CBO", "uncore_cbox" }, { "QPI LL", "uncore_qpi" }, { "SBO", "uncore_sbox" },
		{ "iMPH-U", "uncore_arb" }, { "UPI LL", "uncore_upi" }, { "L3PMC", "amd_l3" },
		{ "DFPMC", "amd_df" }, { "UMCPMC", "amd_umc" },
	};

	snprintf(out, len, "uncore_%s", unit);
	for (size_t i = 0; i < ARRAY_SIZE(renamed); i++)
		if (!strcmp(unit, renamed[i].unit))
			pmu__strlcpy(out, renamed[i].pmu, len);
}

bool pmu__tables_unit_is(const char *unit, const char *dev)
{
	char perf_name[96];

	unit_perf_name(unit, perf_name, sizeof(perf_name));
	return pmu_instance_of(dev, unit) || pmu_instance_of(dev, perf_name);
}

size_t pmu__tables_unit_pmus(const struct pmu_ctx *ctx, const char *unit, const struct pmu_dev **first)
{
	size_t n = 0;

	if (first)
		*first = NULL;
	for (size_t i = 0; i < ctx->n_pmus; i++)
		if (!strcasecmp(ctx->pmus[i].name, unit)) {
			if (first)
				*first = &ctx->pmus[i];
			return 1;
		}
	for (size_t i = 0; i < ctx->n_pmus; i++)
		if (pmu__tables_unit_is(unit, ctx->pmus[i].name)) {
			if (first && !*first)
				*first = &ctx->pmus[i];
			n++;
		}
	return n;
}

/* The first field of @e over its limit in layout @arch: false and @why saying entry's field, value
 * and limit; true if all fit. */
bool pmu__tables_fields_fit(const struct pmu_tentry *e, int arch, char *why, size_t wl)
{
	if (!core_unit(e))
		return true;
	for (size_t i = 0; i < ARRAY_SIZE(field_limits); i++) {
		const struct field_limit *f = &field_limits[i];
		uint64_t max = arch == PMU_ARCH_X86 ? f->x86 : arch == PMU_ARCH_ARM64 ? f->arm64 : f->riscv;
		uint64_t v = field_value(e, f->bit);
		if (!(e->have & f->bit) || v <= max)
			continue;
		snprintf(why, wl, "%s %llu (0x%llx) does not fit the field it is encoded into (%s: at most 0x%llx)",
			 f->key, (unsigned long long)v, (unsigned long long)v,
			 arch == PMU_ARCH_X86 ? "x86" : arch == PMU_ARCH_ARM64 ? "arm64" : arch == PMU_ARCH_RISCV ?
			 "riscv" : "any architecture", (unsigned long long)max);
		return false;
	}
	return true;
}

/* Parse one object into an entry; an object with both EventName and MetricName is an event and a
 * metric, as perf's jevents.py makes it (@as_metric: parse its metric). Returns 0, 1 (not an entry:
 * nothing to load, no problem), -EINVAL (reported), -ENOMEM. */
static int parse_entry(json_object *o, const char *file, const char *dir, struct pmu_tentry **out,
		       pmu_problem_fn pf, void *pd, bool as_metric)
{
	struct pmu_tentry *e = calloc(1, sizeof(*e));
	char why[256] = "";
	const char *en = field(o, "EventName"), *mn = field(o, "MetricName"), *as = field(o, "ArchStdEvent");
	bool event_half = false; /* the event of an object that is an event and a metric */
	static const struct { const char *key; unsigned bit; size_t off; } nums[] = {
		{ "EventCode", PMU_TF_EVENT, offsetof(struct pmu_tentry, event) },
		{ "UMask", PMU_TF_UMASK, offsetof(struct pmu_tentry, umask) },
		{ "CounterMask", PMU_TF_CMASK, offsetof(struct pmu_tentry, cmask) },
		{ "Invert", PMU_TF_INV, offsetof(struct pmu_tentry, inv) },
		{ "EdgeDetect", PMU_TF_EDGE, offsetof(struct pmu_tentry, edge) },
		{ "AnyThread", PMU_TF_ANY, offsetof(struct pmu_tentry, any) },
		{ "MSRIndex", PMU_TF_MSR, offsetof(struct pmu_tentry, msr_index) },
		{ "ConfigCode", PMU_TF_CONFIG, offsetof(struct pmu_tentry, config_code) },
	};
	int r = 0;

	if (!e)
		return -ENOMEM;
	if (!en && !mn && !as && (field(o, "CountersNumFixed") || field(o, "CountersNumGeneric") || field(o, "BitName"))) {
		/* perf's counter.json: how many counters a PMU has, not an event (perf 6.12 reads none); Intel's
		 * *_fp_arith_inst.json: what each unit mask bit of the FP_ARITH events counts */
		free(e);
		return 1;
	}
	if (!en && !mn && as && *as)
		en = as; /* perf's reference to an architecture-level event, filled in after loading */
	if (en && !*en)
		en = NULL;
	if (mn && !*mn)
		mn = NULL;
	if (en && mn) {
		event_half = !as_metric;
		*(as_metric ? &en : &mn) = NULL;
	}
	if (!en && !mn) {
		if (pf)
			pf(pd, file, "?", "has neither EventName nor MetricName");
		free(e);
		return -EINVAL;
	}
	e->kind = en ? (strcmp(dir, "standard") == 0 ? PMU_T_STANDARD : PMU_T_NATIVE) : PMU_T_METRIC;
	if (!(e->name = strdup(en ? en : mn)) || !(e->file = strdup(file)) || !(e->dir = strdup(dir)))
		goto nomem;
	{
		/* an event name is a word of an event list; a metric name may have spaces (perf's
		 * "tma_info_serialization _%_tpause_cycles"), not the separators of -M lists and PMU/NAME/ */
		bool ctl = false;
		for (const char *c = e->name; *c; c++)
			ctl |= iscntrl((unsigned char)*c);
		if (strlen(e->name) >= PMU_NAME_MAX || ctl || strpbrk(e->name, e->kind == PMU_T_METRIC ? ",{}/" : " ,{}/")) {
			snprintf(why, sizeof(why), "%s name must be under %d characters without %s',', '{', '}', '/' or "
				 "control characters", e->kind == PMU_T_METRIC ? "a metric" : "an event", PMU_NAME_MAX,
				 e->kind == PMU_T_METRIC ? "" : "spaces, ");
			goto bad;
		}
	}
	if (dup_field(o, "BriefDescription", &e->desc) || dup_field(o, "PublicDescription", &e->pdesc) ||
	    dup_field(o, "Notes", &e->notes) || dup_field(o, "StdNames", &e->stdnames) ||
	    dup_field(o, "ApproxNote", &e->approx_note) || dup_field(o, "TopdownRole", &e->topdown) ||
	    dup_field(o, "Aliases", &e->aliases) || dup_field(o, "Generic", &e->generic) ||
	    dup_field(o, "Source", &e->source) || dup_field(o, "Unit", &e->unit) ||
	    (!event_half && (dup_field(o, "MetricExpr", &e->expr) || dup_field(o, "MetricGroup", &e->group) ||
		    dup_field(o, "MetricThreshold", &e->threshold) || dup_field(o, "MetricParams", &e->params))) ||
	    dup_field(o, "ScaleUnit", &e->scale_unit) || dup_field(o, "CounterCSR", &e->counter_csr) ||
	    dup_field(o, "PfmName", &e->pfm_name) || dup_field(o, "ApproxNames", &e->approx_names))
		goto nomem;
	if (!e->notes && dup_field(o, "Errata", &e->notes))
		goto nomem;
	if (e->notes && (!strcasecmp(e->notes, "null") || !strcasecmp(e->notes, "none")))
		free(e->notes), e->notes = NULL;
	{
		const char *a = field(o, "Approximate");
		e->approx = a && (!strcmp(a, "1") || !strcasecmp(a, "true"));
	}
	if (e->kind == PMU_T_NATIVE) {
		for (size_t i = 0; i < ARRAY_SIZE(nums); i++) {
			bool present;
			if (num_field(o, nums[i].key, (uint64_t *)((char *)e + nums[i].off), &present, why,
				      sizeof(why)) < 0)
				goto bad;
			if (present)
				e->have |= nums[i].bit;
		}
		if (e->have & PMU_TF_MSR) {
			bool present;
			if (num_field(o, "MSRValue", &e->msr_value, &present, why, sizeof(why)) < 0)
				goto bad;
		}
		e->archstd = as && *as;
		if (!pmu__tables_fields_fit(e, pmu__tables_dir_arch(dir), why, sizeof(why)))
			goto bad;
		if (!e->archstd && !perf_event_rules(e)) {
			snprintf(why, sizeof(why), "native event without EventCode, UMask or ConfigCode (it would count "
				 "event 0, umask 0: nothing)");
			goto bad;
		}
	}
	{
		uint64_t v;
		bool present;
		if (num_field(o, "CounterWidth", &v, &present, why, sizeof(why)) < 0)
			goto bad;
		e->counter_width = present ? (int)v : 0;
		if (present && (v == 0 || v > 64)) {
			snprintf(why, sizeof(why), "CounterWidth %llu is not 1..64", (unsigned long long)v);
			goto bad;
		}
		if (num_field(o, "MhpmeventBit", &v, &present, why, sizeof(why)) < 0)
			goto bad;
		e->mhpmevent_bit = present ? (int)v : -1;
		if (present && v > 63) {
			snprintf(why, sizeof(why), "MhpmeventBit %llu is not 0..63", (unsigned long long)v);
			goto bad;
		}
	}
	if (e->kind == PMU_T_METRIC && !e->expr) {
		snprintf(why, sizeof(why), "metric without MetricExpr");
		goto bad;
	}
	*out = e;
	return r;
bad:
	if (pf)
		pf(pd, file, e->name ? e->name : "?", why);
	entry_free(e);
	return -EINVAL;
nomem:
	entry_free(e);
	return -ENOMEM;
}

/* Parse a JSON file's text and add its entries. Problems go to pf. */
int pmu__tables_load_text(struct pmu_tables *t, const char *file, const char *dir, const char *text, size_t len,
		     pmu_problem_fn pf, void *pd, int *problems)
{
	struct json_tokener *tok;
	json_object *root;
	enum json_tokener_error jerr;
	char msg[256];
	int r = 0;

	if (len > MAX_TABLE_FILE) {
		(*problems)++;
		if (pf)
			pf(pd, file, NULL, "file larger than 64 MiB; refused");
		return 0;
	}
	if (memchr(text, 0, len)) {
		(*problems)++;
		if (pf)
			pf(pd, file, NULL, "contains a NUL byte: not a JSON text file");
		return 0;
	}
	tok = json_tokener_new_ex(64);
	if (!tok)
		return -ENOMEM;
	root = json_tokener_parse_ex(tok, text, (int)len);
	jerr = json_tokener_get_error(tok);
	if (!root || jerr != json_tokener_success) {
		size_t off = json_tokener_get_parse_end(tok), line = 1;
		for (size_t i = 0; i < off && i < len; i++)
			line += text[i] == '\n';
		snprintf(msg, sizeof(msg), "JSON syntax error at line %zu (offset %zu): %s", line, off,
			 root ? "text after the value" :
			 jerr == json_tokener_continue ? "the file ends inside an array or object" :
			 json_tokener_error_desc(jerr));
		(*problems)++;
		if (pf)
			pf(pd, file, NULL, msg);
		json_object_put(root);
		json_tokener_free(tok);
		return 0;
	}
	json_tokener_free(tok);
	if (json_object_is_type(root, json_type_object)) {
		/* Intel perfmon files: {"Header": {...}, "Events": [...]} or {..., "Metrics": [...]} */
		json_object *events;
		if (json_object_object_get_ex(root, "Events", &events) && json_object_is_type(events, json_type_array)) {
			json_object_get(events);
			json_object_put(root);
			root = events;
		} else if (json_object_object_get_ex(root, "Metrics", &events) &&
			   json_object_is_type(events, json_type_array)) {
			json_object *conv = pmu__tables_perfmon_metrics(events, file, pf, pd, problems);
			json_object_put(root);
			if (!conv)
				return -ENOMEM;
			root = conv;
		}
	}
	if (!json_object_is_type(root, json_type_array)) {
		(*problems)++;
		if (pf)
			pf(pd, file, NULL, "top level is not an array of events/metrics");
		json_object_put(root);
		return 0;
	}
	for (size_t i = 0; i < json_object_array_length(root); i++) {
		json_object *o = json_object_array_get_idx(root, i);
		struct pmu_tentry *e = NULL;
		if (!json_object_is_type(o, json_type_object)) {
			snprintf(msg, sizeof(msg), "element %zu is not an object", i);
			(*problems)++;
			if (pf)
				pf(pd, file, NULL, msg);
			continue;
		}
		for (int as_metric = 0; as_metric < 2; as_metric++) {
			/* an object with EventName and MetricName: its event, then its metric */
			if (as_metric && !(field(o, "EventName") && *field(o, "EventName") && field(o, "MetricName") &&
					   *field(o, "MetricName")))
				break;
			e = NULL;
			r = parse_entry(o, file, dir, &e, pf, pd, as_metric);
			if (r == 1) {
				r = 0;
				break;
			}
			if (r == -EINVAL) {
				(*problems)++;
				r = 0;
				continue;
			}
			if (r < 0 || (r = add_entry(t, e)) < 0) {
				entry_free(e);
				break;
			}
		}
		if (r < 0)
			break;
	}
	json_object_put(root);
	return r;
}

/* A table file's whole text (NUL-terminated, to free). 0; -ENOENT (and other open errors) as errno;
 * -EINVAL with the reason in @why for what is not a regular file (a FIFO would block the load
 * forever: it is opened without waiting for a writer and refused) or is larger than 64 MiB;
 * -ENOMEM. */
int pmu__tables_read_whole(const char *path, char **out, size_t *len, char *why, size_t wl)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	struct stat st;
	size_t n = 0;
	char *buf;

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		snprintf(why, wl, "not a regular file (%s); refused",
			 S_ISFIFO(st.st_mode) ? "a FIFO" : S_ISDIR(st.st_mode) ? "a directory" :
			 S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "a device" : S_ISSOCK(st.st_mode) ? "a socket" :
			 "of another type");
		close(fd);
		return -EINVAL;
	}
	if ((uint64_t)st.st_size > MAX_TABLE_FILE) {
		snprintf(why, wl, "file of %llu bytes; a table file has at most 64 MiB; refused",
			 (unsigned long long)st.st_size);
		close(fd);
		return -EINVAL;
	}
	if (!(buf = malloc((size_t)st.st_size + 1))) {
		close(fd);
		return -ENOMEM;
	}
	/* what the file holds now, up to the size it had: a file growing meanwhile is not read on */
	while (n < (size_t)st.st_size) {
		ssize_t k = read(fd, buf + n, (size_t)st.st_size - n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0) {
			int e = errno;
			snprintf(why, wl, "cannot be read: %s", strerror(e));
			free(buf);
			close(fd);
			return -EINVAL;
		}
		if (k == 0)
			break;
		n += (size_t)k;
	}
	close(fd);
	buf[n] = 0;
	*out = buf;
	*len = n;
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Load every *.json of a disk directory (not recursive), in name order. */
int pmu__tables_load_disk_dir(struct pmu_tables *t, const char *path, const char *dir, pmu_problem_fn pf, void *pd,
			 int *problems)
{
	DIR *dh = opendir(path);
	struct dirent *de;
	char **names = NULL;
	size_t n = 0;
	int r = 0;

	if (!dh)
		return -errno;
	while ((de = readdir(dh))) {
		size_t l = strlen(de->d_name);
		char **nn;
		/* perf's metricgroups.json describes metric groups: not a table (jevents.py skips it too) */
		if (l < 6 || strcmp(de->d_name + l - 5, ".json") || !strcmp(de->d_name, "metricgroups.json"))
			continue;
		nn = realloc(names, (n + 1) * sizeof(*nn));
		if (!nn) {
			r = -ENOMEM;
			goto out;
		}
		names = nn;
		if (!(names[n] = strdup(de->d_name))) {
			r = -ENOMEM;
			goto out;
		}
		n++;
	}
	if (n)
		qsort(names, n, sizeof(*names), cmp_str);
	for (size_t i = 0; i < n && r == 0; i++) {
		char file[1024], why[128], *text;
		size_t len;
		if (pmu__path(file, sizeof(file), "%s/%s", path, names[i]) < 0)
			continue;
		why[0] = 0;
		r = pmu__tables_read_whole(file, &text, &len, why, sizeof(why));
		if (r == -ENOMEM)
			break;
		if (r < 0) {
			(*problems)++;
			if (pf)
				pf(pd, file, NULL, why[0] ? why : strerror(-r));
			r = 0;
			continue;
		}
		r = pmu__tables_load_text(t, file, dir, text, len, pf, pd, problems);
		free(text);
	}
out:
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	closedir(dh);
	return r;
}

/* ---------------------------------------------------------------- */
/* ArchStdEvent: perf's references to architecture-level events       */
/* ---------------------------------------------------------------- */

static char *xstrdup_or(char *cur, const char *from)
{
	return cur ? cur : from ? strdup(from) : NULL;
}

/* Fill the entries [first, t->n) that are ArchStdEvent references from the
 * events and metrics of @arch (the .json files of the CPU directory's
 * ancestors): fields the entry leaves out are the architecture's, and a
 * reference to a metric (arm64's sbsa.json topdown metrics) is a metric. */
static int cmp_tname(const void *a, const void *b);
static int cmp_tname_order(const void *a, const void *b);

void pmu__tables_fill_archstd(struct pmu_tables *t, size_t first, const struct pmu_tables *arch, pmu_problem_fn pf,
			 void *pd, int *problems)
{
	/* the architecture's entries by name, then load order */
	struct pmu_tname *idx = malloc((arch->n ? arch->n : 1) * sizeof(*idx));

	if (!idx) {
		(*problems)++;
		if (pf)
			pf(pd, t->n > first ? t->v[first]->file : "", NULL, "out of memory reading ArchStdEvent references");
		return;
	}
	for (size_t k = 0; k < arch->n; k++)
		idx[k] = (struct pmu_tname){ arch->v[k]->name, arch->v[k], k };
	qsort(idx, arch->n, sizeof(*idx), cmp_tname_order);
	for (size_t i = first; i < t->n; i++) {
		struct pmu_tentry *e = t->v[i];
		const struct pmu_tentry *a = NULL;
		struct pmu_tname key = { e->name, NULL, 0 };
		const struct pmu_tname *hit;
		if (!e->archstd || (e->have & (PMU_TF_EVENT | PMU_TF_CONFIG)))
			continue;
		hit = arch->n ? bsearch(&key, idx, arch->n, sizeof(*idx), cmp_tname) : NULL;
		while (hit && hit > idx && !strcasecmp(hit[-1].name, e->name))
			hit--;
		/* the first loaded that defines an encoding or is a metric */
		for (; hit && hit < idx + arch->n && !a && !strcasecmp(hit->name, e->name); hit++)
			if ((hit->e->have & (PMU_TF_EVENT | PMU_TF_CONFIG)) || hit->e->kind == PMU_T_METRIC)
				a = hit->e;
		if (!a) {
			(*problems)++;
			if (pf)
				pf(pd, e->file, e->name, "ArchStdEvent is not defined by the architecture-level files");
			continue;
		}
		if (a->kind == PMU_T_METRIC) {
			e->kind = PMU_T_METRIC;
			e->expr = xstrdup_or(e->expr, a->expr);
			e->group = xstrdup_or(e->group, a->group);
			e->scale_unit = xstrdup_or(e->scale_unit, a->scale_unit);
			e->threshold = xstrdup_or(e->threshold, a->threshold);
			e->params = xstrdup_or(e->params, a->params);
			e->desc = xstrdup_or(e->desc, a->desc);
			e->pdesc = xstrdup_or(e->pdesc, a->pdesc);
			continue;
		}
		e->have |= a->have;
		e->event = a->event;
		e->umask = a->umask;
		e->cmask = a->cmask;
		e->inv = a->inv;
		e->edge = a->edge;
		e->any = a->any;
		e->msr_index = a->msr_index;
		e->msr_value = a->msr_value;
		e->config_code = a->config_code;
		e->desc = xstrdup_or(e->desc, a->desc);
		e->pdesc = xstrdup_or(e->pdesc, a->pdesc);
		e->stdnames = xstrdup_or(e->stdnames, a->stdnames);
		e->approx_names = xstrdup_or(e->approx_names, a->approx_names);
		e->approx_note = xstrdup_or(e->approx_note, a->approx_note);
		e->approx = e->approx || a->approx;
		perf_event_rules(e);
	}
	free(idx);
}

/* Load the .json files of every ancestor of @dir inside @root (disk) into @arch. */
void pmu__tables_load_ancestors_disk(struct pmu_tables *arch, const char *root, const char *dir)
{
	char rel[512], path[1024];
	int ignored = 0;

	pmu__strlcpy(rel, dir, sizeof(rel));
	for (;;) {
		char *slash = strrchr(rel, '/');
		if (slash)
			*slash = 0;
		else
			rel[0] = 0;
		if (pmu__path(path, sizeof(path), "%s%s%s", root, rel[0] ? "/" : "", rel) == 0)
			pmu__tables_load_disk_dir(arch, path, rel[0] ? rel : "arch", NULL, NULL, &ignored);
		if (!rel[0])
			break;
	}
}

/* The architecture-level files of a CPU directory named alone (PMU_EVENTS_PATH=.../arch/arm64/arm/
 * cortex-a57-a72): the tree it is in is the nearest directory above with a mapfile.csv (perf's
 * arch/<arch>), and the .json files of each directory from there down to it are loaded into @arch as
 * pmu__tables_load_ancestors_disk() does for a tree. Nothing when no directory above has a mapfile.csv. */
void pmu__tables_load_ancestors_flat(struct pmu_tables *arch, const char *path)
{
	char real[PATH_MAX], up[PATH_MAX], map[PATH_MAX + 16];
	struct stat st;

	if (!realpath(path, real))
		return;
	pmu__strlcpy(up, real, sizeof(up));
	for (int level = 0; level < 8; level++) {
		char *slash = strrchr(up, '/');
		if (!slash || slash == up)
			return;
		*slash = 0;
		if (pmu__path(map, sizeof(map), "%s/mapfile.csv", up) == 0 && stat(map, &st) == 0 && S_ISREG(st.st_mode)) {
			pmu__tables_load_ancestors_disk(arch, up, real + strlen(up) + 1);
			return;
		}
	}
}

/* ---------------------------------------------------------------- */
/* index                                                             */
/* ---------------------------------------------------------------- */

static int cmp_tname(const void *a, const void *b)
{
	return strcasecmp(((const struct pmu_tname *)a)->name, ((const struct pmu_tname *)b)->name);
}

/* names, then a CPU's own definitions before standard names (a CPU table's native TOPDOWN.SLOTS is that
 * CPU's event, whatever directory was loaded first), then load order: the first loaded of equal names
 * comes first */
static int cmp_tname_order(const void *a, const void *b)
{
	const struct pmu_tname *x = a, *y = b;
	int c = strcasecmp(x->name, y->name), mx = x->e->kind == PMU_T_METRIC, my = y->e->kind == PMU_T_METRIC;
	int sx = x->e->kind == PMU_T_STANDARD, sy = y->e->kind == PMU_T_STANDARD;

	if (c || mx != my)  /* the events of a name, then its metrics */
		return c ? c : mx - my;
	if (sx != sy)
		return sx - sy;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* What a name in the index is: an event (native or standard) or a metric. */
static int tclass(const struct pmu_tentry *e)
{
	return e->kind == PMU_T_METRIC ? PMU_TC_METRIC : PMU_TC_EVENT;
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
int pmu__tables_build_index(struct pmu_tables *t, pmu_problem_fn pf, void *pd, int *problems)
{
	size_t cap = t->n * 2 + 8, n = 0;
	struct pmu_tname *v = malloc(cap * sizeof(*v));

	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < t->n; i++) {
		struct pmu_tentry *e = t->v[i];
		char *save = NULL, *copy, *tok;
		if (n == cap) {
			struct pmu_tname *nv = realloc(v, (cap *= 2) * sizeof(*v));
			if (!nv)
				goto nomem;
			v = nv;
		}
		v[n].name = e->name;
		v[n].order = i;
		v[n++].e = e;
		if (!e->aliases)
			continue;
		if (!(copy = strdup(e->aliases)))
			goto nomem;
		for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
			char **ns;
			while (isspace((unsigned char)*tok))
				tok++;
			{
				size_t l = strlen(tok);
				while (l && isspace((unsigned char)tok[l - 1]))
					tok[--l] = 0;
			}
			if (!*tok)
				continue;
			ns = realloc(t->alias_store, (t->nalias + 1) * sizeof(*ns));
			if (!ns) {
				free(copy);
				goto nomem;
			}
			t->alias_store = ns;
			if (!(ns[t->nalias] = strdup(tok))) {
				free(copy);
				goto nomem;
			}
			if (n == cap) {
				struct pmu_tname *nv = realloc(v, (cap *= 2) * sizeof(*v));
				if (!nv) {
					free(ns[t->nalias]);
					free(copy);
					goto nomem;
				}
				v = nv;
			}
			v[n].name = ns[t->nalias++];
			v[n].order = i;
			v[n++].e = e;
		}
		free(copy);
	}
	qsort(v, n, sizeof(*v), cmp_tname_order);
	{
		/* v[run..w): the names kept for the current name and class. An event and a metric of one name
		 * are both kept (perf's uncore files define LLC_MISSES.PCIE_READ as both, in one object): a
		 * metric's expression uses the metric, an event list the event. */
		size_t w = 0, run = 0;
		for (size_t i = 0; i < n; i++) {
			const struct pmu_tentry *first, *dup = NULL;
			if (!w || strcasecmp(v[w - 1].name, v[i].name) || tclass(v[w - 1].e) != tclass(v[i].e)) {
				run = w;
				v[w++] = v[i];
				continue;
			}
			first = v[run].e;
			for (size_t k = run; k < w && !dup; k++)
				if (v[k].e == v[i].e || same_unit(v[k].e, v[i].e))
					dup = v[k].e;
			if (!dup && !strcmp(first->dir, v[i].e->dir) && first->kind == v[i].e->kind) {
				v[w++] = v[i]; /* the same directory's definition for another PMU */
				continue;
			}
			/* a CPU table's native event under a standard name is the CPU's own event for it */
			if (first->kind == PMU_T_NATIVE && v[i].e->kind == PMU_T_STANDARD && strcmp(first->dir, v[i].e->dir))
				continue;
			if (dup && dup != v[i].e && same_definition(dup, v[i].e)) {
				/* the same definition twice (perf's amdzen4 metrics): harmless, said when checking */
				char msg[PMU_NAME_MAX + 160];
				snprintf(msg, sizeof(msg), "note: name '%s' is defined again with the same definition as in %s; "
					 "the first is used", v[i].name, first->file);
				if (pf)
					pf(pd, v[i].e->file, v[i].name, msg);
				continue;
			}
			if (dup != v[i].e && (pf || !strcmp(first->dir, v[i].e->dir))) {
				char msg[PMU_NAME_MAX + 160];
				snprintf(msg, sizeof(msg), "name '%s' is also defined in %s", v[i].name, first->file);
				(*problems)++;
				if (pf)
					pf(pd, v[i].e->file, v[i].name, msg);
			}
		}
		n = w;
	}
	t->names = v;
	t->nnames = n;
	return 0;
nomem:
	free(v);
	return -ENOMEM;
}

/* The index entries of @name of class @cls (PMU_TC_ANY: events, then metrics): the first, and in *n how
 * many (PMU definitions). */
static const struct pmu_tname *find_all(const struct pmu_tables *t, const char *name, int cls, size_t *n)
{
	struct pmu_tname key = { name, NULL, 0 };
	const struct pmu_tname *hit, *end;

	*n = 0;
	if (!t->names || !(hit = bsearch(&key, t->names, t->nnames, sizeof(*t->names), cmp_tname)))
		return NULL;
	while (hit > t->names && !strcasecmp(hit[-1].name, name))
		hit--;
	while (cls != PMU_TC_ANY && hit < t->names + t->nnames && !strcasecmp(hit->name, name) && tclass(hit->e) != cls)
		hit++;
	for (end = hit; end < t->names + t->nnames && !strcasecmp(end->name, name) &&
			(cls == PMU_TC_ANY || tclass(end->e) == cls); end++)
		(*n)++;
	return *n ? hit : NULL;
}

const struct pmu_tentry *pmu__tables_find_in(const struct pmu_tables *t, const char *name)
{
	size_t n;
	const struct pmu_tname *hit = find_all(t, name, PMU_TC_ANY, &n);

	return hit ? hit->e : NULL;
}

/* The definition of @name of class @cls for PMU @pmu (see pmu__tables_find_pmu). */
const struct pmu_tentry *pmu__tables_find_pmu_in(const struct pmu_tables *t, const char *name, const char *pmu, int cls)
{
	size_t n;
	const struct pmu_tname *hit = find_all(t, name, cls, &n);
	const struct pmu_tentry *any = NULL;

	if (!pmu || !*pmu)
		return n == 1 ? hit->e : NULL;
	for (size_t i = 0; i < n; i++) {
		if (hit[i].e->unit && !strcasecmp(hit[i].e->unit, pmu))
			return hit[i].e;
		if (!hit[i].e->unit)
			any = hit[i].e;
	}
	return any;
}

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

/* ---------------------------------------------------------------- */
/* mapfile and CPU selection                                         */
/* ---------------------------------------------------------------- */

/* The identifiers a mapfile regex is matched against, most specific first. */
static int cpu_keys(const struct pmu_cpu *c, char keys[2][64])
{
	switch (c->arch) {
	case PMU_ARCH_X86:
		snprintf(keys[0], 64, "%s-%u-%X-%X", c->vendor, c->family, c->model, c->stepping);
		snprintf(keys[1], 64, "%s-%u-%X", c->vendor, c->family, c->model);
		return 2;
	case PMU_ARCH_ARM64:
		/* perf compares implementer, architecture and part: variant and revision zeroed */
		snprintf(keys[0], 64, "0x%016llx", (unsigned long long)(c->midr & ~0xf0000full));
		return 1;
	case PMU_ARCH_RISCV:
		pmu__strlcpy(keys[0], c->cpuid, 64);
		return 1;
	default:
		return 0;
	}
}

/* One data line of a mapfile (CPUID,Version,Directory[,Type]): header, comments, blank lines and
 * lines too long to be a mapfile's skipped. */
/* The next data row of the text at *p; false at its end. */
bool pmu__tables_map_next(const char **p, int *lineno, struct map_row *row)
{
	while (*p && **p) {
		const char *s = *p, *eol = strchr(s, '\n');
		size_t ll = eol ? (size_t)(eol - s) : strlen(s);
		char *cols[3] = { 0 }, *save = NULL;
		int nc = 0;

		*p = eol ? eol + 1 : NULL;
		row->lineno = ++*lineno;
		if (!ll || ll >= sizeof(row->buf) || *s == '#')
			continue;
		memcpy(row->buf, s, ll);
		row->buf[ll] = 0;
		if (row->buf[ll - 1] == '\r')
			row->buf[ll - 1] = 0;
		for (char *tok = strtok_r(row->buf, ",", &save); tok && nc < 3; tok = strtok_r(NULL, ",", &save))
			cols[nc++] = tok;
		if (nc < 3 || !strcasecmp(cols[1], "Version")) /* the header says "Version" */
			continue;
		row->cpuid = cols[0];
		row->version = cols[1];
		row->dir = cols[2];
		return true;
	}
	return false;
}

/* What a mapfile's CPU pattern may be: regcomp expands each {m,n} into copies of what it repeats
 * ("x+" into "xx*") (and back-references make matching exponential), so "((.?){255}){255}" costs seconds and
 * gigabytes and "((.?){255}){255}\3X" crashes glibc. perf's mapfiles (Linux 6.12) use patterns of
 * at most 48 characters, {4} at most, no back-reference. Within 1024 positions "(.?){1024}" still
 * cost 0.18 s a line (fuzz-mapfile: a mapfile of such lines took seconds): 128 positions, the
 * pattern's length, cost about 2 ms at most (PMU_MAP_PATTERN_MAX, tables.h). */
#define MAP_POSITIONS_MAX 128

/* The positions of the pattern from *s to the end or a ')' at depth > 0: atoms counted once, what an
 * interval repeats counted as many times as its largest count, what '+' repeats twice (saturating at
 * LONG_MAX / 4). */
static long map_positions(const char **s, int depth)
{
	long total = 0, last = 0;

	while (**s && !(**s == ')' && depth > 0)) {
		const char *c = *s;
		if (*c == '|') {
			last = 0;
			(*s)++;
			continue;
		}
		if (*c == '(') {
			(*s)++;
			last = map_positions(s, depth + 1);
			if (last < 1) /* an empty group is a node too: "()+++++" doubles it */
				last = 1;
			if (**s == ')')
				(*s)++;
		} else if (*c == '[') {
			/* a bracket expression is one position: skip to its closing ']' */
			c++;
			if (*c == '^')
				c++;
			if (*c == ']')
				c++;
			while (*c && *c != ']') {
				if (*c == '[' && (c[1] == ':' || c[1] == '.' || c[1] == '=')) {
					const char *e = strchr(c + 2, c[1]);
					c = e && e[1] == ']' ? e + 2 : c + 1;
				} else {
					c++;
				}
			}
			*s = *c ? c + 1 : c;
			last = 1;
		} else if (*c == '{' && isdigit((unsigned char)c[1])) {
			unsigned long m = 0, n;
			c++;
			while (isdigit((unsigned char)*c) && m < 100000)
				m = m * 10 + (unsigned long)(*c++ - '0');
			n = m;
			if (*c == ',') {
				c++;
				n = isdigit((unsigned char)*c) ? 0 : m + 1;
				while (isdigit((unsigned char)*c) && n < 100000)
					n = n * 10 + (unsigned long)(*c++ - '0');
			}
			while (*c && *c != '}')
				c++;
			*s = *c ? c + 1 : c;
			total -= last;
			/* {0} (or an unclosed "{0") does not undo what glibc built before it */
			n = n > m ? n : m > 0 ? m : 1;
			last = n && last > LONG_MAX / 4 / (long)n ? LONG_MAX / 4 : last * (long)n;
		} else if (*c == '*' || *c == '?' || *c == '+') {
			/* applies to what precedes it, which a later {m,n} repeats with it; glibc compiles
			 * "x+" as "xx*": a copy */
			(*s)++;
			total -= last;
			if (*c == '+')
				last = last > LONG_MAX / 8 ? LONG_MAX / 4 : last * 2;
		} else {
			if (*c == '\\' && c[1])
				(*s)++;
			(*s)++;
			last = 1;
		}
		total += last;
		if (total > LONG_MAX / 4)
			total = LONG_MAX / 4;
	}
	return total;
}

/* Whether @pattern has a '|' outside parentheses and brackets (its
 * literal start then says nothing about the other alternatives). */
static bool map_top_alternative(const char *p)
{
	int depth = 0;

	for (; *p; p++) {
		if (*p == '\\' && p[1])
			p++;
		else if (*p == '[') {
			p += p[1] == '^' ? 2 : 1; /* a ']' right after '[' or '[^' is a member */
			if (*p == ']')
				p++;
			while (*p && *p != ']')
				p++;
			if (!*p)
				return true;
		} else if (*p == '(')
			depth++;
		else if (*p == ')')
			depth--;
		else if (*p == '|' && depth <= 0)
			return true;
	}
	return false;
}

/* Whether @pattern can match one of the @nk keys, by its literal start
 * alone (the characters before its first special one; a character a '*',
 * '?' or '{' applies to is not part of it), extended by each alternative
 * of a group of plain alternatives that follows it ("6-(3C|45|46)"): a key
 * that begins with none of them cannot match, and the line costs no
 * regcomp. A pattern with a '|' outside parentheses can match anything as
 * far as this test knows. Case-insensitive, as regcomp is told.
 * test-mapfile holds the choice to regcomp/regexec's over perf's mapfiles. */
static bool map_may_match(const char *pattern, const char keys[][64], int nk)
{
	static const char special[] = ".[]()*+?{}|^$\\";
	size_t n = strcspn(pattern, special), g = 0;

	if (map_top_alternative(pattern))
		return true;
	if (n && pattern[n] && strchr("*?{", pattern[n]))
		n--;
	else if (pattern[n] == '(') {
		/* a group of literals and '|' only, not repeated: each alternative lengthens the start */
		g = n + 1 + strcspn(pattern + n + 1, ".[]()*+?{}^$\\");
		if (pattern[g] != ')' || (pattern[g + 1] && strchr("*?{+", pattern[g + 1])))
			g = 0;
	}
	for (int k = 0; k < nk; k++) {
		if (strncasecmp(keys[k], pattern, n))
			continue;
		if (!g)
			return true;
		for (const char *a = pattern + n + 1; a < pattern + g;) {
			size_t al = strcspn(a, "|)");
			if (!strncasecmp(keys[k] + n, a, al))
				return true;
			a += al + 1;
		}
	}
	return false;
}

/* Compile mapfile CPU pattern @pat (anchored at both ends, case-insensitive) into @re, refusing what
 * exceeds the bounds above. 0; -EINVAL with the reason in @why; -ENOMEM; 1 (nothing compiled) when
 * @keys is not NULL and the pattern cannot match any of its @nk keys (map_may_match). */
int pmu__tables_map_pattern(const char *pat, const char keys[][64], int nk, regex_t *re, char *why, size_t wl)
{
	char anchored[PMU_MAP_PATTERN_MAX + 8];
	const char *s = pat;
	bool bracket = false, quant = false;
	long positions, depth = 0;
	int r;

	if (strlen(pat) > PMU_MAP_PATTERN_MAX) {
		snprintf(why, wl, "CPU pattern of %zu characters; a pattern has at most %d", strlen(pat),
			 PMU_MAP_PATTERN_MAX);
		return -EINVAL;
	}
	for (const char *c = pat; *c; c++) {
		bool q = false; /* this token is a repetition: '*', '+', '?', {m,n} */
		if (bracket) {
			bracket = *c != ']';
			continue;
		}
		if (*c == '[') {
			bracket = true;
			c += c[1] == '^';
			c += c[1] == ']'; /* a ']' first in a bracket expression is itself */
		} else if (*c == '\\' && isdigit((unsigned char)c[1])) {
			snprintf(why, wl, "CPU pattern '%s' has a back-reference (\\%c); none is allowed", pat, c[1]);
			return -EINVAL;
		} else if (*c == '\\' && c[1]) {
			c++;
		} else if (*c == '(' || *c == ')') {
			/* one ')' too many would close the "^(...)$" the pattern is wrapped in */
			depth += *c == '(' ? 1 : -1;
			if (depth < 0)
				break;
		} else if (*c == '*' || *c == '+' || *c == '?' || (*c == '{' && isdigit((unsigned char)c[1]))) {
			q = true;
			if (*c == '{')
				while (c[1] && *c != '}')
					c++;
		}
		if (q && quant) {
			/* glibc's closure computation is exponential in stacked repetitions ("x**...*") */
			snprintf(why, wl, "CPU pattern '%s' repeats a repetition (as in 'x**' or 'x+{2}'); none is allowed",
				 pat);
			return -EINVAL;
		}
		quant = q;
	}
	if (depth) {
		snprintf(why, wl, "CPU pattern '%s' has unbalanced parentheses", pat);
		return -EINVAL;
	}
	positions = map_positions(&s, 0);
	if (positions > MAP_POSITIONS_MAX) {
		snprintf(why, wl, "CPU pattern '%s' repeats to more than %d positions (counts of {m,n} multiplied, a + doubling)",
			 pat, MAP_POSITIONS_MAX);
		return -EINVAL;
	}
	if (keys && !map_may_match(pat, keys, nk))
		return 1;
	snprintf(anchored, sizeof(anchored), "^(%s)$", pat);
	r = regcomp(re, anchored, REG_EXTENDED | REG_NOSUB | REG_ICASE);
	if (r == REG_ESPACE)
		return -ENOMEM;
	if (r != 0) {
		char err[128];
		regerror(r, re, err, sizeof(err));
		snprintf(why, wl, "CPU pattern '%s' is not an extended regular expression (%s)", pat, err);
		return -EINVAL;
	}
	return 0;
}

/* 1 when compiled pattern @re matches one of the @nk CPU keys, 0 when none, -ENOMEM when
 * regexec ran out of memory (glibc says REG_NOMATCH then too: malloc's errno tells). */
static int match_keys(regex_t *re, const char keys[][64], int nk)
{
	int r = 0;

	for (int k = 0; k < nk && r == 0; k++) {
		int m;
		errno = 0;
		m = regexec(re, keys[k], 0, NULL, 0);
		r = m == 0 ? 1 : m == REG_ESPACE || errno == ENOMEM ? -ENOMEM : 0;
	}
	return r;
}

/* Find the directory for @cpu in a mapfile's text: 1 and *dir (to free), 0 if no line matches,
 * -ENOMEM. Refused lines are warnings naming @mapname and the line. */
static int map_match(struct pmu_ctx *ctx, const struct pmu_cpu *cpu, const char *text, const char *mapname,
		     char **dir)
{
	char keys[2][64];
	int nk = cpu_keys(cpu, keys), lineno = 0, r;
	struct map_row row;

	while (pmu__tables_map_next(&text, &lineno, &row)) {
		char why[PMU_MAP_PATTERN_MAX + 160];
		regex_t re;
		if ((r = pmu__tables_map_pattern(row.cpuid, keys, nk, &re, why, sizeof(why))) == -EINVAL) {
			pmu__log(ctx, PMU_LOG_WARN, "%s line %d: %s: line skipped", mapname, row.lineno, why);
			continue;
		}
		if (r < 0)
			return r;
		if (r == 1) /* cannot match: not compiled */
			continue;
		r = match_keys(&re, keys, nk);
		regfree(&re);
		if (r > 0)
			return (*dir = strdup(row.dir)) ? 1 : -ENOMEM;
		if (r < 0)
			return r;
	}
	return 0;
}

int pmu__tables_map_match(struct pmu_ctx *ctx, const struct pmu_cpu *cpu, const char *text, const char *mapname,
			  char **dir)
{
	return map_match(ctx, cpu, text, mapname, dir);
}

int pmu__tables_cpuid_matches(struct pmu_ctx *ctx, const char *id)
{
	char keys[2][64], why[PMU_MAP_PATTERN_MAX + 160];
	int nk, r = 0;
	regex_t re;

	if (ctx->cpu.arch == PMU_ARCH_ARM64) {
		/* MIDR: revision bits 0-3, part 4-15, architecture 16-19, variant 20-23, implementer 24-31 */
		const uint64_t version = 0xf0000full;
		uint64_t want, have = ctx->cpu.midr;
		if (pmu__parse_u64(id, &want) < 0)
			return -EINVAL;
		if ((want & ~version & 0xffffffffull) != (have & ~version & 0xffffffffull))
			return 0;
		return ((have >> 20 & 0xf) << 4 | (have & 0xf)) >= ((want >> 20 & 0xf) << 4 | (want & 0xf));
	}
	nk = cpu_keys(&ctx->cpu, keys);
	if ((r = pmu__tables_map_pattern(id, NULL, 0, &re, why, sizeof(why))) < 0)
		return r;
	r = match_keys(&re, keys, nk);
	regfree(&re);
	return r;
}

static const struct pmu_builtin_file *builtin(const char *path)
{
	for (size_t i = 0; i < pmu__builtin_nfiles; i++)
		if (!strcmp(pmu__builtin_files[i].path, path))
			return &pmu__builtin_files[i];
	return NULL;
}

/* The compiled entries of built-in directory @dir (no JSON parsing). */
int pmu__tables_compiled(struct pmu_tables *t, const char *dir)
{
	for (size_t d = 0; d < pmu__builtin_ndirs; d++) {
		const struct pmu_builtin_dir *bd = &pmu__builtin_dirs[d];
		if (strcmp(bd->dir, dir))
			continue;
		for (size_t i = 0; i < bd->n; i++) {
			const struct pmu_builtin_entry *b = &bd->entries[i];
			struct pmu_tentry *e = calloc(1, sizeof(*e));
			if (!e)
				return -ENOMEM;
			e->borrowed = true;
			e->kind = b->kind;
			e->name = (char *)b->name;
			e->file = (char *)b->file;
			e->dir = (char *)b->dir;
			e->desc = (char *)b->desc;
			e->pdesc = (char *)b->pdesc;
			e->notes = (char *)b->notes;
			e->stdnames = (char *)b->stdnames;
			e->approx_note = (char *)b->approx_note;
			e->topdown = (char *)b->topdown;
			e->aliases = (char *)b->aliases;
			e->generic = (char *)b->generic;
			e->source = (char *)b->source;
			e->unit = (char *)b->unit;
			e->expr = (char *)b->expr;
			e->group = (char *)b->group;
			e->scale_unit = (char *)b->scale_unit;
			e->threshold = (char *)b->threshold;
			e->params = (char *)b->params;
			e->counter_csr = (char *)b->counter_csr;
			e->pfm_name = (char *)b->pfm_name;
			e->approx_names = (char *)b->approx_names;
			e->approx = b->approx;
			e->have = b->have;
			e->event = b->event;
			e->umask = b->umask;
			e->cmask = b->cmask;
			e->inv = b->inv;
			e->edge = b->edge;
			e->any = b->any;
			e->msr_index = b->msr_index;
			e->msr_value = b->msr_value;
			e->config_code = b->config_code;
			e->counter_width = b->counter_width;
			e->mhpmevent_bit = b->mhpmevent_bit;
			if (e->kind == PMU_T_NATIVE)
				perf_event_rules(e);
			if (add_entry(t, e) < 0) {
				free(e);
				return -ENOMEM;
			}
		}
		return 0;
	}
	return 0;
}

/* Built-in directories are loaded once per process and shared by every
 * context (they never change); entries are marked shared and never freed
 * by a context. */
struct builtin_cache {
	char dir[96];
	struct pmu_tables t;
	int status;
};
static struct builtin_cache *bcache;
static size_t bcache_n;
static pthread_mutex_t bcache_lock = PTHREAD_MUTEX_INITIALIZER;

__attribute__((destructor)) static void bcache_free(void)
{
	for (size_t i = 0; i < bcache_n; i++) {
		for (size_t k = 0; k < bcache[i].t.n; k++)
			bcache[i].t.v[k]->shared = false;
		pmu__tables_free(&bcache[i].t);
	}
	free(bcache);
	bcache = NULL;
	bcache_n = 0;
}

/* Append the (cached) entries of built-in directory @dir to @t. */
static int add_builtin_dir(struct pmu_tables *t, const char *dir)
{
	struct builtin_cache *c = NULL;
	int r = 0;

	pthread_mutex_lock(&bcache_lock);
	for (size_t i = 0; i < bcache_n; i++)
		if (!strcmp(bcache[i].dir, dir))
			c = &bcache[i];
	if (!c) {
		struct builtin_cache *nc = realloc(bcache, (bcache_n + 1) * sizeof(*nc));
		if (!nc) {
			pthread_mutex_unlock(&bcache_lock);
			return -ENOMEM;
		}
		bcache = nc;
		c = &bcache[bcache_n++];
		memset(c, 0, sizeof(*c));
		pmu__strlcpy(c->dir, dir, sizeof(c->dir));
		c->status = pmu__tables_compiled(&c->t, dir);
		for (size_t k = 0; k < c->t.n; k++)
			c->t.v[k]->shared = true;
	}
	r = c->status;
	for (size_t k = 0; r == 0 && k < c->t.n; k++)
		r = add_entry(t, c->t.v[k]);
	pthread_mutex_unlock(&bcache_lock);
	return r;
}

static int load_tables(struct pmu_ctx *ctx)
{
	struct pmu_tables *t = &ctx->tables;
	char *paths = ctx->events_path ? strdup(ctx->events_path) : NULL, *save = NULL, *root;
	int problems = 0, r = 0;

	if (ctx->events_path && !paths)
		return -ENOMEM;
	/* 1. user directories first: they override the built-in tables */
	for (root = paths ? strtok_r(paths, ":", &save) : NULL; root && r == 0; root = strtok_r(NULL, ":", &save)) {
		char map[1024], why[128] = "", *text, *dir = NULL;
		size_t len;
		int rm;
		if (!*root)
			continue;
		rm = pmu__path(map, sizeof(map), "%s/mapfile.csv", root) < 0 ? -ENAMETOOLONG :
		     pmu__tables_read_whole(map, &text, &len, why, sizeof(why));
		if (rm == -ENOMEM) {
			r = rm;
			break;
		}
		if (rm == -EINVAL) {
			pmu__log(ctx, PMU_LOG_WARN, "PMU_EVENTS_PATH: %s: %s (directory %s skipped)", map, why, root);
			continue;
		}
		if (rm == 0) {
			r = map_match(ctx, &ctx->cpu, text, map, &dir);
			free(text);
			if (r > 0) {
				char sub[1024];
				r = 0;
				size_t first = t->n;
				if (pmu__path(sub, sizeof(sub), "%s/%s", root, dir) == 0)
					r = pmu__tables_load_disk_dir(t, sub, dir, NULL, NULL, &problems);
				if (r == 0) {
					struct pmu_tables arch;
					memset(&arch, 0, sizeof(arch));
					pmu__tables_load_ancestors_disk(&arch, root, dir);
					pmu__tables_fill_archstd(t, first, &arch, NULL, NULL, &problems);
					pmu__tables_free(&arch);
				}
				if (r == 0 && !t->cpu_dir) {
					t->cpu_dir = dir;
					dir = NULL;
					if (!(t->cpu_dir_root = strdup(root)))
						r = -ENOMEM;
				}
				if (r < 0 && r != -ENOMEM)
					pmu__log(ctx, PMU_LOG_WARN, "tables: cannot read %s/%s: %s", root, dir ? dir : "",
						 strerror(-r));
				free(dir);
				/* a directory that cannot be read is skipped (said); want of memory ends the load */
				r = r == -ENOMEM ? r : 0;
			}
			if (r == 0 && pmu__path(map, sizeof(map), "%s/standard", root) == 0 &&
			    pmu__tables_load_disk_dir(t, map, "standard", NULL, NULL, &problems) == -ENOMEM)
				r = -ENOMEM;
		} else {
			size_t first = t->n;
			r = pmu__tables_load_disk_dir(t, root, root, NULL, NULL, &problems);
			if (r < 0)
				pmu__log(ctx, PMU_LOG_WARN, "PMU_EVENTS_PATH: cannot read %s: %s", root, strerror(-r));
			if (r == 0) {
				/* a CPU directory of a tree, named alone: its ArchStdEvent references too */
				struct pmu_tables arch;
				memset(&arch, 0, sizeof(arch));
				pmu__tables_load_ancestors_flat(&arch, root);
				pmu__tables_fill_archstd(t, first, &arch, NULL, NULL, &problems);
				pmu__tables_free(&arch);
			}
			r = r == -ENOMEM ? r : 0;
		}
	}
	free(paths);
	/* 2. built-in: the CPU's directory, then the standard names */
	if (r == 0) {
		const struct pmu_builtin_file *mf = builtin("mapfile.csv");
		char *dir = NULL;
		if (mf && (r = map_match(ctx, &ctx->cpu, mf->data, "events/mapfile.csv", &dir)) > 0) {
			r = add_builtin_dir(t, dir);
			if (!t->cpu_dir) {
				t->cpu_dir = dir;
				dir = NULL;
				if (r >= 0 && !(t->cpu_dir_root = strdup("built-in")))
					r = -ENOMEM;
			}
			free(dir);
		}
		if (r >= 0)
			r = add_builtin_dir(t, "standard");
	}
	if (r >= 0)
		r = pmu__tables_build_index(t, NULL, NULL, &problems);
	if (problems)
		pmu__log(ctx, PMU_LOG_WARN, "event tables: %d problems while loading (run 'pmu check-tables DIR')",
			 problems);
	pmu__log(ctx, PMU_LOG_DEBUG, "tables: %zu entries, CPU table %s (%s)", t->n,
		 t->cpu_dir ? t->cpu_dir : "none", t->cpu_dir_root ? t->cpu_dir_root : "-");
	return r < 0 ? r : 0;
}

int pmu__tables_load(struct pmu_ctx *ctx)
{
	int r;

	pthread_mutex_lock(&ctx->tables_lock);
	if (!ctx->tables.loaded) {
		r = load_tables(ctx);
		if (r < 0)
			pmu__tables_free(&ctx->tables);
		if (r == -ENOMEM) { /* not remembered: a later call tries again */
			pthread_mutex_unlock(&ctx->tables_lock);
			return pmu__err(ctx, r, "cannot load the event tables: out of memory (a later call tries again)");
		}
		ctx->tables.status = r;
		ctx->tables.loaded = true;
	}
	r = ctx->tables.status;
	pthread_mutex_unlock(&ctx->tables_lock);
	if (r < 0)
		return pmu__err(ctx, r, "cannot load the event tables: %s", strerror(-r));
	return r;
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
		if (hit[i].e == e)
			return true;
	return false;
}

int pmu__tables_one_pmu(struct pmu_ctx *ctx, const char *name, const struct pmu_tentry **e)
{
	size_t n, o = 0;
	const struct pmu_tname *hit = find_all(&ctx->tables, (*e)->name, PMU_TC_EVENT, &n);
	char list[512];

	if (n <= 1 && ((*e)->unit || pmu__n_core_pmus(ctx) < 2))
		return 0;
	list[0] = 0;
	if (n > 1) {
		for (size_t i = 0; i < n; i++)
			o += (size_t)snprintf(list + o, o < sizeof(list) ? sizeof(list) - o : 0, "%s%s/%s/",
					      i ? " or " : "", hit[i].e->unit ? hit[i].e->unit : "cpu", (*e)->name);
		return pmu__err(ctx, -EINVAL,
				"event '%s' is defined once per PMU in %s (perf counts it on each): libpmu counts a "
				"table event on one PMU, name it: %s", name, (*e)->file, list);
	}
	for (size_t i = 0; i < ctx->n_pmus; i++)
		if (ctx->pmus[i].is_core)
			o += (size_t)snprintf(list + o, o < sizeof(list) ? sizeof(list) - o : 0, "%s%s/%s/",
					      o ? " or " : "", ctx->pmus[i].name, (*e)->name);
	return pmu__err(ctx, -EINVAL,
			"event '%s' (%s) names no PMU and this CPU has %zu core PMUs (perf counts it on each): "
			"libpmu counts a table event on one PMU, name it: %s", name, (*e)->file,
			pmu__n_core_pmus(ctx), list);
}

bool pmu__tables_list_has(const char *list, const char *name)
{
	size_t nl = strlen(name);

	for (const char *p = list; p && *p;) {
		while (*p == ',' || isspace((unsigned char)*p))
			p++;
		const char *end = strchr(p, ',');
		size_t l = end ? (size_t)(end - p) : strlen(p);
		while (l && isspace((unsigned char)p[l - 1]))
			l--;
		if (l == nl && !strncasecmp(p, name, l))
			return true;
		p = end;
	}
	return false;
}

/* Does the comma-separated @list name standard event @std, by its name or one of its Aliases? */
static bool names_std(const char *list, const struct pmu_tentry *std)
{
	char *copy, *save = NULL;
	bool hit;

	if (pmu__tables_list_has(list, std->name))
		return true;
	if (!std->aliases || !(copy = strdup(std->aliases)))
		return false;
	hit = false;
	for (char *a = strtok_r(copy, ",", &save); a && !hit; a = strtok_r(NULL, ",", &save)) {
		while (isspace((unsigned char)*a))
			a++;
		hit = pmu__tables_list_has(list, a);
	}
	free(copy);
	return hit;
}

const struct pmu_tentry *pmu__tables_native_for(const struct pmu_ctx *ctx, const char *stdname)
{
	const struct pmu_tables *t = &ctx->tables;
	const struct pmu_tentry *std = pmu__tables_find_in(t, stdname);

	for (size_t i = 0; i < t->n; i++) {
		const struct pmu_tentry *e = t->v[i];
		if (e->kind != PMU_T_NATIVE || !e->stdnames)
			continue;
		/* the name as asked, or the standard entry it finds (the table may name an alias of it) */
		if (pmu__tables_list_has(e->stdnames, stdname) || (std && names_std(e->stdnames, std)))
			return e;
	}
	return NULL;
}

size_t pmu__tables_natives_for(const struct pmu_ctx *ctx, const char *stdname, const struct pmu_tentry **out,
			       size_t max)
{
	const struct pmu_tables *t = &ctx->tables;
	const struct pmu_tentry *std = pmu__tables_find_in(t, stdname);
	size_t n = 0;

	for (size_t i = 0; i < t->n; i++) {
		const struct pmu_tentry *e = t->v[i];
		if (e->kind != PMU_T_NATIVE || !e->stdnames)
			continue;
		if (pmu__tables_list_has(e->stdnames, stdname) || (std && names_std(e->stdnames, std))) {
			if (n < max)
				out[n] = e;
			n++;
		}
	}
	return n;
}

bool pmu__tables_std_approx(const struct pmu_tentry *n, const struct pmu_tentry *std)
{
	if (n->kind != PMU_T_NATIVE)
		return false;
	/* Approximate: every name of its StdNames; ApproxNames: those (spelled as StdNames spells them) */
	return n->approx || (n->approx_names && names_std(n->approx_names, std));
}
