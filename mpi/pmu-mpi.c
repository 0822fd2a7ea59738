/* SPDX-License-Identifier: MIT */
/*
 * libpmu-mpi (pmu-mpi.h): the ranks' region results reduced over MPI into one report, at
 * MPI_Finalize (PMPI) or by pmu_mpi_report(). The steps, each a non-blocking collective waited for
 * at most $PMU_MPI_TIMEOUT seconds, so that a rank that died or never arrives costs the others a
 * wait, not a hang:
 *   1. arrival: MPI_Ibarrier on the caller's communicator; then MPI_Comm_idup, so that the
 *      report's messages never meet the program's;
 *   2. names: rank 0 broadcasts its region and event names; every rank sends rank 0 the names it
 *      has that rank 0 lacks (MPI_Igather of lengths, MPI_Igatherv of names: nothing where the
 *      ranks used the same names); rank 0 broadcasts those added, in rank order: every rank then
 *      holds the same list, the union;
 *   3. values: each rank's vector of one record per region (its calls) and per region and event,
 *      in the union's order, reduced to rank 0 by MPI_Ireduce with an operation of exact integer
 *      sums, minima and maxima (with the lowest rank holding them): any order of reduction gives
 *      the same bits;
 *   4. rank 0 writes the report and broadcasts whether it did; a rank that hears it clears its
 *      regions (the exit then writes nothing), one that does not (a timeout) keeps them.
 * At MPI_Finalize a rank that does not complete the steps writes its own report instead (said by
 * rank 0 on stderr, naming the ranks it did not hear from). Buffers of a step abandoned at a timeout
 * are left allocated: MPI may still write into them, and a request of a non-blocking collective may
 * not be freed.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <json-c/json.h>
#include <mpi.h>
#include <pmu.h>
#include "names.h"
#include "pmu-mpi.h"
#include "resultfile.h"
#include "../tools/report-spread.h"

#define EXPORT __attribute__((visibility("default")))
#define DEFAULT_TIMEOUT 30.0
/* the tag of "this rank arrived and timed out" sent to rank 0 at MPI_Finalize (the program's own
 * messages are over by then); MPI_TAG_UB is at least 32767 */
#define TAG_ARRIVED 32767

/* One (region, event) over the ranks that counted it, or a region's calls (value..cmax unused): what
 * a rank contributes and what the reduction combines. Words of uint64_t only: an MPI datatype of
 * ACC_WORDS MPI_UINT64_T carries it. */
struct acc {
	uint64_t n;                     /* ranks */
	uint64_t value, enabled, running; /* sums */
	uint64_t sum;                   /* sum of the ranks' counts (their scaled values; calls) */
	struct spread_sq sq;            /* ... of their squares */
	uint64_t cmin, cmax;            /* smallest and largest delta of one call (UINT64_MAX: none) */
	uint64_t min, max;              /* the smallest and largest rank's count */
	uint64_t min_rank, max_rank;    /* the lowest rank holding each */
	uint64_t over;                  /* 1: a sum past 64 bits (saturated) */
};
#define ACC_WORDS (sizeof(struct acc) / sizeof(uint64_t))
_Static_assert(sizeof(struct acc) % sizeof(uint64_t) == 0, "struct acc is words");

/* This rank's results: the regions' names and events as pmu_region_foreach gives them. */
struct local_cell {
	long ev;                        /* index in local.mine of "e<event>" */
	uint64_t value, enabled, running, scaled, cmin, cmax;
};
struct local_region {
	long name;                      /* index in local.mine of "r<region>" */
	uint64_t calls;
	size_t first, ncells;           /* its cells in local.cells */
};
struct local {
	struct name_set mine;           /* "r<region>" and "e<event>" of this rank */
	struct name_set all;            /* the union over the ranks, the same list on every rank */
	struct local_region *regs;
	size_t nregs;
	struct local_cell *cells;
	size_t ncells;
	int err;
};

static struct pmu_mpi_stats last;
static bool have_last;
/* SIGTERM arrived while MPI_Finalize waited (mpirun ends the job that way, then SIGKILLs a second later) */
static volatile sig_atomic_t terminated;

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
	char msg[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fprintf(stderr, "libpmu-mpi: %s\n", msg);
}

static double env_timeout(void)
{
	const char *v = getenv("PMU_MPI_TIMEOUT");
	char *end;
	double t;

	if (!v || !*v)
		return DEFAULT_TIMEOUT;
	t = strtod(v, &end);
	if (*end || !(t > 0) || !isfinite(t)) {
		say("PMU_MPI_TIMEOUT='%.60s' is not a number of seconds above 0; using %g. Fix PMU_MPI_TIMEOUT.", v,
		    DEFAULT_TIMEOUT);
		return DEFAULT_TIMEOUT;
	}
	return t;
}

/* A yes/no variable: 1, 0, or @def where unset (an other value is said, and gives @def). */
static int env_bool(const char *var, int def)
{
	const char *v = getenv(var);

	if (!v || !*v)
		return def;
	if (!strcmp(v, "1") || !strcasecmp(v, "yes") || !strcasecmp(v, "on") || !strcasecmp(v, "true"))
		return 1;
	if (!strcmp(v, "0") || !strcasecmp(v, "no") || !strcasecmp(v, "off") || !strcasecmp(v, "false"))
		return 0;
	say("%s='%.60s' is neither 1 nor 0; using %d. Fix %s.", var, v, def, var);
	return def;
}

/* ---- this rank's results ---- */

static int add_name(struct local *l, char kind, const char *name, const char *suffix, long *at)
{
	char buf[PMU_NAME_MAX + 300];
	int w = snprintf(buf, sizeof(buf), "%c%s%s", kind, name, suffix);

	if (w < 0 || (size_t)w >= sizeof(buf))
		w = sizeof(buf) - 1; /* a name past the buffer: cut (region names are shorter: REG_NAME_MAX) */
	*at = names_add(&l->mine, buf, (size_t)w);
	return *at < 0 ? -ENOMEM : 0;
}

static int collect(const struct pmu_region_result *r, void *data)
{
	struct local *l = data;
	struct local_region *lr;

	if (l->nregs % 64 == 0) {
		struct local_region *n = realloc(l->regs, (l->nregs + 64) * sizeof(*n));
		if (!n)
			return l->err = -ENOMEM;
		l->regs = n;
	}
	lr = &l->regs[l->nregs];
	if (add_name(l, 'r', r->name, "", &lr->name) < 0)
		return l->err = -ENOMEM;
	lr->calls = r->calls;
	lr->first = l->ncells;
	lr->ncells = 0;
	l->nregs++;
	for (size_t k = 0; k < r->nvalues; k++) {
		struct local_cell *c;
		long ev;
		/* a socket-wide value is the process's, not a thread's: a column of its own, as pmu report names it */
		if (add_name(l, 'e', r->events[k], r->socket_wide >> k & 1 ? " [socket]" : "", &ev) < 0)
			return l->err = -ENOMEM;
		if (r->unsupported >> k & 1)
			continue; /* not counted here: null in this rank's report, no part of the spread */
		if (l->ncells % 256 == 0) {
			struct local_cell *n = realloc(l->cells, (l->ncells + 256) * sizeof(*n));
			if (!n)
				return l->err = -ENOMEM;
			l->cells = n;
		}
		c = &l->cells[l->ncells++];
		c->ev = ev;
		c->value = r->values[k].value;
		c->enabled = r->values[k].enabled;
		c->running = r->values[k].running;
		c->scaled = pmu_scale(&r->values[k]);
		c->cmin = r->min[k];
		c->cmax = r->max[k];
		lr->ncells++;
	}
	return 0;
}

static void local_free(struct local *l)
{
	names_free(&l->mine);
	names_free(&l->all);
	free(l->regs);
	free(l->cells);
	memset(l, 0, sizeof(*l));
}

/* ---- the reduction's operation ---- */

static void acc_empty(struct acc *a)
{
	memset(a, 0, sizeof(*a));
	a->cmin = a->min = UINT64_MAX;
}

/* *@b combined with @a: exact, commutative and associative (ties go to the lower rank). */
static void acc_merge(struct acc *b, const struct acc *a)
{
	bool ok = true;

	if (!a->n)
		return;
	if (!b->n) {
		*b = *a;
		return;
	}
	b->n += a->n;
	ok &= spread_add64(&b->value, a->value);
	ok &= spread_add64(&b->enabled, a->enabled);
	ok &= spread_add64(&b->running, a->running);
	ok &= spread_add64(&b->sum, a->sum);
	spread_sq_add(&b->sq, &a->sq);
	if (a->cmin < b->cmin)
		b->cmin = a->cmin;
	if (a->cmax > b->cmax)
		b->cmax = a->cmax;
	if (a->min < b->min || (a->min == b->min && a->min_rank < b->min_rank)) {
		b->min = a->min;
		b->min_rank = a->min_rank;
	}
	if (a->max > b->max || (a->max == b->max && a->max_rank < b->max_rank)) {
		b->max = a->max;
		b->max_rank = a->max_rank;
	}
	b->over |= a->over | !ok;
}

static void acc_op(void *in, void *inout, int *len, MPI_Datatype *type)
{
	const struct acc *a = in;
	struct acc *b = inout;

	(void)type;
	for (int i = 0; i < *len; i++)
		acc_merge(&b[i], &a[i]);
}

/* One rank's count @x (of rank @rank) as a record. */
static void acc_one(struct acc *a, uint64_t x, uint64_t rank)
{
	a->n = 1;
	a->sum = a->min = a->max = x;
	spread_sq_add_square(&a->sq, x);
	a->min_rank = a->max_rank = rank;
}

/* ---- waiting with a deadline ---- */

/* Wait for @rq until MPI_Wtime() passes @deadline: 0, -ETIMEDOUT, -EINTR (SIGTERM at MPI_Finalize), or
 * -EIO (an MPI error). Yields the
 * CPU between tests (ranks oversubscribed on few cores must not spin against the ranks still working),
 * then sleeps up to a millisecond. */
static int await(MPI_Request *rq, double deadline)
{
	for (unsigned spins = 0;; spins++) {
		int done = 0;
		if (PMPI_Test(rq, &done, MPI_STATUS_IGNORE) != MPI_SUCCESS)
			return -EIO;
		if (done)
			return 0;
		if (PMPI_Wtime() > deadline)
			return -ETIMEDOUT;
		if (terminated)
			return -EINTR;
		if (spins < 200) {
			sched_yield();
		} else {
			long ns = spins < 400 ? 50000 : spins < 600 ? 200000 : 1000000;
			nanosleep(&(struct timespec){ 0, ns }, NULL);
		}
	}
}

/* ---- paths ---- */

/* @in with %r (this rank's MPI_COMM_WORLD rank), %p and %% expanded. -ENAMETOOLONG where it does not fit. */
static int expand(const char *in, char *out, size_t len)
{
	int wrank = 0;
	size_t o = 0;

	PMPI_Comm_rank(MPI_COMM_WORLD, &wrank);
	for (const char *p = in; *p; p++) {
		int w = 0;
		if (p[0] == '%' && p[1] == 'p')
			w = snprintf(out + o, len - o, "%ld", (long)getpid()), p++;
		else if (p[0] == '%' && p[1] == 'r')
			w = snprintf(out + o, len - o, "%d", wrank), p++;
		else if (p[0] == '%' && p[1] == '%')
			w = snprintf(out + o, len - o, "%%"), p++;
		else
			w = snprintf(out + o, len - o, "%c", *p);
		if (w < 0 || o + (size_t)w >= len)
			return -ENAMETOOLONG;
		o += (size_t)w;
	}
	if (!o)
		out[0] = 0;
	return 0;
}

/* ---- the report ---- */

static json_object *jnum(double v)
{
	return isfinite(v) ? json_object_new_double(v) : NULL;
}

static json_object *jrank(const int *world, uint64_t rank, bool world_rank)
{
	return json_object_new_int64(world_rank ? world[rank] : (int64_t)rank);
}

/* The spread of @a over @ranks ranks' counts; @calls: a region's calls (no stddev, no mean). */
static json_object *spread_json(const struct acc *a, const int *world, bool calls)
{
	json_object *sp = json_object_new_object();
	double mean = spread_mean(a->n, a->sum);

	if (!sp)
		return NULL;
	json_object_object_add(sp, "files", json_object_new_int64((int64_t)a->n));
	if (!calls)
		json_object_object_add(sp, "sum", a->over ? NULL : json_object_new_uint64(a->sum));
	json_object_object_add(sp, "min", json_object_new_uint64(a->min));
	if (!calls)
		json_object_object_add(sp, "mean", jnum(mean));
	json_object_object_add(sp, "max", json_object_new_uint64(a->max));
	if (!calls)
		json_object_object_add(sp, "stddev", jnum(spread_stddev(a->n, a->sum, !a->over, &a->sq)));
	json_object_object_add(sp, "min_rank", jrank(world, a->min_rank, false));
	json_object_object_add(sp, "max_rank", jrank(world, a->max_rank, false));
	json_object_object_add(sp, "min_world_rank", jrank(world, a->min_rank, true));
	json_object_object_add(sp, "max_world_rank", jrank(world, a->max_rank, true));
	if (!calls)
		json_object_object_add(sp, "imbalance", mean > 0 ? jnum((double)a->max / mean) : NULL);
	return sp;
}

static json_object *cell_json(const struct acc *a, const int *world, int ranks)
{
	json_object *e = json_object_new_object();
	struct pmu_value v = { a->value, a->enabled, a->running };

	if (!e)
		return NULL;
	json_object_object_add(e, "value", json_object_new_uint64(v.value));
	json_object_object_add(e, "scaled", json_object_new_uint64(pmu_scale(&v)));
	json_object_object_add(e, "enabled_ns", json_object_new_uint64(v.enabled));
	json_object_object_add(e, "running_ns", json_object_new_uint64(v.running));
	json_object_object_add(e, "confidence", jnum(pmu_confidence(&v)));
	json_object_object_add(e, "min", a->cmin == UINT64_MAX ? NULL : json_object_new_uint64(a->cmin));
	json_object_object_add(e, "max", json_object_new_uint64(a->cmax));
	if (ranks > 1)
		json_object_object_add(e, "spread", spread_json(a, world, false));
	return e;
}

/* The job's document (rank 0): schema libpmu-report-regions/1, "job" saying what "files" (none) would.
 * @vec: the reduced records, region by region (its calls, then its events in the union's order). */
static json_object *report_json(const struct name_set *all, size_t ne, const struct acc *vec, const int *world,
				int ranks, int world_size)
{
	json_object *o = json_object_new_object(), *job = json_object_new_object(), *evs = json_object_new_array(),
		    *regs = json_object_new_array(), *notes = json_object_new_array();
	const char **evname = calloc(ne ? ne : 1, sizeof(*evname));
	bool over = false;
	size_t r = 0, e = 0;

	if (!o || !job || !evs || !regs || !notes || !evname) {
		json_object_put(o), json_object_put(job), json_object_put(evs), json_object_put(regs), json_object_put(notes);
		free(evname);
		return NULL;
	}
	json_object_object_add(o, "schema", json_object_new_string("libpmu-report-regions/1"));
	json_object_object_add(o, "version", json_object_new_string(pmu_version()));
	json_object_object_add(o, "files", json_object_new_array());
	json_object_object_add(job, "ranks", json_object_new_int(ranks));
	json_object_object_add(job, "world_size", json_object_new_int(world_size));
	json_object_object_add(job, "root_world_rank", json_object_new_int(world[0]));
	json_object_object_add(job, "rank_counts", json_object_new_string("each rank's regions summed over its threads"));
	json_object_object_add(job, "stddev", json_object_new_string("population"));
	json_object_object_add(o, "job", job);
	for (size_t i = 0; i < all->n; i++)
		if (all->v[i][0] == 'e') {
			evname[e++] = all->v[i] + 1;
			json_object_array_add(evs, json_object_new_string(all->v[i] + 1));
		}
	json_object_object_add(o, "events", evs);
	for (size_t i = 0; i < all->n; i++) {
		const struct acc *row;
		json_object *ro, *ev;
		if (all->v[i][0] != 'r')
			continue;
		row = &vec[r++ * (ne + 1)];
		if (!row->n)
			continue; /* no rank completed a call (none can: a rank reports regions with calls) */
		ro = json_object_new_object();
		ev = json_object_new_object();
		if (!ro || !ev) {
			json_object_put(ro), json_object_put(ev), json_object_put(o), free(evname);
			return NULL;
		}
		json_object_object_add(ro, "name", json_object_new_string(all->v[i] + 1));
		json_object_object_add(ro, "calls", json_object_new_uint64(row->sum));
		if (ranks > 1)
			json_object_object_add(ro, "calls_spread", spread_json(row, world, true));
		for (size_t k = 0; k < ne; k++) {
			const struct acc *a = &row[1 + k];
			over = over || (a->n && a->over);
			json_object_object_add(ev, evname[k], a->n ? cell_json(a, world, ranks) : NULL);
		}
		json_object_object_add(ro, "events", ev);
		json_object_array_add(regs, ro);
	}
	free(evname);
	json_object_object_add(o, "regions", regs);
	if (over)
		json_object_array_add(notes, json_object_new_string("a sum passed 64 bits: it is shown as the largest "
								   "64-bit count, and its spread's sum, mean and stddev are null"));
	json_object_object_add(o, "notes", notes);
	return o;
}

/* @doc to @path: NULL or "" stderr, "-" stdout; else written whole (resultfile.h), over what is there
 * with @replace, else only where nothing is, a derived name otherwise (said). 0 or a negative errno. */
static int write_doc(json_object *doc, const char *path, bool replace, char *used, size_t len)
{
	const char *text = json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
							       JSON_C_TO_STRING_NOSLASHESCAPE);
	struct pmu_outfile o = { NULL, NULL };
	int r;

	snprintf(used, len, "%s", path && *path ? path : "stderr");
	if (!text)
		return -ENOMEM;
	if (!path || !*path || !strcmp(path, "-")) {
		FILE *f = path && *path ? stdout : stderr;
		fprintf(f, "%s\n", text);
		return fflush(f) ? -errno : 0;
	}
	if ((r = pmu__outfile_open(&o, path, false, true)) < 0)
		return r;
	fprintf(o.f, "%s\n", text);
	if ((r = pmu__outfile_finish(&o)) == 0) {
		r = replace ? pmu__outfile_place(&o, path, true) : pmu__outfile_place_free(&o, path, "", used, len);
		if (r == 0 && strcmp(used, path))
			say("'%s' exists (an earlier run's report, or another's), and a report is never written over; "
			    "the job report is in '%s'. To name it yourself, put %%p in PMU_OUTPUT.", path, used);
	}
	pmu__outfile_drop(&o);
	return r;
}

/* ---- the steps ---- */

struct job {
	MPI_Comm comm;                  /* the caller's (arrival), then its duplicate */
	bool dup;                       /* comm is ours (freed at the end) */
	int rank, size;
	double timeout;
	int step_failed;                /* the step that did not complete (for messages) */
	const char *step;
};

/* Start @rq (an MPI call's result @mr) and wait for it. */
static int step(struct job *j, const char *what, int mr, MPI_Request *rq)
{
	int r = mr != MPI_SUCCESS ? -EIO : await(rq, PMPI_Wtime() + j->timeout);

	if (r < 0)
		j->step = what;
	return r;
}

/* Agree on the names (step 2): l->all becomes the union of every rank's l->mine, the same list on every
 * rank: rank 0's names in its order, then those it lacked in rank order. *@bytes: what this rank gave MPI. */
static int agree(struct job *j, struct local *l, uint64_t *bytes)
{
	MPI_Request rq;
	uint64_t len = 0;
	char *buf = NULL, *mine = NULL, *got = NULL;
	size_t blen = 0, mlen = 0;
	int *lens = NULL, *displs = NULL, mylen, r;

	*bytes = 0;
	/* rank 0's names */
	if (j->rank == 0 && (r = names_pack(&l->mine, 0, &buf, &blen)) < 0)
		return r;
	len = blen;
	if ((r = step(j, "the length of rank 0's names", PMPI_Ibcast(&len, 1, MPI_UINT64_T, 0, j->comm, &rq), &rq)) < 0)
		return r;
	if (len > INT_MAX)
		return -E2BIG;
	if (j->rank != 0 && len && !(buf = malloc(len)))
		return -ENOMEM;
	if (len && (r = step(j, "rank 0's names", PMPI_Ibcast(buf, (int)len, MPI_CHAR, 0, j->comm, &rq), &rq)) < 0)
		return r; /* buf left: MPI may still write it */
	if ((r = names_unpack(&l->all, buf, len)) < 0) {
		free(buf);
		return r;
	}
	free(buf);
	buf = NULL;
	if (j->rank == 0) {
		*bytes += len + sizeof(len);
	} else {
		/* mine that rank 0 lacks */
		struct name_set extra = { 0 };
		for (size_t i = 0; i < l->mine.n && r == 0; i++)
			if (names_find(&l->all, l->mine.v[i], strlen(l->mine.v[i])) < 0 &&
			    names_add(&extra, l->mine.v[i], strlen(l->mine.v[i])) < 0)
				r = -ENOMEM;
		if (r == 0)
			r = names_pack(&extra, 0, &mine, &mlen);
		names_free(&extra);
		if (r < 0)
			return r;
		if (mlen > INT_MAX) {
			free(mine);
			return -E2BIG;
		}
	}
	mylen = (int)mlen;
	if (j->rank != 0)
		*bytes += mlen + sizeof(mylen);
	if (j->rank == 0 && (!(lens = calloc((size_t)j->size, sizeof(int))) || !(displs = calloc((size_t)j->size, sizeof(int))))) {
		free(lens);
		return -ENOMEM;
	}
	if ((r = step(j, "the lengths of the names rank 0 lacks", PMPI_Igather(&mylen, 1, MPI_INT, lens, 1, MPI_INT, 0, j->comm, &rq),
		      &rq)) < 0)
		return r;
	if (j->rank == 0) {
		size_t total = 0;
		for (int i = 0; i < j->size; i++) {
			displs[i] = (int)total;
			total += (size_t)lens[i];
		}
		if (total > INT_MAX || (total && !(got = malloc(total)))) {
			free(lens), free(displs);
			return total > INT_MAX ? -E2BIG : -ENOMEM;
		}
	}
	if ((r = step(j, "the names rank 0 lacks", PMPI_Igatherv(mine, mylen, MPI_CHAR, got, lens, displs, MPI_CHAR, 0, j->comm,
								 &rq), &rq)) < 0)
		return r;
	free(mine);
	len = 0;
	if (j->rank == 0) {
		size_t before = l->all.n;
		for (int i = 0; i < j->size && r == 0; i++)
			r = names_unpack(&l->all, got + displs[i], (size_t)lens[i]);
		free(got), free(lens), free(displs);
		if (r < 0 || (r = names_pack(&l->all, before, &buf, &blen)) < 0)
			return r;
		len = blen;
		*bytes += len ? len + sizeof(len) : sizeof(len);
	}
	if ((r = step(j, "the length of the names added", PMPI_Ibcast(&len, 1, MPI_UINT64_T, 0, j->comm, &rq), &rq)) < 0)
		return r;
	if (len > INT_MAX)
		return -E2BIG;
	if (len && j->rank != 0 && !(buf = malloc(len)))
		return -ENOMEM;
	if (len && (r = step(j, "the names added", PMPI_Ibcast(buf, (int)len, MPI_CHAR, 0, j->comm, &rq), &rq)) < 0)
		return r;
	if (len && j->rank != 0)
		r = names_unpack(&l->all, buf, len);
	free(buf);
	return r;
}

/* This rank's records in @vec: region i at its index in the union (@reg_at, @ev_at: a union index's
 * region or event number), its calls first, then its events'. */
static void fill(const struct local *l, struct acc *vec, size_t ne, const long *reg_at, const long *ev_at, uint64_t rank)
{
	for (size_t i = 0; i < l->nregs; i++) {
		const struct local_region *lr = &l->regs[i];
		const char *rn = l->mine.v[lr->name];
		struct acc *row = &vec[(size_t)reg_at[names_find(&l->all, rn, strlen(rn))] * (ne + 1)];
		acc_one(&row[0], lr->calls, rank);
		for (size_t k = lr->first; k < lr->first + lr->ncells; k++) {
			const struct local_cell *c = &l->cells[k];
			const char *en = l->mine.v[c->ev];
			struct acc *a = &row[1 + ev_at[names_find(&l->all, en, strlen(en))]];
			acc_one(a, c->scaled, rank);
			a->value = c->value;
			a->enabled = c->enabled;
			a->running = c->running;
			a->cmin = c->cmin;
			a->cmax = c->cmax;
		}
	}
}

/* Steps 2 to 4 over @j->comm (every rank arrived, the communicator ours): 0 where rank 0 wrote the report
 * (or, with @skip_empty, had no region to write) and this rank heard so. @path: rank 0's ($PMU_OUTPUT's
 * rule unless @replace). */
static int reduce_and_write(struct job *j, struct local *l, const char *path, bool replace, bool skip_empty,
			    struct pmu_mpi_stats *st)
{
	MPI_Datatype type;
	MPI_Op op;
	MPI_Request rq;
	struct acc *vec = NULL, *out = NULL;
	long *reg_at = NULL, *ev_at = NULL;
	size_t nr = 0, ne = 0, count;
	int r, wrote = 0;
	double t0 = PMPI_Wtime();

	if ((r = agree(j, l, &st->bytes_names)) < 0)
		return r;
	st->seconds_names = PMPI_Wtime() - t0;
	if (!(reg_at = malloc((l->all.n + 1) * sizeof(*reg_at))) || !(ev_at = malloc((l->all.n + 1) * sizeof(*ev_at)))) {
		free(reg_at);
		return -ENOMEM;
	}
	for (size_t i = 0; i < l->all.n; i++) {
		reg_at[i] = l->all.v[i][0] == 'r' ? (long)nr++ : -1;
		ev_at[i] = l->all.v[i][0] == 'e' ? (long)ne++ : -1;
	}
	st->regions = nr;
	st->events = ne;
	count = nr * (ne + 1);
	if (count > INT_MAX || !(vec = malloc((count ? count : 1) * sizeof(*vec))) ||
	    (j->rank == 0 && !(out = malloc((count ? count : 1) * sizeof(*out))))) {
		free(reg_at), free(ev_at), free(vec);
		return count > INT_MAX ? -E2BIG : -ENOMEM;
	}
	for (size_t i = 0; i < count; i++)
		acc_empty(&vec[i]);
	fill(l, vec, ne, reg_at, ev_at, (uint64_t)j->rank);
	free(reg_at), free(ev_at);
	st->bytes_reduce = count * sizeof(*vec);
	if (PMPI_Type_contiguous((int)ACC_WORDS, MPI_UINT64_T, &type) != MPI_SUCCESS || PMPI_Type_commit(&type) != MPI_SUCCESS)
		return -EIO;
	if (PMPI_Op_create(acc_op, 1, &op) != MPI_SUCCESS) {
		PMPI_Type_free(&type);
		return -EIO;
	}
	t0 = PMPI_Wtime();
	r = step(j, "the reduction", PMPI_Ireduce(vec, out, (int)count, type, op, 0, j->comm, &rq), &rq);
	st->seconds_reduce = PMPI_Wtime() - t0;
	if (r < 0)
		return r; /* vec, out, the type and the operation left to MPI */
	PMPI_Op_free(&op);
	PMPI_Type_free(&type);
	free(vec);
	if (j->rank == 0) {
		int *world = malloc((size_t)j->size * sizeof(*world)), *ranks = malloc((size_t)j->size * sizeof(*ranks)), wsize = 0;
		MPI_Group g, wg;
		json_object *doc = NULL;
		char used[PATH_MAX];

		t0 = PMPI_Wtime();
		if (!world || !ranks) {
			r = -ENOMEM;
		} else {
			for (int i = 0; i < j->size; i++)
				ranks[i] = i;
			PMPI_Comm_size(MPI_COMM_WORLD, &wsize);
			PMPI_Comm_group(j->comm, &g);
			PMPI_Comm_group(MPI_COMM_WORLD, &wg);
			PMPI_Group_translate_ranks(g, j->size, ranks, wg, world);
			PMPI_Group_free(&g);
			PMPI_Group_free(&wg);
			if (!(skip_empty && !nr)) {
				if (!(doc = report_json(&l->all, ne, out, world, j->size, wsize)))
					r = -ENOMEM;
				else if ((r = write_doc(doc, path, replace, used, sizeof(used))) < 0)
					say("the job report could not be written to '%s': %s", used, strerror(-r));
			}
		}
		json_object_put(doc);
		free(world), free(ranks);
		wrote = r == 0;
		st->seconds_write = PMPI_Wtime() - t0;
	}
	free(out);
	if ((r = step(j, "rank 0's word that it wrote the report", PMPI_Ibcast(&wrote, 1, MPI_INT, 0, j->comm, &rq), &rq)) < 0)
		return r;
	return wrote ? 0 : -EIO;
}

/* Step 1: every rank of @comm arrived (MPI_Ibarrier), then @j->comm our duplicate of it, errors returned. */
static int arrive(struct job *j, MPI_Comm comm)
{
	MPI_Request rq;
	MPI_Comm dup;
	int r;

	j->comm = comm;
	PMPI_Comm_rank(comm, &j->rank);
	PMPI_Comm_size(comm, &j->size);
	if ((r = step(j, "arrival", PMPI_Ibarrier(comm, &rq), &rq)) < 0)
		return r;
	if ((r = step(j, "the communicator's duplicate", PMPI_Comm_idup(comm, &dup, &rq), &rq)) < 0)
		return r;
	j->comm = dup;
	j->dup = true;
	PMPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN);
	return 0;
}

/* The whole report over @comm; *@j says how far it went. */
static int run(struct job *j, MPI_Comm comm, const char *path, bool replace, bool skip_empty)
{
	struct local l = { 0 };
	struct pmu_mpi_stats st = { .size = sizeof(st) };
	int r;

	j->timeout = env_timeout();
	if ((r = pmu_region_foreach(0, collect, &l)) < 0) {
		/* this rank takes part with what it has (nothing), so that the others do not wait for it */
		say("this rank's region results could not be read (%s): the job report leaves them out",
		    strerror(l.err ? -l.err : -r));
		local_free(&l);
	}
	r = arrive(j, comm);
	if (r == 0)
		r = reduce_and_write(j, &l, path, replace, skip_empty, &st);
	st.ranks = j->size;
	last = st;
	have_last = true;
	if (r == 0)
		PMPI_Comm_free(&j->comm);
	local_free(&l);
	return r;
}

static int count_region(const struct pmu_region_result *r, void *data)
{
	(void)r, (void)data;
	return 0;
}

/* This rank's own report (libpmu-regions/1 in $PMU_FORMAT) at @path ("" stderr, "-" stdout), where it
 * has regions; never over a file there (".pid<P>" then, said). Then its regions cleared, so that the
 * exit does not write them again. */
static void write_rank(const char *path)
{
	char used[PATH_MAX];
	struct stat sb;
	int r;

	if (pmu_region_foreach(0, count_region, NULL) <= 0)
		return;
	snprintf(used, sizeof(used), "%s", path);
	if (*path && strcmp(path, "-") && lstat(path, &sb) == 0) {
		char tag[64];
		snprintf(tag, sizeof(tag), ".pid%ld", (long)getpid());
		if (pmu__outfile_tagged(path, tag, used, sizeof(used)) == 0)
			say("'%s' exists, and a report is never written over: this rank's report is in '%s'", path, used);
	}
	if ((r = pmu_region_report(used, PMU_FORMAT_ENV, -1)) < 0) {
		say("this rank's report could not be written to '%s': %s; it follows on stderr", used, pmu_strerror(r));
		pmu_region_report("", PMU_FORMAT_ENV, -1);
	}
	pmu_region_reset();
}

/* A rank's own report's path: $PMU_OUTPUT expanded, ".rank<R>" before its extension ("" and "-" as is). */
static void rank_path(const char *out, char *path, size_t len)
{
	char exp[PATH_MAX], tag[32];
	int wrank = 0;

	PMPI_Comm_rank(MPI_COMM_WORLD, &wrank);
	snprintf(path, len, "%s", out ? out : "");
	if (!out || !*out || !strcmp(out, "-") || expand(out, exp, sizeof(exp)) < 0)
		return;
	snprintf(tag, sizeof(tag), ".rank%d", wrank);
	if (pmu__outfile_tagged(exp, tag, path, len) < 0)
		snprintf(path, len, "%s", exp);
}

/* Arrival timed out at MPI_Finalize: rank 0 waits a little for the word of the ranks that timed out too,
 * and names those it did not hear from; the others send it theirs. */
static void missing_ranks(const struct job *j, const char *rank_file)
{
	double grace = j->timeout / 2 < 2 ? j->timeout / 2 : 2, end = PMPI_Wtime() + grace;
	char list[512] = "";
	size_t o = 0;
	int heard = 1, named = 0;
	char *seen;

	if (j->rank != 0) {
		MPI_Request rq; /* left to MPI: the program ends */
		static int me;
		me = j->rank;
		PMPI_Isend(&me, 1, MPI_INT, 0, TAG_ARRIVED, MPI_COMM_WORLD, &rq);
		return;
	}
	if (!(seen = calloc((size_t)j->size, 1)))
		return;
	seen[0] = 1;
	while (heard < j->size && PMPI_Wtime() < end) {
		int flag = 0, who;
		MPI_Status s;
		PMPI_Iprobe(MPI_ANY_SOURCE, TAG_ARRIVED, MPI_COMM_WORLD, &flag, &s);
		if (!flag) {
			nanosleep(&(struct timespec){ 0, 1000000 }, NULL);
			continue;
		}
		PMPI_Recv(&who, 1, MPI_INT, s.MPI_SOURCE, TAG_ARRIVED, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		if (!seen[s.MPI_SOURCE]++)
			heard++;
	}
	for (int i = 0; i < j->size; i++)
		if (!seen[i] && o < sizeof(list) - 40) {
			o += (size_t)snprintf(list + o, sizeof(list) - o, "%s%d", named ? ", " : "", i);
			named++;
		} else if (!seen[i] && named++ && o < sizeof(list) - 5 && !strstr(list, "...")) {
			o += (size_t)snprintf(list + o, sizeof(list) - o, ", ...");
		}
	say("MPI_Finalize: %d of the %d ranks did not arrive within PMU_MPI_TIMEOUT=%g s of rank 0 (dead, stopped, or "
	    "still working; not heard from: rank%s %s): no job report; each rank that arrived writes its own (rank 0: '%s')",
	    j->size - heard, j->size, j->timeout, j->size - heard == 1 ? "" : "s", list, *rank_file ? rank_file : "stderr");
	free(seen);
}

static void on_term(int sig)
{
	(void)sig;
	terminated = 1;
}

static void at_finalize(void)
{
	const char *out = getenv("PMU_OUTPUT");
	char path[PATH_MAX], mine[PATH_MAX];
	struct job j = { 0 };
	int r;

	rank_path(out, mine, sizeof(mine));
	if (out && *out && strcmp(out, "-") && expand(out, path, sizeof(path)) < 0) {
		say("PMU_OUTPUT='%.100s' is too long once %%r and %%p are expanded: no job report. Fix PMU_OUTPUT.", out);
		return; /* each rank's report at exit, as without libpmu-mpi */
	}
	/* mpirun ends a job whose rank died (or left without MPI_Finalize) by SIGTERM, and SIGKILL a second
	 * later (odls_base_sigkill_timeout): the wait ends, and this rank's report is written in that second */
	struct sigaction sa = { .sa_handler = on_term }, old;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, &old);
	r = run(&j, MPI_COMM_WORLD, out && *out && strcmp(out, "-") ? path : out, false, true);
	if (r == -EINTR) {
		if (j.rank == 0)
			say("MPI_Finalize: SIGTERM while the ranks met for the job report (mpirun ends the job: a rank died, or "
			    "left without MPI_Finalize): no job report; each rank that received it writes its own ('%s' here)",
			    *mine ? mine : "stderr");
		/* the second before SIGKILL is shared by every rank on the node's CPUs: rank 0's report first
		 * (the others at the lowest priority; Linux's nice is the calling thread's, which writes) */
		if (j.rank != 0)
			setpriority(PRIO_PROCESS, 0, 19);
		write_rank(mine);
		sigaction(SIGTERM, &old, NULL);
		raise(SIGTERM);
		return;
	}
	sigaction(SIGTERM, &old, NULL);
	if (r == 0) {
		if (env_bool("PMU_MPI_PER_RANK", 0))
			write_rank(mine);
		pmu_region_reset();
		return;
	}
	if (r == -ETIMEDOUT && j.step && !strcmp(j.step, "arrival"))
		missing_ranks(&j, mine);
	else if (j.rank == 0 || r != -ETIMEDOUT)
		say("MPI_Finalize: rank %d: the job report failed at %s: %s; this rank writes its own report ('%s')", j.rank,
		    j.step ? j.step : "writing it", r == -ETIMEDOUT ? "no reply within PMU_MPI_TIMEOUT" : strerror(-r),
		    *mine ? mine : "stderr");
	write_rank(mine);
}

EXPORT int MPI_Finalize(void)
{
	int init = 0, fin = 0;

	PMPI_Initialized(&init);
	PMPI_Finalized(&fin);
	if (init && !fin && env_bool("PMU_MPI", 1))
		at_finalize();
	return PMPI_Finalize();
}

/* Fortran's MPI_FINALIZE (mpif.h and the mpi module): Open MPI's calls PMPI_Finalize itself, past the C
 * MPI_Finalize above, so each name the compilers give it is defined here too (the mpi_f08 module's are not). */
EXPORT void mpi_finalize_(MPI_Fint *ierr);
EXPORT void mpi_finalize__(MPI_Fint *ierr);
EXPORT void mpi_finalize(MPI_Fint *ierr);
EXPORT void MPI_FINALIZE(MPI_Fint *ierr);
void mpi_finalize_(MPI_Fint *ierr)
{
	*ierr = (MPI_Fint)MPI_Finalize();
}
void mpi_finalize__(MPI_Fint *ierr)
{
	*ierr = (MPI_Fint)MPI_Finalize();
}
void mpi_finalize(MPI_Fint *ierr)
{
	*ierr = (MPI_Fint)MPI_Finalize();
}
void MPI_FINALIZE(MPI_Fint *ierr)
{
	*ierr = (MPI_Fint)MPI_Finalize();
}

EXPORT int pmu_mpi_report(MPI_Comm comm, const char *path)
{
	const char *asked = path ? path : getenv("PMU_OUTPUT");
	char file[PATH_MAX];
	struct job j = { 0 };
	int r;

	if (comm == MPI_COMM_NULL)
		return -EINVAL;
	if (asked && *asked && strcmp(asked, "-")) {
		if (expand(asked, file, sizeof(file)) < 0) {
			say("pmu_mpi_report: the path '%.100s' is too long once %%r and %%p are expanded", asked);
			return -ENAMETOOLONG; /* the others wait for this rank in vain unless it is rank 0's alone */
		}
		asked = file;
	}
	r = run(&j, comm, asked, path != NULL, false);
	if (r < 0 && j.rank == 0)
		say("pmu_mpi_report: the report failed at %s: %s", j.step ? j.step : "writing it",
		    r == -ETIMEDOUT ? "no reply within PMU_MPI_TIMEOUT" : strerror(-r));
	return r;
}

EXPORT int pmu_mpi_stats(struct pmu_mpi_stats *out)
{
	size_t n;

	if (!out || out->size < sizeof(size_t) + sizeof(int))
		return -EINVAL;
	if (!have_last)
		return -ENODATA;
	n = out->size < sizeof(last) ? out->size : sizeof(last);
	memcpy((char *)out + sizeof(size_t), (const char *)&last + sizeof(size_t), n - sizeof(size_t));
	return 0;
}
