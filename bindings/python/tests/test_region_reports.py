# SPDX-License-Identifier: MIT
"""Region reports read back by parsers that are not libpmu's: the CSV by
Python's csv module (RFC 4180), the JSON by json and the regions schema,
the text report's time unit against the thread's CPU clock, and the MPI
rank against the launcher variable the test sets."""
import csv
import json
import os
import subprocess
import sys

import pytest

import pmu

SRC = os.environ.get("PMU_TEST_SRCDIR", os.path.join(os.path.dirname(__file__), "..", "..", ".."))
CSV_HEADER = ["region", "tid", "calls", "event", "value", "scaled", "enabled_ns", "running_ns", "confidence",
              "min", "max", "unsupported", "scope", "unit", "unit_scale"]
# names a CSV or JSON writer must quote or escape
ODD = ['a,b', 'say "hi"', 'both ",\nand a newline', 'tab\tand\\backslash', 'caf\u00e9', '"', ',']
RANK_VARS = ("OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK", "SLURM_PROCID", "MV2_COMM_WORLD_RANK")


@pytest.fixture
def regions():
    if not pmu.have_regions():
        pytest.skip("%s has no pmu_region_* functions" % pmu.library_path)
    pmu.region_reset()
    yield
    pmu.region_reset()          # nothing left for the report at exit


def run_odd_regions():
    """Region ODD[i] is entered i + 1 times: the oracle for the counts."""
    for i, name in enumerate(ODD):
        for _ in range(i + 1):
            with pmu.region(name):
                pass


def schema():
    with open(os.path.join(SRC, "tools", "schemas", "libpmu-regions-1.schema.json")) as f:
        return json.load(f)


def test_csv_is_rfc4180(regions, tmp_path):
    run_odd_regions()
    events = None
    for r in pmu.region_results():
        if r["name"] == ODD[0] and r["tid"] is None:
            events = list(r["values"])
    assert events, "the regions have events"
    path = tmp_path / "regions.csv"
    pmu.region_report(path=str(path), format="csv", per_thread=True)
    with open(path, newline="") as f:
        rows = list(csv.reader(f, strict=True))
    assert rows[0] == CSV_HEADER
    assert all(len(r) == len(CSV_HEADER) for r in rows), [r for r in rows if len(r) != len(CSV_HEADER)]
    for i, name in enumerate(ODD):
        summed = [r for r in rows[1:] if r[0] == name and r[1] == "-1"]
        per_thread = [r for r in rows[1:] if r[0] == name and r[1] != "-1"]
        assert [r[3] for r in summed] == events, (name, summed)
        assert all(int(r[2]) == i + 1 for r in summed + per_thread), (name, summed)
        assert len(per_thread) == len(events)
    assert {r[0] for r in rows[1:]} == set(ODD)


def test_json_names_round_trip_and_validate(regions, tmp_path):
    jsonschema = pytest.importorskip("jsonschema", reason="python3-jsonschema is not installed")
    run_odd_regions()
    path = tmp_path / "regions.json"
    pmu.region_report(path=str(path), format="json", per_thread=True)
    doc = json.loads(path.read_text(encoding="utf-8"))
    jsonschema.validate(doc, schema())
    assert {r["name"]: r["calls"] for r in doc["regions"]} == {n: i + 1 for i, n in enumerate(ODD)}


_TEXT_SCRIPT = r"""
import os, time
import pmu


def steal_ns():
    # the machine's stolen time (every CPU's): in a virtual machine task-clock
    # holds the time the hypervisor stole while the thread ran, the thread's
    # CPU clock does not
    with open("/proc/stat") as f:
        fields = f.readline().split()
    return int(fields[8]) * 1000000000 // os.sysconf("SC_CLK_TCK") if len(fields) > 8 else 0


# /proc/stat counts whole ticks: the difference can miss up to one
TICK_NS = 1000000000 // os.sysconf("SC_CLK_TCK")


s0 = steal_ns()
t0 = time.thread_time_ns()
with pmu.region("spin"):
    while time.thread_time_ns() - t0 < 30000000:
        pass
print(time.thread_time_ns() - t0, steal_ns() - s0 + TICK_NS)
"""


def test_text_report_names_the_time_unit(regions, tmp_path):
    # task-clock counts nanoseconds (perf's unit); the report must say so,
    # and the number must be nanoseconds by the thread's own CPU clock (plus
    # at most the machine's steal time, as in test-cli's task-clock check)
    out = tmp_path / "regions.txt"
    env = dict(os.environ, PMU_EVENTS="task-clock", PMU_OUTPUT=str(out), PMU_FORMAT="text")
    p = subprocess.run([sys.executable, "-c", _TEXT_SCRIPT], env=env, capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    spent, steal = (int(x) for x in p.stdout.split())
    lines = out.read_text().splitlines()
    header = [ln for ln in lines if ln.split()[:2] == ["region", "calls"]]
    assert len(header) == 1 and "task-clock (ns)" in header[0], lines
    row = [ln for ln in lines if ln.split()[:1] == ["spin"]]
    assert len(row) == 1, lines
    value = int(row[0].split()[2].rstrip("*").replace(",", ""))
    assert 0.8 * spent <= value <= 1.02 * spent + 2000000 + steal, (value, spent, steal)


def run_with_rank(tmp_path, var, value):
    env = {k: v for k, v in os.environ.items() if k not in RANK_VARS}
    if var:
        env[var] = value
    env.update(PMU_FORMAT="json", PMU_OUTPUT=str(tmp_path / "rank-%r.json"), PMU_EVENTS="task-clock")
    p = subprocess.run([sys.executable, "-c", "import pmu\nwith pmu.region('r'):\n    pass\n"], env=env,
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 0 and not p.stderr, p.stderr
    files = list(tmp_path.glob("rank-*.json"))
    assert len(files) == 1, files
    doc = json.loads(files[0].read_text())
    files[0].unlink()
    return files[0].name, doc


@pytest.mark.parametrize("var", RANK_VARS)
def test_rank_from_each_launcher_variable(regions, tmp_path, var):
    jsonschema = pytest.importorskip("jsonschema", reason="python3-jsonschema is not installed")
    name, doc = run_with_rank(tmp_path, var, "7")
    assert name == "rank-7.json"
    assert doc["rank"] == 7
    jsonschema.validate(doc, schema())


def test_rank_that_is_not_a_number_is_a_json_string(regions, tmp_path):
    jsonschema = pytest.importorskip("jsonschema", reason="python3-jsonschema is not installed")
    name, doc = run_with_rank(tmp_path, "SLURM_PROCID", 'a"b')
    assert name == "rank-a_b.json"      # %r as a file name takes it (a character other than [A-Za-z0-9_-]: _)
    assert doc["rank"] == 'a"b'         # the document keeps the launcher's value
    jsonschema.validate(doc, schema())
    name, doc = run_with_rank(tmp_path, None, None)
    assert name == "rank-0.json" and doc["rank"] is None
    jsonschema.validate(doc, schema())


_UNSUPPORTED_SCRIPT = r"""
import json, sys
import pmu
for _ in range(3):
    with pmu.region("r"):
        sum(range(10000))
out = sys.argv[1]
pmu.region_report(path=out + ".csv", format="csv")
pmu.region_report(path=out + ".json", format="json")
pmu.region_report(path=out + ".txt", format="text")
print(json.dumps(pmu.region_results()))
pmu.region_reset()
"""


def unsupported_event():
    """An event this machine knows but the kernel cannot count, by a set opened with
    skip_unsupported (pmu_set_open's flag: not the region code), or None."""
    with pmu.Context() as ctx:
        for name in ("cycles", "instructions", "branch-misses", "cache-misses", "ref-cycles"):
            try:
                s = pmu.Set(ctx, name, skip_unsupported=True)
            except pmu.PmuError:
                continue
            try:
                if any("unsupported" in e["flags"] for e in s.event_info()):
                    return name
            finally:
                s.close()
    return None


def test_unsupported_event_is_never_counted_in_every_form(regions, tmp_path):
    # README: confidence 0 means never counted. An event the kernel refused was never counted: the
    # CSV's confidence must be 0 (it said 1.000000), as the text says "<not counted>", the JSON null,
    # and pmu_region_foreach its unsupported bit with values 0.
    ev = unsupported_event()
    if ev is None:
        pytest.skip("every candidate event is counted here: no unsupported event to report")
    out = tmp_path / "r"
    env = dict(os.environ, PMU_EVENTS=ev + ",task-clock", PMU_OUTPUT="/dev/null")
    p = subprocess.run([sys.executable, "-c", _UNSUPPORTED_SCRIPT, str(out)], env=env, capture_output=True,
                       text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    with open(str(out) + ".csv", newline="") as f:
        rows = {r["event"]: r for r in csv.DictReader(f, strict=True)}
    assert set(rows) == {ev, "task-clock"}, rows
    assert rows[ev]["unsupported"] == "1" and float(rows[ev]["confidence"]) == 0.0, rows[ev]
    assert [rows[ev][k] for k in ("value", "scaled", "enabled_ns", "running_ns", "min", "max")] == ["0"] * 6
    assert rows["task-clock"]["unsupported"] == "0" and float(rows["task-clock"]["confidence"]) > 0
    assert int(rows["task-clock"]["calls"]) == 3 and int(rows[ev]["calls"]) == 3
    doc = json.loads((tmp_path / "r.json").read_text())
    (reg,) = doc["regions"]
    assert reg["events"][ev] is None and reg["events"]["task-clock"]["confidence"] > 0, reg
    lines = (tmp_path / "r.txt").read_text().splitlines()
    header = [ln for ln in lines if ln.split()[:2] == ["region", "calls"]]
    row = [ln for ln in lines if ln.split()[:1] == ["r"]]
    assert len(header) == 1 and len(row) == 1, lines
    assert header[0].split()[2] == ev and "<not counted>" in row[0], lines
    (res,) = json.loads(p.stdout)
    assert res["values"][ev] == {"value": 0, "enabled": 0, "running": 0, "min": 0, "max": 0, "unsupported": True,
                                 "socket_wide": False}
    assert res["values"]["task-clock"]["unsupported"] is False
