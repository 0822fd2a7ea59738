#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""lib/jsonparse.c against Python's json module, strict RFC 8259, as the oracle.

tests/json-canon prints what the parser made of each file in a canonical form
(null, true, false, i:<int>, d:<%.17g>, s:<hex of the bytes>, [..], {key:value,..}
in the object's order); the same form is written here from json.loads. Python is
made strict: NaN, Infinity and -Infinity refused (json.loads takes them), the
text decoded as UTF-8 strictly (json.loads(bytes) would guess UTF-16 or 32).
Every file must be accepted by both with the same value, or refused by both.
Where the parser is documented to differ (lib/jsonparse.h), the oracle's value
is mapped first: half a surrogate pair (\\ud800 alone) is U+FFFD, as json-c made
it (Python keeps a lone surrogate); an integer past 64 bits is UINT64_MAX or
INT64_MIN, as json-c clamped it; an object key holding \\u0000 is refused (json-c's
keys are C strings), so is nesting deeper than the limit (64 here; Python's is
its recursion limit). A file that is not UTF-8 is parsed (it must not crash)
but not compared: the parser copies such bytes, json.loads refuses them.

The corpus: every JSON file of perf's pmu-events tree (Debian's
linux-source-6.12: /usr/src/linux-source-6.12 if unpacked there, else the
build directory's extraction that tests/perf-corpus.py makes, else extracted
the same way), the repository's events/ and tests/ JSON files, the fuzz
corpora of the table and report readers (valid and invalid inputs), and the
cases written below: escapes, surrogates, numbers at the edges of int64 and
uint64 and double, white space, nesting at and past the limit, and texts that
are not JSON. Then the lax mode (PMU_JSON_LAX, the tables' loader) on cases
written with their expected values, NaN and Infinity where pmu report's
reader takes them (PMU_JSON_NONFINITE, against Python's json as it is by
default), and the line and byte of some refusals.
Exit 77 (after all the other checks pass) when perf's tree cannot be found
and its tarball is missing; a tarball that cannot be extracted fails.
"""
import importlib.util
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import check, tally  # noqa: E402

CANON = sys.argv[1]
SRC = os.environ.get('PMU_TEST_SRCDIR', os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.environ.get('PMU_TEST_BUILDDIR')
DEPTH = 64
TARBALL = "/usr/src/linux-source-6.12.tar.xz"
TOP = "linux-source-6.12"
PE = TOP + "/tools/perf/pmu-events"
if hasattr(sys, 'set_int_max_str_digits'):
    sys.set_int_max_str_digits(0)
sys.setrecursionlimit(10000)


class Refused(Exception):
    pass


def no_constant(c):
    raise Refused('%s is not JSON' % c)


def fffd(s):
    return ''.join('\ufffd' if 0xd800 <= ord(c) <= 0xdfff else c for c in s)


def hexs(s):
    return 's:' + fffd(s).encode('utf-8').hex()


def fmt_double(x):
    return 'd:%.17g' % x


def canon(v, depth=0):
    """The canonical form of json.loads' value, or Refused where the parser must refuse."""
    if v is None:
        return 'null'
    if v is True:
        return 'true'
    if v is False:
        return 'false'
    if isinstance(v, int):
        return 'i:%d' % min(max(v, -2**63), 2**64 - 1)
    if isinstance(v, float):
        return fmt_double(v)
    if isinstance(v, str):
        return hexs(v)
    if depth >= DEPTH:
        raise Refused('nested more than %d deep' % DEPTH)
    if isinstance(v, list):
        return '[' + ','.join(canon(x, depth + 1) for x in v) + ']'
    if any('\0' in k for k in v):
        raise Refused('a key holds \\u0000')
    return '{' + ','.join(hexs(k) + ':' + canon(x, depth + 1) for k, x in v.items()) + '}'


def oracle(data):
    """'ok FORM', 'refused' or None (not UTF-8: not compared)."""
    try:
        text = data.decode('utf-8')
    except UnicodeDecodeError:
        return None
    try:
        return 'ok ' + canon(json.loads(text, parse_constant=no_constant))
    except (ValueError, Refused):  # JSONDecodeError is a ValueError
        return 'refused'
    except RecursionError:
        return 'refused'  # deeper than any limit of the parser


def parse_all(paths, *opts):
    """json-canon's line for each path."""
    out = []
    for i in range(0, len(paths), 500):
        r = subprocess.run([CANON, *opts, *paths[i:i + 500]], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        if r.returncode != 0:
            print("FAIL: json-canon exited %d: %s" % (r.returncode, r.stderr.decode(errors='replace')))
            sys.exit(1)
        out += r.stdout.decode('ascii').split('\n')[:-1]
    if len(out) != len(paths):
        print("FAIL: json-canon printed %d lines for %d files" % (len(out), len(paths)))
        sys.exit(1)
    return out


def compare(label, paths):
    """Each file through both; returns (files, accepted, refused, not compared)."""
    got = parse_all(paths)
    n_ok = n_ref = n_skip = shown = 0
    for path, line in zip(paths, got):
        with open(path, 'rb') as fh:
            want = oracle(fh.read())
        if want is None:
            n_skip += 1
            ok = line.startswith(('ok', 'invalid'))
        elif want == 'refused':
            n_ref += 1
            ok = line.startswith('invalid ')
        else:
            n_ok += 1
            ok = line == want
        if not ok:
            shown += 1
            if shown <= 10:
                check(False, "%s: %s: the parser says %.200s, Python's json %.200s" % (label, path, line, want))
            else:
                tally.checks += 1
                tally.fails += 1
        else:
            tally.checks += 1
    print("%s: %d files: %d accepted with the same value, %d refused by both, %d not UTF-8 (parsed, not "
          "compared)" % (label, len(paths), n_ok, n_ref, n_skip))
    return len(paths), n_ok, n_ref, n_skip


def json_files(root, every=False):
    found = []
    for d, _, files in os.walk(root):
        for f in files:
            if every or f.endswith('.json'):
                found.append(os.path.join(d, f))
    return sorted(found)


def perf_tree():
    """perf's pmu-events directory, or None and why."""
    places = ["/usr/src/" + PE, "/var/tmp/linux/" + PE]
    if BUILD:
        places.append(os.path.join(BUILD, "perf-corpus", PE))
    for p in places:
        if os.path.isdir(os.path.join(p, "arch")):
            return p, None
    if not BUILD or not os.path.exists(TARBALL):
        return None, "perf's pmu-events tree is in none of %s, and %s is missing (Debian's linux-source-6.12)" % (
            ", ".join(places), TARBALL)
    # extracted by tests/perf-corpus.py's own code, where it looks (a failure to extract fails the test)
    spec = importlib.util.spec_from_file_location("perf_corpus", os.path.join(SRC, "tests", "perf-corpus.py"))
    perf_corpus = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(perf_corpus)
    return perf_corpus.extract(BUILD), None


def nest(n, inner='1'):
    return '[' * n + inner + ']' * n


# hand-written texts, compared with Python's json like the files
CASES = [
    # escapes
    r'"\" \\ \/ \b \f \n \r \t"', r'"\u0041\u00e9\u20ac\uFFFF"', r'"\u0000 inside"', r'"a\u0000"',
    r'"\ud83d\ude00"', r'"\uD83D\uDE00"', r'"\ud800"', r'"\udc00"', r'"\ud800x"', r'"\ud800\u0041"',
    r'"\udc00\ud800"', r'"\ud800\ud800\udc00"', r'"\ud800\\"', r'"\ud800\n"', r'"\uDBFF\uDFFF"', r'"\u"',
    r'"\u12"', r'"\u12G4"', r'"\x41"', r'"\U0041"', r'"\a"', r'"\'"', '"\\', '"abc', '"\t"', '"\x01"', '"\x1f"',
    '"\x7f"', '"caf\xc3\xa9 \xf0\x9f\x98\x80"', '""', '"' + 'x' * 100000 + '"',
    # numbers
    '0', '-0', '-0.0', '0.0', '1', '-1', '01', '-01', '00', '1.', '.5', '-.5', '+1', '1e', '1e+', '1E-2', '1e5',
    '1.5e300', '1e308', '1.7976931348623157e308', '1.7976931348623159e308', '1e400', '-1e400', '5e-324',
    '2e-324', '1e-400', '9223372036854775807', '9223372036854775808', '-9223372036854775808',
    '-9223372036854775809', '18446744073709551615', '18446744073709551616', '-18446744073709551616',
    '1' * 400, '-' + '9' * 400, '0.1', '0.30000000000000004', '123456789012345678901234567890.5', '1.50',
    '0x10', 'NaN', '-NaN', 'Infinity', '-Infinity', '1_000', '1 2', '- 1', '--1', '1e2.5', '0e0', '0E+0',
    # literals
    'true', 'false', 'null', 'True', 'NULL', 'nul', 'truex', 'tru', 'nulll', 'fals',
    # white space and the whole text
    '', ' ', ' \t\r\n 1 \t\r\n ', '\x0b1', '\x0c1', '\xc2\xa01', '\xef\xbb\xbf1', '1\x00', '\x001', '[1]\x00',
    '[1] [2]', '{}{}', '1,', '[1]]', '/*c*/1', '1//c', '#1',
    # arrays and objects
    '[]', '{}', '[ ]', '{ }', '[1,2,[3,[4]],{"a":[]}]', '[1,]', '[,1]', '[1,,2]', '[', ']', '[1', '[1,', '{',
    '}', '{"a"', '{"a":', '{"a":1', '{"a":1,', '{"a":1,}', '{,"a":1}', '{"a" 1}', '{"a"::1}', '{a:1}',
    "{'a':1}", '{1:1}', '{"a":1 "b":2}', '{"a":1,"a":2}', '{"a":1,"b":2,"a":3}', '{"":1}', '{"\\u0000":1}',
    '{"k\\u0000k":1}', '{"\\ud800":1}', '{"\\ud83d\\ude00":{"\\u00e9":"\\u00e9"}}',
    '{' + ','.join('"k%d":%d' % (i, i) for i in range(2000)) + '}',
    '{' + ','.join('"k%d":%d' % (i % 37, i) for i in range(500)) + '}',
    '[' + ','.join(str(i) for i in range(10000)) + ']',
    # nesting: the limit (64) and past it, arrays and objects
    nest(63), nest(64), nest(65), nest(64, '[]'), nest(1000), '[' * 100000, '{"a":' * 64 + '1' + '}' * 64,
    '{"a":' * 65 + '1' + '}' * 65,
]

# the lax mode: (text, what the parser makes of it: Python's value of the second text, or None: refused)
LAX = [
    ('[1,]', '[1]'), ('{"a":1,}', '{"a":1}'), ('[1,\n ]', '[1]'), ('[[1,],{"b":[],},]', '[[1],{"b":[]}]'),
    ('"a\tb"', '"a\\tb"'), ('"\x01\x1f"', '"\\u0001\\u001f"'), ('"\x00"', None), ('[,]', None),
    ('[1,,]', None), ('{,}', None), ('[1] x', None), ('[01]', None), ('[NaN]', None), ('/*c*/[1]', None),
    ("['a']", None), ('[True]', None), ('[1,]]', None),
]

# PMU_JSON_NONFINITE (pmu report's reader): Python's json as it is by default, NaN and Infinity taken
NONFINITE = ['NaN', 'Infinity', '-Infinity', '[NaN,Infinity,-Infinity,1.5,-0]', '{"a":NaN}', '-NaN', 'nan',
             'inf', 'Inf', '-inf', 'NaNx', 'Infinit', '-Infinityy', '+Infinity', '- Infinity', '[-I]', 'NAN']

# refusals with their line and byte: (text, line, offset, words of the reason)
PLACES = [
    ('[{"a": 1},\n {"b": 2},\n]', 2, 20, "a comma before ']'"),
    ('{\n "a": 1,\n "b": 2,\n}', 3, 18, "a comma before '}'"),
    ('[1,\n 2\n 3]', 3, 8, "'3' after an array's element"),
    ('{"a"\n\n:1, "b" 2}', 3, 14, "'2' after a key"),
    ('[\n"abc', 2, 6, 'ends inside a string (opened at line 2)'),
    ('[\n[\n', 3, 4, 'ends where a value should be'),
    ('[\n[1\n', 3, 5, 'ends inside an array (opened at line 2)'),
    ('{"a":\n\t"b\tc"}', 2, 9, 'control character 0x09'),
    ('[\n\n  nul]', 3, 5, "begins no value here"),
    ('[0123]', 1, 1, 'leading zero'),
    ('["\\x"]', 1, 2, 'unknown escape'),
    ('[1]\n\n x', 3, 6, "'x' after the JSON value"),
    ('{"k\\u0000":1}', 1, 1, 'holds \\u0000'),
    (nest(65), 1, 64, 'nested more than 64 deep'),
]


def main(tmp):
    # the hand-written cases, strict
    paths = []
    for i, t in enumerate(CASES):
        p = os.path.join(tmp, 'case%03d.json' % i)
        with open(p, 'wb') as fh:
            fh.write(t.encode('latin-1') if all(ord(c) < 256 for c in t) else t.encode('utf-8'))
        paths.append(p)
    compare('hand-written', paths)
    # depth 16 (pmu report's): 16 nested accepted, 17 refused
    for n, want in ((16, 'ok'), (17, 'invalid')):
        p = os.path.join(tmp, 'depth%d.json' % n)
        with open(p, 'w') as fh:
            fh.write(nest(n))
        got = parse_all([p], '--depth', '16')[0]
        check(got.startswith(want), "--depth 16, %d arrays nested: %s, wanted %s" % (n, got, want))
    # the lax mode
    paths, wants = [], []
    for i, (t, fixed) in enumerate(LAX):
        p = os.path.join(tmp, 'lax%02d.json' % i)
        with open(p, 'wb') as fh:
            fh.write(t.encode('latin-1'))
        paths.append(p)
        wants.append(None if fixed is None else 'ok ' + canon(json.loads(fixed)))
    for t, got, want in zip(LAX, parse_all(paths, '--lax'), wants):
        check(got == want if want else got.startswith('invalid '), "lax %r: %s, wanted %s" % (
            t[0], got, want or 'a refusal'))
    # and the strict mode refuses every lax text
    for t, got in zip(LAX, parse_all(paths)):
        check(got.startswith('invalid '), "strict %r: %s, wanted a refusal" % (t[0], got))
    # NaN and Infinity (--nonfinite), against Python's json as it is by default
    paths, wants = [], []
    for i, t in enumerate(NONFINITE):
        p = os.path.join(tmp, 'nonfinite%02d.json' % i)
        with open(p, 'w') as fh:
            fh.write(t)
        paths.append(p)
        try:
            wants.append('ok ' + canon(json.loads(t)))
        except ValueError:
            wants.append(None)
    for t, got, want in zip(NONFINITE, parse_all(paths, '--nonfinite'), wants):
        check(got == want if want else got.startswith('invalid '), "--nonfinite %r: %s, wanted %s" % (
            t, got, want or 'a refusal'))
    for t, got, want in zip(NONFINITE, parse_all(paths), wants):
        refused = want is None or 'N' in t or 'I' in t
        check(got.startswith('invalid ') if refused else got == want,
              "strict %r: %s, wanted %s" % (t, got, 'a refusal' if refused else want))
    # places
    paths = []
    for i, (t, _, _, _) in enumerate(PLACES):
        p = os.path.join(tmp, 'place%02d.json' % i)
        with open(p, 'w') as fh:
            fh.write(t)
        paths.append(p)
    for (t, line, off, words), got in zip(PLACES, parse_all(paths)):
        f = got.split(' ', 3)
        check(len(f) == 4 and f[0] == 'invalid' and f[1:3] == [str(line), str(off)] and words in f[3],
              "%r: %s, wanted line %d, byte %d, '%s'" % (t[:40], got, line, off, words))
    print("lax mode: %d texts; NaN and Infinity: %d texts; places of refusals: %d texts" % (
        len(LAX), len(NONFINITE), len(PLACES)))

    # the repository's JSON, and the readers' fuzz corpora (any bytes)
    repo = json_files(os.path.join(SRC, 'events')) + json_files(os.path.join(SRC, 'tests'))
    compare('repository JSON (events/, tests/)', repo)
    fuzz = []
    for d in ('corpus/tables', 'corpus/report', 'seeds/report', 'regressions/tables', 'regressions/report'):
        fuzz += json_files(os.path.join(SRC, 'tests/fuzz', d), every=True)
    compare('fuzz corpora (tables, report)', fuzz)

    tree, why = perf_tree()
    if tree is None:
        return why
    files = json_files(os.path.join(tree, 'arch'))
    _, n_ok, _, _ = compare("perf's pmu-events (%s)" % tree, files)
    check(len(files) > 500 and n_ok == len(files), "perf's tree: %d files, %d accepted by both: every file "
          "of perf's tree is JSON" % (len(files), n_ok))
    return None


if __name__ == '__main__':
    with tempfile.TemporaryDirectory(prefix='pmu-json-oracle-') as work:
        skipped = main(work)
    print("test-json-oracle: %d checks, %d failed" % (tally.checks, tally.fails))
    if tally.fails:
        sys.exit(1)
    if skipped:
        print("SKIP: " + skipped)
        sys.exit(77)
