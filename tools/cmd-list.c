/* SPDX-License-Identifier: MIT */
/* pmu list: the events and metrics known here. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "opts.h"
#include "util.h"

struct list_state {
	json_object *arr;
	const char *last_pmu;
};

static int list_cb(const struct pmu_event_entry *e, void *data)
{
	struct list_state *st = data;

	if (st->arr) {
		json_object *o = json_object_new_object();
		json_object_object_add(o, "name", json_object_new_string(e->name));
		json_object_object_add(o, "pmu", json_object_new_string(e->pmu));
		json_object_object_add(o, "source", json_object_new_string(cli_source_name(e->source)));
		json_object_object_add(o, "kind", json_object_new_string(cli_kind_name(e->kind)));
		json_object_object_add(o, "usable", json_object_new_boolean(e->usable));
		json_object_object_add(o, "desc", json_object_new_string(e->desc ? e->desc : ""));
		json_object_array_add(st->arr, o);
	} else {
		int depth = 0;
		if (e->kind == PMU_ENTRY_STANDARD)
			for (const char *p = e->name; *p; p++)
				depth += *p == '.';
		int w = 2 * depth + (int)strlen(e->name);
		printf("  %*s%s%*s  %-8s %s%s\n", 2 * depth, "", e->name, w < 52 ? 52 - w : 0, "", cli_kind_name(e->kind),
		       e->desc ? e->desc : "", e->usable ? "" : " [not countable here]");
	}
	return 0;
}

static int cmd_list(int argc, char **argv, struct cli *cli);

static const struct opt list_opts[] = {
	{ OPT_LONG, "json", NULL, NULL, "the same as a JSON array on stdout" },
	{ 0 },
};
static const char *const list_synopsis[] = { "[--json] [PREFIX]", NULL };
const struct command list_command = {
	"list", cmd_list, "The events and metrics known here, with descriptions", list_synopsis,
	"Names pmu stat cannot count here are marked [not countable here]. PREFIX lists a subtree\n"
	"(pmu list TOPDOWN); exit status 1 when nothing starts with it.\n", list_opts, false,
};

static int on_opt(void *st, int id, const char *arg)
{
	(void)arg;
	*(bool *)st = id == OPT_LONG;
	return 0;
}

static int cmd_list(int argc, char **argv, struct cli *cli)
{
	struct pmu_ctx *ctx;
	struct list_state st = { NULL, NULL };
	const char *prefix = NULL;
	bool json = false;
	int n = opts_parse(&list_command, argc, argv, cli, on_opt, &json);

	if (n < 0)
		return n == OPTS_EXIT_OK ? 0 : 2;
	if (n + 1 < argc)
		return opts_error(&list_command, "one PREFIX at most ('%s', '%s')", argv[n], argv[n + 1]);
	prefix = n < argc ? argv[n] : NULL;
	if (cli_open_ctx(cli, NULL, &ctx) < 0)
		return 1;
	if (json)
		st.arr = json_object_new_array();
	else
		printf("Events%s%s%s (name, kind, description):\n", prefix ? " starting with '" : "",
		       prefix ? prefix : "", prefix ? "'" : "");
	n = pmu_event_foreach(ctx, prefix, list_cb, &st);
	if (json) {
		json_write(stdout, st.arr);
		json_object_put(st.arr);
	} else if (n == 0) {
		printf("  (none)\n");
	}
	pmu_ctx_free(ctx);
	return n < 0 ? 1 : (n == 0 && prefix ? 1 : 0);
}
