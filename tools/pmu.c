/* SPDX-License-Identifier: MIT */
/* pmu: the command for people — info, list, resolve, stat, report. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <json-c/json.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <poll.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <pmu.h>
#include "report-read.h"
#include "util.h"

static int verbose;
static const char *params[32];  /* -D NAME=VALUE */
static int nparams;

static int add_param(const char *arg)
{
	const char *eq = strchr(arg, '=');
	char *end;
	if (!eq || eq == arg || (strtod(eq + 1, &end), end == eq + 1 || *end)) {
		fprintf(stderr, "pmu: -D wants NAME=NUMBER (a metric parameter such as a=2), not '%s'\n", arg);
		return -1;
	}
	if (nparams == 32) {
		fprintf(stderr, "pmu: at most 32 -D parameters\n");
		return -1;
	}
	params[nparams++] = arg;
	return 0;
}

static int apply_params(struct pmu_ctx *ctx)
{
	for (int i = 0; i < nparams; i++) {
		const char *eq = strchr(params[i], '=');
		char *name = strndup(params[i], (size_t)(eq - params[i]));
		int r = name ? pmu_ctx_set_param(ctx, name, strtod(eq + 1, NULL)) : -ENOMEM;
		free(name);
		if (r < 0) {
			fprintf(stderr, "pmu: -D %s: %s\n", params[i], pmu_strerror(r));
			return -1;
		}
	}
	return 0;
}

static void log_stderr(void *data, int level, const char *msg)
{
	(void)data;
	if (level <= PMU_LOG_ERR)
		return; /* failures are printed once, from pmu_strerror(), by the caller */
	fprintf(stderr, "pmu: %s%s\n", level <= PMU_LOG_WARN ? "warning: " : "", msg);
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: pmu [-v] COMMAND ...\n"
		"  info [--json]                    CPU, PMUs, access settings and what to change\n"
		"  list [PREFIX] [--json]           events known here\n"
		"  resolve NAME... [--json]         encoding of each event and where it came from\n"
		"  stat [-e EVENTS] [-M METRICS] [--topdown] [-D NAME=VALUE] [-r RUNS | -I MS] [--json] [-o FILE]\n"
		"       -- CMD [ARGS...]            count events while CMD runs; metrics, topdown tree; results\n"
		"                                   on stderr (or -o FILE); exit status: CMD's (128+N: signal N)\n"
		"                                   -r: mean of RUNS runs with +- (standard error); -I: counts every MS\n"
		"  stat -p PID [...] [-- CMD...]    count a running process until it ends, Ctrl-C, or CMD ends\n"
		"  stat -a [...] [-- CMD...]        count every CPU (all tasks) until Ctrl-C or CMD ends\n"
		"  report [-M METRICS] [--topdown] [-D NAME=VALUE] FILE.json...\n"
		"                                   print saved 'pmu stat --json' results (summed), evaluate metrics;\n"
		"                                   region reports (PMU_FORMAT=json) are merged per region\n"
		"  check-tables DIR                 validate event tables (perf JSON format)\n"
		"Environment: PMU_CPUID, PMU_SYSFS_ROOT, PMU_PROCFS_ROOT, PMU_EVENTS_PATH.\n");
}

static int open_ctx(struct pmu_ctx **ctx)
{
	struct pmu_ctx_opts o;
	int r;

	memset(&o, 0, sizeof(o));
	o.size = sizeof(o);
	o.log_fn = log_stderr;
	o.log_level = verbose ? PMU_LOG_DEBUG : PMU_LOG_WARN;
	r = pmu_ctx_new(ctx, &o);
	if (r < 0)
		fprintf(stderr, "pmu: %s\n", pmu_strerror(r));
	return r;
}

static const char *arch_name(int a)
{
	switch (a) {
	case PMU_ARCH_X86: return "x86";
	case PMU_ARCH_ARM64: return "arm64";
	case PMU_ARCH_RISCV: return "riscv";
	default: return "unknown";
	}
}

static const char *source_name(int s)
{
	switch (s) {
	case PMU_SRC_SYSFS: return "sysfs";
	case PMU_SRC_GENERIC: return "generic";
	case PMU_SRC_RAW: return "raw";
	case PMU_SRC_TABLE: return "table";
	case PMU_SRC_LIBPFM: return "libpfm4";
	default: return "unknown";
	}
}

static const char *kind_name(int k)
{
	switch (k) {
	case PMU_ENTRY_KERNEL: return "kernel";
	case PMU_ENTRY_SYSFS: return "sysfs";
	case PMU_ENTRY_STANDARD: return "standard";
	case PMU_ENTRY_NATIVE: return "native";
	case PMU_ENTRY_METRIC: return "metric";
	default: return "?";
	}
}

static json_object *jhex(uint64_t v)
{
	char b[32];
	snprintf(b, sizeof(b), "0x%" PRIx64, v);
	return json_object_new_string(b);
}

static json_object *jint_or_null(int v)
{
	return v == PMU_UNKNOWN ? NULL : json_object_new_int(v);
}

/* ---------------- info ---------------- */

static int cmd_info(int argc, char **argv)
{
	struct pmu_ctx *ctx;
	struct pmu_caps c;
	bool json = argc > 1 && !strcmp(argv[1], "--json");
	char *advice;
	int r;

	if (argc > 1 && !json) {
		fprintf(stderr, "pmu info: unknown argument '%s'\n", argv[1]);
		return 2;
	}
	if ((r = open_ctx(&ctx)) < 0)
		return 1;
	pmu_caps(ctx, &c);
	r = pmu_advice(ctx, NULL, 0);
	if (r < 0 || !(advice = malloc((size_t)r + 1)) || pmu_advice(ctx, advice, (size_t)r + 1) < 0) {
		fprintf(stderr, "pmu: %s\n", pmu_strerror(r < 0 ? r : -ENOMEM));
		pmu_ctx_free(ctx);
		return 1;
	}
	if (json) {
		json_object *o = json_object_new_object(), *pm = json_object_new_array();
		json_object_object_add(o, "version", json_object_new_string(pmu_version()));
		json_object_object_add(o, "arch", json_object_new_string(arch_name(c.arch)));
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
			json_object *e = json_object_new_object();
			pmu_pmu_get(ctx, i, &p);
			json_object_object_add(e, "name", json_object_new_string(p.name));
			json_object_object_add(e, "type", json_object_new_int64(p.type));
			json_object_object_add(e, "core", json_object_new_boolean(p.is_core));
			json_object_object_add(e, "formats", json_object_new_int(p.n_formats));
			json_object_object_add(e, "events", json_object_new_int(p.n_events));
			json_object_array_add(pm, e);
		}
		json_object_object_add(o, "pmus", pm);
		json_object_object_add(o, "advice", json_object_new_string(advice));
		json_write(stdout, o);
		json_object_put(o);
	} else {
		printf("libpmu %s\n", pmu_version());
		printf("CPU:          %s%s%s%s (%s)\n", c.cpuid[0] ? c.cpuid : "unidentified",
		       c.cpu_name[0] ? " \"" : "", c.cpu_name, c.cpu_name[0] ? "\"" : "", arch_name(c.arch));
		printf("Hardware PMU: %s\n", c.hw_pmu ? c.core_pmu : "none exposed");
		printf("PMUs:        ");
		for (size_t i = 0; i < pmu_pmu_count(ctx); i++) {
			struct pmu_pmu_info p;
			pmu_pmu_get(ctx, i, &p);
			printf(" %s(type %u%s%s)", p.name, p.type, p.is_core ? ", core" : "",
			       p.n_events ? ", events" : "");
		}
		printf("\n");
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
		printf("Event table:  %s%s%s%s\n\n", c.events_table[0] ? c.events_table : "none for this CPU (standard names "
		       "resolve through kernel generic events)", c.events_table[0] ? " (" : "", c.events_table_root,
		       c.events_table[0] ? ")" : "");
		fputs(advice, stdout);
	}
	free(advice);
	pmu_ctx_free(ctx);
	return 0;
}

/* ---------------- list ---------------- */

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
		json_object_object_add(o, "source", json_object_new_string(source_name(e->source)));
		json_object_object_add(o, "kind", json_object_new_string(kind_name(e->kind)));
		json_object_object_add(o, "usable", json_object_new_boolean(e->usable));
		json_object_object_add(o, "desc", json_object_new_string(e->desc ? e->desc : ""));
		json_object_array_add(st->arr, o);
	} else {
		int depth = 0;
		if (e->kind == PMU_ENTRY_STANDARD)
			for (const char *p = e->name; *p; p++)
				depth += *p == '.';
		int w = 2 * depth + (int)strlen(e->name);
		printf("  %*s%s%*s  %-8s %s%s\n", 2 * depth, "", e->name, w < 52 ? 52 - w : 0, "", kind_name(e->kind),
		       e->desc ? e->desc : "", e->usable ? "" : " [not countable here]");
	}
	return 0;
}

static int cmd_list(int argc, char **argv)
{
	struct pmu_ctx *ctx;
	struct list_state st = { NULL, NULL };
	const char *prefix = NULL;
	bool json = false;
	int n;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json"))
			json = true;
		else if (!prefix && argv[i][0] != '-')
			prefix = argv[i];
		else {
			fprintf(stderr, "pmu list: unknown argument '%s'\n", argv[i]);
			return 2;
		}
	}
	if (open_ctx(&ctx) < 0)
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

/* ---------------- resolve ---------------- */

static json_object *event_json(const struct pmu_event_info *e)
{
	json_object *o = json_object_new_object(), *fl = json_object_new_array();

	json_object_object_add(o, "name", json_object_new_string(e->name));
	json_object_object_add(o, "pmu", json_object_new_string(e->pmu));
	json_object_object_add(o, "type", json_object_new_int64(e->type));
	json_object_object_add(o, "config", jhex(e->config));
	json_object_object_add(o, "config1", jhex(e->config1));
	json_object_object_add(o, "config2", jhex(e->config2));
	json_object_object_add(o, "config3", jhex(e->config3));
	json_object_object_add(o, "source", json_object_new_string(source_name(e->source)));
	json_object_object_add(o, "origin", json_object_new_string(e->origin));
	json_object_object_add(o, "desc", json_object_new_string(e->desc ? e->desc : ""));
	json_object_object_add(o, "unit", json_object_new_string(e->unit ? e->unit : ""));
	json_object_object_add(o, "note", json_object_new_string(e->note ? e->note : ""));
	json_object_object_add(o, "approx_note", json_object_new_string(e->approx_note ? e->approx_note : ""));
	if (e->flags & PMU_EVF_SOFTWARE)
		json_object_array_add(fl, json_object_new_string("software"));
	if (e->flags & PMU_EVF_TOPDOWN_SLOTS)
		json_object_array_add(fl, json_object_new_string("topdown-slots"));
	if (e->flags & PMU_EVF_TOPDOWN_METRIC)
		json_object_array_add(fl, json_object_new_string("topdown-metric"));
	if (e->flags & PMU_EVF_APPROX)
		json_object_array_add(fl, json_object_new_string("approximate"));
	if (e->flags & PMU_EVF_EXCL_USER)
		json_object_array_add(fl, json_object_new_string("exclude-user"));
	if (e->flags & PMU_EVF_EXCL_KERNEL)
		json_object_array_add(fl, json_object_new_string("exclude-kernel"));
	if (e->flags & PMU_EVF_EXCL_HV)
		json_object_array_add(fl, json_object_new_string("exclude-hv"));
	json_object_object_add(o, "flags", fl);
	return o;
}

static int cmd_resolve(int argc, char **argv)
{
	struct pmu_ctx *ctx;
	json_object *arr = NULL;
	bool json = false;
	int n = 0, failed = 0;

	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--json"))
			json = true;
	if (open_ctx(&ctx) < 0)
		return 1;
	if (json)
		arr = json_object_new_array();
	for (int i = 1; i < argc; i++) {
		struct pmu_event_info e;
		int r;
		if (!strcmp(argv[i], "--json"))
			continue;
		n++;
		r = pmu_event_resolve(ctx, argv[i], &e);
		if (r < 0) {
			fprintf(stderr, "pmu: %s\n", pmu_strerror(r));
			failed++;
			continue;
		}
		if (json) {
			json_object_array_add(arr, event_json(&e));
		} else {
			printf("%s\n  pmu %s, type %u, config 0x%" PRIx64, e.name, e.pmu, e.type, e.config);
			if (e.config1)
				printf(", config1 0x%" PRIx64, e.config1);
			if (e.config2)
				printf(", config2 0x%" PRIx64, e.config2);
			if (e.flags & (PMU_EVF_EXCL_USER | PMU_EVF_EXCL_KERNEL | PMU_EVF_EXCL_HV))
				printf(", exclude%s%s%s", e.flags & PMU_EVF_EXCL_USER ? " user" : "",
				       e.flags & PMU_EVF_EXCL_KERNEL ? " kernel" : "",
				       e.flags & PMU_EVF_EXCL_HV ? " hv" : "");
			printf("\n  from %s\n", e.origin);
			if (e.desc && *e.desc)
				printf("  %s\n", e.desc);
			if (e.flags & PMU_EVF_APPROX)
				printf("  approximate: %s\n", e.approx_note && *e.approx_note ? e.approx_note : "(no detail)");
			if (e.note && *e.note)
				printf("  note: %s\n", e.note);
		}
	}
	if (json) {
		json_write(stdout, arr);
		json_object_put(arr);
	}
	pmu_ctx_free(ctx);
	if (n == 0) {
		fprintf(stderr, "pmu resolve: name at least one event\n");
		return 2;
	}
	return failed ? 1 : 0;
}


static double ns_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static void group_digits(uint64_t v, char *buf, size_t len)
{
	char tmp[32];
	int n = snprintf(tmp, sizeof(tmp), "%" PRIu64, v), o = 0;

	for (int i = 0; i < n && (size_t)o + 2 < len; i++) {
		if (i && (n - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = tmp[i];
	}
	buf[o] = 0;
}

static const struct stat_row *find_row(const struct stat_row *rows, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (rows[i].supported && label_is(rows[i].info.name, name))
			return &rows[i];
	return NULL;
}

/*
 * The row counting @want next to row @r: for "PMU/event/" rows the one on the
 * same PMU (on a hybrid CPU a generic event is counted as cpu_core/cycles/
 * and cpu_atom/cycles/, and cpu_atom/instructions/ goes with cpu_atom/cycles/).
 */
static const struct stat_row *partner(const struct stat_row *rows, size_t n, const struct stat_row *r,
				      const char *want)
{
	const char *slash = strchr(r->info.name, '/');
	char name[PMU_NAME_MAX];

	if (!slash)
		return find_row(rows, n, want);
	/* longer than any row's name: no row has it */
	if ((size_t)snprintf(name, sizeof(name), "%.*s/%s/", (int)(slash - r->info.name), r->info.name, want) >=
	    sizeof(name))
		return NULL;
	return find_row(rows, n, name);
}

/* The sentence for rows libpmu counted in user mode only (paranoid), naming them (malloc'd); NULL if none. */
static char *user_fallback_note(const struct stat_row *rows, size_t n)
{
	char *s = NULL;

	for (size_t i = 0; i < n; i++)
		if (rows[i].info.flags & PMU_EVF_USER_FALLBACK && str_append(&s, ", ", rows[i].info.name) < 0)
			break;
	if (s && str_append(&s, NULL, ": user mode only (kernel.perf_event_paranoid forbids kernel mode "
			    "without CAP_PERFMON; sudo sysctl kernel.perf_event_paranoid=1 counts it too)") < 0) {
		free(s);
		s = NULL;
	}
	return s;
}

static void print_text(FILE *f, const char *cmdline, const struct stat_row *rows, size_t n,
		       const struct run_times *t, const struct strv *notes)
{
	double elapsed_ns = t->elapsed_ns;
	const struct stat_row *task = find_row(rows, n, "task-clock");

	if (t->runs > 1)
		fprintf(f, "\n Performance counter stats for '%s' (%d runs):\n\n", cmdline, t->runs);
	else
		fprintf(f, "\n Performance counter stats for '%s':\n\n", cmdline);
	for (size_t i = 0; i < n; i++) {
		const struct stat_row *r = &rows[i];
		const struct stat_row *cyc = partner(rows, n, r, "cycles"), *br = partner(rows, n, r, "branches");
		const char *base = strchr(r->info.name, '/') ? strchr(r->info.name, '/') + 1 : r->info.name;
		bool ins = !strncasecmp(base, "instructions", 12) && base[12] && strchr("/:", base[12]);
		char num[48], extra[96] = "";
		double conf;
		uint64_t val;

		ins = ins || !strcasecmp(base, "instructions");
		if (!cyc)
			cyc = partner(rows, n, r, "cpu-cycles");
		if (!br)
			br = partner(rows, n, r, "branch-instructions");

		if (!r->supported) {
			fprintf(f, "   %18s      %-28s\n", "<not supported>", r->info.name);
			continue;
		}
		val = pmu_scale(&r->v);
		conf = pmu_confidence(&r->v);
		if (r->v.enabled && r->v.running == 0) {
			fprintf(f, "   %18s      %-28s (never scheduled: too many events for the counters)\n",
				"<not counted>", r->info.name);
			continue;
		}
		if (r->info.unit && !strcmp(r->info.unit, "ns")) {
			/* task-clock, cpu-clock: time */
			snprintf(num, sizeof(num), "%.2f msec", val / 1e6);
			if (elapsed_ns > 0)
				snprintf(extra, sizeof(extra), "#  %8.3f CPUs utilized", val / elapsed_ns);
		} else {
			group_digits(val, num, sizeof(num));
			if (ins && cyc && pmu_scale(&cyc->v))
				snprintf(extra, sizeof(extra), "#  %8.2f insn per cycle",
					 (double)val / (double)pmu_scale(&cyc->v));
			else if (r == cyc && task && pmu_scale(&task->v))
				snprintf(extra, sizeof(extra), "#  %8.3f GHz",
					 (double)val / (double)pmu_scale(&task->v));
			else if (br && r != br && strstr(r->info.name, "branch-misses") && pmu_scale(&br->v))
				snprintf(extra, sizeof(extra), "#  %8.2f%% of all branches",
					 100.0 * val / (double)pmu_scale(&br->v));
			else if (task && r->info.flags & PMU_EVF_SOFTWARE && !r->info.unit[0] &&
				 pmu_scale(&task->v))
				snprintf(extra, sizeof(extra), "#  %8.3f K/sec",
					 val / (pmu_scale(&task->v) / 1e9) / 1e3);
		}
		fprintf(f, "   %18s      %-28s %s", num, r->info.name, extra);
		if (t->runs > 1)
			fprintf(f, "  ( +- %.2f%% )", r->stddev_pct);
		if (conf < 1.0)
			fprintf(f, "  (%.2f%% counted, scaled)", conf * 100);
		fprintf(f, "\n");
	}
	fprintf(f, "\n   %18.9f seconds time elapsed\n\n", elapsed_ns / 1e9);
	if (t->user_ns >= 0 && t->sys_ns >= 0) {
		fprintf(f, "   %18.9f seconds user\n", t->user_ns / 1e9);
		fprintf(f, "   %18.9f seconds sys\n\n", t->sys_ns / 1e9);
	}
	char *fb = user_fallback_note(rows, n);

	for (size_t i = 0; i < notes->n; i++)
		fprintf(f, " note: %s\n\n", notes->v[i]);
	if (fb)
		fprintf(f, " note: %s\n\n", fb);
	free(fb);
	for (size_t i = 0; i < n; i++) {
		if (rows[i].info.note && *rows[i].info.note)
			fprintf(f, " note on %s: %s\n", rows[i].info.name, rows[i].info.note);
		if ((rows[i].info.flags & PMU_EVF_APPROX) && rows[i].info.approx_note)
			fprintf(f, " %s is approximate: %s\n", rows[i].info.name, rows[i].info.approx_note);
	}
}

static json_object *stat_json(char **cmd, int ncmd, const struct stat_row *rows, size_t n,
			      const struct run_times *t, int status, const struct pmu_caps *c, const struct strv *notes)
{
	json_object *o = json_object_new_object(), *ev = json_object_new_array(),
		    *ca = json_object_new_array(), *jnotes = json_object_new_array();

	json_object_object_add(o, "schema", json_object_new_string("libpmu-stat/1"));
	json_object_object_add(o, "version", json_object_new_string(pmu_version()));
	json_object_object_add(o, "cpuid", json_object_new_string(c->cpuid));
	json_object_object_add(o, "hw_pmu", json_object_new_boolean(c->hw_pmu));
	for (int i = 0; i < ncmd; i++)
		json_object_array_add(ca, json_object_new_string(cmd[i]));
	json_object_object_add(o, "command", ca);
	json_object_object_add(o, "exit_status", json_object_new_int(status));
	json_object_object_add(o, "elapsed_ns", json_object_new_int64((int64_t)t->elapsed_ns));
	if (t->user_ns >= 0 && t->sys_ns >= 0) {
		json_object_object_add(o, "user_ns", json_object_new_int64((int64_t)t->user_ns));
		json_object_object_add(o, "sys_ns", json_object_new_int64((int64_t)t->sys_ns));
	}
	json_object_object_add(o, "runs", json_object_new_int(t->runs));
	for (size_t i = 0; i < n; i++) {
		const struct stat_row *r = &rows[i];
		json_object *e = json_object_new_object();
		json_object_object_add(e, "name", json_object_new_string(r->info.name));
		json_object_object_add(e, "pmu", json_object_new_string(r->info.pmu));
		json_object_object_add(e, "exclude_user", json_object_new_boolean(r->info.flags & PMU_EVF_EXCL_USER));
		json_object_object_add(e, "exclude_kernel", json_object_new_boolean(r->info.flags & PMU_EVF_EXCL_KERNEL));
		json_object_object_add(e, "exclude_hv", json_object_new_boolean(r->info.flags & PMU_EVF_EXCL_HV));
		json_object_object_add(e, "user_fallback", json_object_new_boolean(r->info.flags & PMU_EVF_USER_FALLBACK));
		json_object_object_add(e, "type", json_object_new_int64(r->info.type));
		json_object_object_add(e, "config", jhex(r->info.config));
		json_object_object_add(e, "config1", jhex(r->info.config1));
		json_object_object_add(e, "supported", json_object_new_boolean(r->supported));
		json_object_object_add(e, "value", json_object_new_uint64(r->v.value));
		json_object_object_add(e, "scaled", json_object_new_uint64(pmu_scale(&r->v)));
		json_object_object_add(e, "enabled_ns", json_object_new_uint64(r->v.enabled));
		json_object_object_add(e, "running_ns", json_object_new_uint64(r->v.running));
		json_object_object_add(e, "confidence", jnum(r->supported ? pmu_confidence(&r->v) : 0.0));
		json_object_object_add(e, "unit", json_object_new_string(r->info.unit ? r->info.unit : ""));
		json_object_object_add(e, "stddev_pct", jnum(r->stddev_pct));
		json_object_array_add(ev, e);
	}
	json_object_object_add(o, "events", ev);
	for (size_t i = 0; i < notes->n; i++)
		json_object_array_add(jnotes, json_object_new_string(notes->v[i]));
	{
		char *fb = user_fallback_note(rows, n);
		if (fb)
			json_object_array_add(jnotes, json_object_new_string(fb));
		free(fb);
	}
	for (size_t i = 0; i < n; i++)
		if (rows[i].info.note && *rows[i].info.note) {
			char *buf = NULL;
			if (str_append(&buf, NULL, rows[i].info.name) == 0 && str_append(&buf, ": ", rows[i].info.note) == 0)
				json_object_array_add(jnotes, json_object_new_string(buf));
			free(buf);
		}
	json_object_object_add(o, "notes", jnotes);
	return o;
}


/* ---------------- metrics and topdown output ---------------- */

/* perf's ScaleUnit: "<factor><unit>", e.g. "100%" or "1per_kinst" */
static double scale_of(const char *su, const char **unit)
{
	char *end;
	double f = su && *su ? strtod(su, &end) : 1;
	*unit = "";
	if (su && *su) {
		if (end == su)
			f = 1, end = (char *)su;
		*unit = end;
	}
	return f;
}

/* wall time of the run in seconds, for metrics that use duration_time (perf's meaning); 0 if unknown */
static double run_seconds;

/* The rows as named values for the metric engine (@nv has room for n + 1: duration_time). */
static size_t named_rows(const struct stat_row *rows, size_t n, struct pmu_named_value *nv)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		if (!rows[i].supported || (rows[i].v.enabled && !rows[i].v.running))
			continue;
		nv[k].name = rows[i].info.name;
		nv[k++].value = (double)pmu_scale(&rows[i].v);
	}
	if (run_seconds > 0) {
		nv[k].name = "duration_time";
		nv[k++].value = run_seconds;
	}
	return k;
}

/* Why a metric has no value although it was computed: JSON has no NaN or Infinity, and neither means a number. */
static const char *not_finite(double v)
{
	return isnan(v) ? "not a number (a division by zero, or 0/0)" : "infinite (beyond the range of a double)";
}

/* Evaluate metrics @ms; print them (text) or add them to @arr. 1 if one has no value. */
static int report_metrics(FILE *f, struct pmu_ctx *ctx, const struct strv *ms, const struct stat_row *rows, size_t n,
			  json_object *arr)
{
	struct pmu_named_value *nv = calloc(n + 1, sizeof(*nv));
	size_t k;
	int bad = 0;

	if (!nv)
		return -1;
	k = named_rows(rows, n, nv);
	if (!arr && ms->n)
		fprintf(f, " Metrics:\n");
	for (size_t i = 0; i < ms->n; i++) {
		const char *m = ms->v[i], *why = NULL;
		struct pmu_metric_info mi;
		const char *unit = "";
		double v, factor = 1;
		int crossed = 0, r, has_info = pmu_metric_info(ctx, m, &mi) == 0;
		if (has_info)
			factor = scale_of(mi.scale_unit, &unit);
		r = pmu_metric_eval(ctx, m, nv, k, &v);
		if (r < 0)
			why = pmu_strerror(r);
		else if (!isfinite(v * factor))
			why = not_finite(v * factor);
		if (!why && has_info && mi.threshold[0] && pmu_metric_threshold(ctx, m, nv, k, &crossed) < 0)
			crossed = 0;
		bad |= why != NULL;
		if (arr) {
			json_object *o = json_object_new_object();
			json_object_object_add(o, "name", json_object_new_string(m));
			json_object_object_add(o, "value", why ? NULL : jnum(v * factor));
			json_object_object_add(o, "unit", json_object_new_string(unit));
			json_object_object_add(o, "threshold_crossed", json_object_new_boolean(crossed));
			if (why)
				json_object_object_add(o, "error", json_object_new_string(why));
			json_object_array_add(arr, o);
		} else if (why) {
			fprintf(f, "   %-40s  n/a: %s\n", m, why);
		} else {
			fprintf(f, "   %-40s %14.3f %-10s%s\n", m, v * factor, unit, crossed ? "  <== over threshold" : "");
		}
	}
	if (!arr && ms->n)
		fprintf(f, "\n");
	free(nv);
	return bad;
}

static void bar(FILE *f, double frac, int width)
{
	static const char *const part[] = { "", "\u258f", "\u258e", "\u258d", "\u258c", "\u258b", "\u258a", "\u2589" };
	int eighths = (int)(frac * width * 8 + 0.5);
	if (isnan(frac) || frac < 0)
		eighths = 0;
	if (eighths > width * 8)
		eighths = width * 8;
	for (int i = 0; i < eighths / 8; i++)
		fputs("\u2588", f);
	fputs(part[eighths % 8], f);
}

static void topdown_line(FILE *f, int depth, const char *name, double v, const char *mark)
{
	if (isnan(v))
		return;
	fprintf(f, "   %*s%-*s %6.1f%%  ", 2 * depth, "", 22 - 2 * depth, name, v * 100);
	bar(f, v, 40);
	fprintf(f, "%s\n", mark);
}

static void print_topdown(FILE *f, const struct pmu_topdown *t)
{
	const char *names[4] = { "Retiring", "Bad speculation", "Frontend bound", "Backend bound" };
	double l1[4] = { t->retiring, t->bad_spec, t->fe_bound, t->be_bound };
	int worst = 1;
	/* the bottleneck: the largest of the three non-retiring categories */
	for (int i = 2; i < 4; i++)
		if (l1[i] > l1[worst])
			worst = i;
	fprintf(f, " Topdown, level %d (%llu slots%s):\n", t->level, (unsigned long long)t->slots,
		(t->flags & PMU_TOPDOWN_RESET) ? ", since a counter reset" : "");
	topdown_line(f, 1, names[0], t->retiring, "");
	topdown_line(f, 2, "Light operations", t->light_ops, "");
	topdown_line(f, 2, "Heavy operations", t->heavy_ops, "");
	topdown_line(f, 1, names[1], t->bad_spec, worst == 1 ? "  <== bottleneck" : "");
	topdown_line(f, 2, "Branch mispredicts", t->br_mispredict, "");
	topdown_line(f, 2, "Machine clears", t->machine_clears, "");
	topdown_line(f, 1, names[2], t->fe_bound, worst == 2 ? "  <== bottleneck" : "");
	topdown_line(f, 2, "Fetch latency", t->fetch_lat, "");
	topdown_line(f, 2, "Fetch bandwidth", t->fetch_bw, "");
	topdown_line(f, 1, names[3], t->be_bound, worst == 3 ? "  <== bottleneck" : "");
	topdown_line(f, 2, "Memory bound", t->mem_bound, "");
	topdown_line(f, 2, "Core bound", t->core_bound, "");
	fprintf(f, "\n");
}

static json_object *topdown_json(const struct pmu_topdown *t)
{
	json_object *o = json_object_new_object();
	json_object_object_add(o, "level", json_object_new_int(t->level));
	json_object_object_add(o, "slots", json_object_new_uint64(t->slots));
	json_object_object_add(o, "retiring", jnum(t->retiring));
	json_object_object_add(o, "bad_speculation", jnum(t->bad_spec));
	json_object_object_add(o, "frontend_bound", jnum(t->fe_bound));
	json_object_object_add(o, "backend_bound", jnum(t->be_bound));
	json_object_object_add(o, "heavy_operations", jnum(t->heavy_ops));
	json_object_object_add(o, "light_operations", jnum(t->light_ops));
	json_object_object_add(o, "branch_mispredicts", jnum(t->br_mispredict));
	json_object_object_add(o, "machine_clears", jnum(t->machine_clears));
	json_object_object_add(o, "fetch_latency", jnum(t->fetch_lat));
	json_object_object_add(o, "fetch_bandwidth", jnum(t->fetch_bw));
	json_object_object_add(o, "memory_bound", jnum(t->mem_bound));
	json_object_object_add(o, "core_bound", jnum(t->core_bound));
	return o;
}

/* The metrics and topdown parts of a report; returns 1 if something could not be computed. */
static int analysis(FILE *f, struct pmu_ctx *ctx, const struct strv *metrics, int topdown, const struct stat_row *rows,
		    size_t n, json_object *json)
{
	int bad = 0;
	if (metrics->n) {
		json_object *arr = json ? json_object_new_array() : NULL;
		bad |= report_metrics(f, ctx, metrics, rows, n, arr) != 0;
		if (json)
			json_object_object_add(json, "metrics", arr);
	}
	if (topdown) {
		struct pmu_named_value *nv = calloc(n + 1, sizeof(*nv));
		struct pmu_topdown t;
		int r = nv ? pmu_topdown_from_named(ctx, nv, named_rows(rows, n, nv), &t) : -ENOMEM;
		if (json)
			json_object_object_add(json, "topdown", r == 0 ? topdown_json(&t) : NULL);
		else if (r == 0)
			print_topdown(f, &t);
		else
			fprintf(f, " Topdown: not available: %s\n\n", pmu_strerror(r));
		bad |= r != 0;
		free(nv);
	}
	return bad;
}

/* Append the events metrics @ms need to the list *@events (malloc'd), skipping names already there. */
static int add_metric_events(struct pmu_ctx *ctx, const struct strv *ms, char **events)
{
	int r = 0;

	for (size_t i = 0; i < ms->n && r >= 0; i++) {
		char *need = NULL, *s2 = NULL;
		/* the length first, then the list */
		r = pmu_metric_events(ctx, ms->v[i], NULL, 0);
		if (r >= 0 && !(need = malloc((size_t)r + 1)))
			r = -ENOMEM;
		if (r >= 0)
			r = pmu_metric_events(ctx, ms->v[i], need, (size_t)r + 1);
		if (r < 0) {
			fprintf(stderr, "pmu: metric '%s': %s\n", ms->v[i], pmu_strerror(r));
			free(need);
			break;
		}
		for (char *e = strtok_r(need, ",", &s2); e && r >= 0; e = strtok_r(NULL, ",", &s2)) {
			bool have = false;
			char *copy2 = *events ? strdup(*events) : NULL, *s3 = NULL;
			for (char *x = copy2 ? strtok_r(copy2, ",", &s3) : NULL; x; x = strtok_r(NULL, ",", &s3))
				have |= !strcasecmp(x, e);
			free(copy2);
			if (!have && (r = str_append(events, ",", e)) < 0)
				fprintf(stderr, "pmu stat: out of memory\n");
		}
		free(need);
	}
	return r < 0 ? -1 : 0;
}

/* ---------------- stat ---------------- */

/*
 * Signals while pmu stat counts. It waits for what it counts and prints the
 * counts: SIGINT, SIGQUIT, SIGTERM and SIGHUP are caught. One that a process
 * sent to pmu (kill) is passed on to the command; one that the terminal sent
 * (Ctrl-C, Ctrl-\, a hangup: si_code SI_KERNEL) has reached the command
 * already, in pmu's process group. A signal pmu was started with ignored
 * (nohup) stays ignored. SIGPIPE is ignored (pmu stat's results must not be
 * lost to a closed pipe) and given back to the command as pmu got it.
 */
static const int caught[] = { SIGINT, SIGQUIT, SIGTERM, SIGHUP };
#define NCAUGHT (sizeof(caught) / sizeof(caught[0]))
static volatile sig_atomic_t got_signal;   /* the last caught signal received */
static volatile pid_t fwd_pid;             /* the command until it has ended: caught signals go to it */
static struct sigaction pipe_at_start;     /* SIGPIPE as pmu was started */

/* "SIGTERM", or "signal 40" for one without a name */
static const char *sig_name(int sig, char *buf, size_t len)
{
	const char *abbrev = sigabbrev_np(sig);

	if (abbrev)
		snprintf(buf, len, "SIG%s", abbrev);
	else
		snprintf(buf, len, "signal %d", sig);
	return buf;
}

static void on_signal(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	got_signal = sig;
	if (fwd_pid > 0 && si->si_code != SI_KERNEL)
		kill(fwd_pid, sig);
}

static void catch_signals(struct sigaction old[NCAUGHT])
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_signal;
	sa.sa_flags = SA_SIGINFO; /* no SA_RESTART: the waits return */
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < NCAUGHT; i++) {
		sigaction(caught[i], NULL, &old[i]);
		if (old[i].sa_handler != SIG_IGN)
			sigaction(caught[i], &sa, NULL);
	}
}

static void restore_signals(const struct sigaction old[NCAUGHT])
{
	for (size_t i = 0; i < NCAUGHT; i++)
		sigaction(caught[i], &old[i], NULL);
}

/*
 * Fork @cmd with the signal dispositions pmu was started with. The child
 * waits for a byte on @go (if >= 0) and execs; if that fails it writes errno
 * to @err_fd (if >= 0; else it says why on stderr) and exits 127. Caught
 * signals go to it from the moment it exists.
 */
static pid_t start_command(char **cmd, int go, int err_fd)
{
	sigset_t all, old;
	pid_t c;

	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	c = fork();
	if (c == 0) {
		struct sigaction dfl, cur;
		char b;
		int e;
		memset(&dfl, 0, sizeof(dfl));
		dfl.sa_handler = SIG_DFL;
		for (size_t i = 0; i < NCAUGHT; i++)
			if (sigaction(caught[i], NULL, &cur) == 0 && cur.sa_handler != SIG_IGN)
				sigaction(caught[i], &dfl, NULL);
		sigaction(SIGPIPE, &pipe_at_start, NULL);
		sigprocmask(SIG_SETMASK, &old, NULL);
		if (go >= 0 && read(go, &b, 1) != 1)
			_exit(127); /* pmu gave up */
		execvp(cmd[0], cmd);
		e = errno;
		if (err_fd < 0 || write(err_fd, &e, sizeof(e)) != sizeof(e))
			fprintf(stderr, "pmu stat: cannot run '%s': %s\n", cmd[0], strerror(e));
		_exit(127);
	}
	if (c > 0)
		fwd_pid = c;
	sigprocmask(SIG_SETMASK, &old, NULL);
	return c;
}

/* Wait for the command @child to end, caught signals passed on meanwhile; @status, @ru (may be NULL). */
static void wait_child(pid_t child, int *status, struct rusage *ru)
{
	siginfo_t si;

	/* until it has ended, not reaped: a signal passed on meanwhile cannot reach a process reusing its pid */
	while (waitid(P_PID, child, &si, WEXITED | WNOWAIT) < 0 && errno == EINTR)
		;
	fwd_pid = 0;
	while (wait4(child, status, 0, ru) < 0 && errno == EINTR)
		;
}

static int stat_once(struct pmu_ctx *ctx, const char *events, char **cmd, int interval_ms, FILE *ilog,
		     struct stat_rows *rs, struct run_times *t, int *status);
static int stat_attach(struct pmu_ctx *ctx, const char *events, pid_t pid, char **cmd, struct stat_rows *rs,
		       struct run_times *t, int *status);
static int stat_system(struct pmu_ctx *ctx, const char *events, char **cmd, struct stat_rows *rs,
		       struct run_times *t, int *status);

/* The integer after option argv[*i] into *out, within [min, max]; else -1 and @msg. */
static int int_arg(int argc, char **argv, int *i, long min, long max, const char *msg, int *out)
{
	char *end = NULL;
	long v = ++*i < argc ? strtol(argv[*i], &end, 10) : 0;

	if (*i >= argc || *end || v < min || v > max) {
		fprintf(stderr, "pmu stat: %s\n", msg);
		return -1;
	}
	*out = (int)v;
	return 0;
}

static int cmd_stat(int argc, char **argv)
{
	char *events = NULL, *cmdline = NULL, *outname = NULL, pidbuf[64];
	struct strv metrics = { NULL, 0 }, notes = { NULL, 0 };
	const char *outfile = NULL;
	int topdown = 0;
	struct pmu_ctx *ctx = NULL;
	struct pmu_caps caps;
	struct stat_rows rs = { NULL, 0, NULL };
	struct pmu_value *acc = NULL;
	double *sum = NULL, *sumsq = NULL;
	bool json = false, system_wide = false;
	int i, status = 0, r, code = 1, repeat = 1, interval_ms = 0, runs, attach = 0;
	struct run_times times, total;
	struct sigaction ign;
	FILE *f = stderr;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--")) {
			i++;
			break;
		} else if (!strcmp(argv[i], "-e") || !strcmp(argv[i], "--events")) {
			if (++i >= argc) {
				fprintf(stderr, "pmu stat: -e needs an event list\n");
				goto usage;
			}
			if (str_append(&events, ",", argv[i]) < 0)
				goto nomem;
		} else if (!strcmp(argv[i], "-M") || !strcmp(argv[i], "--metrics")) {
			if (++i >= argc) {
				fprintf(stderr, "pmu stat: -M needs a metric list\n");
				goto usage;
			}
			if (strv_add_metrics(&metrics, argv[i]) < 0)
				goto nomem;
		} else if (!strcmp(argv[i], "--topdown")) {
			topdown = 1;
		} else if (!strcmp(argv[i], "-D")) {
			if (++i >= argc || add_param(argv[i]) < 0)
				goto usage;
		} else if (!strcmp(argv[i], "--json")) {
			json = true;
		} else if (!strcmp(argv[i], "-r") || !strcmp(argv[i], "--repeat")) {
			if (int_arg(argc, argv, &i, 1, 100000, "-r wants a number of runs (1 or more)", &repeat) < 0)
				goto usage;
		} else if (!strcmp(argv[i], "-a") || !strcmp(argv[i], "--all-cpus")) {
			system_wide = true;
		} else if (!strcmp(argv[i], "-p") || !strcmp(argv[i], "--pid")) {
			if (int_arg(argc, argv, &i, 1, INT_MAX, "-p wants a process id", &attach) < 0)
				goto usage;
		} else if (!strcmp(argv[i], "-I") || !strcmp(argv[i], "--interval")) {
			if (int_arg(argc, argv, &i, 10, 3600000, "-I wants an interval in milliseconds (10 or more)",
				    &interval_ms) < 0)
				goto usage;
		} else if (!strcmp(argv[i], "-o")) {
			if (++i >= argc) {
				fprintf(stderr, "pmu stat: -o needs a file name\n");
				goto usage;
			}
			outfile = argv[i];
		} else if (argv[i][0] == '-') {
			fprintf(stderr, "pmu stat: unknown option '%s'\n", argv[i]);
			goto usage;
		} else {
			break;
		}
	}
	if (i >= argc && !attach && !system_wide) {
		fprintf(stderr, "pmu stat: name a command to run: pmu stat [-e EVENTS] -- CMD [ARGS...], "
			"or a process to attach to: pmu stat -p PID, or count every CPU: pmu stat -a\n");
		goto usage;
	}
	if ((attach || system_wide) && (repeat > 1 || interval_ms)) {
		fprintf(stderr, "pmu stat: -p and -a count once; -r and -I do not apply\n");
		goto usage;
	}
	if (attach && system_wide) {
		fprintf(stderr, "pmu stat: -p counts one process, -a every CPU; choose one\n");
		goto usage;
	}
	if (repeat > 1 && interval_ms > 0) {
		fprintf(stderr, "pmu stat: -r and -I do not go together; choose one\n");
		goto usage;
	}
	if (attach)
		snprintf(pidbuf, sizeof(pidbuf), "process %d%s", attach, i < argc ? " while" : "");
	else if (system_wide)
		snprintf(pidbuf, sizeof(pidbuf), "all CPUs%s", i < argc ? " while" : "");
	if ((attach || system_wide) && str_append(&cmdline, NULL, pidbuf) < 0)
		goto nomem;
	for (int k = i; k < argc; k++)
		if (str_append(&cmdline, " ", argv[k]) < 0)
			goto nomem;
	if (open_ctx(&ctx) < 0)
		goto out;
	if (apply_params(ctx) < 0)
		goto usage;
	pmu_caps(ctx, &caps);
	if (metrics.n && add_metric_events(ctx, &metrics, &events) < 0)
		goto out;
	if (topdown && str_append(&events, ",", "TOPDOWN") < 0)
		goto nomem;
	if (!events) {
		if (caps.hw_pmu) {
			events = strdup("task-clock,context-switches,cpu-migrations,page-faults,cycles,instructions,"
					"branches,branch-misses");
		} else {
			events = strdup("task-clock,context-switches,cpu-migrations,page-faults,minor-faults,"
					"major-faults");
			static const char no_pmu[] = "no hardware PMU is exposed on this machine (a virtual machine "
				"without a virtual PMU?): counted software events only. 'pmu info' says what to change.";
			if (strv_add(&notes, no_pmu, strlen(no_pmu)) < 0)
				goto nomem;
		}
		if (!events)
			goto nomem;
	}
	/* the results go to stderr, as perf's, or to -o FILE: never mixed with the command's output */
	if (outfile && (str_append(&outname, NULL, "'") < 0 || str_append(&outname, NULL, outfile) < 0 ||
			str_append(&outname, NULL, "'") < 0))
		goto nomem;
	if (outfile && !(f = fopen(outfile, "w"))) {
		fprintf(stderr, "pmu stat: cannot write '%s': %s\n", outfile, strerror(errno));
		f = stderr;
		goto out;
	}
	memset(&ign, 0, sizeof(ign));
	ign.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &ign, &pipe_at_start);
	got_signal = 0;
	memset(&total, 0, sizeof(total));
	for (runs = 0; runs < repeat; runs++) {
		struct run_times t = {0, 0, 0, 1};
		r = attach ? stat_attach(ctx, events, attach, argv + i, &rs, &t, &status) :
		    system_wide ? stat_system(ctx, events, argv + i, &rs, &t, &status) :
				  stat_once(ctx, events, argv + i, interval_ms, json ? stderr : f, &rs, &t, &status);
		if (r) {
			code = r;
			goto out;
		}
		if (!sum && rs.n && (!(sum = calloc(rs.n, sizeof(*sum))) || !(sumsq = calloc(rs.n, sizeof(*sumsq))) ||
				     !(acc = calloc(rs.n, sizeof(*acc)))))
			goto nomem;
		for (size_t k = 0; k < rs.n; k++) {
			double x = (double)pmu_scale(&rs.v[k].v);
			sum[k] += x;
			sumsq[k] += x * x;
			acc[k].value += rs.v[k].v.value;
			acc[k].enabled += rs.v[k].v.enabled;
			acc[k].running += rs.v[k].v.running;
		}
		total.elapsed_ns += t.elapsed_ns;
		total.user_ns += t.user_ns;
		total.sys_ns += t.sys_ns;
		code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
		/* a signal (Ctrl-C, kill) ends the repetitions; the runs so far are reported */
		if (got_signal || (WIFSIGNALED(status) && (WTERMSIG(status) == SIGINT || WTERMSIG(status) == SIGQUIT))) {
			runs++;
			break;
		}
	}
	if (got_signal && !WIFSIGNALED(status)) {
		char sentence[160], sig[32];
		snprintf(sentence, sizeof(sentence), "pmu stat received %s%s: the counts are up to then",
			 sig_name(got_signal, sig, sizeof(sig)), i < argc ? " and passed it on to the command" : "");
		if (strv_add(&notes, sentence, strlen(sentence)) < 0)
			goto nomem;
		if (i >= argc)
			code = 128 + got_signal; /* -p, -a: as the command's status would say it */
	}
	/* the mean of the runs, and perf's "+-": the standard error of the mean, relative */
	for (size_t k = 0; k < rs.n && runs > 1; k++) {
		double mean = sum[k] / runs, var = (sumsq[k] - sum[k] * sum[k] / runs) / (runs - 1);
		rs.v[k].v.value = acc[k].value / (uint64_t)runs;
		rs.v[k].v.enabled = acc[k].enabled / (uint64_t)runs;
		rs.v[k].v.running = acc[k].running / (uint64_t)runs;
		rs.v[k].stddev_pct = mean > 0 && var > 0 ? 100.0 * sqrt(var / runs) / mean : 0;
	}
	times.elapsed_ns = total.elapsed_ns / runs;
	times.user_ns = total.user_ns / runs;
	times.sys_ns = total.sys_ns / runs;
	times.runs = runs;
	run_seconds = times.elapsed_ns / 1e9;
	if (json) {
		char pidarg[16], *pcmd[2] = { (char *)(attach ? "-p" : "-a"), pidarg };
		json_object *o;
		snprintf(pidarg, sizeof(pidarg), "%d", attach);
		/* "command": what was run, else ["-p", PID] for an attached process or ["-a"] */
		o = stat_json(i < argc ? argv + i : pcmd, i < argc ? argc - i : attach ? 2 : 1, rs.v, rs.n, &times, code,
			      &caps, &notes);
		analysis(f, ctx, &metrics, topdown, rs.v, rs.n, o);
		json_write(f, o);
		json_object_put(o);
	} else {
		char sig[32];
		if (WIFSIGNALED(status))
			fprintf(f, "\n '%s' terminated by signal %d (%s); counts up to then:\n", cmdline,
				WTERMSIG(status), sig_name(WTERMSIG(status), sig, sizeof(sig)));
		print_text(f, cmdline, rs.v, rs.n, &times, &notes);
		analysis(f, ctx, &metrics, topdown, rs.v, rs.n, NULL);
	}
	goto out;
usage:
	code = 2;
	goto out;
nomem:
	fprintf(stderr, "pmu stat: out of memory\n");
	code = 1;
out:
	if (f != stderr && out_finish(f, outname, true) < 0 && code == 0)
		code = 1;
	free(events);
	free(cmdline);
	free(outname);
	strv_free(&metrics);
	strv_free(&notes);
	stat_rows_free(&rs);
	free(sum);
	free(sumsq);
	free(acc);
	pmu_ctx_free(ctx);
	return code;
}

/* The fields of /proc/PID/stat after the command name ("S 1 ..."), in @buf; NULL if the process is gone. */
static const char *proc_stat(pid_t pid, char *buf, size_t len)
{
	char path[64], *p;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (!(f = fopen(path, "r")))
		return NULL;
	n = fread(buf, 1, len - 1, f);
	fclose(f);
	buf[n] = 0;
	p = strrchr(buf, ')'); /* the name may hold anything; it ends at the last ')' */
	return p && p[1] == ' ' ? p + 2 : NULL;
}

/* Has process @pid ended (gone, or a zombie: exited and not yet reaped)? */
static bool proc_ended(pid_t pid)
{
	char buf[512];
	const char *st = proc_stat(pid, buf, sizeof(buf));

	return !st || *st == 'Z' || *st == 'X';
}

/*
 * Wait up to @ms milliseconds (-1: no limit) for process @pid to end: on its
 * pidfd @pfd, or without one (kernels before 5.3; valgrind) by looking every
 * millisecond. With @mask (the caught signals blocked by the caller) the wait
 * takes them under that mask and stops for one. Returns 1 when it ended, 0 at
 * the time limit, -1 on a signal.
 */
static int wait_end(pid_t pid, int pfd, int ms, const sigset_t *mask)
{
	double until = ns_now() + ms * 1e6;

	if (pfd >= 0) {
		struct pollfd p = { pfd, POLLIN, 0 };
		struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
		int r = ppoll(&p, 1, ms >= 0 ? &ts : NULL, mask);
		return r > 0 ? 1 : r == 0 ? 0 : -1;
	}
	for (;;) {
		struct timespec one = { 0, 1000000 };
		sigset_t save;
		int r;
		if (proc_ended(pid))
			return 1;
		if (ms >= 0 && ns_now() >= until)
			return 0;
		if (mask)
			sigprocmask(SIG_SETMASK, mask, &save);
		r = nanosleep(&one, NULL);
		if (mask)
			sigprocmask(SIG_SETMASK, &save, NULL);
		if ((r < 0 && errno == EINTR) || (mask && got_signal))
			return -1;
	}
}

/* Wait for @child, printing the counts of every @interval_ms to @f meanwhile (-I). */
static void wait_intervals(pid_t child, struct pmu_set *set, size_t n, int interval_ms, FILE *f, double t0,
			   int *status, struct rusage *ru)
{
	struct pmu_value *prev = calloc(n, sizeof(*prev)), *cur = calloc(n, sizeof(*cur));
	int pfd = (int)syscall(SYS_pidfd_open, child, 0);
	double next = t0 + interval_ms * 1e6;
	bool header = false;

	for (;;) {
		double now = ns_now();
		if (wait_end(child, pfd, now >= next ? 0 : (int)((next - now) / 1e6) + 1, NULL) > 0)
			break;
		if (ns_now() < next || !prev || !cur || pmu_set_read(set, cur) < 0)
			continue;
		if (!header) {
			fprintf(f, "#%15s %18s  %s\n", "time (s)", "counts", "event");
			header = true;
		}
		for (size_t k = 0; k < n; k++) {
			struct pmu_value d;
			struct pmu_event_info info;
			char num[48];
			pmu_delta(&prev[k], &cur[k], 1, &d);
			pmu_set_event(set, k, &info);
			if (info.flags & PMU_EVF_UNSUPPORTED)
				continue;
			if (info.unit && !strcmp(info.unit, "ns"))
				snprintf(num, sizeof(num), "%.2f msec", pmu_scale(&d) / 1e6);
			else
				group_digits(pmu_scale(&d), num, sizeof(num));
			fprintf(f, " %15.9f %18s  %s%s\n", (ns_now() - t0) / 1e9, num, info.name,
				pmu_confidence(&d) < 1.0 ? "  (scaled)" : "");
			prev[k] = cur[k];
		}
		fflush(f);
		next += interval_ms * 1e6;
	}
	if (pfd >= 0)
		close(pfd);
	free(prev);
	free(cur);
	wait_child(child, status, ru);
}

/* user and system CPU time of process @pid so far (/proc/PID/stat), or -1 each when it is gone */
static void proc_cpu(pid_t pid, double *user_ns, double *sys_ns)
{
	char buf[1024];
	const char *p = proc_stat(pid, buf, sizeof(buf));
	unsigned long long ut, st;

	*user_ns = *sys_ns = -1;
	/* fields 14 and 15: utime, stime in clock ticks */
	if (p && sscanf(p, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &ut, &st) == 2) {
		*user_ns = ut * 1e9 / sysconf(_SC_CLK_TCK);
		*sys_ns = st * 1e9 / sysconf(_SC_CLK_TCK);
	}
}

/* Add the values of @set to @rs, matched by event name (the per-CPU sets of a hybrid CPU differ). */
static int add_set(struct pmu_set *set, struct stat_rows *rs)
{
	size_t m = pmu_set_count(set);
	struct pmu_value *vals = calloc(m ? m : 1, sizeof(*vals));
	int r = vals ? pmu_set_read(set, vals) : -ENOMEM;

	for (size_t k = 0; r == 0 && k < m; k++) {
		struct pmu_event_info info;
		struct stat_row *row;
		bool added;
		pmu_set_event(set, k, &info);
		if (!(row = stat_rows_named(rs, info.name, &added))) {
			r = -ENOMEM;
			break;
		}
		if (added) {
			row->info = info;
			row->supported = !(info.flags & PMU_EVF_UNSUPPORTED);
		}
		row->v.value += vals[k].value;
		row->v.enabled += vals[k].enabled;
		row->v.running += vals[k].running;
	}
	free(vals);
	if (r < 0)
		fprintf(stderr, "pmu: %s\n", pmu_strerror(r));
	return r;
}

/*
 * -p and -a: count with the open @sets until process @pid (if not 0) ends, a
 * signal, or @cmd (if given, not counted itself) ends; @rs gets the sums. The
 * sets are closed. 0, or the exit code to give up with.
 */
static int stat_sets(struct pmu_set **sets, size_t nsets, pid_t pid, char **cmd, struct stat_rows *rs,
		     struct run_times *t, int *status)
{
	struct sigaction old[NCAUGHT];
	double t0, u0 = -1, s0 = -1, u1 = -1, s1 = -1;
	int code = 0;

	catch_signals(old);
	/* the sets were opened disabled: all of them count the same window, the one timed */
	t0 = ns_now();
	for (size_t j = 0; j < nsets; j++)
		pmu_set_enable(sets[j]);
	if (pid)
		proc_cpu(pid, &u0, &s0);
	*status = 0;
	if (cmd[0]) {
		pid_t c = start_command(cmd, -1, -1);
		if (c < 0)
			perror("pmu stat: fork");
		else
			wait_child(c, status, NULL);
	} else {
		/* the caught signals are taken only inside the waits: one cannot slip in before them */
		sigset_t block, orig;
		sigemptyset(&block);
		for (size_t i = 0; i < NCAUGHT; i++)
			sigaddset(&block, caught[i]);
		sigprocmask(SIG_BLOCK, &block, &orig);
		if (pid) {
			/* until the process ends or a signal */
			int pfd = (int)syscall(SYS_pidfd_open, pid, 0);
			while (!got_signal && wait_end(pid, pfd, -1, &orig) < 1)
				;
			if (pfd >= 0)
				close(pfd);
		} else {
			while (!got_signal)
				sigsuspend(&orig);
		}
		sigprocmask(SIG_SETMASK, &orig, NULL);
	}
	for (size_t j = 0; j < nsets; j++)
		pmu_set_disable(sets[j]);
	t->elapsed_ns = ns_now() - t0;
	if (pid)
		proc_cpu(pid, &u1, &s1);
	t->user_ns = u0 >= 0 && u1 >= 0 ? u1 - u0 : -1;
	t->sys_ns = s0 >= 0 && s1 >= 0 ? s1 - s0 : -1;
	restore_signals(old);
	for (size_t j = 0; j < nsets; j++)
		if (code == 0 && add_set(sets[j], rs) < 0)
			code = 1;
	for (size_t j = 0; j < nsets; j++)
		pmu_set_close(sets[j]);
	free(sets);
	return code;
}

/* Open @events on one target (a thread, or a CPU) and append the set to @sets. 0, 1 to skip, or -1. */
static int open_target(struct pmu_ctx *ctx, const char *events, unsigned flags, int pid, int cpu,
		       struct pmu_set ***sets, size_t *nsets)
{
	struct pmu_set **ns = realloc(*sets, (*nsets + 1) * sizeof(**sets));
	struct pmu_set_opts so;
	int r;

	if (!ns) {
		fprintf(stderr, "pmu stat: out of memory\n");
		return -1;
	}
	*sets = ns;
	memset(&so, 0, sizeof(so));
	so.size = sizeof(so);
	so.flags = flags | PMU_SET_SKIP_UNSUPPORTED;
	so.pid = pid;
	so.cpu = cpu;
	r = pmu_set_open(ctx, events, &so, &ns[*nsets]);
	if (r == -ESRCH || r == -ENODEV || r == -ENXIO)
		return 1; /* the thread ended meanwhile; the CPU is offline */
	if (r < 0) {
		fprintf(stderr, "pmu: %s\n", pmu_strerror(r));
		return -1;
	}
	(*nsets)++;
	return 0;
}

/* -p: the running process @pid, one set per thread it has now (inherit covers what they start). */
static int stat_attach(struct pmu_ctx *ctx, const char *events, pid_t pid, char **cmd, struct stat_rows *rs,
		       struct run_times *t, int *status)
{
	struct pmu_set **sets = NULL;
	size_t nsets = 0;
	char path[64];
	struct dirent *de;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	if (!(d = opendir(path))) {
		fprintf(stderr, "pmu stat: no process %d to attach to (%s)\n", (int)pid, strerror(errno));
		return 1;
	}
	while ((de = readdir(d)))
		if (atoi(de->d_name) > 0 &&
		    open_target(ctx, events, PMU_SET_PID | PMU_SET_INHERIT, atoi(de->d_name), -1, &sets, &nsets) < 0)
			break;
	closedir(d);
	if (de || !nsets) {
		if (!de)
			fprintf(stderr, "pmu stat: process %d has no threads left to count\n", (int)pid);
		for (size_t j = 0; j < nsets; j++)
			pmu_set_close(sets[j]);
		free(sets);
		return 1;
	}
	return stat_sets(sets, nsets, pid, cmd, rs, t, status);
}

/* -a: every online CPU, all tasks. */
static int stat_system(struct pmu_ctx *ctx, const char *events, char **cmd, struct stat_rows *rs,
		       struct run_times *t, int *status)
{
	struct pmu_set **sets = NULL;
	size_t nsets = 0;
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);

	for (long c = 0; c < ncpu; c++)
		if (open_target(ctx, events, PMU_SET_CPU | PMU_SET_PID, -1, (int)c, &sets, &nsets) < 0) {
			for (size_t j = 0; j < nsets; j++)
				pmu_set_close(sets[j]);
			free(sets);
			return 1;
		}
	return stat_sets(sets, nsets, 0, cmd, rs, t, status);
}

/* One run of @cmd counted with @events: @rs (made on the first run) gets the
 * counts. 0, or the exit code to give up with. */
static int stat_once(struct pmu_ctx *ctx, const char *events, char **cmd, int interval_ms, FILE *ilog,
		     struct stat_rows *rs, struct run_times *t, int *status)
{
	struct sigaction old[NCAUGHT];
	struct pmu_set_opts so;
	struct pmu_set *set = NULL;
	struct pmu_value *vals = NULL;
	struct rusage ru;
	int go[2], err_pipe[2], exec_err = 0, r, code = 1;
	pid_t child;
	double t0;
	size_t n;

	if (pipe2(go, O_CLOEXEC) < 0)
		return perror("pmu stat: pipe"), 1;
	if (pipe2(err_pipe, O_CLOEXEC) < 0) {
		perror("pmu stat: pipe");
		close(go[0]);
		close(go[1]);
		return 1;
	}
	/* caught from the moment the command exists: it gets them, and we print what was counted */
	catch_signals(old);
	child = start_command(cmd, go[0], err_pipe[1]);
	close(go[0]);
	close(err_pipe[1]);
	if (child < 0) {
		perror("pmu stat: fork");
		close(go[1]);
		close(err_pipe[0]);
		restore_signals(old);
		return 1;
	}
	memset(&so, 0, sizeof(so));
	so.size = sizeof(so);
	so.flags = PMU_SET_PID | PMU_SET_INHERIT | PMU_SET_ENABLE_ON_EXEC | PMU_SET_SKIP_UNSUPPORTED;
	so.pid = child;
	r = pmu_set_open(ctx, events, &so, &set);
	if (r < 0) {
		fprintf(stderr, "pmu: %s\n", pmu_strerror(r));
		goto kill;
	}
	n = pmu_set_count(set);
	if (!rs->v) {
		rs->v = calloc(n ? n : 1, sizeof(*rs->v));
		rs->n = n;
	}
	vals = calloc(n ? n : 1, sizeof(*vals));
	if (!rs->v || !vals || n != rs->n) {
		fprintf(stderr, "pmu stat: out of memory\n");
		goto kill;
	}
	if (got_signal) /* while the events were opened: the command has it already, or it was passed on */
		goto kill;
	t0 = ns_now();
	if (write(go[1], "g", 1) != 1)
		perror("pmu stat: starting the command");
	close(go[1]);
	memset(&ru, 0, sizeof(ru));
	if (interval_ms > 0)
		wait_intervals(child, set, n, interval_ms, ilog, t0, status, &ru);
	else
		wait_child(child, status, &ru);
	t->elapsed_ns = ns_now() - t0;
	t->user_ns = ru.ru_utime.tv_sec * 1e9 + ru.ru_utime.tv_usec * 1e3;
	t->sys_ns = ru.ru_stime.tv_sec * 1e9 + ru.ru_stime.tv_usec * 1e3;
	t->runs = 1;
	if (read(err_pipe[0], &exec_err, sizeof(exec_err)) == sizeof(exec_err)) {
		fprintf(stderr, "pmu stat: cannot run '%s': %s\n", cmd[0], strerror(exec_err));
		code = 127;
		goto out;
	}
	r = pmu_set_read(set, vals);
	if (r < 0) {
		fprintf(stderr, "pmu: %s\n", pmu_strerror(r));
		goto out;
	}
	for (size_t k = 0; k < n; k++) {
		pmu_set_event(set, k, &rs->v[k].info);
		rs->v[k].v = vals[k];
		rs->v[k].supported = !(rs->v[k].info.flags & PMU_EVF_UNSUPPORTED);
	}
	code = 0;
	goto out;
kill:
	fwd_pid = 0;
	kill(child, SIGKILL);
	close(go[1]);
	waitpid(child, NULL, 0);
	if (got_signal)
		code = 128 + got_signal;
out:
	restore_signals(old);
	close(err_pipe[0]);
	free(vals);
	pmu_set_close(set);
	return code;
}

/* ---------------- check-tables ---------------- */

static void print_problem(void *data, const char *file, const char *entry, const char *msg)
{
	(void)data;
	printf("%s%s%s: %s\n", file, entry ? ": " : "", entry ? entry : "", msg);
}

static int cmd_check_tables(int argc, char **argv)
{
	struct pmu_ctx *ctx;
	int total = 0, bad = 0;

	if (argc < 2) {
		fprintf(stderr, "pmu check-tables: name one or more table directories\n");
		return 2;
	}
	if (open_ctx(&ctx) < 0)
		return 1;
	for (int i = 1; i < argc; i++) {
		int r = pmu_tables_check(ctx, argv[i], print_problem, NULL);
		if (r < 0) {
			fprintf(stderr, "pmu: %s\n", pmu_strerror(r));
			bad = 1;
			continue;
		}
		total += r;
	}
	pmu_ctx_free(ctx);
	if (total)
		printf("%d problem%s found\n", total, total == 1 ? "" : "s");
	else if (!bad)
		printf("no problems found\n");
	return total || bad ? 1 : 0;
}


/* ---------------- report ---------------- */

/* Merged region reports as a table: the columns as wide as the longest name in them. */
static void print_regions(FILE *f, const struct saved_regions *r)
{
	int w = 28;

	for (size_t j = 0; j < r->nrows; j++)
		if ((int)strlen(r->rows[j].name) > w)
			w = (int)strlen(r->rows[j].name);
	fprintf(f, "\n Regions from %d file%s (counts summed)\n\n %-*s %10s", r->files, r->files == 1 ? "" : "s", w,
		"region", "calls");
	for (size_t k = 0; k < r->events.n; k++)
		fprintf(f, " %18s", r->events.v[k]);
	fprintf(f, "\n");
	for (size_t j = 0; j < r->nrows; j++) {
		const struct rg_row *row = &r->rows[j];
		fprintf(f, " %-*s %10" PRIu64, w, row->name, row->calls);
		for (size_t k = 0; k < r->events.n; k++) {
			const struct rg_cell *c = k < row->ncells ? &row->cells[k] : NULL;
			int cw = strlen(r->events.v[k]) > 18 ? (int)strlen(r->events.v[k]) : 18;
			char num[48];
			if (!c || !c->seen) {
				fprintf(f, " %*s", cw, "<not counted>");
				continue;
			}
			group_digits(pmu_scale(&c->v), num, sizeof(num));
			fprintf(f, " %*s%s", cw - 1, num, pmu_confidence(&c->v) < 1.0 ? "*" : " ");
		}
		fprintf(f, "\n");
	}
	fprintf(f, "\n");
}

static const char *kind_words(enum report_kind k)
{
	return k == REPORT_STAT ? "'pmu stat --json' file" : "region report";
}

/* Saved stat runs (summed) or region reports (merged). Exit 2 when a file is
 * refused for its content, 1 when one cannot be read or a metric computed. */
static int cmd_report(int argc, char **argv)
{
	struct strv metrics = { NULL, 0 }, notes = { NULL, 0 };
	struct saved_stat st;
	struct saved_regions rg;
	enum report_kind kind0 = 0;
	char *title = NULL;
	int code = 0, topdown = 0, first = 1;

	memset(&st, 0, sizeof(st));
	memset(&rg, 0, sizeof(rg));
	for (; first < argc && argv[first][0] == '-'; first++) {
		if (!strcmp(argv[first], "-M") && first + 1 < argc) {
			if (strv_add_metrics(&metrics, argv[++first]) < 0)
				goto nomem;
		} else if (!strcmp(argv[first], "--topdown")) {
			topdown = 1;
		} else if (!strcmp(argv[first], "-D") && first + 1 < argc) {
			if (add_param(argv[++first]) < 0) {
				code = 2;
				goto out;
			}
		} else {
			fprintf(stderr, "pmu report: unknown option '%s'%s\n", argv[first],
				first + 1 == argc && (!strcmp(argv[first], "-M") || !strcmp(argv[first], "-D")) ?
					" without its argument" : "");
			code = 2;
			goto out;
		}
	}
	if (first >= argc) {
		fprintf(stderr, "pmu report: name one or more files written by 'pmu stat --json' or region reports\n");
		code = 2;
		goto out;
	}
	for (int i = first; i < argc; i++) {
		enum report_kind kind = 0;
		json_object *doc;
		char *err = NULL;
		int r = report_load(argv[i], &doc, &kind, &err);
		if (r == 0 && kind0 && kind != kind0) {
			r = -EINVAL;
			if (asprintf(&err, "'%s' is a %s and '%s' a %s: report one kind at a time", argv[first],
				     kind_words(kind0), argv[i], kind_words(kind)) < 0)
				err = NULL;
		}
		if (r == 0)
			r = kind == REPORT_STAT ? saved_stat_add(&st, argv[i], doc, &err) :
						  saved_regions_add(&rg, argv[i], doc, &err);
		json_object_put(doc);
		if (r < 0) {
			fprintf(stderr, "pmu report: %s\n", err ? err : strerror(-r));
			free(err);
			code = r == -EINVAL ? 2 : 1;
			goto out;
		}
		kind0 = kind;
		if (str_append(&title, " + ", argv[i]) < 0)
			goto nomem;
	}
	if (kind0 == REPORT_REGIONS) {
		if (metrics.n || topdown)
			fprintf(stderr, "pmu report: -M and --topdown apply to 'pmu stat --json' files; region reports "
				"carry their metrics: not applied\n");
		print_regions(stdout, &rg);
		goto out;
	}
	if (st.files > 1 && strv_add(&notes, "counts summed over the files", 28) < 0)
		goto nomem;
	if (st.other_cpuid) {
		char *n = NULL;
		if (asprintf(&n, "the files come from different CPUs (%s, %s): metrics use the event tables of %s",
			     st.cpuid, st.other_cpuid, st.cpuid) < 0)
			goto nomem;
		if (strv_add(&notes, n, strlen(n)) < 0) {
			free(n);
			goto nomem;
		}
		free(n);
	}
	print_text(stdout, title, st.rows.v, st.rows.n, &st.times, &notes);
	if (metrics.n || topdown) {
		/* evaluate for the CPU the counts came from */
		struct pmu_ctx_opts o;
		struct pmu_ctx *ctx;
		memset(&o, 0, sizeof(o));
		o.size = sizeof(o);
		o.log_fn = log_stderr;
		o.cpuid = st.cpuid;
		if ((code = pmu_ctx_new(&ctx, &o)) < 0) {
			fprintf(stderr, "pmu report: %s\n", pmu_strerror(code));
			code = 1;
			goto out;
		}
		if (apply_params(ctx) < 0) {
			pmu_ctx_free(ctx);
			code = 2;
			goto out;
		}
		run_seconds = st.times.elapsed_ns / 1e9;
		code = analysis(stdout, ctx, &metrics, topdown, st.rows.v, st.rows.n, NULL);
		pmu_ctx_free(ctx);
	}
	goto out;
nomem:
	fprintf(stderr, "pmu report: out of memory\n");
	code = 1;
out:
	free(title);
	strv_free(&metrics);
	strv_free(&notes);
	saved_stat_free(&st);
	saved_regions_free(&rg);
	return code;
}

/* Run the command named argv[0]. */
static int run_command(int argc, char **argv)
{
	static const struct { const char *name; int (*fn)(int, char **); } cmds[] = {
		{ "info", cmd_info }, { "list", cmd_list }, { "resolve", cmd_resolve }, { "stat", cmd_stat },
		{ "report", cmd_report }, { "check-tables", cmd_check_tables } };

	if (!strcmp(argv[0], "-h") || !strcmp(argv[0], "--help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[0], "--version")) {
		printf("pmu (libpmu) %s\n", pmu_version());
		return 0;
	}
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (!strcmp(argv[0], cmds[i].name))
			return cmds[i].fn(argc, argv);
	fprintf(stderr, "pmu: unknown command '%s'\n", argv[0]);
	usage(stderr);
	return 2;
}

int main(int argc, char **argv)
{
	int a = 1, code;

	while (a < argc && !strcmp(argv[a], "-v")) {
		verbose = 1;
		a++;
	}
	if (a >= argc) {
		usage(stderr);
		return 2;
	}
	code = run_command(argc - a, argv + a);
	/* what was written must have arrived: a full disk, a closed pipe fail the command */
	if (out_finish(stdout, "standard output", true) < 0 && code == 0)
		code = 1;
	if ((fflush(stderr) == EOF || ferror(stderr)) && code == 0)
		code = 1;
	return code;
}
