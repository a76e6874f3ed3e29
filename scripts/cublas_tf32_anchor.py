#!/usr/bin/env python3
"""cuBLAS f32 GEMM with TF32 off and on, beside gemmtune's f32 kernels on the GPU machine (issue 44: an emulated f32
on the matrix units is compared with cuBLAS SGEMM, and cuBLAS's own matrix-unit f32 is kept for the record with its
error). Each figure: REP products captured in one CUDA graph, the graph replayed 15 times between CUDA events after
3 warm-up replays; the median replay divided by REP. Its error, on the same inputs, is gemmtune's metric:
max|gpu - ref| / max|ref| and the elementwise check against a float64 product on the GPU, for uniform inputs in
[-1, 1] ("uniform") and for gemmtune's wide-range set ("wide": elements over 2^-30 .. 2^31, pairs of terms cancelling).
One JSON line per shape, layout and mode on stdout: lib ("cublas"), dtype ("f32"), math ("fp32" or "tf32"), layout,
M, N, K, cold (false), us, tflops, error_uniform, elementwise_uniform, error_wide, elementwise_wide.
  python3 scripts/cublas_tf32_anchor.py --shapes 4096x4096x4096,2048x2048x2048 --layouts nn"""
import argparse
import json

import torch

from cuda_graph_timing import median_graph_us


def operands(m, n, k, layout, dev, wide):
    gen = torch.Generator(device=dev).manual_seed(7)
    if not wide:
        a = torch.rand((m, k), device=dev, generator=gen, dtype=torch.float32) * 2 - 1
        b = torch.rand((k, n), device=dev, generator=gen, dtype=torch.float32) * 2 - 1
    else:
        # gemmtune's wide-range set (src/verify/operands.hpp, OperandFill::wide): each element sign x [1, 2) x 2^e,
        # e a whole number uniform in -30..30; op(A)'s pairs of k equal, op(B)'s opposite to within 2^-10.
        def spread(shape):
            e = torch.randint(-30, 31, shape, device=dev, generator=gen).to(torch.float32)
            sign = torch.where(torch.rand(shape, device=dev, generator=gen) < 0.5, -1.0, 1.0)
            return sign * (1 + torch.rand(shape, device=dev, generator=gen)) * torch.exp2(e)
        a, b = spread((m, k)), spread((k, n))
        pairs = k // 2
        a[:, 1:2 * pairs:2] = a[:, 0:2 * pairs:2]
        nudge = (torch.rand((pairs, n), device=dev, generator=gen) * 2 - 1) * 2.0 ** -10
        b[1:2 * pairs:2, :] = -b[0:2 * pairs:2, :] * (1 + nudge)
    if layout[0] == "t":
        a = a.t().contiguous().t()
    if layout[1] == "t":
        b = b.t().contiguous().t()
    return a, b


def errors(a, b):
    """gemmtune's two measures: max|gpu - ref| / max|ref|, and max |gpu - ref| / |ref| over |ref| > 1e-3 max|ref|."""
    ref = a.to(torch.float64) @ b.to(torch.float64)
    diff = ((a @ b).to(torch.float64) - ref).abs()
    big = ref.abs() > 1e-3 * ref.abs().max()
    return float(diff.max() / ref.abs().max()), float((diff[big] / ref.abs()[big]).max())


def time_product(a, b, rep):
    out = torch.empty((a.shape[0], b.shape[1]), device=a.device, dtype=torch.float32)
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        for _ in range(3):
            torch.matmul(a, b, out=out)
    torch.cuda.synchronize()
    return median_graph_us(torch, lambda: torch.matmul(a, b, out=out), rep)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--shapes", default="4096x4096x4096,2048x2048x2048")
    ap.add_argument("--layouts", default="nn")
    ap.add_argument("--rep", type=int, default=10)
    args = ap.parse_args()
    dev = torch.device("cuda")
    for shape in args.shapes.split(","):
        m, n, k = (int(x) for x in shape.split("x"))
        for layout in args.layouts.split(","):
            for math in ("fp32", "tf32"):
                torch.backends.cuda.matmul.allow_tf32 = math == "tf32"
                a, b = operands(m, n, k, layout, dev, False)
                err_uniform, rel_uniform = errors(a, b)
                us = time_product(a, b, args.rep)
                wa, wb = operands(m, n, k, layout, dev, True)
                err_wide, rel_wide = errors(wa, wb)
                del wa, wb
                print(json.dumps({"lib": "cublas", "dtype": "f32", "math": math, "layout": layout, "M": m, "N": n,
                                  "K": k, "cold": False, "us": round(us, 3),
                                  "tflops": round(2.0 * m * n * k / (us * 1e-6) / 1e12, 2),
                                  "error_uniform": err_uniform, "elementwise_uniform": rel_uniform,
                                  "error_wide": err_wide, "elementwise_wide": rel_wide}), flush=True)
    torch.backends.cuda.matmul.allow_tf32 = False


if __name__ == "__main__":
    main()
