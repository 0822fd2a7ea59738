/* SPDX-License-Identifier: MIT */
/* CPU identification, as perf spells it: x86 Vendor-Family-Model-Stepping,
 * arm64 MIDR_EL1, riscv mvendorid-marchid-mimpid. */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "cpu.h"
#include "context.h"
#include "error.h"
#include "util.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

static void x86_format(struct pmu_cpu *c)
{
	snprintf(c->cpuid, sizeof(c->cpuid), "%s-%u-%X-%X", c->vendor, c->family, c->model,
		 c->stepping);
}

static void arm64_format(struct pmu_cpu *c)
{
	snprintf(c->cpuid, sizeof(c->cpuid), "0x%016llx", (unsigned long long)c->midr);
}

static void riscv_format(struct pmu_cpu *c)
{
	snprintf(c->cpuid, sizeof(c->cpuid), "0x%llx-0x%llx-0x%llx",
		 (unsigned long long)c->mvendorid, (unsigned long long)c->marchid,
		 (unsigned long long)c->mimpid);
}

static int parse_hex(const char *s, size_t n, uint64_t *out)
{
	char tmp[32];

	if (n == 0 || n >= sizeof(tmp))
		return -EINVAL;
	memcpy(tmp, s, n);
	tmp[n] = 0;
	if (strncasecmp(tmp, "0x", 2) != 0)
		return -EINVAL;
	return pmu__parse_u64(tmp, out);
}

/* "GenuineIntel-6-55[-4]", "0x00000000410fd0c0", "0x489-0x8000000000000007-0x4210427" */
int pmu__cpu_parse_id(const char *id, struct pmu_cpu *c)
{
	const char *d1, *d2;

	memset(c, 0, sizeof(*c));
	if (!id || !*id || strlen(id) >= sizeof(c->cpuid))
		return -EINVAL;
	if (strncasecmp(id, "0x", 2) == 0) {
		d1 = strchr(id, '-');
		if (!d1) {
			if (parse_hex(id, strlen(id), &c->midr) < 0)
				return -EINVAL;
			c->arch = PMU_ARCH_ARM64;
			arm64_format(c);
			return 0;
		}
		d2 = strchr(d1 + 1, '-');
		if (!d2 || parse_hex(id, (size_t)(d1 - id), &c->mvendorid) < 0 ||
		    parse_hex(d1 + 1, (size_t)(d2 - d1 - 1), &c->marchid) < 0 ||
		    parse_hex(d2 + 1, strlen(d2 + 1), &c->mimpid) < 0)
			return -EINVAL;
		c->arch = PMU_ARCH_RISCV;
		pmu__strlcpy(c->cpuid, id, sizeof(c->cpuid));
		return 0;
	} else {
		char vendor[16], *end;
		unsigned long fam, model, step = 0;

		d1 = strchr(id, '-');
		if (!d1 || (size_t)(d1 - id) >= sizeof(vendor) || d1 == id)
			return -EINVAL;
		memcpy(vendor, id, (size_t)(d1 - id));
		vendor[d1 - id] = 0;
		if (!isdigit((unsigned char)d1[1]))
			return -EINVAL;
		fam = strtoul(d1 + 1, &end, 10);
		if (*end != '-' || !isxdigit((unsigned char)end[1]))
			return -EINVAL;
		model = strtoul(end + 1, &end, 16);
		if (*end == '-') {
			if (!isxdigit((unsigned char)end[1]))
				return -EINVAL;
			step = strtoul(end + 1, &end, 16);
		}
		if (*end || fam > 0x1ff || model > 0xff || step > 0xf)
			return -EINVAL;
		c->arch = PMU_ARCH_X86;
		pmu__strlcpy(c->vendor, vendor, sizeof(c->vendor));
		c->family = (unsigned)fam;
		c->model = (unsigned)model;
		c->stepping = (unsigned)step;
		if (strchr(d1 + 1, '-') && strchr(strchr(d1 + 1, '-') + 1, '-'))
			x86_format(c);
		else
			snprintf(c->cpuid, sizeof(c->cpuid), "%s-%u-%X", c->vendor, c->family, c->model);
		return 0;
	}
}

/* Value of "key : value" in the first processor block of cpuinfo. */
static bool cpuinfo_get(const char *info, const char *key, char *val, size_t len)
{
	const char *p = info;
	size_t kl = strlen(key);

	while (p && *p) {
		const char *eol = strchr(p, '\n');
		size_t ll = eol ? (size_t)(eol - p) : strlen(p);

		if (ll == 0 && p != info)
			break; /* end of the first block */
		if (ll > kl && strncmp(p, key, kl) == 0 && (p[kl] == ' ' || p[kl] == '\t' || p[kl] == ':')) {
			const char *c = memchr(p, ':', ll);
			if (c) {
				size_t off = (size_t)(c + 1 - p), n;
				while (off < ll && isspace((unsigned char)p[off]))
					off++;
				n = ll - off;
				if (n >= len)
					n = len - 1;
				memcpy(val, p + off, n);
				val[n] = 0;
				return true;
			}
		}
		p = eol ? eol + 1 : NULL;
	}
	return false;
}

static int from_cpuinfo(struct pmu_ctx *ctx, struct pmu_cpu *c)
{
	char path[512], v[128];
	char *info;
	int r;

	if (pmu__path(path, sizeof(path), "%s/cpuinfo", ctx->procfs_root) < 0)
		return -ENAMETOOLONG;
	info = malloc(65536);
	if (!info)
		return -ENOMEM;
	r = pmu__read_file(path, info, 65536);
	if (r < 0) {
		free(info);
		return r;
	}
	memset(c, 0, sizeof(*c));
	if (cpuinfo_get(info, "vendor_id", v, sizeof(v))) {
		c->arch = PMU_ARCH_X86;
		pmu__strlcpy(c->vendor, v, sizeof(c->vendor));
		if (cpuinfo_get(info, "cpu family", v, sizeof(v)))
			c->family = (unsigned)strtoul(v, NULL, 10);
		if (cpuinfo_get(info, "model", v, sizeof(v)))
			c->model = (unsigned)strtoul(v, NULL, 10);
		if (cpuinfo_get(info, "stepping", v, sizeof(v)))
			c->stepping = (unsigned)strtoul(v, NULL, 10);
		if (cpuinfo_get(info, "model name", v, sizeof(v)))
			pmu__strlcpy(c->name, v, sizeof(c->name));
		x86_format(c);
	} else if (cpuinfo_get(info, "CPU implementer", v, sizeof(v))) {
		uint64_t impl = strtoull(v, NULL, 0), var = 0, part = 0, rev = 0, arch = 0xf;
		c->arch = PMU_ARCH_ARM64;
		if (cpuinfo_get(info, "CPU variant", v, sizeof(v)))
			var = strtoull(v, NULL, 0);
		if (cpuinfo_get(info, "CPU part", v, sizeof(v)))
			part = strtoull(v, NULL, 0);
		if (cpuinfo_get(info, "CPU revision", v, sizeof(v)))
			rev = strtoull(v, NULL, 0);
		/* a kernel without sysfs's midr_el1 (from_midr): the register rebuilt from its fields */
		c->midr = (impl & 0xff) << 24 | (var & 0xf) << 20 | arch << 16 | (part & 0xfff) << 4 |
			  (rev & 0xf);
		arm64_format(c);
	} else if (cpuinfo_get(info, "mvendorid", v, sizeof(v))) {
		c->arch = PMU_ARCH_RISCV;
		c->mvendorid = strtoull(v, NULL, 0);
		if (cpuinfo_get(info, "marchid", v, sizeof(v)))
			c->marchid = strtoull(v, NULL, 0);
		if (cpuinfo_get(info, "mimpid", v, sizeof(v)))
			c->mimpid = strtoull(v, NULL, 0);
		if (cpuinfo_get(info, "uarch", v, sizeof(v)))
			pmu__strlcpy(c->name, v, sizeof(c->name));
		riscv_format(c);
	} else {
		free(info);
		return -ENOENT;
	}
	free(info);
	return 0;
}

#if defined(__x86_64__) || defined(__i386__)
/* The processor brand string (cpuid 0x80000002-4) into @name, leading blanks and trailing white space
 * dropped, as the kernel's /proc/cpuinfo shows it (CPUs pad it to 48 bytes); "" if absent. */
static void x86_brand(char *name, size_t len)
{
	unsigned a, b, c, d, w[12];
	char s[49], *p = s, *e;

	*name = 0;
	__cpuid(0x80000000, a, b, c, d);
	if (a < 0x80000004)
		return;
	for (unsigned i = 0; i < 3; i++)
		__cpuid(0x80000002 + i, w[4 * i], w[4 * i + 1], w[4 * i + 2], w[4 * i + 3]);
	memcpy(s, w, 48);
	s[48] = 0;
	while (*p == ' ')
		p++;
	for (e = p + strlen(p); e > p && isspace((unsigned char)e[-1]); e--)
		e[-1] = 0;
	pmu__strlcpy(name, p, len);
}

/*
 * Vendor, family, model, stepping from the cpuid instruction; the model name only if @with_name.
 * Each cpuid is counted: in a virtual machine every one exits to the hypervisor (8 us each on the
 * development VM, where the previous code's 12 — __get_cpuid asks for the highest leaf before each
 * leaf — were a quarter of pmu_ctx_new). Here: 2, and 4 more for the name.
 */
static int from_cpuid_insn(struct pmu_cpu *c, bool with_name)
{
	unsigned max, a, b, cc, d;

	memset(c, 0, sizeof(*c));
#ifdef __x86_64__
	__cpuid(0, max, b, cc, d); /* every x86-64 processor has the instruction */
#else
	if (!__get_cpuid(0, &max, &b, &cc, &d)) /* checks that it exists first */
		return -ENOENT;
#endif
	if (max < 1)
		return -ENOENT;
	memcpy(c->vendor, &b, 4);
	memcpy(c->vendor + 4, &d, 4);
	memcpy(c->vendor + 8, &cc, 4);
	c->vendor[12] = 0;
	__cpuid(1, a, b, cc, d);
	c->family = (a >> 8) & 0xf;
	c->model = (a >> 4) & 0xf;
	c->stepping = a & 0xf;
	if (c->family == 0xf)
		c->family += (a >> 20) & 0xff;
	if (c->family == 6 || c->family >= 0xf)
		c->model += ((a >> 16) & 0xf) << 4;
	if (with_name)
		x86_brand(c->name, sizeof(c->name));
	c->arch = PMU_ARCH_X86;
	x86_format(c);
	return 0;
}
#endif

/* An arm64 kernel's MIDR_EL1 of CPU 0, as sysfs gives it (one small file, the exact register): 0, or
 * -ENOENT where sysfs has none (another architecture, a kernel before 4.11). */
static int from_midr(struct pmu_ctx *ctx, struct pmu_cpu *c)
{
	char path[512], v[64];
	uint64_t midr;

	if (pmu__path(path, sizeof(path), "%s/devices/system/cpu/cpu0/regs/identification/midr_el1",
		      ctx->sysfs_root) < 0 || pmu__read_file(path, v, sizeof(v)) <= 0 || pmu__parse_u64(v, &midr) < 0)
		return -ENOENT;
	memset(c, 0, sizeof(*c));
	c->arch = PMU_ARCH_ARM64;
	c->midr = midr;
	arm64_format(c);
	return 0;
}

/* This machine's CPU: on x86 from the cpuid instruction, unless a test gives another procfs root; on
 * arm64 from sysfs's midr_el1; else cpuinfo (the kernel formats /proc/cpuinfo for every CPU at each
 * read: 50 us on a 2-CPU VM, more with more CPUs). @with_name: the model name too (cpuinfo has it
 * either way; arm64's has none). */
static int this_cpu(struct pmu_ctx *ctx, struct pmu_cpu *c, bool with_name)
{
#if defined(__x86_64__) || defined(__i386__)
	if (strcmp(ctx->procfs_root, "/proc") == 0 && from_cpuid_insn(c, with_name) == 0)
		return 0;
#else
	(void)with_name;
#endif
	if (from_midr(ctx, c) == 0)
		return 0;
	return from_cpuinfo(ctx, c);
}

int pmu__cpu_detect(struct pmu_ctx *ctx, const char *override)
{
	struct pmu_cpu found;
	int r;

	if (override && *override) {
		r = pmu__cpu_parse_id(override, &ctx->cpu);
		if (r < 0)
			return pmu__err(ctx, -EINVAL,
					"malformed CPU identifier '%s' (PMU_CPUID): expected Vendor-Family-Model[-Stepping] "
					"(GenuineIntel-6-55-4), an arm64 MIDR (0x00000000410fd0c0) or "
					"mvendorid-marchid-mimpid (0x489-0x8000000000000007-0x4210427)",
					override);
		ctx->cpu.overridden = true;
		/* keep the model name from this machine only if it is the same CPU (asked for then only) */
		if ((r = this_cpu(ctx, &found, false)) == -ENOMEM)
			return pmu__err(ctx, r, "out of memory reading %s/cpuinfo", ctx->procfs_root);
		if (r == 0 && strcmp(found.cpuid, ctx->cpu.cpuid) == 0) {
#if defined(__x86_64__) || defined(__i386__)
			if (!found.name[0] && strcmp(ctx->procfs_root, "/proc") == 0)
				x86_brand(found.name, sizeof(found.name));
#endif
			pmu__strlcpy(ctx->cpu.name, found.name, sizeof(ctx->cpu.name));
		}
		return 0;
	}
	r = this_cpu(ctx, &ctx->cpu, true);
	if (r == -ENOMEM)
		return pmu__err(ctx, r, "out of memory reading %s/cpuinfo to identify the CPU", ctx->procfs_root);
	if (r < 0) {
		memset(&ctx->cpu, 0, sizeof(ctx->cpu));
		pmu__log(ctx, PMU_LOG_WARN, "cannot identify the CPU from %s/cpuinfo (%s); "
			 "set PMU_CPUID to choose the event tables", ctx->procfs_root, strerror(-r));
#if defined(__x86_64__) || defined(__i386__)
		ctx->cpu.arch = PMU_ARCH_X86;
#elif defined(__aarch64__)
		ctx->cpu.arch = PMU_ARCH_ARM64;
#elif defined(__riscv)
		ctx->cpu.arch = PMU_ARCH_RISCV;
#endif
	}
	return 0;
}
