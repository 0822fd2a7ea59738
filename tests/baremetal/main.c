/* SPDX-License-Identifier: MIT */
/*
 * Bare-metal (machine-mode) test of <pmu/riscv-csr.h> on QEMU's riscv32
 * virt machine, run with -icount shift=0 so that minstret is exact. Uses
 * nothing but <pmu/riscv-csr.h>, the generated <pmu/ibex-events.h> (for the
 * standard names' counters and widths) and the UART.
 *
 * Output: one line per check,
 *   PASS|FAIL <name> key=value ...
 * then "<N> passed, <M> failed"; tests/baremetal/run.sh parses it. Then it
 * powers the machine off (sifive_test: 0x5555 pass, 0x3333 | code << 16 fail).
 */
#include <pmu/riscv-csr.h>
#include <pmu/ibex-events.h>

#define UART_THR ((volatile uint8_t *)0x10000000)
#define UART_LSR ((volatile uint8_t *)0x10000005)
#define POWER    ((volatile uint32_t *)0x00100000)

void poweroff(int failures) __attribute__((noreturn));
void trap(uint32_t mcause, uint32_t mepc, uint32_t mtval) __attribute__((noreturn));
int main(void);

/* ------------------------------------------------------------- output --- */

static void out_char(char c)
{
	while (!(*UART_LSR & 0x20))
		;
	*UART_THR = (uint8_t)c;
}

static void out_str(const char *s)
{
	while (*s)
		out_char(*s++);
}

/* Formats @v in decimal into @buf (21 bytes), without division: RV32 has
 * no 64-bit divide instruction and there is no libgcc here. */
static void fmt_u64(char *buf, uint64_t v)
{
	static const uint64_t pow10[20] = {
		10000000000000000000u, 1000000000000000000u, 100000000000000000u,
		10000000000000000u, 1000000000000000u, 100000000000000u, 10000000000000u,
		1000000000000u, 100000000000u, 10000000000u, 1000000000u, 100000000u,
		10000000u, 1000000u, 100000u, 10000u, 1000u, 100u, 10u, 1u };
	unsigned n = 0;
	for (unsigned i = 0; i < 20; i++) {
		char d = '0';
		while (v >= pow10[i]) {
			v -= pow10[i];
			d++;
		}
		if (d != '0' || n || i == 19)
			buf[n++] = d;
	}
	buf[n] = 0;
}

/* Formats @v as 0x... into @buf (19 bytes); 32-bit shifts only, as above. */
static void fmt_hex(char *buf, uint64_t v)
{
	const uint32_t half[2] = { (uint32_t)(v >> 32), (uint32_t)v };
	unsigned n = 0;
	buf[n++] = '0';
	buf[n++] = 'x';
	for (int sh = 60; sh >= 0; sh -= 4) {
		unsigned d = half[sh < 32] >> (sh & 31) & 15;
		if (d || n > 2 || sh == 0)
			buf[n++] = (char)(d < 10 ? '0' + d : 'a' + d - 10);
	}
	buf[n] = 0;
}

static void out_u64(uint64_t v)
{
	char b[21];
	fmt_u64(b, v);
	out_str(b);
}

static void out_hex(uint64_t v)
{
	char b[19];
	fmt_hex(b, v);
	out_str(b);
}

static unsigned passed, failed;

/* A check line: check_start(name), check_kv()/check_kx() pairs, check_end(ok).
 * The verdict comes first on the line, so it is buffered: the key=value text
 * goes to a small buffer. */
static char line[256];
static unsigned line_len;

static void line_char(char c)
{
	if (line_len < sizeof line - 1)
		line[line_len++] = c;
}

static void line_str(const char *s)
{
	while (*s)
		line_char(*s++);
}

static void line_u64(uint64_t v)
{
	char b[21];
	fmt_u64(b, v);
	line_str(b);
}

static void line_hex(uint64_t v)
{
	char b[19];
	fmt_hex(b, v);
	line_str(b);
}

static const char *check_name;

static void check_start(const char *name)
{
	check_name = name;
	line_len = 0;
}

static void check_kv(const char *key, uint64_t v)
{
	line_char(' ');
	line_str(key);
	line_char('=');
	line_u64(v);
}

static void check_kx(const char *key, uint64_t v)
{
	line_char(' ');
	line_str(key);
	line_char('=');
	line_hex(v);
}

static void check_end(int ok)
{
	line[line_len] = 0;
	out_str(ok ? "PASS " : "FAIL ");
	out_str(check_name);
	out_str(line);
	out_char('\n');
	if (ok)
		passed++;
	else
		failed++;
}

void poweroff(int failures)
{
	*POWER = failures ? 0x3333u | 1u << 16 : 0x5555u;
	for (;;)
		;
}

void trap(uint32_t mcause, uint32_t mepc, uint32_t mtval)
{
	out_str("FAIL trap mcause=");
	out_hex(mcause);
	out_str(" mepc=");
	out_hex(mepc);
	out_str(" mtval=");
	out_hex(mtval);
	out_char('\n');
	out_u64(passed);
	out_str(" passed, ");
	out_u64(failed + 1);
	out_str(" failed\n");
	poweroff(1);
}

/* ------------------------------------------------------------ workload --- */

/* Exactly 1 + 2 * n instructions (n <= 2047 so that li is one instruction):
 * li, then n times addi + bnez. */
#define SPIN(n) __asm__ __volatile__("li t0, %0\n1:\taddi t0, t0, -1\n\tbnez t0, 1b" \
				     : : "i"(n) : "t0")
#define SPIN_INSNS(n) (1 + 2 * (uint64_t)(n))

/* --------------------------------------------------------------- checks --- */

/* Two reads of counter CTR around BODY, inline, in a function of their own
 * so that the empty and the measured variant compile to the same code
 * around BODY (inlined into a larger function, the compiler may schedule
 * unrelated instructions between the reads differently each time). */
#define MEASURE_FN(name, ctr, body) \
	static __attribute__((noinline)) uint64_t name(void) \
	{ \
		uint64_t a = pmu_csr_counter_read(ctr); \
		body; \
		uint64_t b = pmu_csr_counter_read(ctr); \
		return b - a; \
	}
MEASURE_FN(minstret_empty, PMU_STD_INST_RET_COUNTER, (void)0)
MEASURE_FN(minstret_spin, PMU_STD_INST_RET_COUNTER, SPIN(1000))
MEASURE_FN(hpm3_empty, 3, (void)0)
MEASURE_FN(hpm3_spin, 3, SPIN(1000))

/* (i) minstret around a loop of known length, calibrated by the same two
 * reads with nothing between them. */
static void check_minstret_exact(void)
{
	uint64_t overhead = minstret_empty();
	uint64_t raw = minstret_spin();
	uint64_t measured = raw - overhead;

	check_start("minstret-exact");
	check_kv("raw", raw);
	check_kv("overhead", overhead);
	check_kv("measured", measured);
	check_kv("expected", SPIN_INSNS(1000));
	check_end(measured == SPIN_INSNS(1000));
}

/* (ii) mcycle advances (not deterministic under QEMU, so only that). */
static void check_mcycle(void)
{
	uint64_t a = pmu_csr_counter_read(PMU_STD_GEN_CYCLES_COUNTER);
	SPIN(1000);
	uint64_t b = pmu_csr_counter_read(PMU_STD_GEN_CYCLES_COUNTER);
	uint64_t c = pmu_csr_counter_read(PMU_STD_GEN_CYCLES_COUNTER);

	check_start("mcycle-advances");
	check_kv("delta", b - a);
	check_end(b > a && c >= b);
}

/* minstret's low half wraps: written just below 2^32, counted over the
 * wrap. The 32-bit wrap-aware delta must be exactly the loop (after the
 * write-then-read cost, measured once without a wrap). Whether the high
 * half carries is printed, not checked: QEMU 7.2 (RV32) does not carry a
 * written low half into minstreth (the high half follows its own count), so
 * the hi/lo/hi retry is tested in the simulation (tests/test-riscv-csr.c). */
static void check_minstret_wrap(void)
{
	const uint64_t base = 0x00000000ffffff00u;
	uint64_t b, o0, measured;

	pmu_csr_counter_write(PMU_CSR_MINSTRET, 0x100);
	o0 = pmu_csr_counter_read(PMU_CSR_MINSTRET) - 0x100;
	pmu_csr_counter_write(PMU_CSR_MINSTRET, base);
	SPIN(1000);
	b = pmu_csr_counter_read(PMU_CSR_MINSTRET);
	measured = pmu_csr_delta(base, b, 32) - o0;

	check_start("minstret-low-wrap");
	check_kx("written", base);
	check_kx("read", b);
	check_kv("write-read-overhead", o0);
	check_kv("measured", measured);
	check_kv("expected", SPIN_INSNS(1000));
	check_kv("high-half-carried", b >> 32 == 1);
	check_end((uint32_t)b < (uint32_t)base && measured == SPIN_INSNS(1000));
}

/* mcountinhibit: minstret stops while its bit is set and goes on after. */
static void check_inhibit(void)
{
	uint32_t old = pmu_csr_inhibit_clear(0xffffffffu);
	uint32_t prev = pmu_csr_inhibit_set(PMU_CSR_BIT(PMU_CSR_MINSTRET));
	uint64_t a = pmu_csr_counter_read(PMU_CSR_MINSTRET);
	SPIN(1000);
	uint64_t b = pmu_csr_counter_read(PMU_CSR_MINSTRET);
	uint32_t mask = pmu_csr_inhibit_read();
	pmu_csr_inhibit_clear(PMU_CSR_BIT(PMU_CSR_MINSTRET));
	uint64_t c = pmu_csr_counter_read(PMU_CSR_MINSTRET);
	SPIN(1000);
	uint64_t d = pmu_csr_counter_read(PMU_CSR_MINSTRET);

	check_start("mcountinhibit");
	check_kx("at-start", old);
	check_kx("mask", mask);
	check_kv("inhibited-delta", b - a);
	check_kv("running-delta", d - c);
	check_end(prev == 0 && mask == PMU_CSR_BIT(PMU_CSR_MINSTRET) && b == a &&
		  d - c > SPIN_INSNS(1000));
}

/* (iii) mhpmevent3 / mhpmcounter3. QEMU's virt CPU has writable selectors
 * (Ibex's are hard-wired, which pmu_csr_event_program() reports) and counts
 * event 0x2 (its instructions event, as in the SBI PMU encoding) on them. */
#define QEMU_EVENT_INSTRUCTIONS 0x2

static void check_hpm3(void)
{
	const uint64_t v = 0x000000123456789au;

	/* no event selected and inhibited: the counter holds what is written */
	int r0 = pmu_csr_event_program(3, 0);
	pmu_csr_inhibit_set(PMU_CSR_BIT(3));
	pmu_csr_counter_write(3, v);
	uint64_t got = pmu_csr_counter_read(3);
	pmu_csr_counter_zero(3);
	uint64_t zero = pmu_csr_counter_read(3);
	pmu_csr_inhibit_clear(PMU_CSR_BIT(3));

	check_start("mhpmcounter3-write-read");
	check_kx("wrote", v);
	check_kx("read", got);
	check_kx("after-zero", zero);
	check_end(r0 == 0 && got == v && zero == 0);

	int r1 = pmu_csr_event_program(3, QEMU_EVENT_INSTRUCTIONS);
	pmu_csr_reg_t e = pmu_csr_event_read(3);
	check_start("mhpmevent3-write-read");
	check_kx("wrote", QEMU_EVENT_INSTRUCTIONS);
	check_kx("read", e);
	check_end(r1 == 0 && e == QEMU_EVENT_INSTRUCTIONS);

	/* counting it, calibrated like minstret-exact */
	uint64_t overhead = hpm3_empty();
	uint64_t measured = hpm3_spin() - overhead;
	pmu_csr_event_write(3, 0);

	check_start("mhpmcounter3-counts-event");
	check_kx("event", QEMU_EVENT_INSTRUCTIONS);
	check_kv("overhead", overhead);
	check_kv("measured", measured);
	check_kv("expected", SPIN_INSNS(1000));
	check_end(measured == SPIN_INSNS(1000));
}

/* (iv) the region helpers: minstret (INST.RET) and mcycle (GEN.CYCLES),
 * calibrated; each pass must count exactly the loop's instructions. */
static void check_regions(void)
{
	static const uint8_t ids[2] = { PMU_STD_INST_RET_COUNTER, PMU_STD_GEN_CYCLES_COUNTER };
	static const uint8_t widths[2] = { PMU_STD_INST_RET_WIDTH, PMU_STD_GEN_CYCLES_WIDTH };
	struct pmu_csr_region r;
	uint64_t raw, t0, t1, t2, t3;

	int ok = pmu_csr_region_init(&r, ids, widths, 2) == 0;

	/* uncalibrated, for the record */
	pmu_csr_region_begin(&r);
	SPIN(100);
	pmu_csr_region_end(&r);
	raw = r.total[0];

	pmu_csr_region_calibrate(&r, 8);
	check_start("region-calibrate");
	check_kv("uncalibrated", raw);
	check_kv("loop", SPIN_INSNS(100));
	check_kv("overhead-minstret", r.overhead[0]);
	check_kv("overhead-mcycle", r.overhead[1]);
	check_end(ok && raw == SPIN_INSNS(100) + r.overhead[0] && r.calls == 0 && r.total[0] == 0);

	pmu_csr_region_begin(&r);
	pmu_csr_region_end(&r);
	t0 = r.total[0];
	pmu_csr_region_begin(&r);
	SPIN(10);
	pmu_csr_region_end(&r);
	t1 = r.total[0];
	pmu_csr_region_begin(&r);
	SPIN(100);
	pmu_csr_region_end(&r);
	t2 = r.total[0];
	pmu_csr_region_begin(&r);
	SPIN(1000);
	pmu_csr_region_end(&r);
	t3 = r.total[0];

	check_start("region-empty");
	check_kv("minstret", t0);
	check_end(t0 == 0);
	check_start("region-passes");
	check_kv("pass1", t1 - t0);
	check_kv("pass2", t2 - t1);
	check_kv("pass3", t3 - t2);
	check_kv("expected1", SPIN_INSNS(10));
	check_kv("expected2", SPIN_INSNS(100));
	check_kv("expected3", SPIN_INSNS(1000));
	check_end(t1 - t0 == SPIN_INSNS(10) && t2 - t1 == SPIN_INSNS(100) &&
		  t3 - t2 == SPIN_INSNS(1000));
	check_start("region-total");
	check_kv("calls", r.calls);
	check_kv("minstret", r.total[0]);
	check_kv("expected", SPIN_INSNS(10) + SPIN_INSNS(100) + SPIN_INSNS(1000));
	check_kv("mcycle", r.total[1]);
	check_end(r.calls == 4 && r.total[0] == SPIN_INSNS(10) + SPIN_INSNS(100) + SPIN_INSNS(1000) &&
		  r.total[1] > 0);
}

/* The generated header's Ibex facts, as compiled into the firmware. */
static void check_generated(void)
{
	check_start("ibex-events-header");
	check_kv("loads-counter", PMU_IBEX_NUMLOADS_COUNTER);
	check_kx("loads-event", PMU_IBEX_NUMLOADS_EVENT);
	check_kv("loads-width", PMU_IBEX_NUMLOADS_WIDTH);
	check_end(PMU_IBEX_FIXED_EVENTS == 1 && PMU_STD_INST_LOAD_RET_EVENT == 1u << 5 &&
		  PMU_STD_INST_RET_COUNTER == PMU_CSR_MINSTRET &&
		  pmu_csr_delta(0xfffffffff0u, 5, PMU_STD_INST_LOAD_RET_WIDTH) == 21);
}

int main(void)
{
	out_str("riscv32 bare-metal counters: <pmu/riscv-csr.h>, XLEN ");
	out_u64(PMU_CSR_XLEN);
	out_char('\n');
	pmu_csr_inhibit_clear(PMU_CSR_BIT(0) | PMU_CSR_BIT(2));
	check_minstret_exact();
	check_mcycle();
	check_minstret_wrap();
	check_inhibit();
	check_hpm3();
	check_regions();
	check_generated();
	out_u64(passed);
	out_str(" passed, ");
	out_u64(failed);
	out_str(" failed\n");
	return failed ? 1 : 0;
}
