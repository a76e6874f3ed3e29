#!/usr/bin/env python3
"""Every config a tuning journal timed, per problem, fastest first: `list-configs.py TABLE.journal.jsonl`.
The last line of each (problem, config) counts (finals replace screening times). With `--registers`, the driver's
register count of each config instead (journal field pipeline_statistics). Used by the issue 18 scripts."""
import json
import sys

registers = "--registers" in sys.argv[1:]
path = [a for a in sys.argv[1:] if a != "--registers"][0]
last = {}
for line in open(path):
    r = json.loads(line)
    if not r["config"]:
        continue
    p = json.loads(r["problem"])
    key = (f'{p["m"]}x{p["n"]}x{p["k"]} {p["layout"]}', r["config"])
    if registers:
        if r.get("pipeline_statistics"):
            last[key] = r["pipeline_statistics"].get("Register Count")
    elif r["median_us"] > 0:
        last[key] = (r["median_us"], r["phase"], r["disposition"])
if registers:
    for (shape, name), count in sorted(last.items()):
        print(f"{shape:18s} {name:50s} {count}")
else:
    for (shape, name), (us, phase, disp) in sorted(last.items(), key=lambda kv: (kv[0][0], kv[1][0])):
        print(f"{shape:18s} {name:50s} {us:9.2f} us  {phase:8s} {disp}")
