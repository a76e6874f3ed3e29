#!/usr/bin/env python3
"""The kernels cuBLAS runs for decode-shaped products with B stored N x K (layout nt), one line each: the shape,
dtype, kernel name, grid, block, registers per thread, shared memory and its time, from PyTorch's profiler.
`cublas_kernels.py [--shapes 5x4096x14336,...] [--dtypes f16,bf16]`. Issue 18 step 31's count."""
import argparse
import json
import os
import tempfile

import torch
from torch.profiler import ProfilerActivity, profile

ap = argparse.ArgumentParser()
ap.add_argument("--shapes", default="1x4096x14336,5x4096x14336,8x4096x14336,16x4096x14336")
ap.add_argument("--dtypes", default="f16,bf16")
a = ap.parse_args()
types = {"f16": torch.float16, "bf16": torch.bfloat16, "f32": torch.float32}
torch.backends.cuda.matmul.allow_tf32 = False
for name in a.dtypes.split(","):
    for shape in a.shapes.split(","):
        M, N, K = (int(x) for x in shape.split("x"))
        A = torch.randn(M, K, device="cuda", dtype=types[name])
        B = torch.randn(N, K, device="cuda", dtype=types[name]).t()  # stored N x K
        for _ in range(5):
            torch.matmul(A, B)
        torch.cuda.synchronize()
        with profile(activities=[ProfilerActivity.CUDA]) as prof:
            for _ in range(5):
                torch.matmul(A, B)
            torch.cuda.synchronize()
        path = os.path.join(tempfile.mkdtemp(), "trace.json")
        prof.export_chrome_trace(path)
        events = [e for e in json.load(open(path))["traceEvents"] if e.get("cat") == "kernel"]
        seen = {}
        for e in events:
            args = e.get("args", {})
            key = e["name"]
            seen.setdefault(key, []).append(e.get("dur", 0))
            seen[key + "#args"] = args
        for key in [k for k in seen if not k.endswith("#args")]:
            args = seen[key + "#args"]
            durs = sorted(seen[key])
            print(json.dumps({"shape": shape, "dtype": name, "kernel": key[:160], "grid": args.get("grid"),
                              "block": args.get("block"), "registers": args.get("registers per thread"),
                              "shared": args.get("shared memory"), "occupancy": args.get("est. achieved occupancy %"),
                              "us": durs[len(durs) // 2], "count": len(durs)}))
