/* SPDX-License-Identifier: MIT */
/*
 * Regions: results and reports. pmu_region_foreach() sums each name's
 * slots over threads (and per thread); pmu_region_report() writes them as
 * text, CSV or JSON (schema libpmu-regions/1, with json-c) to a file
 * (region-output.c chooses it), stdout or stderr.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <json-c/json.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "pmu.h"
#include "common.h"
#include "error.h"
#include "outtext.h"
#include "region.h"
#include "resultfile.h"
#include "textfmt.h"
#include "util.h"

/* A report's column: value ev of the threads' sets, the total R.tot[tot] of a name counted on each core
 * PMU (after its last part), or socket-wide value sock (region-socket.c, after the rest); -1 the others. */
struct column {
	int ev, tot, sock;
};

struct result_buf {
	struct pmu_region_result r;
	struct pmu_value values[REG_MAX_COL];
	uint64_t min[REG_MAX_COL], max[REG_MAX_COL];
	const char *events[REG_MAX_COL];
};

/* The columns, their names and events (a total: its last part's, named as listed, its PMUs the parts');
 * returns how many. */
static size_t columns(struct column *cols, const char **out, struct pmu_event_info *infos)
{
	size_t c = 0;

	for (size_t k = 0; k < R.nev; k++) {
		cols[c] = (struct column){ (int)k, -1, -1 };
		infos[c] = R.infos[k];
		out[c] = infos[c].name;
		c++;
		for (size_t t = 0; t < R.ntot; t++) {
			struct pmu_event_info *in = &infos[c];
			bool counted = false;
			if (R.tot[t].last != k)
				continue;
			cols[c] = (struct column){ -1, (int)t, -1 };
			*in = R.infos[k];
			pmu__strlcpy(in->name, R.tot[t].name, sizeof(in->name));
			in->pmu[0] = 0;
			for (size_t j = 0; j <= k; j++)
				if (R.tot[t].parts >> j & 1) {
					counted = counted || !(R.infos[j].flags & PMU_EVF_UNSUPPORTED);
					pmu__list_add(in->pmu, sizeof(in->pmu), R.infos[j].pmu);
				}
			in->flags &= ~(unsigned)(PMU_EVF_HYBRID_PART | PMU_EVF_UNSUPPORTED);
			if (!counted)
				in->flags |= PMU_EVF_UNSUPPORTED;
			out[c] = in->name;
			c++;
		}
	}
	for (size_t j = 0; j < R.nsock; j++) {
		cols[c] = (struct column){ -1, -1, (int)j };
		infos[c] = R.sinfos[j];
		out[c] = infos[c].name;
		c++;
	}
	return c;
}

static void add_slot(struct result_buf *b, const struct slot *s, const struct column *cols, size_t ncol)
{
	b->r.calls += s->calls;
	for (size_t c = 0; c < ncol; c++) {
		uint64_t lo, hi;
		if (cols[c].sock >= 0)
			continue; /* the name's, not a thread's: add_sock */
		if (cols[c].ev >= 0) {
			size_t k = (size_t)cols[c].ev;
			b->values[c].value += s->sum[k].value;
			b->values[c].enabled += s->sum[k].enabled;
			b->values[c].running += s->sum[k].running;
			lo = s->min[k];
			hi = s->max[k];
		} else {
			size_t t = (size_t)cols[c].tot;
			for (size_t k = 0; k < R.nev; k++)
				if (R.tot[t].parts >> k & 1) {
					b->values[c].value += s->sum[k].value;
					b->values[c].enabled += s->sum[k].enabled;
					b->values[c].running += s->sum[k].running;
				}
			lo = s->tmin[t];
			hi = s->tmax[t];
		}
		if (s->calls && lo < b->min[c])
			b->min[c] = lo;
		if (hi > b->max[c])
			b->max[c] = hi;
	}
}

/* Name @n's socket-wide values into @b (its row over threads). */
static void add_sock(struct result_buf *b, const struct region_name *n, const struct column *cols, size_t ncol)
{
	const struct region_sock *k = n->sock;

	for (size_t c = 0; k && c < ncol; c++) {
		if (cols[c].sock < 0)
			continue;
		b->values[c] = k->sum[cols[c].sock];
		b->min[c] = k->min[cols[c].sock];
		b->max[c] = k->max[cols[c].sock];
	}
	b->r.intervals = k ? k->intervals : 0;
}

static void buf_init(struct result_buf *b, const char *name, long tid, size_t ncol, const char *const *events,
		     const struct pmu_event_info *infos, const struct column *cols)
{
	/* the @ncol columns only: a report makes a buffer per row, and the whole one is 1.2 KB */
	memset(&b->r, 0, sizeof(b->r));
	memset(b->values, 0, ncol * sizeof(b->values[0]));
	memset(b->max, 0, ncol * sizeof(b->max[0]));
	for (size_t c = 0; c < ncol; c++) {
		if (infos[c].flags & PMU_EVF_UNSUPPORTED)
			b->r.unsupported |= 1u << c;
		if (cols[c].sock >= 0)
			b->r.socket_wide |= 1u << c;
		b->min[c] = UINT64_MAX;
		b->events[c] = events[c];
	}
	b->r.name = name;
	b->r.tid = tid;
	b->r.nvalues = ncol;
	b->r.events = b->events;
	b->r.values = b->values;
	b->r.min = b->min;
	b->r.max = b->max;
}

/* Hand @b to @cb: a minimum never taken (no completed call) is 0. Counts it in *count. */
static int emit(struct result_buf *b, size_t nev, pmu_region_cb cb, void *data, int *count)
{
	for (size_t k = 0; k < nev; k++)
		if (b->min[k] == UINT64_MAX)
			b->min[k] = 0;
	(*count)++;
	return cb(&b->r, data);
}

/* The columns of a report (under R.lock). */
struct report_cols {
	struct column cols[REG_MAX_COL];
	const char *events[REG_MAX_COL];
	struct pmu_event_info infos[REG_MAX_COL];
	size_t n;
};

/* under R.lock */
static int foreach_locked(int per_thread, pmu_region_cb cb, void *data, const struct report_cols *rc)
{
	struct result_buf b;
	int count = 0, r;

	/* each slot once: a name's slots are its chain (every thread kept) and its folded totals */
	for (size_t id = 0; id < R.nnames; id++) {
		const struct region_name *n = &R.names[id];
		if (!strcmp(n->name, CAL_NAME))
			continue;
		buf_init(&b, n->name, -1, rc->n, rc->events, rc->infos, rc->cols);
		for (const struct slot *s = n->chain; s; s = s->name_next)
			add_slot(&b, s, rc->cols, rc->n);
		if (n->folded)
			add_slot(&b, n->folded, rc->cols, rc->n);
		add_sock(&b, n, rc->cols, rc->n);
		if (!b.r.calls)
			continue; /* never completed, or forgotten by pmu_region_reset() */
		if ((r = emit(&b, rc->n, cb, data, &count)))
			return r;
		if (!per_thread)
			continue;
		for (const struct slot *s = n->chain; s; s = s->name_next) {
			buf_init(&b, n->name, s->ts->tid, rc->n, rc->events, rc->infos, rc->cols);
			add_slot(&b, s, rc->cols, rc->n);
			if ((r = emit(&b, rc->n, cb, data, &count)))
				return r;
		}
		if (n->folded && n->folded->calls) { /* the threads folded: one row, tid 0 */
			buf_init(&b, n->name, 0, rc->n, rc->events, rc->infos, rc->cols);
			add_slot(&b, n->folded, rc->cols, rc->n);
			if ((r = emit(&b, rc->n, cb, data, &count)))
				return r;
		}
	}
	return count;
}

PMU_EXPORT int pmu_region_foreach(int per_thread, pmu_region_cb cb, void *data)
{
	struct report_cols rc;
	int r;

	if (!cb)
		return -EINVAL;
	pthread_mutex_lock(&R.lock);
	rc.n = columns(rc.cols, rc.events, rc.infos);
	r = foreach_locked(per_thread, cb, data, &rc);
	pthread_mutex_unlock(&R.lock);
	return r;
}

struct writer {
	FILE *f;
	int format;
	int scaled;                     /* text: some value was multiplexed and scaled */
	int namew;                      /* text: width of the region column (the longest name) */
	int colw[REG_MAX_COL];          /* text: width of each column (its label) */
	double uscale[REG_MAX_COL];     /* a count in fractions of its unit (PMU_EVF_SCALED): the factor
					 * (pmu_event_scale(): 64 a CAS's bytes, 2^-32 RAPL's joules); else 0 */
	const struct pmu_event_info *infos;
	json_object *regions;           /* json: the regions array */
	json_object *threads;           /* json: the current region's per-thread array */
};

/* Is value @k of @r shown in its row? A socket-wide value is the name's: in a thread's row, no. */
static bool shown(const struct pmu_region_result *r, size_t k)
{
	return r->tid == -1 || !(r->socket_wide >> k & 1);
}

/* The wall time, in seconds, of the intervals the name's socket-wide values were counted over (row @r,
 * over threads): the first such value's enabled time, of the first counted one with @counted; -1 where
 * the row has none. */
static double socket_seconds(const struct pmu_region_result *r, bool counted)
{
	for (size_t k = 0; r->tid == -1 && k < r->nvalues; k++)
		if ((r->socket_wide >> k & 1) && !(counted && (r->unsupported >> k & 1)))
			return (double)r->values[k].enabled / 1e9;
	return -1;
}

/* The metrics named in PMU_EVENTS, evaluated on @r's counts (@infos: its columns' events): @fn(name,
 * value, data) for each, the value NAN where it cannot be evaluated. Tool events (duration_time) in
 * seconds, as perf's metrics use them; with socket-wide values, duration_time is their intervals' wall
 * time (the first such value's enabled time), found before a thread's. */
static void each_metric(const struct pmu_region_result *r, const struct pmu_event_info *infos,
			void (*fn)(const char *m, double v, void *data), void *data)
{
	struct pmu_named_value nv[REG_MAX_COL + 1];
	char *copy = R.metrics ? strdup(R.metrics) : NULL, *save = NULL;
	double sock = socket_seconds(r, true);
	size_t n = 0;

	if (sock >= 0) {
		nv[n].name = "duration_time";
		nv[n++].value = sock;
	}
	for (size_t k = 0; k < r->nvalues; k++) {
		if (!shown(r, k))
			continue;
		nv[n].name = r->events[k];
		nv[n].value = (double)pmu_scale(&r->values[k]);
		if (infos[k].flags & PMU_EVF_TOOL)
			nv[n].value /= 1e9;
		n++;
	}
	for (char *m = copy ? strtok_r(copy, ",", &save) : NULL; m; m = strtok_r(NULL, ",", &save)) {
		double v;
		if (pmu_metric_eval(R.ctx, m, nv, n, &v) < 0)
			v = NAN;
		fn(m, v, data);
	}
	free(copy);
	for (size_t k = 0; k < R.ngmetrics; k++) { /* a group's, by its label */
		double v;
		if (!R.gmetrics[k].expr || pmu_metric_eval(R.ctx, R.gmetrics[k].expr, nv, n, &v) < 0)
			v = NAN;
		fn(R.gmetrics[k].label, v, data);
	}
}

/* Event @k of @r as counted, or NULL when it could not be counted here: never counted, which every
 * form says the same way (text "<not counted>", JSON null, CSV confidence 0 with zeros). Its values
 * are 0, of which pmu_confidence() would say 1.0 ("nothing known"): the bit decides, not the values. */
static const struct pmu_value *counted_value(const struct pmu_region_result *r, size_t k)
{
	return r->unsupported >> k & 1 ? NULL : &r->values[k];
}

/* ---- CSV (RFC 4180 cells, no formulas: pmu__csv_cell) ---- */

static void write_csv(const struct pmu_region_result *r, const struct writer *w)
{
	for (size_t k = 0; k < r->nvalues; k++) {
		if (!shown(r, k))
			continue;
		pmu__csv_cell(w->f, r->name);
		fprintf(w->f, ",%ld,%llu,", r->tid, (unsigned long long)r->calls);
		pmu__csv_cell(w->f, r->events[k]);
		const struct pmu_value *v = counted_value(r, k);
		fprintf(w->f, ",%llu,%llu,%llu,%llu,%.6f,%llu,%llu,%d,%s,",  (unsigned long long)r->values[k].value,
			(unsigned long long)pmu_scale(&r->values[k]), (unsigned long long)r->values[k].enabled,
			(unsigned long long)r->values[k].running, v ? pmu_confidence(v) : 0.0, (unsigned long long)r->min[k],
			(unsigned long long)r->max[k], !v, r->socket_wide >> k & 1 ? "socket" : "thread");
		pmu__csv_cell(w->f, w->uscale[k] ? w->infos[k].unit : "");
		fprintf(w->f, ",%.17g\n", w->uscale[k] ? w->uscale[k] : 1.0);
	}
}

/* ---- JSON (schema libpmu-regions/1, written with json-c) ---- */

static json_object *json_fixed(double v, const char *fmt)
{
	char buf[64];
	snprintf(buf, sizeof(buf), fmt, v);
	return json_object_new_double_s(v, buf);
}

static json_object *json_events(const struct pmu_region_result *r, const struct writer *w)
{
	json_object *o = json_object_new_object();

	for (size_t k = 0; o && k < r->nvalues; k++) {
		const struct pmu_value *v = counted_value(r, k);
		json_object *e = NULL;
		if (!shown(r, k))
			continue;
		if (v && (e = json_object_new_object())) {
			json_object_object_add(e, "value", json_object_new_uint64(v->value));
			json_object_object_add(e, "scaled", json_object_new_uint64(pmu_scale(v)));
			json_object_object_add(e, "enabled_ns", json_object_new_uint64(v->enabled));
			json_object_object_add(e, "running_ns", json_object_new_uint64(v->running));
			json_object_object_add(e, "confidence", json_fixed(pmu_confidence(v), "%.6f"));
			json_object_object_add(e, "min", json_object_new_uint64(r->min[k]));
			json_object_object_add(e, "max", json_object_new_uint64(r->max[k]));
			if (w->uscale[k]) { /* the counts are of fractions of the unit: what one is */
				json_object_object_add(e, "unit", json_object_new_string(w->infos[k].unit));
				json_object_object_add(e, "unit_scale", json_object_new_double(w->uscale[k]));
			}
		}
		json_object_object_add(o, r->events[k], e); /* NULL: null, not counted here */
	}
	return o;
}

static void json_metric(const char *m, double v, void *data)
{
	json_object_object_add(data, m, isfinite(v) ? json_fixed(v, "%.9g") : NULL);
}

static void write_json(const struct pmu_region_result *r, struct writer *w)
{
	json_object *o = json_object_new_object();

	if (!o)
		return;
	if (r->tid == -1) {
		json_object *m = json_object_new_object();
		json_object_object_add(o, "name", json_object_new_string(r->name));
		json_object_object_add(o, "calls", json_object_new_uint64(r->calls));
		if (r->socket_wide)
			json_object_object_add(o, "socket_intervals", json_object_new_uint64(r->intervals));
		json_object_object_add(o, "events", json_events(r, w));
		if (m)
			each_metric(r, w->infos, json_metric, m);
		json_object_object_add(o, "metrics", m);
		json_object_object_add(o, "threads", w->threads = json_object_new_array());
		json_object_array_add(w->regions, o);
	} else if (!w->threads) {
		json_object_put(o); /* out of memory for the region's thread list */
	} else {
		json_object_object_add(o, "tid", json_object_new_int64(r->tid));
		json_object_object_add(o, "calls", json_object_new_uint64(r->calls));
		json_object_object_add(o, "events", json_events(r, w));
		json_object_array_add(w->threads, o);
	}
}

/* The rank as JSON: a number when it is one (decimal digits), else the string as given; null when none. */
static json_object *json_rank(void)
{
	const char *v = pmu__region_rank();
	char *end;
	long long n;

	if (!v)
		return NULL;
	errno = 0;
	n = strtoll(v, &end, 10);
	if (isdigit((unsigned char)v[0]) && !*end && !errno)
		return json_object_new_int64(n);
	return json_object_new_string(v);
}

static json_object *json_header(int nthreads, const char *const *events, size_t nev)
{
	json_object *o = json_object_new_object(), *ev = json_object_new_array();
	struct pmu_caps c;

	if (!o || !ev) {
		json_object_put(o);
		json_object_put(ev);
		return NULL;
	}
	pmu_caps(R.ctx, &c);
	json_object_object_add(o, "schema", json_object_new_string("libpmu-regions/1"));
	json_object_object_add(o, "version", json_object_new_string(pmu_version()));
	json_object_object_add(o, "pid", json_object_new_int64((long)getpid()));
	json_object_object_add(o, "rank", json_rank());
	json_object_object_add(o, "cpuid", json_object_new_string(c.cpuid));
	json_object_object_add(o, "threads", json_object_new_int(nthreads));
	json_object_object_add(o, "calibrated", json_object_new_boolean(R.calibrate));
	for (size_t k = 0; k < nev; k++)
		json_object_array_add(ev, json_object_new_string(events[k]));
	json_object_object_add(o, "events", ev);
	if (R.nsock) { /* the events counted for the process, not the thread (region-socket.c) */
		json_object *sw = json_object_new_array();
		for (size_t j = 0; sw && j < R.nsock; j++)
			json_object_array_add(sw, json_object_new_string(R.sinfos[j].name));
		json_object_object_add(o, "socket_wide", sw);
	}
	return o;
}

/* ---- text ---- */

static void text_metric(const char *m, double v, void *data)
{
	struct pmu_metric_info mi;
	const char *unit = "";
	double factor = 1;

	if (pmu_metric_info(R.ctx, m, &mi) == 0)
		factor = pmu__scale_unit(mi.scale_unit, &unit);
	if (v == v)
		fprintf(data, "   %-40s %14.3f %s\n", m, v * factor, unit);
	else
		fprintf(data, "   %-40s  n/a\n", m);
}

/* A text cell of @v in its unit (the count times @scale): 1 when it was scaled for multiplexing. */
static int unit_cell(FILE *f, int w, const struct pmu_value *v, double scale)
{
	int scaled = pmu_confidence(v) < 1.0;

	fprintf(f, " %*.2f%s", w - 1, (double)pmu_scale(v) * scale, scaled ? "*" : " ");
	return scaled;
}

static void write_text(const struct pmu_region_result *r, struct writer *w)
{
	char name[REG_NAME_MAX * 4 + 1];
	double sock;

	if (r->tid == -1) /* the name as bytes a terminal shows, not acts on */
		fprintf(w->f, " %-*s %10llu", w->namew, pmu__printable(name, sizeof(name), r->name),
			(unsigned long long)r->calls);
	else if (r->tid == 0) /* the threads folded */
		fprintf(w->f, "   %-*s %10llu", w->namew - 2, "threads exited", (unsigned long long)r->calls);
	else
		fprintf(w->f, "   thread %-*ld %10llu", w->namew - 9, r->tid, (unsigned long long)r->calls);
	for (size_t k = 0; k < r->nvalues; k++) {
		if (shown(r, k) && w->uscale[k] && counted_value(r, k)) /* in its unit, as pmu stat shows it */
			w->scaled |= unit_cell(w->f, w->colw[k], &r->values[k], w->uscale[k]);
		else if (shown(r, k))
			w->scaled |= pmu__text_count_cell(w->f, w->colw[k], counted_value(r, k));
		else
			fprintf(w->f, " %*s", w->colw[k], "-");
	}
	fprintf(w->f, "\n");
	if ((sock = socket_seconds(r, false)) >= 0) /* the intervals the [socket] values were counted over */
		fprintf(w->f, "   [socket] %llu interval%s, %.6f s\n", (unsigned long long)r->intervals,
			r->intervals == 1 ? "" : "s", sock);
	if (r->tid == -1)
		each_metric(r, w->infos, text_metric, w->f);
}

/* The column header of event @k: its name, its unit when it has one ("task-clock (ns)"), "[socket]" when
 * it is socket-wide. */
static int text_label(char *buf, size_t len, const char *name, const struct pmu_event_info *info, bool socket)
{
	const char *sw = socket ? " [socket]" : "";

	if (info->unit && info->unit[0])
		return snprintf(buf, len, "%s (%s)%s", name, info->unit, sw);
	return snprintf(buf, len, "%s%s", name, sw);
}

static void text_header(struct writer *w, int nthreads, const char *const *events, size_t nev)
{
	char label[256];

	/* columns as wide as the longest name: a label is never cut */
	int longest = 0;

	for (size_t id = 0; id < R.nnames; id++)
		if (strcmp(R.names[id].name, CAL_NAME) && (int)strlen(R.names[id].name) > longest)
			longest = (int)strlen(R.names[id].name);
	w->namew = pmu__text_name_width(longest);
	fprintf(w->f, "\n libpmu regions (pid %ld, %d thread%s%s)\n\n %-*s %10s", (long)getpid(), nthreads,
		nthreads == 1 ? "" : "s", R.calibrate ? ", begin/end overhead subtracted" : "", w->namew, "region",
		"calls");
	for (size_t k = 0; k < nev; k++) {
		int n = text_label(label, sizeof(label), events[k], &w->infos[k], k >= nev - R.nsock);
		w->colw[k] = pmu__text_col_width(n > 0 ? (size_t)n : 0);
		fprintf(w->f, " %*s", w->colw[k], label);
	}
	fprintf(w->f, "\n");
}

static int write_result(const struct pmu_region_result *r, void *data)
{
	struct writer *w = data;

	if (w->format == PMU_FORMAT_CSV)
		write_csv(r, w);
	else if (w->format == PMU_FORMAT_JSON)
		write_json(r, w);
	else
		write_text(r, w);
	return 0;
}

/* The calls a report leaves out, said (under R.lock): a region begun and not ended when the report is
 * written, ends without a begin (refused when made; a caller may not look). In the text report @f,
 * else (CSV, JSON: no place for them in the schema) on stderr. */
static void note(FILE *f, const char *line)
{
	char shown[(REG_NAME_MAX * 2 + 200) * 4];

	if (f)
		fprintf(f, " note: %s\n", pmu__printable(shown, sizeof(shown), line));
	else
		pmu__region_say("%s", line);
}

static void unbalanced(FILE *f)
{
	char line[REG_NAME_MAX * 2 + 200];

	for each_thread(t) {
		for (size_t i = 0; i < t->nslots; i++) {
			const struct slot *s = t->slots[i];
			for (int k = 0; k < 2 && strcmp(s->name, CAL_NAME); k++) {
				if (k == 0 && s->depth)
					snprintf(line, sizeof(line), "region '%s' (thread %ld) was begun and not ended: its "
						 "open call is not in this report", s->name, t->tid);
				else if (k == 1 && s->stray_ends)
					snprintf(line, sizeof(line), "region '%s' (thread %ld) was ended %llu time%s without a "
						 "begin: not counted", s->name, t->tid, (unsigned long long)s->stray_ends,
						 s->stray_ends == 1 ? "" : "s");
				else
					continue;
				note(f, line);
			}
		}
		if (!t->stray_unknown)
			continue;
		snprintf(line, sizeof(line), "%llu end%s of regions never begun in thread %ld (the first: '%s'): not "
			 "counted", (unsigned long long)t->stray_unknown, t->stray_unknown == 1 ? "" : "s", t->tid,
			 t->stray_name);
		note(f, line);
	}
	/* the threads folded (exited before the last REG_EXITED_KEPT), per name */
	for (size_t id = 0; id < R.nnames; id++) {
		const struct region_name *n = &R.names[id];
		if (!n->folded || !strcmp(n->name, CAL_NAME))
			continue;
		if (n->folded_open) {
			snprintf(line, sizeof(line), "region '%s' was begun and not ended in %llu thread%s that exited: "
				 "those calls are not in this report", n->name, (unsigned long long)n->folded_open,
				 n->folded_open == 1 ? "" : "s");
			note(f, line);
		}
		if (n->folded->stray_ends) {
			snprintf(line, sizeof(line), "region '%s' was ended %llu time%s without a begin in threads that "
				 "exited: not counted", n->name, (unsigned long long)n->folded->stray_ends,
				 n->folded->stray_ends == 1 ? "" : "s");
			note(f, line);
		}
	}
	for (size_t id = 0; id < R.nnames; id++) {
		const struct region_sock *k = R.names[id].sock;
		if (!k || !k->abandoned)
			continue;
		snprintf(line, sizeof(line), "region '%s': %llu socket-wide interval%s ended with the exit of every thread "
			 "inside it: not counted", R.names[id].name, (unsigned long long)k->abandoned, k->abandoned == 1 ? "" : "s");
		note(f, line);
	}
	if (R.folded_stray) {
		snprintf(line, sizeof(line), "%llu end%s of regions never begun in threads that exited (the first: "
			 "'%s'): not counted", (unsigned long long)R.folded_stray, R.folded_stray == 1 ? "" : "s",
			 R.folded_stray_name);
		note(f, line);
	}
}

PMU_EXPORT int pmu_region_report(const char *path, int format, int per_thread)
{
	char file[PATH_MAX];
	const char *env = NULL;         /* $PMU_OUTPUT: never written over (region-output.c) */
	struct report_cols rc;
	struct writer w;
	json_object *doc = NULL;
	struct pmu_outfile out = { NULL, NULL };
	FILE *f;
	size_t nev;
	int r, nthreads = 0;

	if (format == PMU_FORMAT_ENV)
		format = pmu__region_env_format();
	if (per_thread < 0)
		per_thread = pmu__region_env_per_thread();
	if (format < PMU_FORMAT_TEXT || format > PMU_FORMAT_CSV)
		return pmu__err(R.ctx, -EINVAL, "pmu_region_report: format %d is not PMU_FORMAT_ENV, _TEXT, _JSON or "
				"_CSV", format);
	if (!path)
		env = path = pmu__getenv("PMU_OUTPUT");
	pthread_mutex_lock(&R.lock); /* also over the choice of $PMU_OUTPUT's file */
	if (!path || !*path) {
		f = stderr;
	} else if (!strcmp(path, "-")) {
		f = stdout;
	} else {
		int err = 0;
		char asked[PATH_MAX];
		if (pmu__region_expand_path(path, asked, sizeof(asked)) < 0) {
			pthread_mutex_unlock(&R.lock);
			return pmu__err(R.ctx, -ENAMETOOLONG, "the region report path '%.60s...' is longer than %d "
					"characters once %%p/%%r are expanded", path, PATH_MAX - 1);
		}
		pmu__strlcpy(file, asked, sizeof(file));
		if ((err = pmu__region_out_open(&out, asked, env != NULL)) < 0) {
			pthread_mutex_unlock(&R.lock);
			return pmu__err(R.ctx, err, "cannot write the region report to '%s': %s", file,
					err == -ENXIO ? "it is a FIFO that no process is reading" : strerror(-err));
		}
		f = out.f;
	}
	nev = rc.n = columns(rc.cols, rc.events, rc.infos);
	for each_thread(t)
		nthreads++;
	nthreads += (int)R.nfolded;
	memset(&w, 0, sizeof(w));
	w.f = f;
	w.format = format;
	w.infos = rc.infos;
	for (size_t k = 0; k < nev; k++) /* 0 where unknown: pmu_event_scale() said why, the count shown raw */
		if (!(rc.infos[k].flags & PMU_EVF_SCALED) || pmu_event_scale(R.ctx, &rc.infos[k], &w.uscale[k]) < 0)
			w.uscale[k] = 0;
	if (format == PMU_FORMAT_JSON) {
		if ((doc = json_header(nthreads, rc.events, nev)) && (w.regions = json_object_new_array()))
			json_object_object_add(doc, "regions", w.regions);
		r = w.regions ? foreach_locked(per_thread, write_result, &w, &rc)
			      : pmu__err(R.ctx, -ENOMEM, "out of memory writing the region report");
	} else if (format == PMU_FORMAT_CSV) {
		fprintf(f, "region,tid,calls,event,value,scaled,enabled_ns,running_ns,confidence,min,max,unsupported,scope,unit,unit_scale\n");
		r = foreach_locked(per_thread, write_result, &w, &rc);
	} else {
		text_header(&w, nthreads, rc.events, nev);
		r = foreach_locked(per_thread, write_result, &w, &rc);
		fprintf(f, "\n%s", r == 0 ? " (no regions)\n\n" : w.scaled ? " * scaled: the event was multiplexed\n\n" : "");
		if (R.nsock && r > 0)
			fprintf(f, " [socket]: socket-wide, not the thread's: every CPU of the PMU's sockets (dies), summed, counted for the\n"
				   " process from a begin that found no thread inside the region to the end that left none (whatever\n"
				   " ran there then), in the region's row only; its metrics take that wall time as duration_time\n\n");
	}
	unbalanced(format == PMU_FORMAT_TEXT ? f : NULL);
	pthread_mutex_unlock(&R.lock);
	if (doc && r >= 0) { /* a name's bytes that are not UTF-8: U+FFFD, so that the document stays JSON */
		pmu__write_utf8(f, json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
								    JSON_C_TO_STRING_NOSLASHESCAPE));
		fputc('\n', f);
	}
	json_object_put(doc);
	if (out.f) { /* the file takes the report whole, or stays as it was (a full disk, a name no process has) */
		char asked[PATH_MAX];
		int bad;
		pmu__strlcpy(asked, file, sizeof(asked));
		pthread_mutex_lock(&R.lock); /* the choice of $PMU_OUTPUT's name */
		bad = pmu__region_out_place(&out, asked, env != NULL, file, sizeof(file));
		pthread_mutex_unlock(&R.lock);
		pmu__outfile_drop(&out);
		if (bad < 0)
			return pmu__err(R.ctx, bad, "writing the region report to '%s' failed: %s; %s", file, strerror(-bad),
					bad == -EEXIST ? "it and the names derived from it exist" : "the file is as it was");
	} else {
		/* a full disk, a closed stdout: said, not swallowed */
		int bad = ferror(f) ? (errno ? errno : EIO) : 0;
		if (fflush(f) != 0 && !bad)
			bad = errno ? errno : EIO;
		if (bad)
			return pmu__err(R.ctx, -bad, "writing the region report to '%s' failed: %s",
					f == stdout ? "stdout" : "stderr", strerror(bad));
	}
	return r < 0 ? r : 0;
}

