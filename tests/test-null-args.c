/* SPDX-License-Identifier: MIT */
/*
 * Every public function with NULL in each of its pointer arguments, each
 * call in a forked child (so a crash is one failed check, not the end of
 * the test): no crash, and the documented result — a negative errno (almost
 * always -EINVAL), or for the functions without an error return the value
 * include/pmu.h gives for NULL (0, 0.0, nothing written). The contract of
 * each function is in its comment in the header; this table is its test.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <pmu.h>
#include "harness.h"

static struct pmu_ctx *ctx;
static struct pmu_set *set;

enum expect { NEG, ZERO, NOCRASH };

struct call {
	const char *what;
	enum expect expect;
	long (*fn)(void);
};

static int cb_event(const struct pmu_event_entry *e, void *d) { (void)e; (void)d; return 0; }
static void cb_problem(void *d, const char *f, const char *e, const char *m) { (void)d; (void)f; (void)e; (void)m; }
static int cb_region(const struct pmu_region_result *r, void *d) { (void)r; (void)d; return 0; }

static struct pmu_value v[8], w[8];
static struct pmu_named_value nv[1] = { { NULL, 1.0 } };
static double dout;

static long c_ctx_new(void) { return pmu_ctx_new(NULL, NULL); }
static long c_ctx_free(void) { pmu_ctx_free(NULL); return 0; }
static long c_caps_ctx(void) { struct pmu_caps c; return pmu_caps(NULL, &c); }
static long c_caps_out(void) { return pmu_caps(ctx, NULL); }
static long c_pmu_count(void) { return (long)pmu_pmu_count(NULL); }
static long c_pmu_get_ctx(void) { struct pmu_pmu_info i; return pmu_pmu_get(NULL, 0, &i); }
static long c_pmu_get_out(void) { return pmu_pmu_get(ctx, 0, NULL); }
static long c_advice_ctx(void) { char b[64]; return pmu_advice(NULL, b, sizeof(b)) < 0 ? -EINVAL : 0; }
static long c_advice_buf(void) { return pmu_advice(ctx, NULL, 64) < 0 ? -EINVAL : 0; }
static long c_resolve_ctx(void) { struct pmu_event_info e; return pmu_event_resolve(NULL, "cycles", &e); }
static long c_resolve_name(void) { struct pmu_event_info e; return pmu_event_resolve(ctx, NULL, &e); }
static long c_resolve_out(void) { return pmu_event_resolve(ctx, "cycles", NULL); }
static long c_foreach_ctx(void) { return pmu_event_foreach(NULL, "", cb_event, NULL); }
static long c_foreach_cb(void) { return pmu_event_foreach(ctx, "", NULL, NULL); }
static long c_pfm_foreach_ctx(void) { return pmu_libpfm_event_foreach(NULL, "", cb_event, NULL); }
static long c_pfm_foreach_cb(void) { return pmu_libpfm_event_foreach(ctx, "", NULL, NULL); }
static long c_check_ctx(void) { return pmu_tables_check(NULL, "/nonexistent", cb_problem, NULL); }
static long c_check_dir(void) { return pmu_tables_check(ctx, NULL, cb_problem, NULL); }
static long c_check_cb(void) { return pmu_tables_check(ctx, "/nonexistent", NULL, NULL); }
static long c_open_ctx(void) { struct pmu_set *s; return pmu_set_open(NULL, "task-clock", NULL, &s); }
static long c_open_events(void) { struct pmu_set *s; return pmu_set_open(ctx, NULL, NULL, &s); }
static long c_open_out(void) { return pmu_set_open(ctx, "task-clock", NULL, NULL); }
static long c_close(void) { pmu_set_close(NULL); return 0; }
static long c_enable(void) { return pmu_set_enable(NULL); }
static long c_enable_before_exec(void) { return pmu_set_enable_before_exec(NULL); }
static long c_disable(void) { return pmu_set_disable(NULL); }
static long c_reset(void) { return pmu_set_reset(NULL); }
static long c_count(void) { return (long)pmu_set_count(NULL); }
static long c_event_set(void) { struct pmu_event_info e; return pmu_set_event(NULL, 0, &e); }
static long c_event_out(void) { return pmu_set_event(set, 0, NULL); }
static long c_group_of(void) { return pmu_set_group_of(NULL, 0); }
static long c_read_set(void) { return pmu_set_read(NULL, v); }
static long c_read_out(void) { return pmu_set_read(set, NULL); }
static long c_sread_set(void) { return pmu_set_read_syscall(NULL, v); }
static long c_sread_out(void) { return pmu_set_read_syscall(set, NULL); }
static long c_delta_a(void) { pmu_delta(NULL, v, 2, w); return 0; }
static long c_delta_b(void) { pmu_delta(v, NULL, 2, w); return 0; }
static long c_delta_out(void) { pmu_delta(v, w, 2, NULL); return 0; }
static long c_scale(void) { return (long)pmu_scale(NULL); }
static long c_confidence(void) { return pmu_confidence(NULL) == 0.0 ? 0 : 1; }
static long c_fast_null(void) { return pmu_fast_read(pmu_set_fast(NULL), v); }
static long c_fast_fn_null(void) { return pmu_fast_read_fn(NULL, v); }
static long c_fast_fn_out(void) { return pmu_fast_read_fn(pmu_set_fast(set), NULL); }
static long c_read_group_set(void) { return pmu_set_read_group(NULL, 0, v); }
static long c_read_group_out(void) { return pmu_set_read_group(set, 0, NULL); }
static long c_read_copies_set(void) { struct pmu_copy_value c; return pmu_set_read_copies(NULL, 0, &c, 1); }
static long c_read_copies_out(void) { return pmu_set_read_copies(set, 0, NULL, 1); }
static long c_read_copies_i(void) { struct pmu_copy_value c; return pmu_set_read_copies(set, 1u << 30, &c, 1); }
static long c_forked(void) { return pmu_fast_forked(NULL); }
static long c_hybrid_f(void) { pmu_fast_hybrid(NULL, v); return 0; }
static long c_hybrid_out(void) { pmu_fast_hybrid(pmu_set_fast(set), NULL); return 0; }
static long c_page_read_pc(void) { return pmu_page_read_fn(NULL, v); }
static long c_page_read_out(void) { struct perf_event_mmap_page pc; memset(&pc, 0, sizeof(pc)); return pmu_page_read_fn(&pc, NULL); }
static long c_eval_ctx(void) { return pmu_metric_eval(NULL, "1+1", NULL, 0, &dout); }
static long c_eval_expr(void) { return pmu_metric_eval(ctx, NULL, NULL, 0, &dout); }
static long c_eval_out(void) { return pmu_metric_eval(ctx, "1+1", NULL, 0, NULL); }
static long c_eval_vals(void) { return pmu_metric_eval(ctx, "x + 1", NULL, 1, &dout); }
static long c_eval_name(void) { return pmu_metric_eval(ctx, "x + 1", nv, 1, &dout); }
static long c_eval_set_set(void) { return pmu_metric_eval_set(ctx, "1+1", NULL, v, &dout); }
static long c_eval_set_vals(void) { return pmu_metric_eval_set(ctx, "1+1", set, NULL, &dout); }
static long c_threshold_ctx(void) { int x; return pmu_metric_threshold(NULL, "IPC", NULL, 0, &x); }
static long c_threshold_out(void) { return pmu_metric_threshold(ctx, "IPC", NULL, 0, NULL); }
static struct pmu_event_info evs[1];
static long c_eval_ev_ctx(void) { return pmu_metric_eval_events(NULL, "1+1", NULL, NULL, 0, &dout); }
static long c_eval_ev_expr(void) { return pmu_metric_eval_events(ctx, NULL, NULL, NULL, 0, &dout); }
static long c_eval_ev_out(void) { return pmu_metric_eval_events(ctx, "1+1", NULL, NULL, 0, NULL); }
static long c_eval_ev_vals(void) { return pmu_metric_eval_events(ctx, "x + 1", NULL, evs, 1, &dout); }
static long c_eval_ev_name(void) { return pmu_metric_eval_events(ctx, "x + 1", nv, evs, 1, &dout); }
static long c_thr_ev_ctx(void) { int x; return pmu_metric_threshold_events(NULL, "IPC", NULL, NULL, 0, &x); }
static long c_thr_ev_out(void) { return pmu_metric_threshold_events(ctx, "IPC", NULL, NULL, 0, NULL); }
static long c_events_ctx(void) { char b[64]; return pmu_metric_events(NULL, "1+1", b, sizeof(b)); }
static long c_events_buf(void) { return pmu_metric_events(ctx, "a+b", NULL, 64); }
static long c_info_name(void) { struct pmu_metric_info i; return pmu_metric_info(ctx, NULL, &i); }
static long c_info_out(void) { return pmu_metric_info(ctx, "IPC", NULL); }
static long c_param_ctx(void) { return pmu_ctx_set_param(NULL, "a", 1); }
static long c_param_name(void) { return pmu_ctx_set_param(ctx, NULL, 1); }
static long c_td_sample_set(void) { struct pmu_topdown_sample t; return pmu_topdown_sample(NULL, &t); }
static long c_td_sample_out(void) { return pmu_topdown_sample(set, NULL); }
static long c_td_decode_a(void) { struct pmu_topdown_sample b = { 0, 0, 0 }; struct pmu_topdown t; return pmu_topdown_decode(NULL, &b, 1, &t); }
static long c_td_decode_out(void) { struct pmu_topdown_sample b = { 0, 0, 0 }; return pmu_topdown_decode(&b, &b, 1, NULL); }
static long c_td_counts_c(void) { struct pmu_topdown t; return pmu_topdown_from_counts(NULL, &t); }
static long c_td_counts_out(void) { struct pmu_topdown_counts c = { 0 }; return pmu_topdown_from_counts(&c, NULL); }
static long c_td_set_set(void) { struct pmu_topdown t; return pmu_topdown_from_set(NULL, v, &t); }
static long c_td_set_vals(void) { struct pmu_topdown t; return pmu_topdown_from_set(set, NULL, &t); }
static long c_td_named_ctx(void) { struct pmu_topdown t; return pmu_topdown_from_named(NULL, NULL, 0, &t); }
static long c_td_named_out(void) { return pmu_topdown_from_named(ctx, NULL, 0, NULL); }
static long c_td_page_pc(void) { struct pmu_topdown_sample t; return pmu_topdown_page_sample_fn(NULL, &t); }
static long c_td_page_out(void) { struct perf_event_mmap_page pc; memset(&pc, 0, sizeof(pc)); return pmu_topdown_page_sample_fn(&pc, NULL); }
static long c_td_with_pc(void) { struct pmu_topdown_sample t; return pmu_topdown_page_sample_with_fn(NULL, NULL, NULL, &t); }
static long c_td_with_out(void) { struct perf_event_mmap_page pc; memset(&pc, 0, sizeof(pc)); return pmu_topdown_page_sample_with_fn(&pc, NULL, NULL, NULL); }
static long c_page_with_pc(void) { return pmu_page_read_with_fn(NULL, NULL, NULL, NULL, v); }
static long c_page_with_out(void) { struct perf_event_mmap_page pc; memset(&pc, 0, sizeof(pc)); return pmu_page_read_with_fn(&pc, NULL, NULL, NULL, NULL); }
static long c_set_fast_fn(void) { return pmu_fast_read(pmu_set_fast_fn(NULL), v); }
static long c_region_begin(void) { return pmu_region_begin(NULL); }
/* an empty name: refused as such (not another error that the call may meet first) */
static long c_region_begin_empty(void)
{
	long r = pmu_region_begin("");
	return r == -EINVAL && strstr(pmu_strerror((int)r), "region name is empty") ? r : 0;
}
/* calibrate outside 1, 0, -1: refused, saying which it takes */
static long c_region_configure_5(void)
{
	long r = pmu_region_configure(NULL, 5);
	return r == -EINVAL && strstr(pmu_strerror((int)r), "calibrate is 5") ? r : 0;
}
static long c_region_end(void) { return pmu_region_end(NULL); }
static long c_region_get_name(void) { struct pmu_region *h; return pmu_region_get(NULL, &h); }
static long c_region_get_out(void) { return pmu_region_get("x", NULL); }
static long c_region_enter(void) { return pmu_region_enter(NULL); }
static long c_region_leave(void) { return pmu_region_leave(NULL); }
static long c_region_foreach(void) { return pmu_region_foreach(0, NULL, NULL); }
static long c_region_overhead(void) { pmu_region_begin("warm"); pmu_region_end("warm"); return pmu_region_overhead(NULL, 5); }
static long c_region_foreach_ok(void) { return pmu_region_foreach(0, cb_region, NULL) < 0; }
static long c_strerror(void) { return pmu_strerror(-EINVAL) ? 0 : 1; }
/* -INT_MIN overflowed (UBSan): a string naming no error */
static long c_strerror_min(void) { return pmu_strerror(INT_MIN) && pmu_strerror(INT_MIN)[0] ? 0 : 1; }
/* a flag no enum pmu_set_flags has (a caller of a newer header): refused, not ignored */
static long c_open_flags(void)
{
	struct pmu_set_opts o = { sizeof(o), 1u << 30, 0, -1, -1 };
	struct pmu_set *s = NULL;
	long r = pmu_set_open(ctx, "task-clock", &o, &s);
	pmu_set_close(s);
	return r == -EINVAL && strstr(pmu_strerror((int)r), "none of enum pmu_set_flags") ? -EINVAL : 0;
}

static const struct call calls[] = {
	{ "pmu_ctx_new(NULL, NULL)", NEG, c_ctx_new },
	{ "pmu_ctx_free(NULL)", NOCRASH, c_ctx_free },
	{ "pmu_caps(NULL, &c)", NEG, c_caps_ctx },
	{ "pmu_caps(ctx, NULL)", NEG, c_caps_out },
	{ "pmu_pmu_count(NULL) == 0", ZERO, c_pmu_count },
	{ "pmu_pmu_get(NULL, 0, &i)", NEG, c_pmu_get_ctx },
	{ "pmu_pmu_get(ctx, 0, NULL)", NEG, c_pmu_get_out },
	{ "pmu_advice(NULL, buf, 64)", NEG, c_advice_ctx },
	{ "pmu_advice(ctx, NULL, 64)", NEG, c_advice_buf },
	{ "pmu_event_resolve(NULL, ...)", NEG, c_resolve_ctx },
	{ "pmu_event_resolve(ctx, NULL, &e)", NEG, c_resolve_name },
	{ "pmu_event_resolve(ctx, name, NULL)", NEG, c_resolve_out },
	{ "pmu_event_foreach(NULL, ...)", NEG, c_foreach_ctx },
	{ "pmu_event_foreach(ctx, \"\", NULL, NULL)", NEG, c_foreach_cb },
	{ "pmu_libpfm_event_foreach(NULL, ...)", NEG, c_pfm_foreach_ctx },
	{ "pmu_libpfm_event_foreach(ctx, \"\", NULL, NULL)", NEG, c_pfm_foreach_cb },
	{ "pmu_tables_check(NULL, dir, cb, NULL)", NEG, c_check_ctx },
	{ "pmu_tables_check(ctx, NULL, cb, NULL)", NEG, c_check_dir },
	{ "pmu_tables_check(ctx, dir, NULL, NULL)", NEG, c_check_cb },
	{ "pmu_set_open(NULL, ...)", NEG, c_open_ctx },
	{ "pmu_set_open(ctx, NULL, NULL, &s)", NEG, c_open_events },
	{ "pmu_set_open(ctx, events, NULL, NULL)", NEG, c_open_out },
	{ "pmu_set_close(NULL)", NOCRASH, c_close },
	{ "pmu_set_enable(NULL)", NEG, c_enable },
	{ "pmu_set_enable_before_exec(NULL)", NEG, c_enable_before_exec },
	{ "pmu_set_disable(NULL)", NEG, c_disable },
	{ "pmu_set_reset(NULL)", NEG, c_reset },
	{ "pmu_set_count(NULL) == 0", ZERO, c_count },
	{ "pmu_set_event(NULL, 0, &e)", NEG, c_event_set },
	{ "pmu_set_event(set, 0, NULL)", NEG, c_event_out },
	{ "pmu_set_group_of(NULL, 0)", NEG, c_group_of },
	{ "pmu_set_read(NULL, v)", NEG, c_read_set },
	{ "pmu_set_read(set, NULL)", NEG, c_read_out },
	{ "pmu_set_read_syscall(NULL, v)", NEG, c_sread_set },
	{ "pmu_set_read_syscall(set, NULL)", NEG, c_sread_out },
	{ "pmu_delta(NULL, b, 2, out)", NOCRASH, c_delta_a },
	{ "pmu_delta(a, NULL, 2, out)", NOCRASH, c_delta_b },
	{ "pmu_delta(a, b, 2, NULL)", NOCRASH, c_delta_out },
	{ "pmu_scale(NULL) == 0", ZERO, c_scale },
	{ "pmu_confidence(NULL) == 0.0", ZERO, c_confidence },
	{ "pmu_fast_read(pmu_set_fast(NULL), v)", NEG, c_fast_null },
	{ "pmu_fast_read_fn(NULL, v)", NEG, c_fast_fn_null },
	{ "pmu_fast_read_fn(plan, NULL)", NEG, c_fast_fn_out },
	{ "pmu_set_read_group(NULL, 0, v)", NEG, c_read_group_set },
	{ "pmu_set_read_group(set, 0, NULL)", NEG, c_read_group_out },
	{ "pmu_set_read_copies(NULL, 0, c, 1)", NEG, c_read_copies_set },
	{ "pmu_set_read_copies(set, 0, NULL, 1)", NEG, c_read_copies_out },
	{ "pmu_set_read_copies(set, 2^30, c, 1)", NEG, c_read_copies_i },
	{ "pmu_fast_forked(NULL)", NEG, c_forked },
	{ "pmu_fast_hybrid(NULL, v)", NOCRASH, c_hybrid_f },
	{ "pmu_fast_hybrid(plan, NULL)", NOCRASH, c_hybrid_out },
	{ "pmu_page_read_fn(NULL, v)", NEG, c_page_read_pc },
	{ "pmu_page_read_fn(page, NULL)", NEG, c_page_read_out },
	{ "pmu_metric_eval(NULL, ...)", NEG, c_eval_ctx },
	{ "pmu_metric_eval(ctx, NULL, ...)", NEG, c_eval_expr },
	{ "pmu_metric_eval(ctx, expr, ..., NULL)", NEG, c_eval_out },
	{ "pmu_metric_eval(ctx, expr, NULL, 1, &d)", NEG, c_eval_vals },
	{ "pmu_metric_eval(ctx, expr, {NULL name}, 1, &d)", NEG, c_eval_name },
	{ "pmu_metric_eval_set(ctx, expr, NULL, v, &d)", NEG, c_eval_set_set },
	{ "pmu_metric_eval_set(ctx, expr, set, NULL, &d)", NEG, c_eval_set_vals },
	{ "pmu_metric_threshold(NULL, ...)", NEG, c_threshold_ctx },
	{ "pmu_metric_threshold(ctx, m, NULL, 0, NULL)", NEG, c_threshold_out },
	{ "pmu_metric_eval_events(NULL, ...)", NEG, c_eval_ev_ctx },
	{ "pmu_metric_eval_events(ctx, NULL, ...)", NEG, c_eval_ev_expr },
	{ "pmu_metric_eval_events(ctx, expr, ..., NULL)", NEG, c_eval_ev_out },
	{ "pmu_metric_eval_events(ctx, expr, NULL, ev, 1, &d)", NEG, c_eval_ev_vals },
	{ "pmu_metric_eval_events(ctx, expr, {NULL name}, ev, 1, &d)", NEG, c_eval_ev_name },
	{ "pmu_metric_threshold_events(NULL, ...)", NEG, c_thr_ev_ctx },
	{ "pmu_metric_threshold_events(ctx, m, ..., NULL)", NEG, c_thr_ev_out },
	{ "pmu_metric_events(NULL, ...)", NEG, c_events_ctx },
	{ "pmu_metric_events(ctx, expr, NULL, 64)", NEG, c_events_buf },
	{ "pmu_metric_info(ctx, NULL, &i)", NEG, c_info_name },
	{ "pmu_metric_info(ctx, name, NULL)", NEG, c_info_out },
	{ "pmu_ctx_set_param(NULL, ...)", NEG, c_param_ctx },
	{ "pmu_ctx_set_param(ctx, NULL, 1)", NEG, c_param_name },
	{ "pmu_topdown_sample(NULL, &t)", NEG, c_td_sample_set },
	{ "pmu_topdown_sample(set, NULL)", NEG, c_td_sample_out },
	{ "pmu_topdown_decode(NULL, &b, 1, &t)", NEG, c_td_decode_a },
	{ "pmu_topdown_decode(&a, &b, 1, NULL)", NEG, c_td_decode_out },
	{ "pmu_topdown_from_counts(NULL, &t)", NEG, c_td_counts_c },
	{ "pmu_topdown_from_counts(&c, NULL)", NEG, c_td_counts_out },
	{ "pmu_topdown_from_set(NULL, v, &t)", NEG, c_td_set_set },
	{ "pmu_topdown_from_set(set, NULL, &t)", NEG, c_td_set_vals },
	{ "pmu_topdown_from_named(NULL, ...)", NEG, c_td_named_ctx },
	{ "pmu_topdown_from_named(ctx, NULL, 0, NULL)", NEG, c_td_named_out },
	{ "pmu_topdown_page_sample_fn(NULL, &t)", NEG, c_td_page_pc },
	{ "pmu_topdown_page_sample_fn(page, NULL)", NEG, c_td_page_out },
	{ "pmu_topdown_page_sample_with_fn(NULL, ...)", NEG, c_td_with_pc },
	{ "pmu_topdown_page_sample_with_fn(page, NULL, NULL, NULL)", NEG, c_td_with_out },
	{ "pmu_page_read_with_fn(NULL, ...)", NEG, c_page_with_pc },
	{ "pmu_page_read_with_fn(page, NULL, NULL, NULL, NULL)", NEG, c_page_with_out },
	{ "pmu_fast_read(pmu_set_fast_fn(NULL), v)", NEG, c_set_fast_fn },
	{ "pmu_region_begin(NULL)", NEG, c_region_begin },
	{ "pmu_region_end(NULL)", NEG, c_region_end },
	{ "pmu_region_get(NULL, &h)", NEG, c_region_get_name },
	{ "pmu_region_get(name, NULL)", NEG, c_region_get_out },
	{ "pmu_region_enter(NULL)", NEG, c_region_enter },
	{ "pmu_region_leave(NULL)", NEG, c_region_leave },
	{ "pmu_region_foreach(0, NULL, NULL)", NEG, c_region_foreach },
	{ "pmu_region_overhead(NULL, 5)", NEG, c_region_overhead },
	{ "pmu_region_foreach(0, cb, NULL) after the above", ZERO, c_region_foreach_ok },
	{ "pmu_strerror(-EINVAL) is a string", ZERO, c_strerror },
	{ "pmu_region_begin(\"\"): -EINVAL, an empty name", NEG, c_region_begin_empty },
	{ "pmu_region_configure(NULL, 5): -EINVAL naming calibrate", NEG, c_region_configure_5 },
	{ "pmu_strerror(INT_MIN) is a string", ZERO, c_strerror_min },
	{ "pmu_set_open with an unknown flag (1 << 30): -EINVAL naming it", NEG, c_open_flags },
};

int main(void)
{
	unsigned crashed = 0, wrong = 0;

	setenv("PMU_EVENTS", "task-clock", 1);
	setenv("PMU_OUTPUT", "/dev/null", 1);
	CHECK(pmu_ctx_new(&ctx, NULL) == 0, "context");
	if (pmu_set_open(ctx, "task-clock", NULL, &set) < 0)
		SKIP("cannot open task-clock here: %s", pmu_strerror(-errno));
	for (size_t i = 0; i < sizeof(calls) / sizeof(calls[0]); i++) {
		int st = 0;
		pid_t pid;
		fflush(stdout);
		pid = fork();
		if (pid == 0) {
			long r = calls[i].fn();
			int ok = calls[i].expect == NEG ? (r < 0 && r >= -4095) : calls[i].expect == ZERO ? r == 0 : 1;
			if (!ok)
				printf("  %s returned %ld\n", calls[i].what, r);
			fflush(stdout);
			_exit(ok ? 0 : 3);
		}
		waitpid(pid, &st, 0);
		if (WIFSIGNALED(st)) {
			crashed++;
			CHECK(0, "%s: killed by signal %d (%s)", calls[i].what, WTERMSIG(st), strsignal(WTERMSIG(st)));
		} else if (WEXITSTATUS(st) != 0) {
			wrong++;
			CHECK(0, "%s: not the documented result", calls[i].what);
		}
	}
	printf("%zu NULL-argument calls: %u crashed, %u returned something else than documented\n",
	       sizeof(calls) / sizeof(calls[0]), crashed, wrong);
	pmu_set_close(set);
	pmu_ctx_free(ctx);
	return test_done("test-null-args");
}
