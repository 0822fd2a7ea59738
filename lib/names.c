/* SPDX-License-Identifier: MIT */
/* The names of the public enums (architecture, source, entry kind) and of the
 * event flags: the one place the command, the Python binding and the manual
 * take them from. */
#include <stdio.h>
#include "pmu.h"
#include "common.h"

static const char *pick(const char *const *names, size_t n, int v)
{
	return v >= 0 && (size_t)v < n && names[v] ? names[v] : "unknown";
}

#define PICK(names, v) pick(names, sizeof(names) / sizeof(names[0]), v)

PMU_EXPORT const char *pmu_arch_name(int v)
{
	static const char *const names[] = {
		[PMU_ARCH_X86] = "x86", [PMU_ARCH_ARM64] = "arm64", [PMU_ARCH_RISCV] = "riscv",
	};
	return PICK(names, v);
}

PMU_EXPORT const char *pmu_source_name(int v)
{
	static const char *const names[] = {
		[PMU_SRC_SYSFS] = "sysfs", [PMU_SRC_GENERIC] = "generic", [PMU_SRC_RAW] = "raw",
		[PMU_SRC_TABLE] = "table", [PMU_SRC_LIBPFM] = "libpfm4", [PMU_SRC_TRACEPOINT] = "tracepoint",
		[PMU_SRC_TOOL] = "tool",
	};
	return PICK(names, v);
}

PMU_EXPORT const char *pmu_kind_name(int v)
{
	static const char *const names[] = {
		[PMU_ENTRY_KERNEL] = "kernel", [PMU_ENTRY_SYSFS] = "sysfs", [PMU_ENTRY_STANDARD] = "standard",
		[PMU_ENTRY_NATIVE] = "native", [PMU_ENTRY_METRIC] = "metric", [PMU_ENTRY_LIBPFM] = "libpfm4",
		[PMU_ENTRY_TOOL] = "tool", [PMU_ENTRY_PAPI] = "papi",
	};
	return PICK(names, v);
}

PMU_EXPORT const char *pmu_constant_source_name(int v)
{
	static const char *const names[] = {
		[PMU_CONST_PARAM] = "param", [PMU_CONST_MACHINE] = "machine",
	};
	return PICK(names, v);
}

PMU_EXPORT int pmu_flags_format(unsigned flags, char *buf, size_t len)
{
	static const struct {
		unsigned flag;
		const char *name;
	} names[] = {
		{ PMU_EVF_SOFTWARE, "software" },
		{ PMU_EVF_TOPDOWN_SLOTS, "topdown-slots" },
		{ PMU_EVF_TOPDOWN_METRIC, "topdown-metric" },
		{ PMU_EVF_APPROX, "approximate" },
		{ PMU_EVF_HYBRID_PART, "hybrid-part" },
		{ PMU_EVF_TOOL, "tool" },
		{ PMU_EVF_EXCL_USER, "exclude-user" },
		{ PMU_EVF_EXCL_KERNEL, "exclude-kernel" },
		{ PMU_EVF_EXCL_HV, "exclude-hv" },
		{ PMU_EVF_EXCL_HOST, "exclude-host" },
		{ PMU_EVF_EXCL_GUEST, "exclude-guest" },
		{ PMU_EVF_PINNED, "pinned" },
		{ PMU_EVF_PRECISE, "precise" },
		{ PMU_EVF_UNSUPPORTED, "unsupported" },
		{ PMU_EVF_USER_FALLBACK, "user-fallback" },
		{ PMU_EVF_SCALED, "scaled" },
		{ PMU_EVF_CPU_WIDE, "cpu-wide" },
		{ PMU_EVF_BOXES, "boxes" },
	};
	size_t at = 0;
	char one[32];

	if (len)
		buf[0] = '\0';
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!(flags & names[i].flag))
			continue;
		if (names[i].flag == PMU_EVF_PRECISE)
			snprintf(one, sizeof(one), "%s=%u", names[i].name, PMU_EVF_PRECISE_IP(flags));
		else
			snprintf(one, sizeof(one), "%s", names[i].name);
		/* snprintf at the end of what fits: the length grows, the text is cut */
		at += (size_t)snprintf(at < len ? buf + at : NULL, at < len ? len - at : 0, "%s%s", at ? "," : "", one);
	}
	return (int)at;
}
