#!/usr/bin/env python3
"""Joins a gemmtune tuning table with cublas_anchor.py output from the same run into a markdown table.

  scripts/ratio.py TABLE.json CUBLAS.jsonl [--ggml GGML.jsonl] [--json OUT.json] [--markdown OUT.md]

ratio = cuBLAS time / gemmtune best time (1.0 = parity). Only shapes and dtypes present in both are listed.
Every float row also gives the bytes the product must move (each operand read once, C written once) over the
time, in GB/s and as a share of the table's measured copy rate (`gemmtune peak`, read + written), the figure a
memory-bound (decoding) shape is judged by. With --ggml (ggml_anchor.sh lines from the same run), float rows of
layout nt get ggml-vulkan's time and ratio = ggml time / gemmtune time: f32 rows from its `--matrix none` lines
(plain f32 arithmetic), 16-bit rows from its matrix-unit lines; ggml times hot L2 only.
8-bit integer entries (i8, u8, u8i8) follow in a table of their own: TOPS beside gemmtune's best f16 TFLOP/s and
cuBLAS's f16 TFLOP/s on the same shape (hot L2), and for i8 the ratio to cuBLAS's int8 product where the anchor file
has an "i8" line of the same layout (scripts/cublas_int8_anchor.py); cuBLAS has no uint8 product, so u8 and u8i8 rows keep cublas_us
and ratio null. `tops` is set on every integer row. Anchor lines without a layout are nn (cublas_anchor.py's), and a
gemmtune entry is joined only with the anchor line of its own layout.
"""
import argparse
import json
import sys


def sig(x):
    """Four significant digits (small shapes run at a tiny fraction of a TOPS)."""
    return float(f"{x:.4g}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("table")
    ap.add_argument("cublas")
    ap.add_argument("--ggml", help="ggml_anchor.sh output (JSON lines) from the same run")
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
                cublas[(r["M"], r["N"], r["K"], r["dtype"], bool(r.get("cold", False)), r.get("layout", "nn"))] = r
    ggml = {}
    if a.ggml:
        with open(a.ggml) as f:
            for line in f:
                if line.strip():
                    r = json.loads(line)
                    if (r["dtype"] == "f32") == (r.get("matrix") == "none"):
                        ggml[(r["M"], r["N"], r["K"], r["dtype"], r.get("layout", "nt"))] = r
    copy_gbps = (table["device"].get("peak") or {}).get("copy_gbps")
    rows, int_rows = [], []
    f16_best = {(e["m"], e["n"], e["k"]): e["best"] for e in table["entries"]
                if e["dtype"] == "f16" and e.get("best") and not e.get("cold") and e["batch"] == 1 and e["layout"] == "nn"}
    for e in table["entries"]:
        best = e.get("best")
        cold = bool(e.get("cold", False))
        if e["dtype"] in ("i8", "u8", "u8i8") and best and e["batch"] == 1:
            ops = 2.0 * e["m"] * e["n"] * e["k"]
            shape = (e["m"], e["n"], e["k"])
            f16 = f16_best.get(shape)
            ref16 = cublas.get(shape + ("f16", False, "nn"))
            ref8 = cublas.get(shape + ("i8", False, e["layout"])) if e["dtype"] == "i8" and not cold else None
            int_rows.append({"m": e["m"], "n": e["n"], "k": e["k"], "dtype": e["dtype"], "layout": e["layout"], "cold": cold,
                             "config": best["name"],
                             "gemmtune_us": round(best["median_us"], 2), "tops": sig(ops / best["median_us"] / 1e6),
                             "cublas_us": ref8["us"] if ref8 else None,
                             "ratio": sig(ref8["us"] / best["median_us"]) if ref8 else None,
                             "f16_tflops": sig(ops / f16["median_us"] / 1e6) if f16 else None,
                             "cublas_f16_tflops": sig(ops / ref16["us"] / 1e6) if ref16 else None})
            continue
        ref = cublas.get((e["m"], e["n"], e["k"], e["dtype"], cold, e["layout"]))
        if not best or not ref or e["batch"] != 1:
            continue
        flops = 2.0 * e["m"] * e["n"] * e["k"]
        size = 4 if e["dtype"] == "f32" else 2
        moved = size * (e["m"] * e["k"] + e["k"] * e["n"]) + 4 * e["m"] * e["n"]  # C is f32 for every input type
        gbps = moved / best["median_us"] / 1e3
        g = ggml.get((e["m"], e["n"], e["k"], e["dtype"], e["layout"])) if not cold else None
        rows.append({"m": e["m"], "n": e["n"], "k": e["k"], "dtype": e["dtype"], "layout": e["layout"], "cold": cold,
                     "config": best["name"], "gemmtune_us": round(best["median_us"], 2),
                     "tflops": round(flops / best["median_us"] / 1e6, 2), "gbps": sig(gbps),
                     "copy_share": sig(gbps / copy_gbps) if copy_gbps else None,
                     "cublas_us": ref["us"], "ratio": float(f"{ref['us'] / best['median_us']:.4g}"),
                     "ggml_us": g["us"] if g else None, "ggml_ratio": sig(g["us"] / best["median_us"]) if g else None})
    lines = [f"device: {table['device']['name']}, driver {table['device']['driver_version']}, gemmtune {table['tool']['git']}",
             "",
             f"copy rate (`gemmtune peak`, read + written): {copy_gbps:.0f} GB/s" if copy_gbps else "copy rate: not measured",
             "",
             "| M x N x K | dtype | layout | L2 | gemmtune best config | us | TFLOP/s | GB/s | of copy | cuBLAS us | ratio | ggml-vulkan us | ggml ratio |",
             "|---|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    dash = lambda v: "-" if v is None else v
    for r in rows:
        share = f"{100 * r['copy_share']:.0f} %" if r["copy_share"] is not None else "-"
        lines.append(f"| {r['m']}x{r['n']}x{r['k']} | {r['dtype']} | {r['layout']} | {'cold' if r['cold'] else 'hot'} | {r['config']} | "
                     f"{r['gemmtune_us']} | {r['tflops']} | {r['gbps']} | {share} | {r['cublas_us']} | {r['ratio']} | "
                     f"{dash(r['ggml_us'])} | {dash(r['ggml_ratio'])} |")
    if int_rows:
        lines += ["", "8-bit integers (exact int32 results): TOPS beside the f16 figures of the same shape; ratio = cuBLAS int8 time / "
                  "gemmtune time, same layout (cuBLAS has no uint8 product); the f16 figures are nn",
                  "", "| M x N x K | dtype | layout | L2 | gemmtune best config | us | TOPS | gemmtune f16 TFLOP/s | cuBLAS f16 TFLOP/s | "
                  "cuBLAS int8 us | ratio |",
                  "|---|---|---|---|---|---:|---:|---:|---:|---:|---:|"]
        for r in int_rows:
            lines.append(f"| {r['m']}x{r['n']}x{r['k']} | {r['dtype']} | {r['layout']} | {'cold' if r['cold'] else 'hot'} | {r['config']} | "
                         f"{r['gemmtune_us']} | {r['tops']} | {dash(r['f16_tflops'])} | {dash(r['cublas_f16_tflops'])} | {dash(r['cublas_us'])} | "
                         f"{dash(r['ratio'])} |")
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
            json.dump(rows + int_rows, f, indent=2)
            f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
