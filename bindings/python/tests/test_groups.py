# SPDX-License-Identifier: MIT
"""Performance groups from Python (issue 44): Context.groups(), Context.group(), Set.of_group(),
Set.group_metrics().

This machine may have no hardware PMU and no LIKWID directory for its CPU, so the counted group is a
file of the kernel's software events written here (SW counters, as tests/test-likwid-stat.sh writes
one); its metrics are checked against the same formulas computed here from the set's raw counts. The
listing is checked on a written machine (the Neoverse N1 fixture, a LIKWID directory written here)
against `pmu list groups` and against the directories' files.
"""
import errno
import json
import mmap
import os
import subprocess
import sys

import pytest

import pmu

SRC = os.environ.get("PMU_TEST_SRCDIR") or os.path.normpath(
    os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))
BUILD = os.path.join(os.path.dirname(os.environ.get("PMU_LIBRARY", "")), "..")
N1_SYS = os.path.join(SRC, "tests", "fixtures", "arm64-neoverse-n1", "sys")
N1_CPUID = "0x00000000413fd0c1"

SW_GROUP = """SHORT software events

EVENTSET
SW0 task-clock
SW1 page-faults
SW2 context-switches

METRICS
Runtime [s] time
Faults per second [1/s] SW1/time
CPU time per second SW0*1.0E-09/time
Faults and switches SW1+2*SW2
Missing counter SW7/time

LONG
Formulas over the kernel's software events.
"""


@pytest.fixture
def ctx():
    with pmu.Context() as c:
        yield c


@pytest.fixture
def sw_file(tmp_path):
    f = tmp_path / "SW.txt"
    f.write_text(SW_GROUP)
    return str(f)


def faults(pages=64):
    """Page faults: each page of a fresh anonymous mapping touched once."""
    with mmap.mmap(-1, pages * mmap.PAGESIZE) as m:
        for i in range(0, len(m), mmap.PAGESIZE):
            m[i] = 1


# ---------------------------------------------------------------- a group file read

def test_group_file_lines_and_metrics(ctx, sw_file):
    g = ctx.group(sw_file)
    assert (g["name"], g["path"], g["short"]) == ("SW", sw_file, "software events")
    assert g["long"].strip() == "Formulas over the kernel's software events."
    # each EVENTSET line, the libpmu event it is counted as
    assert [(ln["counter"], ln["likwid"], ln["event"], ln["why"]) for ln in g["lines"]] == [
        ("SW0", "task-clock", "task-clock", None),
        ("SW1", "page-faults", "page-faults", None),
        ("SW2", "context-switches", "context-switches", None)]
    assert g["events"] == "task-clock,page-faults,context-switches"
    m = {x["name"]: x for x in g["metrics"]}
    assert [x["name"] for x in g["metrics"]] == ["Runtime", "Faults per second", "CPU time per second",
                                                 "Faults and switches", "Missing counter"]
    assert (m["Runtime"]["unit"], m["Runtime"]["formula"], m["Runtime"]["expr"]) == ("s", "time", "duration_time")
    assert (m["Faults per second"]["unit"], m["Faults per second"]["expr"]) == ("1/s", "page\\-faults/duration_time")
    assert m["CPU time per second"]["unit"] == ""
    # a counter the EVENTSET lacks: no expression, and why names the counter
    assert m["Missing counter"]["expr"] is None and "SW7" in m["Missing counter"]["why"]


# ---------------------------------------------------------------- a group counted

def test_group_metrics_equal_the_formulas_over_the_raw_counts(ctx, sw_file):
    with pmu.Set.of_group(ctx, sw_file) as s:
        faults()
    assert s.events == ["task-clock", "page-faults", "context-switches", "duration_time"]
    assert s.group["name"] == "SW"
    raw = dict(zip(s.events, s.delta))
    # software events are never multiplexed: the raw count is the value (no scaling to apply)
    assert all(v.enabled == v.running for v in s.delta)
    tc, pf, cs = raw["task-clock"].value, raw["page-faults"].value, raw["context-switches"].value
    t = raw["duration_time"].value / 1e9         # the set's wall time, ns -> the formulas' seconds
    assert pf >= 64 and tc > 0 and t > 0
    got = s.group_metrics()
    assert set(got) == {"Runtime [s]", "Faults per second [1/s]", "CPU time per second", "Faults and switches",
                        "Missing counter"}
    assert got["Runtime [s]"] == pytest.approx(t, rel=1e-12)
    assert got["Faults per second [1/s]"] == pytest.approx(pf / t, rel=1e-12)
    assert got["CPU time per second"] == pytest.approx(tc * 1.0e-09 / t, rel=1e-12)
    assert got["Faults and switches"] == pf + 2 * cs
    assert got["Missing counter"] is None


def test_group_metrics_of_given_values_and_seconds(ctx, sw_file):
    """deltas= and seconds=: each value scaled to its time enabled (value * enabled / running), the time
    given replacing the set's."""
    g = ctx.group(sw_file)
    s = pmu.Set(ctx, g["events"])           # no duration_time: time must be given
    vals = [pmu.Value(3000000, 40, 20), pmu.Value(500, 10, 5), pmu.Value(7, 9, 9)]
    got = s.group_metrics(g, deltas=vals, seconds=2.5)
    tc, pf, cs = 3000000 * 40 / 20, 500 * 10 / 5, 7
    assert got["Runtime [s]"] == 2.5
    assert got["Faults per second [1/s]"] == pytest.approx(pf / 2.5, rel=1e-12)
    assert got["CPU time per second"] == pytest.approx(tc * 1e-9 / 2.5, rel=1e-12)
    assert got["Faults and switches"] == pf + 2 * cs
    with pytest.raises(ValueError, match="needs the run's time: count duration_time"):
        s.group_metrics(g, deltas=vals)
    with pytest.raises(ValueError, match="expected 3 values"):
        s.group_metrics(g, deltas=vals[:2], seconds=1)
    with pytest.raises(ValueError, match="not opened with Set.of_group"):
        s.group_metrics(deltas=vals, seconds=1)
    s.close()


def test_group_metrics_over_a_set_without_the_groups_events(ctx, sw_file):
    g = ctx.group(sw_file)
    with pmu.Set(ctx, "task-clock,duration_time") as s:
        pass
    got = s.group_metrics(g)
    # the metrics over page-faults (which this set does not count) are n/a with why, as pmu stat -g
    # prints them; the one over task-clock alone is evaluated all the same; SW7 was never mapped
    assert got["Faults per second [1/s]"] is None and got["Faults and switches"] is None, got
    e = s.group_errors["Faults per second [1/s]"]
    assert isinstance(e, pmu.PmuError) and e.errno == errno.ENOENT and "page" in str(e)
    assert got["CPU time per second"] == pytest.approx(s.delta[0].value * 1e-9 / (s.delta[1].value / 1e9),
                                                       rel=1e-12)
    assert got["Missing counter"] is None and isinstance(s.group_errors["Missing counter"], str)
    assert set(s.group_errors) == {"Faults per second [1/s]", "Faults and switches", "Missing counter"}


KM_GROUP = """SHORT a written Skylake-SP's fixed, RAPL and IMC counters
EVENTSET
FIXC0 INSTR_RETIRED_ANY
PWR0 PWR_PKG_ENERGY
MBOX0C0 CAS_COUNT_RD
METRICS
Energy [J] PWR0
Memory read data volume [GBytes] 1.0E-09*MBOX0C0*64.0
Energy per instruction [J] PWR0/FIXC0
Power [W] PWR0/time
"""

KM_PROGRAM = """
import json, sys, pmu
with pmu.Context() as ctx:
    s = pmu.Set.of_group(ctx, sys.argv[1], pid=-1, cpu=0)
    s.enable(); s.disable()
    v = s.read()
    print(json.dumps({"events": s.events, "values": [x.value for x in v],
                      "metrics": s.group_metrics(deltas=v, seconds=2.0)}))
"""


def test_group_metrics_take_the_counts_the_expressions_want(tmp_path):
    """A group of LIKWID's counters on a written Skylake-SP (tests/fixtures/intel-spr-2s), its kernel the
    model (tests/kmodel.c): PWR0 counts 2^-32 J and its expression carries that unit (3.25 J, not 3.25 J
    times 2^-32 again); the IMC's CAS count is a count, the formula's 64 making it bytes (not 64 x 64)."""
    km = os.path.join(BUILD, "tests", "libkmodel.so")
    if not os.path.exists(km):
        pytest.skip("the kernel model %s is not built: the written machine's counters cannot be counted" % km)
    fx = os.path.join(SRC, "tests", "fixtures", "intel-spr-2s")
    dev = os.path.join(fx, "sys", "bus", "event_source", "devices")
    pw = open(os.path.join(dev, "power", "type")).read().strip()
    imc = open(os.path.join(dev, "uncore_imc_0", "type")).read().strip()
    model = tmp_path / "m.model"
    model.write_text("cpus 0-7\npmu 4,0,3 core name=cpu\nevent 4 0xc0 count=1000\n"
                     "pmu %s uncore name=power box=0-3@0 box=4-7@4\nevent %s 0x2 cpu=0 count=13958643712\n"
                     "pmu %s uncore name=uncore_imc_0 counters=4 box=0-3@0 box=4-7@4\n"
                     "event %s 0x304 cpu=0 count=1000\n" % (pw, pw, imc, imc))
    (tmp_path / "KM.txt").write_text(KM_GROUP)
    env = dict(os.environ, LD_PRELOAD=km, PMU_KMODEL=str(model), PMU_KMODEL_LOG=str(tmp_path / "log"),
               PMU_SYSFS_ROOT=os.path.join(fx, "sys"), PMU_PROCFS_ROOT=os.path.join(fx, "proc"),
               PMU_CPUID="GenuineIntel-6-55-4",
               ASAN_OPTIONS=os.environ.get("ASAN_OPTIONS", "") + ":verify_asan_link_order=0")
    r = subprocess.run([sys.executable, "-c", KM_PROGRAM, str(tmp_path / "KM.txt")], env=env,
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    assert d["events"] == ["INST_RETIRED.ANY", "power/energy-pkg/", "uncore_imc_0/UNC_M_CAS_COUNT.RD/",
                           "duration_time"]
    assert d["values"][:3] == [1000, 13958643712, 1000]
    joules = 13958643712 / 2 ** 32                  # 3.25
    assert d["metrics"] == {"Energy [J]": joules, "Memory read data volume [GBytes]": pytest.approx(1e-9 * 1000 * 64),
                            "Energy per instruction [J]": pytest.approx(joules / 1000), "Power [W]": joules / 2.0}


# ---------------------------------------------------------------- refusals

def test_unknown_group(ctx):
    with pytest.raises(pmu.PmuError) as ei:
        ctx.group("NO_SUCH_GROUP")
    assert ei.value.errno == errno.ENOENT and "NO_SUCH_GROUP" in str(ei.value)
    assert ei.value.function == "pmu_group_open"


def refused(ctx, tmp_path, text, err, said):
    """A group file of @text, refused by ctx.group() with errno @err and libpmu's sentence holding @said;
    the file's path."""
    f = tmp_path / "g.txt"
    f.write_text(text)
    with pytest.raises(pmu.PmuError) as ei:
        ctx.group(str(f))
    assert ei.value.errno == err and said in str(ei.value), str(ei.value)
    return str(f)


def test_malformed_files_name_the_line(ctx, tmp_path):
    refused(ctx, tmp_path, "SHORT x\nEVENTSET\nPMC0\nMETRICS\nA PMC0\n", errno.EINVAL,
            "EVENTSET line 'PMC0' is not 'COUNTER EVENT[:OPTIONS]'")
    refused(ctx, tmp_path, "EVENTSET\nSW0 page-faults\nSW0 task-clock\n", errno.EINVAL,
            "counter SW0 is named twice in EVENTSET: give each counter one event")


def test_unmappable_event_refused_or_kept_with_partial(ctx, tmp_path):
    f = refused(ctx, tmp_path, "SHORT x\nEVENTSET\nSW0 NO_SUCH_EVENT\nSW1 page-faults\nMETRICS\nA SW0\nB SW1\n",
                errno.EOPNOTSUPP, "EVENTSET line 'SW0 NO_SUCH_EVENT' cannot be counted")
    g = ctx.group(f, partial=True)
    assert g["lines"][0]["event"] is None and g["lines"][0]["why"]
    assert g["lines"][1]["event"] == "page-faults" and g["events"] == "page-faults"
    m = {x["name"]: x for x in g["metrics"]}
    assert m["A"]["expr"] is None and m["B"]["expr"] == "page\\-faults"
    # nothing mapped: the set counts the formulas' time alone
    f2 = tmp_path / "none.txt"
    f2.write_text("SHORT x\nEVENTSET\nSW0 NO_SUCH_EVENT\nMETRICS\nT time\n")
    with pmu.Set.of_group(ctx, ctx.group(str(f2), partial=True)) as s:
        pass
    assert s.events == ["duration_time"]
    assert s.group_metrics() == {"T": s.delta[0].value / 1e9}


# ---------------------------------------------------------------- the groups of a written machine

def test_groups_of_a_written_machine_are_pmu_list_groups(tmp_path, monkeypatch):
    """The Neoverse N1 fixture, LIKWID's arm8_n1 directory written here: groups() lists LIKWID's files,
    then libpmu's own (events/groups/arm64, standard), as the directories hold them and as
    `pmu list groups --json` and its text list them."""
    lg = tmp_path / "likwid"
    (lg / "arm8_n1").mkdir(parents=True)
    for n in ("ZETA", "ALPHA"):
        (lg / "arm8_n1" / (n + ".txt")).write_text("SHORT %s words\nEVENTSET\nSW0 page-faults\n" % n)
    env = {"PMU_LIKWID_GROUPS": str(lg), "PMU_GROUPS_DIR": os.path.join(SRC, "events", "groups"),
           "PMU_SYSFS_ROOT": N1_SYS, "PMU_CPUID": N1_CPUID}
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    want = [("arm8_n1", "ALPHA"), ("arm8_n1", "ZETA")]
    for d in ("arm64", "standard"):
        want += [(d, f[:-4]) for f in sorted(os.listdir(os.path.join(SRC, "events", "groups", d)))
                 if f.endswith(".txt")]
    with pmu.Context(sysfs_root=N1_SYS, cpuid=N1_CPUID) as c:
        got = c.groups()
    assert [(g["arch"], g["name"]) for g in got] == want
    assert got[0]["path"] == str(lg / "arm8_n1" / "ALPHA.txt") and got[0]["short"] == "ALPHA words"

    exe = os.path.join(BUILD, "tools", "pmu")
    if not os.path.exists(exe):
        pytest.skip("tools/pmu not built at %s: groups() not compared with pmu list groups" % exe)
    js = json.loads(subprocess.run([exe, "list", "groups", "--json"], check=True, capture_output=True,
                                   text=True, env=dict(os.environ, **env)).stdout)
    assert [(g["name"], g["arch"], g["path"], g["short"]) for g in got] == \
        [(g["name"], g["arch"], g["file"], g["short"]) for g in js]
    text = subprocess.run([exe, "list", "groups", "--no-desc"], check=True, capture_output=True, text=True,
                          env=dict(os.environ, **env)).stdout.split()
    assert text == [g["name"] for g in got]


def test_no_groups_is_an_empty_list(tmp_path, monkeypatch):
    monkeypatch.setenv("PMU_LIKWID_GROUPS", str(tmp_path / "none"))
    monkeypatch.setenv("PMU_GROUPS_DIR", str(tmp_path / "none"))
    with pmu.Context(sysfs_root=N1_SYS, cpuid=N1_CPUID) as c:
        assert c.groups() == []
        with pytest.raises(pmu.PmuError) as ei:
            c.group("CPI")
        assert ei.value.errno == errno.ENOENT and "CPI" in str(ei.value)


def test_inverse_clock_needs_the_tsc_frequency(ctx, tmp_path):
    """inverseClock is 1 / #system_tsc_freq: where the machine does not say it, the metric raises naming
    it; set with set_param, the metric is the count over that frequency."""
    f = tmp_path / "IC.txt"
    f.write_text("SHORT x\nEVENTSET\nSW0 task-clock\nMETRICS\nClock seconds SW0*inverseClock\n")
    with pmu.Set.of_group(ctx, str(f)) as s:
        faults(4)
    if not any(c["name"] == "system_tsc_freq" for c in ctx.constants()):
        assert s.group_metrics() == {"Clock seconds": None}
        e = s.group_errors["Clock seconds"]
        assert e.errno == errno.ENOENT and "#system_tsc_freq" in str(e)
    ctx.set_param("system_tsc_freq", 2.5e9)
    assert s.group_metrics() == {"Clock seconds": pytest.approx(s.delta[0].value / 2.5e9, rel=1e-12)}
