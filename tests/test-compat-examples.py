#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Code instrumented for LIKWID's marker API or PAPI's high-level API builds and runs unchanged
against libpmu's compatibility layers (compat/): LIKWID's own examples C-markerAPI.c and
F-markerAPI.F90 (Debian's likwid, read in place) through `pkg-config libpmu-likwid`, and PAPI's
high-level example src/examples/high_level.c, fetched at test time from Debian's papi source package
into a temporary directory (never into the repository), through `pkg-config libpmu-papi`.

Each runs on software events (this machine may have no hardware PMU) and its region report is checked:
the regions the example marks, with the calls its source makes (counted by hand below), and the
counts against oracles that are not the report: the layer's likwid_markerGetRegion() (libpmu's native
pmu_region_foreach() of the calling thread, printed by the example itself), the region's time on the
layer's clock against the example's sleep(), task-clock against that time, and the whole process
counted by perf stat. Bad configuration (an unknown group, an unknown event) is refused naming the
variable, its value and the fix."""
import csv
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import checks  # noqa: E402  tests/checks.py, beside this script

SRC = os.environ['PMU_TEST_SRCDIR']
BUILD = os.environ['PMU_TEST_BUILDDIR']
LIKWID_EX = '/usr/share/likwid/examples'
ENV = dict(os.environ, PKG_CONFIG_PATH=os.path.join(BUILD, 'meson-uninstalled'),
           LD_LIBRARY_PATH=os.path.join(BUILD, 'compat') + ':' + os.path.join(BUILD, 'lib'))
for v in ('PMU_EVENTS', 'PMU_OUTPUT', 'PMU_FORMAT', 'PMU_PER_THREAD', 'LIKWID_EVENTS', 'PAPI_EVENTS',
          'PAPI_OUTPUT_DIRECTORY', 'PAPI_REPORT', 'OMP_NUM_THREADS'):
    ENV.pop(v, None)


def check(cond, what):
    """checks.check, and the passed ones printed too: the numbers each check saw."""
    if checks.check(cond, what):
        print('ok: ' + what)


def oneline(text):
    return ' '.join(text.split())[:300]


def skip(why):
    print('SKIP: ' + why)
    sys.exit(77)


def sh(cmd, env=None, check_rc=True, **kw):
    p = subprocess.run(cmd, env=env or ENV, capture_output=True, text=True, **kw)
    if check_rc and p.returncode != 0:
        print(f'FAIL: {" ".join(cmd)} exited {p.returncode}\n{p.stdout}{p.stderr}')
        sys.exit(1)
    return p


def pkgconfig(module):
    return sh(['pkg-config', '--cflags', '--libs', module]).stdout.split()


def built_against(exe, deps, header, forbidden_header, lib, forbidden_lib):
    """The program's header is the layer's (compiler's dependency list), its library the layer's (NEEDED)."""
    check(any(d.endswith(header) and '/compat/' in d for d in deps) and forbidden_header not in deps,
          f'{os.path.basename(exe)}: compiled with compat/.../{os.path.basename(header)}, not {forbidden_header}')
    needed = re.findall(r'\(NEEDED\).*\[(.*)\]', sh(['readelf', '-d', exe]).stdout)
    check(any(n.startswith(lib) for n in needed) and not any(n.startswith(forbidden_lib) for n in needed),
          f'{os.path.basename(exe)}: linked with {lib} (not {forbidden_lib}): {needed}')


def report(path):
    """The CSV region report: {(region, tid): {event: scaled}} and the calls of each row."""
    rows, calls = {}, {}
    with open(path, newline='') as f:
        for r in csv.DictReader(f):
            key = (r['region'], int(r['tid']))
            rows.setdefault(key, {})[r['event']] = int(r['scaled'])
            calls[key] = int(r['calls'])
    return rows, calls


def threads_of(rows, region):
    return sorted(t for (n, t) in rows if n == region and t > 0)


def perf_stat(cmd, env, events):
    """The whole process counted by perf stat (the oracle a region's sum stays below), or None."""
    if not shutil.which('perf'):
        return None
    p = subprocess.run(['perf', 'stat', '-x,', '-e', events, '--'] + cmd, env=env, capture_output=True, text=True)
    if p.returncode != 0:
        return None
    out = {}
    for line in p.stderr.splitlines():
        f = line.split(',')
        if len(f) > 3 and f[2] in events.split(',') and re.match(r'^[0-9.]+$', f[0]):
            out[f[2]] = float(f[0]) * (1e6 if f[1] == 'msec' else 1)
    return out


def likwid_examples(tmp):
    for f in ('C-markerAPI.c', 'F-markerAPI.F90'):
        if not os.path.exists(os.path.join(LIKWID_EX, f)):
            skip(f'{LIKWID_EX}/{f} is missing: install likwid (tests/deps.sh)')
    if not shutil.which('gfortran'):
        skip('gfortran is missing: install gfortran (tests/deps.sh)')
    flags = pkgconfig('libpmu-likwid')
    cexe, fexe = os.path.join(tmp, 'c-marker'), os.path.join(tmp, 'f-marker')
    sh(['gcc', '-fopenmp', '-MD', '-MF', cexe + '.d', '-o', cexe, os.path.join(LIKWID_EX, 'C-markerAPI.c')] + flags)
    built_against(cexe, open(cexe + '.d').read().split(), 'likwid/likwid-marker.h', '/usr/include/likwid-marker.h',
                  'libpmu-likwid.so', 'liblikwid')
    sh(['gfortran', '-fopenmp', '-cpp', '-MD', '-MF', fexe + '.d', '-o', fexe,
        os.path.join(LIKWID_EX, 'F-markerAPI.F90')] + flags, cwd=tmp)
    fdeps = open(fexe + '.d').read().split()
    built_against(fexe, fdeps, 'compat/likwid.mod', '/usr/include/likwid.mod', 'libpmu-likwid.so', 'liblikwid')

    # C-markerAPI.c, one thread: LIKWID_MARKER_START/STOP("example") once per iteration of
    # `for (g=0; g<10; g++)`, each around sleep(2); after each, LIKWID_MARKER_GET prints the thread's
    # count so far (1, 2, ..., 10), its events and time. Hand count: 10 calls of "example".
    out = os.path.join(tmp, 'c.csv')
    env = dict(ENV, OMP_NUM_THREADS='1', LIKWID_EVENTS='task-clock:SW0,page-faults:SW1', PMU_FORMAT='csv',
               PMU_PER_THREAD='1', PMU_OUTPUT=out)
    p = sh([cexe], env=env)
    rows, calls = report(out)
    tids = threads_of(rows, 'example')
    check(calls.get(('example', -1)) == 10 and len(tids) == 1,
          f'C-markerAPI, 1 thread: "example" 10 calls (hand count: 10 iterations), one thread: {calls}')
    printed = [int(c) for c in re.findall(r'The region was called (\d+) times', p.stdout)]
    check(printed == list(range(1, 11)), f'C-markerAPI: LIKWID_MARKER_GET\'s counts 1..10 in order: {printed}')
    times = [float(t) for t in re.findall(r'total measurement time is ([0-9.]+)', p.stdout)]
    check(len(times) == 10 and all(2.0 * k <= t < 2.0 * k + 0.5 * k for k, t in zip(range(1, 11), times)),
          f'C-markerAPI: GET\'s time after call k is at least k sleeps of 2 s (and within 0.5 s each): {times}')
    evs = [float(e) for e in re.findall(r'Event (\d+): ([0-9.]+)', p.stdout) for e in [e[1]]]
    check(len(evs) == 20, f'C-markerAPI: GET gives 2 events (task-clock, page-faults) each time: {len(evs)} values')
    last = evs[-2:] if len(evs) == 20 else [None, None]
    row = rows.get(('example', tids[0] if tids else 0), {})
    check(last == [row.get('task-clock'), row.get('page-faults')] and rows.get(('example', -1)) == row,
          f'C-markerAPI: the report\'s counts {row} equal the thread\'s LIKWID_MARKER_GET after the last call {last}')
    check(0 < row.get('task-clock', 0) < times[-1] * 1e9 if times else False,
          f'C-markerAPI: task-clock inside sleeping regions, {row.get("task-clock")} ns, is below their time')
    check(evs[0::2] == sorted(evs[0::2]), 'C-markerAPI: GET\'s task-clock grows call by call')

    # F-markerAPI.F90: each thread calls likwid_markerStartRegion/StopRegion("example") once, around
    # Sleep(2), then likwid_markerGetRegion. Hand count: 1 call per thread. The example's events, time
    # and count variables are shared by its OpenMP threads (a race of the example), so its printed
    # values are compared with one thread; two threads check the calls.
    out = os.path.join(tmp, 'f.csv')
    env.update(OMP_NUM_THREADS='2', PMU_OUTPUT=out)
    p = sh([fexe], env=env)
    rows, calls = report(out)
    tids = threads_of(rows, 'example')
    check(calls.get(('example', -1)) == 2 and [calls[('example', t)] for t in tids] == [1, 1],
          f'F-markerAPI, 2 threads: "example" 2 calls, 1 per thread (hand count): {calls}')
    check(all(rows[('example', -1)][e] == sum(rows[('example', t)][e] for t in tids)
              for e in ('task-clock', 'page-faults')),
          'F-markerAPI, 2 threads: the report\'s sum over threads is the threads\' rows added')
    out = os.path.join(tmp, 'f1.csv')
    env.update(OMP_NUM_THREADS='1', PMU_OUTPUT=out)
    p = sh([fexe], env=env)
    rows, calls = report(out)
    tids = threads_of(rows, 'example')
    printed = re.findall(r'The region was called (\d+) times', p.stdout)
    check(calls.get(('example', -1)) == 1 and printed == ['1'],
          f'F-markerAPI, 1 thread: 1 call in the report and from likwid_markerGetRegion: {calls}, {printed}')
    got = [float(v) for v in re.findall(r'Event \d+: *([0-9.E+-]+)', p.stdout)]
    row = rows.get(('example', tids[0] if tids else 0), {})
    check(got == [float(row.get('task-clock', -1)), float(row.get('page-faults', -1))],
          f'F-markerAPI: likwid_markerGetRegion\'s values {got} are the report\'s {row}')
    check(p.stderr.count('libpmu regions') == 0, 'F-markerAPI: no report on stderr with PMU_OUTPUT set')
    p = sh([fexe], env=dict(env, PMU_OUTPUT='', PMU_FORMAT='text'))
    check(p.stderr.count('libpmu regions') == 1, f'F-markerAPI, report to stderr: once (likwid_markerClose\'s; '
          f'none again at exit): {p.stderr.count("libpmu regions")}')
    ftimes = [float(t) for t in re.findall(r'total measurement time is *([0-9.]+)', p.stdout)]
    check(len(ftimes) == 1 and 2.0 <= ftimes[0] < 2.5 and 0 < row.get('task-clock', 0) < ftimes[0] * 1e9,
          f'F-markerAPI: the time is one Sleep(2), {ftimes}, and task-clock below it')

    # refusals: an unknown group, an event without its counter, an SW counter of no software event
    for value, says in (('NOSUCH', 'NOSUCH'), ('nosuch:SW0', 'SW0 nosuch'), ('task-clock', 'task-clock'),
                        ('task-clock:SW0,page-faults', 'without its counter')):
        p = sh([fexe], env=dict(env, OMP_NUM_THREADS='1', LIKWID_EVENTS=value, PMU_OUTPUT=os.path.join(tmp, 'bad.csv')),
               check_rc=False)
        bad_rows = report(os.path.join(tmp, 'bad.csv'))[0] if os.path.exists(os.path.join(tmp, 'bad.csv')) else {}
        check(f"LIKWID_EVENTS='{value}'" in p.stderr and says in p.stderr and 'set it to' in p.stderr and
              p.returncode == 0 and not bad_rows and 'measures 0 events' in p.stdout,
              f'LIKWID_EVENTS={value}: refused once on stderr naming it and the fix, no region counted: '
              f'{oneline(p.stderr)}')
        if os.path.exists(os.path.join(tmp, 'bad.csv')):
            os.unlink(os.path.join(tmp, 'bad.csv'))


def papi_example(tmp):
    """PAPI's high_level.c from Debian's papi source package (bookworm), fetched with a private sources list."""
    apt = os.path.join(tmp, 'apt')
    os.makedirs(os.path.join(apt, 'parts'))
    os.makedirs(os.path.join(apt, 'lists', 'partial'))
    with open(os.path.join(apt, 'parts', 'debian-src.sources'), 'w') as f:
        f.write('Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: bookworm\nComponents: main\n'
                'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg\n')
    opts = ['-o', 'Dir::Etc::SourceList=/dev/null', '-o', 'Dir::Etc::SourceParts=' + os.path.join(apt, 'parts'),
            '-o', 'Dir::State::Lists=' + os.path.join(apt, 'lists')]
    dl = os.path.join(tmp, 'papi-src')
    os.makedirs(dl)
    for cmd in (['apt-get', '-qq'] + opts + ['update'],
                ['apt-get', '-qq'] + opts + ['source', '--download-only', 'papi']):
        p = subprocess.run(cmd, cwd=dl, capture_output=True, text=True)
        if p.returncode != 0:
            check(False, f'{" ".join(cmd)} (Debian\'s papi source package) failed: {p.stderr.strip()[-500:]}')
            return
    orig = [f for f in os.listdir(dl) if f.startswith('papi_') and '.orig.tar' in f]
    if len(orig) != 1:
        check(False, f'papi source package: one .orig tarball expected in {os.listdir(dl)}')
        return
    src = os.path.join(tmp, 'high_level.c')
    with tarfile.open(os.path.join(dl, orig[0])) as t:
        m = [n for n in t.getnames() if n.endswith('/src/examples/high_level.c')]
        with open(src, 'wb') as f:
            f.write(t.extractfile(m[0]).read())
    exe = os.path.join(tmp, 'high-level')
    sh(['gcc', '-MD', '-MF', exe + '.d', '-o', exe, src] + pkgconfig('libpmu-papi'))
    built_against(exe, open(exe + '.d').read().split(), 'papi/papi.h', '/usr/include/papi.h',
                  'libpmu-papi.so', 'libpapi')

    # high_level.c: PAPI_hl_region_begin/end("computation_add") once (PAPI_hl_read in between counts no call),
    # then begin/end("computation_mult") once. Hand count: 1 call of each.
    out = os.path.join(tmp, 'hl.csv')
    env = dict(ENV, PAPI_EVENTS='task-clock,page-faults', PMU_FORMAT='csv', PMU_PER_THREAD='1', PMU_OUTPUT=out)
    whole = perf_stat([exe], env, 'task-clock,page-faults')
    rows, calls = report(out)
    if whole is None:
        sh([exe], env=dict(env))
        rows, calls = report(out)
    check(calls.get(('computation_add', -1)) == 1 and calls.get(('computation_mult', -1)) == 1 and
          sorted(n for (n, t) in calls if t == -1) == ['computation_add', 'computation_mult'],
          f'high_level.c: computation_add 1 call, computation_mult 1 call (hand count), nothing else: {calls}')
    for n in ('computation_add', 'computation_mult'):
        tids = threads_of(rows, n)
        check(len(tids) == 1 and rows[(n, tids[0])] == rows[(n, -1)] and rows[(n, -1)]['task-clock'] > 0,
              f'high_level.c: {n} counted in its one thread: {rows.get((n, -1))}')
    if whole is not None:
        for ev in ('task-clock', 'page-faults'):
            inside = sum(rows[(n, -1)][ev] for n in ('computation_add', 'computation_mult'))
            check(inside <= whole[ev], f'high_level.c: {ev} inside the regions, {inside}, within the process\'s '
                  f'{whole[ev]:.0f} (perf stat)')
    else:
        print('note: perf stat is not usable here: the process total is not compared')

    # PAPI's default set where PAPI_EVENTS is not set: what this machine counts of it
    p = sh([exe], env=dict(ENV, PMU_FORMAT='csv', PMU_OUTPUT=out + '2'))
    evs = sorted({e for r in report(out + '2')[0].values() for e in r})
    caps = sh([os.environ.get('PMU_CLI', os.path.join(BUILD, 'tools', 'pmu')), 'info'], check_rc=False).stdout
    if re.search(r'no hardware PMU|hardware PMU: no', caps, re.I):
        check(evs == ['perf::TASK-CLOCK'], f'high_level.c, PAPI_EVENTS unset, no hardware PMU: PAPI\'s default '
              f'set\'s software event alone: {evs}')
    else:
        check('perf::TASK-CLOCK' in evs and 'PAPI_TOT_INS' in evs, f'high_level.c, PAPI_EVENTS unset: {evs}')

    # an unknown event: refused naming PAPI_EVENTS, and the example's own error check exits with PAPI_ENOEVNT
    p = sh([exe], env=dict(ENV, PAPI_EVENTS='PAPI_TOT_INZ', PMU_OUTPUT=out + '3'), check_rc=False)
    check(p.returncode == (-7 & 0xff) and "PAPI_EVENTS='PAPI_TOT_INZ'" in p.stderr and 'set it to' in p.stderr
          and 'Error -7' in p.stderr,
          f'PAPI_EVENTS=PAPI_TOT_INZ: refused naming it and the fix, PAPI_hl_region_begin returns PAPI_ENOEVNT '
          f'(-7), the example exits {p.returncode}: {oneline(p.stderr)}')


def exported():
    """Each layer's library exports exactly its version script's symbols, and its header's functions are
    among them (the Fortran names are the module's)."""
    for layer, header in (('likwid', 'likwid-marker.h'), ('papi', 'papi.h')):
        lib = os.path.join(BUILD, 'compat', f'libpmu-{layer}.so')
        nm = sh(['nm', '-D', '--defined-only', lib]).stdout.split('\n')
        have = sorted({f[2].split('@')[0] for f in (line.split() for line in nm)
                       if len(f) == 3 and f[1] in 'TDBRVW' and not f[2].startswith('LIBPMU_')})
        script = open(os.path.join(SRC, 'compat', layer, f'libpmu-{layer}.sym')).read()
        want = sorted(re.findall(r'^\s+([A-Za-z_0-9]+);', script, re.M))
        check(have == want, f'libpmu-{layer}.so exports its version script: {have}')
        declared = re.findall(r'^(?:int|void) (\w+)\(', open(os.path.join(SRC, 'compat', layer, header)).read(), re.M)
        check(declared and set(declared) <= set(have), f'{header}: its {len(declared)} functions exported')


def main():
    exported()
    with tempfile.TemporaryDirectory(prefix='pmu-compat-') as tmp:
        likwid_examples(tmp)
        papi_example(tmp)
    print(f'test-compat-examples: {checks.tally.checks} checks, {checks.tally.fails} failed')
    return 1 if checks.tally.fails else 0


sys.exit(main())
