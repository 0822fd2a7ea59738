/* SPDX-License-Identifier: MIT */
/* The display of counts (stat-print.h says what each is for). */
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "cli.h"
#include "stat-print.h"

static const struct stat_row *find_row(const struct stat_row *rows, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (rows[i].supported && label_is(rows[i].info.name, name))
			return &rows[i];
	return NULL;
}

/*
 * The row counting @want next to row @r: for "PMU/event/" rows the one on the
 * same PMU (on a hybrid CPU a generic event is counted as cpu_core/cycles/
 * and cpu_atom/cycles/, and cpu_atom/instructions/ goes with cpu_atom/cycles/).
 */
static const struct stat_row *partner(const struct stat_row *rows, size_t n, const struct stat_row *r,
				      const char *want)
{
	const char *slash = strchr(r->info.name, '/');
	char name[PMU_NAME_MAX];

	if (!slash)
		return find_row(rows, n, want);
	/* longer than any row's name: no row has it */
	if ((size_t)snprintf(name, sizeof(name), "%.*s/%s/", (int)(slash - r->info.name), r->info.name, want) >=
	    sizeof(name))
		return NULL;
	return find_row(rows, n, name);
}

/* The sentence for rows libpmu counted in user mode only (paranoid), naming them (malloc'd); NULL if none. */
static char *user_fallback_note(const struct stat_row *rows, size_t n)
{
	char *s = NULL;

	for (size_t i = 0; i < n; i++)
		if (rows[i].info.flags & PMU_EVF_USER_FALLBACK && str_append(&s, ", ", rows[i].info.name) < 0)
			break;
	if (s && str_append(&s, NULL, ": user mode only (kernel.perf_event_paranoid forbids kernel mode "
			    "without CAP_PERFMON; sudo sysctl kernel.perf_event_paranoid=1 counts it too)") < 0) {
		free(s);
		s = NULL;
	}
	return s;
}

void stat_print_text(FILE *f, const char *cmdline, const struct stat_row *rows, size_t n,
		     const struct run_times *t, const struct strv *notes)
{
	double elapsed_ns = t->elapsed_ns;
	const struct stat_row *task = find_row(rows, n, "task-clock");

	if (t->runs > 1)
		fprintf(f, "\n Performance counter stats for '%s' (%d runs):\n\n", cmdline, t->runs);
	else
		fprintf(f, "\n Performance counter stats for '%s':\n\n", cmdline);
	for (size_t i = 0; i < n; i++) {
		const struct stat_row *r = &rows[i];
		const struct stat_row *cyc = partner(rows, n, r, "cycles"), *br = partner(rows, n, r, "branches");
		const char *base = strchr(r->info.name, '/') ? strchr(r->info.name, '/') + 1 : r->info.name;
		bool ins = !strncasecmp(base, "instructions", 12) && base[12] && strchr("/:", base[12]);
		char num[48], extra[96] = "";
		double conf;
		uint64_t val;

		ins = ins || !strcasecmp(base, "instructions");
		if (!cyc)
			cyc = partner(rows, n, r, "cpu-cycles");
		if (!br)
			br = partner(rows, n, r, "branch-instructions");

		if (!r->supported) {
			fprintf(f, "   %18s      %-28s\n", "<not supported>", r->info.name);
			continue;
		}
		val = pmu_scale(&r->v);
		conf = pmu_confidence(&r->v);
		if (r->v.enabled && r->v.running == 0) {
			fprintf(f, "   %18s      %-28s (never scheduled: too many events for the counters)\n",
				"<not counted>", r->info.name);
			continue;
		}
		if (r->info.unit && !strcmp(r->info.unit, "ns")) {
			/* task-clock, cpu-clock: time */
			snprintf(num, sizeof(num), "%.2f msec", val / 1e6);
			if (elapsed_ns > 0)
				snprintf(extra, sizeof(extra), "#  %8.3f CPUs utilized", val / elapsed_ns);
		} else {
			group_digits(val, num, sizeof(num));
			if (ins && cyc && pmu_scale(&cyc->v))
				snprintf(extra, sizeof(extra), "#  %8.2f insn per cycle",
					 (double)val / (double)pmu_scale(&cyc->v));
			else if (r == cyc && task && pmu_scale(&task->v))
				snprintf(extra, sizeof(extra), "#  %8.3f GHz",
					 (double)val / (double)pmu_scale(&task->v));
			else if (br && r != br && strstr(r->info.name, "branch-misses") && pmu_scale(&br->v))
				snprintf(extra, sizeof(extra), "#  %8.2f%% of all branches",
					 100.0 * val / (double)pmu_scale(&br->v));
			else if (task && r->info.flags & PMU_EVF_SOFTWARE && !r->info.unit[0] &&
				 pmu_scale(&task->v))
				snprintf(extra, sizeof(extra), "#  %8.3f K/sec",
					 val / (pmu_scale(&task->v) / 1e9) / 1e3);
		}
		fprintf(f, "   %18s      %-28s %s", num, r->info.name, extra);
		if (t->runs > 1)
			fprintf(f, "  ( +- %.2f%% )", r->stddev_pct);
		if (conf < 1.0)
			fprintf(f, "  (%.2f%% counted, scaled)", conf * 100);
		fprintf(f, "\n");
	}
	fprintf(f, "\n   %18.9f seconds time elapsed\n\n", elapsed_ns / 1e9);
	if (t->user_ns >= 0 && t->sys_ns >= 0) {
		fprintf(f, "   %18.9f seconds user\n", t->user_ns / 1e9);
		fprintf(f, "   %18.9f seconds sys\n\n", t->sys_ns / 1e9);
	}
	char *fb = user_fallback_note(rows, n);

	for (size_t i = 0; i < notes->n; i++)
		fprintf(f, " note: %s\n\n", notes->v[i]);
	if (fb)
		fprintf(f, " note: %s\n\n", fb);
	free(fb);
	for (size_t i = 0; i < n; i++) {
		if (rows[i].info.note && *rows[i].info.note)
			fprintf(f, " note on %s: %s\n", rows[i].info.name, rows[i].info.note);
		if ((rows[i].info.flags & PMU_EVF_APPROX) && rows[i].info.approx_note)
			fprintf(f, " %s is approximate: %s\n", rows[i].info.name, rows[i].info.approx_note);
	}
}

json_object *stat_print_json(char **cmd, int ncmd, const struct stat_row *rows, size_t n,
			     const struct run_times *t, int status, const struct pmu_caps *c, const struct strv *notes)
{
	json_object *o = json_object_new_object(), *ev = json_object_new_array(),
		    *ca = json_object_new_array(), *jnotes = json_object_new_array();

	json_object_object_add(o, "schema", json_object_new_string("libpmu-stat/1"));
	json_object_object_add(o, "version", json_object_new_string(pmu_version()));
	json_object_object_add(o, "cpuid", json_object_new_string(c->cpuid));
	json_object_object_add(o, "hw_pmu", json_object_new_boolean(c->hw_pmu));
	for (int i = 0; i < ncmd; i++)
		json_object_array_add(ca, json_object_new_string(cmd[i]));
	json_object_object_add(o, "command", ca);
	json_object_object_add(o, "exit_status", json_object_new_int(status));
	json_object_object_add(o, "elapsed_ns", json_object_new_int64((int64_t)t->elapsed_ns));
	if (t->user_ns >= 0 && t->sys_ns >= 0) {
		json_object_object_add(o, "user_ns", json_object_new_int64((int64_t)t->user_ns));
		json_object_object_add(o, "sys_ns", json_object_new_int64((int64_t)t->sys_ns));
	}
	json_object_object_add(o, "runs", json_object_new_int(t->runs));
	for (size_t i = 0; i < n; i++) {
		const struct stat_row *r = &rows[i];
		json_object *e = json_object_new_object();
		json_object_object_add(e, "name", json_object_new_string(r->info.name));
		json_object_object_add(e, "pmu", json_object_new_string(r->info.pmu));
		json_object_object_add(e, "exclude_user", json_object_new_boolean(r->info.flags & PMU_EVF_EXCL_USER));
		json_object_object_add(e, "exclude_kernel", json_object_new_boolean(r->info.flags & PMU_EVF_EXCL_KERNEL));
		json_object_object_add(e, "exclude_hv", json_object_new_boolean(r->info.flags & PMU_EVF_EXCL_HV));
		json_object_object_add(e, "user_fallback", json_object_new_boolean(r->info.flags & PMU_EVF_USER_FALLBACK));
		json_object_object_add(e, "type", json_object_new_int64(r->info.type));
		json_object_object_add(e, "config", cli_jhex(r->info.config));
		json_object_object_add(e, "config1", cli_jhex(r->info.config1));
		json_object_object_add(e, "supported", json_object_new_boolean(r->supported));
		json_object_object_add(e, "value", json_object_new_uint64(r->v.value));
		json_object_object_add(e, "scaled", json_object_new_uint64(pmu_scale(&r->v)));
		json_object_object_add(e, "enabled_ns", json_object_new_uint64(r->v.enabled));
		json_object_object_add(e, "running_ns", json_object_new_uint64(r->v.running));
		json_object_object_add(e, "confidence", jnum(r->supported ? pmu_confidence(&r->v) : 0.0));
		json_object_object_add(e, "unit", json_object_new_string(r->info.unit ? r->info.unit : ""));
		json_object_object_add(e, "stddev_pct", jnum(r->stddev_pct));
		json_object_array_add(ev, e);
	}
	json_object_object_add(o, "events", ev);
	for (size_t i = 0; i < notes->n; i++)
		json_object_array_add(jnotes, json_object_new_string(notes->v[i]));
	{
		char *fb = user_fallback_note(rows, n);
		if (fb)
			json_object_array_add(jnotes, json_object_new_string(fb));
		free(fb);
	}
	for (size_t i = 0; i < n; i++)
		if (rows[i].info.note && *rows[i].info.note) {
			char *buf = NULL;
			if (str_append(&buf, NULL, rows[i].info.name) == 0 && str_append(&buf, ": ", rows[i].info.note) == 0)
				json_object_array_add(jnotes, json_object_new_string(buf));
			free(buf);
		}
	json_object_object_add(o, "notes", jnotes);
	return o;
}
