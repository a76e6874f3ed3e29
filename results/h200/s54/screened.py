"""Per journal (one shape's screen): the ten fastest screened configs, and the best with and without a 96/192 side."""
import json
import re
import sys

for path in sys.argv[1:]:
    times = {}
    for line in open(path):
        r = json.loads(line)
        if r.get("phase") == "screen" and r.get("disposition") == "passed" and r.get("median_us", 0) > 0:
            times[r["config"]] = min(times.get(r["config"], 1e30), r["median_us"])
    odd = lambda c: re.search(r"_b[mn](96|192)_", c) is not None
    ranked = sorted(times.items(), key=lambda kv: kv[1])
    print(f"## {path.split('/')[-1]}: {len(times)} screened")
    for c, us in ranked[:10]:
        print(f"- {us:9.2f} us {c}")
    best_odd = min((us for c, us in times.items() if odd(c)), default=None)
    best_even = min((us for c, us in times.items() if not odd(c)), default=None)
    if best_odd and best_even:
        print(f"- best 96/192: {best_odd:.2f} us, best power of two: {best_even:.2f} us, gain {best_even / best_odd:.3f}x")
    print()
