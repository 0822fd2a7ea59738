#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Generate events/standard/*.json: the standard RISC-V event names.

Two source documents:
  riscv-std       the RISC-V standard performance events: hierarchical names
                  INST.*, MEM.*, CACHE.*, TLB.*, FETCH.*, TOPDOWN.*, composed
                  from the category/qualifier tables by the document's rules;
  riscv-proposal  the earlier GEN/RETIRED/SPEC/PRD_*/CACHE_*/TLB_*/TOPDOWN/
                  RVV_* proposal, whose names are listed one by one.
And libpmu's own names where neither document has one:
  libpmu          socket-wide uncore traffic servers are asked about (DRAM
                  bytes read and written, last-level cache misses to local
                  and remote memory, bytes over the socket links): MEM.DRAM.*,
                  CACHE.LLC.MISS.*, MEM.XSOCKET.* (socket.json).
Where both documents name the same thing, the riscv-std name is the entry and
the proposal's name is one of its Aliases.

Usage:  gen/gen-standard-events.py [OUTDIR]     (default: events/standard)
        gen/gen-standard-events.py --check [OUTDIR]
Python 3 standard library only; the output is deterministic (sorted).
"""
import json
import os
import sys

STD = 'riscv-std'
PROP = 'riscv-proposal'
LIBPMU = 'libpmu'

KEY_ORDER = ['EventName', 'BriefDescription', 'PublicDescription', 'Source', 'Aliases', 'Generic',
             'Approximate', 'ApproxNote', 'TopdownRole', 'Notes']

# file -> list of event dicts
FILES = {}
# EventName -> (file, dict)
BY_NAME = {}


def ev(fname, name, brief, public=None, source=STD, **extra):
    name = name.upper()
    if name.lower() in BY_NAME:
        raise SystemExit('duplicate event %s' % name)
    e = {'EventName': name, 'BriefDescription': brief}
    if public:
        e['PublicDescription'] = public
    e['Source'] = source
    for k, v in extra.items():
        if v is None:
            continue
        if k not in KEY_ORDER:
            raise SystemExit('unknown key %s' % k)
        e[k] = v
    FILES.setdefault(fname, []).append(e)
    BY_NAME[name.lower()] = (fname, e)
    return e


def add_alias(name, alias):
    _, e = BY_NAME[name.lower()]
    al = [a for a in e.get('Aliases', '').split(',') if a]
    if alias.upper() in al:
        return
    al.append(alias.upper())
    e['Aliases'] = ','.join(al)


def set_generic(name, generic, approx_note=None):
    _, e = BY_NAME[name.lower()]
    e['Generic'] = generic
    if approx_note:
        e['Approximate'] = '1'
        e['ApproxNote'] = approx_note


def cap(s):
    return s[:1].upper() + s[1:]


# ---------------------------------------------------------------------------
# riscv-std: names and their parts
# ---------------------------------------------------------------------------

CACHES = {  # the document's typical example caches
    'L1D': 'L1 data cache',
    'L1I': 'L1 instruction cache',
    'L2': 'L2 cache',
    'L3': 'L3 cache',
    'LL': 'last-level cache',
}
DATA_CACHES = ['L1D', 'L2', 'L3', 'LL']    # caches a data access can hit
CODE_CACHES = ['L1I', 'L2', 'L3', 'LL']    # caches an instruction fetch can hit

TLBS = {  # the document's typical example TLBs
    'L1D': 'L1 data TLB',
    'L1I': 'L1 instruction TLB',
    'LL': 'last-level TLB',
}
DATA_TLBS = ['L1D', 'LL']
CODE_TLBS = ['L1I', 'LL']

VARIANTS = ('RET', 'SPEC')

LOCAL_REMOTE_NOTE = ('What counts as local or remote is implementation-defined; typically local means '
                     'the same NUMA node and remote another one.')

# ----------------------------------------------------------------- INST ----

INST_CATS = [
    # (category, plural noun, detail)
    ('', 'instructions', 'All instructions, standard RISC-V and custom alike.'),
    ('BRJMP', 'branch and jump instructions',
     'Conditional branches plus JAL and JALR, compressed forms included. The category definition '
     'names only BRANCH/JAL/JALR opcodes, while its TRAPRET, TK and UNCOND sub-types include MRET and SRET.'),
    ('MISPRED', 'mispredicted branch and jump instructions',
     'Branch and jump instructions whose direction or target the hart predicted wrongly.'),
    ('LOAD', 'load instructions', 'Instructions that perform at least one memory read.'),
    ('STORE', 'store instructions', 'Instructions that perform at least one memory write.'),
    ('LDST', 'load and store instructions',
     'Instructions that read or write memory: the union of the LOAD and STORE categories.'),
    ('MO', 'memory-ordering instructions', 'FENCE and FENCE.TSO.'),
    ('INT', 'integer computational instructions',
     'RVxI computational instructions (compressed forms included) plus the M extension and the A '
     'extension AMOs; whether NOPs count is implementation-defined.'),
    ('FP', 'floating-point instructions', 'Every instruction of the F, D, Q and Zfa extensions.'),
    ('RVV', 'vector instructions', 'Every instruction of the V extension.'),
    ('RVC', 'compressed instructions', 'Every instruction of the C extension.'),
]

# control transfer types: (suffix, noun, detail, allowed under MISPRED)
CT_TYPES = [
    ('BRANCH', 'conditional branches', 'Instructions of the BRANCH opcode (BEQ, BNE, BLT, ...) and C.BEQZ/C.BNEZ.', True),
    ('BRANCH.TK', 'taken conditional branches', 'Conditional branches whose condition held.', True),
    ('BRANCH.NT', 'not-taken conditional branches', 'Conditional branches that fell through.', True),
    ('IND', 'indirect jumps and calls',
     'Uninferrable (register-target) calls and jumps, with or without linkage; returns and co-routine '
     'swaps are separate types.', True),
    ('IND.CALL', 'indirect calls',
     'JALR x1,rs with rs other than x5; JALR x5,rs with rs other than x1; C.JALR rs1 with rs1 other than x5.', True),
    ('IND.JUMP', 'indirect jumps without linkage',
     'JALR x0,rs and C.JR rs1 where the source register is neither x1 nor x5.', True),
    ('IND.LJUMP', 'other indirect jumps with linkage',
     'JALR rd,rs where rs is neither x1 nor x5 and rd is none of x0, x1, x5.', True),
    ('DIR', 'direct jumps and calls', 'Inferrable (PC-relative or table) calls and jumps, with or without linkage.', False),
    ('DIR.CALL', 'direct calls', 'JAL x1, JAL x5, C.JAL and CM.JALT.', False),
    ('DIR.JUMP', 'direct jumps without linkage', 'JAL x0, C.J and CM.JT.', False),
    ('DIR.LJUMP', 'other direct jumps with linkage', 'JAL rd where rd is none of x0, x1, x5.', False),
    ('CORSWAP', 'co-routine swaps', 'JALR x1,x5; JALR x5,x1; C.JALR x5.', True),
    ('RETURN', 'function returns',
     'JALR rd,rs with rs x1 or x5 and rd neither x1 nor x5; C.JR x1 or x5; CM.POPRET and CM.POPRETZ.', True),
    ('TRAPRET', 'trap returns',
     'MRET and SRET. Counted only when the privilege mode the return executes in is being counted, '
     'so a user-mode-only counter never sees them.', True),
    ('TK', 'taken control transfers', 'JAL, JALR, MRET, SRET and taken conditional branches.', True),
    ('PRED', 'predicted control transfers',
     'The union of conditional branches, indirect jumps and calls, co-routine swaps and returns.', False),
    ('JUMP', 'jumps', 'Direct and indirect jumps, with or without linkage; calls and returns excluded.', True),
    ('CALL', 'calls', 'Direct and indirect calls.', True),
    ('RETALL', 'returns including co-routine swaps', 'The union of RETURN and CORSWAP.', True),
    ('CALLALL', 'calls including co-routine swaps', 'The union of CALL and CORSWAP.', True),
    ('UNCOND', 'unconditional control transfers', 'JAL, JALR, MRET and SRET.', True),
]

RVV_TYPES = [
    ('LOAD', 'vector load instructions'),
    ('STORE', 'vector store instructions'),
    ('LDST', 'vector load and store instructions'),
    ('CFG', 'vector configuration (VSETVL, VSETVLI, VSETIVLI) instructions'),
    ('ARITH', 'vector arithmetic instructions'),
    ('ARITH.INT', 'vector-integer arithmetic instructions'),
    ('ARITH.FP', 'vector floating-point arithmetic instructions'),
]
RVV_MODES = [
    ('UNIT', 'unit-stride'),
    ('IDXU', 'indexed-unordered'),
    ('STRD', 'strided'),
    ('IDXO', 'indexed-ordered'),
]


def mem_qualifiers(cat):
    """(suffix, phrase, detail) for the LOAD/STORE/LDST qualifiers, as the document composes them."""
    out = [('UC', 'that accessed uncacheable memory', 'Accesses to memory regions marked uncacheable.')]
    if cat in ('LOAD', 'LDST'):  # forwarding delivers data to loads only
        out.append(('DSRC.STLF', 'whose data was forwarded from an older store',
                    'Store-to-load forwarding: the data came from an older store still in flight, '
                    'not from a cache.'))
    for c in DATA_CACHES:
        n = CACHES[c]
        out.append(('DSRC.%s' % c, 'whose data access hit in the %s' % n, None))
        out.append(('DSRC.%s.MISS' % c, 'whose data access missed the %s' % n, None))
        out.append(('DSRC.%s.MERGE' % c, 'whose data access merged into an outstanding %s miss' % n,
                    'The access found the line already being fetched because of an earlier miss.'))
    out += [
        ('DSRC.LOCAL.MEM', 'whose data came from local memory', LOCAL_REMOTE_NOTE),
        ('DSRC.REMOTE.MEM', 'whose data came from remote memory', LOCAL_REMOTE_NOTE),
        ('DSRC.REMOTE.CACHE', 'whose data came from a remote cache', LOCAL_REMOTE_NOTE),
        ('DSRC.REMOTE.HITM', 'that hit modified data in a remote cache', LOCAL_REMOTE_NOTE),
    ]
    for t in DATA_TLBS:
        n = TLBS[t]
        out.append(('ASRC.%s' % t, 'whose address translation hit in the %s' % n, None))
        out.append(('ASRC.%s.MISS' % t, 'whose address translation missed the %s' % n, None))
    return out


def variant_text(v, base_ret):
    if v == 'RET':
        return 'Counted at retirement: only work on the architecturally executed path is included.'
    return ('Counted speculatively: work that is later squashed (wrong-path, flushed) may be included. '
            'Speculative counterpart of %s.' % base_ret)


def variant_brief(v, noun):
    """The brief description of @noun counted at retirement (RET) or speculatively (SPEC)."""
    return ('Retired %s' % noun) if v == 'RET' else ('%s, speculative count' % cap(noun))


def gen_inst():
    f = 'inst.json'
    for cat, noun, detail in INST_CATS:
        base = 'INST' + ('.' + cat if cat else '')
        for v in VARIANTS:
            brief = variant_brief(v, noun)
            ev(f, '%s.%s' % (base, v), brief, '%s %s' % (detail, variant_text(v, base + '.RET')))
        if cat in ('BRJMP', 'MISPRED'):
            for t, tnoun, tdetail, in_mispred in CT_TYPES:
                if cat == 'MISPRED' and not in_mispred:
                    continue  # DIR.* and PRED apply only to BRJMP
                full = '%s.%s' % (base, t)
                if cat == 'MISPRED':
                    tn = 'mispredicted ' + tnoun
                else:
                    tn = tnoun
                for v in VARIANTS:
                    brief = variant_brief(v, tn)
                    ev(f, '%s.%s' % (full, v), brief,
                       '%s %s' % (tdetail, variant_text(v, full + '.RET')))
        if cat in ('LOAD', 'STORE', 'LDST'):
            for q, phrase, qdetail in mem_qualifiers(cat):
                full = '%s.%s' % (base, q)
                for v in VARIANTS:
                    brief = variant_brief(v, noun + ' ' + phrase)
                    pub = 'An instruction with several memory accesses counts once if any of them qualifies.'
                    if qdetail:
                        pub = qdetail + ' ' + pub
                    if v == 'RET' and q.startswith('DSRC'):
                        pub += (' Accesses that complete after the instruction retires may reach the '
                                'counter late.')
                    pub += ' ' + variant_text(v, full + '.RET')
                    ev(f, '%s.%s' % (full, v), brief, pub)
        if cat == 'RVV':
            for t, tnoun in RVV_TYPES:
                full = '%s.%s' % (base, t)
                for v in VARIANTS:
                    brief = variant_brief(v, tnoun)
                    ev(f, '%s.%s' % (full, v), brief, variant_text(v, full + '.RET'))
                if t in ('LOAD', 'STORE', 'LDST'):
                    for m, mnoun in RVV_MODES:
                        fm = '%s.%s' % (full, m)
                        nn = tnoun.replace('vector ', 'vector %s ' % mnoun, 1)
                        for v in VARIANTS:
                            brief = variant_brief(v, nn)
                            ev(f, '%s.%s' % (fm, v), brief, variant_text(v, fm + '.RET'))


# ------------------------------------------------------------------ MEM ----

MEM_CATS = [
    ('LOAD', 'load accesses'),
    ('STORE', 'store accesses'),
    ('LDST', 'load and store accesses'),
]


def gen_mem():
    f = 'mem.json'
    what = ('Counts each explicit memory access made by instructions, so an instruction with two '
            'accesses counts twice; prefetches and implicit accesses such as page-table walks are not counted.')
    for cat, noun in MEM_CATS:
        base = 'MEM.%s' % cat
        for v in VARIANTS:
            brief = variant_brief(v, noun)
            ev(f, '%s.%s' % (base, v), brief, '%s %s' % (what, variant_text(v, base + '.RET')))
        for q, phrase, qdetail in mem_qualifiers(cat):
            full = '%s.%s' % (base, q)
            phrase = phrase.replace('whose data access', 'whose data').replace('whose data hit', 'that hit') \
                .replace('whose data missed', 'that missed').replace('whose data merged', 'that merged')
            for v in VARIANTS:
                brief = variant_brief(v, noun + ' ' + phrase)
                pub = what
                if qdetail:
                    pub = qdetail + ' ' + pub
                if v == 'RET' and q.startswith('DSRC'):
                    pub += ' Accesses that complete after retirement may reach the counter late.'
                pub += ' ' + variant_text(v, full + '.RET')
                ev(f, '%s.%s' % (full, v), brief, pub)


# ---------------------------------------------------------------- CACHE ----

CACHE_PERSPECTIVE = ('Counted from the cache\'s point of view (each access separately), speculative '
                     'accesses included; for a cache shared by several harts only this hart\'s requests count.')

# ops each cache kind can have
CACHE_OPS = {
    'L1D': ['RD', 'RD.DATA', 'RD.PREF', 'WR', 'RW', 'FILL', 'WB', 'SNOOP', 'OPREF'],
    'L1I': ['RD', 'RD.CODE', 'RD.PREF', 'FILL', 'SNOOP', 'OPREF'],
    'L2': ['RD', 'RD.DATA', 'RD.PREF', 'RD.CODE', 'WR', 'RW', 'FILL', 'WB', 'SNOOP', 'OPREF'],
    'L3': ['RD', 'RD.DATA', 'RD.PREF', 'RD.CODE', 'WR', 'RW', 'FILL', 'WB', 'SNOOP', 'OPREF'],
    'LL': ['RD', 'RD.DATA', 'RD.PREF', 'RD.CODE', 'WR', 'RW', 'FILL', 'WB', 'SNOOP', 'OPREF'],
}
LOOKUP_OPS = {
    'RD': ('reads', 'Explicit reads (loads) and implicit ones such as page-table walks.'),
    'RD.DATA': ('data-load reads', 'The subset of reads made by data load operations.'),
    'RD.PREF': ('incoming prefetch reads', 'The subset of reads that are prefetch requests arriving at the cache.'),
    'RD.CODE': ('instruction-fetch reads', 'The subset of reads made by instruction fetch.'),
    'WR': ('writes', 'Explicit writes (stores) and implicit ones such as page accessed/dirty bit updates.'),
    'RW': ('reads and writes', 'The union of the RD and WR types.'),
}
RESULTS = [
    # (result, brief pattern: noun, structure name)
    ('', '%s that looked up the %s'),
    ('HIT', '%s that hit in the %s'),
    ('MISS', '%s that missed the %s'),
    ('MERGE', '%s that merged into an outstanding miss of the %s'),
]


def gen_cache():
    f = 'cache.json'
    for c in ['L1D', 'L1I', 'L2', 'L3', 'LL']:
        cn = CACHES[c]
        llnote = (' The last-level cache events may be the same counters as those of one of the levels '
                  'above it.') if c == 'LL' else ''
        for op in CACHE_OPS[c]:
            base = 'CACHE.%s.%s' % (c, op)
            if op in LOOKUP_OPS:
                phrase, detail = LOOKUP_OPS[op]
                for res, pattern in RESULTS:
                    name = base + ('.' + res if res else '')
                    brief = cap(pattern % (phrase, cn))
                    pub = '%s %s%s' % (detail, CACHE_PERSPECTIVE, llnote)
                    e = ev(f, name, brief, pub)
                    if not res:
                        add_alias(name, base + '.ACCESS')
                if op in ('RD.DATA', 'RD.CODE'):
                    what = 'load' if op == 'RD.DATA' else 'instruction-fetch'
                    ev(f, base + '.MISS.CYCLES',
                       'Cycles with at least one %s miss of the %s outstanding' % (what, cn),
                       'Core cycles, at the rate of the Zicntr cycle counter, while a %s miss in the %s '
                       'is in progress.%s' % (what, cn, llnote))
            elif op == 'FILL':
                ev(f, base, 'Lines filled into the %s' % cn,
                   'Misses or prefetches that brought a line into the cache from memory or an outer cache. '
                   'For a shared cache only fills caused by this hart\'s requests count.' + llnote)
            elif op == 'WB':
                ev(f, base, 'Modified lines written back from the %s' % cn,
                   'Dirty lines written out to memory or to an outer cache. For a shared cache only '
                   'writebacks caused by this hart\'s requests count.' + llnote)
            elif op == 'OPREF':
                ev(f, base, 'Prefetches sent out by the %s to pull lines into it' % cn,
                   'Outbound prefetch requests issued on behalf of this cache. Not incremented for a cache '
                   'shared by several harts.' + llnote)
            elif op == 'SNOOP':
                for src, sphrase in [('', ''), ('LOCAL', ' from accesses local to this hart'),
                                     ('REMOTE', ' from other harts')]:
                    sb = base + ('.' + src if src else '')
                    for res, rphrase in [('', ''), ('HIT', ' that hit unmodified data'),
                                         ('HITM', ' that hit modified data'), ('MISS', ' that missed')]:
                        if res == 'HITM' and c == 'L1I':
                            continue  # an instruction cache never holds modified lines
                        name = sb + ('.' + res if res else '')
                        ev(f, name, 'Coherence snoops of the %s%s%s' % (cn, sphrase, rphrase),
                           'Snoop lookups of the cache; without LOCAL or REMOTE all snoops count. For a shared '
                           'cache only snoops for this hart\'s requests count.' + llnote)
                        if not res:
                            add_alias(name, sb + '.ACCESS')


# ------------------------------------------------------------------ TLB ----

TLB_OPS = {
    'L1D': ['LOAD', 'STORE', 'LDST'],
    'L1I': ['CODE'],
    'LL': ['LOAD', 'STORE', 'LDST', 'CODE'],
}
TLB_OP_TEXT = {
    'LOAD': 'load address translations',
    'STORE': 'store address translations',
    'LDST': 'load and store address translations',
    'CODE': 'instruction-fetch address translations',
}


def gen_tlb():
    f = 'tlb.json'
    persp = ('Counted from the TLB\'s point of view (each translation separately), speculative requests '
             'included.')
    for t in ['L1D', 'L1I', 'LL']:
        tn = TLBS[t]
        llnote = ' Where the L1 TLB is the only level, these may be the same counters as the L1 ones.' \
            if t == 'LL' else ''
        for op in TLB_OPS[t]:
            base = 'TLB.%s.%s' % (t, op)
            for res, pattern in RESULTS:
                name = base + ('.' + res if res else '')
                ev(f, name, cap(pattern % (TLB_OP_TEXT[op], tn)), persp + llnote)
                if not res:
                    add_alias(name, base + '.ACCESS')
            if op in ('LDST', 'CODE'):
                what = 'load/store' if op == 'LDST' else 'instruction-fetch'
                ev(f, base + '.MISS.CYCLES',
                   'Cycles with at least one %s miss of the %s outstanding' % (what, tn),
                   'Core cycles, at the rate of the Zicntr cycle counter, while a %s translation miss in '
                   'the %s is in progress.%s' % (what, tn, llnote))


# ---------------------------------------------------------------- FETCH ----

def gen_fetch():
    f = 'fetch.json'
    persp = 'Counts instruction fetch requests, speculative ones included.'
    for c in CODE_CACHES:
        cn = CACHES[c]
        ev(f, 'FETCH.DSRC.%s' % c, 'Instruction fetches that hit in the %s' % cn, persp)
        ev(f, 'FETCH.DSRC.%s.MISS' % c, 'Instruction fetches that missed the %s' % cn, persp)
        ev(f, 'FETCH.DSRC.%s.MERGE' % c, 'Instruction fetches that merged into an outstanding %s miss' % cn,
           persp)
    for s, phrase in [('LOCAL.MEM', 'were served from local memory'), ('REMOTE.MEM', 'were served from remote memory'),
                      ('REMOTE.CACHE', 'were served from a remote cache'),
                      ('REMOTE.HITM', 'hit modified data in a remote cache')]:
        ev(f, 'FETCH.DSRC.%s' % s, 'Instruction fetches that %s' % phrase, persp + ' ' + LOCAL_REMOTE_NOTE)
    for t in CODE_TLBS:
        tn = TLBS[t]
        ev(f, 'FETCH.ASRC.%s' % t, 'Instruction fetches whose address translation hit in the %s' % tn, persp)
        ev(f, 'FETCH.ASRC.%s.MISS' % t, 'Instruction fetches whose address translation missed the %s' % tn,
           persp)


# -------------------------------------------------------------- TOPDOWN ----

TD_NOTE = ('Top-down (TMA) slot count: a slot is one issue position of one cycle, so an N-wide machine has N '
           'slots per cycle.')


def gen_topdown():
    f = 'topdown.json'
    T = [
        # name, brief, public, source, role
        ('TOPDOWN.SLOTS', 'Issue slots available while the hart is not halted',
         'The denominator of every top-down fraction: pipeline width times unhalted cycles.', STD, 'L0.slots'),
        ('TOPDOWN.RETIRING.SLOTS', 'Slots holding operations that went on to retire',
         'Useful work; ideally most slots fall here.', STD, 'L1.retiring'),
        ('TOPDOWN.BAD_SPECULATION.SLOTS', 'Slots wasted by mis-speculation',
         'Operations issued but squashed by a pipeline flush (branch or jump mispredictions, memory-ordering '
         'clears, exceptions, interrupts), plus slots left empty while the pipeline recovers from the flush.',
         STD, 'L1.bad-spec'),
        ('TOPDOWN.BAD_SPECULATION.CONTROL_FLOW.SLOTS', 'Slots wasted by control-flow mis-speculation',
         'Bad-speculation slots caused by mispredicted branches and jumps.', PROP, 'L2.bad-spec.br-mispredict'),
        ('TOPDOWN.BAD_SPECULATION.MEM_ORDERING.SLOTS', 'Slots wasted by memory-ordering violations',
         'Bad-speculation slots caused by pipeline clears after memory-ordering (data mis-speculation) '
         'violations.', PROP, 'L2.bad-spec.mem-ordering'),
        ('TOPDOWN.FRONTEND_BOUND.SLOTS', 'Slots the frontend left empty although the backend could accept work',
         'Issue slots unfilled because the frontend delivered no operation, for example after instruction '
         'cache or TLB misses, while the backend was ready.', STD, 'L1.fe-bound'),
        ('TOPDOWN.FRONTEND_BOUND.LATENCY.SLOTS', 'Frontend-bound slots lost waiting for fetch',
         'Slots in cycles when the decoders had no instruction bytes to work on, so nothing was delivered.',
         STD, 'L2.fe-bound.fetch-lat'),
        ('TOPDOWN.FRONTEND_BOUND.LATENCY.ADDR.SLOTS', 'Fetch-latency slots lost waiting for fetch address translation',
         'Slots unfilled while a fetch line waited for its address translation, for example after an '
         'instruction TLB miss.', STD, 'L3.fe-bound.fetch-lat.addr'),
        ('TOPDOWN.FRONTEND_BOUND.LATENCY.DATA.SLOTS', 'Fetch-latency slots lost waiting for fetch data',
         'Slots unfilled while a fetch line waited for its bytes, for example after an L1 instruction cache '
         'miss.', STD, 'L3.fe-bound.fetch-lat.data'),
        ('TOPDOWN.FRONTEND_BOUND.LATENCY.REDIRECT.SLOTS', 'Fetch-latency slots lost to fetch redirects',
         'Frontend slots discarded when fetch is redirected by control transfers such as jumps and taken '
         'branches.', STD, 'L3.fe-bound.fetch-lat.redirect'),
        ('TOPDOWN.FRONTEND_BOUND.BANDWIDTH.SLOTS', 'Frontend-bound slots lost to decode bandwidth limits',
         'Slots left empty in cycles when the decoders had instruction bytes and delivered some operations '
         'but could not fill every slot, for example because of decoder asymmetry.', STD, 'L2.fe-bound.fetch-bw'),
        ('TOPDOWN.BACKEND_BOUND.SLOTS', 'Slots the backend could not accept',
         'Slots in which the backend had no resources to take an operation from the frontend, for example '
         'because of data cache or TLB misses or busy execution units.', STD, 'L1.be-bound'),
        ('TOPDOWN.BACKEND_BOUND.CORE.SLOTS', 'Backend-bound slots not caused by memory operations',
         'Backend stalls from causes other than loads and stores: long-latency arithmetic, oversubscribed '
         'execution units, serialization.', STD, 'L2.be-bound.core-bound'),
        ('TOPDOWN.BACKEND_BOUND.CORE.SERIALIZING.SLOTS', 'Core-bound slots blocked by serializing operations',
         'Backend stall slots caused by serialization, for example fences or CSR accesses.', STD,
         'L3.be-bound.core-bound.serialization'),
        ('TOPDOWN.BACKEND_BOUND.MEMORY.SLOTS', 'Backend-bound slots caused by loads and stores',
         'Slots in which the backend could not accept work because of memory operations.', STD,
         'L2.be-bound.mem-bound'),
        ('TOPDOWN.BACKEND_BOUND.MEMORY.ADDR.SLOTS', 'Memory-bound slots waiting for data address translation',
         'Backend stall slots waiting for load/store address generation and translation, for example after '
         'a data TLB miss.', STD, 'L3.be-bound.mem-bound.addr'),
        ('TOPDOWN.BACKEND_BOUND.MEMORY.ADDR.TLB.L1_MISS.SLOTS',
         'Memory-address slots stalled on translations that missed the L1 data TLB',
         'Counts stall slots per TLB level missed, so the slots attributable to a level are this count '
         'minus that of the next level.', STD, 'L4.be-bound.mem-bound.addr.tlb-l1-miss'),
        ('TOPDOWN.BACKEND_BOUND.MEMORY.ADDR.TLB.LL_MISS.SLOTS',
         'Memory-address slots stalled on translations that missed the last-level TLB',
         'Stalls on translations that missed every TLB and needed a page walk.', STD,
         'L4.be-bound.mem-bound.addr.tlb-ll-miss'),
        ('TOPDOWN.BACKEND_BOUND.MEMORY.ADDR.TLB.L2_MISS.SLOTS',
         'Memory-address slots stalled on translations that missed the L2 TLB',
         'The proposal treats the L2 TLB as the last level: these stalls need a page walk.', PROP,
         'L4.be-bound.mem-bound.addr.tlb-l2-miss'),
        ('TOPDOWN.BACKEND_BOUND.MEMORY.DATA.SLOTS', 'Memory-bound slots waiting for load or store data',
         'Backend stall slots waiting for a load or store access to complete, for example after an L1 data '
         'cache miss.', STD, 'L3.be-bound.mem-bound.data'),
        ('TOPDOWN.BACKEND_BOUND.MEMORY.DATA.L1_MISS.SLOTS',
         'Memory-data slots stalled on accesses that missed the L1 data cache',
         'Counts stall slots per cache level missed, so the slots attributable to hits in a level are the '
         'previous level\'s count minus this level\'s.', STD, 'L4.be-bound.mem-bound.data.l1-miss'),
        ('TOPDOWN.BACKEND_BOUND.MEMORY.DATA.L2_MISS.SLOTS',
         'Memory-data slots stalled on accesses that missed the L2 cache',
         'Stall slots on loads or stores that missed L2.', STD, 'L4.be-bound.mem-bound.data.l2-miss'),
        ('TOPDOWN.BACKEND_BOUND.MEMORY.DATA.L3_MISS.SLOTS',
         'Memory-data slots stalled on accesses that missed the L3 cache',
         'Stall slots on loads or stores that missed L3.', STD, 'L4.be-bound.mem-bound.data.l3-miss'),
        ('TOPDOWN.BACKEND_BOUND.MEMORY.DATA.LL_MISS.SLOTS',
         'Memory-data slots stalled on accesses that missed the last-level cache',
         'Stall slots waiting for external memory.', STD, 'L4.be-bound.mem-bound.data.ll-miss'),
    ]
    for name, brief, pub, src, role in T:
        ev(f, name, brief, pub + ' ' + TD_NOTE, src, TopdownRole=role)


# ---------------------------------------------------------------------------
# riscv-proposal: names listed one by one
# ---------------------------------------------------------------------------

def gen_proposal_general():
    f = 'gen.json'
    ev(f, 'GEN.CYCLES', 'Cycles while the hart is not halted, at its actual (possibly varying) clock',
       'Core clock cycles of the hart, not counted while it is halted; the rate follows frequency changes.',
       PROP)
    ev(f, 'GEN.CYCLES.SMT.CORE', 'Core cycles shared out evenly among the active harts of the core',
       'With SMT, each cycle of the physical core is divided among the harts active in it; without SMT '
       'it equals GEN.CYCLES.', PROP)
    ev(f, 'GEN.CYCLES.SMT.ONE_HART_ACTIVE', 'Cycles in which every other hart of the physical core is halted',
       'Lets GEN.CYCLES.SMT.CORE be computed on 2-hart cores that lack it.', PROP)
    ev(f, 'RETIRED.INT', 'Retired integer instructions',
       'The proposal does not define which instructions count as integer; not linked to INST.INT.RET, '
       'whose scope is defined (computational RVxI, M and AMO instructions).', PROP)
    ev(f, 'RETIRED.FPU', 'Retired FPU instructions',
       'The proposal does not define the scope; not linked to INST.FP.RET (F, D, Q, Zfa extensions).', PROP)
    ev(f, 'RETIRED.UOP', 'Retired micro-operations',
       'Micro-operations (uops) retired; the top-down Retiring fraction is based on it.', PROP)
    ev(f, 'SPEC.INT_ISSUED', 'Integer instructions issued, speculative ones included',
       'Scope undefined by the proposal, like RETIRED.INT.', PROP)
    ev(f, 'SPEC.FPU_ISSUED', 'FPU instructions issued, speculative ones included',
       'Scope undefined by the proposal, like RETIRED.FPU.', PROP)
    ev(f, 'SPEC.UOP_ISSUED', 'Micro-operations issued, speculative ones included',
       'Issued uops minus retired uops gives the operations cancelled by mis-speculation.', PROP)


def gen_proposal_prd():
    f = 'prd.json'
    only = [
        ('DIRECT_CALL', 'direct calls', 'JAL x1, JAL x5, C.JAL. Unlike INST.BRJMP.DIR.CALL it does not list '
         'CM.JALT, so the two are not linked.'),
        ('DIRECT_JUMP', 'direct jumps without linkage', 'JAL x0, C.J. Unlike INST.BRJMP.DIR.JUMP it does not '
         'list CM.JT, so the two are not linked.'),
        ('RETURN', 'function returns', 'JALR rd,rs with rs x1 or x5 and rd neither; C.JR x1 or x5. Unlike '
         'INST.BRJMP.RETURN it does not list CM.POPRET(Z), so the two are not linked.'),
    ]
    for t, noun, detail in only:
        ev(f, 'PRD_RETIRED.%s' % t, 'Retired %s' % noun, detail, PROP)
        ev(f, 'PRD_RETIRED.%s.MISPRED' % t, 'Retired %s that were mispredicted' % noun, detail, PROP)
    ev(f, 'PRD_RETIRED.DIRECT_JUMP_LINKAGE.MISPRED', 'Retired other direct jumps with linkage that were mispredicted',
       'JAL rd with rd none of x0, x1, x5. The standard events have no mispredict count for direct '
       'transfers.', PROP)
    ev(f, 'PRD_SPEC.PIPELINE_FLUSH.ALL', 'Pipeline flushes for any reason',
       'Flushes caused by branch mispredictions, memory disambiguation, serializing instructions and so on.',
       PROP)
    ev(f, 'PRD_SPEC.PIPELINE_FLUSH.RECOVERY_CYCLES', 'Cycles spent recovering from pipeline flushes',
       'Cycles to recover from flushes of any cause; times pipeline width gives the recovery part of '
       'bad-speculation slots.', PROP)


def gen_proposal_cache():
    f = 'cache.json'
    R = 'Counted for retired load or store instructions.'
    ev(f, 'CACHE_RETIRED.L1D.LOAD.ACCESS', 'Retired load instructions that accessed the L1 data cache', R, PROP)
    ev(f, 'CACHE_RETIRED.L1D.STORE.ACCESS', 'Retired store instructions that accessed the L1 data cache', R, PROP)
    ev(f, 'CACHE_RETIRED.L1I.MISS', 'Retired instructions whose fetch missed the L1 instruction cache',
       'Counted per retired instruction, unlike the speculative fetch-request counts of FETCH.*.', PROP)
    ev(f, 'CACHE_RETIRED.L2.LOAD.ACCESS', 'Retired loads that got data from L2 or a level beyond it',
       'Includes L3, local and remote memory and remote caches as sources.', PROP)
    ev(f, 'CACHE_RETIRED.L3.LOAD.ACCESS', 'Retired loads that got data from L3 or a level beyond it',
       'Includes local and remote memory and remote caches as sources.', PROP)
    S = 'Speculative accesses included.'
    for c, cn in [('L1D', 'L1 data cache'), ('L2', 'L2 cache'), ('L3', 'L3 cache')]:
        note = ('Store-initiated accesses only; not linked to CACHE.%s.WR, which also counts implicit writes '
                'such as page A/D updates. %s' % (c, S))
        ev(f, 'CACHE_SPEC.%s.STORE.ACCESS' % c, '%s accesses made by stores' % cap(cn), note, PROP)
        ev(f, 'CACHE_SPEC.%s.STORE.HIT' % c, '%s hits for stores' % cap(cn), note, PROP)
        ev(f, 'CACHE_SPEC.%s.STORE.MISS' % c, '%s misses for stores' % cap(cn), note, PROP)
        ev(f, 'CACHE_SPEC.%s.STORE.MERGE' % c, '%s store accesses that merged into an outstanding miss' % cap(cn),
           note, PROP)
        ev(f, 'CACHE_SPEC.%s.PF.UNUSED' % c, 'Prefetched lines evicted from the %s without ever being used' % cn,
           'Lines brought in by the prefetcher and evicted before any access touched them.', PROP)
        if c != 'L1D':
            ev(f, 'CACHE_SPEC.%s.STORE.HIT.RFO' % c, '%s hits for stores requesting exclusive ownership' % cap(cn),
               'Read-for-ownership requests from stores that hit. ' + S, PROP)
            ev(f, 'CACHE_SPEC.%s.PF.ISSUED' % c, 'Prefetch requests the %s sent to the next level' % cn,
               'Not linked to CACHE.%s.OPREF: the standard event does not count for a cache shared by several '
               'harts, while the proposal does not make that exception.' % c, PROP)
    ev(f, 'CACHE_SPEC.SNOOP.LOCAL_REQ_REMOTE_HITM',
       'Private-cache misses served from a modified line in another core\'s cache',
       'Shows contended lines that several cores read and write.', PROP)
    ev(f, 'CACHE_SPEC.SNOOP.REMOTE_REQ_LOCAL_HITM', 'Snoops that found the line modified in this core\'s cache',
       'Shows contended lines that several cores read and write.', PROP)


def gen_proposal_tlb():
    f = 'tlb.json'
    inferred = ('The proposal\'s TLB_RETIRED event table is missing (the RVV_RETIRED table stands in its place); '
                'this name is known only from its metric formulas.')
    R = [
        ('TLB_RETIRED.L1.LOAD.ACCESS', 'Retired loads whose translation looked up the L1 TLB'),
        ('TLB_RETIRED.L1.LOAD.MISS', 'Retired loads whose translation missed the L1 TLB'),
        ('TLB_RETIRED.L1.STORE.ACCESS', 'Retired stores whose translation looked up the L1 TLB'),
        ('TLB_RETIRED.L1.STORE.MISS', 'Retired stores whose translation missed the L1 TLB'),
        ('TLB_RETIRED.L2.LOAD.MISS', 'Retired loads whose translation missed the L2 TLB'),
        ('TLB_RETIRED.L2.STORE.MISS', 'Retired stores whose translation missed the L2 TLB'),
        ('TLB_RETIRED.L1.LOAD.MISS_OUTSTANDING.CYCLES', 'Cycles with an L1 TLB miss of a retiring load in progress'),
        ('TLB_RETIRED.L2.LOAD.MISS_OUTSTANDING.CYCLES', 'Cycles with an L2 TLB miss of a retiring load in progress'),
    ]
    for name, brief in R:
        ev(f, name, brief, None, PROP, Notes=inferred)
    S = 'Speculative requests included. The proposal\'s L2 TLB is its last level; not linked to the standard LL TLB names.'
    ev(f, 'TLB_SPEC.L1.LOAD.MISS_OUTSTANDING.CYCLES', 'Cycles with at least one load L1 TLB miss in progress',
       'Loads only; the standard defines miss cycles for load-and-store (TLB.L1D.LDST.MISS.CYCLES) and code, '
       'so they are not linked.', PROP)
    ev(f, 'TLB_SPEC.L2.LOAD.MISS', 'Load address translations that missed the L2 TLB', S, PROP)
    ev(f, 'TLB_SPEC.L2.STORE.MISS', 'Store address translations that missed the L2 TLB', S, PROP)
    ev(f, 'TLB_SPEC.L2.CODE.MISS', 'Instruction-fetch address translations that missed the L2 TLB', S, PROP)
    ev(f, 'TLB_SPEC.L2.LOAD.MISS_OUTSTANDING.CYCLES', 'Cycles with at least one load L2 TLB miss in progress', S, PROP)
    ev(f, 'TLB_SPEC.L2.CODE.MISS_OUTSTANDING.CYCLES', 'Cycles with at least one instruction-fetch L2 TLB miss in progress',
       S, PROP)


def gen_proposal_rvv():
    f = 'rvv.json'
    for grp, when, how in [('RVV_RETIRED', 'retired', 'Counted at retirement.'),
                           ('RVV_SPEC', 'executed', 'Counted speculatively: squashed work may be included.')]:
        ev(f, '%s.INT' % grp, 'Integer vector instructions %s' % when,
           'Scope undefined by the proposal; not linked to INST.RVV.ARITH.INT. ' + how, PROP)
        ev(f, '%s.FP' % grp, 'Floating-point vector instructions %s' % when,
           'Scope undefined by the proposal; not linked to INST.RVV.ARITH.FP. ' + how, PROP)
        for el, what, sew in [('INT8', '8-bit integer', 8), ('INT16', '16-bit integer', 16),
                              ('INT32', '32-bit integer', 32), ('INT64', '64-bit integer', 64),
                              ('FP_SINGLE', 'single-precision floating-point', 32),
                              ('FP_DOUBLE', 'double-precision floating-point', 64)]:
            n = 128 // sew
            ev(f, '%s.ELEMENT.%s' % (grp, el), '%s element operations %s, masked-off elements excluded' % (cap(what), when),
               'Adds the number of active elements per instruction: with SEW=%d, LMUL=1, VLEN=128 an arithmetic '
               'instruction adds %d, or %d with half the elements masked off. A fused multiply-add counts 2 per '
               'element. %s' % (sew, n, n // 2, how), PROP)
            ev(f, '%s.ELEMENT.IGNMASK.%s' % (grp, el), '%s element operations %s, mask ignored' % (cap(what), when),
               'Adds the element count per instruction regardless of masking: with SEW=%d, LMUL=1, VLEN=128 an '
               'arithmetic instruction adds %d even with elements masked off. A fused multiply-add counts 2 per '
               'element. %s' % (sew, n, how), PROP)


# ---------------------------------------------------------------------------
# libpmu: what servers are asked (issue 43), socket-wide uncore traffic
# ---------------------------------------------------------------------------

SOCKET_NOTE = ('Socket-wide, not per hart: the traffic of every box of the unit in the socket (all memory '
               'channels, all cache slices, all links, summed), whoever caused it (cores of any process, '
               'prefetchers, I/O, other sockets); count it system-wide (pmu stat -a). ')
LINES_NOTE = ('The mapped event counts 64-byte lines (ScaleUnit 64Bytes on every CPU that maps the name): '
              'the count shown is in bytes, a metric expression sees the count of lines.')


def gen_socket():
    f = 'socket.json'
    for op, what, how in [
            ('RD', 'read from', 'Every read CAS (column access) command of every memory channel of the socket: '
                                'demand and prefetch reads, of local cores or of other sockets and devices. '),
            ('WR', 'written to', 'Every write CAS command of every memory channel of the socket: writebacks '
                                 'of modified lines, non-temporal stores, writes of other sockets and devices. ')]:
        ev(f, 'MEM.DRAM.%s.BYTES' % op, 'Bytes %s the DRAM attached to this socket' % what,
           how + SOCKET_NOTE + LINES_NOTE, source=LIBPMU)
    for op, what, how in [
            ('RD', 'read requests', 'Read requests (demand reads, RFOs, prefetches) that the socket\'s last-level '
                                    'cache slices sent to a home agent because they missed, one line each. '),
            ('WR', 'write requests', 'Write requests (writebacks of modified lines, non-temporal stores) that the '
                                     'socket\'s last-level cache slices sent to a home agent, one line each. ')]:
        for where, whose in [('LOCAL', 'this socket\'s memory'), ('REMOTE', 'another socket\'s memory')]:
            ev(f, 'CACHE.LLC.MISS.%s.%s.BYTES' % (op, where),
               'Bytes of last-level cache %s to %s' % (what, whose),
               how + 'LOCAL: addressed to memory of this socket; REMOTE: to memory of another socket. ' +
               SOCKET_NOTE + LINES_NOTE, source=LIBPMU)
    for d, what in [('TX', 'sent'), ('RX', 'received')]:
        ev(f, 'MEM.XSOCKET.%s.BYTES' % d, 'Data bytes %s over this socket\'s links to other sockets' % what,
           'Data flits of every socket-to-socket link (Intel UPI) of the socket, %s; a 64-byte line takes 9 '
           'flits, so each flit counts 64/9 bytes (ScaleUnit 7.111111111111111Bytes on every CPU that maps the '
           'name: the count shown is in bytes, a metric expression sees the count of flits). Protocol '
           'flits without data are not counted. ' % what + SOCKET_NOTE.rstrip(), source=LIBPMU)


# ---------------------------------------------------------------------------
# links between the documents
# ---------------------------------------------------------------------------

ALIASES = [
    # (riscv-std entry, riscv-proposal name)
    ('INST.RET', 'RETIRED.INST'),
    ('INST.LOAD.RET', 'RETIRED.MEM_LOAD'),
    ('INST.LOAD.UC.RET', 'RETIRED.MEM_LOAD.UC'),
    ('INST.STORE.RET', 'RETIRED.MEM_STORE'),
    ('INST.SPEC', 'SPEC.INST_ISSUED'),
    ('INST.LOAD.SPEC', 'SPEC.MEM_LOAD_ISSUED'),
    ('INST.STORE.SPEC', 'SPEC.MEM_STORE_ISSUED'),
    ('INST.BRJMP.RET', 'PRD_RETIRED.CONTROL_FLOW'),
    ('INST.MISPRED.RET', 'PRD_RETIRED.CONTROL_FLOW.MISPRED'),
    ('INST.BRJMP.BRANCH.RET', 'PRD_RETIRED.COND_BRANCH'),
    ('INST.MISPRED.BRANCH.RET', 'PRD_RETIRED.COND_BRANCH.MISPRED'),
    ('INST.BRJMP.IND.CALL.RET', 'PRD_RETIRED.INDIRECT_CALL'),
    ('INST.MISPRED.IND.CALL.RET', 'PRD_RETIRED.INDIRECT_CALL.MISPRED'),
    ('INST.BRJMP.IND.JUMP.RET', 'PRD_RETIRED.INDIRECT_JUMP'),
    ('INST.MISPRED.IND.JUMP.RET', 'PRD_RETIRED.INDIRECT_JUMP.MISPRED'),
    ('INST.BRJMP.CORSWAP.RET', 'PRD_RETIRED.CO_ROUTINE_SWAP'),
    ('INST.MISPRED.CORSWAP.RET', 'PRD_RETIRED.CO_ROUTINE_SWAP.MISPRED'),
    ('INST.BRJMP.IND.LJUMP.RET', 'PRD_RETIRED.INDIRECT_JUMP_LINKAGE'),
    ('INST.MISPRED.IND.LJUMP.RET', 'PRD_RETIRED.INDIRECT_JUMP_LINKAGE.MISPRED'),
    ('INST.BRJMP.DIR.LJUMP.RET', 'PRD_RETIRED.DIRECT_JUMP_LINKAGE'),
    ('INST.RVV.RET', 'RVV_RETIRED.ALL'),
    ('INST.RVV.SPEC', 'RVV_SPEC.ALL'),
    # retired loads/stores by data source
    ('INST.LOAD.DSRC.L1D.RET', 'CACHE_RETIRED.L1D.LOAD.HIT'),
    ('INST.LOAD.DSRC.L1D.MISS.RET', 'CACHE_RETIRED.L1D.LOAD.MISS'),
    ('INST.LOAD.DSRC.L1D.MERGE.RET', 'CACHE_RETIRED.L1D.LOAD.MERGE'),
    ('INST.STORE.DSRC.L1D.RET', 'CACHE_RETIRED.L1D.STORE.HIT'),
    ('INST.STORE.DSRC.L1D.MISS.RET', 'CACHE_RETIRED.L1D.STORE.MISS'),
    ('INST.STORE.DSRC.L1D.MERGE.RET', 'CACHE_RETIRED.L1D.STORE.MERGE'),
    ('INST.LOAD.DSRC.L2.RET', 'CACHE_RETIRED.L2.LOAD.HIT'),
    ('INST.LOAD.DSRC.L2.MISS.RET', 'CACHE_RETIRED.L2.LOAD.MISS'),
    ('INST.LOAD.DSRC.L3.RET', 'CACHE_RETIRED.L3.LOAD.HIT'),
    ('INST.LOAD.DSRC.L3.MISS.RET', 'CACHE_RETIRED.L3.LOAD.MISS'),
    ('INST.LOAD.DSRC.LOCAL.MEM.RET', 'CACHE_RETIRED.L3.LOAD.MISS.LOCAL_MEMORY'),
    ('INST.LOAD.DSRC.REMOTE.MEM.RET', 'CACHE_RETIRED.L3.LOAD.MISS.REMOTE_MEMORY'),
    ('INST.LOAD.DSRC.REMOTE.CACHE.RET', 'CACHE_RETIRED.L3.LOAD.MISS.REMOTE_CACHE'),
    # speculative cache lookups
    ('CACHE.L1D.RD.DATA', 'CACHE_SPEC.L1D.LOAD.ACCESS'),
    ('CACHE.L1D.RD.DATA.HIT', 'CACHE_SPEC.L1D.LOAD.HIT'),
    ('CACHE.L1D.RD.DATA.MISS', 'CACHE_SPEC.L1D.LOAD.MISS'),
    ('CACHE.L1D.RD.DATA.MERGE', 'CACHE_SPEC.L1D.LOAD.MERGE'),
    ('CACHE.L1D.RD.DATA.MISS.CYCLES', 'CACHE_SPEC.L1D.LOAD.MISS_OUTSTANDING.CYCLES'),
    ('CACHE.L1D.OPREF', 'CACHE_SPEC.L1D.PF.ISSUED'),
    ('CACHE.L1D.WB', 'CACHE_SPEC.L1D.WB'),
    ('CACHE.L1I.RD', 'CACHE_SPEC.L1I.ACCESS'),
    ('CACHE.L1I.RD.HIT', 'CACHE_SPEC.L1I.HIT'),
    ('CACHE.L1I.RD.MISS', 'CACHE_SPEC.L1I.MISS'),
    ('CACHE.L1I.RD.MERGE', 'CACHE_SPEC.L1I.MERGE'),
    ('CACHE.L1I.RD.CODE.MISS.CYCLES', 'CACHE_SPEC.L1I.MISS_OUTSTANDING.CYCLES'),
]
for _c in ('L2', 'L3'):
    ALIASES += [
        ('CACHE.%s.RD.DATA' % _c, 'CACHE_SPEC.%s.LOAD.ACCESS' % _c),
        ('CACHE.%s.RD.DATA.HIT' % _c, 'CACHE_SPEC.%s.LOAD.HIT' % _c),
        ('CACHE.%s.RD.DATA.MISS' % _c, 'CACHE_SPEC.%s.LOAD.MISS' % _c),
        ('CACHE.%s.RD.DATA.MERGE' % _c, 'CACHE_SPEC.%s.LOAD.MERGE' % _c),
        ('CACHE.%s.RD.DATA.MISS.CYCLES' % _c, 'CACHE_SPEC.%s.LOAD.MISS_OUTSTANDING.CYCLES' % _c),
        ('CACHE.%s.RD.PREF' % _c, 'CACHE_SPEC.%s.PF.ACCESS' % _c),
        ('CACHE.%s.RD.PREF.HIT' % _c, 'CACHE_SPEC.%s.PF.HIT' % _c),
        ('CACHE.%s.RD.PREF.MISS' % _c, 'CACHE_SPEC.%s.PF.MISS' % _c),
        ('CACHE.%s.RD.PREF.MERGE' % _c, 'CACHE_SPEC.%s.PF.MERGE' % _c),
        ('CACHE.%s.WB' % _c, 'CACHE_SPEC.%s.WB' % _c),
    ]
ALIASES += [
    # speculative TLB lookups
    ('TLB.L1D.LOAD', 'TLB_SPEC.L1.LOAD.ACCESS'),
    ('TLB.L1D.LOAD.MISS', 'TLB_SPEC.L1.LOAD.MISS'),
    ('TLB.L1D.STORE', 'TLB_SPEC.L1.STORE.ACCESS'),
    ('TLB.L1D.STORE.MISS', 'TLB_SPEC.L1.STORE.MISS'),
    ('TLB.L1I.CODE', 'TLB_SPEC.L1.CODE.ACCESS'),
    ('TLB.L1I.CODE.MISS', 'TLB_SPEC.L1.CODE.MISS'),
    ('TLB.L1I.CODE.MISS.CYCLES', 'TLB_SPEC.L1.CODE.MISS_OUTSTANDING.CYCLES'),
]

# Kernel generic events: (entry, generic, ApproxNote or None when exact)
GENERICS = [
    ('GEN.CYCLES', 'cycles', None),
    ('INST.RET', 'instructions', None),
    ('INST.BRJMP.RET', 'branches', None),
    ('INST.MISPRED.RET', 'branch-misses', None),
    ('INST.BRJMP.PRED.RET', 'branch-loads',
     'The kernel\'s branch-loads counts branch-predictor lookups, speculative on some CPUs (arm64 BR_PRED) and '
     'retired branches on others (x86).'),
    ('CACHE.LL.RW', 'cache-references',
     'The kernel\'s cache-references is architecture-defined: last-level cache requests on x86 but L1 data '
     'cache accesses on arm64.'),
    ('CACHE.LL.RW.MISS', 'cache-misses',
     'The kernel\'s cache-misses is architecture-defined: last-level cache misses on x86 but L1 data cache '
     'refills on arm64.'),
    ('CACHE.L1D.RD', 'L1-dcache-loads',
     'The kernel\'s L1-dcache-loads counts load accesses, not all reads, which also include page-table walks '
     'and prefetch reads.'),
    ('CACHE.L1D.RD.MISS', 'L1-dcache-load-misses',
     'The kernel\'s L1-dcache-load-misses counts load accesses that missed, not all reads incl. page walks '
     'and prefetch reads.'),
    ('CACHE.L1D.RD.DATA', 'L1-dcache-loads', None),
    ('CACHE.L1D.RD.DATA.MISS', 'L1-dcache-load-misses', None),
    ('CACHE.L1D.WR', 'L1-dcache-stores',
     'The kernel\'s L1-dcache-stores counts store accesses only, without implicit writes such as page A/D '
     'updates.'),
    ('CACHE.L1D.WR.MISS', 'L1-dcache-store-misses',
     'The kernel\'s L1-dcache-store-misses counts store misses only, without implicit writes such as page A/D '
     'updates.'),
    ('CACHE.L1D.RD.PREF', 'L1-dcache-prefetches',
     'The kernel\'s L1-dcache-prefetches is loosely defined and unsupported on many CPUs; it may count '
     'prefetches issued rather than prefetch lookups.'),
    ('CACHE.L1D.RD.PREF.MISS', 'L1-dcache-prefetch-misses',
     'The kernel\'s L1-dcache-prefetch-misses is loosely defined and unsupported on many CPUs.'),
    ('CACHE.L1I.RD', 'L1-icache-loads',
     'The kernel\'s L1-icache-loads counts instruction fetch accesses, not prefetch reads of the L1I.'),
    ('CACHE.L1I.RD.MISS', 'L1-icache-load-misses',
     'The kernel\'s L1-icache-load-misses counts fetch misses, not prefetch-read misses of the L1I.'),
    ('CACHE.L1I.RD.CODE', 'L1-icache-loads', None),
    ('CACHE.L1I.RD.CODE.MISS', 'L1-icache-load-misses', None),
    ('CACHE.L1I.RD.PREF', 'L1-icache-prefetches',
     'The kernel\'s L1-icache-prefetches is loosely defined and unsupported on many CPUs.'),
    ('CACHE.L1I.RD.PREF.MISS', 'L1-icache-prefetch-misses',
     'The kernel\'s L1-icache-prefetch-misses is loosely defined and unsupported on many CPUs.'),
    ('CACHE.LL.RD', 'LLC-loads',
     'The kernel\'s LLC-loads counts demand data reads of the last-level cache, not all reads incl. code, '
     'prefetch and page-walk reads.'),
    ('CACHE.LL.RD.MISS', 'LLC-load-misses',
     'The kernel\'s LLC-load-misses counts demand data read misses, not all read misses incl. code, prefetch '
     'and page-walk reads.'),
    ('CACHE.LL.RD.DATA', 'LLC-loads', None),
    ('CACHE.LL.RD.DATA.MISS', 'LLC-load-misses', None),
    ('CACHE.LL.WR', 'LLC-stores',
     'The kernel\'s LLC-stores counts store (read-for-ownership) requests, which may not match this cache\'s '
     'write lookups.'),
    ('CACHE.LL.WR.MISS', 'LLC-store-misses',
     'The kernel\'s LLC-store-misses counts store (read-for-ownership) requests that missed, which may not '
     'match this cache\'s write misses.'),
    ('CACHE.LL.RD.PREF', 'LLC-prefetches',
     'The kernel\'s LLC-prefetches is loosely defined and unsupported on many CPUs.'),
    ('CACHE.LL.RD.PREF.MISS', 'LLC-prefetch-misses',
     'The kernel\'s LLC-prefetch-misses is loosely defined and unsupported on many CPUs.'),
    ('TLB.L1D.LOAD', 'dTLB-loads',
     'The kernel\'s dTLB-loads is architecture-defined: load lookups of the first-level data TLB on arm64, '
     'retired loads on x86.'),
    ('TLB.L1D.LOAD.MISS', 'dTLB-load-misses',
     'The kernel\'s dTLB-load-misses is architecture-defined: L1 data TLB refills on arm64 but only misses '
     'that need a page walk on x86.'),
    ('TLB.L1D.STORE', 'dTLB-stores',
     'The kernel\'s dTLB-stores is architecture-defined: store lookups of the data TLB, or retired stores on x86.'),
    ('TLB.L1D.STORE.MISS', 'dTLB-store-misses',
     'The kernel\'s dTLB-store-misses is architecture-defined: L1 data TLB refills on arm64 but only misses '
     'that need a page walk on x86.'),
    ('TLB.LL.LOAD.MISS', 'dTLB-load-misses',
     'The kernel\'s dTLB-load-misses counts page-walking misses on x86 (a match) but first-level data TLB '
     'refills on arm64.'),
    ('TLB.LL.STORE.MISS', 'dTLB-store-misses',
     'The kernel\'s dTLB-store-misses counts page-walking misses on x86 (a match) but first-level data TLB '
     'refills on arm64.'),
    ('TLB.L1I.CODE', 'iTLB-loads',
     'The kernel\'s iTLB-loads is architecture-defined and unsupported on some CPUs (x86).'),
    ('TLB.L1I.CODE.MISS', 'iTLB-load-misses',
     'The kernel\'s iTLB-load-misses is architecture-defined: L1 instruction TLB refills on arm64 but only '
     'misses that need a page walk on x86.'),
    ('TLB.LL.CODE.MISS', 'iTLB-load-misses',
     'The kernel\'s iTLB-load-misses counts page-walking misses on x86 (a match) but first-level instruction '
     'TLB refills on arm64.'),
    ('TLB_SPEC.L2.LOAD.MISS', 'dTLB-load-misses',
     'The kernel\'s dTLB-load-misses counts page-walking misses on x86 (a match where L2 is the last level) but '
     'first-level data TLB refills on arm64.'),
    ('TLB_SPEC.L2.STORE.MISS', 'dTLB-store-misses',
     'The kernel\'s dTLB-store-misses counts page-walking misses on x86 (a match where L2 is the last level) but '
     'first-level data TLB refills on arm64.'),
    ('TLB_SPEC.L2.CODE.MISS', 'iTLB-load-misses',
     'The kernel\'s iTLB-load-misses counts page-walking misses on x86 (a match where L2 is the last level) but '
     'first-level instruction TLB refills on arm64.'),
    ('MEM.LOAD.DSRC.LL.MISS.RET', 'node-loads',
     'The kernel\'s node-loads (x86 only) counts demand read requests served by memory, speculative ones '
     'included, where this counts retired load accesses that missed the last-level cache.'),
    ('MEM.LOAD.DSRC.REMOTE.MEM.RET', 'node-load-misses',
     'The kernel\'s node-load-misses (x86 only) counts demand read requests served by another NUMA node\'s '
     'memory, speculative ones included, where this counts retired load accesses.'),
]


# ---------------------------------------------------------------------------

def build():
    gen_inst()
    gen_mem()
    gen_cache()
    gen_tlb()
    gen_fetch()
    gen_topdown()
    gen_proposal_general()
    gen_proposal_prd()
    gen_proposal_cache()
    gen_proposal_tlb()
    gen_proposal_rvv()
    gen_socket()
    for std, prop in ALIASES:
        if prop.lower() in BY_NAME:
            raise SystemExit('alias %s is also an entry' % prop)
        add_alias(std, prop)
    for name, generic, note in GENERICS:
        set_generic(name, generic, note)
    check()


def ordered(e):
    return {k: e[k] for k in KEY_ORDER if k in e}


def check():
    names = {}
    for f, evs in FILES.items():
        for e in evs:
            for n in [e['EventName']] + [a for a in e.get('Aliases', '').split(',') if a]:
                k = n.lower()
                if k in names:
                    raise SystemExit('name %s defined twice (%s, %s)' % (n, names[k], f))
                names[k] = f
                if len(n) >= 128 or any(ch in n for ch in ' \t\n,{}/'):
                    raise SystemExit('bad name %r' % n)
                if n != n.upper():
                    raise SystemExit('not uppercase: %s' % n)
            if e.get('Approximate') and not e.get('ApproxNote'):
                raise SystemExit('Approximate without ApproxNote: %s' % e['EventName'])
            for k, v in e.items():
                if not isinstance(v, str) or '\n' in v or not v.isascii():
                    raise SystemExit('bad value %s.%s' % (e['EventName'], k))


def render(evs):
    evs = sorted(evs, key=lambda e: e['EventName'])
    return json.dumps([ordered(e) for e in evs], indent=2, ensure_ascii=True) + '\n'


def main(argv):
    check_only = False
    if argv and argv[0] == '--check':
        check_only = True
        argv = argv[1:]
    here = os.path.dirname(os.path.abspath(__file__))
    outdir = argv[0] if argv else os.path.join(here, '..', 'events', 'standard')
    build()
    stale = []
    for fname in sorted(FILES):
        text = render(FILES[fname])
        path = os.path.join(outdir, fname)
        if check_only:
            try:
                with open(path, encoding='ascii') as fh:
                    if fh.read() != text:
                        stale.append(path)
            except OSError:
                stale.append(path)
            continue
        os.makedirs(outdir, exist_ok=True)
        with open(path, 'w', encoding='ascii') as fh:
            fh.write(text)
    if check_only and stale:
        sys.stderr.write('out of date (run gen/gen-standard-events.py): %s\n' % ' '.join(stale))
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
