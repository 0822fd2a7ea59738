/* SPDX-License-Identifier: MIT */
/*
 * libpmu fast path: reading perf_event counters from user space.
 * Included by <pmu.h>; do not include directly.
 *
 * The kernel publishes, for every mmapped event, a struct
 * perf_event_mmap_page ("user page") with a sequence lock. While the event
 * is on a hardware counter and user access is allowed, the count is
 *   offset + sign_extend(hardware counter, pmc_width)
 * and enabled/running times can be extrapolated from the time fields. The
 * loop below is the only implementation of that read in libpmu; the
 * hardware access (rdpmc / mrs / csrr) and the time source are a few lines
 * per architecture in <pmu/arch/...>.
 */
#ifndef PMU_FAST_H
#define PMU_FAST_H

#ifndef PMU_H
#error "include <pmu.h>, not <pmu/fast.h>"
#endif

#include <pmu/arch.h>

/* x86 rdpmc selectors (ECX): fixed counters and the topdown metrics register. */
#define PMU_X86_RDPMC_FIXED   (1u << 30)
#define PMU_X86_RDPMC_METRICS (1u << 29)

/** rdpmc ECX value selecting fixed counter @n (3 = SLOTS on Ice Lake and later). */
static inline uint32_t pmu_x86_rdpmc_fixed(unsigned n) { return PMU_X86_RDPMC_FIXED | n; }
/** rdpmc ECX value selecting metrics register @n (0 = PERF_METRICS, L1 and L2 topdown). */
static inline uint32_t pmu_x86_rdpmc_metrics(unsigned n) { return PMU_X86_RDPMC_METRICS | n; }

/**
 * Counter and time source for pmu_page_read_with(): @counter reads hardware
 * counter for user-page index @index (never 0); @time reads the clock the
 * kernel's time_mult/time_shift convert (TSC, CNTVCT, rdtime).
 */
typedef uint64_t (*pmu_counter_fn)(void *arg, uint32_t index);
typedef uint64_t (*pmu_time_fn)(void *arg);

/* capabilities bits of the user page (uapi perf_event.h: bit 2 cap_user_rdpmc,
 * 3 cap_user_time, 5 cap_user_time_short); tested as masks of the 64-bit
 * word where bit-fields are laid out from bit 0 (little-endian), which is
 * one instruction less on RISC-V than the bit-field access */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define PMU__CAPS(p) ((p)->capabilities)
#define PMU__CAP(caps, p, bit, field) ((caps) & ((uint64_t)1 << (bit)))
#else
#define PMU__CAPS(p) 0
#define PMU__CAP(caps, p, bit, field) ((void)(caps), (p)->field)
#endif

/*
 * The seqlock read of one user page; with_time == 0 skips the clock and the
 * time fields (for group members, whose times are their leader's). Callers
 * pass constants, so each use compiles to a straight-line loop. @counter and
 * @time NULL mean this CPU's pmu_arch_counter()/pmu_arch_time(), called
 * directly: forcing their inlining through a function pointer fails at gcc
 * -O1, which resolves indirect calls only from -O2 (-findirect-inlining).
 */
PMU_HOT int pmu__page_read(const struct perf_event_mmap_page *pc, pmu_counter_fn counter,
				 pmu_time_fn time, void *arg, int with_time, struct pmu_value *out,
				 uint64_t *offset_out)
{
	const volatile struct perf_event_mmap_page *p = pc;
	uint32_t seq, idx;
	uint64_t count, enabled = 0, running = 0;

	do {
		uint64_t caps;
		seq = p->lock;
		__asm__ __volatile__("" ::: "memory");
		idx = p->index;
		caps = PMU__CAPS(p); /* once: the page is volatile, each use would load it again */
		/* two predicted branches: written as one condition, GCC computes both
		 * flags without branching, 4 more instructions per counter on arm64 */
		if (__builtin_expect(idx == 0, 0))
			return 1;
		if (__builtin_expect(!PMU__CAP(caps, p, 2, cap_user_rdpmc), 0))
			return 1;
		count = p->offset;
		if (with_time) {
			/* The page's times are as of the kernel's last update of it
			 * (the event's last sched-in), so they lag by as long as the
			 * event has been on its counter since: always extrapolate them
			 * to now. Skipping that while enabled == running gives each
			 * read a different lag, and a delta of two reads taken before
			 * and after multiplexing starts is then scaled wrongly. Without
			 * cap_user_time the lag cannot be known: read(2) instead. */
			uint64_t cyc, quot, rem, delta;
			uint16_t shift;
			uint32_t mult;
			if (__builtin_expect(!PMU__CAP(caps, p, 3, cap_user_time), 0))
				return 1;
			enabled = p->time_enabled;
			running = p->time_running;
			shift = p->time_shift;
			mult = p->time_mult;
			cyc = time ? time(arg) : pmu_arch_time(arg);
			if (PMU__CAP(caps, p, 5, cap_user_time_short)) {
				uint64_t t0 = p->time_cycles;
				cyc = t0 + ((cyc - t0) & p->time_mask);
			}
#ifdef __SIZEOF_INT128__
			/* (cyc * mult) >> shift in 128 bits: equal, modulo 2^64, to the
			 * kernel's quot * mult + ((rem * mult) >> shift) */
			(void)quot;
			(void)rem;
			delta = p->time_offset + (uint64_t)((__extension__(unsigned __int128)cyc * mult) >> shift);
#else
			quot = cyc >> shift;
			rem = cyc & (((uint64_t)1 << shift) - 1);
			delta = p->time_offset + quot * mult + ((rem * mult) >> shift);
#endif
			enabled += delta;
			running += delta;
		}
		{
			/* sign-extend from pmc_width bits (64 - width is 0 for 64-bit counters) */
			unsigned shift = (64u - p->pmc_width) & 63u;
			uint64_t pmc = counter ? counter(arg, idx) : pmu_arch_counter(arg, idx);
			count += (uint64_t)((int64_t)(pmc << shift) >> shift);
		}
		__asm__ __volatile__("" ::: "memory");
	} while (p->lock != seq);

	out->value = count;
	if (with_time) {
		out->enabled = enabled;
		out->running = running;
	}
	if (offset_out)
		*offset_out = p->offset;
	return 0;
}

/**
 * pmu_page_read_with - the seqlock read of one user page.
 * @pc:      the event's mmapped user page.
 * @counter: hardware counter read; @time: clock read; @arg: passed to both.
 *           NULL: this CPU's counter or clock (what pmu_page_read() uses).
 * @out:     value, enabled, running on success.
 *
 * Returns 0 when @out was filled from user space, 1 when the kernel does not
 * currently allow it and the caller must use read(2): index 0 (the event is
 * not on a counter, e.g. disabled or multiplexed out), cap_user_rdpmc clear,
 * or cap_user_time clear (the times cannot be brought up to date). On
 * success enabled/running are extrapolated to now from the clock, as read(2)
 * computes them, so deltas of any two reads scale correctly.
 */
static inline int pmu_page_read_with(const struct perf_event_mmap_page *pc, pmu_counter_fn counter,
				     pmu_time_fn time, void *arg, struct pmu_value *out)
{
	return pmu__page_read(pc, counter, time, arg, 1, out, (uint64_t *)0);
}

/** pmu_page_read - pmu_page_read_with() using this CPU's counters and clock. */
PMU_HOT int pmu_page_read(const struct perf_event_mmap_page *pc, struct pmu_value *out)
{
	return pmu__page_read(pc, (pmu_counter_fn)0, (pmu_time_fn)0, (void *)0, 1, out, (uint64_t *)0);
}

/** Layout version of struct pmu_fast; see pmu_set_fast(). */
#define PMU_FAST_ABI 3

/**
 * A set's read plan (pmu_set_fast()): what the inline pmu_fast_read() needs,
 * nothing more. Read-only for users, and only through the pointer
 * pmu_set_fast() returned (the library finds the set from it); the inline
 * read compiled into a program depends on its layout, hence PMU_FAST_ABI.
 *
 * @guard comes first in every version of the layout. For a set that the
 * inline read can do alone — one group, every member readable from user
 * space, no hybrid parts — it points to a word holding the thread pointer
 * (pmu_arch_thread()) of the thread whose counters the set reads, in a page
 * the kernel zeroes in a child after fork() (MADV_WIPEONFORK). For every
 * other set, a NULL set and a program built against another layout it
 * points to a word that is never a thread pointer. A read compares it with
 * the caller's thread pointer; anything else takes pmu_fast_slow().
 */
struct pmu_fast {
	const volatile uintptr_t *guard;
	uint32_t abi;                            /* PMU_FAST_ABI of the library */
	uint32_t count;                          /* values */
	struct perf_event_mmap_page *const *pages; /* per value; NULL if unmapped */
};

/* The inline part of pmu_fast_read(): 0 when @out was filled from user space, 1 when the read must be
 * pmu_fast_slow()'s (another thread, a fork, a plan of another layout, several groups, an event not
 * readable from user space now). A caller with nothing else to do on 1 than that call can then make
 * it in tail position (libpmu's regions), so that its common path needs no stack frame. */
PMU_HOT int pmu__fast_try(const struct pmu_fast *f, struct pmu_value *out)
{
	struct perf_event_mmap_page *const *pg = f->pages;
	struct pmu_value *o = out, *last;
	uint64_t enabled, running;

	/* one load and compare: the owner thread, not forked, a one-group plan of this layout */
	if (__builtin_expect(*f->guard != pmu_arch_thread(), 0))
		return 1;
	if (__builtin_expect(pmu__page_read(*pg, (pmu_counter_fn)0, (pmu_time_fn)0, (void *)0, 1, o, (uint64_t *)0), 0))
		return 1;
	enabled = o->enabled;
	running = o->running;
	for (last = out + f->count; ++o < last;) {
		if (__builtin_expect(pmu__page_read(*++pg, (pmu_counter_fn)0, (pmu_time_fn)0, (void *)0, 0, o,
						    (uint64_t *)0), 0))
			return 1;
		o->enabled = enabled;
		o->running = running;
	}
	return 0;
}

/**
 * pmu_fast_read - read every value of a set: user space where possible, one
 * read(2) per group otherwise. Same result and return values as
 * pmu_set_read(); exported twin: pmu_fast_read_fn(). @f must come from
 * pmu_set_fast() (never NULL: pmu_set_fast(NULL) gives a plan that is
 * refused); @out is not checked (the twin checks both).
 *
 * Inline here: one group read from user space by its owner thread, in a
 * straight line. Everything else is one call, pmu_fast_slow().
 */
PMU_HOT int pmu_fast_read(const struct pmu_fast *f, struct pmu_value *out)
{
	if (__builtin_expect(pmu__fast_try(f, out), 0))
		return pmu_fast_slow(f, out);
	return 0;
}

/**
 * pmu_set_fast - the set's read plan for pmu_fast_read(), owned by the set
 * and valid until pmu_set_close(). The plan's layout is checked against the
 * one this program was compiled with (PMU_FAST_ABI, sizeof): if the library
 * has another, and for a NULL set, the plan returned is one every read
 * refuses (-EPROTO with a message to rebuild, -EINVAL for NULL) instead of
 * misreading it. Exported twin (the library's own layout): pmu_set_fast_fn().
 */
static inline const struct pmu_fast *pmu_set_fast(struct pmu_set *s)
{
	return pmu_set_fast_abi(s, PMU_FAST_ABI, sizeof(struct pmu_fast));
}

/* For the topdown sample: the slots counter as pmu__page_read asks for it,
 * and PERF_METRICS read right after it, inside the same seqlock round. */
struct pmu__topdown_read {
	pmu_counter_fn counter;
	void *arg;
	uint64_t metrics;
};

/* passed by pointer to pmu__page_read(): not forced inline (see there) */
static inline uint64_t pmu__topdown_counter(void *a, uint32_t index)
{
	struct pmu__topdown_read *t = (struct pmu__topdown_read *)a;
	uint64_t slots = t->counter ? t->counter(t->arg, index) : pmu_arch_counter(t->arg, index);
	t->metrics = t->counter ? t->counter(t->arg, pmu_x86_rdpmc_metrics(0) + 1)
				: pmu_arch_counter(t->arg, pmu_x86_rdpmc_metrics(0) + 1);
	return slots;
}

static inline uint64_t pmu__no_time(void *arg)
{
	(void)arg;
	return 0;
}

/**
 * pmu_topdown_page_sample_with - read the SLOTS fixed counter (through the
 * slots event's user page, @pc) and the PERF_METRICS register in one
 * seqlock round (x86 topdown, seed: Linux topdown.txt); the same loop as
 * every other user-space read. @counter NULL: this CPU's (rdpmc). Returns 0,
 * or 1 when the page does not allow a user-space read now.
 */
static inline int pmu_topdown_page_sample_with(const struct perf_event_mmap_page *pc, pmu_counter_fn counter,
					       void *arg, struct pmu_topdown_sample *out)
{
	struct pmu__topdown_read t;
	struct pmu_value v;
	uint64_t offset;

	t.counter = counter;
	t.arg = arg;
	t.metrics = 0;
	if (pmu__page_read(pc, pmu__topdown_counter, pmu__no_time, &t, 0, &v, &offset))
		return 1;
	out->slots = v.value - offset; /* raw: slots since the kernel last reset the counter */
	out->metrics = t.metrics;
	out->epoch = offset;
	return 0;
}

/** pmu_topdown_page_sample - pmu_topdown_page_sample_with() on this CPU (rdpmc). */
static inline int pmu_topdown_page_sample(const struct perf_event_mmap_page *pc, struct pmu_topdown_sample *out)
{
	return pmu_topdown_page_sample_with(pc, (pmu_counter_fn)0, (void *)0, out);
}

#endif /* PMU_FAST_H */
