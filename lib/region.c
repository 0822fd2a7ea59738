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
#include <errno.h>
#include <stddef.h>
#include <stdbool.h>
#include <string.h>
#include "pmu.h"
#include "region.h"
#include "common.h"
#include "error.h"
#include "fork.h"
#include "region-accum.h"
#include "region-name.h"
#include "util.h"

__thread struct thread_state *pmu__region_me __attribute__((tls_model("initial-exec")));

/*
 * The instructions around the two reads are what a region adds (issue 16; bench/region-cost.sh). The
 * common path of pmu_region_end, _enter and _leave — the thread set up, the name the last one used or
 * a handle of this thread, one group read from user space — is a leaf with no stack frame; anything
 * else is a function it calls in tail position: cold for errors, not for another name (nested
 * regions) or a set of several groups (pmu_fast_slow's read). pmu_region_begin keeps a frame: every
 * begin's paths join before its read, so that the code after the read is the same on each without
 * relying on the compiler's tail calls (the calibration is exact at -O0 too).
 */

/* An end that cannot close a region: the read's error, or the unmatched end's. @by_handle: the end
 * was pmu_region_leave (else pmu_region_end). */
__attribute__((noinline, cold)) static int end_failed(struct thread_state *ts, int r, bool by_handle,
						      const char *name)
{
	struct slot *s;

	ts->busy = 0;
	if (r < 0)
		return r;
	/* kept for the report, which says it: the caller may not look at the return value */
	if ((s = find(ts, name)))
		s->stray_ends++;
	else if (ts->stray_unknown++ == 0)
		pmu__strlcpy(ts->stray_name, name, sizeof(ts->stray_name));
	return pmu__err(R.ctx, -EINVAL, "%s(\"%s\") without a matching %s in this thread; nothing recorded",
			by_handle ? "pmu_region_leave" : "pmu_region_end", name,
			by_handle ? "enter or begin" : "pmu_region_begin");
}

/* A read of the thread's events that user space could not do (pmu_fast_slow: read(2), another layout, a
 * raw fork's child: -ECHILD); with socket-wide values every read (region-socket.c). */
static inline int read_slow(struct thread_state *ts, struct pmu_value *out)
{
	if (!R.nsock)
		return pmu_fast_slow(ts->fast, out);
	return ts->tfast ? pmu_fast_slow(ts->tfast, out) : 0;
}

/* The outermost begin's read that user space could not do into @start, a slot's (the socket-wide values'
 * read first: the socket's interval holds the thread's). 0 or the error, nothing begun. The arguments
 * of pmu_fast_slow(), which it stands for in the begin: called so, the begin's machine code is the same
 * as with that call, which the figures of bench/results/region-cost.md measured. */
__attribute__((noinline)) static int begin_read(const struct pmu_fast *f, struct pmu_value *start)
{
	struct slot *s = (struct slot *)((char *)start - offsetof(struct slot, start));
	int r;

	if (!R.nsock)
		return pmu_fast_slow(f, start);
	if ((r = pmu__region_socket_begin(s)) < 0)
		return r;
	if ((r = read_slow(s->ts, start)) < 0)
		pmu__region_socket_end(s, false);
	return r;
}

/* pmu_fast_read() with begin_read() for pmu_fast_slow(), written as it is (the same machine code). */
PMU_HOT int fast_read_begin(const struct pmu_fast *f, struct pmu_value *out)
{
	if (__builtin_expect(pmu__fast_try(f, out), 0))
		return begin_read(f, out);
	return 0;
}

/* The outermost begin's read that user space could not do: on an error nothing is opened. Clears busy. */
__attribute__((noinline)) static int begin_slow(struct thread_state *ts, struct slot *s)
{
	int r = begin_read(ts->fast, s->start);

	if (r < 0)
		s->depth = 0;
	ts->busy = 0;
	return r < 0 ? r : 0;
}

/* Open one level of @s (busy set); the outermost reads the start counts. @by_handle: through a
 * handle, from pmu_region_enter, a leaf: a read user space cannot do is begin_slow's, a tail call;
 * pmu_region_begin has a frame anyway and makes that call itself. Returns 0, or the read's error with
 * nothing opened; clears busy. */
__attribute__((always_inline)) static inline int slot_begin(struct thread_state *ts, struct slot *s, bool by_handle)
{
	if (s->depth++ == 0) {
		s->by_handle = by_handle;
		if (by_handle) {
			if (__builtin_expect(pmu__fast_try(ts->fast, s->start), 0))
				return begin_slow(ts, s);
		} else {
			int r = fast_read_begin(ts->fast, s->start);
			if (__builtin_expect(r < 0, 0)) {
				s->depth = 0;
				ts->busy = 0;
				return r;
			}
		}
	}
	ts->busy = 0;
	return 0;
}

/* Close one level of @s with the counts @now; @by_handle: this end came through a handle. */
__attribute__((always_inline)) static inline void slot_end(struct thread_state *ts, struct slot *s,
							  const struct pmu_value *now, bool by_handle)
{
	const uint64_t *ov = ts->ov[2 * s->by_handle + by_handle];
	size_t nev = ts->nev; /* once: the stores below could alias it */

	if (--s->depth)
		return;
	PMU_REGION_ACCUMULATE(s, now, ov, nev);
	s->calls++;
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

/* The slot of @name, not the last one used in this thread: found, or made at its first use here;
 * or the error (negative), returned as one value with it. */
__attribute__((noinline)) static intptr_t slot_lookup(struct thread_state *ts, const char *name)
{
	int err = 0;
	struct slot *s = find(ts, name);

	if (!s && !(s = pmu__region_new_slot(ts, name, &err)))
		return err < 0 ? err : -ENOMEM;
	return (intptr_t)s;
}

/* Before any other begin (a NULL name, this thread's first, regions off, inside a signal handler's):
 * 0 when the thread is now ready to begin, else the error. */
__attribute__((noinline, cold)) static int begin_ready(const char *name)
{
	struct thread_state *ts;
	int err = 0;

	if (!name)
		return pmu__err(NULL, -EINVAL, "pmu_region_begin: NULL region name");
	if (!(ts = thread_ready(&err)))
		return err;
	return ts->busy ? -EBUSY : 0;
}

PMU_EXPORT int pmu_region_begin(const char *name)
{
	struct thread_state *ts = pmu__region_me;
	struct slot *s;

	if (__builtin_expect(!name || !ts || ts->err || ts->busy, 0)) {
		int r = begin_ready(name);
		if (r)
			return r;
		ts = pmu__region_me;
	}
	ts->busy = 1;
	s = ts->last_slot;
	if (__builtin_expect(ts->last_key != name || !pmu__region_name_eq(s->name, name), 0)) {
		intptr_t r = slot_lookup(ts, name);
		if (r < 0) {
			ts->busy = 0;
			return (int)r;
		}
		s = (struct slot *)r;
	}
	/* every path (the slot found at once, by lookup, made) ends here: the code after the read, part
	 * of the region, is the same on each, whatever the optimisation level (an empty region must count
	 * 0 once calibrated: tests/lab/guest/lab-regions.c) */
	return slot_begin(ts, s, false);
}

/* An end after its read (@r: its result), the slot found by name and closed. */
__attribute__((always_inline)) static inline int end_close(struct thread_state *ts, const char *name, int r)
{
	struct slot *s = find(ts, name);

	if (!s || s->depth == 0 || r < 0)
		return end_failed(ts, r, false, name);
	slot_end(ts, s, ts->now, false);
	ts->busy = 0;
	return 0;
}

/* An end whose name is not the last one used in this thread (its read done). */
__attribute__((noinline)) static int end_lookup(struct thread_state *ts, const char *name)
{
	return end_close(ts, name, 0);
}

/* The closing end of @s with the counts @now (@by_handle: through a handle), on a set that counts names
 * on each core PMU (R.tot): each such name's total in this call — its parts' deltas, each less its
 * calibrated cost, added up —, the smallest and largest kept. Such a set is never read inline (set.c),
 * so only the slow ends come here. */
static void totals_close(const struct thread_state *ts, struct slot *s, const struct pmu_value *now, bool by_handle)
{
	const uint64_t *ov = ts->ov[2 * s->by_handle + by_handle];

	for (size_t t = 0; t < R.ntot; t++) {
		uint64_t d = 0;
		for (size_t k = 0; k < ts->nev; k++)
			if (R.tot[t].parts >> k & 1)
				d += PMU_REGION_DELTA(now[k].value, s->start[k].value, ov[k]);
		if (d < s->tmin[t])
			s->tmin[t] = d;
		if (d > s->tmax[t])
			s->tmax[t] = d;
	}
}

/* The closing end of @s, its read done (@by_handle: through a handle): the totals of names counted on
 * each core PMU, and the socket-wide values' read (after the thread's). */
static void close_slow(const struct thread_state *ts, struct slot *s, bool by_handle)
{
	if (R.ntot)
		totals_close(ts, s, ts->now, by_handle);
	if (R.nsock)
		pmu__region_socket_end(s, true);
}

/* An end whose read user space could not do: the read, then the rest in the same frame. */
__attribute__((noinline)) static int end_slow(struct thread_state *ts, const char *name)
{
	int r = read_slow(ts, ts->now);
	struct slot *s;

	if ((R.ntot || R.nsock) && r >= 0 && (s = find(ts, name)) && s->depth == 1)
		close_slow(ts, s, false);
	return end_close(ts, name, r);
}

/* Any other end: a NULL name, no region in this thread yet, regions off, inside a signal handler's. */
__attribute__((noinline, cold)) static int end_rare(const char *name)
{
	struct thread_state *ts = pmu__region_me;

	if (!name)
		return pmu__err(NULL, -EINVAL, "pmu_region_end: NULL region name");
	if (!ts)
		return pmu__err(R.ctx, -EINVAL, "pmu_region_end(\"%s\") before any pmu_region_begin in this thread",
				name);
	if (ts->err)
		return regions_off(ts);
	return -EBUSY;
}

PMU_EXPORT int pmu_region_end(const char *name)
{
	struct thread_state *ts = pmu__region_me;
	struct slot *s;

	if (__builtin_expect(!name || !ts || ts->err || ts->busy, 0))
		return end_rare(name);
	ts->busy = 1;
	/* the read first: the lookup is not part of the region */
	if (__builtin_expect(pmu__fast_try(ts->fast, ts->now), 0))
		return end_slow(ts, name);
	s = ts->last_slot;
	if (__builtin_expect(ts->last_key != name || !pmu__region_name_eq(s->name, name) || s->depth == 0, 0))
		return end_lookup(ts, name);
	slot_end(ts, s, ts->now, false);
	ts->busy = 0;
	return 0;
}

PMU_EXPORT int pmu_region_overhead(uint64_t *out, size_t n)
{
	struct thread_state *ts = pmu__region_me;

	if (!out && n)
		return pmu__err(R.ctx, -EINVAL, "pmu_region_overhead: NULL output for %zu values", n);
	if (!ts || ts->gen != pmu__fork_generation() || ts->err)
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

/* Why the calling thread cannot use handle @h in @fn (pmu_region_enter/leave): the error. */
__attribute__((noinline, cold)) static int handle_refused(struct pmu_region *h, const char *fn)
{
	struct thread_state *ts = pmu__region_me;
	struct slot *s = (struct slot *)h;

	if (!h)
		return pmu__err(NULL, -EINVAL, "%s: NULL region handle", fn);
	if (!ts)
		return pmu__err(R.ctx, -EINVAL, "%s: this thread has no regions: a handle is valid only in the "
				"thread that got it from pmu_region_get (and not in a forked child)", fn);
	if (s->ts != ts)
		return pmu__err(R.ctx, -EINVAL, "%s(\"%s\"): the handle belongs to another thread (or to the parent "
				"process); get one in this thread with pmu_region_get", fn, s->name);
	return -EBUSY; /* a signal handler inside this thread's begin/end */
}

/* The calling thread's state if handle @h is its own and the thread is not inside a region call
 * already (a signal handler's), else NULL. In a forked child pmu__region_me starts NULL
 * (at_fork_child) and a new state never has the parent's address (the parent's is kept): one
 * comparison is the whole ownership check. */
static inline struct thread_state *handle_usable(struct pmu_region *h)
{
	struct thread_state *ts = pmu__region_me;

	if (__builtin_expect(h && ts && ((struct slot *)h)->ts == ts && !ts->busy, 1))
		return ts;
	return NULL;
}

PMU_EXPORT int pmu_region_enter(struct pmu_region *h)
{
	struct thread_state *ts = handle_usable(h);

	if (!ts)
		return handle_refused(h, "pmu_region_enter");
	ts->busy = 1;
	return slot_begin(ts, (struct slot *)h, true);
}

/* A leave whose read user space could not do. */
__attribute__((noinline)) static int leave_slow(struct thread_state *ts, struct slot *s)
{
	int r = read_slow(ts, ts->now);

	if (s->depth == 0 || r < 0)
		return end_failed(ts, r, true, s->name);
	if (s->depth == 1)
		close_slow(ts, s, true);
	slot_end(ts, s, ts->now, true);
	ts->busy = 0;
	return 0;
}

PMU_EXPORT int pmu_region_leave(struct pmu_region *h)
{
	struct slot *s = (struct slot *)h;
	struct thread_state *ts = handle_usable(h);

	if (!ts)
		return handle_refused(h, "pmu_region_leave");
	ts->busy = 1;
	if (__builtin_expect(pmu__fast_try(ts->fast, ts->now), 0))
		return leave_slow(ts, s);
	if (__builtin_expect(s->depth == 0, 0))
		return end_failed(ts, 0, true, s->name);
	slot_end(ts, s, ts->now, true);
	ts->busy = 0;
	return 0;
}

PMU_EXPORT void pmu_region_reset(void)
{
	pthread_mutex_lock(&R.lock);
	for each_thread(t) {
		for (size_t i = 0; i < t->nslots; i++)
			pmu__region_slot_forget(t->slots[i]);
		t->stray_unknown = 0; /* the ends of names never begun, which no slot holds */
		t->stray_name[0] = 0;
	}
	for (size_t id = 0; id < R.nnames; id++) { /* the threads folded, the socket-wide sums: forgotten too */
		if (R.names[id].folded) {
			pmu__region_slot_forget(R.names[id].folded);
			R.names[id].folded_open = 0;
		}
		pmu__region_socket_forget(&R.names[id]);
	}
	R.folded_stray = 0;
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
		pmu__region_slot_forget(s);
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
