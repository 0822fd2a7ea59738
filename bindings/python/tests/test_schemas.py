# SPDX-License-Identifier: MIT
"""The JSON outputs validate against the schemas documented in tools/schemas/."""
import json
import os
import subprocess
import sys

import pytest

jsonschema = pytest.importorskip("jsonschema", reason="python3-jsonschema is not installed")

SRC = os.environ.get("PMU_TEST_SRCDIR", os.path.join(os.path.dirname(__file__), "..", "..", ".."))
BUILD = os.path.join(os.path.dirname(os.environ.get("PMU_LIBRARY", "")), "..")


def schema(name):
    with open(os.path.join(SRC, "tools", "schemas", name)) as f:
        return json.load(f)


def test_region_report_validates(tmp_path):
    out = tmp_path / "regions-%p.json"
    env = dict(os.environ, PMU_FORMAT="json", PMU_OUTPUT=str(out), PMU_PER_THREAD="1")
    exe = os.path.join(BUILD, "examples", "matmul")
    if not os.path.exists(exe):
        pytest.skip("examples/matmul not built at %s" % exe)
    subprocess.run([exe, "64"], env=env, check=True, stdout=subprocess.DEVNULL)
    files = list(tmp_path.glob("regions-*.json"))
    assert len(files) == 1, files
    doc = json.loads(files[0].read_text())
    jsonschema.validate(doc, schema("libpmu-regions-1.schema.json"))
    assert {r["name"] for r in doc["regions"]} == {"matmul i-j-k", "matmul i-k-j"}
    assert all(r["threads"] and r["calls"] == 1 for r in doc["regions"])


def test_region_report_rejects_a_broken_document():
    bad = {"schema": "libpmu-regions/1", "version": "x", "pid": 1, "rank": None, "cpuid": "", "threads": 1,
           "calibrated": True, "events": ["a"], "regions": [{"name": "r", "calls": -1, "events": {}, "metrics": {},
                                                             "threads": []}]}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(bad, schema("libpmu-regions-1.schema.json"))


def test_stat_json_validates(tmp_path):
    pmu = os.path.join(BUILD, "tools", "pmu")
    out = tmp_path / "stat.json"
    subprocess.run([pmu, "stat", "--json", "-o", str(out), "-M", "page\\-faults / task\\-clock", "--", "true"],
                   check=True)
    jsonschema.validate(json.loads(out.read_text()), schema("libpmu-stat-1.schema.json"))
