/* SPDX-License-Identifier: MIT */
/* What the subcommands of the pmu command share: the state of one
 * invocation (global options), the context opened with logging to stderr,
 * the library's enum values as words, and the entry point of each command
 * (tools/cmd-<name>.c), which returns the exit status. */
#ifndef PMU_TOOLS_CLI_H
#define PMU_TOOLS_CLI_H

#include <json-c/json.h>
#include <stdint.h>
#include <pmu.h>

/* The global options, passed to every command. */
struct cli {
	int verbose;    /* -v: the library's debug messages on stderr */
	int quiet;      /* no warnings (the output says it: perf's CSV and JSON lines) unless -v */
};

/* The sysfs tree the commands read, and give their contexts: $PMU_SYSFS_ROOT (ignored, as the library
 * ignores it, in a program with more privileges than its user: secure_getenv), else /sys. */
const char *cli_sysfs_root(void);

/* A context logging warnings (debug with -v) to stderr; @cpuid NULL: this CPU.
 * On failure it says why on stderr and returns the negative errno. */
int cli_open_ctx(const struct cli *cli, const char *cpuid, struct pmu_ctx **ctx);

json_object *cli_jhex(uint64_t v);        /* "0x1d1" */

/* The commands (tools/cmd-<name>.c); struct command is in opts.h. */
struct command;
extern const struct command info_command, list_command, resolve_command, stat_command, report_command,
	check_tables_command;

#endif
