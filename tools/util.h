/* SPDX-License-Identifier: MIT */
/* Helpers of the pmu command shared by its subcommands and the report reader:
 * growing strings and lists (no fixed buffer holds what a user wrote), metric
 * lists split at top-level commas, JSON written valid, output whose write
 * errors are said. Functions return 0 or a negative errno. */
#ifndef PMU_TOOLS_UTIL_H
#define PMU_TOOLS_UTIL_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "textfmt.h" /* pmu__group_digits, pmu__scale_unit: shared with the library */

/* Append @sep (unless *@s is empty or NULL) and @add to the malloc'd string *@s. */
int str_append(char **s, const char *sep, const char *add);

/* A list of malloc'd strings. */
struct strv {
	char **v;
	size_t n;
};
int strv_add(struct strv *sv, const char *s, size_t len);
void strv_free(struct strv *sv);
/* Append the strings of @sv to JSON array @a (NULL does nothing); returns @a. */
json_object *strv_json(json_object *a, const struct strv *sv);

/* Append the metrics of @list to @sv: split at commas outside parentheses and
 * perf's PMU@EVENT@ terms, a backslash keeping the next character
 * (`max(a, b)` and `cpu@X\,cmask\=1@` are one metric each); spaces around an
 * item are dropped, empty items skipped. */
int strv_add_metrics(struct strv *sv, const char *list);

/* @v for JSON: NULL (null) unless finite, as JSON has no NaN or Infinity. */
json_object *jnum(double v);

/* Write @o to @f as JSON text (pretty, one newline after), each byte that is
 * not part of valid UTF-8 written as U+FFFD: JSON text is UTF-8, while
 * command arguments and names read from files need not be. */
void json_write(FILE *f, json_object *o);
/* The same on one line (JSON lines). */
void json_write_line(FILE *f, json_object *o);

/* Flush @f (and fclose it when @close); on a write error say "pmu: writing
 * @where: <why>" on stderr and return -errno. */
int out_finish(FILE *f, const char *where, bool close);
/* The text of the regular file @path (a written sysfs tree's: a FIFO or a device there is refused, not
 * waited on), at most @len - 1 bytes, NUL-terminated: its length, or -1 with errno set (EINVAL: not a
 * regular file). */
int read_text(const char *path, char *buf, size_t len);

/* Where counts are taken: this machine's node name (uname) in @host and the kernel's boot_id
 * (/proc/sys/kernel/random/boot_id, new at every boot) in @boot, each "" where unknown. Two runs with
 * the same boot_id ran on one machine, whatever its name. */
void node_identity(char *host, size_t hlen, char *boot, size_t blen);

#endif
