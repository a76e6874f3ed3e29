# Screening median against final median per config, from a gemmtune journal (the analysis behind README.md here).
import json, sys
for name in sys.argv[1:]:
    recs = [json.loads(l) for l in open(name)]
    screen, final = {}, {}
    for r in recs:
        if r["phase"] == "screen" and r["disposition"] == "passed": screen[r["config"]] = r["median_us"]
        if r["phase"] == "final": final[r["config"]] = r["median_us"]
    print(name, "screened", len(screen))
    for c, us in screen.items():
        f = final.get(c)
        print(f"  {c:60s} screen {us:9.1f}  final {f if f is None else round(f, 1)}")
