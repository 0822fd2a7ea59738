/* SPDX-License-Identifier: MIT */
/*
 * pmu_libpfm_event_foreach() against libpfm4 itself. This program links libpfm4 and walks its PMUs,
 * events and unit masks with libpfm4's own functions, keeping every "PMU::EVENT" and
 * "PMU::EVENT:UMASK" that libpfm4 encodes as written (the oracle); the library loads libpfm4 with
 * dlopen() and lists them too. Compared, as sets of names with their PMU and description:
 * - this machine: every PMU libpfm4 detects, but its two "perf" PMUs (whose events are the kernel's);
 * - PMU_CPUID naming a Skylake-X (GenuineIntel-6-55-4): libpfm4's core PMU for it, "skx", even where
 *   this machine is not one. Each listed name resolves to libpfm4's own encoding of it (or is refused
 *   where the model's table declares libpfm4's encoding wrong, the message saying so);
 * - on a written Ice Lake-X machine (tests/fixtures/intel-icx, which has a core PMU) with its id, each
 *   event of "icx" that resolves is countable there (usable), and the others are not;
 * - PMU_CPUID naming an AMD Zen 4 (AuthenticAMD-25-17-0): libpfm4's amd64_fam19h_zen4, compared the same
 *   way, and its bare RETIRED_INSTRUCTIONS is AMD's PMCx0C0;
 * - a CPU libpfm4 has no PMU for (an Arm Neoverse N1 id on this x86 build of libpfm4): none;
 * - a prefix: the names that start with it, case-insensitive; a callback's non-zero value stops the walk;
 * - libpfm4 missing ($PMU_LIBPFM naming a file that is not there): -ELIBACC, the file and the fix said.
 * Built without libpfm4, the function says so (-ENOTSUP), which is all this program checks then.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <pmu.h>
#include "fixture.h"
#include "harness.h"
#include "perf-libpfm4.h"
#if HAVE_LIBPFM
#include <perfmon/pfmlib_perf_event.h>

#define MAXN 4096

struct entry {
	char name[PMU_NAME_MAX];
	char pmu[64];
	char desc[512];
	int source, kind, usable;
};

struct list {
	struct entry v[MAXN];
	size_t n;
	int calls, stop_at; /* the callback returns 9 at call stop_at (0: never) */
};

static int collect(const struct pmu_event_entry *e, void *data)
{
	struct list *l = data;
	struct entry *x;

	if (++l->calls == l->stop_at)
		return 9;
	if (l->n == MAXN)
		return 8;
	x = &l->v[l->n++];
	snprintf(x->name, sizeof(x->name), "%s", e->name);
	snprintf(x->pmu, sizeof(x->pmu), "%s", e->pmu);
	snprintf(x->desc, sizeof(x->desc), "%s", e->desc);
	x->source = e->source;
	x->kind = e->kind;
	x->usable = e->usable;
	return 0;
}

/* libpfm4 encodes @name as written (user and kernel mode), into *@attr. */
static bool encodes(const char *name, struct perf_event_attr *attr)
{
	pfm_perf_encode_arg_t arg;

	memset(attr, 0, sizeof(*attr));
	memset(&arg, 0, sizeof(arg));
	arg.attr = attr;
	arg.size = sizeof(arg);
	return pfm_get_os_event_encoding(name, PFM_PLM0 | PFM_PLM3, PFM_OS_PERF_EVENT_EXT, &arg) == PFM_SUCCESS;
}

/* The oracle: of PMU @model, or with @model NULL of every PMU libpfm4 detects here but its perf
 * PMUs, every event's bare name and its name with each unit mask, kept where libpfm4 encodes it
 * (walked with libpfm4's own functions). The description: the unit mask's, else the event's. */
static void oracle(const char *model, struct list *l)
{
	struct perf_event_attr attr;

	l->n = 0;
	for (int p = PFM_PMU_NONE; p < PFM_PMU_MAX; p++) {
		pfm_pmu_info_t pi;
		memset(&pi, 0, sizeof(pi));
		pi.size = sizeof(pi);
		if (pfm_get_pmu_info(p, &pi) != PFM_SUCCESS)
			continue;
		if (model ? strcmp(pi.name, model) != 0 : !pi.is_present || p == PFM_PMU_PERF_EVENT || p == PFM_PMU_PERF_EVENT_RAW)
			continue;
		for (int e = pi.first_event; e != -1 && l->n < MAXN; e = pfm_get_event_next(e)) {
			pfm_event_info_t ei;
			memset(&ei, 0, sizeof(ei));
			ei.size = sizeof(ei);
			if (pfm_get_event_info(e, PFM_OS_NONE, &ei) != PFM_SUCCESS)
				continue;
			for (int a = -1; a < ei.nattrs && l->n < MAXN; a++) {
				pfm_event_attr_info_t ai;
				struct entry *x = &l->v[l->n];
				memset(&ai, 0, sizeof(ai));
				ai.size = sizeof(ai);
				if (a >= 0 && (pfm_get_event_attr_info(e, a, PFM_OS_NONE, &ai) != PFM_SUCCESS ||
					       ai.type != PFM_ATTR_UMASK))
					continue;
				snprintf(x->name, sizeof(x->name), "%s::%s%s%s", pi.name, ei.name, a >= 0 ? ":" : "",
					 a >= 0 ? ai.name : "");
				if (!encodes(x->name, &attr))
					continue;
				snprintf(x->pmu, sizeof(x->pmu), "%s", pi.name);
				snprintf(x->desc, sizeof(x->desc), "%s", a >= 0 && ai.desc && *ai.desc ? ai.desc :
					 ei.desc ? ei.desc : "");
				l->n++;
			}
		}
	}
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct entry *)a)->name, ((const struct entry *)b)->name);
}

/* The library's list equals the oracle's: names, PMUs, descriptions; source and kind libpfm4. */
static void same(const char *what, struct list *lib, struct list *ref)
{
	size_t diff = 0, badkind = 0;

	qsort(lib->v, lib->n, sizeof(lib->v[0]), by_name);
	qsort(ref->v, ref->n, sizeof(ref->v[0]), by_name);
	CHECK(lib->n == ref->n, "%s: the library lists %zu events, libpfm4 walks %zu", what, lib->n, ref->n);
	for (size_t i = 0; i < lib->n && i < ref->n; i++) {
		if (strcmp(lib->v[i].name, ref->v[i].name) || strcmp(lib->v[i].pmu, ref->v[i].pmu) ||
		    strcmp(lib->v[i].desc, ref->v[i].desc)) {
			if (!diff++)
				printf("  first difference: '%s' (%s) vs libpfm4's '%s' (%s)\n", lib->v[i].name,
				       lib->v[i].pmu, ref->v[i].name, ref->v[i].pmu);
		}
		badkind += lib->v[i].source != PMU_SRC_LIBPFM || lib->v[i].kind != PMU_ENTRY_LIBPFM;
	}
	CHECK(diff == 0, "%s: %zu entries differ from libpfm4's", what, diff);
	CHECK(badkind == 0, "%s: %zu entries without source and kind libpfm4", what, badkind);
	printf("%s: %zu names listed, %zu in libpfm4's own walk, %zu differ\n", what, lib->n, ref->n, diff);
}

/* A context on this machine, as CPU @cpuid (NULL: this one). */
static struct pmu_ctx *ctx_for(const char *cpuid)
{
	struct pmu_ctx_opts o;
	struct pmu_ctx *ctx = NULL;
	int r;

	memset(&o, 0, sizeof(o));
	o.size = sizeof(o);
	o.cpuid = cpuid;
	r = pmu_ctx_new(&ctx, &o);
	CHECK(r == 0, "context for %s: %s", cpuid ? cpuid : "this machine", pmu_strerror(r));
	return r == 0 ? ctx : NULL;
}

static struct list lib, ref;

/* A refusal of libpfm4's name because the CPU's table encodes the same event otherwise (@msg), where
 * Intel's data (the table's x86/intel/DIR) and perf's DIR differ from libpfm4 so:
 * tests/perf-corpus-libpfm4.txt lists DIR, the event, the table's config and libpfm4's (@pfm). */
static bool perf_differs_too(const char *msg, unsigned long long pfm)
{
	const char *t = strstr(msg, "x86/intel/"), *enc = strstr(msg, ", built-in) encodes "), *src = getenv("PMU_TEST_SRCDIR");
	char dir[64], name[256];
	unsigned long long ours;

	if (!t || !enc || !strstr(msg, "they differ") || sscanf(t + 10, "%63[^,)+]", dir) != 1 ||
	    sscanf(enc + 20, "%255s as %llx", name, &ours) != 2)
		return false;
	return perf_libpfm4_listed(src ? src : ".", dir, name, ours, pfm);
}

/* Every listed name of @model resolves where libpfm4's own encoding succeeds, to its config. */
static void resolves_as_libpfm4(struct pmu_ctx *ctx, const char *what)
{
	size_t ok = 0, declared = 0, perf = 0, bad = 0;

	for (size_t i = 0; i < lib.n; i++) {
		struct perf_event_attr attr;
		struct pmu_event_info e;
		int r = pmu_event_resolve(ctx, lib.v[i].name, &e);
		bool pr = encodes(lib.v[i].name, &attr);
		if (r == 0 && pr && e.config == attr.config && e.source == PMU_SRC_LIBPFM)
			ok++;
		else if (r == -EINVAL && pr && strstr(pmu_strerror(r), "declares that encoding wrong"))
			declared++;
		else if (r == -EINVAL && pr && perf_differs_too(pmu_strerror(r), (unsigned long long)attr.config))
			perf++;
		else if (bad++ < 3)
			printf("  %s: library %d (config %#llx, %s), libpfm4 %d (config %#llx)\n", lib.v[i].name, r,
			       (unsigned long long)e.config, r < 0 ? pmu_strerror(r) : "", pr,
			       (unsigned long long)attr.config);
	}
	CHECK(bad == 0 && ok > 0, "%s: %zu listed names resolve otherwise than libpfm4 encodes them", what, bad);
	printf("%s: %zu resolve to libpfm4's config, %zu are refused as the table declares libpfm4's encoding "
	       "wrong, %zu as Intel's data and perf's tree encode the event otherwise\n", what, ok, declared, perf);
}

/* A context for the CPU @cpuid names: its listing equals libpfm4's walk of @model (more than @min
 * names), and each name resolves to libpfm4's own encoding. The context, or NULL. */
static struct pmu_ctx *named_cpu(const char *cpuid, const char *model, size_t min, const char *what)
{
	struct pmu_ctx *ctx = ctx_for(cpuid);
	int r;

	if (!ctx)
		return NULL;
	memset(&lib, 0, sizeof(lib));
	r = pmu_libpfm_event_foreach(ctx, NULL, collect, &lib);
	CHECK(r >= 0 && (size_t)r == lib.n, "%s: returned %d for %zu entries", what, r, lib.n);
	oracle(model, &ref);
	CHECK(ref.n > min, "%s: libpfm4 encodes %zu %s names (events, events with a unit mask)", what, ref.n, model);
	same(what, &lib, &ref);
	resolves_as_libpfm4(ctx, what);
	return ctx;
}

int main(void)
{
	struct pmu_ctx *ctx;
	int r;

	/* first, before anything loads libpfm4 into the library: a file that is not there */
	setenv("PMU_LIBPFM", "/nonexistent/libpfm.so.4", 1);
	if ((ctx = ctx_for(NULL))) {
		memset(&lib, 0, sizeof(lib));
		r = pmu_libpfm_event_foreach(ctx, NULL, collect, &lib);
		CHECK(r == -ELIBACC && lib.calls == 0, "libpfm4 missing: %d (%s), want -ELIBACC", r, pmu_strerror(r));
		CHECK(strstr(pmu_strerror(r), "/nonexistent/libpfm.so.4") && strstr(pmu_strerror(r), "install Debian's libpfm4"),
		      "libpfm4 missing: the message names the file and the fix: %s", pmu_strerror(r));
		pmu_ctx_free(ctx);
	}
	unsetenv("PMU_LIBPFM");

	setenv("LIBPFM_ENCODE_INACTIVE", "1", 1); /* the oracle encodes for a CPU that is not this one */
	if (pfm_initialize() != PFM_SUCCESS)
		SKIP("libpfm4 does not initialise here");

	/* this machine */
	if ((ctx = ctx_for(NULL))) {
		memset(&lib, 0, sizeof(lib));
		r = pmu_libpfm_event_foreach(ctx, NULL, collect, &lib);
		CHECK(r >= 0 && (size_t)r == lib.n, "this machine: returned %d for %zu entries", r, lib.n);
		oracle(NULL, &ref);
		same("this machine", &lib, &ref);
		pmu_ctx_free(ctx);
	}

	/* a Skylake-X named by its id: libpfm4's skx */
	if ((ctx = named_cpu("GenuineIntel-6-55-4", "skx", 400, "PMU_CPUID Skylake-X"))) {

		/* a prefix, any case: the subset */
		{
			size_t want = 0;
			for (size_t i = 0; i < ref.n; i++)
				want += !strncasecmp(ref.v[i].name, "skx::inst", 9);
			memset(&lib, 0, sizeof(lib));
			r = pmu_libpfm_event_foreach(ctx, "SKX::inst", collect, &lib);
			CHECK(r == (int)want && want > 0 && lib.n == want, "prefix SKX::inst: %d listed, %zu start with it", r, want);
			for (size_t i = 0; i < lib.n; i++)
				CHECK(!strncasecmp(lib.v[i].name, "skx::inst", 9), "prefix: '%s' listed", lib.v[i].name);
		}
		/* the callback stops the walk: its value returned */
		memset(&lib, 0, sizeof(lib));
		lib.stop_at = 3;
		r = pmu_libpfm_event_foreach(ctx, NULL, collect, &lib);
		CHECK(r == 9 && lib.calls == 3, "a callback returning 9 at its 3rd call: %d after %d calls", r, lib.calls);
		pmu_ctx_free(ctx);
	}

	/* a written Ice Lake-X with a core PMU: what resolves is countable there */
	ctx = fixture_ctx("intel-icx", "GenuineIntel-6-6A-6");
	CHECK(ctx != NULL, "no context on the fixture intel-icx");
	if (ctx) {
		size_t usable = 0, wrong = 0;
		memset(&lib, 0, sizeof(lib));
		r = pmu_libpfm_event_foreach(ctx, NULL, collect, &lib);
		CHECK(r >= 0 && (size_t)r == lib.n, "written Ice Lake-X: returned %d for %zu entries", r, lib.n);
		oracle("icx", &ref);
		same("written Ice Lake-X", &lib, &ref);
		resolves_as_libpfm4(ctx, "written Ice Lake-X");
		for (size_t i = 0; i < lib.n; i++) {
			struct pmu_event_info e;
			bool resolves = pmu_event_resolve(ctx, lib.v[i].name, &e) == 0;
			usable += lib.v[i].usable;
			if (resolves != (bool)lib.v[i].usable && wrong++ < 3)
				printf("  %s: resolves %d, listed usable %d\n", lib.v[i].name, resolves, lib.v[i].usable);
		}
		CHECK(wrong == 0 && usable > 0, "written Ice Lake-X: %zu entries' usable differs from whether they resolve "
		      "(%zu usable)", wrong, usable);
		printf("written Ice Lake-X: %zu of %zu usable\n", usable, lib.n);
		pmu_ctx_free(ctx);
	}

	/* an AMD Zen 4 named by its id: libpfm4's amd64_fam19h_zen4, whose bare names resolve too; AMD's PPR
	 * for family 19h: Retired Instructions is PMCx0C0 */
	if ((ctx = named_cpu("AuthenticAMD-25-17-0", "amd64_fam19h_zen4", 100, "PMU_CPUID Zen 4"))) {
		struct pmu_event_info e;
		r = pmu_event_resolve(ctx, "RETIRED_INSTRUCTIONS", &e);
		CHECK(r == 0 && e.config == 0xc0 && e.source == PMU_SRC_LIBPFM, "Zen 4 RETIRED_INSTRUCTIONS: %d config %#llx (%s)",
		      r, (unsigned long long)e.config, r < 0 ? pmu_strerror(r) : e.origin);
		pmu_ctx_free(ctx);
	}

	/* a CPU libpfm4 has no PMU for in this build */
	if ((ctx = ctx_for("0x00000000410fd0c0"))) {
		memset(&lib, 0, sizeof(lib));
		r = pmu_libpfm_event_foreach(ctx, NULL, collect, &lib);
		CHECK(r == 0 && lib.n == 0, "Neoverse N1 id: %d, %zu listed (libpfm4 has no PMU for it here)", r, lib.n);
		pmu_ctx_free(ctx);
	}

	CHECK(pmu_libpfm_event_foreach(NULL, NULL, collect, &lib) == -EINVAL, "NULL context refused");
	return test_done("test-libpfm-list");
}
#else
static int never(const struct pmu_event_entry *e, void *data)
{
	(void)e, (void)data;
	return 1;
}

/* built without libpfm4: said, not an empty list */
int main(void)
{
	struct pmu_ctx *ctx = NULL;
	int r = pmu_ctx_new(&ctx, NULL);

	CHECK(r == 0, "context: %s", pmu_strerror(r));
	if (r == 0) {
		r = pmu_libpfm_event_foreach(ctx, NULL, never, NULL);
		CHECK(r == -ENOTSUP && strstr(pmu_strerror(r), "built without libpfm4"), "without libpfm4: %d (%s)", r,
		      pmu_strerror(r));
		pmu_ctx_free(ctx);
	}
	return test_done("test-libpfm-list");
}
#endif
