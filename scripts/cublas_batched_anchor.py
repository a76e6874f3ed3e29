#!/usr/bin/env python3
"""cuBLAS on a shapes file's problems, batched ones included, for scripts/models-bench.sh (issue 43).
Reads the --shapes-file format (`[name] MxNxK[xB] [dtype] [layout] [cold]`, `#` comments); a line's dtype, where
it has one, replaces --dtypes for it. A batched problem is one strided-batched product of B contiguous M x K and
K x N operands (torch.matmul on 3-D tensors), as gemmtune runs it with packed strides. Layouts as in gemmtune:
A stored M x K (n) or K x M (t), B stored K x N (n) or N x K (t). TF32 off; C in the input type.
Each figure: REP products captured in one CUDA graph, the graph replayed 15 times between CUDA events after 3
warm-up replays; the median replay divided by REP (the kit's cublas_anchor.py method). Hot L2 only.
One JSON line a problem and dtype on stdout: lib, name, dtype, layout, M, N, K, batch, us, tflops.
  python3 scripts/cublas_batched_anchor.py configs/shapes/models.txt --dtypes f16,bf16,f32"""
import argparse
import json
import re
import sys

from cuda_graph_timing import median_graph_us

DTYPES = ("f32", "f16", "bf16")
LAYOUTS = ("nn", "nt", "tn", "tt")


def parse_shapes(path, dtypes):
    """(name, M, N, K, batch, dtype, layout) for every problem of the file and dtype."""
    problems = []
    with open(path, encoding="utf-8-sig") as f:
        for number, line in enumerate(f, 1):
            words = line.split("#", 1)[0].split()
            if not words:
                continue
            name = words.pop(0) if not re.fullmatch(r"\d+(x\d+){2,3}", words[0]) else None
            if not words or not re.fullmatch(r"\d+(x\d+){2,3}", words[0]):
                sys.exit(f"{path}:{number}: expected MxNxK[xB] after the name, got {line.strip()!r}")
            dims = [int(x) for x in words.pop(0).split("x")]
            m, n, k, batch = dims + [1] * (4 - len(dims))
            line_dtypes = [w for w in words if w in DTYPES] or dtypes
            layout = next((w for w in words if w in LAYOUTS), "nn")
            for dtype in line_dtypes:
                problems.append((name or f"{m}x{n}x{k}x{batch}", m, n, k, batch, dtype, layout))
    return problems


def operands(torch, m, n, k, batch, layout, dtype, dev):
    """The stored operands and the views that multiply: a transposed operand is stored the other way round."""
    lead = (batch,) if batch > 1 else ()
    a = torch.randn(*lead, k, m, device=dev, dtype=dtype).transpose(-1, -2) if layout[0] == "t" else \
        torch.randn(*lead, m, k, device=dev, dtype=dtype)
    b = torch.randn(*lead, n, k, device=dev, dtype=dtype).transpose(-1, -2) if layout[1] == "t" else \
        torch.randn(*lead, k, n, device=dev, dtype=dtype)
    return a, b


def time_problem(torch, m, n, k, batch, layout, dtype, rep, dev):
    a, b = operands(torch, m, n, k, batch, layout, dtype, dev)
    c = torch.empty(*((batch,) if batch > 1 else ()), m, n, device=dev, dtype=dtype)
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        for _ in range(3):
            torch.matmul(a, b, out=c)
    torch.cuda.synchronize()
    # Checked once against float64: a figure for a wrong product is no figure.
    want = torch.matmul(a.double(), b.double())
    err = (c.double() - want).abs().max().item() / max(1e-30, want.abs().max().item())
    if err > 1e-2:
        raise RuntimeError(f"cuBLAS's product is off by {err:.3g} (normwise)")
    return median_graph_us(torch, lambda: torch.matmul(a, b, out=c), rep)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("shapes_file")
    ap.add_argument("--dtypes", default="f16,bf16,f32")
    ap.add_argument("--rep", type=int, default=20)
    a = ap.parse_args()
    dtypes = a.dtypes.split(",")
    for d in dtypes:
        if d not in DTYPES:
            sys.exit(f"--dtypes: '{d}': expected f32, f16 or bf16")
    problems = parse_shapes(a.shapes_file, dtypes)
    import torch
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    torch_type = {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16}
    dev = torch.device("cuda")
    print("device", torch.cuda.get_device_name(0), "torch", torch.__version__, file=sys.stderr)
    for name, m, n, k, batch, dtype, layout in problems:
        us = time_problem(torch, m, n, k, batch, layout, torch_type[dtype], a.rep, dev)
        print(json.dumps({"lib": "cublas", "name": name, "dtype": dtype, "layout": layout, "M": m, "N": n, "K": k,
                          "batch": batch, "us": round(us, 2),
                          "tflops": round(2.0 * m * n * k * batch / us / 1e6, 2)}), flush=True)
        torch.cuda.empty_cache()


if __name__ == "__main__":
    main()
