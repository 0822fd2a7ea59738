/* SPDX-License-Identifier: MIT */
/* pmu report's reader: bounded reading, strict parsing, the schema's check,
 * values read out of a checked document (report-read.h). */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "jsonparse.h"
#include "report-read.h"

/* ---------------- reading and parsing ---------------- */

/* JSON values allowed in a file: each object or array counts this many, as
 * json-c spends far more on them (about 0.8 KB an empty object) */
#define CONTAINER_COST 8
#define MAX_COST 4000000

/*
 * One pass over the text before its json-c objects are built: the memory they
 * would take (MAX_COST), and \u0000, which the names read from the file, C
 * strings, would cut short (no name libpmu writes has one; lib/jsonparse.c
 * refuses it in a key). 0 or -EINVAL.
 */
static int prescan(const char *name, const char *text, size_t len, char **err)
{
	size_t cost = 1;
	bool in_str = false;

	for (size_t i = 0; i < len; i++) {
		char c = text[i];
		if (in_str) {
			if (c == '\\' && i + 1 < len) {
				if (text[i + 1] == 'u' && i + 5 < len && !memcmp(text + i + 2, "0000", 4))
					return report_fail(err, -EINVAL, "'%s': a string holds \\u0000 (byte %zu): no report "
						           "libpmu writes has one", name, i);
				i++;
			} else if (c == '"') {
				in_str = false;
			}
			continue;
		}
		if (c == '"')
			in_str = true;
		else if (c == '{' || c == '[')
			cost += CONTAINER_COST;
		else if (c == ',')
			cost++;
		if (cost > MAX_COST)
			return report_fail(err, -EINVAL, "'%s': too many JSON values to read (over %d, counting an object or "
				           "array as %d: reading it would take gigabytes); no report libpmu writes comes "
				           "near: is it the right file?", name, MAX_COST, CONTAINER_COST);
	}
	return 0;
}

int report_parse(const char *name, const char *text, size_t len, json_object **doc, enum report_kind *kind,
		 char **err)
{
	struct pmu_json_error je;
	json_object *o, *sc = NULL;
	const char *sv;
	int r;

	*doc = NULL;
	*err = NULL;
	if ((r = prescan(name, text, len, err)) < 0)
		return r;
	/* depth 16: the schemas need 6; deeper is not a report, and costs stack. NaN and Infinity taken, to
	 * be refused by the schema's check, which names their key */
	r = pmu__json_parse(text, len, 16, PMU_JSON_NONFINITE, &o, &je);
	if (r == -ENOMEM)
		return report_fail(err, -ENOMEM, "'%s': out of memory", name);
	if (r < 0)
		return report_fail(err, -EINVAL, "'%s' is not JSON: line %zu (byte %zu): %s", name, je.line, je.offset, je.what);
	if (!o || !json_object_is_type(o, json_type_object)) {
		/* the type is named before the document is freed */
		r = report_fail(err, -EINVAL, "'%s' is neither a 'pmu stat --json' file nor a region report: a JSON "
			        "object is expected, it holds %s", name, json_type_to_name(json_object_get_type(o)));
		json_object_put(o);
		return r;
	}
	sv = json_object_object_get_ex(o, "schema", &sc) && json_object_is_type(sc, json_type_string) ?
		     json_object_get_string(sc) : NULL;
	*kind = sv && !strcmp(sv, "libpmu-stat/1")	? REPORT_STAT :
		sv && !strcmp(sv, "libpmu-regions/1") ? REPORT_REGIONS : 0;
	if (!*kind && sv && !strcmp(sv, "libpmu-report-regions/1")) {
		r = report_fail(err, -EINVAL, "'%s' is a merged report already (libpmu-report-regions/1: 'pmu report --json' "
			        "of region reports, or libpmu-mpi's job report): read it as JSON; pmu report merges the "
			        "ranks' own reports (PMU_MPI_PER_RANK=1 writes them beside the job report)", name);
		json_object_put(o);
		return r;
	}
	if (!*kind) {
		char what[96];
		if (json_object_object_get_ex(o, "schema", &sc))
			what_found(sc, what, sizeof(what));
		r = report_fail(err, -EINVAL, "'%s' is neither a 'pmu stat --json' file nor a region report: its key "
			        "'schema' should be \"libpmu-stat/1\" or \"libpmu-regions/1\"%s%s", name,
			        sc ? ", not " : ", and it has none", sc ? what : "");
		json_object_put(o);
		return r;
	}
	if ((r = schema_check(o, *kind, name, err)) < 0) {
		json_object_put(o);
		return r;
	}
	*doc = o;
	return 0;
}

int report_load(const char *path, json_object **doc, enum report_kind *kind, char **err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), r;
	size_t len = 0, cap = 0;
	char *buf = NULL;
	struct stat st;

	*doc = NULL;
	*err = NULL;
	if (fd < 0)
		return report_fail(err, -errno, "cannot read '%s': %s", path, strerror(errno));
	/* a regular file's size is known; a FIFO, a process substitution, a device is read up to the bound */
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > (off_t)REPORT_MAX_BYTES) {
		close(fd);
		return report_fail(err, -EINVAL, "'%s' is larger than %u MiB: far larger than any report libpmu writes; "
			           "is it the right file?", path, REPORT_MAX_BYTES >> 20);
	}
	for (;;) {
		ssize_t n;
		if (len + 1 >= cap) { /* room for the text and its NUL */
			char *nb;
			cap = cap ? 2 * cap : 65536;
			if (cap > (size_t)REPORT_MAX_BYTES + 2)
				cap = (size_t)REPORT_MAX_BYTES + 2;
			if (len + 1 >= cap) {
				free(buf);
				close(fd);
				return report_fail(err, -EINVAL, "'%s' goes on past %u MiB (a device or a pipe that does not "
					           "end?): far larger than any report libpmu writes; not read further",
					           path, REPORT_MAX_BYTES >> 20);
			}
			if (!(nb = realloc(buf, cap))) {
				free(buf);
				close(fd);
				return report_fail(err, -ENOMEM, "'%s': out of memory", path);
			}
			buf = nb;
		}
		n = read(fd, buf + len, cap - 1 - len);
		if (n == 0)
			break;
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			r = -errno;
			free(buf);
			close(fd);
			return report_fail(err, r, "cannot read '%s': %s", path, strerror(-r));
		}
		len += (size_t)n;
	}
	close(fd);
	buf[len] = 0;
	r = report_parse(path, buf, len, doc, kind, err);
	free(buf);
	return r;
}

/* ---------------- values of a checked document ---------------- */

const char *str_at(json_object *o, const char *key)
{
	json_object *x;

	return json_object_object_get_ex(o, key, &x) && json_object_is_type(x, json_type_string) ?
		       json_object_get_string(x) : NULL;
}

uint64_t count_at(json_object *o, const char *key)
{
	json_object *x;

	return json_object_object_get_ex(o, key, &x) && is_int64(x) && json_object_get_int64(x) > 0 ?
		       (uint64_t)json_object_get_int64(x) : 0;
}

int name_ok(json_object *o, const char *key, size_t max, const struct seg *at, const char *file, char **err)
{
	struct seg in = { at, key, 0 };
	json_object *x;
	size_t len;

	if (!json_object_object_get_ex(o, key, &x))
		return refuse_at(at, file, err, "the key '%s' is missing", key);
	len = (size_t)json_object_get_string_len(x);
	if (len != strlen(json_object_get_string(x)))
		return refuse_at(&in, file, err, "holds a NUL character");
	if (max && len >= max)
		return refuse_at(&in, file, err, "%zu bytes long: libpmu writes them under %zu", len, max);
	return 0;
}

int add_count(uint64_t *sum, json_object *o, const char *key, const struct seg *at, const char *file,
	      char **err)
{
	struct seg in = { at, key, 0 };

	if (__builtin_add_overflow(*sum, count_at(o, key), sum))
		return refuse_at(&in, file, err, "the sum over the files exceeds 2^64-1");
	return 0;
}

int times_ok(json_object *e, const struct seg *at, const char *file, char **err)
{
	uint64_t en = count_at(e, "enabled_ns"), run = count_at(e, "running_ns");

	if (run > en)
		return refuse_at(at, file, err, "running_ns (%" PRIu64 ") exceeds enabled_ns (%" PRIu64 "): a counter "
				 "runs only while it is enabled", run, en);
	return 0;
}
