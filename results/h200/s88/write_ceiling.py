"""What writing f32 C costs on this GPU, for the small-K batched scores (issue 43): cuBLAS (through PyTorch, TF32
off) on 2048 x 2048 x K x 32 in f32 (C f32) and f16 (C f16), f16 inputs with f32 C where this PyTorch has out_dtype,
and a plain fill and copy of the 537 MB of f32 C. One JSON line each on stdout, `us` the median of graph replays."""
import json
import sys

sys.path.insert(0, "scripts")
from cuda_graph_timing import median_graph_us  # noqa: E402

import torch  # noqa: E402

torch.backends.cuda.matmul.allow_tf32 = False
dev = torch.device("cuda")
print("device", torch.cuda.get_device_name(0), "torch", torch.__version__, file=sys.stderr)


def emit(what, us, **extra):
    print(json.dumps({"what": what, "us": round(us, 2), **extra}), flush=True)


def timed(step, rep=10):
    for _ in range(3):
        step()
    torch.cuda.synchronize()
    return median_graph_us(torch, step, rep)


M = N = 2048
B = 32
c32 = torch.empty(B, M, N, device=dev, dtype=torch.float32)
c32b = torch.empty_like(c32)
fill_us = timed(lambda: c32.fill_(1.0))
emit("fill f32 C (537 MB written)", fill_us, gbps=round(c32.numel() * 4 / 1e3 / fill_us, 1))
emit("copy f32 C (537 MB read + written)", timed(lambda: c32b.copy_(c32)))
for K in (16, 64, 128):
    for dt, name in ((torch.float32, "f32"), (torch.float16, "f16")):
        a = torch.randn(B, M, K, device=dev, dtype=dt)
        b = torch.randn(B, N, K, device=dev, dtype=dt).transpose(-1, -2)
        c = torch.empty(B, M, N, device=dev, dtype=dt)
        emit(f"cublas {name} in, {name} C", timed(lambda: torch.matmul(a, b, out=c)), K=K, dtype=name)
        if name == "f16":
            try:
                emit("cublas f16 in, f32 C (out_dtype)", timed(lambda: torch.bmm(a, b, out_dtype=torch.float32)), K=K)
            except Exception as e:  # older PyTorch: no out_dtype
                print("out_dtype:", repr(e)[:200], file=sys.stderr)
        del a, b, c
        torch.cuda.empty_cache()
