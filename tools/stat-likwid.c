/* SPDX-License-Identifier: MIT */
/* pmu stat -g GROUP: a performance group printed as likwid-perfctr prints it (see stat-likwid.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "analysis.h"
#include "stat-aggr.h"
#include "stat-likwid.h"
#include "util.h"

/* A column: the total, or one unit (a CPU, a thread, a socket). */
struct column {
	const struct stat_rows *rows;
	char label[64];
};

/* The columns of @c: each unit, or the total alone. NULL when memory ran out. */
static struct column *columns(const struct stat_counts *c, size_t *n)
{
	size_t k = c->nunits ? c->nunits : 1;
	struct column *col = calloc(k, sizeof(*col));

	if (!col)
		return NULL;
	*n = k;
	if (!c->nunits) {
		col[0].rows = &c->total;
		snprintf(col[0].label, sizeof(col[0].label), "Total");
		return col;
	}
	for (size_t u = 0; u < k; u++) {
		const struct stat_unit *un = &c->units[u];
		col[u].rows = &un->rows;
		if (un->group)
			snprintf(col[u].label, sizeof(col[u].label), "%s", un->group->text);
		else if (un->cpu >= 0)
			snprintf(col[u].label, sizeof(col[u].label), "HWThread %d", un->cpu);
		else
			snprintf(col[u].label, sizeof(col[u].label), "%s-%d", un->comm, un->tid);
	}
	return col;
}

/* The row of event @event in @rs, or NULL (not counted). */
static const struct stat_row *row_of(const struct stat_rows *rs, const char *event)
{
	if (!rs->index || !*event)
		return NULL;
	/* the row of that name; else one that is the event with modifiers the set added (":u") */
	json_object_object_foreach(rs->index, key, val) {
		if (!strcasecmp(key, event))
			return &rs->v[json_object_get_int64(val)];
	}
	json_object_object_foreach(rs->index, k2, v2) {
		if (label_is(k2, event))
			return &rs->v[json_object_get_int64(v2)];
	}
	return NULL;
}

/* An event's value as likwid-perfctr shows it: the count scaled to the time enabled, LIKWID's PWR
 * counters in joules (the row's unit scale); NAN where not counted. */
static double event_value(const struct stat_rows *rs, const struct pmu_group_event *e)
{
	const struct stat_row *r = e->event ? row_of(rs, e->event) : NULL;
	double v;

	if (!r || !r->supported)
		return NAN;
	v = (double)pmu_scale(&r->v);
	if (!strncmp(e->counter, "PWR", 3) && r->unit_scale > 0)
		v *= r->unit_scale;
	return v;
}

/* The group's metrics over @rows: @out[i] (NAN and why where none). 0 or -1 (memory). */
static int metric_values(struct pmu_ctx *ctx, const struct pmu_group_info *gi, const struct stat_rows *rows,
			 double seconds, double *out, char **why)
{
	struct strv ms = { NULL, 0 };
	struct counted cnt = { rows->v, rows->n, seconds, true };
	struct metric_value *mv;
	size_t *at = calloc(gi->nmetrics + 1, sizeof(*at));

	if (!at)
		return -1;
	for (size_t i = 0; i < gi->nmetrics; i++) {
		out[i] = NAN;
		why[i] = NULL;
		if (!gi->metric[i].expr) {
			why[i] = strdup(gi->metric[i].why ? gi->metric[i].why : "not mapped");
			continue;
		}
		at[i] = ms.n + 1;
		if (strv_add(&ms, gi->metric[i].expr, strlen(gi->metric[i].expr)) < 0)
			goto nomem;
	}
	mv = calloc(ms.n + 1, sizeof(*mv));
	if (!mv || metrics_eval(ctx, &ms, &cnt, mv) < 0) {
		free(mv);
		goto nomem;
	}
	for (size_t i = 0; i < gi->nmetrics; i++)
		if (at[i]) {
			const struct metric_value *m = &mv[at[i] - 1];
			if (m->why)
				why[i] = strdup(m->why);
			else
				out[i] = m->value;
		}
	metric_values_free(mv, ms.n);
	strv_free(&ms);
	free(at);
	return 0;
nomem:
	strv_free(&ms);
	free(at);
	return -1;
}

static void rule(FILE *f, const int *w, int n)
{
	for (int i = 0; i < n; i++) {
		fputc('+', f);
		for (int k = 0; k < w[i] + 2; k++)
			fputc('-', f);
	}
	fputs("+\n", f);
}

/* A cell centred in @w, as likwid-perfctr centres them. */
static void cell(FILE *f, int w, const char *s)
{
	int l = (int)strlen(s), left = (w - l) / 2;

	if (l > w)
		left = 0;
	fprintf(f, "| %*s%s%*s ", left, "", s, w - l - left > 0 ? w - l - left : 0, "");
}

static void num(char *buf, size_t len, double v, bool count)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else if (count && v == floor(v) && fabs(v) < 1e15)
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.10g", v);
}

static void row(FILE *f, const int *w, int n, const char *const *cells)
{
	for (int i = 0; i < n; i++)
		cell(f, w[i], cells[i]);
	fputs("|\n", f);
}

/* One table: a header row and @nr rows of @nc cells (cells[r * nc + c]). */
static void table(FILE *f, const char *const *head, char **cells, int nr, int nc)
{
	int w[64];

	nc = nc > 64 ? 64 : nc;
	for (int c = 0; c < nc; c++) {
		w[c] = (int)strlen(head[c]);
		for (int r = 0; r < nr; r++)
			if ((int)strlen(cells[r * nc + c]) > w[c])
				w[c] = (int)strlen(cells[r * nc + c]);
	}
	rule(f, w, nc);
	row(f, w, nc, head);
	rule(f, w, nc);
	for (int r = 0; r < nr; r++)
		row(f, w, nc, (const char *const *)&cells[r * nc]);
	rule(f, w, nc);
}

static void cells_free(char **cells, size_t n)
{
	for (size_t i = 0; cells && i < n; i++)
		free(cells[i]);
	free(cells);
}

/* Sum, Min, Max, Avg of @v[0..n) over the values that are numbers, into cells @out[0..4) */
static int stats(const double *v, size_t n, bool count, char **out)
{
	double s = 0, lo = INFINITY, hi = -INFINITY;
	size_t k = 0;
	char b[4][48];

	for (size_t i = 0; i < n; i++)
		if (!isnan(v[i])) {
			s += v[i];
			lo = v[i] < lo ? v[i] : lo;
			hi = v[i] > hi ? v[i] : hi;
			k++;
		}
	num(b[0], sizeof(b[0]), k ? s : NAN, count);
	num(b[1], sizeof(b[1]), k ? lo : NAN, count);
	num(b[2], sizeof(b[2]), k ? hi : NAN, count);
	num(b[3], sizeof(b[3]), k ? s / (double)k : NAN, false);
	for (int i = 0; i < 4; i++)
		if (!(out[i] = strdup(b[i])))
			return -1;
	return 0;
}

int stat_likwid_text(FILE *f, struct pmu_ctx *ctx, const struct pmu_group *g, const struct stat_counts *c,
		     double seconds)
{
	const struct pmu_group_info *gi = pmu_group_info(g);
	size_t ncol, ne = gi->nevents, nm = gi->nmetrics;
	struct column *col = columns(c, &ncol);
	const char *head[66];
	char **cells = NULL, **why = NULL, buf[64];
	double *ev = NULL, *mv = NULL;
	int r = -1;

	if (!col || ncol > 62)
		goto out;
	ev = calloc(ne * ncol + 1, sizeof(*ev));
	mv = calloc(nm * ncol + 1, sizeof(*mv));
	why = calloc(nm * ncol + 1, sizeof(*why));
	cells = calloc((ne + nm) * (ncol + 2) + 1, sizeof(*cells));
	if (!ev || !mv || !why || !cells)
		goto out;
	for (size_t k = 0; k < ncol; k++) {
		double tmp[nm + 1];
		char *tw[nm + 1];
		for (size_t i = 0; i < ne; i++)
			ev[i * ncol + k] = event_value(col[k].rows, &gi->event[i]);
		if (metric_values(ctx, gi, col[k].rows, seconds, tmp, tw) < 0)
			goto out;
		for (size_t i = 0; i < nm; i++) {
			mv[i * ncol + k] = tmp[i];
			why[i * ncol + k] = tw[i];
		}
	}
	fprintf(f, "--------------------------------------------------------------------------------\n");
	fprintf(f, "Group 1: %s\n", gi->name);
	/* the events */
	head[0] = "Event";
	head[1] = "Counter";
	for (size_t k = 0; k < ncol; k++)
		head[2 + k] = col[k].label;
	for (size_t i = 0; i < ne; i++) {
		char **rw = &cells[i * (ncol + 2)];
		rw[0] = strdup(gi->event[i].likwid);
		rw[1] = strdup(gi->event[i].counter);
		for (size_t k = 0; k < ncol; k++) {
			num(buf, sizeof(buf), ev[i * ncol + k], strncmp(gi->event[i].counter, "PWR", 3) != 0);
			rw[2 + k] = strdup(buf);
		}
	}
	table(f, head, cells, (int)ne, (int)ncol + 2);
	cells_free(cells, ne * (ncol + 2));
	cells = calloc((ne + nm) * 6 + nm * (ncol + 1) + 1, sizeof(*cells));
	if (!cells)
		goto out;
	/* several columns: likwid-perfctr's STAT table of the events */
	if (ncol > 1) {
		const char *sh[6] = { "Event", "Counter", "Sum", "Min", "Max", "Avg" };
		for (size_t i = 0; i < ne; i++) {
			char **rw = &cells[i * 6];
			snprintf(buf, sizeof(buf), "%s STAT", gi->event[i].likwid);
			rw[0] = strdup(buf);
			rw[1] = strdup(gi->event[i].counter);
			if (stats(&ev[i * ncol], ncol, strncmp(gi->event[i].counter, "PWR", 3) != 0, rw + 2) < 0)
				goto out;
		}
		table(f, sh, cells, (int)ne, 6);
		cells_free(cells, ne * 6);
		cells = calloc((ne + nm) * 6 + nm * (ncol + 1) + 1, sizeof(*cells));
		if (!cells)
			goto out;
	}
	/* the metrics */
	head[0] = "Metric";
	for (size_t k = 0; k < ncol; k++)
		head[1 + k] = col[k].label;
	for (size_t i = 0; i < nm; i++) {
		char **rw = &cells[i * (ncol + 1)];
		if (*gi->metric[i].unit)
			snprintf(buf, sizeof(buf), "%s [%s]", gi->metric[i].name, gi->metric[i].unit);
		else
			snprintf(buf, sizeof(buf), "%s", gi->metric[i].name);
		rw[0] = strdup(buf);
		for (size_t k = 0; k < ncol; k++) {
			num(buf, sizeof(buf), mv[i * ncol + k], false);
			rw[1 + k] = strdup(buf);
		}
	}
	table(f, head, cells, (int)nm, (int)ncol + 1);
	cells_free(cells, nm * (ncol + 1));
	cells = NULL;
	if (ncol > 1) {
		const char *sh[5] = { "Metric", "Sum", "Min", "Max", "Avg" };
		cells = calloc(nm * 5 + 1, sizeof(*cells));
		if (!cells)
			goto out;
		for (size_t i = 0; i < nm; i++) {
			char **rw = &cells[i * 5];
			if (*gi->metric[i].unit)
				snprintf(buf, sizeof(buf), "%s [%s] STAT", gi->metric[i].name, gi->metric[i].unit);
			else
				snprintf(buf, sizeof(buf), "%s STAT", gi->metric[i].name);
			rw[0] = strdup(buf);
			if (stats(&mv[i * ncol], ncol, false, rw + 1) < 0)
				goto out;
		}
		table(f, sh, cells, (int)nm, 5);
		cells_free(cells, nm * 5);
		cells = NULL;
	}
	/* why a metric has no value (once per metric) */
	for (size_t i = 0; i < nm; i++)
		for (size_t k = 0; k < ncol; k++)
			if (why[i * ncol + k]) {
				fprintf(f, "%s: n/a: %s\n", gi->metric[i].name, why[i * ncol + k]);
				break;
			}
	fprintf(f, "inverseClock: %s\n", gi->clock);
	r = 0;
out:
	free(cells);
	for (size_t i = 0; why && i < nm * ncol; i++)
		free(why[i]);
	free(why);
	free(ev);
	free(mv);
	free(col);
	return r;
}

/* {"events": [...], "metrics": [...]} of one column */
static json_object *column_json(struct pmu_ctx *ctx, const struct pmu_group_info *gi, const struct stat_rows *rows,
				double seconds, bool full)
{
	json_object *o = json_object_new_object(), *ea = json_object_new_array(), *ma = json_object_new_array();
	double *mv = calloc(gi->nmetrics + 1, sizeof(*mv));
	char **why = calloc(gi->nmetrics + 1, sizeof(*why));

	if (mv && why && metric_values(ctx, gi, rows, seconds, mv, why) == 0) {
		for (size_t i = 0; i < gi->nevents; i++) {
			const struct pmu_group_event *e = &gi->event[i];
			json_object *x = json_object_new_object();
			double v = event_value(rows, e);
			json_object_object_add(x, "counter", json_object_new_string(e->counter));
			if (full) {
				json_object_object_add(x, "likwid", json_object_new_string(e->likwid));
				json_object_object_add(x, "event", e->event ? json_object_new_string(e->event) : NULL);
			}
			/* counts as integers, as the document's events; LIKWID's PWR counters in joules */
			json_object_object_add(x, "value", isnan(v) ? NULL : strncmp(e->counter, "PWR", 3) && v == floor(v) &&
					       fabs(v) < 9e15 ? json_object_new_int64((int64_t)v) : jnum(v));
			json_object_array_add(ea, x);
		}
		for (size_t i = 0; i < gi->nmetrics; i++) {
			const struct pmu_group_metric *m = &gi->metric[i];
			json_object *x = json_object_new_object();
			json_object_object_add(x, "name", json_object_new_string(m->name));
			if (full) {
				json_object_object_add(x, "unit", json_object_new_string(m->unit));
				json_object_object_add(x, "formula", json_object_new_string(m->formula));
				json_object_object_add(x, "expr", m->expr ? json_object_new_string(m->expr) : NULL);
			}
			json_object_object_add(x, "value", why[i] || isnan(mv[i]) ? NULL : jnum(mv[i]));
			if (why[i])
				json_object_object_add(x, "error", json_object_new_string(why[i]));
			json_object_array_add(ma, x);
		}
	}
	for (size_t i = 0; why && i < gi->nmetrics; i++)
		free(why[i]);
	free(why);
	free(mv);
	json_object_object_add(o, "events", ea);
	json_object_object_add(o, "metrics", ma);
	return o;
}

json_object *stat_likwid_json(struct pmu_ctx *ctx, const struct pmu_group *g, const struct stat_counts *c,
			      double seconds)
{
	const struct pmu_group_info *gi = pmu_group_info(g);
	json_object *o = column_json(ctx, gi, &c->total, seconds, true);
	size_t ncol;
	struct column *col;

	json_object_object_add(o, "name", json_object_new_string(gi->name));
	json_object_object_add(o, "arch", json_object_new_string(gi->arch));
	json_object_object_add(o, "file", json_object_new_string(gi->path));
	json_object_object_add(o, "inverse_clock", json_object_new_string(gi->clock));
	if (c->nunits && (col = columns(c, &ncol))) {
		json_object *ua = json_object_new_array();
		for (size_t k = 0; k < ncol; k++) {
			json_object *u = column_json(ctx, gi, col[k].rows, seconds, false);
			json_object_object_add(u, "id", json_object_new_string(col[k].label));
			json_object_array_add(ua, u);
		}
		json_object_object_add(o, "units", ua);
		free(col);
	}
	return o;
}

void stat_likwid_csv(FILE *f, const char *sep, struct pmu_ctx *ctx, const struct pmu_group *g,
		     const struct stat_counts *c, double seconds)
{
	const struct pmu_group_info *gi = pmu_group_info(g);
	size_t ncol;
	struct column *col = columns(c, &ncol);
	double *mv = calloc(gi->nmetrics + 1, sizeof(*mv));
	char **why = calloc(gi->nmetrics + 1, sizeof(*why)), buf[64];

	for (size_t k = 0; col && mv && why && k < ncol; k++) {
		if (metric_values(ctx, gi, col[k].rows, seconds, mv, why) < 0)
			break;
		for (size_t i = 0; i < gi->nmetrics; i++) {
			num(buf, sizeof(buf), why[i] ? NAN : mv[i], false);
			fprintf(f, "%s%s%s%s%s%s%s\n", gi->metric[i].name, sep, gi->metric[i].unit, sep,
				why[i] ? "<not counted>" : buf, sep, col[k].label);
			free(why[i]);
			why[i] = NULL;
		}
	}
	free(why);
	free(mv);
	free(col);
}
