/* SPDX-License-Identifier: MIT */
/* Names written where others read them, by one rule each, the same in the library's region report and
 * the pmu command (lib/outtext.c is compiled into both: one rule, one source). A name is the caller's
 * bytes: a region name, an event label; each form gets them in a shape it cannot misread. */
#ifndef PMU_OUTTEXT_H
#define PMU_OUTTEXT_H
#include <stddef.h>
#include <stdio.h>

/* JSON: @s to @f with each byte that begins no valid UTF-8 sequence (RFC 3629: no overlong forms, no
 * surrogates, nothing above U+10FFFF) written as U+FFFD: a JSON document of names that hold other
 * bytes stays a valid one (pmu stat --json, the regions' JSON report). */
void pmu__write_utf8(FILE *f, const char *s);

/* Text for a terminal or a log: @s into @buf (@len bytes, cut to fit) with what would move the cursor,
 * change colours or end the line written out as C escapes: control characters (\n, \t, \e as \x1b, DEL,
 * U+0080-U+009F) and bytes that begin no valid UTF-8 sequence as \xHH, a backslash as \\. Returns @buf. */
char *pmu__printable(char *buf, size_t len, const char *s);

/* CSV (RFC 4180): @s to @f as one quoted cell, inner quotes doubled; a cell that a spreadsheet would
 * take for a formula (it begins with =, +, -, @, a tab or a carriage return) gets a leading ' (the
 * spreadsheets' mark of text), as OWASP advises for CSV injection. */
void pmu__csv_cell(FILE *f, const char *s);

#endif
