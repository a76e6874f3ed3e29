#!/usr/bin/env python3
"""What ggml's integer decoding path (activations quantized to q8_1: 32-element blocks of int8 with an f16 scale,
max|a| / 127) costs in gemmtune's error metric, max|C - ref| / max|ref|, against issue 48's reference (exact
blocks times the activations as given), beside f16-rounded activations. q4_0 weights, K = 14336, 48 columns,
activations uniform in [-1, 1], block scales uniform in [0.001, 0.02]. Pure Python, under a second:
  python3 scripts/q8_1-error.py"""
import random
import struct

random.seed(1)
K, N = 14336, 48


def f16(x):
    return struct.unpack("e", struct.pack("e", x))[0]


a = [random.uniform(-1, 1) for _ in range(K)]
a_q8_1 = []
for b in range(K // 32):
    block = a[32 * b:32 * b + 32]
    d = max(abs(x) for x in block) / 127
    a_q8_1 += [round(x / d) * f16(d) for x in block]
a_f16 = [f16(x) for x in a]
ref_max, err_q8_1, err_f16 = 0.0, 0.0, 0.0
for n in range(N):
    scales = [random.uniform(0.001, 0.02) for _ in range(K // 32)]
    w = [random.randint(-8, 7) * scales[k // 32] for k in range(K)]
    ref = sum(x * y for x, y in zip(a, w))
    ref_max = max(ref_max, abs(ref))
    err_q8_1 = max(err_q8_1, abs(sum(x * y for x, y in zip(a_q8_1, w)) - ref))
    err_f16 = max(err_f16, abs(sum(x * y for x, y in zip(a_f16, w)) - ref))
print(f"activations as q8_1: {err_q8_1 / ref_max:.2e}; as f16: {err_f16 / ref_max:.2e}; the bound: 2e-3")
