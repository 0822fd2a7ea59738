/* SPDX-License-Identifier: MIT */
/*
 * Regions: pmu_region_begin/end with no set-up call — the hot path.
 *
 * One process-wide context; per thread, a set opened on first use and a
 * table of slots, one per region name (region-names.c finds them by
 * content). No lock and no allocation once a name has been seen in the
 * thread: a begin reads the counters into the slot, its end reads them
 * again and adds the difference, less the calibrated cost of an empty pair
 * (measured here, at the end of this file, through these same entry points).
 * Set-up is region-setup.c, reports region-report.c.
 */
#include <string.h>
#include "region.h"

__thread struct thread_state *pmu__region_me __attribute__((tls_model("initial-exec")));

/* Open one level of @s; the outermost reads the start counts. @by_handle:
 * through a handle. Returns 0, or the read's error (a child of a raw fork
 * system call: -ECHILD), with nothing opened. */
__attribute__((always_inline)) static inline int slot_begin(struct thread_state *ts, struct slot *s, bool by_handle)
{
	if (s->depth++ == 0) {
		int r;
		s->by_handle = by_handle;
		if (__builtin_expect((r = pmu_fast_read(ts->fast, s->start)) < 0, 0)) {
			s->depth = 0;
			return r;
		}
	}
	return 0;
}

static int region_begin(struct thread_state *ts, const char *name)
{
	struct slot *s;
	int err = 0;

	if (ts->busy)
		return -EBUSY;
	ts->busy = 1;
	s = find(ts, name);
	if (!s && !(s = pmu__region_new_slot(ts, name, &err))) {
		ts->busy = 0;
		return err;
	}
	err = slot_begin(ts, s, false);
	ts->busy = 0;
	return err;
}

/* Close one level of @s with the counts @now; @by_handle: this end came through a handle. */
__attribute__((always_inline)) static inline void slot_end(struct thread_state *ts, struct slot *s,
							  const struct pmu_value *now, bool by_handle)
{
	const uint64_t *ov = ts->ov[2 * s->by_handle + by_handle];

	if (--s->depth)
		return;
	for (size_t k = 0; k < ts->nev; k++) {
		uint64_t d = now[k].value - s->start[k].value;
		d = d > ov[k] ? d - ov[k] : 0; /* the pair's own cost (0 until calibrated) */
		s->sum[k].value += d;
		s->sum[k].enabled += now[k].enabled - s->start[k].enabled;
		s->sum[k].running += now[k].running - s->start[k].running;
		if (d < s->min[k])
			s->min[k] = d;
		if (d > s->max[k])
			s->max[k] = d;
	}
	s->calls++;
}

static int region_end(struct thread_state *ts, const char *name)
{
	struct pmu_value now[REG_MAX_EV];
	struct slot *s;
	int r;

	if (ts->busy)
		return -EBUSY;
	ts->busy = 1;
	r = pmu_fast_read(ts->fast, now);
	s = find(ts, name);
	if (__builtin_expect(!s || s->depth == 0 || r < 0, 0)) {
		ts->busy = 0;
		if (r < 0)
			return r;
		return pmu__err(R.ctx, -EINVAL, "pmu_region_end(\"%s\") without a matching pmu_region_begin in this "
				"thread; nothing recorded", name);
	}
	slot_end(ts, s, now, false);
	ts->busy = 0;
	return 0;
}

/* The error of a thread whose regions are off, with the sentence saved
 * when it happened (the cause and fix, a suggestion for a misspelt name). */
static int regions_off(const struct thread_state *ts)
{
	return pmu__err(R.ctx, ts->err, "regions are off in this %s: %s", ts->errmsg == R.errmsg ? "process" : "thread",
			ts->errmsg);
}

static void calibrate(struct thread_state *ts);

/* The calling thread's region state, set up on its first use; NULL, with
 * the error in *err, when regions cannot count in this thread. */
static inline struct thread_state *thread_ready(int *err)
{
	struct thread_state *ts = pmu__region_me;

	/* a forked child starts with pmu__region_me == NULL (at_fork_child) */
	if (__builtin_expect(!ts, 0)) {
		if (!(ts = pmu__region_thread_init())) {
			*err = pmu__err(NULL, -ENOMEM, "out of memory setting up regions for this thread");
			return NULL;
		}
		if (!ts->err && R.calibrate)
			calibrate(ts); /* through the public entry points: ts is this thread's already */
	}
	if (ts->err) {
		*err = regions_off(ts);
		return NULL;
	}
	return ts;
}

PMU_EXPORT int pmu_region_begin(const char *name)
{
	struct thread_state *ts;
	int err = 0;

	if (!name)
		return pmu__err(NULL, -EINVAL, "pmu_region_begin: NULL region name");
	if (!(ts = thread_ready(&err)))
		return err;
	return region_begin(ts, name);
}

PMU_EXPORT int pmu_region_end(const char *name)
{
	struct thread_state *ts = pmu__region_me;

	if (!name)
		return pmu__err(NULL, -EINVAL, "pmu_region_end: NULL region name");
	if (!ts)
		return pmu__err(R.ctx, -EINVAL, "pmu_region_end(\"%s\") before any pmu_region_begin in this thread",
				name);
	if (ts->err)
		return regions_off(ts);
	return region_end(ts, name);
}

PMU_EXPORT int pmu_region_overhead(uint64_t *out, size_t n)
{
	struct thread_state *ts = pmu__region_me;

	if (!out && n)
		return pmu__err(R.ctx, -EINVAL, "pmu_region_overhead: NULL output for %zu values", n);
	if (!ts || ts->gen != pmu__fork_gen || ts->err)
		return pmu__err(R.ctx, -ENODATA, "no region events are open in this thread yet");
	for (size_t k = 0; k < n && k < ts->nev; k++)
		out[k] = ts->calibrated ? ts->overhead[k] : 0;
	return (int)ts->nev;
}

PMU_EXPORT int pmu_region_get(const char *name, struct pmu_region **out)
{
	struct thread_state *ts;
	struct slot *s;
	int err = 0;

	if (!out)
		return pmu__err(NULL, -EINVAL, "pmu_region_get: NULL result pointer");
	*out = NULL;
	if (!name)
		return pmu__err(NULL, -EINVAL, "pmu_region_get: NULL region name");
	if (!(ts = thread_ready(&err)))
		return err;
	if (ts->busy)
		return -EBUSY;
	ts->busy = 1;
	s = find(ts, name);
	if (!s)
		s = pmu__region_new_slot(ts, name, &err);
	ts->busy = 0;
	if (!s)
		return err;
	*out = (struct pmu_region *)s;
	return 0;
}

/* The calling thread's state if @h is one of its handles, else NULL with the error in *err. */
static inline struct thread_state *handle_owner(struct pmu_region *h, const char *fn, int *err)
{
	struct thread_state *ts = pmu__region_me;
	struct slot *s = (struct slot *)h;

	/* in a forked child pmu__region_me starts NULL (at_fork_child) and a new state never has the
	 * parent's address (the parent's is kept): one comparison is the whole check */
	if (__builtin_expect(h && ts && s->ts == ts, 1))
		return ts;
	if (!h)
		*err = pmu__err(NULL, -EINVAL, "%s: NULL region handle", fn);
	else if (!ts)
		*err = pmu__err(R.ctx, -EINVAL, "%s: this thread has no regions: a handle is valid only in the "
				"thread that got it from pmu_region_get (and not in a forked child)", fn);
	else
		*err = pmu__err(R.ctx, -EINVAL, "%s(\"%s\"): the handle belongs to another thread (or to the parent "
				"process); get one in this thread with pmu_region_get", fn, s->name);
	return NULL;
}

PMU_EXPORT int pmu_region_enter(struct pmu_region *h)
{
	struct slot *s = (struct slot *)h;
	int err = 0;
	struct thread_state *ts = handle_owner(h, "pmu_region_enter", &err);

	if (!ts)
		return err;
	if (ts->busy)
		return -EBUSY;
	ts->busy = 1;
	err = slot_begin(ts, s, true);
	ts->busy = 0;
	return err;
}

PMU_EXPORT int pmu_region_leave(struct pmu_region *h)
{
	struct pmu_value now[REG_MAX_EV];
	struct slot *s = (struct slot *)h;
	int err = 0;
	struct thread_state *ts = handle_owner(h, "pmu_region_leave", &err);

	if (!ts)
		return err;
	if (ts->busy)
		return -EBUSY;
	ts->busy = 1;
	err = pmu_fast_read(ts->fast, now);
	if (__builtin_expect(s->depth == 0 || err < 0, 0)) {
		ts->busy = 0;
		if (err < 0)
			return err;
		return pmu__err(R.ctx, -EINVAL, "pmu_region_leave(\"%s\") without a matching enter or begin in this "
				"thread; nothing recorded", s->name);
	}
	slot_end(ts, s, now, true);
	ts->busy = 0;
	return 0;
}

PMU_EXPORT void pmu_region_reset(void)
{
	pthread_mutex_lock(&R.lock);
	for (struct thread_state *t = R.threads; t; t = t->next)
		for (size_t i = 0; i < t->nslots; i++) {
			struct slot *s = t->slots[i];
			s->calls = 0;
			memset(s->sum, 0, sizeof(s->sum));
			memset(s->max, 0, sizeof(s->max));
			for (size_t k = 0; k < REG_MAX_EV; k++)
				s->min[k] = UINT64_MAX;
		}
	pthread_mutex_unlock(&R.lock);
}

/* ---- calibration: a thread's first region call measures an empty pair by name and by handle, the
 * smallest of CAL_ROUNDS, per event; an end subtracts it (struct thread_state's ov), so a region
 * counts its own code and not libpmu's ---- */

/* The calibration pair: what `pmu_region_begin("x"); pmu_region_end("x");`
 * with a literal name compiles to, through the public entry points (their
 * own checks are part of what a user region measures). */
__attribute__((noinline)) static void cal_pair(void)
{
	pmu_region_begin(CAL_NAME);
	pmu_region_end(CAL_NAME);
	/* not a tail call: code usually continues after pmu_region_end, and a
	 * tail call would put this function's epilogue inside the region */
	__asm__ __volatile__("" ::: "memory");
}

/* The same through a handle. */
__attribute__((noinline)) static void cal_pair_h(struct pmu_region *h)
{
	pmu_region_enter(h);
	pmu_region_leave(h);
	__asm__ __volatile__("" ::: "memory");
}

/* Calibration: the smallest cost of an empty pair, per event, into @out. */
static void calibrate_pair(struct thread_state *ts, struct pmu_region *h, uint64_t *out)
{
	uint64_t best[REG_MAX_EV];
	struct slot *s;

	for (size_t k = 0; k < ts->nev; k++)
		best[k] = UINT64_MAX;
	for (int round = 0; round < CAL_ROUNDS; round++) {
		if (h)
			cal_pair_h(h);
		else
			cal_pair();
		s = find(ts, CAL_NAME);
		if (!s || s->calls != 1)
			return;
		for (size_t k = 0; k < ts->nev; k++)
			if (s->max[k] < best[k])
				best[k] = s->max[k];
		/* forget this round so that max is the next round's value */
		memset(s->sum, 0, sizeof(s->sum));
		for (size_t k = 0; k < REG_MAX_EV; k++) {
			s->max[k] = 0;
			s->min[k] = UINT64_MAX;
		}
		s->calls = 0;
	}
	for (size_t k = 0; k < ts->nev; k++)
		out[k] = best[k] == UINT64_MAX ? 0 : best[k];
}

static void calibrate(struct thread_state *ts)
{
	struct pmu_region *h = NULL;

	calibrate_pair(ts, NULL, ts->overhead);
	if (pmu_region_get(CAL_NAME, &h) == 0)
		calibrate_pair(ts, h, ts->overhead_h);
	for (size_t k = 0; k < ts->nev; k++) {
		uint64_t mixed = ts->overhead[k] < ts->overhead_h[k] ? ts->overhead[k] : ts->overhead_h[k];
		ts->ov[0][k] = ts->overhead[k];
		ts->ov[1][k] = ts->ov[2][k] = mixed;
		ts->ov[3][k] = ts->overhead_h[k];
	}
	ts->calibrated = 1;
}
