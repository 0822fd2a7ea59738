/* SPDX-License-Identifier: MIT */
/* The library's side of tests/test-likwid-groups.py: a group file opened for the CPU of PMU_CPUID
 * (PMU_GROUP_PARTIAL), each event's mapping printed, and with "eval" each metric's expression
 * evaluated by pmu_metric_eval() over the counts read from stdin ("EVENT<TAB>VALUE" lines; "#tsc<TAB>HZ"
 * sets #system_tsc_freq, "duration_time<TAB>S" the seconds). One JSON object a line.
 *   test-likwid-eval map|eval FILE */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pmu.h>

static void js(const char *k, const char *v, const char *sep)
{
	printf("\"%s\": ", k);
	if (!v) {
		printf("null%s", sep);
		return;
	}
	putchar('"');
	for (const char *p = v; *p; p++)
		if (*p == '"' || *p == '\\')
			printf("\\%c", *p);
		else if ((unsigned char)*p < 0x20)
			printf("\\u%04x", *p);
		else
			putchar(*p);
	printf("\"%s", sep);
}

int main(int argc, char **argv)
{
	struct pmu_ctx *ctx;
	struct pmu_group *g;
	const struct pmu_group_info *gi;
	struct pmu_named_value vals[512];
	char names[512][256], line[512];
	size_t n = 0;
	int r;

	if (argc != 3 || (strcmp(argv[1], "map") && strcmp(argv[1], "eval"))) {
		fprintf(stderr, "usage: test-likwid-eval map|eval FILE\n");
		return 2;
	}
	if ((r = pmu_ctx_new(&ctx, NULL)) < 0) {
		fprintf(stderr, "pmu_ctx_new: %s\n", pmu_strerror(r));
		return 1;
	}
	if ((r = pmu_group_open(ctx, argv[2], PMU_GROUP_PARTIAL, &g)) < 0) {
		printf("{\"error\": %d, ", r);
		js("message", pmu_strerror(r), "}\n");
		pmu_ctx_free(ctx);
		return 0;
	}
	gi = pmu_group_info(g);
	if (!strcmp(argv[1], "map")) {
		printf("{");
		js("group", gi->name, ", ");
		js("arch", gi->arch, ", ");
		js("events", gi->events, "}\n");
		for (size_t i = 0; i < gi->nevents; i++) {
			printf("{");
			js("counter", gi->event[i].counter, ", ");
			js("likwid", gi->event[i].likwid, ", ");
			js("event", gi->event[i].event, ", ");
			if (gi->event[i].event && *gi->event[i].event) {
				struct pmu_event_info info;
				/* a machine of several core PMUs counts it on each (as a set splits it) */
				r = pmu_event_resolve(ctx, gi->event[i].event, &info);
				if (r < 0 && pmu_event_resolve_each(ctx, gi->event[i].event, NULL, 0) > 0)
					r = 0;
				js("resolve", r < 0 ? pmu_strerror(r) : "ok", ", ");
			}
			js("why", gi->event[i].why, "}\n");
		}
		for (size_t i = 0; i < gi->nmetrics; i++) {
			printf("{");
			js("metric", gi->metric[i].name, ", ");
			js("unit", gi->metric[i].unit, ", ");
			js("formula", gi->metric[i].formula, ", ");
			js("expr", gi->metric[i].expr, ", ");
			js("why", gi->metric[i].why, "}\n");
		}
	} else {
		while (n < 512 && fgets(line, sizeof(line), stdin)) {
			char *tab = strchr(line, '\t');
			if (!tab)
				continue;
			*tab = '\0';
			if (!strcmp(line, "#tsc")) {
				pmu_ctx_set_param(ctx, "system_tsc_freq", strtod(tab + 1, NULL));
				continue;
			}
			snprintf(names[n], sizeof(names[n]), "%s", line);
			vals[n].name = names[n];
			vals[n].value = strtod(tab + 1, NULL);
			n++;
		}
		for (size_t i = 0; i < gi->nmetrics; i++) {
			double v = 0;
			printf("{");
			js("metric", gi->metric[i].name, ", ");
			if (!gi->metric[i].expr) {
				printf("\"value\": null}\n");
				continue;
			}
			r = pmu_metric_eval(ctx, gi->metric[i].expr, vals, n, &v);
			if (r < 0)
				js("error", pmu_strerror(r), "");
			else if (isnan(v) || isinf(v))
				printf("\"value\": %s", isnan(v) ? "NaN" : v > 0 ? "Infinity" : "-Infinity");
			else
				printf("\"value\": %.17g", v);
			printf("}\n");
		}
	}
	pmu_group_free(g);
	pmu_ctx_free(ctx);
	return 0;
}
