/* SPDX-License-Identifier: MIT */
/* Comma-separated name lists ("cycles,instructions"), the same rules in the library and the pmu
 * command (lib/namelist.c is compiled into both). Names compare case-insensitively, spaces around
 * an item are not part of it. */
#ifndef PMU_NAMELIST_H
#define PMU_NAMELIST_H
#include <stdbool.h>

/* Is @name one of the items of @list (NULL: none)? */
bool pmu__names_has(const char *list, const char *name);
/* Is any item of @names (NULL: none) one of the items of @list? */
bool pmu__names_any(const char *list, const char *names);
/* Append to the malloc'd list *@list (NULL: empty) each item of @names that @keep (when not NULL)
 * accepts and the list does not have yet. @keep is asked about every item, in order: 0 keeps it, a
 * positive value leaves it out, a negative one stops. Returns 0, that negative value (the list
 * holds what was added before), or -ENOMEM. */
int pmu__names_add_new(char **list, const char *names, int (*keep)(const char *name, void *data), void *data);

#endif
