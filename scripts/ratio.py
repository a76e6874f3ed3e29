#!/usr/bin/env python3
"""Joins a gemmtune tuning table with cublas_anchor.py output from the same run into a markdown table.

  scripts/ratio.py TABLE.json CUBLAS.jsonl [--json OUT.json] [--markdown OUT.md]

ratio = cuBLAS time / gemmtune best time (1.0 = parity). Only shapes and dtypes present in both are listed.
"""
import argparse
import json
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("table")
    ap.add_argument("cublas")
    ap.add_argument("--json", help="also write the rows as a JSON list")
    ap.add_argument("--markdown", help="also write the markdown table to this file")
    a = ap.parse_args()
    with open(a.table) as f:
        table = json.load(f)
    cublas = {}
    with open(a.cublas) as f:
        for line in f:
            if line.strip():
                r = json.loads(line)
                cublas[(r["M"], r["N"], r["K"], r["dtype"], bool(r.get("cold", False)))] = r
    rows = []
    for e in table["entries"]:
        best = e.get("best")
        cold = bool(e.get("cold", False))
        ref = cublas.get((e["m"], e["n"], e["k"], e["dtype"], cold))
        if not best or not ref or e["batch"] != 1:
            continue
        flops = 2.0 * e["m"] * e["n"] * e["k"]
        rows.append({"m": e["m"], "n": e["n"], "k": e["k"], "dtype": e["dtype"], "cold": cold, "config": best["name"],
                     "gemmtune_us": round(best["median_us"], 2), "tflops": round(flops / best["median_us"] / 1e6, 2),
                     "cublas_us": ref["us"], "ratio": float(f"{ref['us'] / best['median_us']:.4g}")})
    lines = [f"device: {table['device']['name']}, driver {table['device']['driver_version']}, gemmtune {table['tool']['git']}",
             "",
             "| M x N x K | dtype | L2 | gemmtune best config | us | TFLOP/s | cuBLAS us | ratio |",
             "|---|---|---|---|---:|---:|---:|---:|"]
    for r in rows:
        lines.append(f"| {r['m']}x{r['n']}x{r['k']} | {r['dtype']} | {'cold' if r['cold'] else 'hot'} | {r['config']} | {r['gemmtune_us']} | {r['tflops']} | "
                     f"{r['cublas_us']} | {r['ratio']} |")
    missing = [f"{e['m']}x{e['n']}x{e['k']} {e['dtype']}" for e in table["entries"]
               if not e.get("best") and e["batch"] == 1]
    if missing:
        lines += ["", "No verified gemmtune result: " + ", ".join(missing)]
    print("\n".join(lines))
    if a.markdown:
        with open(a.markdown, "w") as f:
            f.write("\n".join(lines) + "\n")
    if a.json:
        with open(a.json, "w") as f:
            json.dump(rows, f, indent=2)
            f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
