#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks for the Intel tables under events/x86/ (no libpmu needed).

  check-tables.py names [PMU-OVERRIDE...]   print "<dir> <EventName> <libpfm4 string>" lines
  check-tables.py check                      validate the JSON and compare with expected-encodings.txt

The raw config is computed from the JSON the way libpmu does for Intel:
EventCode | UMask<<8 | EdgeDetect<<18 | AnyThread<<21 | Invert<<23 | CounterMask<<24.
"""
import json, os, re, sys, glob

HERE = os.path.dirname(os.path.abspath(__file__))
EVENTS = os.path.normpath(os.path.join(HERE, '..', '..', '..', 'events', 'x86'))
# directory -> libpfm4 PMU used as the reference (and other models the directory serves)
PMUS = {
    'ivybridge': ('ivb', ['ivb_ep']),
    'haswell': ('hsw', ['hsw_ep']),
    'broadwell': ('bdw', ['bdw_ep']),
    'skylake': ('skl', []),
    'skylakex': ('skx', ['clx']),
    'icelake': ('icl', []),
    'icelakex': ('icx', []),
    'sapphirerapids': ('spr', []),
}
STD = {'INST.RET', 'GEN.CYCLES', 'INST.BRJMP.RET', 'INST.MISPRED.RET', 'INST.LOAD.RET',
       'INST.LOAD.DSRC.L1D.RET', 'INST.LOAD.DSRC.L1D.MERGE.RET', 'INST.LOAD.DSRC.L1D.MISS.RET',
       'INST.LOAD.DSRC.L2.RET', 'INST.LOAD.DSRC.L2.MISS.RET', 'INST.LOAD.DSRC.L3.RET',
       'INST.LOAD.DSRC.L3.MISS.RET', 'CACHE.L1D.FILL', 'TOPDOWN.SLOTS'}
ROLES = {'slots', 'retiring', 'bad-spec', 'fe-bound', 'be-bound', 'heavy-ops', 'br-mispredict',
         'fetch-lat', 'mem-bound'}

def num(s):
    if s is None or s == '':
        return 0
    return int(s, 16) if s.lower().startswith('0x') else int(s)

def load(d):
    events, metrics = [], []
    for f in sorted(glob.glob(os.path.join(EVENTS, d, '*.json'))):
        with open(f) as fh:
            for o in json.load(fh):
                (events if 'EventName' in o else metrics).append((os.path.basename(f), o))
    return events, metrics

def config(e):
    c = num(e.get('EventCode')) | num(e.get('UMask')) << 8 | num(e.get('EdgeDetect')) << 18 \
        | num(e.get('AnyThread')) << 21 | num(e.get('Invert')) << 23 | num(e.get('CounterMask')) << 24
    return c

def pfm_name(pmu, name):
    fixed = {'INST_RETIRED.ANY': 'INSTRUCTION_RETIRED',          # architectural 0xc0
             'CPU_CLK_UNHALTED.THREAD': 'UNHALTED_CORE_CYCLES',  # architectural 0x3c
             'CPU_CLK_UNHALTED.REF_TSC': 'UNHALTED_REFERENCE_CYCLES',
             'slots': 'TOPDOWN:SLOTS',
             # libpfm4 names Ivy Bridge's LLC_HIT/LLC_MISS umasks L3_HIT/L3_MISS
             'MEM_LOAD_UOPS_RETIRED.LLC_HIT': 'MEM_LOAD_UOPS_RETIRED:L3_HIT',
             'MEM_LOAD_UOPS_RETIRED.LLC_MISS': 'MEM_LOAD_UOPS_RETIRED:L3_MISS'}
    if name.startswith('PERF_METRICS.') or name.startswith('topdown-'):
        return None
    return pmu + '::' + fixed.get(name, name.replace('.', ':', 1))

def cmd_names(argv):
    for d, (pmu, alts) in PMUS.items():
        if argv:
            if d not in argv:
                continue
        events, _ = load(d)
        for _, e in events:
            p = pfm_name(pmu, e['EventName'])
            if p is None:
                print('%s %s - # a PERF_METRICS pseudo-event; the kernel\'s sysfs encoding is '
                      'event=0x00,umask=%s, i.e. config=0x%x' % (d, e['EventName'], e['UMask'], config(e)))
            else:
                print('%s %s %s' % (d, e['EventName'], p))

TOKEN = re.compile(r'\s*(?:(?P<num>\d+(?:\.\d*)?(?:[eE][-+]?\d+)?)|(?P<const>#[A-Za-z_]\w*)|'
                   r'(?P<name>(?:[A-Za-z_]|\\.)(?:[\w.:]|\\.)*|@[^@]*@)|(?P<op>[-+*/(),<>!=&|%]))')

def names_in(expr):
    out, i = [], 0
    while i < len(expr):
        m = TOKEN.match(expr, i)
        if not m or m.end() == i:
            if expr[i:].strip() == '':
                break
            raise ValueError('cannot tokenize at %r' % expr[i:])
        i = m.end()
        if m.group('name'):
            n = m.group('name')
            if n in ('if', 'else', 'min', 'max', 'd_ratio'):
                continue
            out.append(n.replace('\\', ''))
        elif m.group('const'):
            out.append(m.group('const'))
    return out

def cmd_check():
    errs = 0
    def bad(msg):
        nonlocal errs
        errs += 1
        print('ERROR', msg)
    expected = {}
    with open(os.path.join(HERE, 'expected-encodings.txt')) as fh:
        for line in fh:
            line = line.strip()
            if not line or line.startswith('#'):
                continue
            d, n, *cfg = line.split()
            expected[(d, n)] = dict(kv.split('=') for kv in cfg)
    total_e = total_m = 0
    for d in PMUS:
        events, metrics = load(d)
        names = {}
        for f, e in events:
            n = e['EventName']
            if n in names:
                bad('%s: %s defined twice' % (d, n))
            names[n] = e
            for k in ('EventCode', 'UMask', 'BriefDescription', 'PublicDescription', 'Counter'):
                if k not in e:
                    bad('%s %s: no %s' % (d, n, k))
            for s in (e.get('StdNames') or '').split(','):
                if s and s.strip() not in STD:
                    bad('%s %s: unknown standard name %s' % (d, n, s))
            if e.get('Approximate') == '1' and not e.get('ApproxNote'):
                bad('%s %s: Approximate without ApproxNote' % (d, n))
            if e.get('TopdownRole') and e['TopdownRole'] not in ROLES:
                bad('%s %s: TopdownRole %s' % (d, n, e['TopdownRole']))
            c = '0x%x' % config(e)
            exp = expected.get((d, n))
            if exp is None:
                if not (n.startswith('PERF_METRICS.') or n.startswith('topdown-')):
                    bad('%s %s: no expected encoding' % (d, n))
                else:
                    # kernel sysfs: event=0x00,umask=0x80..0x87
                    if not (0x8000 <= config(e) <= 0x8700 and config(e) & 0xff == 0):
                        bad('%s %s: metric pseudo-event config %s' % (d, n, c))
            elif exp.get('config') != c or exp.get('config1', '0x0') != '0x%x' % num(e.get('MSRValue')):
                bad('%s %s: table %s, libpfm4 %s' % (d, n, c, exp))
        # StdNames: each standard name at most once per directory
        seen = {}
        for n, e in names.items():
            for s in (e.get('StdNames') or '').split(','):
                s = s.strip()
                if s:
                    if s in seen:
                        bad('%s: %s claimed by %s and %s' % (d, s, seen[s], n))
                    seen[s] = n
        mnames = {o['MetricName'] for _, o in metrics}
        for f, o in metrics:
            params = dict(p.split('=') for p in (o.get('MetricParams') or '').split(',') if p)
            used_consts = set()
            for n in names_in(o['MetricExpr']):
                if n.startswith('#'):
                    used_consts.add(n[1:])
                    if n[1:] not in params:
                        bad('%s %s: #%s not in MetricParams' % (d, o['MetricName'], n[1:]))
                elif n not in names and n not in mnames:
                    bad('%s %s: unknown name %s' % (d, o['MetricName'], n))
            for p in params:
                if p not in used_consts:
                    bad('%s %s: parameter %s unused' % (d, o['MetricName'], p))
        total_e += len(events)
        total_m += len(metrics)
        print('%-15s %3d events %3d metrics' % (d, len(events), len(metrics)))
    for (d, n) in expected:
        if d in PMUS and n not in {e['EventName'] for _, e in load(d)[0]}:
            bad('%s %s: in expected-encodings.txt but not in the table' % (d, n))
    print('total %d events, %d metrics, %d errors' % (total_e, total_m, errs))
    return 1 if errs else 0

if __name__ == '__main__':
    if len(sys.argv) > 1 and sys.argv[1] == 'names':
        cmd_names(sys.argv[2:])
    elif len(sys.argv) > 1 and sys.argv[1] == 'check':
        sys.exit(cmd_check())
    else:
        print(__doc__)
        sys.exit(2)
