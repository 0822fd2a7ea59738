#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Write a synthetic table directory the size of Intel's largest core tables
(perf's sapphirerapids: ~1,500 events and ~400 metrics over ~15 files), in
perf's format, for bench/startup. usage: make-large-table.py OUTDIR"""
import json, os, random, sys

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
rnd = random.Random(1)
events = []
for i in range(1500):
    events.append({
        "BriefDescription": "Synthetic event %d for measuring table load time" % i,
        "Counter": "0,1,2,3,4,5,6,7",
        "EventCode": "0x%02x" % rnd.randrange(256),
        "EventName": "SYNTH_%04d.SUB_%d" % (i // 4, i % 4),
        "PublicDescription": "A longer description of synthetic event %d, as long as Intel's usually are: " % i
                             + "counts something per cycle while some condition holds, " * 4,
        "SampleAfterValue": "2000003",
        "UMask": "0x%02x" % rnd.randrange(256),
    })
metrics = []
for i in range(400):
    a, b, c = rnd.sample(events, 3)
    metrics.append({
        "BriefDescription": "Synthetic metric %d" % i,
        "MetricExpr": "(%s + %s) / %s if #smt_on else d_ratio(%s, %s)" % (a["EventName"], b["EventName"], c["EventName"], a["EventName"], c["EventName"]),
        "MetricGroup": "Synthetic",
        "MetricName": "synth_metric_%d" % i,
        "ScaleUnit": "100%",
    })
for k in range(12):
    with open(os.path.join(out, "events-%02d.json" % k), "w") as f:
        json.dump(events[k * 125:(k + 1) * 125], f, indent=4)
with open(os.path.join(out, "metrics.json"), "w") as f:
    json.dump(metrics, f, indent=4)
