#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Turn a bare-metal RISC-V core's event table into a C header for firmware.

    gen-csr-header.py [--standard DIR] CORE TABLE.json OUTPUT.h

TABLE.json is events/riscv/<core>/events.json (perf's pmu-events format with
libpmu's CounterCSR, CounterWidth and MhpmeventBit keys, see events/README.md).
For each event with a CounterCSR the header defines

    PMU_<CORE>_<NAME>_EVENT     the mhpmevent value (EventCode)
    PMU_<CORE>_<NAME>_COUNTER   the counter index that counts it (0 mcycle,
                                2 minstret, N mhpmcounterN): the first CSR of
                                CounterCSR
    PMU_<CORE>_<NAME>_COUNTERS  mask of every counter CounterCSR allows
                                (mcountinhibit bit layout)
    PMU_<CORE>_<NAME>_WIDTH     the counter width in bits (CounterWidth, 64
                                when absent)

and for each name of its StdNames the aliases PMU_STD_<STD>_EVENT,
_COUNTER, _COUNTERS and _WIDTH, plus PMU_STD_<STD>_APPROXIMATE 1 and a
comment quoting ApproxNote when the mapping is Approximate.

With --standard DIR (events/standard), every StdNames entry must be an
EventName there, and each of that standard event's Aliases gets the same
PMU_STD_ macros (INST.RET is also RETIRED.INST: PMU_STD_RETIRED_INST_EVENT).

Names: every character that is not a letter or a digit becomes '_' and
letters are upper-cased, nothing else: NumLoads -> NUMLOADS,
NumCyclesLSU -> NUMCYCLESLSU, INST.LOAD.RET -> INST_LOAD_RET. CORE is the
directory name mangled the same way (ibex -> IBEX). Two events or two
standard names that mangle to the same identifier are an error, as are an
EventCode that does not set MhpmeventBit, an unknown CounterCSR and a
width outside 1..64.

CounterCSR is a comma-separated list of mcycle, minstret, mhpmcounterN
(3 <= N <= 31) or ranges mhpmcounterA-mhpmcounterB. When every event's
counter is the one whose index equals its MhpmeventBit (Ibex: hard-wired
selectors), the header defines PMU_<CORE>_FIXED_EVENTS 1.

Only the Python standard library is used.
"""
import json
import os
import re
import sys


def mangle(name):
    return re.sub(r'[^A-Za-z0-9]', '_', name).upper()


def number(v, what):
    if isinstance(v, int):
        return v
    s = str(v).strip()
    try:
        return int(s, 16) if s.lower().startswith('0x') else int(s, 10)
    except ValueError:
        raise SystemExit(f'gen-csr-header: {what}: not a number: {v!r}')


def counters_of(spec, what):
    out = []
    for part in (p.strip() for p in spec.split(',')):
        if not part:
            continue
        m = re.fullmatch(r'mhpmcounter(\d+)\s*-\s*mhpmcounter(\d+)', part)
        if m:
            a, b = int(m.group(1)), int(m.group(2))
            if not 3 <= a <= b <= 31:
                raise SystemExit(f'gen-csr-header: {what}: bad counter range {part!r}')
            out.extend(range(a, b + 1))
            continue
        if part == 'mcycle':
            out.append(0)
        elif part == 'minstret':
            out.append(2)
        else:
            m = re.fullmatch(r'mhpmcounter(\d+)', part)
            if not m or not 3 <= int(m.group(1)) <= 31:
                raise SystemExit(f'gen-csr-header: {what}: unknown CounterCSR {part!r}')
            out.append(int(m.group(1)))
    if not out:
        raise SystemExit(f'gen-csr-header: {what}: empty CounterCSR')
    return out


def c_comment(text):
    return ' '.join(str(text).replace('*/', '* /').split())


def wrap(text, prefix, width=96):
    lines, line = [], ''
    for word in c_comment(text).split():
        if line and len(prefix) + 1 + len(line) + 1 + len(word) > width:
            lines.append(prefix + ' ' + line)
            line = ''
        line = line + ' ' + word if line else word
    if line:
        lines.append(prefix + ' ' + line)
    return lines


def load_standard(directory):
    """EventName -> list of Aliases, over every *.json of directory."""
    names = {}
    for fn in sorted(os.listdir(directory)):
        if not fn.endswith('.json'):
            continue
        with open(os.path.join(directory, fn), encoding='utf-8') as f:
            for e in json.load(f):
                if isinstance(e, dict) and 'EventName' in e:
                    names[e['EventName'].upper()] = [
                        a.strip() for a in str(e.get('Aliases', '')).split(',') if a.strip()]
    return names


def generate(core, table_path, standard=None):
    with open(table_path, encoding='utf-8') as f:
        table = json.load(f)
    if not isinstance(table, list):
        raise SystemExit(f'gen-csr-header: {table_path}: not a JSON array')
    core_id = mangle(core)
    parts = os.path.abspath(table_path).split(os.sep)
    rel = '/'.join(parts[-4:]) if len(parts) >= 4 and parts[-4] == 'events' else parts[-1]
    guard = f'PMU_{core_id}_EVENTS_H'

    events, seen, std = [], {}, {}
    fixed = True
    for e in table:
        if not isinstance(e, dict) or 'EventName' not in e or 'CounterCSR' not in e:
            continue
        name = e['EventName']
        ident = mangle(name)
        if ident in seen:
            raise SystemExit(f'gen-csr-header: {name} and {seen[ident]} both give {ident}')
        seen[ident] = name
        code = number(e.get('EventCode', '0'), name)
        ctrs = counters_of(e['CounterCSR'], name)
        width = number(e.get('CounterWidth', '64'), name)
        if not 1 <= width <= 64:
            raise SystemExit(f'gen-csr-header: {name}: CounterWidth {width} outside 1..64')
        bit = None
        if 'MhpmeventBit' in e:
            bit = number(e['MhpmeventBit'], name)
            if not 0 <= bit <= 63 or code != 1 << bit:
                raise SystemExit(f'gen-csr-header: {name}: EventCode {code:#x} is not '
                                 f'bit MhpmeventBit {bit}')
        if bit is None or ctrs != [bit]:
            fixed = False
        ev = dict(name=name, ident=ident, code=code, ctrs=ctrs, width=width, bit=bit,
                  brief=e.get('BriefDescription', ''), approx=str(e.get('Approximate', '0')) == '1',
                  note=e.get('ApproxNote', ''))
        events.append(ev)
        for s in (x.strip() for x in str(e.get('StdNames', '')).split(',')):
            if not s:
                continue
            names = [(s, s)]
            if standard is not None:
                if s.upper() not in standard:
                    raise SystemExit(f'gen-csr-header: {name}: StdNames {s} is not a '
                                     f'standard event')
                names += [(a, f'{a}, alias of {s}') for a in standard[s.upper()]]
            for n, label in names:
                sid = mangle(n)
                if sid in std:
                    raise SystemExit(f'gen-csr-header: standard name {n} given by both '
                                     f'{std[sid][1]["name"]} and {name}')
                std[sid] = (label, ev)
    if not events:
        raise SystemExit(f'gen-csr-header: {table_path}: no event has a CounterCSR')

    out = []
    w = out.append
    w('/* SPDX-License-Identifier: MIT */')
    w(f'/* Generated by gen/gen-csr-header.py from {rel}: do not edit. */')
    w(f'/* {core} machine-mode counter events, for <pmu/riscv-csr.h>:')
    w(f' *   PMU_{core_id}_<EVENT>_EVENT     value for mhpmeventN (pmu_csr_event_write)')
    w(f' *   PMU_{core_id}_<EVENT>_COUNTER   counter index to read (pmu_csr_counter_read)')
    w(f' *   PMU_{core_id}_<EVENT>_COUNTERS  mask of the counters that can count it')
    w(f' *   PMU_{core_id}_<EVENT>_WIDTH     counter width in bits (pmu_csr_delta)')
    w(' * and PMU_STD_<STANDARD_NAME>_* aliases for the standard names each event')
    w(' * implements. <EVENT> is the EventName upper-cased, every character other')
    w(' * than a letter or digit turned into \'_\' (NumLoads -> NUMLOADS);')
    w(' * standard names likewise (INST.LOAD.RET -> INST_LOAD_RET). */')
    w(f'#ifndef {guard}')
    w(f'#define {guard}')
    w('')
    if fixed:
        w(f'/* Every {core} event is counted by the one counter whose index is its')
        w(' * mhpmevent bit: the selectors are hard-wired (read-only) and')
        w(' * mhpmeventN already selects event bit N. */')
        w(f'#define PMU_{core_id}_FIXED_EVENTS 1')
        w('')
    for ev in events:
        p = f'PMU_{core_id}_{ev["ident"]}'
        mask = 0
        for c in ev['ctrs']:
            mask |= 1 << c
        w(f'/* {ev["name"]}: {c_comment(ev["brief"])} */')
        w(f'#define {p}_EVENT 0x{ev["code"]:x}u')
        w(f'#define {p}_COUNTER {ev["ctrs"][0]}u')
        w(f'#define {p}_COUNTERS 0x{mask:x}u')
        w(f'#define {p}_WIDTH {ev["width"]}u')
        w('')
    w('/* Standard names (events/standard/) implemented by these events. */')
    for sid in sorted(std):
        s, ev = std[sid]
        src = f'PMU_{core_id}_{ev["ident"]}'
        p = f'PMU_STD_{sid}'
        if ev['approx']:
            w(f'/* {s} -> {ev["name"]}, APPROXIMATE:')
            out.extend(wrap(ev['note'], ' *'))
            w(' */')
        else:
            w(f'/* {s} -> {ev["name"]} */')
        w(f'#define {p}_EVENT {src}_EVENT')
        w(f'#define {p}_COUNTER {src}_COUNTER')
        w(f'#define {p}_COUNTERS {src}_COUNTERS')
        w(f'#define {p}_WIDTH {src}_WIDTH')
        if ev['approx']:
            w(f'#define {p}_APPROXIMATE 1')
    w('')
    w(f'#endif /* {guard} */')
    return '\n'.join(out) + '\n'


def main(argv):
    standard = None
    if len(argv) == 6 and argv[1] == '--standard':
        standard = load_standard(argv[2])
        argv = argv[:1] + argv[3:]
    if len(argv) != 4:
        sys.stderr.write('usage: gen-csr-header.py [--standard DIR] CORE TABLE.json OUTPUT.h\n')
        return 2
    text = generate(argv[1], argv[2], standard)
    with open(argv[3], 'w', encoding='utf-8') as f:
        f.write(text)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
