/* SPDX-License-Identifier: MIT */
/*
 * libpfm4: the encoder of last resort for vendor event names
 * ("MEM_LOAD_RETIRED:L3_MISS", "skx::MEM_LOAD_RETIRED:L3_MISS"), and the
 * independent reference the table validator compares x86 and arm64 encodings with.
 * A leaf: it encodes the names it is handed, for the libpfm4 PMU its caller
 * names (resolve.c finds it from the event tables, tables-check.c from the
 * directory it checks).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "pmu.h"
#include "pfm.h"
#include "common.h"
#include "error.h"
#include "fork.h"
#include "sysfs.h"
#include "util.h"

/* table directory (perf's model name) -> libpfm4 PMU name. Each libpfm4 PMU's CPU models (its
 * cpu_models list, libpfm4 4.13) are those of perf's mapfile rows for the directory, or some of them:
 * silvermont, knightslanding, elkhartlake and icelakex have models libpfm4 gives no PMU or another one
 * (0x4A/0x5A; 0x85 knm; 0x9C; 0x6C icl). arm64 (libpfm4 4.13 detects these by the MIDR's implementer
 * and part, as perf's mapfile rows for the directory): Cortex-A53 0xd03, A57 0xd07 (not A72, 0xd08,
 * which perf's cortex-a57-a72 also serves), Neoverse N1 0xd0c, N2 0xd49, V1 0xd40, V2 0xd4f, X-Gene
 * (implementer 0x50: Ampere's eMAG), ThunderX2, A64FX, Kunpeng 920 (hip08); libpfm4 4.13 has no PMU
 * for Cortex-A55, A72 or A76. Where directories share a PMU, the first is the built-in one, which
 * pmu__pfm_dir() gives. */
static const struct { const char *dir; const char *pfm; } pfm_models[] = {
	{ "x86/bonnell", "atom" }, { "x86/nehalemep", "nhm" }, { "x86/nehalemex", "nhm_ex" },
	{ "x86/westmereep-sp", "wsm" }, { "x86/westmereep-dp", "wsm_dp" }, { "x86/westmereex", "wsm_dp" },
	{ "x86/sandybridge", "snb" }, { "x86/jaketown", "snb_ep" },
	{ "x86/ivybridge", "ivb" }, { "x86/ivytown", "ivb_ep" }, { "x86/haswell", "hsw" },
	{ "x86/haswellx", "hsw_ep" }, { "x86/broadwell", "bdw" }, { "x86/broadwellx", "bdw_ep" },
	{ "x86/broadwellde", "bdw_ep" }, { "x86/silvermont", "slm" }, { "x86/goldmont", "glm" },
	{ "x86/knightslanding", "knl" }, { "x86/snowridgex", "tmt" }, { "x86/elkhartlake", "tmt" },
	{ "x86/skylake", "skl" }, { "x86/skylakex", "skx" }, { "x86/cascadelakex", "clx" },
	{ "x86/icelake", "icl" }, { "x86/tigerlake", "icl" }, { "x86/rocketlake", "icl" },
	{ "x86/icelakex", "icx" }, { "x86/sapphirerapids", "spr" },
	{ "x86/amdzen1", "amd64_fam17h_zen1" }, { "x86/amdzen2", "amd64_fam17h_zen2" },
	{ "x86/amdzen3", "amd64_fam19h_zen3" }, { "x86/amdzen4", "amd64_fam19h_zen4" },
	{ "arm64/neoverse-n1", "arm_n1" }, { "arm64/neoverse-n2", "arm_n2" }, { "arm64/neoverse-v1", "arm_v1" },
	{ "arm64/neoverse-v2", "arm_v2" }, { "arm64/arm/neoverse-n1", "arm_n1" },
	{ "arm64/arm/neoverse-n2-v2", "arm_n2" }, { "arm64/arm/neoverse-v1", "arm_v1" },
	{ "arm64/arm/cortex-a53", "arm_ac53" }, { "arm64/arm/cortex-a57-a72", "arm_ac57" },
	{ "arm64/ampere/emag", "arm_xgene" }, { "arm64/cavium/thunderx2", "arm_thunderx2" },
	{ "arm64/fujitsu/a64fx", "arm_a64fx" }, { "arm64/hisilicon/hip08", "arm_kunpeng" },
};

/* @dir names the table directory as the built-in tree does ("x86/skylakex"), or as a tree of one
 * architecture does (perf's arch/x86: "skylakex"; arch/arm64: "arm/neoverse-n1") */
const char *pmu__pfm_model(const char *dir)
{
	/* a built-in row names several directories, "x86/skylakex+x86/intel/skylakex": the first that is
	 * a model's, by its path or its last component (a vendor's directory is named as perf's) */
	for (const char *p = dir, *plus; p && *p; p = plus ? plus + 1 : NULL) {
		size_t n = (plus = strchr(p, '+')) ? (size_t)(plus - p) : strlen(p);
		const char *last = memrchr(p, '/', n);
		for (size_t i = 0; i < ARRAY_SIZE(pfm_models); i++) {
			const char *m = pfm_models[i].dir, *base = strchr(m, '/') + 1;
			if ((strlen(m) == n && !strncmp(m, p, n)) || (strlen(base) == n && !strncmp(base, p, n)) ||
			    (last && !strncmp(m, "x86/", 4) && strlen(base) == n - (size_t)(last + 1 - p) &&
			     !strncmp(base, last + 1, strlen(base))))
				return pfm_models[i].pfm;
		}
	}
	return NULL;
}

const char *pmu__pfm_dir(const char *model)
{
	for (size_t i = 0; i < ARRAY_SIZE(pfm_models); i++)
		if (model && !strcmp(pfm_models[i].pfm, model))
			return pfm_models[i].dir;
	return NULL;
}

bool pmu__pfm_same_count(const char *model, uint64_t ours, uint64_t ours1, uint64_t pfm, uint64_t pfm1)
{
	ours &= PMU_PFM_COMPARED;
	pfm &= PMU_PFM_COMPARED;
	if (ours1 && ours1 != pfm1)
		return false;
	if (ours == pfm)
		return true;
	/* Intel's instructions retired on fixed counter 0: perf's 0xc0 and Intel's pseudo-encoding event 0
	 * umask 1, which Linux counts there from Ice Lake on (AMD's event 0 umask 1 is another event) */
	return pmu__pfm_x86(model) && strncmp(model, "amd64", 5) &&
	       ((ours == 0xc0 && pfm == 0x100) || (ours == 0x100 && pfm == 0xc0));
}

bool pmu__pfm_x86(const char *model)
{
	return strncmp(model, "arm_", 4) != 0;
}

#if HAVE_LIBPFM
#include <dlfcn.h>
#include <perfmon/pfmlib_perf_event.h>
#include "got.h"

/* libpfm4 set up once: 0 ready, -ENODEV unusable here, -ENOMEM libpfm4 ran out of memory initialising
 * (it keeps that result); 1 not yet, or the last try could not load it (tried again). */
static pthread_mutex_t pfm_lock = PTHREAD_MUTEX_INITIALIZER;
static int pfm_status = 1;

/*
 * libpfm4 is loaded with dlopen() when a name first needs it, not linked: loading it costs every
 * program about 0.8 ms and 290 page faults at start (its tables are relocated), while most never
 * resolve a name only libpfm4 knows. Its functions, typed from its header.
 */
static struct {
	__typeof__(&pfm_initialize) initialize;
	__typeof__(&pfm_get_pmu_info) get_pmu_info;
	__typeof__(&pfm_get_os_event_encoding) get_os_event_encoding;
	__typeof__(&pfm_strerror) strerror;
	__typeof__(&pfm_get_event_next) get_event_next;
	__typeof__(&pfm_get_event_info) get_event_info;
	__typeof__(&pfm_get_event_attr_info) get_event_attr_info;
} pfm;
static void *pfm_handle;
static char pfm_missing[256]; /* why it could not be loaded, "" if it was (or was not tried) */
/* why libpfm4 encodes this machine's PMUs only (pfm_setup could not answer LIBPFM_ENCODE_INACTIVE), or "" */
static char pfm_host_only[256];

/* 0, or -ELIBACC with pfm_missing said. $PMU_LIBPFM names another file (tests: one that is absent).
 * A failure is tried again at once, and at the next need (not kept): dlopen() fails alike when an
 * allocation of its own failed, and dlerror() does not tell that apart from a missing file. */
static int pfm_load(void)
{
	const char *file = pmu__getenv("PMU_LIBPFM");
	void *h;

	file = file && *file ? file : "libpfm.so.4";
	if (!(h = dlopen(file, RTLD_NOW | RTLD_LOCAL)) && !(h = dlopen(file, RTLD_NOW | RTLD_LOCAL))) {
		const char *why = dlerror();
		snprintf(pfm_missing, sizeof(pfm_missing), "%s", why ? why : file);
		return -ELIBACC;
	}
	pfm.initialize = (__typeof__(pfm.initialize))dlsym(h, "pfm_initialize");
	pfm.get_pmu_info = (__typeof__(pfm.get_pmu_info))dlsym(h, "pfm_get_pmu_info");
	pfm.get_os_event_encoding = (__typeof__(pfm.get_os_event_encoding))dlsym(h, "pfm_get_os_event_encoding");
	pfm.strerror = (__typeof__(pfm.strerror))dlsym(h, "pfm_strerror");
	pfm.get_event_next = (__typeof__(pfm.get_event_next))dlsym(h, "pfm_get_event_next");
	pfm.get_event_info = (__typeof__(pfm.get_event_info))dlsym(h, "pfm_get_event_info");
	pfm.get_event_attr_info = (__typeof__(pfm.get_event_attr_info))dlsym(h, "pfm_get_event_attr_info");
	if (!pfm.initialize || !pfm.get_pmu_info || !pfm.get_os_event_encoding || !pfm.strerror ||
	    !pfm.get_event_next || !pfm.get_event_info || !pfm.get_event_attr_info) {
		snprintf(pfm_missing, sizeof(pfm_missing), "%s lacks libpfm4's functions", file);
		pfm.initialize = NULL;
		dlclose(h);
		return -ELIBACC;
	}
	pfm_missing[0] = 0;
	pfm_handle = h;
	return 0; /* kept loaded: its encodings are used until the process ends */
}

bool pmu__pfm_missing(char *why, size_t len)
{
	bool missing;

	pthread_mutex_lock(&pfm_lock);
	missing = pfm_status != 0 && pfm_missing[0];
	if (missing)
		pmu__strlcpy(why, pfm_missing, len);
	pthread_mutex_unlock(&pfm_lock);
	return missing;
}

/* LIBPFM_ENCODE_INACTIVE as libpfm4 reads it while pfm_setup() initialises it: set, whatever the
 * environment says; every other name as the environment has it */
static char pfm_inactive[] = "1";

static char *pfm_getenv(const char *name)
{
	return strcmp(name, "LIBPFM_ENCODE_INACTIVE") ? getenv(name) : pfm_inactive;
}

static char *pfm_secure_getenv(const char *name)
{
	return strcmp(name, "LIBPFM_ENCODE_INACTIVE") ? secure_getenv(name) : pfm_inactive;
}

/* Returns the status for pfm_status, or -ELIBACC: libpfm4 not loaded (pfm_missing says why). */
static int pfm_setup(void)
{
	/*
	 * Encode for PMUs other than this machine's too (PMU_CPUID, the validator). libpfm4 takes that
	 * setting only from the environment, which pfm_initialize() reads with getenv(). The process's
	 * environment is not libpmu's to change: another thread's setenv() would be lost, or find
	 * libpmu's variable and keep it for the process and its children (issue 40 item 10). So libpfm4's
	 * own getenv() (and secure_getenv(), if it calls it) is pointed at pfm_getenv for the call: its
	 * global offset table's slots for them (got.h), put back after. A libpfm4 that reads its settings
	 * otherwise (no such slot), or whose slot cannot be written, is initialised as it is: it encodes
	 * this machine's PMUs only, which pfm_host_only says where another's is asked for.
	 */
	static const struct { const char *name; void *fn; } hook[] = {
		{ "getenv", (void *)pfm_getenv }, { "secure_getenv", (void *)pfm_secure_getenv },
	};
	void *was[ARRAY_SIZE(hook)] = { NULL };
	int n = 0, r, err = 0;

	if (!pfm.initialize && pfm_load() < 0)
		return -ELIBACC;
	for (size_t i = 0; i < ARRAY_SIZE(hook); i++)
		if ((r = pmu__got_replace(pfm_handle, hook[i].name, hook[i].fn, &was[i])) < 0)
			err = r;
		else
			n += r;
	if (!n) {
		const char *file = pmu__getenv("PMU_LIBPFM");
		file = file && *file ? file : "libpfm.so.4";
		if (err)
			snprintf(pfm_host_only, sizeof(pfm_host_only), "libpmu could not point %s's getenv() at its "
				 "answer (%s)", file, strerror(-err));
		else
			snprintf(pfm_host_only, sizeof(pfm_host_only), "%s calls no getenv() that libpmu can answer "
				 "LIBPFM_ENCODE_INACTIVE for", file);
	}
	r = pfm.initialize();
	for (size_t i = 0; i < ARRAY_SIZE(hook); i++) {
		void *mine = hook[i].fn;
		if (was[i])
			pmu__got_replace(pfm_handle, hook[i].name, was[i], &mine);
	}
	return r == PFM_SUCCESS ? 0 : r == PFM_ERR_NOMEM ? -ENOMEM : -ENODEV;
}

int pmu__pfm_ready(void)
{
	int r = __atomic_load_n(&pfm_status, __ATOMIC_ACQUIRE);

	if (r != 1)
		return r;
	pthread_mutex_lock(&pfm_lock);
	if ((r = pfm_status) == 1) {
		r = pfm_setup();
		if (r == -ELIBACC)
			r = -ENODEV; /* not kept: tried again at the next need */
		else
			__atomic_store_n(&pfm_status, r, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&pfm_lock);
	return r;
}

/* libpfm4's description of its PMU @p into *@pi: true when libpfm4 has that PMU (and a name for it) */
static bool pfm_pmu(int p, pfm_pmu_info_t *pi)
{
	memset(pi, 0, sizeof(*pi));
	pi->size = sizeof(*pi);
	return pfm.get_pmu_info((pfm_pmu_t)p, pi) == PFM_SUCCESS && pi->name;
}

/* Is @pmu (a libpfm4 PMU's name, or NULL) one libpfm4 has but cannot encode here: not this machine's,
 * where pfm_setup could not have it encode other machines' (pfm_host_only says why)? */
static bool pfm_not_here(const char *pmu)
{
	pfm_pmu_info_t pi;

	if (!pfm_host_only[0] || !pmu)
		return false;
	for (int p = PFM_PMU_NONE; p < PFM_PMU_MAX; p++)
		if (pfm_pmu(p, &pi) && !strcasecmp(pi.name, pmu))
			return !pi.is_present;
	return false;
}

/* the core PMU libpfm4 detected on this machine, or NULL */
static const char *pfm_host_core(void)
{
	pfm_pmu_info_t pi;

	for (int p = PFM_PMU_NONE; p < PFM_PMU_MAX; p++)
		if (pfm_pmu(p, &pi) && pi.is_present && pi.type == PFM_PMU_TYPE_CORE)
			return pi.name;
	return NULL;
}

static int pfm_encode(const char *str, struct perf_event_attr *attr, char **fstr)
{
	pfm_perf_encode_arg_t arg;

	memset(&arg, 0, sizeof(arg));
	memset(attr, 0, sizeof(*attr));
	arg.attr = attr;
	arg.fstr = fstr;
	arg.size = sizeof(arg);
	return pfm.get_os_event_encoding(str, PFM_PLM0 | PFM_PLM3, PFM_OS_PERF_EVENT_EXT, &arg);
}

int pmu__pfm_resolve(struct pmu_ctx *ctx, const char *name, const char *model, struct pmu_event_info *out)
{
	char buf[PMU_NAME_MAX * 2], *fstr = NULL, named[64];
	struct perf_event_attr attr;
	const char *pmu = NULL, *sep;
	int r;

	if ((r = pmu__pfm_ready()) == -ENOMEM)
		return pmu__err(ctx, r, "event '%s': out of memory setting up libpfm4 to encode it", out->name);
	if (r < 0)
		return -ENOENT; /* libpfm4 is no encoder here: not a name it knows */
	if (!strstr(name, "::")) {
		if (!(pmu = model ? model : pfm_host_core()))
			return -ENOENT;
		snprintf(buf, sizeof(buf), "%s::%s", pmu, name);
		name = buf;
	}
	r = pfm_encode(name, &attr, &fstr);
	if (r != PFM_SUCCESS) {
		free(fstr);
		if (!pmu && (sep = strstr(name, "::")) && (size_t)(sep - name) < sizeof(named)) {
			memcpy(named, name, (size_t)(sep - name));
			named[sep - name] = 0;
			pmu = named;
		}
		if ((r == PFM_ERR_NOTFOUND || r == PFM_ERR_ATTR) && pfm_not_here(pmu))
			return pmu__err(ctx, -EINVAL, "event '%s': libpfm4 encodes this machine's PMUs only, not %s: %s; "
					"encode it on a machine with that CPU", out->name, pmu, pfm_host_only);
		if (r == PFM_ERR_NOTFOUND || r == PFM_ERR_ATTR)
			return -ENOENT;
		if (r == PFM_ERR_NOMEM)
			return pmu__err(ctx, -ENOMEM, "event '%s': out of memory in libpfm4 encoding it", out->name);
		return pmu__err(ctx, -EINVAL, "event '%s': libpfm4 cannot encode it: %s", out->name, pfm.strerror(r));
	}
	out->type = attr.type;
	out->config = attr.config;
	out->config1 = attr.config1;
	out->config2 = attr.config2;
	out->source = PMU_SRC_LIBPFM;
	if (attr.exclude_user)
		out->flags |= PMU_EVF_EXCL_USER;
	if (attr.exclude_kernel)
		out->flags |= PMU_EVF_EXCL_KERNEL;
	if (attr.exclude_hv)
		out->flags |= PMU_EVF_EXCL_HV;
	{
		/* PERF_TYPE_RAW is the core PMU's: "cpu" on x86 (whose type it is), armv8_pmuv3_0 on arm64 */
		const struct pmu_dev *d = pmu__pmu_by_type(ctx, attr.type);
		if (!d && attr.type == PERF_TYPE_RAW)
			d = pmu__core_pmu(ctx);
		pmu__strlcpy(out->pmu, d ? d->name : attr.type == PERF_TYPE_RAW ? "cpu" : "?", sizeof(out->pmu));
	}
	snprintf(out->origin, sizeof(out->origin), "libpfm4: %s", fstr ? fstr : name);
	out->desc = "vendor event encoded by libpfm4";
	free(fstr);
	return 0;
}

int pmu__pfm_attr(const char *name, struct perf_event_attr *attr)
{
	int r = pfm_encode(name, attr, NULL);

	return r == PFM_SUCCESS ? 0 : r == PFM_ERR_NOMEM ? -ENOMEM : -ENOENT;
}

/* The names of libpfm4's event @e (PMU @pmu) that libpfm4 encodes here as written: "EVENT" (refused
 * where the event has unit masks and none is its default) and "EVENT:UMASK" for each unit mask (a PMU
 * that is not the core PMU is encoded only where its perf PMU is in sysfs). Description: the unit
 * mask's, else the event's. */
static int event_names(const char *pmu, int e, pmu__pfm_event_fn fn, void *data)
{
	pfm_event_info_t ei;
	char name[PMU_NAME_MAX];
	int r;

	memset(&ei, 0, sizeof(ei));
	ei.size = sizeof(ei);
	if (pfm.get_event_info(e, PFM_OS_NONE, &ei) != PFM_SUCCESS || !ei.name)
		return 0;
	for (int a = -1; a < ei.nattrs; a++) {
		pfm_event_attr_info_t ai;
		struct perf_event_attr attr;
		const char *desc = ei.desc ? ei.desc : "";
		memset(&ai, 0, sizeof(ai));
		ai.size = sizeof(ai);
		if (a >= 0 && (pfm.get_event_attr_info(e, a, PFM_OS_NONE, &ai) != PFM_SUCCESS ||
			       ai.type != PFM_ATTR_UMASK || !ai.name))
			continue;
		if ((size_t)snprintf(name, sizeof(name), "%s::%s%s%s", pmu, ei.name, a >= 0 ? ":" : "",
				     a >= 0 ? ai.name : "") >= sizeof(name) || pfm_encode(name, &attr, NULL) != PFM_SUCCESS)
			continue;
		if (a >= 0 && ai.desc && *ai.desc)
			desc = ai.desc;
		if ((r = fn(pmu, name + strlen(pmu) + 2, desc, data)))
			return r;
	}
	return 0;
}

bool pmu__pfm_knows(const char *model, char *why, size_t len)
{
	pfm_pmu_info_t pi;

	why[0] = 0;
	if (pmu__pfm_ready() < 0)
		return false;
	for (int p = PFM_PMU_NONE; p < PFM_PMU_MAX; p++)
		if (pfm_pmu(p, &pi) && !strcmp(pi.name, model)) {
			if (!pfm_not_here(model))
				return true;
			pmu__strlcpy(why, pfm_host_only, len);
			return false;
		}
	return false;
}

int pmu__pfm_foreach(const char *model, pmu__pfm_event_fn fn, void *data)
{
	int r = pmu__pfm_ready();

	if (r == -ENODEV)
		return pmu__pfm_missing(NULL, 0) ? -ELIBACC : 0; /* loaded, but it knows no PMU here */
	if (r < 0)
		return r;
	for (int p = PFM_PMU_NONE; p < PFM_PMU_MAX; p++) {
		pfm_pmu_info_t pi;
		if (!pfm_pmu(p, &pi))
			continue;
		if (model ? strcmp(pi.name, model) != 0
			  : !pi.is_present || p == PFM_PMU_PERF_EVENT || p == PFM_PMU_PERF_EVENT_RAW)
			continue;
		for (int e = pi.first_event; e != -1; e = pfm.get_event_next(e))
			if ((r = event_names(pi.name, e, fn, data)))
				return r;
	}
	return 0;
}

void pmu__pfm_fork_lock(bool take)
{
	pmu__fork_mutex(&pfm_lock, take);
}
#else
void pmu__pfm_fork_lock(bool take)
{
	(void)take;
}

int pmu__pfm_ready(void)
{
	return -ENODEV;
}

bool pmu__pfm_missing(char *why, size_t len)
{
	(void)why; (void)len;
	return false;
}

int pmu__pfm_resolve(struct pmu_ctx *ctx, const char *name, const char *model, struct pmu_event_info *out)
{
	(void)ctx; (void)name; (void)model; (void)out;
	return -ENOENT;
}

int pmu__pfm_attr(const char *name, struct perf_event_attr *attr)
{
	(void)name; (void)attr;
	return -ENODEV;
}

bool pmu__pfm_knows(const char *model, char *why, size_t len)
{
	(void)model;
	if (len)
		why[0] = 0;
	return false;
}

int pmu__pfm_foreach(const char *model, pmu__pfm_event_fn fn, void *data)
{
	(void)model; (void)fn; (void)data;
	return -ENOTSUP;
}
#endif
