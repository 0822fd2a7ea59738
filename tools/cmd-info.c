/* SPDX-License-Identifier: MIT */
/* pmu info: the CPU, its PMUs, the access settings and what to change. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "opts.h"
#include "util.h"

static json_object *jint_or_null(int v)
{
	return v == PMU_UNKNOWN ? NULL : json_object_new_int(v);
}

static int cmd_info(int argc, char **argv, struct cli *cli);

static const struct opt info_opts[] = {
	{ OPT_LONG, "json", NULL, NULL, "the same as one JSON object on stdout" },
	{ 0 },
};
static const char *const info_synopsis[] = { "[--json]", NULL };
const struct command info_command = {
	"info", cmd_info, "The CPU, its PMUs, the access settings and what to change", info_synopsis,
	"The access settings: perf_event_paranoid, CAP_PERFMON and CAP_SYS_ADMIN, x86's rdpmc mode, arm64's\n"
	"perf_user_access; whether a hardware PMU is exposed (a virtual machine may have none).\n", info_opts, false,
};

static int on_opt(void *st, int id, const char *arg)
{
	(void)arg;
	*(bool *)st = id == OPT_LONG;
	return 0;
}

/* The same as one JSON object. */
static void info_json(struct pmu_ctx *ctx, const struct pmu_caps *cp, const char *advice)
{
	const struct pmu_caps c = *cp;
	json_object *o = json_object_new_object(), *pm = json_object_new_array();

	json_object_object_add(o, "version", json_object_new_string(pmu_version()));
	json_object_object_add(o, "arch", json_object_new_string(pmu_arch_name(c.arch)));
	json_object_object_add(o, "cpuid", json_object_new_string(c.cpuid));
	json_object_object_add(o, "cpu_name", json_object_new_string(c.cpu_name));
	json_object_object_add(o, "cpuid_overridden", json_object_new_boolean(c.cpuid_overridden));
	json_object_object_add(o, "hw_pmu", json_object_new_boolean(c.hw_pmu));
	json_object_object_add(o, "core_pmu", json_object_new_string(c.core_pmu));
	json_object_object_add(o, "hybrid", json_object_new_int(c.hybrid));
	json_object_object_add(o, "paranoid", jint_or_null(c.paranoid));
	json_object_object_add(o, "cap_perfmon", json_object_new_boolean(c.cap_perfmon));
	json_object_object_add(o, "cap_sys_admin", json_object_new_boolean(c.cap_sys_admin));
	json_object_object_add(o, "rdpmc", jint_or_null(c.rdpmc_mode));
	json_object_object_add(o, "perf_user_access", jint_or_null(c.user_access));
	json_object_object_add(o, "fast_read", json_object_new_boolean(c.fast_read));
	json_object_object_add(o, "can_count_kernel", json_object_new_boolean(c.can_count_kernel));
	json_object_object_add(o, "events_table", json_object_new_string(c.events_table));
	for (size_t i = 0; i < pmu_pmu_count(ctx); i++) {
		struct pmu_pmu_info p;
		json_object *e;
		if (pmu_pmu_get(ctx, i, &p) < 0) /* gone since the scan (its type unreadable), or no memory */
			continue;
		e = json_object_new_object();
		json_object_object_add(e, "name", json_object_new_string(p.name));
		json_object_object_add(e, "type", json_object_new_int64(p.type));
		json_object_object_add(e, "core", json_object_new_boolean(p.is_core));
		json_object_object_add(e, "formats", json_object_new_int(p.n_formats));
		json_object_object_add(e, "events", json_object_new_int(p.n_events));
		if (p.cpus[0]) { /* a core type of a machine of several */
			json_object_object_add(e, "cpus", json_object_new_string(p.cpus));
			json_object_object_add(e, "cpuid", json_object_new_string(p.cpuid));
			json_object_object_add(e, "core_type", json_object_new_string(p.core_type));
			json_object_object_add(e, "events_table", json_object_new_string(p.events_table));
		}
		json_object_array_add(pm, e);
	}
	json_object_object_add(o, "pmus", pm);
	json_object_object_add(o, "advice", json_object_new_string(advice));
	json_write(stdout, o);
	json_object_put(o);
}

/* CPU, PMUs, access, fast reads, table, then the advice. */
static void info_text(struct pmu_ctx *ctx, const struct pmu_caps *cp, const char *advice)
{
	const struct pmu_caps c = *cp;

	printf("libpmu %s\n", pmu_version());
	printf("CPU:          %s%s%s%s (%s)\n", c.cpuid[0] ? c.cpuid : "unidentified",
	       c.cpu_name[0] ? " \"" : "", c.cpu_name, c.cpu_name[0] ? "\"" : "", pmu_arch_name(c.arch));
	printf("Hardware PMU: %s\n", c.hw_pmu ? c.core_pmu : "none exposed");
	printf("PMUs:        ");
	for (size_t i = 0; i < pmu_pmu_count(ctx); i++) {
		struct pmu_pmu_info p;
		if (pmu_pmu_get(ctx, i, &p) < 0)
			continue;
		printf(" %s(type %u%s%s)", p.name, p.type, p.is_core ? ", core" : "",
		       p.n_events ? ", events" : "");
	}
	printf("\n");
	for (size_t i = 0; i < pmu_pmu_count(ctx); i++) {
		/* a machine of several core PMUs: each core type, its CPUs and the table its events come from */
		struct pmu_pmu_info p;
		if (pmu_pmu_get(ctx, i, &p) < 0 || !p.cpus[0])
			continue;
		printf("Core type:    %s: CPUs %s, %s, table %s\n", p.name, p.cpus, p.core_type,
		       p.events_table[0] ? p.events_table : "none");
	}
	if (c.paranoid == PMU_UNKNOWN)
		printf("Access:       perf_event_paranoid unreadable");
	else
		printf("Access:       perf_event_paranoid=%d", c.paranoid);
	printf(", CAP_PERFMON %s, CAP_SYS_ADMIN %s", c.cap_perfmon ? "yes" : "no",
	       c.cap_sys_admin ? "yes" : "no");
	if (c.rdpmc_mode != PMU_UNKNOWN)
		printf(", rdpmc=%d", c.rdpmc_mode);
	if (c.user_access != PMU_UNKNOWN)
		printf(", perf_user_access=%d", c.user_access);
	printf("\nFast reads:   %s\n", c.fast_read ? "yes (user space)" : "no (read(2) system call)");
	printf("Event table:  %s%s%s%s\n", c.events_table[0] ? c.events_table : "none for this CPU (standard names "
	       "resolve through kernel generic events)", c.events_table[0] ? " (" : "", c.events_table_root,
	       c.events_table[0] ? ")" : "");
	/* what the built-in tables hold of the vendor's own data for this CPU (events/README.md) */
	if (!c.events_table[0] || !strcmp(c.events_table_root, "built-in"))
		printf("Vendor data:  %s\n", strstr(c.events_table, "x86/intel/") ?
		       "Intel's published core and uncore events and its metrics as Intel's converter writes them "
		       "for perf (events/x86/intel/: TMA 4.7 formulas; perf's tree in PMU_EVENTS_PATH gives "
		       "perf's own)" :
		       strstr(c.events_table, "arm64/arm/") ?
		       "Arm's published core events of this core (events/arm64/arm/, from ARM-software/data) and, "
		       "where Arm's telemetry specification covers the core (Neoverse N1, V1, N2, V2), its metrics "
		       "(telemetry-solution); perf's tree in PMU_EVENTS_PATH gives perf's own (doc/events.md)" :
		       "not built in for this CPU (libpmu's own table at most: the standard names and the events it "
		       "maps; libpfm4 encodes other native names): perf's tree in PMU_EVENTS_PATH or unpacked under "
		       "/usr/local/share/libpmu/pmu-events gives the vendor's full list (doc/events.md)");
	printf("\n");
	fputs(advice, stdout);
}

static int cmd_info(int argc, char **argv, struct cli *cli)
{
	struct pmu_ctx *ctx;
	struct pmu_caps c;
	bool json = false;
	char *advice;
	int r = opts_parse(&info_command, argc, argv, cli, on_opt, &json);

	if (r < 0)
		return r == OPTS_EXIT_OK ? 0 : 2;
	if (r < argc)
		return opts_error(&info_command, "takes no operand ('%s')", argv[r]);
	if ((r = cli_open_ctx(cli, NULL, &ctx)) < 0)
		return 1;
	pmu_caps(ctx, &c);
	r = pmu_advice(ctx, NULL, 0);
	if (r < 0 || !(advice = malloc((size_t)r + 1)) || pmu_advice(ctx, advice, (size_t)r + 1) < 0) {
		fprintf(stderr, "pmu: %s\n", pmu_strerror(r < 0 ? r : -ENOMEM));
		pmu_ctx_free(ctx);
		return 1;
	}
	if (json)
		info_json(ctx, &c, advice);
	else
		info_text(ctx, &c, advice);
	free(advice);
	pmu_ctx_free(ctx);
	return 0;
}
