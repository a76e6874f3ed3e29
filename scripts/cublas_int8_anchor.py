#!/usr/bin/env python3
"""cuBLAS reference for 8-bit integers on the GPU machine: int8 x int8 -> int32 through torch._int_mm (cuBLASLt),
timed the way ../shared/gpu-kit/cublas_anchor.py times floats, so bench.md can give i8 rows a ratio.
Each figure: REP products captured in one CUDA graph, the graph replayed 15 times between CUDA events after 3
warm-up replays; the median replay divided by REP. Inputs uniform in [-128, 127], zero points 0 (cuBLAS has none).
One JSON line per shape and layout on stdout: lib, dtype ("i8"), layout, M, N, K, cold (false), us, tflops (tera-ops),
gbps. Layout nn: B stored K x N row-major, as gemmtune's default; nt: B stored N x K (column-major K x N), the
layout cuBLASLt's int8 tensor-core kernels take directly. cuBLAS has no uint8 product, so u8 rows keep no ratio.
  python3 scripts/cublas_int8_anchor.py --shapes 4096x4096x4096,1024x768x3072 --layouts nn,nt
torch._int_mm needs M > 16 and K, N multiples of 8; a shape it refuses is reported on stderr and skipped."""
import argparse
import json
import sys

import torch

from cuda_graph_timing import median_graph_us


def time_shape(m, n, k, layout, rep, dev):
    a = torch.randint(-128, 128, (m, k), device=dev, dtype=torch.int8)
    if layout == "nn":
        b = torch.randint(-128, 128, (k, n), device=dev, dtype=torch.int8)
    else:
        b = torch.randint(-128, 128, (n, k), device=dev, dtype=torch.int8).t()
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        for _ in range(3):
            torch._int_mm(a, b)
    torch.cuda.synchronize()
    # Checked once against float64 on the GPU, exact while 128 * 128 * K stays below 2^53: a figure for a wrong
    # result is no figure.
    ref = (a.to(torch.float64) @ b.to(torch.float64)).to(torch.int64)
    if not torch.equal(torch._int_mm(a, b).to(torch.int64), ref):
        raise RuntimeError("torch._int_mm result differs from the float64 reference")
    del ref
    return median_graph_us(torch, lambda: torch._int_mm(a, b), rep) / 1e3  # ms, as the caller takes it


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--shapes", default="4096x4096x4096,1024x768x3072")
    ap.add_argument("--layouts", default="nn,nt")
    ap.add_argument("--rep", type=int, default=20)
    a = ap.parse_args()
    dev = torch.device("cuda")
    print("device", torch.cuda.get_device_name(0), "torch", torch.__version__, file=sys.stderr)
    failed = 0
    for s in a.shapes.split(","):
        m, n, k = map(int, s.lower().split("x"))
        for layout in a.layouts.split(","):
            if layout not in ("nn", "nt"):
                print(f"cublas_int8_anchor: --layouts: '{layout}' is not nn or nt", file=sys.stderr)
                return 2
            try:
                ms = time_shape(m, n, k, layout, a.rep, dev)
            except (RuntimeError, ValueError) as e:
                print(f"cublas_int8_anchor: {s} {layout}: {e}", file=sys.stderr)
                failed += 1
                continue
            moved = m * k + k * n + 4 * m * n
            print(json.dumps({"lib": "cublas", "dtype": "i8", "layout": layout, "M": m, "N": n, "K": k, "cold": False,
                              "us": round(ms * 1e3, 2), "tflops": round(2 * m * n * k / ms / 1e9, 2),
                              "gbps": round(moved / ms / 1e6, 1)}), flush=True)
            torch.cuda.empty_cache()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
