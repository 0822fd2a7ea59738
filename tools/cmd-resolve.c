/* SPDX-License-Identifier: MIT */
/* pmu resolve: the encoding of each event and where it came from. */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "opts.h"
#include "util.h"

static json_object *event_json(const struct pmu_event_info *e)
{
	json_object *o = json_object_new_object(), *fl = json_object_new_array();

	json_object_object_add(o, "name", json_object_new_string(e->name));
	json_object_object_add(o, "pmu", json_object_new_string(e->pmu));
	json_object_object_add(o, "type", json_object_new_int64(e->type));
	json_object_object_add(o, "config", cli_jhex(e->config));
	json_object_object_add(o, "config1", cli_jhex(e->config1));
	json_object_object_add(o, "config2", cli_jhex(e->config2));
	json_object_object_add(o, "config3", cli_jhex(e->config3));
	json_object_object_add(o, "source", json_object_new_string(pmu_source_name(e->source)));
	json_object_object_add(o, "origin", json_object_new_string(e->origin));
	json_object_object_add(o, "desc", json_object_new_string(e->desc ? e->desc : ""));
	json_object_object_add(o, "unit", json_object_new_string(e->unit ? e->unit : ""));
	json_object_object_add(o, "note", json_object_new_string(e->note ? e->note : ""));
	json_object_object_add(o, "approx_note", json_object_new_string(e->approx_note ? e->approx_note : ""));
	/* the library's names of the flags (pmu_flags_format), one array element each */
	char names[512];
	pmu_flags_format(e->flags, names, sizeof(names));
	for (char *save = NULL, *n = strtok_r(names, ",", &save); n; n = strtok_r(NULL, ",", &save))
		json_object_array_add(fl, json_object_new_string(n));
	json_object_object_add(o, "flags", fl);
	return o;
}

static int cmd_resolve(int argc, char **argv, struct cli *cli);

/* the most core PMUs a name is counted on (a machine's core types); an uncore unit's boxes may be more */
#define PARTS_MAX 8

static const struct opt resolve_opts[] = {
	{ OPT_LONG, "json", NULL, NULL, "the same as a JSON array on stdout" },
	{ 0 },
};
static const char *const resolve_synopsis[] = { "[--json] NAME...", NULL };
const struct command resolve_command = {
	"resolve", cmd_resolve, "The encoding of each event and where it came from", resolve_synopsis,
	"The encoding is perf_event_attr's type and config; where it came from: sysfs, a table, a kernel\n"
	"generic event, libpfm4; errata and approximations are said. On a machine of several core PMUs\n"
	"(Intel hybrid, Arm big.LITTLE) a name that names no PMU is counted on each: every part is listed.\n"
	"Exit status: 0 when every NAME resolved, 1 when one did not (said on stderr), 2 on a usage error.\n",
	resolve_opts, false,
};

static int on_opt(void *st, int id, const char *arg)
{
	(void)arg;
	*(bool *)st = id == OPT_LONG;
	return 0;
}

static void print_event(const struct pmu_event_info *e)
{
	printf("%s\n  pmu %s, type %u, config 0x%" PRIx64, e->name, e->pmu, e->type, e->config);
	if (e->config1)
		printf(", config1 0x%" PRIx64, e->config1);
	if (e->config2)
		printf(", config2 0x%" PRIx64, e->config2);
	if (e->flags & (PMU_EVF_EXCL_USER | PMU_EVF_EXCL_KERNEL | PMU_EVF_EXCL_HV))
		printf(", exclude%s%s%s", e->flags & PMU_EVF_EXCL_USER ? " user" : "",
		       e->flags & PMU_EVF_EXCL_KERNEL ? " kernel" : "", e->flags & PMU_EVF_EXCL_HV ? " hv" : "");
	printf("\n  from %s\n", e->origin);
	if (e->desc && *e->desc)
		printf("  %s\n", e->desc);
	if (e->flags & PMU_EVF_APPROX)
		printf("  approximate: %s\n", e->approx_note && *e->approx_note ? e->approx_note : "(no detail)");
	if (e->note && *e->note)
		printf("  note: %s\n", e->note);
}

static int cmd_resolve(int argc, char **argv, struct cli *cli)
{
	struct pmu_ctx *ctx;
	json_object *arr = NULL;
	bool json = false;
	int failed = 0, first = opts_parse(&resolve_command, argc, argv, cli, on_opt, &json);

	if (first < 0)
		return first == OPTS_EXIT_OK ? 0 : 2;
	if (first >= argc)
		return opts_error(&resolve_command, "name at least one event");
	if (cli_open_ctx(cli, NULL, &ctx) < 0)
		return 1;
	if (json)
		arr = json_object_new_array();
	for (int i = first; i < argc; i++) {
		struct pmu_event_info few[PARTS_MAX], *e = few;
		int r = pmu_event_resolve_each(ctx, argv[i], e, PARTS_MAX);
		if (r > PARTS_MAX && (e = calloc((size_t)r, sizeof(*e)))) /* the boxes of an uncore unit: many */
			r = pmu_event_resolve_each(ctx, argv[i], e, (size_t)r);
		else if (r > PARTS_MAX)
			r = (e = few, -ENOMEM);
		if (r < 0) {
			fprintf(stderr, "pmu: %s\n", r == -ENOMEM && e == few ? "out of memory" : pmu_strerror(r));
			if (e != few)
				free(e);
			failed++;
			continue;
		}
		if (r > 1 && !json && (e[0].flags & PMU_EVF_HYBRID_PART))
			printf("%s: counted on each of %d core PMUs, its count the sum of theirs\n", argv[i], r);
		else if (r > 1 && !json)
			printf("%s: counted on each of the %d boxes of an uncore unit (PMUs %s ... %s), its count the sum "
			       "of theirs\n", argv[i], r, e[0].pmu, e[r - 1].pmu);
		for (int k = 0; k < r; k++) {
			if (json) {
				json_object *o = event_json(&e[k]);
				/* a part says which name it is a part of */
				if (r > 1)
					json_object_object_add(o, "part_of", json_object_new_string(argv[i]));
				json_object_array_add(arr, o);
			} else {
				print_event(&e[k]);
			}
		}
		if (e != few)
			free(e);
	}
	if (json) {
		json_write(stdout, arr);
		json_object_put(arr);
	}
	pmu_ctx_free(ctx);
	return failed ? 1 : 0;
}
