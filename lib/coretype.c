/* SPDX-License-Identifier: MIT */
/* The core types of a machine of several core PMUs (Intel hybrid, Arm big.LITTLE/DynamIQ): each core
 * PMU's CPUs, their identity (arm64: the MIDR of its CPUs), and the event tables of that identity,
 * which a name counted on that PMU is encoded from. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "coretype.h"

static pthread_mutex_t own_lock = PTHREAD_MUTEX_INITIALIZER;

struct pmu_ctx *pmu__core_ctx(struct pmu_ctx *ctx, const struct pmu_dev *d)
{
	struct pmu_dev *w = (struct pmu_dev *)d; /* its context is kept in the shared context */
	struct pmu_ctx *own;
	struct pmu_ctx_opts o;
	int r;

	if (ctx->core_child || !d->is_core || !d->cpuid[0] || !strcmp(d->cpuid, ctx->cpu.cpuid))
		return ctx;
	if ((own = __atomic_load_n(&w->own, __ATOMIC_ACQUIRE)))
		return own;
	pthread_mutex_lock(&own_lock);
	if (!(own = w->own)) {
		memset(&o, 0, sizeof(o));
		o.size = sizeof(o);
		o.log_fn = ctx->log_fn;
		o.log_data = ctx->log_data;
		o.log_level = ctx->log_level;
		o.sysfs_root = ctx->sysfs_root;
		o.procfs_root = ctx->procfs_root;
		o.cpuid = d->cpuid;
		o.events_path = ctx->events_path;
		if ((r = pmu_ctx_new(&own, &o)) < 0) {
			pmu__err(ctx, r, "the %s PMU's CPUs (%s, %s): cannot make the context of their event tables: %s",
				 d->name, d->cpus ? d->cpus : "?", d->cpuid, pmu__err_msg());
			own = NULL;
		} else {
			own->core_child = true;
			__atomic_store_n(&w->own, own, __ATOMIC_RELEASE);
		}
	}
	pthread_mutex_unlock(&own_lock);
	return own;
}

/* Arm's part numbers (MIDR bits 4-15, implementer 0x41) of the cores found in big.LITTLE and DynamIQ
 * designs, as Arm names them. */
static const struct {
	unsigned part;
	const char *name;
} arm_parts[] = {
	{ 0xd03, "Cortex-A53" }, { 0xd04, "Cortex-A35" }, { 0xd05, "Cortex-A55" }, { 0xd07, "Cortex-A57" },
	{ 0xd08, "Cortex-A72" }, { 0xd09, "Cortex-A73" }, { 0xd0a, "Cortex-A75" }, { 0xd0b, "Cortex-A76" },
	{ 0xd0d, "Cortex-A77" }, { 0xd41, "Cortex-A78" }, { 0xd44, "Cortex-X1" }, { 0xd46, "Cortex-A510" },
	{ 0xd47, "Cortex-A710" }, { 0xd48, "Cortex-X2" }, { 0xd4d, "Cortex-A715" }, { 0xd4e, "Cortex-X3" },
	{ 0xd80, "Cortex-A520" }, { 0xd81, "Cortex-A720" }, { 0xd82, "Cortex-X4" },
};

void pmu__core_type_name(const struct pmu_ctx *ctx, const struct pmu_dev *d, char *buf, size_t len)
{
	uint64_t midr;

	if (ctx->cpu.arch == PMU_ARCH_X86) {
		snprintf(buf, len, "%s", !strcmp(d->name, "cpu_core") ? "P-core (Intel Core)" :
			 !strcmp(d->name, "cpu_atom") ? "E-core (Intel Atom)" :
			 !strcmp(d->name, "cpu_lowpower") ? "low-power E-core (Intel Atom)" : d->name);
		return;
	}
	if (ctx->cpu.arch == PMU_ARCH_ARM64 && pmu__parse_u64(d->cpuid[0] ? d->cpuid : ctx->cpu.cpuid, &midr) == 0) {
		unsigned part = (unsigned)(midr >> 4) & 0xfff, impl = (unsigned)(midr >> 24) & 0xff;
		for (size_t i = 0; impl == 0x41 && i < ARRAY_SIZE(arm_parts); i++)
			if (arm_parts[i].part == part) {
				snprintf(buf, len, "%s r%up%u (MIDR %s)", arm_parts[i].name, (unsigned)(midr >> 20) & 0xf,
					 (unsigned)midr & 0xf, d->cpuid[0] ? d->cpuid : ctx->cpu.cpuid);
				return;
			}
		snprintf(buf, len, "implementer 0x%02x part 0x%03x (MIDR %s)", impl, part,
			 d->cpuid[0] ? d->cpuid : ctx->cpu.cpuid);
		return;
	}
	snprintf(buf, len, "%s", d->cpuid[0] ? d->cpuid : ctx->cpu.cpuid);
}
