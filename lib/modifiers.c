/* SPDX-License-Identifier: MIT */
/* Event modifiers: the letters after ':' (or after PMU/.../) recognised, parsed, refused by name
 * when libpmu does not take them, applied to an encoding, and written into a label. Depends on the
 * error convention only. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pmu.h"
#include "modifiers.h"
#include "error.h"

/*
 * Modifiers: the letters perf writes after ':' (or after the closing '/' of
 * PMU/.../). libpmu takes those that mean something for counting: the modes
 * u, k, h; p, pp, ppp (precise_ip); G, H (guest, host); D (pinned); S (no
 * effect). perf's others are recognised, so that they are refused by name.
 */
#define MOD_LETTERS "ukhpGHDSPIWbR"

struct mods {
	unsigned incl;          /* PMU_EVF_EXCL_* bits of the modes named (u, k, h) */
	unsigned precise;       /* number of p */
	bool guest, host, pinned, sample_read;
};

static const char *refused_mod(char c)
{
	switch (c) {
	case 'P': return "perf's 'highest precise level the PMU has', which libpmu does not probe: write p, pp or ppp";
	case 'I': return "perf's exclude_idle, which libpmu does not set";
	case 'W': return "perf's weak group, which libpmu does not emulate: a group that does not fit fails to open "
			 "(split it, or list the events without braces)";
	case 'b': return "perf's BPF counters, which libpmu does not use";
	case 'R': return "perf's retire latency, a sampling feature";
	}
	return NULL;
}

#define MODS_ACCEPTED "u, k, h (user, kernel, hypervisor mode), p, pp, ppp (precise_ip), G (guest only), H (host only), " \
		      "D (pinned), S (accepted, no effect when counting)"

const char pmu__mods_accepted[] = MODS_ACCEPTED;

static int parse_mods(struct pmu_ctx *ctx, const char *name, const char *mods, struct mods *m)
{
	memset(m, 0, sizeof(*m));
	for (const char *c = mods ? mods : ""; *c; c++) {
		unsigned bit = 0;
		bool *seen = NULL;
		switch (*c) {
		case 'u': bit = PMU_EVF_EXCL_USER; break;
		case 'k': bit = PMU_EVF_EXCL_KERNEL; break;
		case 'h': bit = PMU_EVF_EXCL_HV; break;
		case 'G': seen = &m->guest; break;
		case 'H': seen = &m->host; break;
		case 'D': seen = &m->pinned; break;
		case 'S': seen = &m->sample_read; break;
		case 'p':
			if (++m->precise > 3)
				return pmu__err(ctx, -EINVAL, "event '%s': ':%s' has more than three p; precise_ip goes "
						"from p (1) to ppp (3)", name, mods);
			continue;
		default:
			if (refused_mod(*c))
				return pmu__err(ctx, -EINVAL, "event '%s': modifier '%c' is %s; libpmu takes %s", name, *c,
						refused_mod(*c), MODS_ACCEPTED);
			return pmu__err(ctx, -EINVAL, "event '%s': '%c' is not a modifier; libpmu takes %s", name, *c,
					MODS_ACCEPTED);
		}
		if (bit ? (m->incl & bit) != 0 : *seen)
			return pmu__err(ctx, -EINVAL, "event '%s': modifier '%c' is written twice in ':%s'; write it once",
					name, *c, mods);
		if (bit)
			m->incl |= bit;
		else
			*seen = true;
	}
	return 0;
}

bool pmu__is_mods(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!strchr(MOD_LETTERS, *s))
			return false;
	return true;
}

/* Is @s, the part of @name after its last ':', modifiers? After libpfm4's PMU::EVENT only u, k, h are:
 * libpfm4 reads the rest itself (Core 2 umasks are named S, I, ...). */
bool pmu__is_mods_of(const char *name, const char *s)
{
	return strstr(name, "::") ? strspn(s, "ukh") == strlen(s) && *s : pmu__is_mods(s);
}

size_t pmu__mode_base(const char *name)
{
	const char *slash = strrchr(name, '/'), *colon = strrchr(name, ':');

	if (slash)
		return (size_t)(slash + 1 - name);
	if (colon && colon > name && colon[-1] != ':' && pmu__is_mods_of(name, colon + 1))
		return (size_t)(colon - name);
	return strlen(name);
}

int pmu__intel_mod(const char *tok, const char **term, unsigned long long *value)
{
	const char *v;
	char *end;
	unsigned long long x;

	if (!tok[0] || !strchr("ceiu", tok[0]))
		return -EINVAL; /* (an empty token: v would be past its end) */
	v = tok + 1 + (tok[1] == '=');
	end = (char *)v;
	x = *v ? strtoull(v, &end, 0) : 1;
	if (*end || (tok[0] == 'u' && !*v) || *v == '-' ||
	    (tok[0] == 'c' || tok[0] == 'u' ? x > 255 : x > 1))
		return -EINVAL;
	*term = tok[0] == 'c' ? "cmask" : tok[0] == 'e' ? "edge" : tok[0] == 'i' ? "inv" : "umask";
	*value = x;
	return 0;
}

/* The Intel modifiers of @name's first @b bytes, "BASE:c1:e1" (perf's modes among them left out), as
 * format terms after BASE into @out: "BASE,cmask=1,edge=1"; their modes appended to @modes. 0, -EINVAL
 * (a token that is neither), or -ENAMETOOLONG. */
static int intel_terms(const char *name, size_t b, char *out, size_t len, char *modes, size_t mlen)
{
	const char *colon = memchr(name, ':', b);
	size_t o, base = colon ? (size_t)(colon - name) : b;

	if ((o = (size_t)snprintf(out, len, "%.*s", (int)base, name)) >= len)
		return -ENAMETOOLONG;
	for (const char *t = colon; t && t < name + b;) {
		const char *next = memchr(t + 1, ':', (size_t)(name + b - t - 1));
		size_t tl = (size_t)((next ? next : name + b) - t - 1);
		char tok[64];
		const char *term;
		unsigned long long x;
		if (tl >= sizeof(tok))
			return -EINVAL;
		memcpy(tok, t + 1, tl);
		tok[tl] = 0;
		t = next;
		if (!strcmp(tok, "perf_metrics"))
			continue; /* the SLOTS event as topdown opens it anyway */
		if (pmu__is_mods(tok)) {
			size_t m = strlen(modes);
			if (m + tl >= mlen)
				return -ENAMETOOLONG;
			memcpy(modes + m, tok, tl + 1);
			continue;
		}
		if (pmu__intel_mod(tok, &term, &x) < 0)
			return -EINVAL;
		if ((o += (size_t)snprintf(out + o, len - o, ",%s=%#llx", term, x)) >= len)
			return -ENAMETOOLONG;
	}
	return 0;
}

bool pmu__intel_mods_only(const char *name)
{
	char base[PMU_NAME_MAX + 64], modes[32] = "";
	size_t b = pmu__mode_base(name);

	return memchr(name, ':', b) && !memchr(name, '/', b) &&
	       intel_terms(name, b, base, sizeof(base), modes, sizeof(modes)) == 0;
}

int pmu__name_on_pmu(char *buf, size_t len, const char *pmu, const char *name)
{
	size_t b = pmu__mode_base(name);
	char base[PMU_NAME_MAX + 64], modes[32] = "";
	int r;

	/* Intel's modifiers of a table event (INST_RETIRED.ANY:c1:u): the format terms they set */
	if (memchr(name, ':', b) && !memchr(name, '/', b)) {
		if ((r = intel_terms(name, b, base, sizeof(base), modes, sizeof(modes))) < 0)
			return r;
		return (size_t)snprintf(buf, len, "%s/%s/%s%s", pmu, base, modes, name + b + (name[b] == ':')) < len ?
			       0 : -ENAMETOOLONG;
	}
	return (size_t)snprintf(buf, len, "%s/%.*s/%s", pmu, (int)b, name, name + b + (name[b] == ':')) < len ?
		       0 : -ENAMETOOLONG;
}

/*
 * The label of @name with modifiers @mods: the letters of @name that are not
 * modes (p, D, G, ...), then @mods, each letter once (p as often as written):
 * "cycles:p" + "u" is "cycles:pu" (perf appends the 'u' of its user-mode
 * fallback the same way), "cycles:k" + "u" is "cycles:u".
 */
int pmu__label_mode(char *out, size_t len, const char *name, const char *mods)
{
	size_t base = pmu__mode_base(name), k = 0;
	const char *old = name + base;
	bool slash = base && name[base - 1] == '/';
	char m[32];
	int n;

	if (*old == ':')
		old++;
	for (const char *c = old; *c && k < sizeof(m) - 1; c++)
		if (!strchr("ukh", *c))
			m[k++] = *c;
	for (const char *c = mods; *c && k < sizeof(m) - 1; c++)
		if (*c == 'p' || !memchr(m, *c, k))
			m[k++] = *c;
	m[k] = 0;
	n = snprintf(out, len, "%.*s%s%s", (int)base, name, slash || !k ? "" : ":", m);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

/*
 * Apply the event's own modifiers @mods and its {group}'s @group_mods to
 * @out. Modes: each string's letters name what it counts and exclude the
 * rest, so "{a:u}:uk" counts user mode. precise_ip adds up ("{a:p}:p" is 2,
 * as in perf, at most 3). G and H together count both; either alone
 * excludes the other side; p without G or H excludes the guest (perf's
 * rule). A group's modifiers are not in the event's name: the label gets
 * them ("{cycles,instructions}:u" labels "cycles:u"). *@mode_written: a
 * mode (u, k, h) was written, so the event is opened exactly so.
 */
int pmu__mods_apply(struct pmu_ctx *ctx, const char *name, const char *mods, const char *group_mods,
		    struct pmu_event_info *out, bool *mode_written)
{
	const unsigned all = PMU_EVF_EXCL_USER | PMU_EVF_EXCL_KERNEL | PMU_EVF_EXCL_HV;
	struct mods a, g;
	unsigned precise;
	int r;

	if ((r = parse_mods(ctx, name, mods, &a)) < 0 || (r = parse_mods(ctx, name, group_mods, &g)) < 0)
		return r;
	if ((out->flags & PMU_EVF_TOOL) && ((mods && *mods) || (group_mods && *group_mods)))
		return pmu__err(ctx, -EINVAL, "event '%s': a tool event is measured by libpmu, not by the kernel: "
				"modifiers do not apply to it; write it without", name);
	if (a.incl)
		out->flags |= all & ~a.incl;
	if (g.incl)
		out->flags |= all & ~g.incl;
	precise = PMU_EVF_PRECISE_IP(out->flags) + a.precise + g.precise;
	if (precise > 3)
		return pmu__err(ctx, -EINVAL, "event '%s' in a group with ':%s': precise_ip would be %u; the event's p and "
				"the group's add up to at most 3 (ppp)", name, group_mods, precise);
	out->flags = (out->flags & ~(unsigned)PMU_EVF_PRECISE) | precise << 14;
	if (a.guest || a.host || g.guest || g.host) {
		if (!a.guest && !g.guest)
			out->flags |= PMU_EVF_EXCL_GUEST;
		if (!a.host && !g.host)
			out->flags |= PMU_EVF_EXCL_HOST;
	} else if (precise) {
		out->flags |= PMU_EVF_EXCL_GUEST;
	}
	if (a.pinned || g.pinned)
		out->flags |= PMU_EVF_PINNED;
	if (mode_written)
		*mode_written = a.incl || g.incl;
	if (group_mods && *group_mods) {
		/* the label: the group's letters that are not modes, then the modes counted if one was written */
		char m[16];
		size_t k = 0;
		for (const char *c = group_mods; *c && k < 8; c++)
			if (!strchr("ukh", *c))
				m[k++] = *c;
		if (a.incl || g.incl) {
			if ((out->flags & all) == all)
				return pmu__err(ctx, -EINVAL, "event '%s' in a group with ':%s': its modifiers and the "
						"group's leave no mode to count; write the mode once", name, group_mods);
			if (!(out->flags & PMU_EVF_EXCL_USER))
				m[k++] = 'u';
			if (!(out->flags & PMU_EVF_EXCL_KERNEL))
				m[k++] = 'k';
			if (!(out->flags & PMU_EVF_EXCL_HV))
				m[k++] = 'h';
		}
		m[k] = 0;
		if (pmu__label_mode(out->name, sizeof(out->name), name, m) < 0)
			return pmu__err(ctx, -EINVAL, "event name '%s' is too long to add the group's ':%s' to", name,
					group_mods);
	}
	return 0;
}
