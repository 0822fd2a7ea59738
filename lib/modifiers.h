/* SPDX-License-Identifier: MIT */
/* Event modifiers (lib/modifiers.c). */
#ifndef PMU_MODIFIERS_H
#define PMU_MODIFIERS_H
#include <stdbool.h>
#include <stddef.h>

struct pmu_ctx;
struct pmu_event_info;

/* Length of @name without its mode modifiers: "cycles:uk" 6, "cpu/event=0x3c/u" 15 (up to the last '/'). */
size_t pmu__mode_base(const char *name);
/* @name ("INST.RET:u") spelled on PMU @pmu as the resolver takes it: "cpu_core/INST.RET/u"; Intel's
 * modifiers of a table event as the format terms they set: "INST_RETIRED.ANY:c1:u" is
 * "cpu_core/INST_RETIRED.ANY,cmask=0x1/u". 0, -EINVAL (a modifier neither Intel's nor perf's), or
 * -ENAMETOOLONG when it does not fit @len. */
int pmu__name_on_pmu(char *buf, size_t len, const char *pmu, const char *name);
/* Intel's modifier @tok of a table event (c<N> counter mask 0-255, e1 edge, i1 invert, u<mask> unit
 * mask 0-255; "c=1" too): the format term it sets ("cmask", "edge", "inv", "umask") and its value.
 * 0, or -EINVAL when @tok is none. */
int pmu__intel_mod(const char *tok, const char **term, unsigned long long *value);
/* Is @name "EVENT:tok:tok" with Intel's modifiers (perf's modes among them), and no PMU? */
bool pmu__intel_mods_only(const char *name);
/* The label of @name counted in modes @mods ("u", "uk"), as perf writes it: "cycles:u",
 * "cpu/event=0x3c/u" (a mode modifier @name had is replaced). 0, or -ENAMETOOLONG when it does not
 * fit @len. */
int pmu__label_mode(char *out, size_t len, const char *name, const char *mods);
/* The modifiers libpmu takes, as error messages list them. */
extern const char pmu__mods_accepted[];
/* Is @s (not empty) made of modifier letters only, perf's refused ones included? */
bool pmu__is_mods(const char *s);
/* Is @s, the part of @name after its last ':', modifiers? After libpfm4's PMU::EVENT only u, k, h. */
bool pmu__is_mods_of(const char *name, const char *s);
/* Apply @name's own modifiers @mods and its {group}'s @group_mods to @out (flags, and the label when
 * the group has some); *@mode_written (when not NULL): a mode u, k or h was written. 0 or -EINVAL
 * with the message set. */
int pmu__mods_apply(struct pmu_ctx *ctx, const char *name, const char *mods, const char *group_mods,
		    struct pmu_event_info *out, bool *mode_written);

#endif
