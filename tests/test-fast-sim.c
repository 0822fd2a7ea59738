/* SPDX-License-Identifier: MIT */
/*
 * test-fast-sim: the user-space read path of libpmu against a SIMULATED PMU.
 *
 * The dev machines have no hardware PMU, so rdpmc cannot run. This test
 * compiles <pmu/fast.h> with the PMU_ARCH_CUSTOM hook: pmu_arch_counter() and
 * pmu_arch_time() below return values from a simulated PMU (struct sim), and
 * every struct perf_event_mmap_page the algorithm sees is one this test
 * writes the way the kernel does. Expected results are computed here
 * independently (128-bit arithmetic, explicit sign extension), never by
 * calling the code under test.
 *
 * Cases:
 *  1. sign extension of the raw counter at pmc_width 32/40/48/64, with
 *     "negative" (large u64) offsets, and counters that wrap past 0
 *  2. the seqlock: a) a writer that interrupts the reader in the middle of the
 *     read, deterministically (the kernel's model: the page is rewritten on the
 *     reader's own CPU); b) a concurrent writer thread (x86 only)
 *  3. index == 0 / cap_user_rdpmc == 0: fallback (1), counter never read
 *  4. time extrapolation (cap_user_time, cap_user_time_short) vs 128-bit math
 *  5. x86 rdpmc selectors for fixed counters and the topdown metrics register
 *     (the inline functions and their exported twins)
 *  6. pmu_fast_read() end to end on a REAL set of software events whose read
 *     plan is redirected to simulated pages: fast groups, per-group fallback
 *     to read(2), other threads, a child after fork()
 *  7. pmu_page_read() (custom arch) == pmu_page_read_with(same functions) ==
 *     its exported twin pmu_page_read_with_fn(same functions)
 *  8. random histories against a model of the kernel (the page's times lag
 *     until the next sched-in; multiplexing; disable): values, times and
 *     scaled deltas equal the model's true ones after every read
 *
 * Safety: libpmu's exported twins (pmu_set_read, pmu_fast_read_fn,
 * pmu_page_read_fn) were compiled with the real x86 rdpmc. They are only ever
 * given pages with index == 0 or cap_user_rdpmc == 0, or called where the
 * fork check returns first, so rdpmc is never executed. The twin
 * pmu_page_read_with_fn() is given this test's counter and clock (never NULL).
 *
 * Exit: 0 all pass, 1 any failure, 77 only if perf_event_open() of software
 * events is impossible here (case 6 cannot run) and everything else passed.
 */
#define PMU_ARCH_CUSTOM 1
#define PMU_ARCH_FAST 1

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* ------------------------------------------------------------------ */
/* The simulated PMU behind pmu_arch_counter() / pmu_arch_time()        */
/* ------------------------------------------------------------------ */

#define SIM_NIDX 64

static struct {
	uint64_t raw[SIM_NIDX];         /* raw hardware counter, by user-page index */
	uint64_t tsc;                   /* the clock pmu_arch_time() returns */
	unsigned long counter_calls;    /* every pmu_arch_counter() call */
	unsigned long time_calls;       /* every pmu_arch_time() call */
	unsigned long foreign_calls;    /* pmu_arch_counter() calls from a non-main thread */
	unsigned long bad_index;        /* calls with index 0 or out of range */
	pthread_t main_thread;
} sim;

static inline uint64_t pmu_arch_counter(void *arg, uint32_t index)
{
	(void)arg;
	__atomic_fetch_add(&sim.counter_calls, 1, __ATOMIC_RELAXED);
	if (!pthread_equal(pthread_self(), sim.main_thread))
		__atomic_fetch_add(&sim.foreign_calls, 1, __ATOMIC_RELAXED);
	if (index == 0 || index >= SIM_NIDX) {
		__atomic_fetch_add(&sim.bad_index, 1, __ATOMIC_RELAXED);
		return 0;
	}
	return sim.raw[index];
}

static inline uint64_t pmu_arch_time(void *arg)
{
	(void)arg;
	__atomic_fetch_add(&sim.time_calls, 1, __ATOMIC_RELAXED);
	return sim.tsc;
}

#include <pmu.h>
#include "read.h"        /* the read by groups */
#include "set-layout.h"  /* the layout of struct pmu_set (lib/), to redirect its read plan */
#include "sanitizer.h"

#if !PMU_ARCH_FAST
#error "PMU_ARCH_CUSTOM hook not honoured"
#endif

/* ------------------------------------------------------------------ */
/* Reporting                                                           */
/* ------------------------------------------------------------------ */

static unsigned total_fail, total_checks;
static unsigned sub_fail, sub_checks;
static const char *sub_name;

/* A sub-check groups several assertions under one printed line. */
static void begin(const char *name)
{
	sub_name = name;
	sub_fail = sub_checks = 0;
}

static void end(void)
{
	printf("  %-4s %s (%u assertion%s)\n", sub_fail ? "FAIL" : "ok", sub_name, sub_checks,
	       sub_checks == 1 ? "" : "s");
	fflush(stdout);
}

static void __attribute__((format(printf, 3, 4))) expect_(int ok, int line, const char *fmt, ...)
{
	va_list ap;

	sub_checks++;
	total_checks++;
	if (ok)
		return;
	sub_fail++;
	total_fail++;
	printf("       FAILED (line %d): ", line);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}
#define EXPECT(cond, ...) expect_(!!(cond), __LINE__, __VA_ARGS__)

static void info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void info(const char *fmt, ...)
{
	va_list ap;

	printf("       ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

#define U(x) ((unsigned long long)(x))

/* ------------------------------------------------------------------ */
/* Independent reference arithmetic                                    */
/* ------------------------------------------------------------------ */

/* The counter's low @width bits as a signed number, by explicit arithmetic
 * (no shifts through int64_t as the library does): v - 2^width if bit
 * width-1 is set. Width 64 is the value itself reinterpreted. */
static __int128 ref_sext(uint64_t raw, unsigned width)
{
	unsigned __int128 low;

	if (width >= 64)
		return raw >= ((uint64_t)1 << 63) ? (__int128)raw - ((__int128)1 << 64) : (__int128)raw;
	low = raw % ((unsigned __int128)1 << width);
	if (low >= ((unsigned __int128)1 << (width - 1)))
		return (__int128)low - ((__int128)1 << width);
	return (__int128)low;
}

/* offset + sign_extend(raw, width), reduced modulo 2^64 like a u64 count. */
static uint64_t ref_count(uint64_t offset, uint64_t raw, unsigned width)
{
	__int128 sum = (__int128)offset + ref_sext(raw, width);
	__int128 m = sum % ((__int128)1 << 64);

	if (m < 0)
		m += (__int128)1 << 64;
	return (uint64_t)m;
}

/* time_offset + cyc * mult / 2^shift, exactly, then modulo 2^64. */
static uint64_t ref_delta(uint64_t time_offset, uint64_t cyc, uint32_t mult, unsigned shift)
{
	unsigned __int128 prod = (unsigned __int128)cyc * mult;
	return time_offset + (uint64_t)(prod >> shift);
}

/* ------------------------------------------------------------------ */
/* Counter / time sources passed to pmu_page_read_with() directly      */
/* ------------------------------------------------------------------ */

struct src {
	uint64_t raw, tsc;
	unsigned long counter_calls, time_calls;
	uint32_t last_index;
};

static uint64_t src_counter(void *arg, uint32_t index)
{
	struct src *s = arg;
	s->counter_calls++;
	s->last_index = index;
	return s->raw;
}

static uint64_t src_time(void *arg)
{
	struct src *s = arg;
	s->time_calls++;
	return s->tsc;
}

/* A clock that stays at 0: with page_init()'s time fields it adds nothing. */
static uint64_t zero_time(void *arg)
{
	(void)arg;
	return 0;
}

static void page_init(struct perf_event_mmap_page *pc, uint32_t index, unsigned width, uint64_t offset)
{
	memset(pc, 0, sizeof(*pc));
	pc->version = 0;
	pc->compat_version = 0;
	pc->lock = 2;
	pc->index = index;
	pc->offset = offset;
	pc->time_enabled = 1000;
	pc->time_running = 900;
	pc->cap_user_rdpmc = 1;
	pc->pmc_width = (uint16_t)width;
	/* a clock the times are brought up to date with (every read does): one
	 * ns per cycle from 0, so a source clock of 0 adds nothing */
	pc->cap_user_time = 1;
	pc->time_mult = 1;
	pc->time_shift = 0;
	pc->time_offset = 0;
}

/* ================================================================== */
/* Case 1: sign extension                                              */
/* ================================================================== */

static void case1(void)
{
	static const unsigned widths[] = { 32, 40, 48, 64 };
	static const uint64_t offsets[] = {
		0, 1, 123456789, (uint64_t)-1, (uint64_t)-1000, (uint64_t)-(int64_t)(1ull << 47),
		0x8000000000000000ull, 0x7fffffffffffffffull, 0xfffffffffffff000ull,
	};
	struct perf_event_mmap_page pc;
	struct src s = { 0 };
	char name[128];

	printf("case 1: sign extension of the raw counter (offset + sext(raw, pmc_width))\n");
	for (size_t w = 0; w < sizeof(widths) / sizeof(widths[0]); w++) {
		unsigned W = widths[w];
		uint64_t top = (W == 64) ? 0 : (uint64_t)1 << (W - 1);
		uint64_t mask = (W == 64) ? ~(uint64_t)0 : ((uint64_t)1 << W) - 1;
		uint64_t raws[] = {
			0, 1, 2, 0x1234,
			top ? top - 1 : 0x7fffffffffffffffull,            /* largest positive */
			top ? top : 0x8000000000000000ull,                /* top bit set: most negative */
			top ? top + 1 : 0x8000000000000001ull,
			mask,                                             /* -1 */
			mask - 999,                                       /* -1000: a programmed period */
			(0xdeadbeefcafef00dull & mask) | (top ? top : 0), /* random, top bit set */
			(0x5a5a5a5a5a5a5a5aull & mask) & ~(top ? top : 0),/* random, top bit clear */
			/* bits above the width set: hardware garbage the algorithm must discard */
			W < 64 ? (~mask & 0xabcd00f000000000ull) | 5 : 5,
			W < 64 ? ~mask | top : 7,
		};
		snprintf(name, sizeof(name), "pmc_width %u: %zu raw values (top bit set/clear, garbage above the "
			 "width) x %zu offsets (incl. 'negative' u64)", W, sizeof(raws) / sizeof(raws[0]),
			 sizeof(offsets) / sizeof(offsets[0]));
		begin(name);
		for (size_t o = 0; o < sizeof(offsets) / sizeof(offsets[0]); o++)
			for (size_t r = 0; r < sizeof(raws) / sizeof(raws[0]); r++) {
				struct pmu_value v = { 0, 0, 0 };
				uint64_t want = ref_count(offsets[o], raws[r], W);
				page_init(&pc, 5, W, offsets[o]);
				s.raw = raws[r];
				int rc = pmu_page_read_with(&pc, src_counter, src_time, &s, &v);
				EXPECT(rc == 0, "rc %d", rc);
				EXPECT(v.value == want,
				       "width %u offset 0x%llx raw 0x%llx: got 0x%llx want 0x%llx", W,
				       U(offsets[o]), U(raws[r]), U(v.value), U(want));
				EXPECT(s.last_index == 5, "counter read with index %u, want 5", s.last_index);
			}
		end();
	}

	/* The kernel's model: the counter was programmed to start at S (its raw
	 * register value) when the count was c0, so offset = c0 - sext(S). After
	 * n events the register holds (S + n) mod 2^W and the count must be
	 * exactly c0 + n, also when the register wrapped past 0 or S was positive
	 * and larger than c0 (offset is then a huge u64). The kernel keeps the
	 * register within the signed range (overflow interrupt at the wrap to 0,
	 * periods < 2^(W-1)), so combinations where sext(S) + n would leave it
	 * are not valid inputs and are skipped. */
	begin("counting scenario: count == c0 + n across register wrap-around, "
	      "offset = c0 - sext(start) as the kernel stores it");
	for (size_t w = 0; w < sizeof(widths) / sizeof(widths[0]); w++) {
		unsigned W = widths[w];
		uint64_t mask = (W == 64) ? ~(uint64_t)0 : ((uint64_t)1 << W) - 1;
		static const uint64_t c0s[] = { 0, 5, 123456789012ull };
		static const uint64_t ns[] = { 0, 1, 999, 1000, 1001, 65536, 1000000007ull };
		uint64_t starts[] = { (uint64_t)-1000 & mask, (uint64_t)-1 & mask, 0, 0x100000,
				      0x7fffff00ull & mask, (uint64_t)-2000000000 & mask };
		for (size_t a = 0; a < sizeof(c0s) / sizeof(c0s[0]); a++)
			for (size_t b = 0; b < sizeof(starts) / sizeof(starts[0]); b++)
				for (size_t c = 0; c < sizeof(ns) / sizeof(ns[0]); c++) {
					struct pmu_value v = { 0, 0, 0 };
					uint64_t S = starts[b], n = ns[c];
					uint64_t off = c0s[a] - (uint64_t)ref_sext(S, W);
					if (W < 64 && ref_sext(S, W) + (__int128)n >= ((__int128)1 << (W - 1)))
						continue;
					page_init(&pc, 3, W, off);
					s.raw = (S + n) & mask;
					int rc = pmu_page_read_with(&pc, src_counter, src_time, &s, &v);
					EXPECT(rc == 0 && v.value == c0s[a] + n,
					       "W %u c0 %llu start 0x%llx n %llu: rc %d got %llu want %llu", W,
					       U(c0s[a]), U(S), U(n), rc, U(v.value), U(c0s[a] + n));
				}
	}
	end();
}

/* ================================================================== */
/* Case 2: seqlock retry                                               */
/* ================================================================== */

/* Consistent states k = 0, 1, 2, ...: the writer publishes state k as
 *   offset = V(k) - sext48(RAW(k)), counter = RAW(k),
 *   time_enabled = E(k), time_running = R(k)
 * so a consistent read gives value V(k), enabled E(k), running R(k) for ONE
 * k. Mixing fields of two states gives a value that is not of the form V(k)
 * (RAW is a hash with random high bits), or does not match E/R. */
#define SQ_W 48
static uint64_t sq_V(uint64_t k) { return 1000 * k + 5; }
static uint64_t sq_E(uint64_t k) { return 3 * k + 11; }
static uint64_t sq_R(uint64_t k) { return 2 * k + 7; }
static uint64_t sq_RAW(uint64_t k) { return ((k + 1) * 0x9E3779B97F4A7C15ull) >> 16; }
static uint64_t sq_OFF(uint64_t k) { return sq_V(k) - (uint64_t)ref_sext(sq_RAW(k), SQ_W); }

/* Is (v) the read of one consistent state? Returns k or -1. */
static int64_t sq_decode(const struct pmu_value *v, uint64_t add_time)
{
	uint64_t k;

	if (v->value < 5 || (v->value - 5) % 1000)
		return -1;
	k = (v->value - 5) / 1000;
	if (v->enabled != sq_E(k) + add_time || v->running != sq_R(k) + add_time)
		return -1;
	return (int64_t)k;
}

/* --- 2a: the writer interrupts the reader (deterministic) ---------- */

struct irq_sim {
	struct perf_event_mmap_page *pc;
	uint64_t raw;             /* the live counter register */
	uint64_t k;               /* current state */
	unsigned pending;         /* interrupts still to deliver during this read */
	int in_time;              /* deliver them from the time callback instead of the counter one */
	int drop_index;           /* the next interrupt schedules the event out (index = 0) */
	unsigned long counter_calls, time_calls, injected;
};

/* What perf_event_update_userpage() does, on the reader's own CPU:
 * ++lock; barrier(); fields; barrier(); ++lock. */
static void irq_write_state(struct irq_sim *x, uint64_t k)
{
	volatile struct perf_event_mmap_page *p = x->pc;

	p->lock++;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	p->time_enabled = sq_E(k);
	p->time_running = sq_R(k);
	p->time_offset = 13 * k;
	p->offset = sq_OFF(k);
	x->raw = sq_RAW(k);
	if (x->drop_index)
		p->index = 0;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	p->lock++;
	x->k = k;
}

static void irq_maybe(struct irq_sim *x, int from_time)
{
	if (x->pending && x->in_time == from_time) {
		x->pending--;
		x->injected++;
		irq_write_state(x, x->k + 1);
	}
}

static uint64_t irq_counter(void *arg, uint32_t index)
{
	struct irq_sim *x = arg;
	(void)index;
	x->counter_calls++;
	irq_maybe(x, 0);
	return x->raw;        /* the NEW register value, after an old offset: torn unless retried */
}

static uint64_t irq_time(void *arg)
{
	struct irq_sim *x = arg;
	x->time_calls++;
	irq_maybe(x, 1);
	return 100;
}

static void case2a(void)
{
	static struct perf_event_mmap_page pc;
	struct irq_sim x = { .pc = &pc };
	const unsigned N = 4000;
	unsigned long want_retries = 0;
	int rc;

	begin("2a: writer interrupting the read (kernel model), 0..3 interrupts per read from the "
	      "time or the counter callback: every result is the final consistent state, "
	      "retries counted exactly");
	page_init(&pc, 7, SQ_W, 0);
	pc.cap_user_time = 1;        /* time_offset changes with the state too */
	pc.time_mult = 1;
	pc.time_shift = 0;
	irq_write_state(&x, 0);
	for (unsigned j = 0; j < N; j++) {
		struct pmu_value v = { 0, 0, 0 };
		int64_t k;
		x.pending = j % 4;
		x.in_time = (j / 4) & 1;
		want_retries += j % 4;
		rc = pmu_page_read_with(&pc, irq_counter, irq_time, &x, &v);
		k = sq_decode(&v, 13 * (uint64_t)x.k + 100);   /* delta = time_offset(k) + 100*1>>0 */
		EXPECT(rc == 0, "read %u: rc %d", j, rc);
		EXPECT(k >= 0 && (uint64_t)k == x.k,
		       "read %u: torn or stale result value %llu enabled %llu running %llu (state %llu)", j,
		       U(v.value), U(v.enabled), U(v.running), U(x.k));
		EXPECT(x.pending == 0, "read %u: %u interrupts not delivered", j, x.pending);
	}
	EXPECT(x.injected == want_retries, "injected %lu want %lu", x.injected, want_retries);
	EXPECT(x.counter_calls == N + want_retries, "counter calls %lu, want reads %u + retries %lu",
	       x.counter_calls, N, want_retries);
	EXPECT(x.time_calls == N + want_retries, "time calls %lu, want %lu", x.time_calls,
	       N + want_retries);
	info("%u reads, %lu counter-callback calls -> %lu retries (expected %lu)", N, x.counter_calls,
	     x.counter_calls - N, want_retries);
	end();

	begin("2a: an interrupt that schedules the event out (index -> 0) mid-read: the retry "
	      "sees index 0 and returns 1 (fallback) without reading the counter again");
	x.counter_calls = 0;
	x.pending = 1;
	x.in_time = 0;
	x.drop_index = 1;
	{
		struct pmu_value v = { 0, 0, 0 };
		rc = pmu_page_read_with(&pc, irq_counter, irq_time, &x, &v);
	}
	EXPECT(rc == 1, "rc %d, want 1", rc);
	EXPECT(x.counter_calls == 1, "counter calls %lu, want 1", x.counter_calls);
	end();
}

/* --- 2b: a concurrent writer thread --------------------------------- */

#if defined(__x86_64__) || defined(__i386__)
#define HAVE_TSO 1
#else
#define HAVE_TSO 0
#endif

struct smp_sim {
	struct perf_event_mmap_page *pc;
	uint64_t raw;                 /* written by the writer, read by the counter callback */
	uint64_t k_published;         /* last state completely written */
	int stop;
	int emulate_contract;         /* see smp_counter() */
	double give_up;               /* wall-clock time after which waits stop (no hang) */
	unsigned long writer_updates;
	unsigned long calls, forced, stalled;  /* reader side */
};

static void *smp_writer(void *arg)
{
	struct smp_sim *x = arg;
	struct perf_event_mmap_page *pc = x->pc;

	for (uint64_t k = 1; !__atomic_load_n(&x->stop, __ATOMIC_ACQUIRE); k++) {
		uint32_t l = __atomic_load_n(&pc->lock, __ATOMIC_RELAXED);
		__atomic_store_n(&pc->lock, l + 1, __ATOMIC_RELAXED);
		__atomic_thread_fence(__ATOMIC_RELEASE);                 /* smp_wmb(): odd before data */
		__atomic_store_n(&pc->time_enabled, sq_E(k), __ATOMIC_RELAXED);
		__atomic_store_n(&pc->time_running, sq_R(k), __ATOMIC_RELAXED);
		__atomic_store_n(&pc->offset, sq_OFF(k), __ATOMIC_RELAXED);
		__atomic_store_n(&x->raw, sq_RAW(k), __ATOMIC_RELAXED);
		__atomic_store_n(&pc->lock, l + 2, __ATOMIC_RELEASE);    /* data before even */
		__atomic_store_n(&x->k_published, k, __ATOMIC_RELEASE);
		x->writer_updates = k;
		if ((k & 255) == 0)
			sched_yield();   /* lets the reader run on a single busy CPU / under valgrind */
	}
	return NULL;
}

/*
 * The counter callback of the concurrent test. The kernel rewrites a user
 * page only on the CPU where the reading task runs (interrupt, IPI or
 * context switch, with preemption disabled), so a reader never runs while a
 * write is half done; that is why the documented read loop (and libpmu's)
 * does not look at the lock's low bit. A writer thread on another CPU breaks
 * that assumption, so with emulate_contract the callback restores it: while
 * the lock is odd the "CPU" is held (wait), exactly as if the write had been
 * an interrupt. Every 64th call also waits for a complete new write (an
 * interrupt hitting the read) so retries are guaranteed on any scheduler.
 */
static uint64_t smp_counter(void *arg, uint32_t index)
{
	struct smp_sim *x = arg;
	uint32_t l;
	unsigned spins = 0;

	(void)index;
	x->calls++;
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	if (x->emulate_contract) {
		while ((l = __atomic_load_n(&x->pc->lock, __ATOMIC_ACQUIRE)) & 1) {
			sched_yield();
			if (++spins % 1024 == 0 && now_s() > x->give_up) {
				x->stalled++;
				break;
			}
		}
		if (x->calls % 64 == 0) {
			spins = 0;
			while (__atomic_load_n(&x->pc->lock, __ATOMIC_ACQUIRE) == l) {
				sched_yield();
				if (++spins % 1024 == 0 && now_s() > x->give_up) {
					x->stalled++;
					break;
				}
			}
			x->forced++;
		}
	}
	return __atomic_load_n(&x->raw, __ATOMIC_ACQUIRE);
}

struct smp_result {
	unsigned long reads, retries, torn, backwards, future, rc_bad, forced, stalled, updates;
	double secs;
	int pinned;                   /* reader and writer on two different CPUs */
};

/* Put the writer and the reader on two different allowed CPUs, when there
 * are two: otherwise the scheduler may keep both on one CPU (wake-affine)
 * and they would only alternate at sched_yield(), never overlap. */
static int smp_pin(pthread_t writer, cpu_set_t *saved)
{
	cpu_set_t all, one;
	int cpus[2], n = 0;

	if (pthread_getaffinity_np(pthread_self(), sizeof(all), &all) != 0)
		return 0;
	*saved = all;
	for (int c = 0; c < CPU_SETSIZE && n < 2; c++)
		if (CPU_ISSET(c, &all))
			cpus[n++] = c;
	if (n < 2)
		return 0;
	CPU_ZERO(&one);
	CPU_SET(cpus[0], &one);
	if (pthread_setaffinity_np(writer, sizeof(one), &one) != 0)
		return 0;
	CPU_ZERO(&one);
	CPU_SET(cpus[1], &one);
	if (pthread_setaffinity_np(pthread_self(), sizeof(one), &one) != 0)
		return 0;
	return 1;
}

static void smp_run(int emulate, unsigned long max_reads, double max_secs, struct smp_result *res)
{
	static struct perf_event_mmap_page pc __attribute__((aligned(64)));
	struct smp_sim x = { .pc = &pc, .emulate_contract = emulate };
	pthread_t th;
	cpu_set_t saved;
	uint64_t last_k = 0;
	double t0, t;

	memset(res, 0, sizeof(*res));
	page_init(&pc, 9, SQ_W, sq_OFF(0));
	pc.lock = 0;
	pc.time_enabled = sq_E(0);
	pc.time_running = sq_R(0);
	x.raw = sq_RAW(0);
	t0 = now_s();
	x.give_up = t0 + max_secs + 10;
	if (pthread_create(&th, NULL, smp_writer, &x) != 0) {
		res->rc_bad = ~0ul;
		return;
	}
	res->pinned = smp_pin(th, &saved);
	for (t = t0; res->reads < max_reads && t - t0 < max_secs;) {
		struct pmu_value v = { 0, 0, 0 };
		int rc = pmu_page_read_with(&pc, smp_counter, zero_time, &x, &v);
		int64_t k = sq_decode(&v, 0);
		uint64_t pub = __atomic_load_n(&x.k_published, __ATOMIC_ACQUIRE);
		if (rc != 0)
			res->rc_bad++;
		else if (k < 0)
			res->torn++;
		else if ((uint64_t)k < last_k)
			res->backwards++;
		else if ((uint64_t)k > pub + 1)   /* at most the write in progress */
			res->future++;
		if (k >= 0)
			last_k = (uint64_t)k;
		res->reads++;
		if ((res->reads & 255) == 0)
			t = now_s();
	}
	__atomic_store_n(&x.stop, 1, __ATOMIC_RELEASE);
	pthread_join(th, NULL);
	if (res->pinned)
		pthread_setaffinity_np(pthread_self(), sizeof(saved), &saved);
	res->secs = now_s() - t0;
	res->retries = x.calls - res->reads;
	res->forced = x.forced;
	res->stalled = x.stalled;
	res->updates = x.writer_updates;
}


static void case2b(void)
{
	struct smp_result r;

#ifdef PMU_TSAN
	/* A seqlock reader races with its writer by design (the kernel writes
	 * the user page; the reader retries). ThreadSanitizer cannot model
	 * that, and the library never has a user-space writer: not run here. */
	printf("  skip 2b under ThreadSanitizer: a seqlock read of a concurrently written page is a race by design\n");
	return;
#endif

	begin("2b: concurrent writer thread (C11 atomics, smp_wmb-style fences) vs 200k reads or 1 s: "
	      "never torn, never backwards, retries happened");
	if (!HAVE_TSO) {
		info("skipped on this architecture: libpmu's read loop uses compiler barriers only, "
		     "which orders loads only on TSO (x86); 2a covers the kernel's model everywhere");
		end();
		return;
	}
	smp_run(1, 200000, 1.0, &r);
	info("%lu reads in %.2f s, %lu writer updates, %lu retries (%lu forced by the "
	     "interrupt emulation, %lu natural), threads %s", r.reads, r.secs, r.updates, r.retries,
	     r.forced, r.retries - r.forced, r.pinned ? "pinned to two CPUs" : "not pinned (one CPU)");
	EXPECT(r.rc_bad == 0, "%lu reads returned != 0", r.rc_bad);
	EXPECT(r.torn == 0, "%lu torn results", r.torn);
	EXPECT(r.backwards == 0, "%lu results older than an earlier result", r.backwards);
	EXPECT(r.future == 0, "%lu results newer than anything published", r.future);
	EXPECT(r.stalled == 0, "writer thread stalled %lu times", r.stalled);
	EXPECT(r.reads >= 100, "only %lu reads completed", r.reads);
	EXPECT(r.retries >= 1 && r.retries >= r.forced, "retries %lu (forced %lu)", r.retries, r.forced);
	EXPECT(r.updates >= 1, "writer never ran");
	end();

	/* Informational: the same writer with the contract NOT emulated, i.e. a
	 * reader that may start while a write is half done. Torn results here
	 * are expected from any seqlock reader that ignores an odd lock; they do
	 * not happen with the kernel, whose writes never overlap the reader. */
	smp_run(0, 200000, 0.5, &r);
	info("informational, writer overlapping the read (outside the kernel's contract): "
	     "%lu reads, %lu retries, %lu torn, %lu backwards%s", r.reads, r.retries, r.torn, r.backwards,
	     r.pinned ? "" : " (threads not pinned)");
}

/* ================================================================== */
/* Case 3: fallback conditions                                         */
/* ================================================================== */

static void case3(void)
{
	struct perf_event_mmap_page pc;
	struct src s = { .raw = 42, .tsc = 1000 };
	struct pmu_value v = { 0, 0, 0 };
	int rc;

	printf("case 3: when the kernel does not allow a user-space read\n");
	begin("index == 0 (event not on a counter) -> 1, counter and clock never read");
	page_init(&pc, 0, 48, 7);
	pc.cap_user_time = 1;
	rc = pmu_page_read_with(&pc, src_counter, src_time, &s, &v);
	EXPECT(rc == 1, "rc %d", rc);
	EXPECT(s.counter_calls == 0, "counter read %lu times", s.counter_calls);
	EXPECT(s.time_calls == 0, "clock read %lu times", s.time_calls);
	end();

	begin("cap_user_rdpmc == 0 with index != 0 -> 1, counter and clock never read");
	page_init(&pc, 4, 48, 7);
	pc.cap_user_rdpmc = 0;
	pc.cap_user_time = 1;
	rc = pmu_page_read_with(&pc, src_counter, src_time, &s, &v);
	EXPECT(rc == 1, "rc %d", rc);
	EXPECT(s.counter_calls == 0, "counter read %lu times", s.counter_calls);
	EXPECT(s.time_calls == 0, "clock read %lu times", s.time_calls);
	end();

	begin("same through pmu_page_read() (custom arch) and the exported pmu_page_read_fn() "
	      "(real rdpmc, safe: it must return before touching the counter)");
	{
		unsigned long c0 = sim.counter_calls;
		page_init(&pc, 0, 48, 7);
		EXPECT(pmu_page_read(&pc, &v) == 1, "pmu_page_read index 0");
		EXPECT(pmu_page_read_fn(&pc, &v) == 1, "pmu_page_read_fn index 0");
		page_init(&pc, 4, 48, 7);
		pc.cap_user_rdpmc = 0;
		EXPECT(pmu_page_read(&pc, &v) == 1, "pmu_page_read cap_user_rdpmc 0");
		EXPECT(pmu_page_read_fn(&pc, &v) == 1, "pmu_page_read_fn cap_user_rdpmc 0");
		EXPECT(sim.counter_calls == c0, "simulated counter read %lu times", sim.counter_calls - c0);
	}
	end();

	begin("the index passed to the counter source is the page's index (not index - 1: "
	      "the arch layer subtracts)");
	page_init(&pc, 0x40000001u, 48, 0);    /* x86 fixed counter 0: kernel index = selector + 1 */
	s.last_index = 0;
	rc = pmu_page_read_with(&pc, src_counter, src_time, &s, &v);
	EXPECT(rc == 0 && s.last_index == 0x40000001u, "rc %d index 0x%x", rc, s.last_index);
	end();
}

/* ================================================================== */
/* Case 4: time extrapolation                                          */
/* ================================================================== */

static void case4(void)
{
	struct perf_event_mmap_page pc;
	struct src s = { .raw = 0 };
	struct pmu_value v = { 0, 0, 0 };
	int rc;
	static const struct { uint32_t mult; uint16_t shift; uint64_t cyc, toff; } t[] = {
		{ 1, 0, 12345, 0 },
		{ 1u << 31, 31, 1000000, 5 },                          /* 1 ns per cycle */
		{ 0x29aaaaab, 30, 0x0000123456789abcull, (uint64_t)-77 }, /* ~0.65 ns/cycle, negative offset */
		{ 3158279424u, 32, 987654321987ull, 1 },               /* 0.7353... */
		{ 0xffffffffu, 32, 0x0123456789abcdefull, 0 },         /* cyc*mult overflows 64 bits */
		{ 0xffffffffu, 32, 0xffffffffffffffffull, 3 },         /* largest cyc */
		{ 0x80000001u, 31, 0xfedcba9876543210ull, 0 },         /* overflow, result > 2^63 */
		{ 0xdeadbeefu, 16, 0x0000ffffffffffffull, 99 },        /* overflow, result wraps u64 */
		{ 0x12345678u, 20, 0x00000fffffffffffull, 0 },
		{ 7, 1, 1, 0 },                                        /* rem only */
	};
	char name[160];

	printf("case 4: enabled/running extrapolation with cap_user_time\n");
	begin("cap_user_time: enabled/running += time_offset + (cyc * mult) >> shift, "
	      "checked against exact 128-bit arithmetic, 10 (mult, shift, cyc) triples");
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		unsigned __int128 wide = (unsigned __int128)t[i].cyc * t[i].mult;
		uint64_t want = ref_delta(t[i].toff, t[i].cyc, t[i].mult, t[i].shift);
		page_init(&pc, 2, 48, 0);
		pc.time_enabled = 5000;
		pc.time_running = 4000;
		pc.cap_user_time = 1;
		pc.time_mult = t[i].mult;
		pc.time_shift = t[i].shift;
		pc.time_offset = t[i].toff;
		s.tsc = t[i].cyc;
		rc = pmu_page_read_with(&pc, src_counter, src_time, &s, &v);
		EXPECT(rc == 0, "rc %d", rc);
		EXPECT(v.enabled == 5000 + want && v.running == 4000 + want,
		       "mult 0x%x shift %u cyc 0x%llx%s: enabled %llu running %llu want %llu / %llu",
		       t[i].mult, t[i].shift, U(t[i].cyc), (wide >> 64) ? " (cyc*mult > 2^64)" : "",
		       U(v.enabled), U(v.running), U(5000 + want), U(4000 + want));
	}
	end();

	/* cap_user_time_short: the clock is narrower than 64 bits (mask); the
	 * kernel published time_cycles, the clock value when time_offset was
	 * computed. The real elapsed clock is time_cycles + elapsed even when
	 * the narrow register wrapped since; garbage above the mask is ignored. */
	snprintf(name, sizeof(name), "cap_user_time_short: cyc = time_cycles + ((clock - time_cycles) & "
		 "time_mask) reconstructs wrapped 32/56-bit clocks");
	begin(name);
	{
		static const struct { uint64_t mask, tcyc, elapsed, garbage; uint32_t mult; uint16_t shift; } u[] = {
			{ 0xffffffffull, 0xffffff00ull, 0x300, 0, 1u << 31, 31 },          /* wrapped 32-bit */
			{ 0xffffffffull, 0xffffff00ull, 0, 0, 1u << 31, 31 },
			{ 0xffffffffull, 0x10, 0x7fffffff, 0xabcd00000000ull, 0x29aaaaab, 30 }, /* garbage above */
			{ (1ull << 56) - 1, (1ull << 56) - 5, 1000000, 0, 0xffffffffu, 32 },  /* arm64 56-bit */
			{ (1ull << 56) - 1, 12345, 99, 0xff00000000000000ull, 3158279424u, 32 },
		};
		for (size_t i = 0; i < sizeof(u) / sizeof(u[0]); i++) {
			uint64_t real_cyc = u[i].tcyc + u[i].elapsed;    /* unwrapped, what the math needs */
			uint64_t reg = (real_cyc & u[i].mask) | u[i].garbage;
			uint64_t want = ref_delta(1000, real_cyc, u[i].mult, u[i].shift);
			page_init(&pc, 2, 48, 0);
			pc.time_enabled = 10;
			pc.time_running = 20;
			pc.cap_user_time = 1;
			pc.cap_user_time_short = 1;
			pc.time_cycles = u[i].tcyc;
			pc.time_mask = u[i].mask;
			pc.time_mult = u[i].mult;
			pc.time_shift = u[i].shift;
			pc.time_offset = 1000;
			s.tsc = reg;
			rc = pmu_page_read_with(&pc, src_counter, src_time, &s, &v);
			EXPECT(rc == 0 && v.enabled == 10 + want && v.running == 20 + want,
			       "mask 0x%llx time_cycles 0x%llx register 0x%llx: enabled %llu want %llu",
			       U(u[i].mask), U(u[i].tcyc), U(reg), U(v.enabled), U(10 + want));
		}
	}
	end();

	begin("without cap_user_time: 1 (read(2)), since the page's times cannot be brought up to date");
	page_init(&pc, 2, 48, 0);
	pc.cap_user_time = 0;
	pc.time_enabled = 123456;
	pc.time_running = 65432;
	s.time_calls = 0;
	rc = pmu_page_read_with(&pc, src_counter, src_time, &s, &v);
	EXPECT(rc == 1, "rc %d", rc);
	EXPECT(s.time_calls == 0, "clock read %lu times", s.time_calls);
	end();

	begin("never multiplexed (enabled == running): still extrapolated, the page's times lag "
	      "since the last sched-in");
	page_init(&pc, 2, 48, 0);
	pc.time_enabled = 5555;
	pc.time_running = 5555;
	pc.time_mult = 12345;
	pc.time_shift = 3;
	pc.time_offset = 999;
	s.time_calls = 0;
	s.tsc = 0xffffffffffull;
	rc = pmu_page_read_with(&pc, src_counter, src_time, &s, &v);
	{
		uint64_t want = ref_delta(999, 0xffffffffffull, 12345, 3);
		EXPECT(rc == 0 && v.enabled == 5555 + want && v.running == 5555 + want,
		       "rc %d enabled %llu running %llu want %llu", rc, U(v.enabled), U(v.running), U(5555 + want));
	}
	EXPECT(s.time_calls == 1, "clock read %lu times", s.time_calls);
	end();
}

/* ================================================================== */
/* Case 5: x86 selectors                                               */
/* ================================================================== */

static void case5(void)
{
	printf("case 5: x86 rdpmc ECX selectors\n");
	begin("pmu_x86_rdpmc_fixed(3) == 0x40000003 (bit 30), pmu_x86_rdpmc_metrics(0) == 0x20000000 "
	      "(bit 29)");
	EXPECT(pmu_x86_rdpmc_fixed(3) == 0x40000003u, "fixed(3) = 0x%x", pmu_x86_rdpmc_fixed(3));
	EXPECT(pmu_x86_rdpmc_fixed(0) == 0x40000000u, "fixed(0) = 0x%x", pmu_x86_rdpmc_fixed(0));
	EXPECT(pmu_x86_rdpmc_metrics(0) == 0x20000000u, "metrics(0) = 0x%x", pmu_x86_rdpmc_metrics(0));
	EXPECT(PMU_X86_RDPMC_FIXED == (1u << 30) && PMU_X86_RDPMC_METRICS == (1u << 29),
	       "selector bits 0x%x 0x%x", PMU_X86_RDPMC_FIXED, PMU_X86_RDPMC_METRICS);
	end();
	begin("the exported twins pmu_x86_rdpmc_fixed_fn(n) == 0x40000000 | n, pmu_x86_rdpmc_metrics_fn(n) == "
	      "0x20000000 | n, n = 0..7");
	for (unsigned n = 0; n < 8; n++)
		EXPECT(pmu_x86_rdpmc_fixed_fn(n) == (0x40000000u | n) && pmu_x86_rdpmc_metrics_fn(n) == (0x20000000u | n),
		       "n %u: 0x%x 0x%x", n, pmu_x86_rdpmc_fixed_fn(n), pmu_x86_rdpmc_metrics_fn(n));
	end();
}

/* ================================================================== */
/* Case 6: pmu_fast_read() on a real set with a redirected plan        */
/* ================================================================== */

#define C6_EVENTS "{task-clock,page-faults},context-switches,cpu-clock"
#define C6_N 4
#define C6_G 3
#define SIMBASE 0x5150000000000000ull   /* simulated counts are far above any real count */

static struct perf_event_mmap_page c6_pages[C6_N];
static int c6_real_fd[C6_G];
static int c6_trap_fd = -1;

static uint64_t c6_sim_value(size_t i) { return SIMBASE + (uint64_t)i * 0x1000000ull + 100 + i; }

/* Simulated user page i: index i+1, counter raw = 100 + i, times 777+i /
 * 700+i, cap_user_time with a clock that adds exactly 0 (so the number of
 * clock reads is visible but values stay simple). */
static void c6_pages_init(void)
{
	for (size_t i = 0; i < C6_N; i++) {
		page_init(&c6_pages[i], (uint32_t)i + 1, 48, SIMBASE + (uint64_t)i * 0x1000000ull);
		c6_pages[i].time_enabled = 777 + i;
		c6_pages[i].time_running = 700 + i;
		c6_pages[i].cap_user_time = 1;
		c6_pages[i].time_mult = 1;
		c6_pages[i].time_shift = 0;
		c6_pages[i].time_offset = 0;
		sim.raw[i + 1] = 100 + i;
	}
	sim.tsc = 0;
}

/* Group leader of value i in C6_EVENTS: members take their leader's times. */
static size_t c6_leader(size_t i) { return i == 1 ? 0 : i; }

/* Groups whose bit is set in @trap get a /dev/null leader: a read(2) of
 * them returns 0 bytes and pmu_set_read_group() fails with -EIO, so a
 * success proves the group was NOT read through read(2). */
static void c6_leaders(struct pmu_set *s, unsigned trap)
{
	for (unsigned g = 0; g < C6_G; g++)
		s->g[g].leader_fd = (trap & (1u << g)) ? c6_trap_fd : c6_real_fd[g];
}

/* ~2 ms of CPU time, so task-clock visibly advances between reads. */
static uint64_t burn_sink;
static void burn(void)
{
	double t0 = now_s();
	while (now_s() - t0 < 0.002)
		for (int i = 0; i < 1000; i++)
			__atomic_fetch_add(&burn_sink, (uint64_t)i, __ATOMIC_RELAXED);
}

static int is_sim(const struct pmu_value *v, size_t i)
{
	size_t l = c6_leader(i);
	return v->value == c6_sim_value(i) && v->enabled == 777 + l && v->running == 700 + l;
}

/* value from read(2) taken between @lo and @hi (both read(2)); software events. */
static void expect_real(const struct pmu_value *lo, const struct pmu_value *v, const struct pmu_value *hi,
			size_t i, const char *what)
{
	EXPECT(v->value < SIMBASE, "%s: value %zu 0x%llx is simulated, want read(2)", what, i, U(v->value));
	EXPECT(lo->value <= v->value && v->value <= hi->value,
	       "%s: value %zu = %llu not within read(2) before/after [%llu, %llu]", what, i, U(v->value),
	       U(lo->value), U(hi->value));
	EXPECT(lo->enabled <= v->enabled && v->enabled <= hi->enabled,
	       "%s: enabled %zu = %llu not within [%llu, %llu]", what, i, U(v->enabled), U(lo->enabled),
	       U(hi->enabled));
	EXPECT(v->enabled == v->running, "%s: software event %zu enabled %llu != running %llu", what, i,
	       U(v->enabled), U(v->running));
}

struct c6_thread {
	const struct pmu_fast *f;
	struct pmu_value out[C6_N];
	int rc;
	unsigned long foreign_before, foreign_after;
};

static void *c6_other_thread(void *arg)
{
	struct c6_thread *t = arg;
	t->foreign_before = __atomic_load_n(&sim.foreign_calls, __ATOMIC_RELAXED);
	t->rc = pmu_fast_read(t->f, t->out);
	t->foreign_after = __atomic_load_n(&sim.foreign_calls, __ATOMIC_RELAXED);
	return NULL;
}

/* In the child after fork(): exit status bit mask of failed checks. */
static int c6_child(struct pmu_set *s)
{
	struct pmu_value out[C6_N];
	unsigned long calls0 = sim.counter_calls;
	int fails = 0, r;
	const char *msg;

	if (s->guard_page[0] != 0)                 /* MADV_WIPEONFORK: the kernel zeroed the guard */
		fails |= 128;
	r = pmu_fast_read(&s->fast, out);          /* pages simulated, index != 0, fast groups */
	msg = pmu_strerror(r);
	printf("       child: pmu_fast_read -> %d: \"%s\"\n", r, msg);
	if (r != -ECHILD)
		fails |= 1;
	if (!strstr(msg, "fork"))
		fails |= 2;
	if (sim.counter_calls != calls0)
		fails |= 4;
	r = pmu_set_read_syscall(s, out);
	msg = pmu_strerror(r);
	printf("       child: pmu_set_read_syscall -> %d: \"%s\"\n", r, msg);
	if (r != -ECHILD)
		fails |= 8;
	if (!strstr(msg, "fork"))
		fails |= 16;
	/* The exported twins (real rdpmc): made safe first (index 0) so that
	 * even a broken fork check could not execute rdpmc; they must still
	 * say -ECHILD. */
	for (size_t i = 0; i < C6_N; i++)
		c6_pages[i].index = 0;
	if (pmu_set_read(s, out) != -ECHILD)
		fails |= 32;
	if (pmu_fast_read_fn(pmu_set_fast(s), out) != -ECHILD)
		fails |= 64;
	fflush(stdout);
	return fails;
}

static int case6(char *skip, size_t skiplen)
{
	struct pmu_ctx *ctx = NULL;
	struct pmu_set *s = NULL;
	struct pmu_set_opts o = { .size = sizeof(o), .flags = PMU_SET_ENABLE };
	struct pmu_value lo[C6_N], hi[C6_N], out[C6_N];
	unsigned long c0;
	int r, layout_ok;

	printf("case 6: pmu_fast_read() on a real set \"%s\" with simulated user pages\n", C6_EVENTS);
	r = pmu_ctx_new(&ctx, NULL);
	if (r < 0) {
		begin("pmu_ctx_new");
		EXPECT(0, "pmu_ctx_new: %s", pmu_strerror(r));
		end();
		return 0;
	}
	r = pmu_set_open(ctx, C6_EVENTS, &o, &s);
	if (r == -EACCES || r == -EPERM || r == -ENOSYS) {
		snprintf(skip, skiplen, "perf_event_open of software events not permitted here: %s",
			 pmu_strerror(r));
		printf("  skip %s\n", skip);
		pmu_ctx_free(ctx);
		return 1;
	}
	begin("set layout: 3 groups {2,1,1}, software groups planned slow, no pages, owner = this thread");
	EXPECT(r == 0, "pmu_set_open: %d %s", r, pmu_strerror(r));
	if (r < 0) {
		end();
		pmu_ctx_free(ctx);
		return 0;
	}
	EXPECT(s->n == C6_N && s->ngroups == C6_G, "n %zu ngroups %zu", s->n, s->ngroups);
	layout_ok = s->n == C6_N && s->ngroups == C6_G;
	if (layout_ok) {
		EXPECT(s->fgroups[0].first == 0 && s->fgroups[0].count == 2 && s->fgroups[1].first == 2 &&
		       s->fgroups[1].count == 1 && s->fgroups[2].first == 3 && s->fgroups[2].count == 1,
		       "group plan");
		for (unsigned g = 0; g < C6_G; g++)
			EXPECT(s->fgroups[g].fast == 0, "software group %u planned fast", g);
		for (unsigned i = 0; i < C6_N; i++)
			EXPECT(s->pages[i] == NULL, "software event %u has a user page", i);
		EXPECT(s->owned && s->owner == pmu_arch_thread(), "owner");
		EXPECT(s->fast.guard && *s->fast.guard != pmu_arch_thread(),
		       "a plan of 3 groups is left to the library: its guard never names a thread");
		EXPECT(s->guard_page && s->guard_page[0] == pmu_arch_thread(),
		       "the set's wiped-on-fork word holds this thread's pointer");
		EXPECT(s->fast.pages == s->pages && s->fast.count == C6_N, "plan");
	}
	end();
	if (!layout_ok || sub_fail) {
		pmu_set_close(s);
		pmu_ctx_free(ctx);
		return 0;
	}

	c6_trap_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (c6_trap_fd < 0) {
		begin("open /dev/null for the trap leaders");
		EXPECT(0, "open /dev/null: %s", strerror(errno));
		end();
		pmu_set_close(s);
		pmu_ctx_free(ctx);
		return 0;
	}
	for (unsigned g = 0; g < C6_G; g++)
		c6_real_fd[g] = s->g[g].leader_fd;
	c6_pages_init();
	for (unsigned i = 0; i < C6_N; i++)
		s->pages[i] = &c6_pages[i];
	for (unsigned g = 0; g < C6_G; g++)
		s->fgroups[g].fast = 1;

	/* (a) all groups fast */
	begin("(a) every group fast, pages index != 0: values from the simulated counters, no read(2) "
	      "(all leaders are /dev/null traps); the member takes its leader's times, the clock is "
	      "read once per group");
	{
		unsigned long t0 = sim.time_calls;
		c6_leaders(s, 7);
		c0 = sim.counter_calls;
		memset(out, 0, sizeof(out));
		r = pmu__fast_read_groups(s, out);
		EXPECT(r == 0, "rc %d (%s)", r, pmu_strerror(r));
		for (size_t i = 0; i < C6_N; i++)
			EXPECT(is_sim(&out[i], i), "value %zu = %llu/%llu/%llu, want simulated %llu/%zu/%zu", i,
			       U(out[i].value), U(out[i].enabled), U(out[i].running), U(c6_sim_value(i)),
			       777 + c6_leader(i), 700 + c6_leader(i));
		EXPECT(sim.counter_calls - c0 == C6_N, "counter read %lu times, want %d",
		       sim.counter_calls - c0, C6_N);
		EXPECT(sim.time_calls - t0 == C6_G, "clock read %lu times, want %d (leaders only)",
		       sim.time_calls - t0, C6_G);
		c6_leaders(s, 0);
	}
	end();

	/* (b) one page of group 0 not on a counter */
	for (int which = 1; which >= 0; which--) {
		char name[200];
		snprintf(name, sizeof(name), "(b) member %d of group 0 has index 0: group 0 (both values) "
			 "from read(2), groups 1 and 2 still simulated (their leaders are traps)", which);
		begin(name);
		c6_pages[which].index = 0;
		EXPECT(pmu_set_read_syscall(s, lo) == 0, "read(2) before");
		burn();
		c6_leaders(s, 6);
		c0 = sim.counter_calls;
		r = pmu__fast_read_groups(s, out);
		unsigned long calls = sim.counter_calls - c0;
		c6_leaders(s, 0);
		burn();
		EXPECT(pmu_set_read_syscall(s, hi) == 0, "read(2) after");
		EXPECT(r == 0, "rc %d (%s)", r, pmu_strerror(r));
		expect_real(&lo[0], &out[0], &hi[0], 0, "group 0");
		expect_real(&lo[1], &out[1], &hi[1], 1, "group 0");
		EXPECT(out[0].value > 0, "task-clock read as 0");
		EXPECT(out[0].enabled == out[1].enabled, "one read(2) for the group: enabled %llu vs %llu",
		       U(out[0].enabled), U(out[1].enabled));
		EXPECT(is_sim(&out[2], 2) && is_sim(&out[3], 3), "groups 1, 2 not simulated: %llu %llu",
		       U(out[2].value), U(out[3].value));
		/* member 1 dropped: member 0 was read first (1 call) then the group fell back */
		EXPECT(calls == (which == 1 ? 3u : 2u), "counter calls %lu", calls);
		info("task-clock %llu ns (read(2) before %llu, after %llu), page-faults %llu, enabled %llu",
		     U(out[0].value), U(lo[0].value), U(hi[0].value), U(out[1].value), U(out[0].enabled));
		c6_pages[which].index = (uint32_t)which + 1;
		end();
	}

	begin("(b') group 1's fast flag cleared (page still valid): group 1 from read(2), others simulated");
	s->fgroups[1].fast = 0;
	EXPECT(pmu_set_read_syscall(s, lo) == 0, "read(2) before");
	c6_leaders(s, 5);
	c0 = sim.counter_calls;
	r = pmu__fast_read_groups(s, out);
	c6_leaders(s, 0);
	EXPECT(pmu_set_read_syscall(s, hi) == 0, "read(2) after");
	EXPECT(r == 0, "rc %d (%s)", r, pmu_strerror(r));
	expect_real(&lo[2], &out[2], &hi[2], 2, "group 1");
	EXPECT(is_sim(&out[0], 0) && is_sim(&out[1], 1) && is_sim(&out[3], 3), "groups 0, 2 not simulated");
	EXPECT(sim.counter_calls - c0 == 3, "counter calls %lu, want 3", sim.counter_calls - c0);
	s->fgroups[1].fast = 1;
	end();

	begin("(b'') a set that counts another task: every group from read(2) in the opening thread too");
	{
	s->owned = false;
	EXPECT(pmu_set_read_syscall(s, lo) == 0, "read(2) before");
	c0 = sim.counter_calls;
	r = pmu_fast_read(&s->fast, out);
	EXPECT(pmu_set_read_syscall(s, hi) == 0, "read(2) after");
	EXPECT(r == 0, "rc %d", r);
	for (size_t i = 0; i < C6_N; i++)
		expect_real(&lo[i], &out[i], &hi[i], i, "guard 0");
	EXPECT(sim.counter_calls == c0, "counter read %lu times", sim.counter_calls - c0);
	s->owned = true;
	}
	end();

	begin("(b'''') the inline read of a one-group plan (group 0 alone, guard naming this thread): values "
	      "from the simulated counters, the clock read once; a member not on a counter sends the read "
	      "to pmu_fast_slow (read(2) here)");
	{
		uintptr_t own = pmu_arch_thread();
		struct pmu_fast all = s->fast, *one = &s->fast; /* the set's own plan: the library finds the set from it */
		unsigned long t0 = sim.time_calls;
		one->guard = &own;
		one->count = 2;
		c6_leaders(s, 7);
		c0 = sim.counter_calls;
		memset(out, 0, sizeof(out));
		r = pmu_fast_read(one, out);
		EXPECT(r == 0 && is_sim(&out[0], 0) && is_sim(&out[1], 1), "rc %d, values %llu %llu", r,
		       U(out[0].value), U(out[1].value));
		EXPECT(sim.counter_calls - c0 == 2 && sim.time_calls - t0 == 1, "counter %lu, clock %lu calls",
		       sim.counter_calls - c0, sim.time_calls - t0);
		c6_leaders(s, 0);
		/* member 1 not on a counter: the library's path, as a set of another task (read(2)) */
		c6_pages[1].index = 0;
		s->owned = false;
		EXPECT(pmu_set_read_syscall(s, lo) == 0, "read(2) before");
		r = pmu_fast_read(one, out);
		EXPECT(pmu_set_read_syscall(s, hi) == 0, "read(2) after");
		EXPECT(r == 0, "rc %d (%s)", r, pmu_strerror(r));
		expect_real(&lo[0], &out[0], &hi[0], 0, "fallback");
		s->owned = true;
		c6_pages[1].index = 2;
		*one = all;
	}
	end();

	begin("(b''') a program compiled against another plan layout gets a plan every read refuses (-EPROTO)");
	{
		const struct pmu_fast *other = pmu_set_fast_abi(s, PMU_FAST_ABI + 1, sizeof(struct pmu_fast));
		c0 = sim.counter_calls;
		r = pmu_fast_read(other, out);
		EXPECT(r == -EPROTO && strstr(pmu_strerror(r), "rebuild"), "rc %d: %s", r, pmu_strerror(r));
		other = pmu_set_fast_abi(s, PMU_FAST_ABI, sizeof(struct pmu_fast) + 8);
		EXPECT(pmu_fast_read(other, out) == -EPROTO, "a plan of another size is refused too");
		EXPECT(pmu_set_fast_abi(s, PMU_FAST_ABI, sizeof(struct pmu_fast)) == &s->fast, "this layout: the plan");
		EXPECT(sim.counter_calls == c0, "counter read %lu times", sim.counter_calls - c0);
	}
	end();

	/* (c) another thread */
	begin("(c) pmu_fast_read from another thread: every group through read(2), the counter "
	      "source never called from that thread");
	{
		struct c6_thread t = { .f = &s->fast };
		pthread_t th;
		EXPECT(pmu_set_read_syscall(s, lo) == 0, "read(2) before");
		c0 = sim.counter_calls;
		r = pthread_create(&th, NULL, c6_other_thread, &t);
		EXPECT(r == 0, "pthread_create %d", r);
		if (r == 0)
			pthread_join(th, NULL);
		EXPECT(pmu_set_read_syscall(s, hi) == 0, "read(2) after");
		EXPECT(t.rc == 0, "rc %d", t.rc);
		EXPECT(t.foreign_after == t.foreign_before, "counter source called %lu times from the thread",
		       t.foreign_after - t.foreign_before);
		EXPECT(sim.counter_calls == c0, "counter source called %lu times", sim.counter_calls - c0);
		for (size_t i = 0; i < C6_N; i++)
			expect_real(&lo[i], &t.out[i], &hi[i], i, "other thread");
	}
	end();

	/* (d) fork */
	begin("(d) child after fork(): pmu_fast_read and pmu_set_read_syscall -> -ECHILD, "
	      "pmu_strerror mentions fork, no counter read; parent unaffected");
	{
		pid_t pid;
		int status = 0;
		fflush(stdout);
		pid = fork();
		if (pid == 0)
			_exit(c6_child(s));
		EXPECT(pid > 0, "fork: %s", strerror(errno));
		if (pid > 0) {
			EXPECT(waitpid(pid, &status, 0) == pid, "waitpid");
			EXPECT(WIFEXITED(status), "child killed by signal %d", WIFSIGNALED(status) ? WTERMSIG(status) : 0);
			if (WIFEXITED(status)) {
				int f = WEXITSTATUS(status);
				EXPECT(!(f & 1), "child: pmu_fast_read did not return -ECHILD");
				EXPECT(!(f & 2), "child: pmu_strerror after pmu_fast_read does not mention fork");
				EXPECT(!(f & 4), "child: the counter source was called");
				EXPECT(!(f & 8), "child: pmu_set_read_syscall did not return -ECHILD");
				EXPECT(!(f & 16), "child: pmu_strerror after pmu_set_read_syscall does not mention fork");
				EXPECT(!(f & 32), "child: pmu_set_read did not return -ECHILD");
				EXPECT(!(f & 64), "child: pmu_fast_read_fn did not return -ECHILD");
				EXPECT(!(f & 128), "child: the guard word was not zeroed (MADV_WIPEONFORK)");
			}
		}
#ifdef SYS_fork
		/* a child of the raw system call: no atfork handler runs in it, the
		 * kernel's wiped guard and the pid still tell */
		fflush(stdout);
		pid = (pid_t)syscall(SYS_fork);
		if (pid == 0) {
			struct pmu_value o2[C6_N];
			_exit(pmu_fast_read(&s->fast, o2) == -ECHILD && s->guard_page[0] == 0 ? 0 : 1);
		}
		EXPECT(pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0,
		       "child of syscall(SYS_fork): the read is not refused with -ECHILD (status 0x%x)", status);
#endif
		c6_leaders(s, 7);
		r = pmu__fast_read_groups(s, out);
		c6_leaders(s, 0);
		EXPECT(r == 0 && is_sim(&out[0], 0), "parent after fork: fast read rc %d", r);
		EXPECT(pmu_set_read_syscall(s, out) == 0, "parent after fork: read(2)");
	}
	end();

	/* restore the plan before closing: pmu_set_close() munmaps s->pages[i] */
	for (unsigned i = 0; i < C6_N; i++)
		s->pages[i] = NULL;
	for (unsigned g = 0; g < C6_G; g++)
		s->fgroups[g].fast = 0;
	c6_leaders(s, 0);
	close(c6_trap_fd);
	pmu_set_close(s);
	pmu_ctx_free(ctx);
	return 0;
}

/* ================================================================== */
/* Case 7: pmu_page_read == pmu_page_read_with(arch functions)         */
/* ================================================================== */

static void case7(void)
{
	static const struct { uint32_t index; unsigned width, rdpmc, time, tshort; uint64_t off, raw, tsc; } c[] = {
		{ 1, 48, 1, 1, 0, 0, 5, 0 },
		{ 2, 32, 1, 1, 0, (uint64_t)-5, 0x80000000ull, 0 },
		{ 3, 40, 1, 1, 0, 1ull << 63, 0xffffffffffull, 0x123456789abcdefull },
		{ 4, 64, 1, 1, 1, 77, 0xffffffffffffffffull, 0xffffffff00001234ull },
		{ 5, 48, 1, 1, 1, 0xfffffffffff00000ull, 0x0000800000000000ull, 0x5 },
		{ 0, 48, 1, 1, 0, 1, 2, 3 },     /* fallback */
		{ 6, 48, 0, 1, 0, 1, 2, 3 },     /* fallback */
		{ 7, 48, 1, 0, 0, 1, 2, 3 },     /* fallback: no cap_user_time */
	};

	printf("case 7: pmu_page_read() (custom arch) vs pmu_page_read_with(page, pmu_arch_counter, "
	       "pmu_arch_time) and its exported twin\n");
	begin("8 page configurations (widths, time, time_short, fallbacks): same return, value, "
	      "enabled, running, and the same number of counter/clock reads");
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct perf_event_mmap_page pc;
		struct pmu_value a, b;
		unsigned long ca, ta, cb, tb;
		int ra, rb;

		page_init(&pc, c[i].index, c[i].width, c[i].off);
		pc.cap_user_rdpmc = c[i].rdpmc;
		pc.cap_user_time = c[i].time;
		pc.cap_user_time_short = c[i].tshort;
		pc.time_mult = 0x9abcdef1u;
		pc.time_shift = 29;
		pc.time_offset = 31337;
		pc.time_cycles = 0xfff0;
		pc.time_mask = 0xffffffff;
		if (c[i].index < SIM_NIDX)
			sim.raw[c[i].index] = c[i].raw;
		sim.tsc = c[i].tsc;
		memset(&a, 0xa5, sizeof(a));
		memset(&b, 0xa5, sizeof(b));
		ca = sim.counter_calls;
		ta = sim.time_calls;
		ra = pmu_page_read(&pc, &a);
		ca = sim.counter_calls - ca;
		ta = sim.time_calls - ta;
		cb = sim.counter_calls;
		tb = sim.time_calls;
		rb = pmu_page_read_with(&pc, pmu_arch_counter, pmu_arch_time, NULL, &b);
		cb = sim.counter_calls - cb;
		tb = sim.time_calls - tb;
		EXPECT(ra == rb, "config %zu: rc %d vs %d", i, ra, rb);
		EXPECT(ra != 0 || (a.value == b.value && a.enabled == b.enabled && a.running == b.running),
		       "config %zu: %llu/%llu/%llu vs %llu/%llu/%llu", i, U(a.value), U(a.enabled),
		       U(a.running), U(b.value), U(b.enabled), U(b.running));
		EXPECT(ca == cb && ta == tb, "config %zu: calls %lu/%lu vs %lu/%lu", i, ca, ta, cb, tb);
		/* the exported twin (the library's copy of the loop) with the same sources through pointers */
		memset(&b, 0xa5, sizeof(b));
		cb = sim.counter_calls;
		tb = sim.time_calls;
		rb = pmu_page_read_with_fn(&pc, pmu_arch_counter, pmu_arch_time, NULL, &b);
		cb = sim.counter_calls - cb;
		tb = sim.time_calls - tb;
		EXPECT(ra == rb && (ra != 0 || (a.value == b.value && a.enabled == b.enabled && a.running == b.running)) &&
		       ca == cb && ta == tb, "config %zu: pmu_page_read_with_fn rc %d %llu/%llu/%llu, calls %lu/%lu", i, rb,
		       U(b.value), U(b.enabled), U(b.running), cb, tb);
		EXPECT(ra != 0 || a.value == ref_count(c[i].off, c[i].raw, c[i].width),
		       "config %zu: value %llu want %llu", i, U(a.value), U(ref_count(c[i].off, c[i].raw, c[i].width)));
		EXPECT((ra == 1) == (c[i].index == 0 || !c[i].rdpmc || !c[i].time), "config %zu: rc %d", i, ra);
	}
	EXPECT(sim.bad_index == 0, "counter source called with index 0 / out of range %lu times",
	       sim.bad_index);
	end();
}

/* ================================================================== */
/* Case 8: histories against a model of the kernel                     */
/* ================================================================== */

/*
 * The kernel model: an event counts `rate` per ns while it is on its
 * counter. The kernel rewrites the user page only when it schedules the
 * event in (offset, the times as of that moment, time_offset = -now so that
 * the clock extrapolates from there) and out (index 0). In between the
 * page's times lag behind; read(2) would return the true values, which the
 * model keeps exactly. A history is a random sequence of running,
 * multiplexing out and in, disabling and reads; after every read the
 * fast path's result (or, when it returns 1, the model's, as read(2) would
 * give) is compared with the true values, and the scaled delta of every
 * two consecutive reads with the true scaled delta (exact 128-bit math).
 */
struct h_model {
	uint64_t t;                 /* clock, ns (time_mult/shift make cycles = ns) */
	uint64_t count, enabled, running;   /* the truth, as read(2) reports it */
	uint64_t raw_base;          /* the counter's raw value at sched-in */
	int on, is_enabled;
	unsigned rate;
	struct perf_event_mmap_page pc;
};

static uint64_t h_raw;          /* the hardware counter */

static uint64_t h_counter(void *arg, uint32_t index)
{
	(void)arg;
	(void)index;
	return h_raw;
}

static uint64_t h_clock(void *arg)
{
	return ((struct h_model *)arg)->t;
}

static void h_update_page(struct h_model *m)
{
	m->pc.lock += 2;
	m->pc.index = m->on ? 3 : 0;
	m->pc.offset = m->count - h_raw;            /* so offset + raw = count */
	m->pc.time_enabled = m->enabled;
	m->pc.time_running = m->running;
	m->pc.time_offset = (uint64_t)0 - m->t;     /* extrapolation adds now - t */
}

static void h_advance(struct h_model *m, uint64_t dt)
{
	if (m->is_enabled) {
		m->enabled += dt;
		if (m->on) {
			m->running += dt;
			m->count += dt * m->rate;
			h_raw += dt * m->rate;
		}
	}
	m->t += dt;
}

/* x * e / r rounded as pmu_scale documents (r == e or r > e: x; r == 0: 0) */
static uint64_t h_scale(uint64_t x, uint64_t e, uint64_t r)
{
	if (r >= e)
		return x;
	if (r == 0)
		return 0;
	return (uint64_t)(((unsigned __int128)x * e + r / 2) / r);
}

static void case8(void)
{
	struct h_model m;
	struct pmu_value prev = { 0, 0, 0 }, prevt = { 0, 0, 0 };
	unsigned long steps = 20000, reads = 0, fast = 0, bad_read = 0, bad_scale = 0, multiplexed = 0, reopened = 0;
	uint64_t seed = 0x5eed1234abcdull;
	int have_prev = 0;

	printf("case 8: random histories (sched in/out, multiplexing, disable) against a model of the kernel\n");
	begin("every read equals the model's true value and times; every delta of two reads of one "
	      "event scales as the true delta (20,000 steps, seed 0x5eed1234abcd)");
	memset(&m, 0, sizeof(m));
	page_init(&m.pc, 0, 48, 0);
	m.pc.time_mult = 1u << 20;
	m.pc.time_shift = 20;
	m.t = 1000000;
	m.rate = 3;
	m.is_enabled = 1;
	m.on = 1;
	h_raw = 0xfff0;               /* the counter does not start at 0 */
	h_update_page(&m);
	for (unsigned long k = 0; k < steps; k++) {
		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		unsigned r = (unsigned)(seed >> 33) % 100;
		uint64_t dt = 1 + (seed >> 40) % 50000;
		if (r < 40) {
			h_advance(&m, dt);                          /* run (or stay out) */
		} else if (r < 45) {
			if (m.is_enabled && m.on) {                 /* multiplexed out */
				m.on = 0;
				h_update_page(&m);
				multiplexed++;
			}
		} else if (r < 57) {
			if (m.is_enabled && !m.on) {                /* back in */
				m.on = 1;
				h_raw = seed >> 20;                 /* a counter reprogrammed: any raw value */
				h_update_page(&m);
			}
		} else if (r < 59) {
			m.is_enabled = !m.is_enabled;               /* disable / enable */
			m.on = m.is_enabled;
			if (m.on)
				h_raw = seed >> 24;
			h_update_page(&m);
		} else if (r < 61) {
			m.rate = 1 + (unsigned)(seed >> 50) % 7;
		} else if (r < 63) {
			/* a new event opened (times from 0): until its first multiplexing
			 * enabled == running, where the stale-time shortcut used to apply */
			m.count = m.enabled = m.running = 0;
			m.is_enabled = m.on = 1;
			h_raw = seed >> 28;
			h_update_page(&m);
			have_prev = 0;
			reopened++;
		} else {
			struct pmu_value v, d, dt_true, truth = { m.count, m.enabled, m.running };
			int rc = pmu_page_read_with(&m.pc, h_counter, h_clock, &m, &v);
			reads++;
			if (rc == 0) {
				fast++;
				if (v.value != truth.value || v.enabled != truth.enabled || v.running != truth.running) {
					if (bad_read++ < 5)
						EXPECT(0, "step %lu: read %llu/%llu/%llu, true %llu/%llu/%llu", k, U(v.value),
						       U(v.enabled), U(v.running), U(truth.value), U(truth.enabled),
						       U(truth.running));
				}
			} else {
				v = truth;                          /* what read(2) returns */
			}
			if (have_prev) {
				pmu_delta(&prev, &v, 1, &d);
				pmu_delta(&prevt, &truth, 1, &dt_true);
				if (pmu_scale(&d) != h_scale(dt_true.value, dt_true.enabled, dt_true.running) &&
				    bad_scale++ < 5)
					EXPECT(0, "step %lu: scaled delta %llu, true %llu (delta %llu/%llu/%llu)", k,
					       U(pmu_scale(&d)),
					       U(h_scale(dt_true.value, dt_true.enabled, dt_true.running)), U(d.value),
					       U(d.enabled), U(d.running));
			}
			prev = v;
			prevt = truth;
			have_prev = 1;
		}
	}
	info("%lu reads (%lu from user space), %lu times multiplexed out, %lu events opened; %lu reads and "
	     "%lu scaled deltas differ from the model", reads, fast, multiplexed, reopened + 1, bad_read, bad_scale);
	EXPECT(bad_read == 0 && bad_scale == 0, "%lu reads, %lu scaled deltas wrong", bad_read, bad_scale);
	EXPECT(fast > reads / 3 && multiplexed > 100 && reopened > 100,
	       "history too tame: %lu fast reads of %lu, %lu multiplexings, %lu events opened", fast, reads,
	       multiplexed, reopened);
	end();
}

int main(void)
{
	char skip[512] = "";
	int skipped;

	setvbuf(stdout, NULL, _IOLBF, 0);
	sim.main_thread = pthread_self();
	printf("test-fast-sim: libpmu %s, user-space read path against a simulated PMU\n", pmu_version());

	case1();
	printf("case 2: seqlock retry\n");
	case2a();
	case2b();
	case3();
	case4();
	case5();
	skipped = case6(skip, sizeof(skip));
	case7();
	case8();

	printf("%s: %u assertions, %u failed\n", total_fail ? "FAIL" : "PASS", total_checks, total_fail);
	if (total_fail)
		return 1;
	if (skipped) {
		printf("SKIP: %s\n", skip);
		return 77;
	}
	return 0;
}
