/* SPDX-License-Identifier: MIT */
/* What lib/ files share that is no module's: the export and printf-format attributes and ARRAY_SIZE.
 * Each module's declarations are in its own header beside its .c (lib/README.md names them).
 * Private. */
#ifndef PMU_COMMON_H
#define PMU_COMMON_H

#define PMU_EXPORT __attribute__((visibility("default")))
#define PMU_PRINTF(a, b) __attribute__((format(printf, a, b)))
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#endif
