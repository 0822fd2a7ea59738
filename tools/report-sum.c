/* SPDX-License-Identifier: MIT */
/* pmu report's sums of 'pmu stat --json' files: counts per event name, the
 * files' times, where and when each counted (report-sum.h). */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "report-read.h"
#include "report-sum.h"

/* A count in fractions of @unit: the file's unit_scale @x (a number, the schema says) must be above 0; the
 * row keeps the unit (held by @s) and the factor. */
static int scaled_unit(struct saved_stat *s, struct stat_row *row, const char *unit, json_object *x,
		       const struct seg *at, const char *file, char **err)
{
	struct seg in = { at, "unit_scale", 0 };
	double f = json_object_get_double(x);
	json_object *u;

	if (!(f > 0) || !isfinite(f))
		return refuse_at(&in, file, err, "%g: a count is a positive fraction of its unit", f);
	if ((!s->units && !(s->units = json_object_new_array())) || !(u = json_object_new_string(unit)))
		return report_fail(err, -ENOMEM, "'%s': out of memory", file);
	if (json_object_array_add(s->units, u) < 0) {
		json_object_put(u);
		return report_fail(err, -ENOMEM, "'%s': out of memory", file);
	}
	row->info.unit = json_object_get_string(u);
	row->unit_scale = f;
	return 0;
}

static void file_free(struct saved_file *f)
{
	free(f->name);
	free(f->host);
	free(f->boot);
	strv_free(&f->cpu_wide);
}

/* Where and when @doc (of @file) counted, in a new entry of s->filev; its cpu-wide rows are added by the
 * caller. 0, or -ENOMEM. */
static int file_add(struct saved_stat *s, const char *file, json_object *doc)
{
	struct saved_file *v, *f;
	const char *host = str_at(doc, "host"), *boot = str_at(doc, "boot_id");

	while (s->nfilev > s->files) /* a file refused after its entry was made */
		file_free(&s->filev[--s->nfilev]);
	if (!(v = realloc(s->filev, (size_t)(s->files + 1) * sizeof(*v))))
		return -ENOMEM;
	s->filev = v;
	f = &v[s->files];
	memset(f, 0, sizeof(*f));
	s->nfilev++;
	f->start = count_at(doc, "wall_start_ns");
	f->end = count_at(doc, "wall_end_ns");
	if (!(f->name = strdup(file)) || (host && *host && !(f->host = strdup(host))) ||
	    (boot && *boot && !(f->boot = strdup(boot)))) {
		file_free(&s->filev[--s->nfilev]);
		return -ENOMEM;
	}
	return 0;
}

static bool has_name(const struct strv *sv, const char *name)
{
	for (size_t i = 0; i < sv->n; i++)
		if (!strcmp(sv->v[i], name))
			return true;
	return false;
}

/* Files @x and @y counted on one machine at once (each says where and when). */
static bool overlap(const struct saved_file *x, const struct saved_file *y)
{
	bool same = x->boot && y->boot ? !strcmp(x->boot, y->boot) : !strcmp(x->host, y->host);

	return same && x->start < y->end && y->start < x->end;
}

enum sum_verdict saved_stat_overlap(const struct saved_stat *s, const char *name, int *a, int *b)
{
	int with = 0, unknown = 0;

	for (int i = 0; i < s->files; i++) {
		const struct saved_file *x = &s->filev[i];
		if (!has_name(&x->cpu_wide, name))
			continue;
		with++;
		if (!x->host || !x->start || !x->end) {
			unknown++;
			continue;
		}
		for (int j = 0; j < i; j++)
			if (has_name(&s->filev[j].cpu_wide, name) && s->filev[j].host && s->filev[j].start &&
			    s->filev[j].end && overlap(&s->filev[j], x)) {
				*a = j;
				*b = i;
				return SUM_OVERLAP;
			}
	}
	return with > 1 && unknown ? SUM_UNKNOWN : SUM_OK;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

char *saved_stat_signature(json_object *doc)
{
	json_object *ev = NULL;
	size_t n = json_object_object_get_ex(doc, "events", &ev) ? json_object_array_length(ev) : 0;
	const char **names = calloc(n + 1, sizeof(*names));
	char *sig = NULL;
	size_t len;
	FILE *f;

	if (!names || !(f = open_memstream(&sig, &len))) {
		free(names);
		return NULL;
	}
	for (size_t k = 0; k < n; k++)
		names[k] = str_at(json_object_array_get_idx(ev, k), "name") ?: "";
	qsort(names, n, sizeof(*names), cmp_str);
	fprintf(f, "runs=%llu", (unsigned long long)(count_at(doc, "runs") ?: 1));
	for (size_t k = 0; k < n; k++)
		fprintf(f, "\n%s", names[k]);
	free(names);
	if (fclose(f) != 0) {
		free(sig);
		return NULL;
	}
	return sig;
}

int saved_stat_command(json_object *const *docs, size_t n, char **out)
{
	char *first = NULL;

	*out = NULL;
	for (size_t i = 0; i < n; i++) {
		json_object *cmd = NULL;
		char *line = NULL;
		if (!json_object_object_get_ex(docs[i], "command", &cmd) || !json_object_is_type(cmd, json_type_array) ||
		    !json_object_array_length(cmd)) {
			free(first);
			return 0;
		}
		for (size_t k = 0; k < json_object_array_length(cmd); k++) {
			const char *w = json_object_get_string(json_object_array_get_idx(cmd, k));
			if (str_append(&line, " ", w ? w : "") < 0) {
				free(line);
				free(first);
				return -ENOMEM;
			}
		}
		if (!first) {
			first = line;
		} else {
			bool same = !strcmp(first, line);
			free(line);
			if (!same) {
				free(first);
				return 0;
			}
		}
	}
	*out = first;
	return 0;
}

static int cmp_start(const void *a, const void *b)
{
	const struct saved_file *x = a, *y = b;

	return (x->start > y->start) - (x->start < y->start);
}

bool saved_stat_covered(struct saved_stat *s, bool *overlapped)
{
	struct saved_file *v;
	uint64_t span = 0, covered = 0, end = 0; /* ns since the epoch: exact as integers (not as doubles) */

	*overlapped = false;
	if (s->files < 2)
		return true;
	for (int i = 0; i < s->files; i++)
		if (!s->filev[i].start || s->filev[i].end <= s->filev[i].start)
			return false;
	if (!(v = malloc((size_t)s->files * sizeof(*v))))
		return false;
	memcpy(v, s->filev, (size_t)s->files * sizeof(*v));
	qsort(v, (size_t)s->files, sizeof(*v), cmp_start);
	for (int i = 0; i < s->files; i++) {
		uint64_t from = v[i].start > end ? v[i].start : end;
		*overlapped = *overlapped || v[i].start < end;
		span += v[i].end - v[i].start;
		if (v[i].end > from)
			covered += v[i].end - from;
		if (v[i].end > end)
			end = v[i].end;
	}
	free(v);
	/* each file's elapsed time in the share of its wall-clock span not covered by another file's */
	s->times.elapsed_ns *= (double)covered / (double)span;
	return true;
}

int saved_stat_add(struct saved_stat *s, const char *file, json_object *doc, char **err)
{
	static const struct { const char *key; unsigned flag; } excl[] = {
		{ "exclude_user", PMU_EVF_EXCL_USER }, { "exclude_kernel", PMU_EVF_EXCL_KERNEL },
		{ "exclude_hv", PMU_EVF_EXCL_HV }, { "user_fallback", PMU_EVF_USER_FALLBACK },
		{ "cpu_wide", PMU_EVF_CPU_WIDE } };
	const size_t cpuid_max = sizeof(((struct pmu_caps *)0)->cpuid);
	const struct seg top = { NULL, "events", 0 };
	const char *cpuid = str_at(doc, "cpuid");
	json_object *ev, *x;
	int r;

	*err = NULL;
	if (!json_object_object_get_ex(doc, "events", &ev))
		return refuse_at(NULL, file, err, "the key 'events' is missing");
	if (cpuid && (r = name_ok(doc, "cpuid", cpuid_max, NULL, file, err)) < 0)
		return r;
	if (file_add(s, file, doc) < 0)
		return report_fail(err, -ENOMEM, "'%s': out of memory", file);
	for (int i = 0; i < s->files; i++) {
		const struct saved_file *prev = &s->filev[i], *cur = &s->filev[s->files];
		if (prev->host && cur->host && prev->start && !strcmp(prev->host, cur->host) && prev->start == cur->start &&
		    prev->end == cur->end && (!prev->boot || !cur->boot || !strcmp(prev->boot, cur->boot)))
			return refuse_at(NULL, file, err, "it holds the same run as '%s' (host %s, the same start and end): "
					 "summed, that run would be counted twice; name it once", prev->name, prev->host);
	}
	for (size_t k = 0; k < json_object_array_length(ev); k++) {
		json_object *e = json_object_array_get_idx(ev, k);
		const char *unit = str_at(e, "unit"), *pmu = str_at(e, "pmu");
		const struct seg at = { &top, NULL, k };
		struct stat_row *row;
		bool added;

		if ((r = name_ok(e, "name", sizeof(row->info.name), &at, file, err)) < 0 ||
		    (pmu && (r = name_ok(e, "pmu", sizeof(row->info.pmu), &at, file, err)) < 0) ||
		    (r = times_ok(e, &at, file, err)) < 0)
			return r;
		if (str_at(e, "cgroup") && (r = name_ok(e, "cgroup", sizeof(row->cgroup), &at, file, err)) < 0)
			return r;
		/* the same event counted in two cgroups (-G, --for-each-cgroup) is two rows */
		if (!(row = stat_rows_of(&s->rows, str_at(e, "name"), str_at(e, "cgroup"), &added)))
			return report_fail(err, -ENOMEM, "'%s': out of memory", file);
		if (added) {
			/* the file's unit: ns, or one its count is a fraction of (unit_scale); files written before
			 * it had one: time events by name */
			if (unit && json_object_object_get_ex(e, "unit_scale", &x)) {
				if ((r = scaled_unit(s, row, unit, x, &at, file, err)) < 0)
					return r;
			} else if (unit)
				row->info.unit = !strcmp(unit, "ns") ? "ns" : "";
			else
				row->info.unit = label_is(row->info.name, "task-clock") ||
							 label_is(row->info.name, "cpu-clock") ? "ns" : "";
			row->info.desc = "";
			row->info.note = "";
			row->supported = true;
			if (pmu)
				snprintf(row->info.pmu, sizeof(row->info.pmu), "%s", pmu);
			if (!strcmp(row->info.pmu, "software"))
				row->info.flags |= PMU_EVF_SOFTWARE;
			if (!strcmp(row->info.pmu, "tool")) /* duration_time, user_time, system_time: ns */
				row->info.flags |= PMU_EVF_SOFTWARE | PMU_EVF_TOOL;
			for (size_t f = 0; f < sizeof(excl) / sizeof(excl[0]); f++)
				if (json_object_object_get_ex(e, excl[f].key, &x) && json_object_get_boolean(x))
					row->info.flags |= excl[f].flag;
		}
		if (json_object_object_get_ex(e, "supported", &x) && !json_object_get_boolean(x))
			row->supported = false;
		if (json_object_object_get_ex(e, "cpu_wide", &x) && json_object_get_boolean(x) &&
		    strv_add(&s->filev[s->files].cpu_wide, row->info.name, strlen(row->info.name)) < 0)
			return report_fail(err, -ENOMEM, "'%s': out of memory", file);
		if (json_object_object_get_ex(e, "stddev_pct", &x)) {
			/* -r: the files' standard errors of the mean, as absolute values, add in quadrature */
			double prev = row->stddev_pct * (double)row->v.value / 100, add = json_object_get_double(x) *
				(double)count_at(e, "value") / 100, sum = (double)row->v.value + (double)count_at(e, "value");
			row->stddev_pct = sum > 0 ? 100 * sqrt(prev * prev + add * add) / sum : 0;
		}
		if ((r = add_count(&row->v.value, e, "value", &at, file, err)) < 0 ||
		    (r = add_count(&row->v.enabled, e, "enabled_ns", &at, file, err)) < 0 ||
		    (r = add_count(&row->v.running, e, "running_ns", &at, file, err)) < 0)
			return r;
	}
	if (!s->files)
		s->times.user_ns = s->times.sys_ns = 0;
	s->times.runs = (int)(count_at(doc, "runs") ?: 1); /* one number of runs per sum: saved_stat_signature */
	s->times.elapsed_ns += (double)count_at(doc, "elapsed_ns");
	/* CPU times are shown only when every file has them */
	if (json_object_object_get_ex(doc, "user_ns", NULL) && s->times.user_ns >= 0)
		s->times.user_ns += (double)count_at(doc, "user_ns");
	else
		s->times.user_ns = -1;
	if (json_object_object_get_ex(doc, "sys_ns", NULL) && s->times.sys_ns >= 0)
		s->times.sys_ns += (double)count_at(doc, "sys_ns");
	else
		s->times.sys_ns = -1;
	if (cpuid && !s->cpuid && !(s->cpuid = strdup(cpuid)))
		return report_fail(err, -ENOMEM, "'%s': out of memory", file);
	if (cpuid && strcmp(cpuid, s->cpuid) && !s->other_cpuid && !(s->other_cpuid = strdup(cpuid)))
		return report_fail(err, -ENOMEM, "'%s': out of memory", file);
	if (json_object_object_get_ex(doc, "constants", &x)) {
		if (!s->files)
			s->constants = json_object_get(x);
		else if (!s->constants || !json_object_equal(x, s->constants))
			s->constants_differ = true;
	} else if (s->constants) {
		s->constants_differ = true;
	}
	s->files++;
	return 0;
}

void saved_stat_free(struct saved_stat *s)
{
	for (int i = 0; i < s->nfilev; i++)
		file_free(&s->filev[i]);
	free(s->filev);
	stat_rows_free(&s->rows);
	free(s->cpuid);
	free(s->other_cpuid);
	json_object_put(s->constants);
	json_object_put(s->units);
	memset(s, 0, sizeof(*s));
}
