/* SPDX-License-Identifier: MIT */
/* Machines for tests: a fixture of tests/fixtures/, or one a test writes (its sys/ and proc/ trees
 * under a root, file by file), and a context over either. */
#ifndef PMU_TEST_FIXTURE_H
#define PMU_TEST_FIXTURE_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <pmu.h>

/* A context over ROOT/sys and ROOT/proc, with @cpuid (NULL: the tree's) and @tables
 * (PMU_EVENTS_PATH, NULL: none); NULL if it cannot be created. */
__attribute__((unused)) static struct pmu_ctx *root_ctx(const char *root, const char *cpuid, const char *tables)
{
	char sys[1024], proc[1024];
	struct pmu_ctx_opts o;
	struct pmu_ctx *ctx = NULL;

	snprintf(sys, sizeof(sys), "%s/sys", root);
	snprintf(proc, sizeof(proc), "%s/proc", root);
	memset(&o, 0, sizeof(o));
	o.size = sizeof(o);
	o.sysfs_root = sys;
	o.procfs_root = proc;
	o.cpuid = cpuid;
	o.events_path = tables;
	return pmu_ctx_new(&ctx, &o) == 0 ? ctx : NULL;
}

/* The fixture machine tests/fixtures/@machine. */
__attribute__((unused)) static struct pmu_ctx *fixture_ctx(const char *machine, const char *cpuid)
{
	const char *src = getenv("PMU_TEST_SRCDIR");
	char root[1024];

	snprintf(root, sizeof(root), "%s/tests/fixtures/%s", src ? src : ".", machine);
	return root_ctx(root, cpuid, NULL);
}

/* Write @text to ROOT/@rel, making the directories; a failure ends the test. */
__attribute__((unused)) static void fixture_put(const char *root, const char *rel, const char *text)
{
	char path[1024];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (char *slash = strchr(path + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = 0;
		mkdir(path, 0755);
		*slash = '/';
	}
	if (!(f = fopen(path, "w"))) {
		perror(path);
		exit(1);
	}
	fputs(text, f);
	fclose(f);
}
/* Remove a written machine's root (rm -rf); a failure is said, not fatal. */
__attribute__((unused)) static void fixture_remove(const char *root)
{
	char cmd[1100];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", root);
}
#endif
