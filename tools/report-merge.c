/* SPDX-License-Identifier: MIT */
/* pmu report's region reports merged: per region and event the sums and
 * the spread of the files' counts (report-merge.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "report-merge.h"
#include "report-read.h"
#include "rows.h"

/* The column of event @name, added if new. */
static int64_t column(struct saved_regions *r, const char *name)
{
	bool added;
	int64_t at = index_pos(&r->ev_index, name, r->events.n, &added);

	if (at >= 0 && added && strv_add(&r->events, name, strlen(name)) < 0) {
		json_object_object_del(r->ev_index, name);
		return -ENOMEM;
	}
	return at;
}

static void spread_init(struct rg_spread *s)
{
	memset(s, 0, sizeof(*s));
	s->cur_file = -1;
	s->min = UINT64_MAX;
	s->isum_ok = true;
}

/* The cell of row @row for column @col, the row's cells grown to every column so far. */
static struct rg_cell *cell(struct saved_regions *r, struct rg_row *row, size_t col)
{
	if (col >= row->ncells) {
		struct rg_cell *nc = realloc(row->cells, r->events.n * sizeof(*nc));
		if (!nc)
			return NULL;
		for (size_t k = row->ncells; k < r->events.n; k++) {
			memset(&nc[k], 0, sizeof(nc[k]));
			nc[k].min = UINT64_MAX;
			spread_init(&nc[k].spread);
		}
		row->cells = nc;
		row->ncells = r->events.n;
	}
	return &row->cells[col];
}

/* Is file @a before file @b among equal counts? The lower rank, where both have one in decimal; else the
 * first given. */
static bool file_before(const struct saved_regions *r, int a, int b)
{
	if (r->filev[a].rank_is_number && r->filev[b].rank_is_number) {
		long long ra = strtoll(r->filev[a].rank, NULL, 10), rb = strtoll(r->filev[b].rank, NULL, 10);
		if (ra != rb)
			return ra < rb;
	}
	return a < b;
}

/* Fold the pending count of @s (a file's) into its min, max and sums. */
static void spread_fold(const struct saved_regions *r, struct rg_spread *s)
{
	if (s->cur_file < 0)
		return;
	if (!s->n || s->cur < s->min || (s->cur == s->min && file_before(r, s->cur_file, s->min_file))) {
		s->min = s->cur;
		s->min_file = s->cur_file;
	}
	if (!s->n || s->cur > s->max || (s->cur == s->max && file_before(r, s->cur_file, s->max_file))) {
		s->max = s->cur;
		s->max_file = s->cur_file;
	}
	s->sum += (double)s->cur;
	s->isum_ok = spread_add64(&s->isum, s->cur) && s->isum_ok;
	spread_sq_add_square(&s->sq, s->cur);
	s->n++;
	s->cur = 0;
	s->cur_file = -1;
}

/* Add file @file's count @v to @s; a second entry of the region in the same file adds to its count. */
static void spread_add(const struct saved_regions *r, struct rg_spread *s, int file, uint64_t v)
{
	if (s->cur_file != file)
		spread_fold(r, s);
	s->cur_file = file;
	s->cur = s->cur > UINT64_MAX - v ? UINT64_MAX : s->cur + v;
}

void rg_spread_dist(const struct saved_regions *r, const struct rg_spread *sp, struct rg_dist *d)
{
	struct rg_spread s = *sp;

	spread_fold(r, &s);
	d->n = s.n;
	d->sum = s.isum;
	d->sum_ok = s.isum_ok;
	d->min = s.n ? s.min : 0;
	d->max = s.max;
	/* exact sums: the mean and the deviation as libpmu-mpi computes them, whatever the files' order */
	d->mean = s.isum_ok ? spread_mean((uint64_t)s.n, s.isum) : s.n ? s.sum / s.n : 0;
	d->stddev = spread_stddev((uint64_t)s.n, s.isum, s.isum_ok, &s.sq);
	if (d->mean > (double)d->max) /* rounding of sums past 2^53: the mean stays within [min, max] */
		d->mean = (double)d->max;
	if (d->mean < (double)d->min)
		d->mean = (double)d->min;
	d->min_file = s.min_file;
	d->max_file = s.max_file;
}

void rg_cell_spread(const struct saved_regions *r, const struct rg_cell *c, struct rg_dist *d)
{
	rg_spread_dist(r, &c->spread, d);
}

const char *rg_file_label(const struct saved_regions *r, int i)
{
	return r->filev[i].rank ? r->filev[i].rank : r->filev[i].name;
}

/* Record file @file (its "rank" from @doc) as file r->files, counted from here on. A rank (or,
 * without one, a file name) seen before gets a note: the file is one more entry of the spread. */
static int add_file(struct saved_regions *r, const char *file, json_object *doc, char **err)
{
	struct rg_file *fv = r->filev, *f;
	json_object *rk = NULL;
	char *key = NULL, *note = NULL;
	bool added;
	int64_t first;

	if (json_object_object_get_ex(doc, "rank", &rk) && json_object_is_type(rk, json_type_string) &&
	    (size_t)json_object_get_string_len(rk) != strlen(json_object_get_string(rk)))
		return refuse_at(&(const struct seg){ NULL, "rank", 0 }, file, err, "holds a NUL character");
	/* capacity doubles, as for rows */
	if ((r->files & (r->files - 1)) == 0 &&
	    !(fv = realloc(r->filev, (r->files ? 2 * (size_t)r->files : 1) * sizeof(*fv))))
		return report_fail(err, -ENOMEM, "'%s': out of memory", file);
	r->filev = fv;
	f = &fv[r->files];
	memset(f, 0, sizeof(*f));
	if (!(f->name = strdup(file)))
		goto oom;
	if (rk && is_int64(rk)) {
		f->rank_is_number = true;
		if (asprintf(&f->rank, "%" PRId64, json_object_get_int64(rk)) < 0) {
			f->rank = NULL;
			goto oom;
		}
	} else if (rk && json_object_is_type(rk, json_type_string) && !(f->rank = strdup(json_object_get_string(rk)))) {
		goto oom;
	}
	if (asprintf(&key, "%c:%s", f->rank ? 'r' : 'f', rg_file_label(r, r->files)) < 0) {
		key = NULL;
		goto oom;
	}
	first = index_pos(&r->rank_index, key, (size_t)r->files, &added);
	free(key);
	if (first < 0)
		goto oom;
	if (!added) {
		int n = f->rank ? asprintf(&note, "rank %s is in two files, '%s' and '%s': the spread across ranks "
					    "counts each file as a rank", f->rank, fv[first].name, file) :
				  asprintf(&note, "'%s' is given twice: the spread across files counts it twice", file);
		if (n < 0 || strv_add(&r->notes, note, strlen(note)) < 0) {
			if (n >= 0)
				free(note);
			goto oom;
		}
		free(note);
	}
	r->files++;
	return 0;
oom:
	free(f->name);
	free(f->rank);
	return report_fail(err, -ENOMEM, "'%s': out of memory", file);
}

/* The column of event @name of a file whose header is @doc: "NAME [socket]" for one of its socket-wide
 * events (counted for the process, the sockets of its machine: not the same quantity as a thread's count
 * of that name), said once in the notes. */
static int64_t column_of(struct saved_regions *r, json_object *doc, const char *name)
{
	static const char note[] = "columns marked [socket] are socket-wide: each file counted the sockets of its machine "
				   "over its own regions' intervals; files of processes on one machine count the same sockets, "
				   "and their sum counts the time they overlap more than once";
	json_object *sw;
	bool socket = false;
	char *label;
	int64_t at;

	if (json_object_object_get_ex(doc, "socket_wide", &sw) && json_object_is_type(sw, json_type_array))
		for (size_t k = 0; k < json_object_array_length(sw); k++)
			socket = socket || !strcmp(json_object_get_string(json_object_array_get_idx(sw, k)), name);
	if (!socket)
		return column(r, name);
	if (asprintf(&label, "%s [socket]", name) < 0)
		return -ENOMEM;
	at = column(r, label);
	free(label);
	for (size_t k = 0; k < r->notes.n; k++)
		if (!strcmp(r->notes.v[k], note))
			return at;
	return at < 0 || strv_add(&r->notes, note, strlen(note)) < 0 ? -ENOMEM : at;
}

int saved_regions_add(struct saved_regions *r, const char *file, json_object *doc, char **err)
{
	const struct seg top = { NULL, "regions", 0 }, evtop = { NULL, "events", 0 };
	json_object *regs, *evs;
	int rc;

	*err = NULL;
	if (!json_object_object_get_ex(doc, "regions", &regs))
		return refuse_at(NULL, file, err, "the key 'regions' is missing");
	if ((rc = add_file(r, file, doc, err)) < 0)
		return rc;
	if (json_object_object_get_ex(doc, "events", &evs))
		for (size_t k = 0; k < json_object_array_length(evs); k++) {
			json_object *e = json_object_array_get_idx(evs, k);
			const struct seg at = { &evtop, NULL, k };
			if ((size_t)json_object_get_string_len(e) != strlen(json_object_get_string(e)))
				return refuse_at(&at, file, err, "holds a NUL character");
			if (column_of(r, doc, json_object_get_string(e)) < 0)
				return report_fail(err, -ENOMEM, "'%s': out of memory", file);
		}
	for (size_t i = 0; i < json_object_array_length(regs); i++) {
		json_object *reg = json_object_array_get_idx(regs, i), *events;
		const struct seg at = { &top, NULL, i }, atev = { &at, "events", 0 };
		const char *name;
		struct rg_row *row;
		bool added;
		int64_t pos;

		if ((rc = name_ok(reg, "name", 0, &at, file, err)) < 0)
			return rc;
		name = str_at(reg, "name");
		if ((pos = index_pos(&r->row_index, name, r->nrows, &added)) < 0)
			return report_fail(err, -ENOMEM, "'%s': out of memory", file);
		if (added) {
			/* capacity doubles: a file of many regions costs linear time */
			struct rg_row *nr = r->rows;
			if ((r->nrows & (r->nrows - 1)) == 0 &&
			    (nr = realloc(r->rows, (r->nrows ? 2 * r->nrows : 1) * sizeof(*nr))))
				r->rows = nr;
			if (!nr || !(nr[r->nrows].name = strdup(name))) {
				json_object_object_del(r->row_index, name);
				return report_fail(err, -ENOMEM, "'%s': out of memory", file);
			}
			nr[r->nrows].calls = 0;
			spread_init(&nr[r->nrows].calls_spread);
			nr[r->nrows].cells = NULL;
			nr[r->nrows].ncells = 0;
			r->nrows++;
		}
		row = &r->rows[pos];
		if ((rc = add_count(&row->calls, reg, "calls", &at, file, err)) < 0)
			return rc;
		spread_add(r, &row->calls_spread, r->files - 1, count_at(reg, "calls"));
		if (!json_object_object_get_ex(reg, "events", &events))
			continue;
		json_object_object_foreach(events, en, e) {
			const struct seg ate = { &atev, en, 0 };
			int64_t col = column_of(r, doc, en);
			struct rg_cell *c;
			if (col < 0 || !(c = cell(r, row, (size_t)col)))
				return report_fail(err, -ENOMEM, "'%s': out of memory", file);
			if (!e)
				continue; /* null: not counted in that file */
			if ((rc = times_ok(e, &ate, file, err)) < 0 || (rc = add_count(&c->v.value, e, "value", &ate, file, err)) < 0 ||
			    (rc = add_count(&c->v.enabled, e, "enabled_ns", &ate, file, err)) < 0 ||
			    (rc = add_count(&c->v.running, e, "running_ns", &ate, file, err)) < 0)
				return rc;
			c->seen = true;
			spread_add(r, &c->spread, r->files - 1,
				   json_object_object_get_ex(e, "scaled", NULL) ? count_at(e, "scaled") : count_at(e, "value"));
			if (json_object_object_get_ex(e, "min", NULL) && count_at(e, "min") < c->min)
				c->min = count_at(e, "min");
			if (count_at(e, "max") > c->max)
				c->max = count_at(e, "max");
		}
	}
	return 0;
}

void saved_regions_free(struct saved_regions *r)
{
	for (int i = 0; i < r->files; i++) {
		free(r->filev[i].name);
		free(r->filev[i].rank);
	}
	free(r->filev);
	json_object_put(r->rank_index);
	strv_free(&r->notes);
	strv_free(&r->events);
	for (size_t i = 0; i < r->nrows; i++) {
		free(r->rows[i].name);
		free(r->rows[i].cells);
	}
	free(r->rows);
	json_object_put(r->ev_index);
	json_object_put(r->row_index);
	memset(r, 0, sizeof(*r));
}
