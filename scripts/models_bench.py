#!/usr/bin/env python3
"""The real-model suite's table (issue 43): a gemmtune tuning table beside cublas_batched_anchor.py's lines from
the same run, joined on M, N, K, batch, dtype and layout; ratio = cuBLAS time / gemmtune time (1.0 = parity).
Each row is checked against its target: decoding rows (M <= 16) 0.95, other 16-bit rows 0.40, other f32 rows
0.75. Rows named odd-* are set beside the aligned-* row that follows them in the anchor's order: their TFLOP/s
over the aligned shape's, target 0.85 (within 15 %).
  scripts/models_bench.py TABLE.json CUBLAS.jsonl [--markdown OUT.md] [--json OUT.json]
Exits 1 when a problem of the anchor file has no entry in the table (a run cut short)."""
import argparse
import json
import sys

EDGE_TARGET = 0.85


def target(row):
    if row["M"] <= 16:
        return 0.95
    return 0.75 if row["dtype"] == "f32" else 0.40


def join(table, anchors):
    entries = {(e["m"], e["n"], e["k"], e["batch"], e["dtype"], e["layout"]): e
               for e in table["entries"] if not e.get("cold") and e.get("best")}
    rows, missing = [], []
    for a in anchors:
        key = (a["M"], a["N"], a["K"], a.get("batch", 1), a["dtype"], a.get("layout", "nn"))
        e = entries.get(key)
        if e is None:
            missing.append(a)
            continue
        best = e["best"]
        row = {"name": a.get("name", ""), "M": a["M"], "N": a["N"], "K": a["K"], "batch": a.get("batch", 1),
               "dtype": a["dtype"], "layout": key[5], "config": best["name"], "us": best["median_us"],
               "tflops": 2.0 * a["M"] * a["N"] * a["K"] * key[3] / best["median_us"] / 1e6,
               "cublas_us": a["us"], "ratio": a["us"] / best["median_us"]}
        row["target"] = target(row)
        rows.append(row)
    # Edge penalty: an odd-* row against the aligned-* row after it, same dtype.
    by_name = {(r["name"], r["dtype"]): r for r in rows}
    names = list(dict.fromkeys(r["name"] for r in rows))
    for i, name in enumerate(names[:-1]):
        if name.startswith("odd-") and names[i + 1].startswith("aligned-"):
            for r in rows:
                aligned = by_name.get((names[i + 1], r["dtype"]))
                if r["name"] == name and aligned:
                    r["edge"] = {"aligned": aligned["name"], "fraction": r["tflops"] / aligned["tflops"]}
    return rows, missing


def markdown(rows):
    out = ["| problem | M x N x K x batch | layout | dtype | gemmtune config | us | TFLOP/s | cuBLAS us | ratio | "
           "target | edge |", "|---|---|---|---|---|---:|---:|---:|---:|---:|---|"]
    for r in rows:
        edge = f"{r['edge']['fraction']:.2f} of {r['edge']['aligned']}" if "edge" in r else ""
        mark = "" if r["ratio"] >= r["target"] else " (missed)"
        out.append(f"| {r['name']} | {r['M']}x{r['N']}x{r['K']}x{r['batch']} | {r['layout']} | {r['dtype']} | "
                   f"{r['config']} | {r['us']:.2f} | {r['tflops']:.1f} | {r['cublas_us']:.2f} | {r['ratio']:.2f} | "
                   f"{r['target']:.2f}{mark} | {edge} |")
    met = sum(r["ratio"] >= r["target"] for r in rows)
    edges = [r for r in rows if "edge" in r]
    out.append("")
    out.append(f"Targets met: {met} of {len(rows)}; edge rows within 15 % of their aligned shape: "
               f"{sum(r['edge']['fraction'] >= EDGE_TARGET for r in edges)} of {len(edges)}.")
    for dtype in sorted({r["dtype"] for r in rows}):
        ratios = sorted(r["ratio"] for r in rows if r["dtype"] == dtype)
        out.append(f"- {dtype}: {len(ratios)} problems, ratio min {ratios[0]:.2f}, median "
                   f"{ratios[len(ratios) // 2]:.2f}, max {ratios[-1]:.2f}")
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("table")
    ap.add_argument("cublas")
    ap.add_argument("--markdown")
    ap.add_argument("--json")
    a = ap.parse_args()
    with open(a.table) as f:
        table = json.load(f)
    with open(a.cublas) as f:
        anchors = [json.loads(line) for line in f if line.strip()]
    rows, missing = join(table, anchors)
    text = markdown(rows)
    sys.stdout.write(text)
    if a.markdown:
        with open(a.markdown, "w") as f:
            f.write(text)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(rows, f, indent=1)
    for m in missing:
        print(f"models_bench.py: {a.table}: no entry for {m.get('name', '')} {m['M']}x{m['N']}x{m['K']}x"
              f"{m.get('batch', 1)} {m['dtype']} {m.get('layout', 'nn')}", file=sys.stderr)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
