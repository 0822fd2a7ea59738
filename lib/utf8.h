/* SPDX-License-Identifier: MIT */
/* Text written where UTF-8 is required, the same in the library's region report and the pmu command
 * (lib/utf8.c is compiled into both: one rule, one source). */
#ifndef PMU_UTF8_H
#define PMU_UTF8_H
#include <stdio.h>

/* @s to @f with each byte that begins no valid UTF-8 sequence (RFC 3629: no overlong forms, no
 * surrogates, nothing above U+10FFFF) written as U+FFFD: a JSON document of names that hold other
 * bytes stays a valid one (pmu stat --json, the regions' JSON report). */
void pmu__write_utf8(FILE *f, const char *s);

#endif
