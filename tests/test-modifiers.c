/* SPDX-License-Identifier: MIT */
/*
 * perf's event modifiers beyond u/k/h, as the perf_event_attr bits a set
 * would open (pmu__set_plan: resolved and grouped, nothing opened).
 *
 * Oracle: perf's own definitions, written here by hand. perf-list(1),
 * EVENT MODIFIERS: "p - precise level" (p, pp, ppp: precise_ip 1..3, "The
 * 'p' modifier can be specified multiple times"), "G - guest counting",
 * "H - host counting", "D - pin the event to the PMU", "S - read sample
 * value (PERF_SAMPLE_READ)". perf's parser (tools/perf/util/parse-events.c,
 * parse_events__modifier_list, linux-source-6.12): G alone sets
 * exclude_host, H alone exclude_guest, both neither; p sets exclude_guest
 * ("use of precise requires exclude_guest") unless G or H is written; a
 * group's p adds to the event's, over 3 is refused ("Maximum combined
 * precise value is 3"), so is a fourth p ("Maximum precise value is 3") and
 * a letter written twice; D sets attr.pinned on the group leader only (the
 * kernel refuses pinned on a member). S only asks sampling to read the
 * group: counting reads every member anyway, so libpmu accepts it and
 * changes nothing (documented in pmu.h).
 */
#include <string.h>
#include "modifiers.h"
#include "set.h"
#include "harness.h"
#include "fixture.h"

static struct pmu_ctx *ctx;

struct bits {
	unsigned precise, eu, ek, eh, ehost, eguest, pinned;
};

static void attr_is(const char *list, size_t i, struct bits want, const char *label)
{
	struct pmu_set_opts o = { sizeof(o), 0, 0, -1 };
	struct pmu_set *s = NULL;
	int r = pmu__set_plan(ctx, list, &o, &s);
	const struct perf_event_attr *a;
	size_t first, n;
	bool leader;

	CHECK(r == 0, "'%s' should plan: %s", list, pmu_strerror(r));
	if (r)
		return;
	CHECK(i < pmu_set_count(s), "'%s': no event %zu", list, i);
	if (i >= pmu_set_count(s)) {
		pmu_set_close(s);
		return;
	}
	a = pmu__set_attr(s, i);
	/* the set sets attr.pinned when it opens a group (the leader of a group with a D in it): the plan says
	 * which events are pinned and which is the leader */
	pmu__set_group_span(s, (unsigned)pmu_set_group_of(s, i), &first, &n);
	leader = first == i;
	{
		bool any = false;
		for (size_t k = first; k < first + n; k++)
			any = any || (pmu__set_info(s, k)->flags & PMU_EVF_PINNED);
		CHECK((unsigned)(leader && any) == want.pinned, "'%s' event %zu: pinned %d, expected %u", list, i,
		      leader && any, want.pinned);
	}
	CHECK(a->precise_ip == want.precise, "'%s' event %zu: precise_ip %u, expected %u", list, i,
	      (unsigned)a->precise_ip, want.precise);
	CHECK(PMU_EVF_PRECISE_IP(pmu__set_info(s, i)->flags) == want.precise, "'%s' event %zu: flags say precise %u",
	      list, i, PMU_EVF_PRECISE_IP(pmu__set_info(s, i)->flags));
	CHECK(a->exclude_user == want.eu && a->exclude_kernel == want.ek && a->exclude_hv == want.eh,
	      "'%s' event %zu: exclude user/kernel/hv %u%u%u, expected %u%u%u", list, i, (unsigned)a->exclude_user,
	      (unsigned)a->exclude_kernel, (unsigned)a->exclude_hv, want.eu, want.ek, want.eh);
	CHECK(a->exclude_host == want.ehost && a->exclude_guest == want.eguest,
	      "'%s' event %zu: exclude host/guest %u%u, expected %u%u", list, i, (unsigned)a->exclude_host,
	      (unsigned)a->exclude_guest, want.ehost, want.eguest);
	if (label)
		CHECK(!strcmp(pmu__set_info(s, i)->name, label), "'%s' event %zu labelled '%s', expected '%s'", list, i,
		      pmu__set_info(s, i)->name, label);
	pmu_set_close(s);
}

static void refused(const char *list, const char *words)
{
	struct pmu_set_opts o = { sizeof(o), 0, 0, -1 };
	struct pmu_set *s = NULL;
	int r = pmu__set_plan(ctx, list, &o, &s);

	CHECK(r == -EINVAL, "'%s' should be refused, got %d", list, r);
	CHECK(strstr(pmu_strerror(r), words) != NULL, "'%s': message '%s' lacks '%s'", list, pmu_strerror(r), words);
	if (r == 0)
		pmu_set_close(s);
}

/* *mode_written of event @i: a mode (u, k, h) was written, so no user-mode fallback */
static void mode_written(const char *list, size_t i, bool want)
{
	struct pmu_set_opts o = { sizeof(o), 0, 0, -1 };
	struct pmu_set *s = NULL;
	int r = pmu__set_plan(ctx, list, &o, &s);

	CHECK(r == 0 && i < pmu_set_count(s) && pmu__set_mode_written(s, i) == want,
	      "'%s' event %zu: mode written %d, expected %d", list, i,
	      r == 0 && i < pmu_set_count(s) ? pmu__set_mode_written(s, i) : -1, want);
	if (r == 0)
		pmu_set_close(s);
}

static void label(const char *name, const char *mods, const char *want)
{
	char out[PMU_NAME_MAX];
	int r = pmu__label_mode(out, sizeof(out), name, mods);

	CHECK(r == 0 && !strcmp(out, want), "label of '%s' with '%s': '%s', expected '%s'", name, mods,
	      r == 0 ? out : "(error)", want);
}

int main(void)
{
	struct pmu_event_info e;

	if (pmu_ctx_new(&ctx, NULL) < 0)
		return 1;
	/*                                     precise eu ek eh ehost eguest pinned */
	attr_is("task-clock", 0, (struct bits){ 0, 0, 0, 0, 0, 0, 0 }, "task-clock");
	attr_is("task-clock:p", 0, (struct bits){ 1, 0, 0, 0, 0, 1, 0 }, "task-clock:p");
	attr_is("task-clock:pp", 0, (struct bits){ 2, 0, 0, 0, 0, 1, 0 }, NULL);
	attr_is("task-clock:ppp", 0, (struct bits){ 3, 0, 0, 0, 0, 1, 0 }, NULL);
	attr_is("task-clock:G", 0, (struct bits){ 0, 0, 0, 0, 1, 0, 0 }, NULL);
	attr_is("task-clock:H", 0, (struct bits){ 0, 0, 0, 0, 0, 1, 0 }, NULL);
	attr_is("task-clock:GH", 0, (struct bits){ 0, 0, 0, 0, 0, 0, 0 }, NULL);
	attr_is("task-clock:pG", 0, (struct bits){ 1, 0, 0, 0, 1, 0, 0 }, NULL);
	attr_is("task-clock:pH", 0, (struct bits){ 1, 0, 0, 0, 0, 1, 0 }, NULL);
	attr_is("task-clock:D", 0, (struct bits){ 0, 0, 0, 0, 0, 0, 1 }, "task-clock:D");
	attr_is("task-clock:S", 0, (struct bits){ 0, 0, 0, 0, 0, 0, 0 }, NULL);
	attr_is("task-clock:up", 0, (struct bits){ 1, 0, 1, 1, 0, 1, 0 }, "task-clock:up");
	attr_is("task-clock:kH", 0, (struct bits){ 0, 1, 0, 1, 0, 1, 0 }, NULL);
	attr_is("task-clock:ukhpGHDS", 0, (struct bits){ 1, 0, 0, 0, 0, 0, 1 }, NULL);
	attr_is("software/config=3/pu", 0, (struct bits){ 1, 0, 1, 1, 0, 1, 0 }, "software/config=3/pu");
	attr_is("software/config=3/:kD", 0, (struct bits){ 0, 1, 0, 1, 0, 0, 1 }, NULL);
	/* groups: the group's letters apply to each member; p adds up; D pins the group through its leader */
	attr_is("{task-clock,page-faults}:D", 0, (struct bits){ 0, 0, 0, 0, 0, 0, 1 }, "task-clock:D");
	attr_is("{task-clock,page-faults}:D", 1, (struct bits){ 0, 0, 0, 0, 0, 0, 0 }, "page-faults:D");
	attr_is("{task-clock,page-faults:D}", 0, (struct bits){ 0, 0, 0, 0, 0, 0, 1 }, "task-clock");
	attr_is("{task-clock:p,page-faults}:p", 0, (struct bits){ 2, 0, 0, 0, 0, 1, 0 }, "task-clock:pp");
	attr_is("{task-clock:p,page-faults}:p", 1, (struct bits){ 1, 0, 0, 0, 0, 1, 0 }, "page-faults:p");
	attr_is("{task-clock,cs}:uD", 1, (struct bits){ 0, 0, 1, 1, 0, 0, 0 }, "cs:Du");
	attr_is("{task-clock:p,cs}:u", 0, (struct bits){ 1, 0, 1, 1, 0, 1, 0 }, "task-clock:pu");
	attr_is("{task-clock:G,cs}:H", 0, (struct bits){ 0, 0, 0, 0, 0, 0, 0 }, NULL);
	attr_is("{task-clock:G,cs}:H", 1, (struct bits){ 0, 0, 0, 0, 0, 1, 0 }, "cs:H");
	attr_is("{task-clock,cs}:S", 0, (struct bits){ 0, 0, 0, 0, 0, 0, 0 }, "task-clock:S");

	/* only u, k, h choose the mode: an event with p or D alone still falls back to user mode where needed */
	mode_written("task-clock:p", 0, false);
	mode_written("task-clock:D", 0, false);
	mode_written("task-clock:pu", 0, true);
	mode_written("{task-clock,cs}:D", 1, false);
	mode_written("{task-clock,cs}:Dk", 1, true);

	refused("task-clock:pppp", "more than three p");
	refused("{task-clock:pp,cs}:pp", "at most 3");
	refused("task-clock:uu", "written twice");
	refused("task-clock:DD", "written twice");
	refused("task-clock:P", "highest precise level");
	refused("task-clock:W", "weak group");
	refused("task-clock:I", "exclude_idle");
	refused("{task-clock:k,cs}:u", "leave no mode");
	refused("task-clock:x", "not a modifier");

	/* labels keep the letters that are not modes, and take the new mode once (perf appends its 'u') */
	label("cycles", "u", "cycles:u");
	label("cycles:k", "u", "cycles:u");
	label("cycles:p", "u", "cycles:pu");
	label("cycles:pk", "u", "cycles:pu");
	label("cycles:Du", "u", "cycles:Du");
	label("cpu/event=0x3c/pk", "u", "cpu/event=0x3c/pu");
	label("cpu/event=0x3c/", "u", "cpu/event=0x3c/u");
	label("sched:sched_switch", "u", "sched:sched_switch:u");
	label("sched:sched_switch:k", "u", "sched:sched_switch:u");
	label("cycles:pp", "p", "cycles:ppp");

	/* modifiers on a tracepoint (a fixture tracefs: sched_switch has id 316 there) */
	{
		struct pmu_ctx *fx = fixture_ctx("vm-tracefs", NULL);
		int r;
		CHECK(fx != NULL, "fixture vm-tracefs");
		if (fx) {
			r = pmu_event_resolve(fx, "sched:sched_switch:kD", &e);
			CHECK(r == 0 && e.type == PERF_TYPE_TRACEPOINT && e.config == 316 && (e.flags & PMU_EVF_PINNED) &&
			      (e.flags & (PMU_EVF_EXCL_USER | PMU_EVF_EXCL_KERNEL | PMU_EVF_EXCL_HV)) ==
				      (PMU_EVF_EXCL_USER | PMU_EVF_EXCL_HV),
			      "sched:sched_switch:kD: %d type %u config %llu flags 0x%x %s", r, e.type,
			      (unsigned long long)e.config, e.flags, r ? pmu_strerror(r) : "");
			pmu_ctx_free(fx);
		}
	}
	pmu_ctx_free(ctx);
	return test_done("test-modifiers");
}
