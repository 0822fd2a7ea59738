/* SPDX-License-Identifier: MIT */
/*
 * pmu_tables_check on tables in the shape of perf's unmodified directories
 * (tests/tables/check-notes, written by hand): real problems are counted
 * (a name nothing defines, a term the machine's PMU lacks); what the check
 * cannot tell on this machine is said as a note ("note: ..."), not counted:
 * a PMU the machine does not have, a kernel sysfs event it lacks, a
 * definition repeated alike. perf's counter.json objects and a CPU's native
 * event under a standard name are neither. Loading the same directory logs
 * no warning. The machine: the intel-icx fixture (cpu with topdown events,
 * msr with tsc/aperf, no cstate PMUs, no TSX). Expected counts by hand from
 * the fixture files.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pmu.h>
#include "harness.h"

struct seen {
	int problems, notes;
	char text[8192];
};

static void collect(void *data, const char *file, const char *entry, const char *msg)
{
	struct seen *s = data;
	size_t l = strlen(s->text);

	/* the notes of the test's own table: the built-in standard metrics are checked too, and a machine
	 * may lack what they use (the fixture's power PMU has no energy-cores: POWER.CORES.W's note) */
	if (!strncmp(msg, "note: ", 6))
		s->notes += !(file && strstr(file, "standard/"));
	else
		s->problems++;
	snprintf(s->text + l, sizeof(s->text) - l, "%s: %s\n", entry ? entry : "-", msg);
}

static int warnings;
static char warning_text[1024];

static void on_log(void *data, int level, const char *msg)
{
	(void)data;
	if (level <= PMU_LOG_WARN) {
		warnings++;
		snprintf(warning_text, sizeof(warning_text), "%s", msg);
	}
}

/* the line of @text about @entry that contains @words */
static int said(const char *text, const char *entry, const char *words)
{
	char key[160];
	const char *p = text;

	snprintf(key, sizeof(key), "%s: ", entry);
	while ((p = strstr(p, key))) {
		const char *eol = strchr(p, '\n');
		const char *w = strstr(p, words);
		if (w && (!eol || w < eol))
			return 1;
		p += strlen(key);
	}
	return 0;
}

int main(void)
{
	const char *src = getenv("PMU_TEST_SRCDIR");
	char sys[1024], proc[1024], tables[1024];
	struct pmu_ctx_opts o;
	struct pmu_ctx *ctx = NULL;
	struct seen s;
	int r;

	snprintf(sys, sizeof(sys), "%s/tests/fixtures/intel-icx/sys", src ? src : ".");
	snprintf(proc, sizeof(proc), "%s/tests/fixtures/intel-icx/proc", src ? src : ".");
	snprintf(tables, sizeof(tables), "%s/tests/tables/check-notes", src ? src : ".");
	memset(&o, 0, sizeof(o));
	o.size = sizeof(o);
	o.sysfs_root = sys;
	o.procfs_root = proc;
	o.cpuid = "GenuineIntel-6-55-4";
	o.events_path = tables;
	o.log_fn = on_log;
	o.log_level = PMU_LOG_WARN;
	if (pmu_ctx_new(&ctx, &o) < 0)
		return 1;

	memset(&s, 0, sizeof(s));
	r = pmu_tables_check(ctx, tables, collect, &s);
	CHECK(r == 2 && s.problems == 2, "2 problems (m_bad_terms, m_typo), returned %d, said %d:\n%s", r, s.problems,
	      s.text);
	CHECK(said(s.text, "m_typo", "refers to 'UOPS_ISUED.ANY', which is not an event or metric"),
	      "the misspelt name is a problem:\n%s", s.text);
	CHECK(said(s.text, "m_bad_terms", "msr@bogus=1@") && said(s.text, "m_bad_terms", "no format term or named event"),
	      "a term the machine's msr PMU lacks is a problem:\n%s", s.text);
	CHECK(s.notes == 4, "4 notes (2 absent PMUs, cycles-t, m_twice), said %d:\n%s", s.notes, s.text);
	CHECK(said(s.text, "m_absent_pmu", "note: MetricExpr uses 'c6-residency' of PMU 'cstate_core', which this "
		   "machine does not have"), "absent cstate_core: a note:\n%s", s.text);
	CHECK(said(s.text, "m_absent_pmu", "of PMU 'uncore_imc_0', which this machine does not have"),
	      "absent uncore_imc_0: a note:\n%s", s.text);
	CHECK(said(s.text, "m_absent_event", "note: MetricExpr uses 'cycles-t', an event the kernel's cpu PMU"),
	      "cycles-t (no TSX on the fixture): a note:\n%s", s.text);
	CHECK(said(s.text, "m_twice", "note: name 'm_twice' is defined again with the same definition"),
	      "a repeated definition: a note:\n%s", s.text);
	CHECK(!strstr(s.text, "m_machine_names") && !strstr(s.text, "TOPDOWN.SLOTS") && !strstr(s.text, "counter.json"),
	      "names the machine has, the CPU's TOPDOWN.SLOTS and counter.json: nothing said:\n%s", s.text);

	/* loading it for the CPU: no warning (the counter descriptions, the repeated definition) */
	{
		struct pmu_event_info e;
		r = pmu_event_resolve(ctx, "UOPS_ISSUED.ANY", &e);
		CHECK(r == 0, "UOPS_ISSUED.ANY: %s", pmu_strerror(r));
		CHECK(warnings == 0, "loading logged %d warnings: %s", warnings, warning_text);
	}
	pmu_ctx_free(ctx);
	return test_done("test-check-notes");
}
