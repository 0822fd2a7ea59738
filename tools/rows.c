/* SPDX-License-Identifier: MIT */
/* The pmu command's rows: kept by name, an index making each lookup cost the same (rows.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "rows.h"

int64_t index_pos(json_object **index, const char *name, size_t next, bool *added)
{
	json_object *pos;

	*added = false;
	if (!*index && !(*index = json_object_new_object()))
		return -ENOMEM;
	if (json_object_object_get_ex(*index, name, &pos))
		return json_object_get_int64(pos);
	if (!(pos = json_object_new_int64((int64_t)next)) || json_object_object_add(*index, name, pos) < 0) {
		json_object_put(pos);
		return -ENOMEM;
	}
	*added = true;
	return (int64_t)next;
}

/* The index's key of event @name counted in @cgroup: the name, or "name<TAB>cgroup" (a tab is in no
 * event's name); NULL when it does not fit @len bytes */
static const char *row_key(char *buf, size_t len, const char *name, const char *cgroup)
{
	if (!cgroup || !*cgroup)
		return name;
	return (size_t)snprintf(buf, len, "%s\t%s", name, cgroup) < len ? buf : NULL;
}

struct stat_row *stat_rows_of(struct stat_rows *rs, const char *name, const char *cgroup, bool *added)
{
	char key[PMU_NAME_MAX + 16 + sizeof(rs->v->cgroup) + 2];
	const char *k = row_key(key, sizeof(key), name, cgroup);
	struct stat_row *row = k ? stat_rows_named(rs, k, added) : NULL;

	if (row && *added && cgroup)
		snprintf(row->cgroup, sizeof(row->cgroup), "%s", cgroup);
	return row;
}

struct stat_row *stat_rows_named(struct stat_rows *rs, const char *name, bool *added)
{
	char key[PMU_NAME_MAX + sizeof(rs->v->cgroup) + 2];
	int64_t at;

	*added = false;
	if (!rs->index) /* rows made without names looked up (one pmu stat run): index them now */
		for (size_t j = 0; j < rs->n; j++)
			if (index_pos(&rs->index, row_key(key, sizeof(key), rs->v[j].info.name, rs->v[j].cgroup), j,
				      added) < 0)
				return NULL;
	at = index_pos(&rs->index, name, rs->n, added);
	if (at < 0)
		return NULL;
	if (*added) {
		/* capacity doubles: a file of many events costs linear time */
		if ((rs->n & (rs->n - 1)) == 0 || !rs->v) {
			struct stat_row *nv = realloc(rs->v, (rs->n ? 2 * rs->n : 1) * sizeof(*nv));
			if (!nv) {
				json_object_object_del(rs->index, name);
				*added = false;
				return NULL;
			}
			rs->v = nv;
		}
		memset(&rs->v[rs->n], 0, sizeof(rs->v[0]));
		snprintf(rs->v[rs->n].info.name, sizeof(rs->v[0].info.name), "%s", name);
		rs->n++;
	}
	return &rs->v[at];
}

void stat_rows_free(struct stat_rows *rs)
{
	free(rs->v);
	json_object_put(rs->index);
	memset(rs, 0, sizeof(*rs));
}

const char **stat_rows_keys(struct stat_rows *rs)
{
	const char **keys = calloc(rs->n + 1, sizeof(*keys));

	if (!keys)
		return NULL;
	if (rs->index) { /* (rows read from a file have none: their keys are unknown) */
		json_object_object_foreach(rs->index, key, pos) {
			int64_t at = json_object_get_int64(pos);
			if (at >= 0 && (size_t)at < rs->n)
				keys[at] = key;
		}
	}
	for (size_t i = 0; i < rs->n; i++)
		if (!keys[i])
			goto fail;
	return keys;
fail:
	free(keys);
	return NULL;
}

bool row_same_in_units(const struct pmu_event_info *info)
{
	return ((info->flags & PMU_EVF_TOOL) && !strcmp(info->name, "duration_time")) ||
	       (info->flags & PMU_EVF_CPU_WIDE);
}

void stat_row_add(struct stat_row *row, const struct pmu_event_info *info, const struct pmu_value *v)
{
	if (row_same_in_units(info)) {
		if (v->enabled > row->v.enabled || (v->enabled == row->v.enabled && v->value > row->v.value))
			row->v = *v;
		return;
	}
	row->v.value += v->value;
	row->v.enabled += v->enabled;
	row->v.running += v->running;
}

bool label_is(const char *label, const char *name)
{
	size_t l = strlen(name);

	if (strncasecmp(label, name, l))
		return false;
	label += l;
	return !*label || *label == ':' || (l && name[l - 1] == '/' && strspn(label, "ukh") == strlen(label));
}
