/* SPDX-License-Identifier: MIT */
/* The display of counts (stat-print.h says what each is for). */
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "cli.h"
#include "stat-aggr.h"
#include "stat-print.h"

/* The row of event @name counted where @r was (its cgroup) */
static const struct stat_row *find_row(const struct stat_row *rows, size_t n, const struct stat_row *r,
				       const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (rows[i].supported && label_is(rows[i].info.name, name) && !strcmp(rows[i].cgroup, r->cgroup))
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
		return find_row(rows, n, r, want);
	/* longer than any row's name: no row has it */
	if ((size_t)snprintf(name, sizeof(name), "%.*s/%s/", (int)(slash - r->info.name), r->info.name, want) >=
	    sizeof(name))
		return NULL;
	return find_row(rows, n, r, name);
}

/* The sentence for the rows with @flag, naming them, then @what (malloc'd); NULL if none. */
static char *flag_note(const struct stat_row *rows, size_t n, unsigned flag, const char *what)
{
	char *s = NULL;

	for (size_t i = 0; i < n; i++)
		if ((rows[i].info.flags & flag) && str_append(&s, ", ", rows[i].info.name) < 0)
			break;
	if (s && str_append(&s, NULL, what) < 0) {
		free(s);
		s = NULL;
	}
	return s;
}

/* The notes on what some rows counted, other than what their names say: user mode only (paranoid);
 * every task of a package (a PMU that counts CPUs, counted for a command); every box of an uncore unit. */
static const struct {
	unsigned flag;
	const char *what;
} flag_notes[] = {
	{ PMU_EVF_USER_FALLBACK, ": user mode only (kernel.perf_event_paranoid forbids kernel mode without "
				 "CAP_PERFMON; sudo sysctl kernel.perf_event_paranoid=1 counts it too)" },
	{ PMU_EVF_CPU_WIDE, ": every task on its package or die, not only the counted ones: the PMU counts CPUs, "
			    "not tasks (counted on the CPUs of its cpumask, one per package or die, summed, from the "
			    "start to the end, as perf stat does)" },
	{ PMU_EVF_BOXES, ": the sum over every box of its uncore unit (uncore_imc_0, uncore_imc_1, ...: each a PMU "
			 "of its own, on each socket), as perf stat sums them; --json gives the number of boxes" },
};

/* A unit's row that its unit left out while another unit counted it: an event of a PMU that counts
 * CPUs, opened on the CPUs of its cpumask only (-a -A prints it for those, as perf does) */
static bool counted_elsewhere(const struct stat_rows *tot, const struct stat_row *r)
{
	if (r->supported)
		return false;
	for (size_t i = 0; i < tot->n; i++)
		if (!strcmp(tot->v[i].info.name, r->info.name))
			return tot->v[i].supported;
	return false;
}

/* ---------------- a row ---------------- */

/* task-clock and cpu-clock: time, which perf prints in msec with "CPUs utilized"; other ns counts
 * (duration_time, user_time) it prints as they are, in ns */
static bool is_time(const struct stat_row *r)
{
	return r->info.unit && !strcmp(r->info.unit, "ns") &&
	       (label_is(r->info.name, "task-clock") || label_is(r->info.name, "cpu-clock"));
}

/* A count in fractions of its unit (RAPL energy, uncore bytes): the factor to the unit, else 0 */
static double unit_factor(const struct stat_row *r)
{
	return r->unit_scale > 0 && r->unit_scale != 1 ? r->unit_scale : 0;
}

/* The row's value as perf prints it: time (ns) in msec, a scaled count in its unit, else the count; *@unit
 * its unit. */
static double row_value(const struct stat_row *r, const char **unit)
{
	uint64_t v = pmu_scale(&r->v);

	*unit = is_time(r) ? "msec" : r->info.unit ? r->info.unit : "";
	if (unit_factor(r))
		return (double)v * unit_factor(r);
	return is_time(r) ? v / 1e6 : (double)v;
}

/* A count as the text table shows it: "1,234,567" (@big: else "1234567"), with its unit when it has one
 * ("1,691,577 ns"); one in fractions of its unit multiplied into it, two decimals, as perf prints it
 * ("12.34 Joules"). */
static void count_text(const struct stat_row *r, bool big, char *buf, size_t len)
{
	if (unit_factor(r))
		snprintf(buf, len, "%.2f", (double)pmu_scale(&r->v) * unit_factor(r));
	else if (big)
		pmu__group_digits(pmu_scale(&r->v), buf, len);
	else
		snprintf(buf, len, "%" PRIu64, pmu_scale(&r->v));
	if (r->info.unit && *r->info.unit)
		snprintf(buf + strlen(buf), len - strlen(buf), " %s", r->info.unit);
}

/* "<not supported>", "<not counted>" (it never ran: perf's rule for CSV and JSON lines), or NULL. */
static const char *row_state(const struct stat_row *r)
{
	if (!r->supported)
		return "<not supported>";
	return r->v.running == 0 ? "<not counted>" : NULL;
}

/* The ratio perf prints next to a row ("#  1.23 insn per cycle"). */
struct shadow {
	double v;
	int prec;          /* decimals */
	char unit[40];     /* after the number: " CPUs utilized", "% of all branches" */
};

/* Events per second, with perf's K, M, G steps. */
static void per_second(struct shadow *s, double rate)
{
	static const char *const step[] = { "", "K", "M", "G" };
	int i = 0;

	for (; i < 3 && rate > 1000.0; i++)
		rate /= 1000.0;
	s->v = rate;
	s->prec = 3;
	snprintf(s->unit, sizeof(s->unit), " %s/sec", step[i]);
}

/* The ratio for row @r among @rows (counted over @elapsed_ns); false when there is none. */
static bool shadow_of(const struct stat_row *rows, size_t n, const struct stat_row *r, double elapsed_ns,
		      struct shadow *s)
{
	const struct stat_row *cyc = partner(rows, n, r, "cycles"), *br = partner(rows, n, r, "branches");
	const struct stat_row *task = find_row(rows, n, r, "task-clock");
	const char *base = strchr(r->info.name, '/') ? strchr(r->info.name, '/') + 1 : r->info.name;
	bool ins = (!strncasecmp(base, "instructions", 12) && base[12] && strchr("/:", base[12])) ||
		   !strcasecmp(base, "instructions");
	double val = (double)pmu_scale(&r->v), t = task ? (double)pmu_scale(&task->v) : 0;

	if (!cyc)
		cyc = partner(rows, n, r, "cpu-cycles");
	if (!br)
		br = partner(rows, n, r, "branch-instructions");
	s->unit[0] = 0;
	if (is_time(r) && elapsed_ns > 0)
		*s = (struct shadow){ val / elapsed_ns, 3, " CPUs utilized" };
	else if (is_time(r))
		return false;
	else if (ins && cyc && pmu_scale(&cyc->v))
		*s = (struct shadow){ val / (double)pmu_scale(&cyc->v), 2, " insn per cycle" };
	else if (r == cyc && t)
		*s = (struct shadow){ val / t, 3, " GHz" };
	else if (br && r != br && strstr(r->info.name, "branch-misses") && pmu_scale(&br->v))
		*s = (struct shadow){ 100.0 * val / (double)pmu_scale(&br->v), 2, "% of all branches" };
	else if (t && r->info.flags & PMU_EVF_SOFTWARE && !r->info.unit[0])
		per_second(s, val / (t / 1e9));
	return s->unit[0] != 0;
}

/* "CPU3", "sh-1234", a group's "S0-D0-C3" (--per-core), or "" for the sum. */
static const char *unit_label(const struct stat_unit *u, char *buf, size_t len)
{
	if (!u)
		snprintf(buf, len, "%s", "");
	else if (u->group)
		snprintf(buf, len, "%s", u->group->text);
	else if (u->cpu >= 0)
		snprintf(buf, len, "CPU%d", u->cpu);
	else
		snprintf(buf, len, "%s-%d", u->comm, u->tid);
	return buf;
}

/* A group's row of --per-socket and the like, as perf 6.12's print_aggr_id_std() begins it: the id
 * left-aligned in its mode's width, then the number of CPUs summed in 4 ("S0        2"). */
static const char *group_label(const struct stat_unit *u, const struct stat_row *r, char *buf, size_t len)
{
	snprintf(buf, len, "%-*s %4d", aggr_mode_width(u->mode), u->group->text, r->cpus);
	return buf;
}

/* The metrics of -M over group @u's rows alone (--per-socket and the like: each group its own, as perf
 * evaluates them per aggregate; -A's rows share the total's), its time @seconds; NULL when there are none
 * or memory ran out. Free with metric_values_free(.., p->metrics->n). */
static struct metric_value *group_metrics(const struct stat_printer *p, const struct stat_unit *u, double seconds)
{
	size_t n = p->metrics ? p->metrics->n : 0;
	struct counted cnt = { u->rows.v, u->rows.n, seconds, true };
	struct metric_value *mv;

	if (!n || !u->group || !(mv = calloc(n + 1, sizeof(*mv))))
		return NULL;
	if (metrics_eval(p->ctx, p->metrics, &cnt, mv) < 0) {
		metric_values_free(mv, n);
		return NULL;
	}
	return mv;
}

/* Do @c's units sum groups of CPUs (--per-socket and the like)? */
static bool grouped(const struct stat_counts *c)
{
	return c->nunits && c->units[0].group;
}

/* ---------------- text ---------------- */

/* A row of the table after @label: "CPU3", "sh-1234" (indented as the sum's rows), or a group's (at the
 * line's start, as perf has it); "" for the sum. */
static void text_row(const struct stat_printer *p, const char *label, bool group, const struct stat_row *rows,
		     size_t n, const struct stat_row *r, double elapsed_ns, int runs)
{
	FILE *f = p->f;
	char num[48], extra[96] = "";
	struct shadow s;
	double conf;

	if (group)
		fprintf(f, "%s ", label);
	else
		fprintf(f, "   %s%s", label, *label ? "  " : "");
	if (!r->supported) {
		fprintf(f, "%18s      %-28s %s\n", "<not supported>", r->info.name, r->cgroup);
		return;
	}
	if (r->not_summed) { /* pmu report: see its note */
		fprintf(f, "%18s      %-28s\n", "<not summed>", r->info.name);
		return;
	}
	if (r->v.running == 0) { /* enabled and never on a counter; or never enabled (-D -1, a cgroup never run) */
		fprintf(f, "%18s      %-28s %s%s%s\n", "<not counted>", r->info.name, r->cgroup,
			*r->cgroup && r->v.enabled ? " " : "",
			r->v.enabled ? "(never scheduled: too many events for the counters)" : "");
		return;
	}
	conf = pmu_confidence(&r->v);
	if (is_time(r))
		snprintf(num, sizeof(num), "%.2f msec", pmu_scale(&r->v) / 1e6);
	else
		count_text(r, !p->no_big_num, num, sizeof(num));
	if (shadow_of(rows, n, r, elapsed_ns, &s))
		snprintf(extra, sizeof(extra), "#  %8.*f%s", s.prec, s.v, s.unit);
	fprintf(f, "%18s      %-28s ", num, r->info.name);
	if (*r->cgroup)
		fprintf(f, "%-16s ", r->cgroup);
	fprintf(f, "%s", extra);
	if (runs > 1)
		fprintf(f, "  ( +- %5.2f%% )", r->stddev_pct);
	if (conf < 1.0)
		fprintf(f, "  (%.2f%% counted, scaled)", conf * 100);
	fprintf(f, "\n");
}

/* The event notes of @rows, each once with the names of every row that has it ("topdown-retiring,
 * topdown-bad-spec: Pseudo-event read from ..."): a malloc'd line for the note of row @i, or NULL when the
 * row has none or an earlier row has the same. */
static char *event_note(const struct stat_row *rows, size_t n, size_t i)
{
	const char *note = rows[i].info.note;
	char *line = NULL;

	if (!note || !*note)
		return NULL;
	for (size_t j = 0; j < i; j++)
		if (rows[j].info.note && !strcmp(rows[j].info.note, note))
			return NULL;
	for (size_t j = i; j < n; j++)
		if (rows[j].info.note && !strcmp(rows[j].info.note, note) && str_append(&line, ", ", rows[j].info.name) < 0)
			break;
	if (str_append(&line, ": ", note) < 0) {
		free(line);
		return NULL;
	}
	return line;
}

/* The notes under the table: given, what some rows counted (flag_notes), per event. */
static void text_notes(FILE *f, const struct stat_row *rows, size_t n, const struct strv *notes)
{
	for (size_t i = 0; i < notes->n; i++)
		fprintf(f, " note: %s\n\n", notes->v[i]);
	for (size_t k = 0; k < sizeof(flag_notes) / sizeof(flag_notes[0]); k++) {
		char *fb = flag_note(rows, n, flag_notes[k].flag, flag_notes[k].what);
		if (fb)
			fprintf(f, " note: %s\n\n", fb);
		free(fb);
	}
	for (size_t i = 0; i < n; i++) {
		char *line = event_note(rows, n, i);
		if (line)
			fprintf(f, " note on %s\n", line);
		free(line);
		if ((rows[i].info.flags & PMU_EVF_APPROX) && rows[i].info.approx_note)
			fprintf(f, " %s is approximate: %s\n", rows[i].info.name, rows[i].info.approx_note);
	}
}

/* The decimals of a time whose standard error is @se seconds: two digits more than the error's first, as
 * perf prints them (9 when it has none) */
static int time_decimals(double se)
{
	if (se <= 0)
		return 9;
	return se > 1 ? 2 : (int)ceil(-log10(se)) + 2;
}

/* --table: each run's time elapsed, its difference from the mean, and a bar of one '#' and one more per
 * 5% of that difference */
static void runs_table(const struct stat_printer *p, double mean_s, int decimals)
{
	fprintf(p->f, "\n%10s# Table of individual measurements:\n", "");
	for (int i = 0; i < p->ntable; i++) {
		double run = p->table_ns[i] / 1e9;
		double pct = run > 0 ? fabs(100.0 * (run - mean_s) / run) : 0;
		int bars = 1 + (int)(pct < 300 ? pct / 5 : 60); /* a run 3 times the mean or more: 61 */
		fprintf(p->f, " %17.*f (%+.*f) ", decimals, run, decimals, run - mean_s);
		for (int b = 0; b < bars; b++)
			fputc('#', p->f);
		fputc('\n', p->f);
	}
	fprintf(p->f, "\n%10s# Final result:\n", "");
}

void stat_print_text(const struct stat_printer *p, const char *cmdline, const struct stat_counts *c,
		     const struct run_times *t, const struct strv *notes)
{
	const struct stat_rows *tot = &c->total;
	FILE *f = p->f;

	if (t->runs > 1)
		fprintf(f, "\n Performance counter stats for '%s' (%d runs):\n\n", cmdline, t->runs);
	else
		fprintf(f, "\n Performance counter stats for '%s':\n\n", cmdline);
	for (size_t u = 0; u < c->nunits; u++) {
		const struct stat_unit *un = &c->units[u];
		char label[96];
		unit_label(un, label, sizeof(label));
		snprintf(label + strlen(label), sizeof(label) - strlen(label), "%*s",
			 strlen(label) < 16 ? 16 - (int)strlen(label) : 0, "");
		for (size_t i = 0; i < un->rows.n; i++) {
			if (counted_elsewhere(tot, &un->rows.v[i]))
				continue;
			if (un->group)
				group_label(un, &un->rows.v[i], label, sizeof(label));
			text_row(p, label, un->group != NULL, un->rows.v, un->rows.n, &un->rows.v[i], t->elapsed_ns,
				 t->runs);
		}
	}
	for (size_t i = 0; !c->nunits && i < tot->n; i++)
		text_row(p, "", false, tot->v, tot->n, &tot->v[i], t->elapsed_ns, t->runs);
	if (t->runs > 1) { /* the mean, its standard error, and that relative to the mean: perf's line */
		double se = t->elapsed_se_ns / 1e9, mean = t->elapsed_ns / 1e9;
		int d = time_decimals(se);
		if (p->table_ns)
			runs_table(p, mean, d);
		fprintf(f, " %17.*f +- %.*f seconds time elapsed  ( +- %5.2f%% )\n\n", d, mean, d, se,
			mean > 0 ? 100 * se / mean : 0);
	} else {
		fprintf(f, "\n   %18.9f seconds time elapsed\n\n", t->elapsed_ns / 1e9);
	}
	if (t->user_ns >= 0 && t->sys_ns >= 0) {
		fprintf(f, "   %18.9f seconds user%s\n", t->user_ns / 1e9, t->runs > 1 ? " (mean)" : "");
		fprintf(f, "   %18.9f seconds sys%s\n\n", t->sys_ns / 1e9, t->runs > 1 ? " (mean)" : "");
	}
	text_notes(f, tot->v, tot->n, notes);
}

void stat_print_notes(const struct stat_printer *p, const struct stat_counts *c, const struct strv *notes)
{
	if (notes->n)
		fputc('\n', p->f);
	text_notes(p->f, c->total.v, c->total.n, notes);
}

void stat_print_group_metrics(const struct stat_printer *p, const struct stat_counts *c, double seconds)
{
	size_t n = p->metrics ? p->metrics->n : 0;
	int w = 40;

	if (!n || !grouped(c))
		return;
	for (size_t i = 0; i < n; i++)
		if ((int)strlen(p->metrics->v[i]) > w)
			w = (int)strlen(p->metrics->v[i]);
	fprintf(p->f, " Metrics per %s:\n", aggr_mode_word(c->units[0].mode));
	for (size_t u = 0; u < c->nunits; u++) {
		const struct stat_unit *un = &c->units[u];
		struct metric_value *mv = group_metrics(p, un, seconds);
		for (size_t i = 0; mv && i < n; i++)
			if (mv[i].why)
				fprintf(p->f, "%-*s %4zu   %-*s  n/a: %s\n", aggr_mode_width(un->mode), un->group->text,
					un->group->ncpus, w, mv[i].name, mv[i].why);
			else
				fprintf(p->f, "%-*s %4zu   %-*s %14.3f %-10s%s\n", aggr_mode_width(un->mode), un->group->text,
					un->group->ncpus, w, mv[i].name, mv[i].value, mv[i].unit,
					mv[i].crossed ? "  <== over threshold" : "");
		if (mv)
			metric_values_free(mv, n);
	}
	fputc('\n', p->f);
}

/* -I in text: "time  [thread or CPU]  counts  event" per row. */
static void text_interval(struct stat_printer *p, double seconds, const struct stat_rows *rs,
			  const struct stat_unit *u)
{
	char label[64];

	unit_label(u, label, sizeof(label));
	if (!p->header_done && u && u->group) /* perf's words: "socket cpus" */
		fprintf(p->f, "#%15s %-*s cpus %18s  %s\n", "time (s)", aggr_mode_width(u->mode), aggr_mode_word(u->mode),
			"counts", "event");
	else if (!p->header_done)
		fprintf(p->f, "#%15s %s%s%18s  %s\n", "time (s)", u ? (u->cpu >= 0 ? "CPU" : "thread") : "",
			u ? "            " : "", "counts", "event");
	p->header_done = true;
	for (size_t k = 0; k < rs->n; k++) {
		const struct stat_row *r = &rs->v[k];
		char num[48];
		if (!r->supported)
			continue;
		if (is_time(r))
			snprintf(num, sizeof(num), "%.2f msec", pmu_scale(&r->v) / 1e6);
		else
			count_text(r, !p->no_big_num, num, sizeof(num));
		if (u && u->group)
			fprintf(p->f, " %15.9f %-*s %4d %18s  %s%s\n", seconds, aggr_mode_width(u->mode), label, r->cpus,
				num, r->info.name, pmu_confidence(&r->v) < 1.0 ? "  (scaled)" : "");
		else
			fprintf(p->f, " %15.9f %s%*s%18s  %s%s\n", seconds, label, u ? 15 - (int)strlen(label) : 0, "", num,
				r->info.name, pmu_confidence(&r->v) < 1.0 ? "  (scaled)" : "");
	}
}

/* ---------------- CSV and JSON lines ---------------- */

/* A number formatted as given, kept as JSON writes it (no 0.10000000000000001). */
static json_object *jfmt(const char *fmt, double v)
{
	char b[64];

	if (!isfinite(v))
		return NULL;
	snprintf(b, sizeof(b), fmt, v);
	return json_object_new_double_s(v, b);
}

static void line_json(FILE *f, json_object *o)
{
	json_write_line(f, o);
	json_object_put(o);
}

/* The time field of the lines of the total after -I's (--summary): perf's CSV has "summary" there */
#define SUMMARY_LINE (-2.0)

/* A counter's fields, as perf's CSV and JSON lines both have them. */
struct line {
	double seconds;              /* the interval's end; < 0: not an interval (SUMMARY_LINE: the total's) */
	const struct stat_unit *u;   /* the CPU or thread, or NULL */
	char label[64];              /* "CPU3", "sh-1234" */
	const char *state;           /* "<not supported>", "<not counted>", or NULL: a value */
	const char *unit;            /* of the value: "msec" for task-clock */
	double value, pct;           /* pct: of the time enabled that it ran */
	bool has_shadow;
	struct shadow s;             /* perf's ratio */
	const char *shadow_unit;     /* its unit without the leading " " or "%" */
};

static void line_fields(struct line *l, double seconds, const struct stat_unit *u, const struct stat_row *rows,
			size_t n, const struct stat_row *r, double elapsed_ns)
{
	l->seconds = seconds;
	l->u = u;
	unit_label(u, l->label, sizeof(l->label));
	l->state = row_state(r);
	l->value = row_value(r, &l->unit);
	l->pct = r->v.enabled ? 100.0 * r->v.running / r->v.enabled : 100.0;
	l->has_shadow = !l->state && shadow_of(rows, n, r, elapsed_ns, &l->s);
	l->shadow_unit = l->has_shadow ? l->s.unit + strspn(l->s.unit, " %") : "";
}

/* "[time,][where,]value,unit,event,[variance,]runtime,percent,metric,metric unit"; where: CPU3, sh-1234,
 * or a group's id and number of CPUs (S0,2) */
static void line_csv(struct stat_printer *p, const struct line *l, const struct stat_row *r, int runs)
{
	const char *sep = p->sep;

	if (l->seconds >= 0)
		fprintf(p->f, "%16.9f%s", l->seconds, sep);
	else if (l->seconds == SUMMARY_LINE)
		fprintf(p->f, "%16s%s", "summary", sep);
	if (l->u && l->u->group) /* perf's print_aggr_id_csv(): the id, the CPUs summed */
		fprintf(p->f, "%s%s%d%s", l->label, sep, r->cpus, sep);
	else if (l->u)
		fprintf(p->f, "%s%s", l->label, sep);
	if (l->state)
		fprintf(p->f, "%s%s", l->state, sep);
	else
		fprintf(p->f, is_time(r) || unit_factor(r) ? "%.2f%s" : "%.0f%s", l->value, sep);
	fprintf(p->f, "%s%s%s%s", l->unit, sep, r->info.name, sep);
	if (p->cgroups) /* perf's field after the event, where cgroups were counted */
		fprintf(p->f, "%s%s", r->cgroup, sep);
	if (runs > 1)
		fprintf(p->f, "%.2f%%%s", r->stddev_pct, sep);
	fprintf(p->f, "%" PRIu64 "%s%.2f%s", r->v.running, sep, l->pct, sep);
	if (l->has_shadow)
		fprintf(p->f, "%.*f", l->s.prec, l->s.v);
	fprintf(p->f, "%s%s\n", sep, l->shadow_unit);
}

/* perf's keys, in its order */
static void line_jsonl(struct stat_printer *p, const struct line *l, const struct stat_row *r, int runs)
{
	json_object *o = json_object_new_object();
	char num[64];

	if (l->seconds >= 0)
		json_object_object_add(o, "interval", jfmt("%.9f", l->seconds));
	if (l->u && l->u->group) { /* perf's print_aggr_id_json(): "socket" : "S0", "aggregate-number" : 2 */
		json_object_object_add(o, aggr_mode_word(l->u->mode), json_object_new_string(l->label));
		json_object_object_add(o, "aggregate-number", json_object_new_int(r->cpus));
	} else if (l->u && l->u->cpu >= 0)
		json_object_object_add(o, "cpu", json_object_new_string(l->label + 3));
	else if (l->u)
		json_object_object_add(o, "thread", json_object_new_string(l->label));
	snprintf(num, sizeof(num), "%f", l->value);
	json_object_object_add(o, "counter-value", json_object_new_string(l->state ? l->state : num));
	json_object_object_add(o, "unit", json_object_new_string(l->unit));
	json_object_object_add(o, "event", json_object_new_string(r->info.name));
	if (p->cgroups)
		json_object_object_add(o, "cgroup", json_object_new_string(r->cgroup));
	if (runs > 1)
		json_object_object_add(o, "variance", jfmt("%.2f", r->stddev_pct));
	json_object_object_add(o, "event-runtime", json_object_new_uint64(r->v.running));
	json_object_object_add(o, "pcnt-running", jfmt("%.2f", l->pct));
	json_object_object_add(o, "metric-value", jfmt("%f", l->has_shadow ? l->s.v : 0.0));
	json_object_object_add(o, "metric-unit", json_object_new_string(l->shadow_unit));
	line_json(p->f, o);
}

/* One counter, perf's way, in CSV or JSON lines. */
static void line_row(struct stat_printer *p, double seconds, const struct stat_unit *u, const struct stat_row *rows,
		     size_t n, const struct stat_row *r, double elapsed_ns, int runs)
{
	struct line l;

	line_fields(&l, seconds, u, rows, n, r, elapsed_ns);
	if (p->format == FMT_CSV)
		line_csv(p, &l, r, runs);
	else
		line_jsonl(p, &l, r, runs);
}

/* A metric of -M, perf's way: the counter's fields empty, then its value and "unit name". */
static void line_metric(struct stat_printer *p, double seconds, const struct stat_unit *u, const struct metric_value *m,
			int runs)
{
	char what[PMU_NAME_MAX + 64];

	snprintf(what, sizeof(what), "%s%s%s", m->unit, *m->unit ? " " : "", m->name);
	if (p->format == FMT_CSV) {
		if (seconds >= 0)
			fprintf(p->f, "%16.9f%s", seconds, p->sep);
		else if (seconds == SUMMARY_LINE)
			fprintf(p->f, "%16s%s", "summary", p->sep);
		if (u && u->group) /* a group's metric: its id and CPUs first, as its counters' */
			fprintf(p->f, "%s%s%zu%s", u->group->text, p->sep, u->group->ncpus, p->sep);
		/* empty: [where,]value,unit,event,[variance,]runtime,percent */
		for (int i = 0; i < 5 + (u && !u->group) + (runs > 1) + p->cgroups; i++)
			fputs(p->sep, p->f);
		if (!m->why)
			fprintf(p->f, "%.6g", m->value);
		fprintf(p->f, "%s%s\n", p->sep, what);
		return;
	}
	json_object *o = json_object_new_object();
	if (seconds >= 0)
		json_object_object_add(o, "interval", jfmt("%.9f", seconds));
	if (u && u->group) {
		json_object_object_add(o, aggr_mode_word(u->mode), json_object_new_string(u->group->text));
		json_object_object_add(o, "aggregate-number", json_object_new_int((int)u->group->ncpus));
	}
	json_object_object_add(o, "metric-value", m->why ? NULL : jfmt("%f", m->value));
	json_object_object_add(o, "metric-unit", json_object_new_string(what));
	if (m->why)
		json_object_object_add(o, "error", json_object_new_string(m->why));
	line_json(p->f, o);
}

/* The rows of @c (per unit when it has units), then the metrics (@mv, the total's; a group's own after
 * its rows instead); @seconds < 0: not an interval. */
static void lines(struct stat_printer *p, double seconds, const struct stat_counts *c, double elapsed_ns, int runs,
		  const struct metric_value *mv, size_t nmv)
{
	for (size_t u = 0; u < c->nunits; u++) {
		const struct stat_unit *un = &c->units[u];
		struct metric_value *gmv = group_metrics(p, un, elapsed_ns / 1e9);
		for (size_t i = 0; !p->metric_only && i < un->rows.n; i++)
			if (!counted_elsewhere(&c->total, &un->rows.v[i]))
				line_row(p, seconds, un, un->rows.v, un->rows.n, &un->rows.v[i], elapsed_ns, runs);
		/* a group's metrics after its counters, over its rows (perf's lines of --per-socket) */
		for (size_t i = 0; gmv && i < p->metrics->n; i++)
			line_metric(p, seconds, un, &gmv[i], runs);
		if (gmv)
			metric_values_free(gmv, p->metrics->n);
	}
	for (size_t i = 0; !p->metric_only && !c->nunits && i < c->total.n; i++)
		line_row(p, seconds, NULL, c->total.v, c->total.n, &c->total.v[i], elapsed_ns, runs);
	for (size_t i = 0; !grouped(c) && i < nmv; i++) /* -A: the total's, the CPU field empty */
		line_metric(p, seconds, c->nunits ? &c->units[0] : NULL, &mv[i], runs);
}

void stat_print_lines(struct stat_printer *p, const struct stat_counts *c, const struct run_times *t,
		      const struct metric_value *mv, size_t nmv)
{
	lines(p, p->summary && !p->no_csv_summary ? SUMMARY_LINE : -1, c, t->elapsed_ns, t->runs, mv, nmv);
}

/* ---------------- the JSON document ---------------- */

static json_object *event_json(const struct stat_row *r)
{
	json_object *e = json_object_new_object();

	json_object_object_add(e, "name", json_object_new_string(r->info.name));
	json_object_object_add(e, "pmu", json_object_new_string(r->info.pmu));
	json_object_object_add(e, "exclude_user", json_object_new_boolean(r->info.flags & PMU_EVF_EXCL_USER));
	json_object_object_add(e, "exclude_kernel", json_object_new_boolean(r->info.flags & PMU_EVF_EXCL_KERNEL));
	json_object_object_add(e, "exclude_hv", json_object_new_boolean(r->info.flags & PMU_EVF_EXCL_HV));
	json_object_object_add(e, "user_fallback", json_object_new_boolean(r->info.flags & PMU_EVF_USER_FALLBACK));
	json_object_object_add(e, "cpu_wide", json_object_new_boolean(r->info.flags & PMU_EVF_CPU_WIDE));
	if (r->info.flags & PMU_EVF_BOXES) /* the value is every box's, its pmu the unit's ("uncore_imc") */
		json_object_object_add(e, "boxes", json_object_new_int64(r->info.boxes));
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
	if (unit_factor(r)) /* value and scaled count in fractions of the unit: this many of it each */
		json_object_object_add(e, "unit_scale", json_object_new_double(unit_factor(r)));
	json_object_object_add(e, "stddev_pct", jnum(r->stddev_pct));
	if (*r->cgroup)
		json_object_object_add(e, "cgroup", json_object_new_string(r->cgroup));
	if (r->cpus > 0)
		json_object_object_add(e, "cpus", json_object_new_int(r->cpus));
	return e;
}

static json_object *events_json(const struct stat_rows *rs)
{
	json_object *ev = json_object_new_array();

	for (size_t i = 0; i < rs->n; i++)
		json_object_array_add(ev, event_json(&rs->v[i]));
	return ev;
}

/* A group of --per-socket and the like: {"mode": "core", "id": "S0-D0-C1", its id's numbers (socket, die,
 * cluster, cache_level, cache, core, node: those of the mode), "cpus": [its CPUs]} */
static json_object *group_json(const struct stat_unit *u)
{
	const struct aggr_group *g = u->group;
	const struct {
		const char *key;
		int v;
	} f[] = {
		{ "socket", g->id.socket }, { "die", g->id.die }, { "cluster", g->id.cluster },
		{ "cache_level", g->id.cache_level }, { "cache", g->id.cache }, { "core", g->id.core },
		{ "node", g->id.node },
	};
	json_object *o = json_object_new_object(), *cpus = json_object_new_array();

	json_object_object_add(o, "mode", json_object_new_string(aggr_mode_word(u->mode)));
	json_object_object_add(o, "id", json_object_new_string(g->text));
	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++)
		if (f[i].v >= 0)
			json_object_object_add(o, f[i].key, json_object_new_int(f[i].v));
	for (size_t i = 0; i < g->ncpus; i++)
		json_object_array_add(cpus, json_object_new_int(g->cpus[i]));
	json_object_object_add(o, "cpus", cpus);
	return o;
}

/* "events" of @c to @o, and "units" (each {"cpu": N}, {"thread": "comm-tid", "tid": N} or {"aggregation":
 * {...}}, and its events). */
static void counts_json(json_object *o, const struct stat_counts *c)
{
	json_object_object_add(o, "events", events_json(&c->total));
	if (c->nunits) {
		json_object *arr = json_object_new_array();
		for (size_t u = 0; u < c->nunits; u++) {
			json_object *e = json_object_new_object();
			char label[64];
			if (c->units[u].group) {
				json_object_object_add(e, "aggregation", group_json(&c->units[u]));
			} else if (c->units[u].cpu >= 0) {
				json_object_object_add(e, "cpu", json_object_new_int(c->units[u].cpu));
			} else {
				json_object_object_add(e, "thread",
						       json_object_new_string(unit_label(&c->units[u], label, sizeof(label))));
				json_object_object_add(e, "tid", json_object_new_int(c->units[u].tid));
			}
			json_object_object_add(e, "events", events_json(&c->units[u].rows));
			json_object_array_add(arr, e);
		}
		json_object_object_add(o, "units", arr);
	}
}

void stat_print_json_group_metrics(const struct stat_printer *p, json_object *units, const struct stat_counts *c,
				   double seconds)
{
	size_t n = p->metrics ? p->metrics->n : 0;

	for (size_t u = 0; n && grouped(c) && u < c->nunits && u < json_object_array_length(units); u++) {
		struct metric_value *mv = group_metrics(p, &c->units[u], seconds);
		json_object *arr = json_object_new_array();
		for (size_t i = 0; mv && i < n; i++)
			json_object_array_add(arr, metric_json(&mv[i]));
		json_object_object_add(json_object_array_get_idx(units, u), "metrics", arr);
		if (mv)
			metric_values_free(mv, n);
	}
}

json_object *stat_print_json(char **cmd, int ncmd, const struct stat_counts *c, const struct run_times *t,
			     int status, const struct pmu_caps *caps, const struct strv *notes)
{
	json_object *o = json_object_new_object(), *ca = json_object_new_array(), *jnotes = json_object_new_array();
	const struct stat_rows *tot = &c->total;
	char host[256], boot[64];

	json_object_object_add(o, "schema", json_object_new_string("libpmu-stat/1"));
	json_object_object_add(o, "version", json_object_new_string(pmu_version()));
	json_object_object_add(o, "cpuid", json_object_new_string(caps->cpuid));
	json_object_object_add(o, "hw_pmu", json_object_new_boolean(caps->hw_pmu));
	for (int i = 0; i < ncmd; i++)
		json_object_array_add(ca, json_object_new_string(cmd[i]));
	json_object_object_add(o, "command", ca);
	json_object_object_add(o, "exit_status", json_object_new_int(status));
	json_object_object_add(o, "elapsed_ns", json_object_new_int64((int64_t)t->elapsed_ns));
	node_identity(host, sizeof(host), boot, sizeof(boot));
	if (*host)
		json_object_object_add(o, "host", json_object_new_string(host));
	if (*boot)
		json_object_object_add(o, "boot_id", json_object_new_string(boot));
	if (t->wall_start_ns > 0) {
		json_object_object_add(o, "wall_start_ns", json_object_new_int64((int64_t)t->wall_start_ns));
		json_object_object_add(o, "wall_end_ns", json_object_new_int64((int64_t)t->wall_end_ns));
	}
	if (t->user_ns >= 0 && t->sys_ns >= 0) {
		json_object_object_add(o, "user_ns", json_object_new_int64((int64_t)t->user_ns));
		json_object_object_add(o, "sys_ns", json_object_new_int64((int64_t)t->sys_ns));
	}
	json_object_object_add(o, "runs", json_object_new_int(t->runs));
	counts_json(o, c);
	strv_json(jnotes, notes);
	for (size_t k = 0; k < sizeof(flag_notes) / sizeof(flag_notes[0]); k++) {
		char *fb = flag_note(tot->v, tot->n, flag_notes[k].flag, flag_notes[k].what);
		if (fb)
			json_object_array_add(jnotes, json_object_new_string(fb));
		free(fb);
	}
	for (size_t i = 0; i < tot->n; i++) {
		char *line = event_note(tot->v, tot->n, i);
		if (line)
			json_object_array_add(jnotes, json_object_new_string(line));
		free(line);
	}
	json_object_object_add(o, "notes", jnotes);
	return o;
}

/* ---------------- intervals ---------------- */

void stat_print_interval(void *printer, double seconds, const struct stat_counts *c)
{
	struct stat_printer *p = printer;
	struct counted cnt = { c->total.v, c->total.n, seconds - p->last_s, true };
	size_t nmv = p->metrics ? p->metrics->n : 0;
	struct metric_value *mv = calloc(nmv + 1, sizeof(*mv));

	if (!mv)
		return;
	if (nmv && metrics_eval(p->ctx, p->metrics, &cnt, mv) < 0)
		nmv = 0;
	if (p->format == FMT_CSV || p->format == FMT_JSON_LINES) {
		lines(p, seconds, c, cnt.seconds * 1e9, 1, mv, nmv);
	} else if (p->format == FMT_JSON) {
		json_object *o = json_object_new_object(), *arr = json_object_new_array();
		json_object *units;
		json_object_object_add(o, "time_s", jfmt("%.9f", seconds));
		counts_json(o, c);
		if (json_object_object_get_ex(o, "units", &units))
			stat_print_json_group_metrics(p, units, c, cnt.seconds);
		for (size_t i = 0; i < nmv; i++)
			json_object_array_add(arr, metric_json(&mv[i]));
		if (nmv)
			json_object_object_add(o, "metrics", arr);
		else
			json_object_put(arr);
		if (!p->intervals)
			p->intervals = json_object_new_array();
		json_object_array_add(p->intervals, o);
	} else {
		for (size_t u = 0; !p->metric_only && u < c->nunits; u++)
			text_interval(p, seconds, &c->units[u].rows, &c->units[u]);
		if (!p->metric_only && !c->nunits)
			text_interval(p, seconds, &c->total, NULL);
		for (size_t u = 0; grouped(c) && u < c->nunits; u++) {
			const struct stat_unit *un = &c->units[u];
			struct metric_value *gmv = group_metrics(p, un, cnt.seconds);
			for (size_t i = 0; gmv && i < nmv; i++)
				if (gmv[i].why)
					fprintf(p->f, " %15.9f %-*s %4zu %18s  %s: %s\n", seconds, aggr_mode_width(un->mode),
						un->group->text, un->group->ncpus, "n/a", gmv[i].name, gmv[i].why);
				else
					fprintf(p->f, " %15.9f %-*s %4zu %18.3f  %s%s%s\n", seconds, aggr_mode_width(un->mode),
						un->group->text, un->group->ncpus, gmv[i].value, gmv[i].name,
						*gmv[i].unit ? " " : "", gmv[i].unit);
			if (gmv)
				metric_values_free(gmv, nmv);
		}
		for (size_t i = 0; !grouped(c) && i < nmv; i++)
			if (mv[i].why)
				fprintf(p->f, " %15.9f %18s  %s: %s\n", seconds, "n/a", mv[i].name, mv[i].why);
			else
				fprintf(p->f, " %15.9f %18.3f  %s%s%s\n", seconds, mv[i].value, mv[i].name,
					*mv[i].unit ? " " : "", mv[i].unit);
	}
	fflush(p->f);
	metric_values_free(mv, nmv);
	p->last_s = seconds;
}
