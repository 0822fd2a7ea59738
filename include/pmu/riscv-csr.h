/* SPDX-License-Identifier: MIT */
/*
 * <pmu/riscv-csr.h>: RISC-V machine-mode performance counters for firmware
 * without an operating system (Ibex and any core with Zicntr/Zihpm).
 *
 * Header only, no allocation, no libc (only <stdint.h>), C99 and C++,
 * RV32 and RV64. It is not part of libpmu.so: machine-mode CSRs cannot be
 * reached from Linux user space, so these functions have no exported twins.
 * Build firmware with -ffreestanding where the toolchain has no C library
 * for the target (e.g. Debian's riscv64-linux-gnu-gcc with -march=rv32...),
 * so that <stdint.h> is the compiler's own; nothing here needs libgcc.
 *
 * Counters are named by their index n, as in mcountinhibit:
 *   0      mcycle        (CSR 0xB00, RV32 high half mcycleh 0xB80)
 *   1      -             (time: no machine-mode counter CSR; rejected)
 *   2      minstret      (0xB02 / 0xB82)
 *   3..31  mhpmcounterN  (0xB00+N / 0xB80+N), selected by mhpmeventN (0x320+N)
 * A counter a core does not implement may read 0 (Ibex) or trap (illegal
 * instruction), as the core decides.
 *
 * Reads of 64-bit counters: RV64 reads the CSR once. RV32 reads the high
 * half, the low half, then the high half again, and repeats (reusing the
 * last high read) until both high reads agree, so a carry from the low half
 * into the high half between the two reads never yields a torn value.
 * Writes on RV32 store 0 to the low half, then the high half, then the low
 * half, so the counter cannot carry into the high half in between.
 *
 * Counters narrower than 64 bits (Ibex mhpmcounters: MHPMCounterWidth, 40 by
 * default) wrap at 2^width; pmu_csr_delta() subtracts modulo 2^width.
 *
 * Host tests: define PMU_CSR_SIM before including this header and provide
 *   pmu_csr_reg_t pmu_csr_sim_read(unsigned csr);
 *   void pmu_csr_sim_write(unsigned csr, pmu_csr_reg_t value);
 * (pmu_csr_reg_t is uint32_t, or uint64_t when PMU_CSR_SIM_XLEN is 64); every
 * CSR access, including the bit set/clear of mcountinhibit (read, modify,
 * write), goes through them instead of csrr/csrw.
 *
 * Safety, for every function below unless it says otherwise: nothing is
 * locked. The accesses are to this hart's own CSRs; an interrupt handler or
 * a debugger that writes a counter, an event selector or mcountinhibit while
 * a function runs can make it see the old or the new value (or, for an RV32
 * 64-bit read or write, a mix of the halves). Machine-mode CSRs are per hart,
 * so other harts never touch this hart's counters. All functions are
 * reentrant except the region functions for one and the same region.
 */
#ifndef PMU_RISCV_CSR_H
#define PMU_RISCV_CSR_H

#include <stdint.h>

#if defined(PMU_CSR_SIM)
#if defined(PMU_CSR_SIM_XLEN) && PMU_CSR_SIM_XLEN == 64
#define PMU_CSR_XLEN 64
#else
#define PMU_CSR_XLEN 32
#endif
#elif defined(__riscv) && defined(__riscv_xlen)
#define PMU_CSR_XLEN __riscv_xlen
#else
#error "<pmu/riscv-csr.h> needs a RISC-V target (or PMU_CSR_SIM defined for a host build)"
#endif

#if PMU_CSR_XLEN == 64
typedef uint64_t pmu_csr_reg_t; /**< one CSR: XLEN bits */
#elif PMU_CSR_XLEN == 32
typedef uint32_t pmu_csr_reg_t; /**< one CSR: XLEN bits */
#else
#error "<pmu/riscv-csr.h>: unsupported XLEN"
#endif

#if defined(__GNUC__) || defined(__clang__)
#define PMU_CSR__INLINE static inline __attribute__((always_inline))
#define PMU_CSR__CONSTANT(x) __builtin_constant_p(x)
#else
#define PMU_CSR__INLINE static inline
#define PMU_CSR__CONSTANT(x) 0
#endif
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 8
/* out of line and never specialised for a call site (cloned or given a
 * custom register convention), so every call costs the same instructions */
#define PMU_CSR__OUTOFLINE static __attribute__((noipa, unused))
#elif defined(__GNUC__) || defined(__clang__)
#define PMU_CSR__OUTOFLINE static __attribute__((noinline, unused))
#else
#define PMU_CSR__OUTOFLINE static
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------ numbers --- */

#define PMU_CSR_MCYCLE        0u     /**< counter index of mcycle */
#define PMU_CSR_MINSTRET      2u     /**< counter index of minstret */
#define PMU_CSR_HPM_FIRST     3u     /**< first mhpmcounter index */
#define PMU_CSR_HPM_LAST      31u    /**< last mhpmcounter index */
#define PMU_CSR_COUNTER_BASE  0xB00u /**< CSR of counter n (low half on RV32): 0xB00 + n */
#define PMU_CSR_COUNTERH_BASE 0xB80u /**< RV32: CSR of the high half of counter n: 0xB80 + n */
#define PMU_CSR_EVENT_BASE    0x320u /**< CSR of mhpmevent n: 0x320 + n (3 <= n <= 31) */
#define PMU_CSR_MCOUNTINHIBIT 0x320u /**< mcountinhibit: bit n stops counter n */

/** The mcountinhibit bit of counter @n. */
#define PMU_CSR_BIT(n) ((uint32_t)1 << (n))

/** Returned for a bad argument (equal to -EINVAL on Linux). */
#define PMU_CSR_EINVAL (-22)
/** Returned when a written selector does not read back (equal to -EOPNOTSUPP on Linux). */
#define PMU_CSR_ENOTSUP (-95)

/* ----------------------------------------------------- raw CSR access --- */

#ifdef PMU_CSR_SIM
pmu_csr_reg_t pmu_csr_sim_read(unsigned csr);
void pmu_csr_sim_write(unsigned csr, pmu_csr_reg_t value);
#else
/* csrr/csrw take the CSR number as an immediate: one case per CSR. */
#define PMU_CSR__RD(c) \
	case (c): __asm__ __volatile__("csrr %0, %1" : "=r"(v) : "i"(c)); break;
#define PMU_CSR__WR(c) \
	case (c): __asm__ __volatile__("csrw %0, %1" : : "i"(c), "r"(v)); break;
#define PMU_CSR__X4(M, b) M((b) + 0) M((b) + 1) M((b) + 2) M((b) + 3)
#define PMU_CSR__X32(M, b) \
	PMU_CSR__X4(M, (b) + 0) PMU_CSR__X4(M, (b) + 4) PMU_CSR__X4(M, (b) + 8) \
	PMU_CSR__X4(M, (b) + 12) PMU_CSR__X4(M, (b) + 16) PMU_CSR__X4(M, (b) + 20) \
	PMU_CSR__X4(M, (b) + 24) PMU_CSR__X4(M, (b) + 28)
#endif

/*
 * Reads CSR @csr, one of 0xB00..0xB1F, 0xB80..0xB9F (RV32) or 0x320..0x33F;
 * any other number reads 0. Always inlined: a constant @csr compiles to one
 * csrr; pmu_csr__rd() sends the others to one out-of-line copy.
 */
PMU_CSR__INLINE pmu_csr_reg_t pmu_csr__read(unsigned csr)
{
#ifdef PMU_CSR_SIM
	return pmu_csr_sim_read(csr);
#else
	pmu_csr_reg_t v = 0;
	switch (csr) {
	PMU_CSR__X32(PMU_CSR__RD, 0xB00)
#if PMU_CSR_XLEN == 32
	PMU_CSR__X32(PMU_CSR__RD, 0xB80)
#endif
	PMU_CSR__X32(PMU_CSR__RD, 0x320)
	default: break;
	}
	return v;
#endif
}

/* Writes @v to CSR @csr (same numbers as pmu_csr__read; others: nothing). */
PMU_CSR__INLINE void pmu_csr__write(unsigned csr, pmu_csr_reg_t v)
{
#ifdef PMU_CSR_SIM
	pmu_csr_sim_write(csr, v);
#else
	switch (csr) {
	PMU_CSR__X32(PMU_CSR__WR, 0xB00)
#if PMU_CSR_XLEN == 32
	PMU_CSR__X32(PMU_CSR__WR, 0xB80)
#endif
	PMU_CSR__X32(PMU_CSR__WR, 0x320)
	default: break;
	}
#endif
}

/* The switch of pmu_csr__read() once, out of line, for CSR numbers known
 * only at run time (a jump table). */
PMU_CSR__OUTOFLINE pmu_csr_reg_t pmu_csr__read_any(unsigned csr)
{
	return pmu_csr__read(csr);
}

/* The same for pmu_csr__write(). */
PMU_CSR__OUTOFLINE void pmu_csr__write_any(unsigned csr, pmu_csr_reg_t v)
{
	pmu_csr__write(csr, v);
}

/* Reads CSR @csr: inline csrr when @csr is a compile-time constant (after
 * inlining), else a call to pmu_csr__read_any(). */
PMU_CSR__INLINE pmu_csr_reg_t pmu_csr__rd(unsigned csr)
{
	return PMU_CSR__CONSTANT(csr) ? pmu_csr__read(csr) : pmu_csr__read_any(csr);
}

/* Writes CSR @csr, as pmu_csr__rd() reads it. */
PMU_CSR__INLINE void pmu_csr__wr(unsigned csr, pmu_csr_reg_t v)
{
	if (PMU_CSR__CONSTANT(csr))
		pmu_csr__write(csr, v);
	else
		pmu_csr__write_any(csr, v);
}

/* ----------------------------------------------------------- counters --- */

/**
 * Whether @n names a counter this header can access: 0 (mcycle),
 * 2 (minstret) or 3..31 (mhpmcounterN). Index 1 (time) has no
 * machine-mode CSR.
 *
 * Returns 1 or 0. Pure; safe anywhere.
 */
static inline int pmu_csr_counter_valid(unsigned n)
{
	return n <= PMU_CSR_HPM_LAST && n != 1;
}

/**
 * Reads counter @n (see pmu_csr_counter_valid()) as a 64-bit value.
 *
 * RV64: one csrr. RV32: high, low, high again; while the two high halves
 * differ (the low half carried, or wrapped at the counter's width, between
 * the reads) it reads the low half and the high half again, keeping the last
 * high read as the new first one. The result is a value the counter held
 * while the low half was read.
 *
 * @n: counter index; an invalid index reads 0 without touching a CSR.
 * Returns the counter's value (bits above the counter's width are 0).
 *
 * Safe against the counter carrying and against interrupts that do not write
 * the counter (they only delay the loop). An interrupt handler that writes
 * this counter between the reads can make the result mix its old and new
 * halves; other harts cannot affect it.
 */
PMU_CSR__INLINE uint64_t pmu_csr_counter_read(unsigned n)
{
	if (!pmu_csr_counter_valid(n))
		return 0;
#if PMU_CSR_XLEN == 64
	return pmu_csr__rd(PMU_CSR_COUNTER_BASE + n);
#else
	{
		uint32_t hi = pmu_csr__rd(PMU_CSR_COUNTERH_BASE + n), hi2, lo;
		for (;;) {
			lo = pmu_csr__rd(PMU_CSR_COUNTER_BASE + n);
			hi2 = pmu_csr__rd(PMU_CSR_COUNTERH_BASE + n);
			if (hi2 == hi)
				break;
			hi = hi2;
		}
		return (uint64_t)hi << 32 | lo;
	}
#endif
}

/**
 * Sets counter @n to @value.
 *
 * RV64: one csrw. RV32: the low half is set to 0, then the high half to
 * value >> 32, then the low half to the low 32 bits of @value, so no carry
 * out of the old low half can reach the new high half. A running counter
 * goes on counting from @value (plus the few instructions or cycles of the
 * write itself); inhibit it first (pmu_csr_inhibit_set()) to store an exact
 * value. Bits above the counter's width are dropped by the hardware.
 *
 * @n: counter index; an invalid index is ignored.
 *
 * Same safety as pmu_csr_counter_read(): an interrupt handler that writes the
 * same counter in between leaves a mix of both writes.
 */
PMU_CSR__INLINE void pmu_csr_counter_write(unsigned n, uint64_t value)
{
	if (!pmu_csr_counter_valid(n))
		return;
#if PMU_CSR_XLEN == 64
	pmu_csr__wr(PMU_CSR_COUNTER_BASE + n, value);
#else
	pmu_csr__wr(PMU_CSR_COUNTER_BASE + n, 0);
	pmu_csr__wr(PMU_CSR_COUNTERH_BASE + n, (uint32_t)(value >> 32));
	pmu_csr__wr(PMU_CSR_COUNTER_BASE + n, (uint32_t)value);
#endif
}

/** pmu_csr_counter_write(@n, 0): zeroes counter @n. Same rules and safety. */
PMU_CSR__INLINE void pmu_csr_counter_zero(unsigned n)
{
	pmu_csr_counter_write(n, 0);
}

/**
 * The mask of a @width-bit counter: 2^width - 1; width 0 or >= 64 gives all
 * 64 bits. Pure. (Built from 32-bit shifts: on RV32 a variable 64-bit shift
 * can become a libgcc call, and firmware may have no libgcc.)
 */
static inline uint64_t pmu_csr_width_mask(unsigned width)
{
	if (width == 0 || width >= 64)
		return ~(uint64_t)0;
	if (width > 32)
		return (uint64_t)(0xffffffffu >> (64 - width)) << 32 | 0xffffffffu;
	return 0xffffffffu >> (32 - width);
}

/**
 * How far a @width-bit counter advanced from reading @a to reading @b:
 * (b - a) mod 2^width, correct across one wrap of the counter (not two:
 * read often enough that it cannot wrap twice). Width 64 (or 0) is plain
 * unsigned 64-bit subtraction.
 *
 * Returns the delta. Pure; safe anywhere.
 */
static inline uint64_t pmu_csr_delta(uint64_t a, uint64_t b, unsigned width)
{
	return (b - a) & pmu_csr_width_mask(width);
}

/* ----------------------------------------------------- event selection --- */

/**
 * Reads mhpmevent@n (3..31): the event selector of mhpmcounter@n.
 *
 * Returns the selector (XLEN bits), or 0 for @n outside 3..31 (no access).
 */
PMU_CSR__INLINE pmu_csr_reg_t pmu_csr_event_read(unsigned n)
{
	if (n < PMU_CSR_HPM_FIRST || n > PMU_CSR_HPM_LAST)
		return 0;
	return pmu_csr__rd(PMU_CSR_EVENT_BASE + n);
}

/**
 * Writes @value to mhpmevent@n (3..31): which event mhpmcounter@n counts.
 * The encoding is the core's (Ibex: one bit per event, PMU_IBEX_*_EVENT from
 * <pmu/ibex-events.h>); 0 means no event. On Ibex the selectors are
 * read-only, hard-wired to event bit n, and the write is ignored; other cores
 * may legalise (WARL) the value. Use pmu_csr_event_program() to know.
 *
 * @n outside 3..31 is ignored.
 */
PMU_CSR__INLINE void pmu_csr_event_write(unsigned n, pmu_csr_reg_t value)
{
	if (n < PMU_CSR_HPM_FIRST || n > PMU_CSR_HPM_LAST)
		return;
	pmu_csr__wr(PMU_CSR_EVENT_BASE + n, value);
}

/**
 * Writes @value to mhpmevent@n and reads it back.
 *
 * Returns 0 when it reads back @value; PMU_CSR_ENOTSUP when it reads
 * something else (a hard-wired selector as on Ibex, where counter n always
 * counts event bit n, or a legalised value); PMU_CSR_EINVAL for @n outside
 * 3..31.
 */
PMU_CSR__INLINE int pmu_csr_event_program(unsigned n, pmu_csr_reg_t value)
{
	if (n < PMU_CSR_HPM_FIRST || n > PMU_CSR_HPM_LAST)
		return PMU_CSR_EINVAL;
	pmu_csr_event_write(n, value);
	return pmu_csr_event_read(n) == value ? 0 : PMU_CSR_ENOTSUP;
}

/* ------------------------------------------------------ mcountinhibit --- */

/**
 * Reads mcountinhibit (privileged spec 1.11 and later; older cores trap).
 * Returns the mask: bit n set = counter n stopped.
 */
static inline uint32_t pmu_csr_inhibit_read(void)
{
#ifdef PMU_CSR_SIM
	return (uint32_t)pmu_csr_sim_read(PMU_CSR_MCOUNTINHIBIT);
#else
	pmu_csr_reg_t v;
	__asm__ __volatile__("csrr %0, 0x320" : "=r"(v));
	return (uint32_t)v;
#endif
}

/** Writes @mask to mcountinhibit: exactly the counters whose bit is set are stopped. */
static inline void pmu_csr_inhibit_write(uint32_t mask)
{
#ifdef PMU_CSR_SIM
	pmu_csr_sim_write(PMU_CSR_MCOUNTINHIBIT, mask);
#else
	pmu_csr_reg_t v = mask;
	__asm__ __volatile__("csrw 0x320, %0" : : "r"(v));
#endif
}

/**
 * Stops the counters in @mask (PMU_CSR_BIT(n) | ...): sets their
 * mcountinhibit bits, one atomic csrrs; the others keep their state.
 * Returns the previous mcountinhibit (under PMU_CSR_SIM a read then a write).
 */
static inline uint32_t pmu_csr_inhibit_set(uint32_t mask)
{
#ifdef PMU_CSR_SIM
	uint32_t old = pmu_csr_inhibit_read();
	pmu_csr_inhibit_write(old | mask);
	return old;
#else
	pmu_csr_reg_t v = mask, old;
	__asm__ __volatile__("csrrs %0, 0x320, %1" : "=r"(old) : "r"(v));
	return (uint32_t)old;
#endif
}

/**
 * Starts the counters in @mask: clears their mcountinhibit bits, one atomic
 * csrrc; the others keep their state. Ibex and the privileged spec start
 * with all counters enabled after reset, other cores may not.
 * Returns the previous mcountinhibit (under PMU_CSR_SIM a read then a write).
 */
static inline uint32_t pmu_csr_inhibit_clear(uint32_t mask)
{
#ifdef PMU_CSR_SIM
	uint32_t old = pmu_csr_inhibit_read();
	pmu_csr_inhibit_write(old & ~mask);
	return old;
#else
	pmu_csr_reg_t v = mask, old;
	__asm__ __volatile__("csrrc %0, 0x320, %1" : "=r"(old) : "r"(v));
	return (uint32_t)old;
#endif
}

/* ------------------------------------------------------------ regions --- */

#ifndef PMU_CSR_REGION_MAX
/** Counters per region; define it (the same in every file) before including to change it. */
#define PMU_CSR_REGION_MAX 4
#endif

/**
 * A measured region: up to PMU_CSR_REGION_MAX counters, read at
 * pmu_csr_region_begin() and pmu_csr_region_end(); each end adds, per
 * counter, the delta minus the calibrated overhead to total[] and 1 to calls.
 * A plain value: the caller owns it (static, stack, anywhere) and may read
 * total[] and calls directly. counter[] and width[] are set by
 * pmu_csr_region_init(); start[] is scratch.
 */
struct pmu_csr_region {
	uint32_t n;                                /**< counters in use */
	uint32_t calls;                            /**< completed begin/end pairs */
	uint8_t counter[PMU_CSR_REGION_MAX];       /**< counter index (0, 2, 3..31) */
	uint8_t width[PMU_CSR_REGION_MAX];         /**< counter width in bits (1..64) */
	uint64_t start[PMU_CSR_REGION_MAX];        /**< values read by the last begin */
	uint64_t total[PMU_CSR_REGION_MAX];        /**< sum of calibrated deltas */
	uint64_t overhead[PMU_CSR_REGION_MAX];     /**< per-pair cost subtracted (0: uncalibrated) */
};

/**
 * Sets up @r to measure @n counters: @counters[i] is a counter index (see
 * pmu_csr_counter_valid()), @widths[i] its width in bits (1..64), or @widths
 * NULL for 64 bits each (mcycle and minstret are 64 bits wide; on Ibex the
 * mhpmcounters are MHPMCounterWidth, PMU_IBEX_*_WIDTH). Totals, calls and the
 * calibration start at 0. Touches no CSR.
 *
 * Returns 0, or PMU_CSR_EINVAL (and leaves @r unchanged) for @r NULL, @n 0 or
 * above PMU_CSR_REGION_MAX, an invalid counter, or a width outside 1..64.
 */
static inline int pmu_csr_region_init(struct pmu_csr_region *r, const uint8_t *counters,
				      const uint8_t *widths, unsigned n)
{
	unsigned i;

	if (!r || !counters || n == 0 || n > PMU_CSR_REGION_MAX)
		return PMU_CSR_EINVAL;
	for (i = 0; i < n; i++)
		if (!pmu_csr_counter_valid(counters[i]) ||
		    (widths && (widths[i] < 1 || widths[i] > 64)))
			return PMU_CSR_EINVAL;
	r->n = n;
	r->calls = 0;
	for (i = 0; i < PMU_CSR_REGION_MAX; i++) {
		r->counter[i] = i < n ? counters[i] : 0;
		r->width[i] = i < n ? (widths ? widths[i] : 64) : 64;
		r->start[i] = r->total[i] = r->overhead[i] = 0;
	}
	return 0;
}

/**
 * Starts one pass through the region: reads its counters, in order, into
 * start[]. Out of line (never inlined or specialised), so that every call
 * costs the same and the calibration applies.
 *
 * @r: a region set up by pmu_csr_region_init().
 *
 * Not reentrant for the same @r: begin/end pairs of one region must not nest
 * or interleave (an interrupt handler needs its own region). Different
 * regions are independent.
 */
PMU_CSR__OUTOFLINE void pmu_csr_region_begin(struct pmu_csr_region *r)
{
	uint32_t i;

	for (i = 0; i < r->n; i++)
		r->start[i] = pmu_csr_counter_read(r->counter[i]);
}

/**
 * Ends one pass through the region: reads its counters in the same order
 * and adds to total[i] the wrap-aware delta at width[i] from start[i],
 * minus overhead[i] (never below 0); adds 1 to calls. Out of line, like
 * pmu_csr_region_begin().
 *
 * @r: a region whose pmu_csr_region_begin() was the last call on it.
 *
 * Same reentrancy rule as pmu_csr_region_begin().
 */
PMU_CSR__OUTOFLINE void pmu_csr_region_end(struct pmu_csr_region *r)
{
	uint32_t i;
	uint64_t now[PMU_CSR_REGION_MAX];

	for (i = 0; i < r->n; i++)
		now[i] = pmu_csr_counter_read(r->counter[i]);
	for (i = 0; i < r->n; i++) {
		uint64_t d = pmu_csr_delta(r->start[i], now[i], r->width[i]);
		r->total[i] += d > r->overhead[i] ? d - r->overhead[i] : 0;
	}
	r->calls++;
}

/**
 * Zeroes @r's totals and call count; keeps its counters and calibration.
 * Touches no CSR.
 */
static inline void pmu_csr_region_reset(struct pmu_csr_region *r)
{
	unsigned i;

	for (i = 0; i < PMU_CSR_REGION_MAX; i++)
		r->total[i] = 0;
	r->calls = 0;
}

/**
 * Calibrates @r: runs @rounds (at least 1) empty pmu_csr_region_begin()/
 * pmu_csr_region_end() pairs back to back, stores the smallest delta of each
 * counter as its overhead[], then zeroes totals and calls. From then on each
 * end subtracts what the pair itself costs, so a region's minstret total is
 * the instructions of the code between begin and end, exactly, when the
 * caller passes the region pointer to pmu_csr_region_end() in one
 * instruction as the calibration loop does: a pointer in a register (`mv`),
 * a region on the stack (`addi sp`) or a global whose upper address bits the
 * compiler keeps in a register (`addi`), which is what optimised code does.
 * Each extra instruction of the call site counts: unoptimised code (-O0,
 * `addi` then `mv`) counts 1 more per pass; a global address rebuilt with
 * `lui`+`addi` would too. Cycle counts keep their pipeline variation: the
 * minimum is subtracted.
 *
 * Out of line; not reentrant for the same @r; the region's counters must be
 * running (not inhibited).
 */
PMU_CSR__OUTOFLINE void pmu_csr_region_calibrate(struct pmu_csr_region *r, unsigned rounds)
{
	uint64_t best[PMU_CSR_REGION_MAX], before[PMU_CSR_REGION_MAX];
	uint32_t i;
	unsigned k;

	for (i = 0; i < PMU_CSR_REGION_MAX; i++) {
		r->overhead[i] = 0;
		best[i] = ~(uint64_t)0;
	}
	if (rounds == 0)
		rounds = 1;
	for (k = 0; k < rounds; k++) {
		for (i = 0; i < r->n; i++)
			before[i] = r->total[i];
		pmu_csr_region_begin(r);
		pmu_csr_region_end(r);
		for (i = 0; i < r->n; i++)
			if (r->total[i] - before[i] < best[i])
				best[i] = r->total[i] - before[i];
	}
	for (i = 0; i < r->n; i++)
		r->overhead[i] = best[i];
	pmu_csr_region_reset(r);
}

#ifdef __cplusplus
}
#endif

#ifndef PMU_CSR_SIM
#undef PMU_CSR__RD
#undef PMU_CSR__WR
#undef PMU_CSR__X4
#undef PMU_CSR__X32
#endif

#endif /* PMU_RISCV_CSR_H */
