#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""pmu report on type-confused saved files.

A real 'pmu stat --json' file and a real region report (PMU_FORMAT=json) are
made here; then every key of each (and each array's first element, and the
document itself) is set in turn to null, a string, an array, an object, a
negative, a fraction, 1e308, 2^63, 2^64, NaN, Infinity, "NaN", a boolean, a
long string... and `pmu report` is run on each file. Every run must exit 0 or
2, never by a signal or with another status; 2 with one line naming the file
and the key.

The oracle for which files are refused is Python's jsonschema with the
schemas of tools/schemas/, refined as doc/command.md (once the README) says pmu report reads them:
integers are int64 (JSON Schema's, where 1.0 is one), numbers finite; keys a
file lacks are tolerated except those the reader needs (the schema's
"required" lists are what pmu stat writes, older files have fewer), and a
counter's running_ns is at most its enabled_ns; names fit the fields they go
to (an event name under 128 bytes, a PMU and a cpuid under 64).
"""
import copy
import json
import math
import os
import subprocess
import sys
import tempfile

PMU = os.environ['PMU_CLI']
SRC = os.environ['PMU_TEST_SRCDIR']
BUILD = os.environ['PMU_TEST_BUILDDIR']

try:
    import jsonschema
except ImportError:
    print("skip: python3-jsonschema is not installed (tests/deps.sh installs it)")
    sys.exit(77)

VALUES = [None, "str", "", [], {}, 1, -1, 1.5, 1e308, 2**63 - 1, 2**63, 2**64, float('nan'), float('inf'),
          "NaN", True, "x" * 200]
INT64 = (-2**63, 2**63)


def is_int64(c, x):
    if isinstance(x, bool):
        return False
    if isinstance(x, int):
        return INT64[0] <= x < INT64[1]
    return isinstance(x, float) and math.isfinite(x) and x.is_integer() and INT64[0] <= x < INT64[1]


def is_number(c, x):
    return is_int64(c, x) or (isinstance(x, float) and math.isfinite(x))


def without_required(s):
    if isinstance(s, dict):
        return {k: without_required(v) for k, v in s.items() if k != 'required'}
    if isinstance(s, list):
        return [without_required(v) for v in s]
    return s


base = jsonschema.Draft202012Validator
checker = base.TYPE_CHECKER.redefine_many({'integer': is_int64, 'number': is_number})
Validator = jsonschema.validators.extend(base, type_checker=checker)
schemas = {}
for kind, f in (('libpmu-stat/1', 'libpmu-stat-1.schema.json'), ('libpmu-regions/1', 'libpmu-regions-1.schema.json')):
    with open(os.path.join(SRC, 'tools/schemas', f)) as fh:
        schemas[kind] = Validator(without_required(json.load(fh)))


def counts_ok(e):
    """running_ns <= enabled_ns where both are counts pmu report reads"""
    if not isinstance(e, dict):
        return True
    en, run = e.get('enabled_ns', 0), e.get('running_ns', 0)
    return not (is_int64(None, en) and is_int64(None, run) and run > en)


def utf8_len(s):
    return len(s.encode('utf-8', 'surrogatepass'))


def accepted(d):
    """Does doc/command.md's reading of the schemas accept document d?"""
    if not isinstance(d, dict) or not isinstance(d.get('schema'), str) or d['schema'] not in schemas:
        return False
    if not schemas[d['schema']].is_valid(d):
        return False
    if d['schema'] == 'libpmu-stat/1':
        if 'events' not in d or (isinstance(d.get('cpuid'), str) and utf8_len(d['cpuid']) >= 64):
            return False
        for e in d['events']:
            if 'name' not in e or utf8_len(e['name']) >= 128 or utf8_len(e.get('pmu', '')) >= 64 or not counts_ok(e):
                return False
    else:
        if 'regions' not in d:
            return False
        for r in d['regions']:
            if 'name' not in r or not all(counts_ok(e) for e in r.get('events', {}).values()):
                return False
    return True


def no_constant(c):
    raise ValueError('not JSON: ' + c)


def paths(d, at=()):
    """every key, each array's first element, and the document itself"""
    yield at
    if isinstance(d, dict):
        for k, v in d.items():
            yield from paths(v, at + (k,))
    elif isinstance(d, list) and d:
        yield from paths(d[0], at + (0,))


def set_at(d, path, v):
    if not path:
        return copy.deepcopy(v)
    d = copy.deepcopy(d)
    x = d
    for p in path[:-1]:
        x = x[p]
    x[path[-1]] = copy.deepcopy(v)
    return d


def key_words(path):
    """what the message must name (one of): the last key, with the index after it if the path ends in
    one; for the document itself, that a JSON object is expected or its key 'schema'"""
    if not path:
        return ('a JSON object is expected', "its key 'schema'")
    if isinstance(path[-1], str):
        return (path[-1],)
    keys = [p for p in path if isinstance(p, str)]
    return ('%s[%d]' % (keys[-1], path[-1]),)


def report(*files):
    r = subprocess.run([PMU, 'report', *files], stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
    return r.returncode, r.stdout.decode('utf-8', 'replace'), r.stderr.decode('utf-8', 'replace')


def main(tmp):
    stat_file, reg_file = os.path.join(tmp, 'stat.json'), os.path.join(tmp, 'reg-%p.json')
    r = subprocess.run([PMU, 'stat', '-e', 'task-clock,page-faults,context-switches', '-M',
                        'page\\-faults / task\\-clock', '--json', '-o', stat_file, '--', 'true'],
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if r.returncode != 0:
        print("FAIL: pmu stat --json did not make a file to start from:", r.stderr.decode())
        return 1
    env = dict(os.environ, PMU_FORMAT='json', PMU_OUTPUT=reg_file)
    subprocess.run([os.path.join(BUILD, 'examples/matmul'), '32'], env=env, stdout=subprocess.DEVNULL, check=True)
    reg_file = [os.path.join(tmp, f) for f in os.listdir(tmp) if f.startswith('reg-')][0]
    fails = runs = refused = signals = wrong_ok = 0
    for src in (stat_file, reg_file):
        with open(src, 'rb') as fh:  # strict: what pmu and libpmu write is UTF-8 JSON, no NaN or Infinity
            doc = json.loads(fh.read().decode('utf-8'), parse_constant=no_constant)
        if not accepted(doc) or report(src)[0] != 0:
            print("FAIL: the real file %s is not accepted as it is" % src)
            return 1
        for path in list(paths(doc)):
            for v in VALUES:
                d = set_at(doc, path, v)
                f = os.path.join(tmp, 'variant.json')
                with open(f, 'w') as fh:
                    json.dump(d, fh)
                rc, out, err = report(f)
                runs += 1
                want = 0 if accepted(d) else 2
                refused += want == 2
                where = '/'.join(str(p) for p in path) or '(document)'
                bad = None
                signals += rc < 0
                wrong_ok += rc == 0 and want == 2
                if rc < 0 or rc > 2:
                    bad = 'exit status %d (%s)' % (rc, 'a signal' if rc < 0 else 'above 2')
                elif rc != want:
                    bad = 'exit status %d, the oracle says %d' % (rc, want)
                elif rc == 2:
                    lines = err.strip().split('\n')
                    if len(lines) != 1 or not lines[0].startswith('pmu report: ') or f not in lines[0]:
                        bad = 'not one line naming the file: %r' % err
                    elif not any(k in lines[0] for k in key_words(path)):
                        bad = 'the message does not name %r: %r' % (key_words(path), lines[0])
                if bad:
                    fails += 1
                    if fails <= 25:
                        print("FAIL: %s %s = %s: %s" % (os.path.basename(src), where, json.dumps(v)[:40], bad))
    print("%d type-confused files (%d refused by the oracle), %d failures: %d killed by a signal, %d accepted "
          "though the oracle refuses them" % (runs, refused, fails, signals, wrong_ok))
    return 1 if fails else 0


if __name__ == '__main__':
    with tempfile.TemporaryDirectory(prefix='pmu-report-types-') as work:
        sys.exit(main(work))
