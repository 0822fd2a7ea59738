/* SPDX-License-Identifier: MIT */
/* The core types of a machine of several core PMUs (Intel hybrid, Arm big.LITTLE/DynamIQ), named in
 * their architecture's words. (Each core PMU's CPUs and identity are read by sysfs.c's scan; the
 * context of its event tables is made by context.c: pmu__core_ctx.) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "coretype.h"
#include "common.h"
#include "context.h"
#include "cpu.h"
#include "sysfs.h"
#include "util.h"

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
