/* SPDX-License-Identifier: MIT */
/*
 * pmu_region_configure: events and calibration chosen in code override
 * $PMU_EVENTS / $PMU_CALIBRATE (meson sets PMU_EVENTS=task-clock and
 * PMU_CALIBRATE=1 for this test, so an ignored call shows); a bad list
 * fails at the call and then in every region call; a call after regions
 * are in use is refused and changes nothing. Each case runs in its own
 * child, forked before the parent touched regions.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <pmu.h>
#include "harness.h"

struct seen {
	int found;
	size_t nvalues;
	char events[256];
	uint64_t calls;
};

static int seen_cb(const struct pmu_region_result *r, void *data)
{
	struct seen *s = data;
	if (strcmp(r->name, "work") || r->tid != -1)
		return 0;
	s->found = 1;
	s->nvalues = r->nvalues;
	s->calls = r->calls;
	s->events[0] = 0;
	for (size_t k = 0; k < r->nvalues; k++) {
		strncat(s->events, r->events[k], sizeof(s->events) - strlen(s->events) - 2);
		strcat(s->events, ",");
	}
	return 0;
}

static int count_work(void)
{
	for (int i = 0; i < 3; i++) {
		if (pmu_region_begin("work") < 0)
			return -1;
		{
			volatile char *p = malloc(1 << 20);
			for (int j = 0; p && j < (1 << 20); j += 4096)
				p[j] = 1;
			free((void *)p);
		}
		if (pmu_region_end("work") < 0)
			return -1;
	}
	return 0;
}

/* The configured events are the ones counted, calibration off as asked. */
static void case_configured(void)
{
	struct seen s;
	uint64_t ovh[4] = { 9, 9, 9, 9 };
	char path[] = "/tmp/pmu-region-configure-XXXXXX", buf[4096];
	int fd, n;
	int r = pmu_region_configure("page-faults,context-switches", 0);

	CHECK(r == 0, "configure: %s", pmu_strerror(r));
	CHECK(count_work() == 0, "regions counted");
	memset(&s, 0, sizeof(s));
	pmu_region_foreach(0, seen_cb, &s);
	CHECK(s.found && s.calls == 3, "region 'work' with 3 calls (found %d, calls %llu)", s.found,
	      (unsigned long long)s.calls);
	CHECK(s.nvalues == 2 && !strcmp(s.events, "page-faults,context-switches,"),
	      "events are the configured ones, not $PMU_EVENTS: %zu '%s'", s.nvalues, s.events);
	CHECK(pmu_region_overhead(ovh, 4) == 2 && ovh[0] == 0 && ovh[1] == 0,
	      "calibration off as configured: overhead %llu %llu", (unsigned long long)ovh[0], (unsigned long long)ovh[1]);
	r = pmu_region_configure("task-clock", 1);
	CHECK(r == -EBUSY, "second configure refused: %d", r);
	CHECK(strstr(pmu_strerror(r), "already in use") != NULL, "message: %s", pmu_strerror(r));
	memset(&s, 0, sizeof(s));
	CHECK(count_work() == 0, "regions still count after the refused call");
	pmu_region_foreach(0, seen_cb, &s);
	CHECK(s.calls == 6 && !strcmp(s.events, "page-faults,context-switches,"), "nothing changed: %llu calls of '%s'",
	      (unsigned long long)s.calls, s.events);
	fd = mkstemp(path);
	CHECK(fd >= 0, "temporary file");
	close(fd);
	CHECK(pmu_region_report(path, PMU_FORMAT_JSON, 0) == 0, "json report");
	fd = open(path, 0);
	n = fd >= 0 ? (int)read(fd, buf, sizeof(buf) - 1) : -1;
	buf[n > 0 ? n : 0] = 0;
	if (fd >= 0)
		close(fd);
	unlink(path);
	CHECK(strstr(buf, "\"calibrated\": false") != NULL, "the report says calibration is off: %.200s", buf);
	pmu_region_reset(); /* nothing more at exit */
}

/* NULL keeps the environment's events; -1 keeps its calibration. */
static void case_keep_env(void)
{
	struct seen s;
	int r = pmu_region_configure(NULL, -1);

	CHECK(r == 0, "configure(NULL, -1): %s", pmu_strerror(r));
	CHECK(count_work() == 0, "regions counted");
	memset(&s, 0, sizeof(s));
	pmu_region_foreach(0, seen_cb, &s);
	CHECK(s.nvalues == 1 && !strcmp(s.events, "task-clock,"), "events from $PMU_EVENTS: '%s'", s.events);
	pmu_region_reset();
}

/* A bad name fails at the call, naming it, and every region call after. */
static void case_bad_name(void)
{
	int r = pmu_region_configure("page-faults,no-such-event-anywhere", 1);
	CHECK(r < 0 && r != -EBUSY, "unknown event refused: %d", r);
	CHECK(strstr(pmu_strerror(r), "no-such-event-anywhere") != NULL, "message names it: %s", pmu_strerror(r));
	CHECK(pmu_region_begin("work") == r, "begin returns the same error");
	CHECK(pmu_region_end("work") < 0, "end fails too");
	CHECK(pmu_region_configure("page-faults", 1) == -EBUSY, "no second chance: EBUSY");
}

/* Regions used first: configure is refused. */
static void case_too_late(void)
{
	CHECK(pmu_region_begin("work") == 0 && pmu_region_end("work") == 0, "a region before configure");
	CHECK(pmu_region_configure("page-faults", 0) == -EBUSY, "configure after use refused");
	pmu_region_reset();
}

static void run(const char *name, void (*fn)(void))
{
	pid_t pid = fork();
	int st = 0;
	if (pid == 0) {
		int failed;
		fn();
		failed = test_done(name);
		fflush(stdout);
		_exit(failed ? 1 : 0);
	}
	CHECK(pid > 0 && waitpid(pid, &st, 0) == pid, "%s: child ran", name);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0, "%s: child passed (status 0x%x)", name, st);
}

int main(void)
{
	if (!getenv("PMU_EVENTS") || strcmp(getenv("PMU_EVENTS"), "task-clock")) {
		fprintf(stderr, "test-region-configure: run it through meson test (PMU_EVENTS=task-clock)\n");
		return 1;
	}
	run("configured", case_configured);
	run("keep-env", case_keep_env);
	run("bad-name", case_bad_name);
	run("too-late", case_too_late);
	return test_done("test-region-configure");
}
