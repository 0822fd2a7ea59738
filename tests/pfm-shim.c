/* SPDX-License-Identifier: MIT */
/*
 * A libpfm4 that calls no getenv() of its own, for tests/test-pfm-host-only.c: the functions libpmu
 * takes from libpfm4, each forwarding to libpfm.so.4 (loaded here), which reads its settings with its
 * getenv() from the environment. libpmu cannot answer LIBPFM_ENCODE_INACTIVE for this one.
 */
#include <dlfcn.h>
#include <perfmon/pfmlib_perf_event.h>

static struct {
	__typeof__(&pfm_initialize) initialize;
	__typeof__(&pfm_get_pmu_info) get_pmu_info;
	__typeof__(&pfm_get_os_event_encoding) get_os_event_encoding;
	__typeof__(&pfm_strerror) strerror;
	__typeof__(&pfm_get_event_next) get_event_next;
	__typeof__(&pfm_get_event_info) get_event_info;
	__typeof__(&pfm_get_event_attr_info) get_event_attr_info;
} real;

__attribute__((constructor)) static void load(void)
{
	void *h = dlopen("libpfm.so.4", RTLD_NOW | RTLD_LOCAL);

	if (!h)
		return;
	real.initialize = (__typeof__(real.initialize))dlsym(h, "pfm_initialize");
	real.get_pmu_info = (__typeof__(real.get_pmu_info))dlsym(h, "pfm_get_pmu_info");
	real.get_os_event_encoding = (__typeof__(real.get_os_event_encoding))dlsym(h, "pfm_get_os_event_encoding");
	real.strerror = (__typeof__(real.strerror))dlsym(h, "pfm_strerror");
	real.get_event_next = (__typeof__(real.get_event_next))dlsym(h, "pfm_get_event_next");
	real.get_event_info = (__typeof__(real.get_event_info))dlsym(h, "pfm_get_event_info");
	real.get_event_attr_info = (__typeof__(real.get_event_attr_info))dlsym(h, "pfm_get_event_attr_info");
}

pfm_err_t pfm_initialize(void)
{
	return real.initialize ? real.initialize() : PFM_ERR_NOTSUPP;
}

pfm_err_t pfm_get_pmu_info(pfm_pmu_t pmu, pfm_pmu_info_t *info)
{
	return real.get_pmu_info(pmu, info);
}

pfm_err_t pfm_get_os_event_encoding(const char *str, int dfl_plm, pfm_os_t os, void *args)
{
	return real.get_os_event_encoding(str, dfl_plm, os, args);
}

const char *pfm_strerror(int code)
{
	return real.strerror(code);
}

int pfm_get_event_next(int idx)
{
	return real.get_event_next(idx);
}

pfm_err_t pfm_get_event_info(int idx, pfm_os_t os, pfm_event_info_t *output)
{
	return real.get_event_info(idx, os, output);
}

pfm_err_t pfm_get_event_attr_info(int eidx, int aidx, pfm_os_t os, pfm_event_attr_info_t *output)
{
	return real.get_event_attr_info(eidx, aidx, os, output);
}
