/* SPDX-License-Identifier: MIT */
/*
 * Event tables, loading: one JSON object parsed into an entry (perf's encoding rules applied), a
 * table file's text and a disk directory of them loaded, the compiled built-in entries of a
 * directory, and ArchStdEvent references filled from the architecture-level files above a CPU
 * directory. Which directories are loaded for a context is tables.c's.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>
#include "pmu.h"
#include "common.h"
#include "jsonparse.h"
#include "tables.h"
#include "util.h"

#define MAX_TABLE_FILE (64u << 20) /* larger files are refused, not parsed */

/* ---------------------------------------------------------------- */
/* entries                                                           */
/* ---------------------------------------------------------------- */

static void entry_free(struct pmu_tentry *e)
{
	if (!e)
		return;
	free(e->name); free(e->file); free(e->dir); free(e->desc); free(e->pdesc); free(e->notes);
	free(e->stdnames); free(e->approx_note); free(e->approx_names); free(e->topdown); free(e->aliases); free(e->generic);
	free(e->source); free(e->unit); free(e->expr); free(e->group); free(e->scale_unit);
	free(e->threshold); free(e->params); free(e->counter_csr); free(e->pfm_name); free(e->terms);
	free(e);
}

void pmu__tblock_free(struct pmu_tblock *b)
{
	if (!b)
		return;
	if (b->e) /* made with it (pmu__tblock_new) */
		pthread_mutex_destroy(&b->lock);
	free(b->e);
	free(b->made);
	free(b);
}

void pmu__tables_free(struct pmu_tables *t)
{
	/* a built-in directory's entries (in a chunk: freed with its block, if this table owns it) are not
	 * read here: the ones never made stay untouched */
	if (t->shared) { /* borrowed (tables.c): its own are the CPU directory's name and root */
		free(t->cpu_dir);
		free(t->cpu_dir_root);
		memset(t, 0, sizeof(*t));
		return;
	}
	for (size_t i = 0; i < t->n; i++)
		if (!pmu__tables_chunk_of(t, i))
			entry_free(t->ent[i]);
	for (size_t c = 0; c < t->nchunks; c++)
		if (t->chunks[c].owned)
			pmu__tblock_free(t->chunks[c].blk);
	free(t->ent);
	free(t->names);
	for (size_t i = 0; i < t->nalias; i++)
		free(t->alias_store[i]);
	free(t->alias_store);
	free(t->cpu_dir);
	free(t->cpu_dir_root);
	free(t->chunks);
	memset(t, 0, sizeof(*t));
}

static int dup_field(json_object *o, const char *key, char **out)
{
	const char *s = pmu__json_field(o, key);

	if (!s || !*s)
		return 0;
	*out = strdup(s);
	return *out ? 0 : -ENOMEM;
}

/*
 * *@out: the terms perf's jevents.py adds to an event's string after its event and umask, in its order:
 * "ch_mask=" PortMask, "fc_mask=" FCMask, "rdwrmask=" RdWrMask (AMD's UMC), "enallcores=" EnAllCores,
 * "enallslices=" EnAllSlices, "sliceid=" SliceId, "threadmask=" ThreadMask (AMD's L3), each unless zero,
 * then the Filter field as written; NULL when none. gen-tables.py's event_terms() makes the same for the
 * compiled tables. (perf's NodeType and EventidCode, of Arm's CMN sys tables, are not read here.)
 */
static int event_terms(json_object *o, char **out)
{
	static const struct { const char *key, *term; } f[] = {
		{ "PortMask", "ch_mask=" }, { "FCMask", "fc_mask=" }, { "RdWrMask", "rdwrmask=" },
		{ "EnAllCores", "enallcores=" }, { "EnAllSlices", "enallslices=" }, { "SliceId", "sliceid=" },
		{ "ThreadMask", "threadmask=" },
	};
	char buf[512];
	size_t n = 0;
	const char *s;

	buf[0] = 0;
	for (size_t i = 0; i < ARRAY_SIZE(f); i++)
		if ((s = pmu__json_field(o, f[i].key)) && *s && strtoull(s, NULL, 0))
			n += snprintf(buf + n, n < sizeof(buf) ? sizeof(buf) - n : 0, "%s%s%s", n ? "," : "", f[i].term, s);
	if ((s = pmu__json_field(o, "Filter")) && *s)
		n += snprintf(buf + n, n < sizeof(buf) ? sizeof(buf) - n : 0, "%s%s", n ? "," : "", s);
	if (!n)
		return 0;
	if (n >= sizeof(buf))
		return -E2BIG; /* no Filter of perf's tables comes near */
	*out = strdup(buf);
	return *out ? 0 : -ENOMEM;
}

/* First number of a field such as "0xB7, 0xBB" or "0x1a6,0x1a7". */
static int num_field(json_object *o, const char *key, uint64_t *out, bool *present, char *why, size_t wl)
{
	const char *s = pmu__json_field(o, key);
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

int pmu__tables_add(struct pmu_tables *t, struct pmu_tentry *e)
{
	if (t->shared)
		return -EINVAL; /* the process's table: read-only (a loader's mistake, not the user's) */
	if (t->n == t->cap && pmu__grow(&t->ent, &t->cap, 256, sizeof(*t->ent)) < 0)
		return -ENOMEM;
	t->ent[t->n++] = e;
	return 0;
}

/* Record that @t's entries [first, first + n) are built-in directory @bd's, made in @blk (@owned: by
 * this table, which frees it). */
static int add_chunk(struct pmu_tables *t, size_t first, size_t n, const struct pmu_builtin_dir *bd,
		     struct pmu_tblock *blk, bool owned)
{
	if (t->nchunks == t->chunkcap && pmu__grow(&t->chunks, &t->chunkcap, 8, sizeof(*t->chunks)) < 0)
		return -ENOMEM;
	t->chunks[t->nchunks++] = (struct pmu_tchunk){ first, n, bd, blk, owned };
	return 0;
}

int pmu__tables_add_all(struct pmu_tables *t, const struct pmu_tables *from)
{
	size_t first = t->n, nchunks = t->nchunks;

	if (pmu__reserve(&t->ent, &t->cap, t->n + from->n, sizeof(*t->ent)) < 0)
		return -ENOMEM;
	for (size_t k = 0; k < from->n; k++)
		if (pmu__tables_add(t, from->ent[k]) < 0)
			goto fail;
	for (size_t c = 0; c < from->nchunks; c++)
		if (add_chunk(t, first + from->chunks[c].first, from->chunks[c].n, from->chunks[c].bd,
			      from->chunks[c].blk, false) < 0)
			goto fail;
	return 0;
fail: /* none of them: a borrowed entry without its chunk would be freed as the table's own */
	t->n = first;
	t->nchunks = nchunks;
	return -ENOMEM;
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

/* Parse one object into an entry; an object with both EventName and MetricName is an event and a
 * metric, as perf's jevents.py makes it (@as_metric: parse its metric). Returns 0, 1 (not an entry:
 * nothing to load, no problem), -EINVAL (reported), -ENOMEM. */
static int parse_entry(json_object *o, const char *file, const char *dir, struct pmu_tentry **out,
		       pmu_problem_fn pf, void *pd, bool as_metric)
{
	struct pmu_tentry *e = calloc(1, sizeof(*e));
	char why[256] = "";
	const char *en = pmu__json_field(o, "EventName"), *mn = pmu__json_field(o, "MetricName"),
		   *as = pmu__json_field(o, "ArchStdEvent");
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
	if (!en && !mn && !as && (pmu__json_field(o, "CountersNumFixed") || pmu__json_field(o, "CountersNumGeneric") ||
				  pmu__json_field(o, "BitName"))) {
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
	if (e->kind == PMU_T_NATIVE && (r = event_terms(o, &e->terms)) < 0) {
		if (r != -E2BIG)
			goto nomem;
		snprintf(why, sizeof(why), "PortMask, FCMask, RdWrMask, ... and Filter make terms of over 511 characters");
		goto bad;
	}
	if (e->notes && (!strcasecmp(e->notes, "null") || !strcasecmp(e->notes, "none")))
		free(e->notes), e->notes = NULL;
	{
		const char *a = pmu__json_field(o, "Approximate");
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
	struct pmu_json_error jerr;
	json_object *root;
	char msg[320];
	int r;

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
	/* strict first: a table file is JSON (perf's jevents.py and this library's build read it with
	 * Python's json); what json-c's default parse took besides (a comma before ']' or '}', a control
	 * character in a string) is loaded as before, and the validator names its place. Fields are read as
	 * text (pmu__json_field): numbers printed now, where running out of memory is said */
	r = pmu__json_parse(text, len, 64, PMU_JSON_SCALAR_TEXT, &root, &jerr);
	if (r == -EINVAL) {
		struct pmu_json_error strict = jerr;
		r = pmu__json_parse(text, len, 64, PMU_JSON_SCALAR_TEXT | PMU_JSON_LAX, &root, &jerr);
		if (r == 0 && pf) {
			snprintf(msg, sizeof(msg), "not strict JSON at line %zu (offset %zu): %s; loaded anyway, but "
				 "perf's tools and libpmu's build refuse it", strict.line, strict.offset, strict.what);
			(*problems)++;
			pf(pd, file, NULL, msg);
		}
	}
	if (r == -ENOMEM)
		return -ENOMEM;
	if (r < 0) {
		snprintf(msg, sizeof(msg), "JSON syntax error at line %zu (offset %zu): %s", jerr.line, jerr.offset,
			 jerr.what);
		(*problems)++;
		if (pf)
			pf(pd, file, NULL, msg);
		return 0;
	}
	r = 0;
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
			if (as_metric && !(pmu__json_field(o, "EventName") && *pmu__json_field(o, "EventName") &&
					   pmu__json_field(o, "MetricName") && *pmu__json_field(o, "MetricName")))
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
			if (r < 0 || (r = pmu__tables_add(t, e)) < 0) {
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
void pmu__tables_fill_archstd(struct pmu_tables *t, size_t first, const struct pmu_tables *arch, pmu_problem_fn pf,
			 void *pd, int *problems)
{
	/* the architecture's entries by name, then load order */
	struct pmu_tname *idx = malloc((arch->n ? arch->n : 1) * sizeof(*idx));

	if (!idx) {
		(*problems)++;
		if (pf)
			pf(pd, t->n > first ? pmu__tables_entry(t, first)->file : "", NULL,
			   "out of memory reading ArchStdEvent references");
		return;
	}
	for (size_t k = 0; k < arch->n; k++)
		idx[k] = (struct pmu_tname){ pmu__tables_entry(arch, k)->name, arch->ent[k], k };
	qsort(idx, arch->n, sizeof(*idx), pmu__tables_cmp_order);
	for (size_t i = first; i < t->n; i++) {
		struct pmu_tentry *e = pmu__tables_entry(t, i);
		const struct pmu_tentry *a = NULL;
		struct pmu_tname key = { e->name, NULL, 0 };
		const struct pmu_tname *hit;
		if (!e->archstd || (e->have & (PMU_TF_EVENT | PMU_TF_CONFIG)))
			continue;
		hit = arch->n ? bsearch(&key, idx, arch->n, sizeof(*idx), pmu__tables_cmp_name) : NULL;
		while (hit && hit > idx && !strcasecmp(hit[-1].name, e->name))
			hit--;
		/* the first loaded that defines an encoding or is a metric */
		for (; hit && hit < idx + arch->n && !a && !strcasecmp(hit->name, e->name); hit++)
			if ((hit->ent->have & (PMU_TF_EVENT | PMU_TF_CONFIG)) || hit->ent->kind == PMU_T_METRIC)
				a = hit->ent; /* made above */
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

/* Value @v of field @f into @out. */
static void builtin_set(struct pmu_builtin_entry *out, enum pmu_bfield f, uint64_t v)
{
	switch (f) {
	case PMU_BF_NAME: out->name = (uint32_t)v; break;
	case PMU_BF_FILE: out->file = (uint32_t)v; break;
	case PMU_BF_DESC: out->desc = (uint32_t)v; break;
	case PMU_BF_PDESC: out->pdesc = (uint32_t)v; break;
	case PMU_BF_HAVE: out->have = (unsigned)v; break;
	case PMU_BF_EVENT: out->event = v; break;
	case PMU_BF_UMASK: out->umask = v; break;
	case PMU_BF_CMASK: out->cmask = v; break;
	case PMU_BF_INV: out->inv = v; break;
	case PMU_BF_EDGE: out->edge = v; break;
	case PMU_BF_ANY: out->any = v; break;
	case PMU_BF_MSR_INDEX: out->msr_index = v; break;
	case PMU_BF_MSR_VALUE: out->msr_value = v; break;
	case PMU_BF_CONFIG_CODE: out->config_code = v; break;
	case PMU_BF_STDNAMES: out->stdnames = (uint32_t)v; break;
	case PMU_BF_UNIT: out->unit = (uint32_t)v; break;
	case PMU_BF_NOTES: out->notes = (uint32_t)v; break;
	case PMU_BF_APPROX_NOTE: out->approx_note = (uint32_t)v; break;
	case PMU_BF_TOPDOWN: out->topdown = (uint32_t)v; break;
	case PMU_BF_ALIASES: out->aliases = (uint32_t)v; break;
	case PMU_BF_GENERIC: out->generic = (uint32_t)v; break;
	case PMU_BF_SOURCE: out->source = (uint32_t)v; break;
	case PMU_BF_EXPR: out->expr = (uint32_t)v; break;
	case PMU_BF_GROUP: out->group = (uint32_t)v; break;
	case PMU_BF_SCALE_UNIT: out->scale_unit = (uint32_t)v; break;
	case PMU_BF_THRESHOLD: out->threshold = (uint32_t)v; break;
	case PMU_BF_PARAMS: out->params = (uint32_t)v; break;
	case PMU_BF_COUNTER_CSR: out->counter_csr = (uint32_t)v; break;
	case PMU_BF_PFM_NAME: out->pfm_name = (uint32_t)v; break;
	case PMU_BF_APPROX_NAMES: out->approx_names = (uint32_t)v; break;
	case PMU_BF_APPROX: out->approx = (int)v; break;
	case PMU_BF_COUNTER_WIDTH: out->counter_width = (int)v; break;
	case PMU_BF_MHPMEVENT_BIT: out->mhpmevent_bit = (int)v; break;
	case PMU_BF_TERMS: out->terms = (uint32_t)v; break;
	case PMU_BF_N: break; /* no such field (gen-tables.py writes none; test-tables-compiled checks) */
	}
}

/* A whole record decoded, each value it has stored in its field (the fields it lacks keep their defaults,
 * pmu__builtin_default's): only the present fields are visited, 7 of 33 in a typical record. */
size_t pmu__builtin_decode(const struct pmu_builtin_dir *bd, size_t k, struct pmu_builtin_entry *out)
{
	const unsigned char *rec = bd->rec + bd->at[k], *p = rec;
	uint64_t mask = pmu__builtin_varint(&p);

	*out = (struct pmu_builtin_entry){ .kind = bd->kinds[k], .dir = bd->dir_name,
					   .mhpmevent_bit = (int)pmu__builtin_default(PMU_BF_MHPMEVENT_BIT) };
	for (uint64_t m = mask & PMU_BF_STRINGS; m; m &= m - 1, p += 3)
		builtin_set(out, (enum pmu_bfield)__builtin_ctzll(m), pmu__builtin_str3(p));
	for (uint64_t m = mask & ~PMU_BF_STRINGS; m; m &= m - 1)
		builtin_set(out, (enum pmu_bfield)__builtin_ctzll(m), pmu__builtin_varint(&p));
	return (size_t)(p - rec);
}

void pmu__tblock_make(struct pmu_tblock *blk, size_t k)
{
	struct pmu_tentry *e = &blk->e[k];
	struct pmu_builtin_entry b;

	pthread_mutex_lock(&blk->lock);
	if (!blk->made[k]) {
		pmu__builtin_decode(blk->bd, k, &b);
		memset(e, 0, sizeof(*e));
		e->kind = b.kind;
		e->name = (char *)pmu__builtin_str(b.name);
		e->file = (char *)pmu__builtin_str(b.file);
		e->dir = (char *)pmu__builtin_str(b.dir);
		e->desc = (char *)pmu__builtin_str(b.desc);
		e->pdesc = (char *)pmu__builtin_str(b.pdesc);
		e->notes = (char *)pmu__builtin_str(b.notes);
		e->stdnames = (char *)pmu__builtin_str(b.stdnames);
		e->approx_note = (char *)pmu__builtin_str(b.approx_note);
		e->topdown = (char *)pmu__builtin_str(b.topdown);
		e->aliases = (char *)pmu__builtin_str(b.aliases);
		e->generic = (char *)pmu__builtin_str(b.generic);
		e->source = (char *)pmu__builtin_str(b.source);
		e->unit = (char *)pmu__builtin_str(b.unit);
		e->expr = (char *)pmu__builtin_str(b.expr);
		e->group = (char *)pmu__builtin_str(b.group);
		e->scale_unit = (char *)pmu__builtin_str(b.scale_unit);
		e->threshold = (char *)pmu__builtin_str(b.threshold);
		e->params = (char *)pmu__builtin_str(b.params);
		e->counter_csr = (char *)pmu__builtin_str(b.counter_csr);
		e->pfm_name = (char *)pmu__builtin_str(b.pfm_name);
		e->approx_names = (char *)pmu__builtin_str(b.approx_names);
		e->terms = (char *)pmu__builtin_str(b.terms);
		e->approx = b.approx;
		e->have = b.have;
		e->event = b.event;
		e->umask = b.umask;
		e->cmask = b.cmask;
		e->inv = b.inv;
		e->edge = b.edge;
		e->any = b.any;
		e->msr_index = b.msr_index;
		e->msr_value = b.msr_value;
		e->config_code = b.config_code;
		e->counter_width = b.counter_width;
		e->mhpmevent_bit = b.mhpmevent_bit;
		if (e->kind == PMU_T_NATIVE)
			perf_event_rules(e);
		__atomic_store_n(&blk->made[k], 1, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&blk->lock);
}

/* The block of built-in directory @dir's compiled entries (no JSON parsing): one allocation for the
 * directory (a thousand callocs were a fifth of a first load), each entry made at its first use
 * (pmu__tables_entry), so only the pages of the entries made are touched. 0 with *@out NULL when
 * there is no such directory or it has no entries; -ENOMEM. */
int pmu__tblock_new(const char *dir, struct pmu_tblock **out)
{
	*out = NULL;
	for (size_t d = 0; d < pmu__builtin_ndirs; d++) {
		const struct pmu_builtin_dir *bd = &pmu__builtin_dirs[d];
		struct pmu_tblock *blk;
		if (strcmp(bd->dir, dir))
			continue;
		if (!bd->n)
			return 0;
		if (!(blk = calloc(1, sizeof(*blk))) || !(blk->made = calloc(bd->n, 1)) ||
		    !(blk->e = malloc(bd->n * sizeof(*blk->e)))) {
			pmu__tblock_free(blk);
			return -ENOMEM;
		}
		blk->bd = bd;
		pthread_mutex_init(&blk->lock, NULL);
		*out = blk;
		return 0;
	}
	return 0;
}

int pmu__tables_add_block(struct pmu_tables *t, struct pmu_tblock *blk, bool owned)
{
	size_t first = t->n;

	if (t->shared)
		return -EINVAL; /* the process's table: read-only (a loader's mistake, not the user's) */
	if (pmu__reserve(&t->ent, &t->cap, t->n + blk->bd->n, sizeof(*t->ent)) < 0)
		return -ENOMEM;
	for (size_t i = 0; i < blk->bd->n; i++)
		t->ent[t->n++] = &blk->e[i];
	if (add_chunk(t, first, blk->bd->n, blk->bd, blk, owned) < 0) {
		t->n = first;
		return -ENOMEM;
	}
	return 0;
}

int pmu__tables_compiled(struct pmu_tables *t, const char *dir)
{
	struct pmu_tblock *blk;
	int r = pmu__tblock_new(dir, &blk);

	if (r == 0 && blk && (r = pmu__tables_add_block(t, blk, true)) < 0)
		pmu__tblock_free(blk);
	return r;
}

bool pmu__tables_builtin_event(const char *dir, const char *name, struct pmu_builtin_entry *out)
{
	for (size_t d = 0; d < pmu__builtin_ndirs; d++) {
		const struct pmu_builtin_dir *bd = &pmu__builtin_dirs[d];
		if (!dir || strcmp(bd->dir, dir))
			continue;
		/* the name is a record's first field: read alone, the entry decoded whole only when it matches */
		for (size_t i = 0; i < bd->n; i++)
			if (bd->kinds[i] == PMU_T_NATIVE &&
			    !strcasecmp(pmu__builtin_str((uint32_t)pmu__builtin_field(bd, i, PMU_BF_NAME)), name)) {
				pmu__builtin_decode(bd, i, out);
				return true;
			}
	}
	return false;
}
