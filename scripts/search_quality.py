#!/usr/bin/env python3
"""The search-quality report from scripts/search-quality.sh's folder: for each problem, the ground truth run
(<problem>.truth.json and its journal) gives every config's time: a finalist's final median, else its screening
median; the optimum is the fastest final median. Each budget run's chosen config (its table's best) scores
optimum / its time in the ground truth (1.0: the optimum itself). Prints a Markdown table per problem, budget and
strategy (with the seconds of screening, by the journal's costs in screening order, until the run first screened a
config within 0.95 of the optimum in the ground truth: "-" where it never did), then per budget and strategy the
mean, the worst and how often the exact optimum was chosen.
Usage: scripts/search_quality.py DIR [--truths TRUTH_DIR]   (TRUTH_DIR: compacted ground truths, as
       tests/data/search/, for problems with no truth run in DIR)
       scripts/search_quality.py --compact TRUTH_JOURNAL OUT.json   (the replay test's data, tests/data/search/:
       every screened config in screening order: its name, passed, its screening samples, its final samples
       (finalists) and its screening cost in seconds)
       scripts/search_quality.py --compare A_JOURNAL B_JOURNAL   (two tunes of the same problems, an A/B of a
       prior or strategy with no ground truth: per problem the screening seconds each run took until it screened a
       config within 0.95 and 0.98 of the better run's best screening median, then their means and medians and how
       many problems each reached a fifth sooner)"""
import glob
import json
import os
import sys
from collections import defaultdict


def records(journal):
    """A journal's records in order; a torn line (a run cut off mid-write) is skipped."""
    with open(journal) as f:
        for line in f:
            try:
                yield json.loads(line)
            except json.JSONDecodeError:
                continue


def truth_times(journal):
    screen, final = {}, {}
    for r in records(journal):
        if r.get("disposition") != "passed":
            continue
        if r["phase"] == "final":
            final[r["config"]] = r["median_us"]
        elif r["phase"] == "screen":
            screen[r["config"]] = r["median_us"]
    return {**screen, **final}, final


def chosen(table):
    with open(table) as f:
        entries = json.load(f)["entries"]
    best = entries[0].get("best") if entries else None
    return (best["name"], best["median_us"]) if best else (None, None)


def median(v):
    v = sorted(v)
    return v[len(v) // 2] if len(v) % 2 else 0.5 * (v[len(v) // 2 - 1] + v[len(v) // 2])


def compacted_times(path):
    with open(path) as f:
        configs = json.load(f)["configs"]
    times = {c[0]: median(c[3] or c[2]) for c in configs if c[1] and c[2]}
    return times, {c[0]: median(c[3]) for c in configs if c[1] and c[3]}


def truths(folder, truth_dir):
    found = {}
    if truth_dir:
        for path in glob.glob(os.path.join(truth_dir, "*.json")):
            found[os.path.basename(path)[: -len(".json")]] = compacted_times(path)
    for truth in glob.glob(os.path.join(folder, "*.truth.json")):
        found[os.path.basename(truth)[: -len(".truth.json")]] = truth_times(truth + ".journal.jsonl")
    return found


def screens(journal):
    """Per problem (the journal's key), its screened configs in order: (name, passed, screening median, cost in s)."""
    runs = defaultdict(list)
    for r in records(journal):
        if r.get("phase") == "screen":
            runs[r["problem"]].append((r["config"], r.get("disposition") == "passed" and r.get("median_us", 0) > 0,
                                       r.get("median_us", 0.0), r.get("cost_ms", {}).get("total", 0.0) / 1000.0))
    return runs


def seconds_to(screened, target_us):
    """The screening seconds until a passed entry of `screened` ((passed, us, cost) in order) ran in `target_us` or
    less; None where none did."""
    clock = 0.0
    for passed, us, cost in screened:
        clock += cost
        if passed and us <= target_us:
            return clock
    return None


def screen_log(run, times, optimum, fraction=0.95):
    """From the run's journal: how many configs it screened, and the screening seconds (each screened config's cost,
    in the journal's order) until it screened one within `fraction` of the optimum in the ground truth (None where
    none was)."""
    try:
        screened = [c for configs in screens(run + ".journal.jsonl").values() for c in configs]
    except OSError:
        return 0, None
    in_truth = [(passed and name in times, times.get(name, 0.0), cost) for name, passed, _, cost in screened]
    return len(screened), seconds_to(in_truth, optimum / fraction)


def main(folder, truth_dir=None):
    rows = []
    for problem, (times, final) in sorted(truths(folder, truth_dir).items()):
        if not final:
            continue
        optimum = min(final.values())
        best_name = min(final, key=final.get)
        for run in sorted(glob.glob(os.path.join(folder, problem + ".*.b*.json"))):
            strategy, budget = os.path.basename(run)[len(problem) + 1 : -len(".json")].split(".")
            name, own_us = chosen(run)
            t = times.get(name)
            fraction = min(1.0, optimum / t) if t else 0.0
            rows.append((problem, int(budget[1:]), strategy, name, own_us, t, optimum, best_name, fraction,
                         *screen_log(run, times, optimum)))
    print("| problem | budget s | strategy | screened | chosen | its time in the truth us | optimum us | fraction |"
          " to 0.95 s |")
    print("|---|---:|---|---:|---|---:|---:|---:|---:|")
    for p, b, s, name, own, t, opt, best, fr, n, reach in sorted(rows, key=lambda r: (r[0], r[2], r[1])):
        reached = "-" if reach is None else f"{reach:.1f}"
        print(f"| {p} | {b} | {s} | {n} | {name} | {t if t else float('nan'):.2f} | {opt:.2f} | {fr:.3f} | "
              f"{reached} |")
    print()
    print("| budget s | strategy | problems | mean | worst | exact optimum |")
    print("|---:|---|---:|---:|---:|---:|")
    groups = defaultdict(list)
    for r in rows:
        groups[(r[1], r[2])].append(r)
    for (b, s), rs in sorted(groups.items()):
        fr = [r[8] for r in rs]
        exact = sum(1 for r in rs if r[3] == r[7])
        print(f"| {b} | {s} | {len(rs)} | {sum(fr) / len(fr):.3f} | {min(fr):.3f} | {exact} of {len(rs)} |")


def compact(journal, out):
    configs, order, problem = {}, [], None
    for r in records(journal):
        if r["phase"] not in ("screen", "final"):
            continue
        problem = problem or json.loads(r["problem"])
        name = r["config"]
        if r["phase"] == "screen" and name not in configs:
            order.append(name)
            configs[name] = [name, r["disposition"] == "passed", list(r["samples_us"]), [],
                             round(r["cost_ms"]["total"] / 1000.0, 4)]
        elif r["phase"] == "final" and name in configs and r["disposition"] == "passed":
            configs[name][3] = list(r["samples_us"])
    for c in configs.values():
        c[2] = [round(x, 3) for x in c[2]]
        c[3] = [round(x, 3) for x in c[3]]
    keep = {k: problem[k] for k in ("m", "n", "k", "batch", "dtype", "layout")}
    with open(out, "w") as f:
        f.write(json.dumps({"problem": keep, "configs": [configs[n] for n in order]}, separators=(",", ":")))
        f.write("\n")




def compare(journal_a, journal_b, fractions=(0.95, 0.98)):
    a, b = screens(journal_a), screens(journal_b)
    unnamed = lambda configs: [c[1:] for c in configs]
    rows = []
    for key in sorted(set(a) & set(b)):
        times = [us for _, passed, us, _ in a[key] + b[key] if passed]
        if not times:
            continue
        best = min(times)
        p = json.loads(key)
        name = "x".join(str(p[k]) for k in ("m", "n", "k")) + (f"x{p['batch']}" if p.get("batch", 1) > 1 else "")
        rows.append((f"{name} {p.get('dtype', '')} {p.get('layout', '')}".strip(),
                     [(seconds_to(unnamed(a[key]), best / f), seconds_to(unnamed(b[key]), best / f))
                      for f in fractions]))
    show = lambda t: "-" if t is None else f"{t:.2f}"
    head = " | ".join(f"A to {f} s | B to {f} s" for f in fractions)
    print(f"| problem | {head} |")
    print("|---|" + "---:|" * (2 * len(fractions)))
    for name, pairs in rows:
        print(f"| {name} | " + " | ".join(f"{show(x)} | {show(y)}" for x, y in pairs) + " |")
    print()
    print("| fraction | problems | A mean s | B mean s | A median s | B median s | B a fifth sooner | B a fifth later |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|")
    for i, f in enumerate(fractions):
        both = [pair[i] for _, pair in rows if pair[i][0] is not None and pair[i][1] is not None]
        if not both:
            continue
        xs, ys = [x for x, _ in both], [y for _, y in both]
        sooner = sum(1 for x, y in both if y < 0.8 * x)
        later = sum(1 for x, y in both if y > 1.25 * x)
        print(f"| {f} | {len(both)} | {sum(xs) / len(xs):.2f} | {sum(ys) / len(ys):.2f} | {median(xs):.2f} | "
              f"{median(ys):.2f} | {sooner} | {later} |")


if __name__ == "__main__":
    if sys.argv[1] == "--compact":
        compact(sys.argv[2], sys.argv[3])
    elif sys.argv[1] == "--compare":
        compare(sys.argv[2], sys.argv[3])
    else:
        main(sys.argv[1], sys.argv[3] if len(sys.argv) > 3 and sys.argv[2] == "--truths" else None)
