#!/usr/bin/env python3
"""Joins a gemmtune tuning table with cublas_anchor.py output from the same run into a markdown table.

  scripts/ratio.py TABLE.json CUBLAS.jsonl [--json OUT.json]

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
        ref = cublas.get((e["m"], e["n"], e["k"], e["dtype"], False))
        if not best or not ref or e["batch"] != 1:
            continue
        flops = 2.0 * e["m"] * e["n"] * e["k"]
        rows.append({"m": e["m"], "n": e["n"], "k": e["k"], "dtype": e["dtype"], "cold": False, "config": best["name"],
                     "gemmtune_us": round(best["median_us"], 2), "tflops": round(flops / best["median_us"] / 1e6, 2),
                     "cublas_us": ref["us"], "ratio": round(ref["us"] / best["median_us"], 4)})
    print(f"device: {table['device']['name']}, driver {table['device']['driver_version']}, gemmtune {table['tool']['git']}")
    print()
    print("| M x N x K | dtype | gemmtune best config | us | TFLOP/s | cuBLAS us | ratio |")
    print("|---|---|---|---:|---:|---:|---:|")
    for r in rows:
        print(f"| {r['m']}x{r['n']}x{r['k']} | {r['dtype']} | {r['config']} | {r['gemmtune_us']} | {r['tflops']} | "
              f"{r['cublas_us']} | {r['ratio']} |")
    if a.json:
        with open(a.json, "w") as f:
            json.dump(rows, f, indent=2)
            f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
