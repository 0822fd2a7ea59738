#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""pmu.frames (issue 45): region reports and pmu stat results as pandas DataFrames, on real runs.

- A real OpenMPI job (examples/mpi-imbalance, mpirun -np 4 --oversubscribe, the environment of
  tests/test-mpi.sh), each rank writing out-%r.json (and, in a second job, out-%r.csv), per thread too.
  Oracles: the files read here with json and csv alone, row for row; `pmu report --json`'s merge of the
  JSON files (its own code): the frame's sums over the ranks equal its sums, the frame's per-rank
  min, mean, max, the rank of the max and max / mean equal its spread (exact for integers, 1e-12 for
  floats); the frame of the merged document equals the document.
- With --mpi-lib (libpmu-mpi, where the tree builds it): a 16-rank job with libpmu-mpi preloaded writes its
  in-job report and each rank's; the job report's frame equals the rank files' frame grouped: sums,
  spread (with the population stddev, 1e-9) and the calls' min and max.
- A region report with metrics (a group file of software events, PMU_EVENTS=group:FILE, Python's
  pmu.region): its metric rows equal the file's.
- pmu stat --json and -x, of one command (software events: no hardware PMU is needed), the total,
  -a -A and -I: each frame against its file read here; the two frames agree (same events, units,
  columns; the counts of the deterministic command within the CSV's rounding and a small slack).
- Two runs in one frame (runs(), concat()), and the refusals of concat.
- Without pandas (a sys.meta_path blocker in a subprocess): `import pmu` and `import pmu.frames` work,
  a frame raises ImportError naming python3-pandas.
- Bad input: not a report, truncated JSON and CSV, an unknown schema, the wrong kind of report, an
  empty file, a missing file, a missing key: ReportError naming the file and the problem.

- Socket-wide events (uncore bytes, RAPL's joules: scope, unit, unit_scale, quantity) in real reports of
  tests/region-socket.c's history on the written two-socket Sapphire Rapids, its kernel the model
  (tests/kmodel.c, as test-region-socket runs it): JSON, CSV, and pmu report --json's merge of two.

usage: test-frames.py [--mpi MPI_IMBALANCE [--mpi-lib LIBPMU-MPI.so]] [--kmodel LIBKMODEL.so --region-socket PROG --src SRCDIR]
(env: PMU_CLI, PMU_LIBRARY, PYTHONPATH with bindings/python)
exit 0 pass, 1 fail, 77 skip: pandas is not installed, or (after the other checks passed) mpirun or
the MPI example is missing, said.
"""
import csv
import glob
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import check, tally  # noqa: E402

try:
    import pandas as pd
except ImportError:
    print("SKIP: pandas is not installed (Debian: python3-pandas, which tests/deps.sh installs)")
    sys.exit(77)

import pmu  # noqa: E402
from pmu import frames  # noqa: E402

PMU = os.environ.get("PMU_CLI") or shutil.which("pmu")
ARGS = dict(zip(sys.argv[1::2], sys.argv[2::2]))   # --mpi PROG --kmodel SO --region-socket PROG --src DIR
MPI_PROG = ARGS.get("--mpi") or None
ITERS, PAGES = 2000000, 128
EVENTS = "task-clock,page-faults,context-switches"
MPI_ENV = {"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1", "OMPI_MCA_plm_rsh_agent": "",
           "OMPI_MCA_btl": "self,vader", "OMPI_MCA_btl_vader_single_copy_mechanism": "none",
           "OMPI_MCA_rmaps_base_oversubscribe": "1"}


def setup_fail(what):
    """A set-up step that failed: the test fails (it is not a skip)."""
    print("FAIL: " + what)
    sys.exit(1)


def run(cmd, env=None, **kw):
    p = subprocess.run(cmd, env=dict(os.environ, **(env or {})), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True, timeout=120, **kw)
    if p.returncode != 0:
        setup_fail("%s exited %d: %s" % (" ".join(cmd), p.returncode, (p.stderr or p.stdout)[-2000:]))
    return p


def na(v):
    return v is None or v is pd.NA or (isinstance(v, float) and math.isnan(v))


def same(a, b):
    """Equal, <NA>/None/NaN equal to each other; an integer against a float only if exactly equal."""
    if na(a) or na(b):
        return na(a) and na(b)
    return a == b


def close(a, b, rel=1e-12):
    return abs(a - b) <= rel * max(abs(a), abs(b), 1e-300)


def rows_of(df):
    """{key: row dict} of a region frame; key (file, rank, tid, region, kind, name)."""
    out = {}
    for r in df.to_dict("records"):
        k = (r["file"], None if na(r["rank"]) else r["rank"], None if na(r["tid"]) else r["tid"], r["region"],
             r["kind"], r["name"])
        check(k not in out, "one row per key: %s twice" % (k,))
        out[k] = r
    return out


# ---- the oracle's own reading of the files ----

def oracle_json(path, threads):
    """{key: {column: value}} of a libpmu-regions/1 file, read with json alone."""
    with open(path) as f:
        d = json.load(f)
    out = {}
    sw = d.get("socket_wide", [])
    for reg in d["regions"]:
        who = [(None, reg["calls"], reg["events"])]
        if threads:
            who += [(t["tid"], t["calls"], t["events"]) for t in reg["threads"]]
        for tid, calls, evs in who:
            for name, e in evs.items():
                o = {"counted": False, "calls": calls, "value": None, "scaled": None}
                if e:
                    o = dict(e, calls=calls, counted=True, unit=e.get("unit"), unit_scale=e.get("unit_scale", 1.0),
                             quantity=e["scaled"] * e.get("unit_scale", 1.0))
                o["scope"] = "socket" if name in sw else "thread"
                out[(path, d["rank"], tid, reg["name"], "event", name)] = o
        for m, v in reg["metrics"].items():
            out[(path, d["rank"], None, reg["name"], "metric", m)] = {"value": v, "calls": reg["calls"]}
    return out


def oracle_csv(path, rank, threads):
    out = {}
    with open(path, newline="") as f:
        for c in csv.DictReader(f):
            tid = int(c["tid"])
            if tid != -1 and not threads:
                continue
            k = (path, rank, None if tid == -1 else tid, c["region"], "event", c["event"])
            out[k] = {x: int(c[x]) for x in ("value", "scaled", "enabled_ns", "running_ns", "min", "max", "calls")}
            out[k].update(confidence=float(c["confidence"]), scope=c["scope"], counted=c["unsupported"] == "0",
                          unit=c["unit"] or None, unit_scale=float(c["unit_scale"]),
                          quantity=int(c["scaled"]) * float(c["unit_scale"]))
    return out


def compare(df, oracle, what):
    got = rows_of(df)
    check(set(got) == set(oracle), "%s: the frame's rows are the file's: only in the frame %s, only in the file %s"
          % (what, sorted(set(got) - set(oracle), key=str)[:4], sorted(set(oracle) - set(got), key=str)[:4]))
    bad = []
    for k in set(got) & set(oracle):
        g, o = got[k], oracle[k]
        for col, v in o.items():
            if not same(g[col], v):
                bad.append((k, col, g[col], v))
    check(not bad, "%s: %d values differ from the file's, e.g. %s" % (what, len(bad), bad[:3]))
    return len(got)


# ---- (a) a real OpenMPI job ----

def mpi_part(tmp):
    mpirun = shutil.which("mpirun")
    if not mpirun or not MPI_PROG:
        return "mpirun is not installed (Debian: openmpi-bin)" if not mpirun else \
            "examples/mpi-imbalance is not built (meson found no MPI: Debian's libopenmpi-dev)"
    env = dict(MPI_ENV, PMU_EVENTS=EVENTS, PMU_PER_THREAD="1")
    for fmt in ("json", "csv"):
        run([mpirun, "-np", "4", "--oversubscribe", MPI_PROG, str(ITERS), str(PAGES)], cwd=tmp,
            env=dict(env, PMU_FORMAT=fmt, PMU_OUTPUT=os.path.join(tmp, "out-%r." + fmt)))
    jfiles = sorted(glob.glob(os.path.join(tmp, "out-*.json")))
    cfiles = sorted(glob.glob(os.path.join(tmp, "out-*.csv")))
    if len(jfiles) != 4 or len(cfiles) != 4:
        setup_fail("4 JSON and 4 CSV reports expected, found %s" % (jfiles + cfiles))
    merged_path = os.path.join(tmp, "merged.json")
    with open(merged_path, "w") as f:
        f.write(run([PMU, "report", "--json"] + jfiles).stdout)
    with open(merged_path) as f:
        merged = json.load(f)

    # every row against the files, totals and per thread
    df = frames.regions(jfiles, run="a")
    n = compare(df, {k: v for p in jfiles for k, v in oracle_json(p, False).items()}, "the ranks' JSON")
    check(n == 4 * 2 * 3, "4 ranks x 2 regions x 3 events: %d rows" % n)
    check(sorted(df["rank"].unique()) == [0, 1, 2, 3] and str(df["rank"].dtype) == "Int64",
          "ranks 0..3, Int64: %s %s" % (sorted(df["rank"].unique()), df["rank"].dtype))
    check(df["tid"].isna().all() and (df["run"] == "a").all() and (df["scope"] == "thread").all(),
          "totals only by default (tid <NA>), run 'a', scope thread")
    check(list(df.columns) == frames.REGION_COLUMNS, "the columns are REGION_COLUMNS: %s" % list(df.columns))
    dt = frames.regions(jfiles, threads=True)
    nt = compare(dt, {k: v for p in jfiles for k, v in oracle_json(p, True).items()}, "the ranks' JSON per thread")
    check(nt > n and dt["tid"].notna().sum() == nt - n, "threads=True adds %d per-thread rows" % (nt - n))

    # the frame's sums and spread across ranks against pmu report --json's merge (its own code)
    ev = df[df["kind"] == "event"]
    g = ev.groupby(["region", "name"], sort=False)
    sums = g[["value", "enabled_ns", "running_ns", "calls"]].sum()
    mins, maxs = g["min"].min(), g["max"].max()
    sc = g["scaled"]
    # the rank holding the max: of equal counts the lowest
    argmax = ev[ev["scaled"] == sc.transform("max")].groupby(["region", "name"], sort=False)["rank"].min()
    k = 0
    for reg in merged["regions"]:
        for name, e in reg["events"].items():
            key = (reg["name"], name)
            sp = e["spread"]
            k += 1
            mean = sc.mean()[key]
            check(sums.loc[key, "value"] == e["value"] and sums.loc[key, "enabled_ns"] == e["enabled_ns"] and
                  sums.loc[key, "running_ns"] == e["running_ns"] and sums.loc[key, "calls"] == reg["calls"] and
                  mins[key] == e["min"] and maxs[key] == e["max"],
                  "%s %s: the frame's sums, min, max %s = pmu report's %s" % (
                      key[0], name, (sums.loc[key].tolist(), mins[key], maxs[key]),
                      (e["value"], e["enabled_ns"], e["running_ns"], reg["calls"], e["min"], e["max"])))
            check(sc.count()[key] == sp["files"] and sc.min()[key] == sp["min"] and sc.max()[key] == sp["max"] and
                  argmax[key] == sp["max_rank"] and close(mean, sp["mean"]) and
                  close(sc.max()[key] / mean, sp["imbalance"]),
                  "%s %s: the frame's ranks, min, max, rank of max, mean, max/mean %s = pmu report's spread %s" % (
                      key[0], name, (sc.count()[key], sc.min()[key], sc.max()[key], argmax[key], mean,
                                     sc.max()[key] / mean), sp))
            if "stddev" in sp:      # a pmu report that writes them (the in-job aggregation's fields)
                pstd = sc.std(ddof=0)[key]
                argmin = ev[ev["scaled"] == sc.transform("min")].groupby(["region", "name"])["rank"].min()[key]
                check(sp["sum"] == sc.sum()[key] and close(pstd, sp["stddev"], 1e-9) and sp["min_rank"] == argmin,
                      "%s %s: the frame's sum, population stddev, rank of min %s = pmu report's %s" % (
                          key[0], name, (sc.sum()[key], pstd, argmin), (sp["sum"], sp["stddev"], sp["min_rank"])))
    check(k == len(sums) == 6, "6 (region, event) of pmu report, %d in the frame" % len(sums))
    # rank r's work page faults: at least (r + 1) * PAGES (by construction; a small slack above)
    pf = ev[(ev["region"] == "work") & (ev["name"] == "page-faults")].set_index("rank")["value"]
    check(all((r + 1) * PAGES <= pf[r] <= (r + 1) * PAGES + 32 for r in range(4)),
          "work page-faults of rank r in [(r+1)*%d, +32]: %s" % (PAGES, pf.tolist()))

    # the merged document's frame: its sums and spread, as columns
    dm = frames.regions(merged_path, run="a")
    o = {}
    for reg in merged["regions"]:
        for name, e in reg["events"].items():
            o[(merged_path, None, None, reg["name"], "event", name)] = dict(
                {x: e[x] for x in ("value", "scaled", "enabled_ns", "running_ns", "confidence", "min", "max")},
                calls=reg["calls"], unit=None, unit_scale=None, quantity=None,
                **{"spread_" + x: v for x, v in e["spread"].items()})
            o[(merged_path, None, None, reg["name"], "event", name)].update(
                {"calls_spread_" + x: v for x, v in (reg.get("calls_spread") or {}).items()})
    compare(dm, o, "pmu report --json's document")
    absent = [c for c in frames.SPREAD_COLUMNS if not any(c in v for v in o.values())]
    check(dm["rank"].isna().all() and dm[absent].isna().all(None),
          "a merged report's rows have no rank, and <NA> in the spread columns the document does not have: %s"
          % absent)

    # an in-job aggregation may add spread fields: known ones as their columns, others as spread_<key>
    for reg in merged["regions"]:
        for i, e in enumerate(reg["events"].values()):
            e["spread"].update(stddev=1.5 + i, min_rank=i % 4, sum=e["value"], min_world_rank=4 + i, p90=7 + i,
                               hist=[1, 2])
            e["later"] = {"x": 1}
        reg["calls_spread"] = {"files": 4, "min": 1, "max": 2, "min_rank": 0, "max_rank": 3, "max_world_rank": 7,
                               "median": 1}
    merged["job"] = {"ranks": 4, "world_size": 8}
    ext = os.path.join(tmp, "extended.json")
    with open(ext, "w") as f:
        json.dump(merged, f)
    dx = frames.regions(ext)
    o = {}
    for reg in merged["regions"]:
        for name, e in reg["events"].items():
            o[(ext, None, None, reg["name"], "event", name)] = dict(
                {"spread_" + x: e["spread"][x] for x in ("stddev", "min_rank", "sum", "p90", "min_world_rank")},
                **{"calls_spread_" + x: v for x, v in reg["calls_spread"].items()})
    compare(dx, o, "a merged document with spread fields added")
    check(set(dx.columns[-3:]) == {"spread_p90", "calls_spread_max_world_rank", "calls_spread_median"} and
          "spread_hist" not in dx.columns and str(dx["spread_min_world_rank"].dtype) == "Int64" and
          str(dx["calls_spread_min_rank"].dtype) == "Int64",
          "unknown scalar spread fields are columns after the known, a list is not: %s" % list(dx.columns)[-4:])

    # the CSV reports (another job): against the files, ranks from the names; the JSON frame's shape
    dc = frames.regions(cfiles, run="c", threads=True, rank_from=r"out-(\d+)\.csv")
    compare(dc, {k: v for i, p in enumerate(cfiles) for k, v in oracle_csv(p, i, True).items()}, "the ranks' CSV")
    dc0 = frames.regions(cfiles, run="c", rank_from=r"out-(\d+)\.csv")
    check(list(dc0.dtypes) == list(df.dtypes), "the CSV frame's dtypes are the JSON frame's")
    check(sorted(map(tuple, dc0[["rank", "region", "name"]].values.tolist())) ==
          sorted(map(tuple, df[["rank", "region", "name"]].values.tolist())),
          "the CSV frame has the JSON frame's (rank, region, event) rows")
    try:
        frames.regions(cfiles[0])
        check(not frames.regions(cfiles[0])["rank"].notna().any(), "a CSV without rank_from: rank <NA>")
        frames.regions(cfiles[0], rank_from=r"rank(\d+)")
        check(False, "a rank_from that does not match the name is refused")
    except frames.ReportError as e:
        check(cfiles[0] in str(e) and "rank_from" in str(e), "rank_from not matching: %s" % e)

    # (c) the two jobs in one frame
    both = frames.runs({"json": jfiles, "csv": cfiles}, rank_from=r"out-(\d+)\.csv")
    check(len(both) == len(df) + len(dc0) and list(both["run"].unique()) == ["json", "csv"],
          "runs(): %d rows = %d + %d, runs %s" % (len(both), len(df), len(dc0), list(both["run"].unique())))
    per = both[both["kind"] == "event"].groupby(["run", "region", "name"])["value"].sum()
    check(all(per[("json",) + key] == sums.loc[key, "value"] for key in sums.index) and
          all(per[("csv",) + key] == dc0[(dc0["region"] == key[0]) & (dc0["name"] == key[1])]["value"].sum()
              for key in sums.index), "runs(): each run's sums are its own frame's")
    cc = frames.concat(df, dc0)
    check(cc.equals(pd.concat([df, dc0], ignore_index=True)) and str(cc["counted"].dtype) == "boolean",
          "concat(a, c) is the two frames' rows in order")
    for args, words in (((df, frames.regions(jfiles, run="a")), "both have run 'a'"),
                        ((df, frames.regions(jfiles)), "without a run label")):
        try:
            frames.concat(*args)
            check(False, "concat refuses frames that %s" % words)
        except ValueError as e:
            check(words.split()[-1].strip("'") in str(e), "concat refuses frames that %s: %s" % (words, e))
    return None


# ---- an MPI job's in-job report (libpmu-mpi, preloaded): its frame against the ranks' files' ----

def job_part(tmp, lib, nranks=16):
    """The job report libpmu-mpi writes at MPI_Finalize and each rank's own (PMU_MPI_PER_RANK=1) of one
    job: the frame of the job report equals what the frame of the rank files gives, grouped (the sums,
    and the spread: ranks, sum, min, mean, max, population stddev, the lowest rank of the min and of the
    max, max / mean; each rank's calls: min, max)."""
    d = os.path.join(tmp, "job")
    os.mkdir(d)
    job = os.path.join(d, "job.json")
    run([shutil.which("mpirun"), "-np", str(nranks), "--oversubscribe", "-x", "LD_PRELOAD=" + lib, MPI_PROG,
         str(ITERS // 4), str(PAGES // 4)], cwd=d,
        env=dict(MPI_ENV, PMU_EVENTS=EVENTS, PMU_FORMAT="json", PMU_OUTPUT=job, PMU_MPI_PER_RANK="1"))
    files = glob.glob(os.path.join(d, "job.rank*.json"))
    if not os.path.exists(job) or len(files) != nranks:
        setup_fail("libpmu-mpi's job report and %d rank reports expected in %s: %s" % (nranks, d, os.listdir(d)))
    jf = frames.regions(job, run="job")
    rf = frames.regions(files, run="ranks")
    check(sorted(rf["rank"].unique()) == list(range(nranks)), "the rank files are ranks 0..%d" % (nranks - 1))
    ev = rf[rf["kind"] == "event"]
    g = ev.groupby(["region", "name"], sort=False)
    sc = g["scaled"]
    lo = lambda which: ev[ev["scaled"] == sc.transform(which)].groupby(["region", "name"])["rank"].min()  # noqa
    calls = rf.drop_duplicates(["rank", "region"]).groupby("region")["calls"]
    n = 0
    for r in jf.to_dict("records"):
        k = (r["region"], r["name"])
        want = (g["value"].sum()[k], calls.sum()[r["region"]],
                sc.count()[k], sc.sum()[k], sc.min()[k], sc.max()[k], lo("min")[k], lo("max")[k],
                calls.min()[r["region"]], calls.max()[r["region"]])
        got = (r["value"], r["calls"], r["spread_files"], r["spread_sum"], r["spread_min"], r["spread_max"],
               r["spread_min_rank"], r["spread_max_rank"], r["calls_spread_min"], r["calls_spread_max"])
        mean, std = sc.mean()[k], sc.std(ddof=0)[k]
        n += check(want == got and close(mean, r["spread_mean"]) and close(std, r["spread_stddev"], 1e-9) and
                   close(sc.max()[k] / mean, r["spread_imbalance"]) and na(r["rank"]),
                   "%s %s: the job report's sums and spread %s, mean %r, stddev %r = the rank files' %s, %r, %r" % (
                       k[0], k[1], got, r["spread_mean"], r["spread_stddev"], want, mean, std))
    check(len(jf) == len(g) == 6 and n == 6, "the job report's 6 (region, event) rows, each the rank files'")


# ---- a region report with metrics (Python's pmu.region, a group file of software events) ----

def metrics_part(tmp):
    g = os.path.join(tmp, "sw.txt")
    with open(g, "w") as f:
        f.write("SHORT software events\nEVENTSET\nSW0 task-clock\nSW1 page-faults\n"
                "METRICS\nRuntime [s] time\nFaults per second [1/s] SW1/time\n")
    out = os.path.join(tmp, "py-regions.json")
    run([sys.executable, "-c", "import pmu\nwith pmu.region('touch'):\n    b = bytearray(b'x' * 4000000)\n"
         "with pmu.region('idle'):\n    pass\n"],
        env={"PMU_EVENTS": "group:" + g, "PMU_FORMAT": "json", "PMU_OUTPUT": out})
    d = frames.regions(out)
    n = compare(d, oracle_json(out, False), "a report with metrics")
    m = d[d["kind"] == "metric"]
    check(len(m) == 4 and set(m["name"]) == {"Runtime [s]", "Faults per second [1/s]"} and
          m["value"].notna().all() and m["enabled_ns"].isna().all() and d["rank"].isna().all(),
          "2 regions x 2 metrics, their values, no counts; no rank (not MPI): %d rows" % n)
    # an event the report says was not counted (null): a row, counted False, its numbers <NA>
    with open(out) as f:
        doc = json.load(f)
    doc["regions"][0]["events"]["page-faults"] = None
    nul = os.path.join(tmp, "null-event.json")
    with open(nul, "w") as f:
        json.dump(doc, f)
    z = frames.regions(nul)
    compare(z, oracle_json(nul, False), "a report with an event not counted")
    r = z[(z["region"] == "touch") & (z["name"] == "page-faults")]
    check(len(r) == 1 and not r["counted"].iloc[0] and r[["value", "scaled", "enabled_ns", "min"]].isna().all(None)
          and z["counted"].sum() == len(z) - 1, "an event not counted: counted False, its numbers <NA>")


# ---- socket-wide events: the kernel model's Sapphire Rapids ----

def socket_part(tmp):
    km, prog, src = ARGS.get("--kmodel"), ARGS.get("--region-socket"), ARGS.get("--src")
    if not (km and prog and src):
        setup_fail("--kmodel, --region-socket and --src are needed (tests/meson.build gives them)")
    model = os.path.join(tmp, "spr.model")
    run(["bash", "-c", 'SRC="$1"; . "$1/tests/kmodel.sh"; spr_model > "$2"', "-", src, model])
    fx = os.path.join(src, "tests", "fixtures", "intel-spr-2s")
    env = {"LD_PRELOAD": km, "PMU_KMODEL": model, "PMU_SYSFS_ROOT": os.path.join(fx, "sys"),
           "PMU_PROCFS_ROOT": os.path.join(fx, "proc"), "PMU_EVENTS": "MEM.DRAM.RW.BW,power/energy-pkg/,task-clock"}
    js, cs, js2 = (os.path.join(tmp, "sock" + x) for x in (".json", ".csv", "2.json"))
    run([prog, js], env=env)
    run([prog, cs, "csv"], env=env)
    shutil.copy(js, js2)
    d = frames.regions(js, threads=True)
    compare(d, oracle_json(js, True), "a socket-wide report (JSON)")
    sock = d[d["scope"] == "socket"]
    e = sock[sock["name"] == "power/energy-pkg/"]
    check(len(sock) > 0 and sock["tid"].isna().all() and set(sock["name"]) ==
          {"MEM.DRAM.RD.BYTES", "MEM.DRAM.WR.BYTES", "power/energy-pkg/"} and (e["unit"] == "Joules").all() and
          (e["unit_scale"] == 2.0 ** -32).all() and (e["quantity"] == e["scaled"] * 2.0 ** -32).all(),
          "socket-wide rows on the regions' totals only, RAPL's in Joules (2^-32): %d rows" % len(sock))
    c = frames.regions(cs, threads=True)
    compare(c, {k[:1] + (None,) + k[2:]: v for k, v in oracle_csv(cs, None, True).items()},
            "a socket-wide report (CSV)")
    def shape(f):       # two runs: other thread ids; the CSV has no metrics
        f = f[f["kind"] == "event"]
        return sorted(zip(f["tid"].isna(), f["region"], f["name"], f["scope"], f["unit"].astype(str)))
    check(shape(c) == shape(d), "the CSV's rows, scopes and units are the JSON's: %s" % (
          sorted(set(shape(c)) ^ set(shape(d)))[:4],))
    merged = os.path.join(tmp, "sock-merged.json")
    with open(merged, "w") as f:
        f.write(run([PMU, "report", "--json", js, js2]).stdout)
    m = frames.regions(merged)
    two = frames.regions([js, js2])
    s2 = two[two["kind"] == "event"].groupby(["region", "name", "scope"], sort=False)["value"].sum()
    ms = m.set_index(["region", "name", "scope"])["value"]
    check(sorted(s2.index) == sorted(ms.index) and all(s2[k] == ms[k] for k in s2.index) and
          (m[m["scope"] == "socket"]["name"].str.find("[socket]") < 0).all(),
          "the merge of two: its '[socket]' columns read as the events with scope socket, the sums the files'")


# ---- (b) pmu stat --json and -x, ----

def stat_oracle_json(path):
    with open(path) as f:
        d = json.load(f)
    out = {}

    def block(b, t):
        for e in b["events"]:
            out[(t, "total", None, "event", e["name"])] = {x: e[x] for x in ("value", "scaled", "enabled_ns",
                                                                                "running_ns", "confidence")}
        for u in b.get("units") or ():      # -A's CPUs, --per-thread's threads
            where, more = (("cpu", "CPU%d" % u["cpu"]), {"cpu": u["cpu"]}) if "cpu" in u else \
                (("thread", u["thread"]), {"tid": u["tid"]})
            for e in u["events"]:
                out[(t,) + where + ("event", e["name"])] = dict(more, value=e["value"])
        for m in b.get("metrics") or ():
            out[(t, "total", None, "metric", m["name"])] = {"value": m["value"]}

    block(d, None)
    for iv in d.get("intervals") or ():
        block(iv, iv["time_s"])
    return out


def stat_oracle_csv(path):
    """perf's CSV lines as pmu writes them, for the forms used here: [CPUn,|comm-TID,]value,unit,event,
    [variance%,]run,pct,m,mu and a metric's ,,,,,,value,name; with -I the time first."""
    out = {}
    with open(path) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            c = line.rstrip("\n").split(",")
            t = None
            if c[0].strip() == "summary":   # --summary's total after the intervals
                c = c[1:]
            elif "." in c[0] and c[0].strip()[0].isdigit() and len(c[0].strip().split(".")[1]) == 9:
                t, c = float(c[0]), c[1:]
            if all(x == "" for x in c[:-2]):
                out[(t, "total", None, "metric", c[-1])] = {"value": float(c[-2]) if c[-2] else None}
                continue
            where, aggr, more = None, "total", {}
            if c[0].startswith("CPU"):
                where, aggr, c, more = c[0], "cpu", c[1:], {"cpu": int(c[0][3:])}
            elif not c[0].startswith("<") and not c[0].replace(".", "").isdigit():
                where, aggr, c, more = c[0], "thread", c[1:], {"tid": int(c[0].rsplit("-", 1)[1])}
            if c[3].endswith("%"):          # -r: the variance
                more["stddev_pct"] = float(c[3][:-1])
                c = c[:3] + c[4:]
            if c[0].startswith("<"):
                out[(t, aggr, where, "event", c[2])] = dict(more, counted=False)
                continue
            v = float(c[0]) * (1e6 if c[1] == "msec" else 1)
            out[(t, aggr, where, "event", c[2])] = dict(more, scaled=v, quantity=v, running_ns=int(c[3]),
                                                        confidence=float(c[4]) / 100, counted=True,
                                                        unit="ns" if c[1] == "msec" else None)
    return out


def stat_compare(df, oracle, what):
    got = {}
    for r in df.to_dict("records"):
        got[(None if na(r["time_s"]) else r["time_s"], r["aggregation"], r["id"], r["kind"], r["name"])] = r
    check(set(got) == set(oracle), "%s: the frame's rows are the file's: only in the frame %s, only in the file %s"
          % (what, sorted(set(got) - set(oracle), key=str)[:4], sorted(set(oracle) - set(got), key=str)[:4]))
    bad = [(k, c, got[k][c], v) for k in set(got) & set(oracle) for c, v in oracle[k].items()
           if not (same(got[k][c], v) or (isinstance(v, float) and not na(got[k][c]) and close(got[k][c], v)))]
    check(not bad, "%s: %d values differ from the file's, e.g. %s" % (what, len(bad), bad[:3]))
    return got


def stat_part(tmp):
    # a command whose page faults are its buffer's: dd reads 16 MiB into one buffer, fresh pages
    cmd = ["dd", "if=/dev/zero", "of=/dev/null", "bs=16M", "count=2", "status=none"]
    js, cs = os.path.join(tmp, "stat.json"), os.path.join(tmp, "stat.csv")
    run([PMU, "stat", "--json", "-o", js, "-e", EVENTS, "--"] + cmd)
    run([PMU, "stat", "-x,", "-o", cs, "-M", "page\\-faults*2", "-e", EVENTS, "--"] + cmd)
    dj, dc = frames.stat(js, run="json"), frames.stat(cs, run="csv")
    gj = stat_compare(dj, stat_oracle_json(js), "pmu stat --json")
    gc = stat_compare(dc, stat_oracle_csv(cs), "pmu stat -x,")
    check(list(dj.columns) == list(dc.columns) == frames.STAT_COLUMNS and list(dj.dtypes) == list(dc.dtypes),
          "both stat frames have STAT_COLUMNS, the same dtypes")
    names = [n for n in EVENTS.split(",")]
    ej = {k[4]: r for k, r in gj.items() if k[3] == "event"}
    ec = {k[4]: r for k, r in gc.items() if k[3] == "event"}
    check(sorted(ej) == sorted(ec) == sorted(names), "both frames count %s: %s, %s" % (names, sorted(ej), sorted(ec)))
    check([ej[n]["unit"] for n in names] == [ec[n]["unit"] for n in names] == ["ns", None, None],
          "units: task-clock in ns in both (the CSV's msec read as ns), the counts none")
    # two runs of one command: the counts agree within the CSV's rounding (0.005 msec) and a slack
    tj, tc = ej["task-clock"]["scaled"], ec["task-clock"]["scaled"]
    pj, pc = ej["page-faults"]["scaled"], ec["page-faults"]["scaled"]
    check(pj >= 4096 and pc >= 4096 and abs(pj - pc) <= 0.1 * pj + 64 and 0.2 < tc / tj < 5 and
          ej["task-clock"]["confidence"] == ec["task-clock"]["confidence"] == 1.0,
          "the two runs' page faults (%d, %d: 16 MiB of 4 KiB pages at least) and task-clock (%d ns, %d ns) agree" % (
              pj, pc, tj, tc))
    mc = dc[dc["kind"] == "metric"]
    check(len(mc) == 1 and mc["value"].iloc[0] == 2 * ec["page-faults"]["scaled"],
          "the CSV's -M metric page-faults*2: %s = 2 x %s" % (mc["value"].tolist(), pc))
    # -a -A (per CPU) and -I (intervals), each against its file
    # a process of two busy threads for --per-thread -p
    spin = subprocess.Popen([sys.executable, "-c", "import threading, time\n"
                             "def f():\n    t = time.time()\n    while time.time() - t < 20: pass\n"
                             "for _ in range(2): threading.Thread(target=f, daemon=True).start()\n"
                             "time.sleep(20)\n"])
    forms = (("-A", ["-a", "-A"]), ("-I", ["-I", "20", "--summary"]), ("-r", ["-r", "2"]),
             ("--per-thread", ["--per-thread", "-p", str(spin.pid)]))
    try:
        stat_forms(tmp, forms)
    finally:
        spin.kill()
        spin.wait()
    both = frames.runs({"json": js, "csv": cs}, kind="stat")
    check(list(both["run"].unique()) == ["json", "csv"] and len(both) == len(dj) + len(dc), "runs(kind='stat')")


def stat_forms(tmp, forms):
    for form, extra in forms:
        j2, c2 = os.path.join(tmp, "stat%s.json" % form), os.path.join(tmp, "stat%s.csv" % form)
        run([PMU, "stat", "--json", "-o", j2, "-e", EVENTS] + extra + ["--", "sleep", "0.05"])
        run([PMU, "stat", "-x,", "-o", c2, "-e", EVENTS] + extra + ["--", "sleep", "0.05"])
        a, b = frames.stat(j2), frames.stat(c2)
        stat_compare(a, stat_oracle_json(j2), "pmu stat --json " + " ".join(extra))
        stat_compare(b, stat_oracle_csv(c2), "pmu stat -x, " + " ".join(extra))
        if form == "-A":
            check(set(a[a["aggregation"] == "cpu"]["id"]) == set(b["id"]) and b["cpu"].notna().all(),
                  "-A: both frames have the same CPUs: %s" % sorted(set(b["id"])))
        elif form == "-I":
            check(a["time_s"].notna().sum() == 3 * len(json.load(open(j2))["intervals"]) and
                  b["time_s"].notna().sum() >= 3 and b["time_s"].isna().sum() == 3,
                  "-I: a row per interval and event, time_s set; --summary's total: time_s <NA>")
        elif form == "-r":
            check(b["stddev_pct"].notna().all() and a["stddev_pct"].notna().all(), "-r: stddev_pct in both")
        else:
            ta, tb = (set(f[f["aggregation"] == "thread"]["tid"]) for f in (a, b))
            check(len(ta) >= 3 and ta == tb, "--per-thread: both frames have the process's threads: %s, %s" % (
                sorted(ta), sorted(tb)))


# ---- (d) without pandas ----

BLOCKER = r"""
import sys
class Block:
    def find_spec(self, name, path=None, target=None):
        if name == "pandas" or name.startswith("pandas."):
            raise ImportError("No module named %r (blocked by the test)" % name)
sys.meta_path.insert(0, Block())
import pmu
assert "pandas" not in sys.modules
import pmu.frames
assert "pandas" not in sys.modules
with pmu.Context() as ctx:
    pass
try:
    pmu.frames.regions(sys.argv[1])
except ImportError as e:
    print("IMPORTERROR:", e)
try:
    pmu.frames.stat(sys.argv[1])
except ImportError as e:
    print("IMPORTERROR:", e)
"""


def no_pandas_part(tmp):
    f = os.path.join(tmp, "any.json")
    with open(f, "w") as o:
        o.write('{"schema": "libpmu-regions/1"}')
    p = subprocess.run([sys.executable, "-c", BLOCKER, f], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True, timeout=60)
    lines = [x for x in p.stdout.splitlines() if x.startswith("IMPORTERROR:")]
    check(p.returncode == 0 and len(lines) == 2 and all("python3-pandas" in x for x in lines),
          "without pandas: import pmu, pmu.frames and a Context work; regions() and stat() raise ImportError "
          "naming python3-pandas: exit %d, %s" % (p.returncode, p.stdout[-600:]))
    p = subprocess.run([sys.executable, "-c", "import sys, pmu; print('pandas' in sys.modules)"],
                       stdout=subprocess.PIPE, universal_newlines=True, timeout=60)
    check(p.stdout.strip() == "False", "import pmu does not import pandas where it is installed: %r" % p.stdout)


# ---- (e) bad input ----

def bad_input_part(tmp, good_json, good_csv):
    def w(name, text):
        p = os.path.join(tmp, name)
        with open(p, "wb") as f:
            f.write(text if isinstance(text, bytes) else text.encode())
        return p

    with open(good_json) as f:
        gj = f.read()
    with open(good_csv) as f:
        gc = f.read()
    doc = json.loads(gj)
    del doc["regions"][0]["events"][next(iter(doc["regions"][0]["events"]))]["value"]
    typed = json.loads(gj)
    typed["regions"][0]["events"]["task-clock"]["scaled"] = "12"
    cases = [
        (frames.regions, w("other.json", '{"name": "x", "values": [1, 2]}'), "without a 'schema' key"),
        (frames.regions, w("list.json", "[1, 2, 3]"), "not a libpmu report"),
        (frames.regions, w("trunc.json", gj[:len(gj) // 2]), "truncated?"),
        (frames.regions, w("future.json", gj.replace("libpmu-regions/1", "libpmu-regions/7")),
         "schema 'libpmu-regions/7', which this pmu.frames does not read"),
        (frames.regions, w("stat-for-regions.json", '{"schema": "libpmu-stat/1", "events": []}'),
         "read it with pmu.frames.stat()"),
        (frames.stat, good_json, "read it with pmu.frames.regions()"),
        (frames.regions, w("empty.json", ""), "is empty"),
        (frames.regions, os.path.join(tmp, "no-such.json"), "cannot be read: No such file"),
        (frames.regions, w("novalue.json", json.dumps(doc)), "has no 'value'"),
        (frames.regions, w("strvalue.json", json.dumps(typed)),
         "regions[0].events['task-clock']'s 'scaled' is '12', not an integer"),
        (frames.regions, w("trunc.csv", gc[:gc.rindex(",", 0, len(gc) - 5)]), "the file is truncated?"),
        (frames.regions, w("text.txt", "hello\nworld\n"), "neither JSON nor a region CSV report"),
        (frames.stat, w("bad-stat.csv", "1.0,msec\n"), "not pmu stat -x,'s"),
        (frames.regions, w("bin.json", b"\xff\xfe{}"), "is not UTF-8 text"),
    ]
    for fn, path, words in cases:
        try:
            fn(path)
            check(False, "%s(%s) is refused" % (fn.__name__, os.path.basename(path)))
        except frames.ReportError as e:
            check(str(e).startswith(path + ": ") and words in str(e) and isinstance(e, ValueError),
                  "%s(%s): %r names the file and says %r" % (fn.__name__, os.path.basename(path), str(e), words))
    try:
        frames.regions(42)
        check(False, "regions(42) is refused")
    except TypeError as e:
        check("paths" in str(e), "regions(42): %s" % e)


def main():
    if not PMU or not os.access(PMU, os.X_OK):
        setup_fail("the pmu command is not found (PMU_CLI=%r)" % PMU)
    check(hasattr(pmu, "frames") and pmu.frames is frames, "pmu.frames is the module")
    tmp = tempfile.mkdtemp(prefix="test-frames.")
    try:
        skipped = mpi_part(tmp)
        if ARGS.get("--mpi-lib"):   # libpmu-mpi, where this tree builds it
            if skipped:
                setup_fail("--mpi-lib is given but the MPI job cannot run: " + skipped)
            job_part(tmp, ARGS["--mpi-lib"])
        metrics_part(tmp)
        socket_part(tmp)
        stat_part(tmp)
        no_pandas_part(tmp)
        good_csv = (glob.glob(os.path.join(tmp, "out-*.csv")) or [None])[0]
        if good_csv is None:        # without MPI: a CSV report of Python's pmu.region
            good_csv = os.path.join(tmp, "py.csv")
            run([sys.executable, "-c", "import pmu\nwith pmu.region('r'):\n    pass\n"],
                env={"PMU_EVENTS": EVENTS, "PMU_FORMAT": "csv", "PMU_OUTPUT": good_csv})
        bad_input_part(tmp, os.path.join(tmp, "py-regions.json"), good_csv)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("%d checks, %d failed" % (tally.checks, tally.fails))
    if tally.fails:
        return 1
    if skipped:
        print("SKIP: the MPI part did not run: %s" % skipped)
        return 77
    return 0


if __name__ == "__main__":
    sys.exit(main())
