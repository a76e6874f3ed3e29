#!/usr/bin/env python3
"""Retypes a SPIR-V module's 16-bit float type to bfloat16 (SPV_KHR_bfloat16).

  scripts/spirv_bf16.py IN_F16.spv OUT_BF16.spv

Debian's glslang has no GL_EXT_bfloat16, so the bf16 cooperative-matrix kernel is the f16 kernel with its
`OpTypeFloat 16` given the FP-encoding operand BFloat16KHR (0), plus the capabilities BFloat16TypeKHR (5116)
and BFloat16CooperativeMatrixKHR (5118) and the extension "SPV_KHR_bfloat16". That is sound only when the
module moves and multiplies those values and never computes on them otherwise: the script refuses a module
with arithmetic, conversions or comparisons on the 16-bit float type.
"""
import struct
import sys

MAGIC = 0x07230203
OP_EXTENSION, OP_CAPABILITY, OP_TYPE_FLOAT = 10, 17, 22
OP_TYPE_VECTOR, OP_TYPE_COOPMAT_KHR = 23, 4456
CAP_BFLOAT16_TYPE, CAP_BFLOAT16_COOPMAT = 5116, 5118
FP_ENCODING_BFLOAT16 = 0
# Opcodes that compute on a float type (arithmetic, conversions, comparisons, extended instructions).
COMPUTING_OPS = set(range(109, 120)) | set(range(126, 153)) | set(range(180, 199)) | {12}


def words_of(data):
    if len(data) % 4:
        raise ValueError("SPIR-V size is not a multiple of 4")
    words = list(struct.unpack("<%dI" % (len(data) // 4), data))
    if not words or words[0] != MAGIC:
        raise ValueError("not a little-endian SPIR-V module")
    return words


def instructions(words):
    i = 5
    while i < len(words):
        count = words[i] >> 16
        if count == 0 or i + count > len(words):
            raise ValueError(f"malformed instruction at word {i}")
        yield words[i:i + count]
        i += count


def string_words(text):
    raw = text.encode() + b"\0"
    raw += b"\0" * (-len(raw) % 4)
    return list(struct.unpack("<%dI" % (len(raw) // 4), raw))


def retype(data):
    words = words_of(data)
    insts = list(instructions(words))
    half_ids = {inst[1] for inst in insts if inst[0] & 0xFFFF == OP_TYPE_FLOAT and len(inst) == 3 and inst[2] == 16}
    if len(half_ids) != 1:
        raise ValueError(f"expected exactly one 16-bit float type, found {len(half_ids)}")
    half = half_ids.pop()
    # Types built on the 16-bit float (vectors, cooperative matrices) are retyped with it.
    derived = {half} | {inst[1] for inst in insts if inst[0] & 0xFFFF in (OP_TYPE_VECTOR, OP_TYPE_COOPMAT_KHR) and inst[2] == half}
    # The type of every value (instructions with a result type carry it in word 1 and the result in word 2).
    value_type = {}
    for inst in insts:
        op = inst[0] & 0xFFFF
        if not (19 <= op <= 39 or op == OP_TYPE_COOPMAT_KHR) and len(inst) >= 3:
            value_type[inst[2]] = inst[1]
    for inst in insts:
        op = inst[0] & 0xFFFF
        if op not in COMPUTING_OPS or len(inst) < 3:
            continue
        if inst[1] in derived or any(value_type.get(w) in derived for w in inst[3:]):
            raise ValueError(f"opcode {op} computes on the 16-bit float type: retyping would change its meaning")
    out, last_cap = [], None
    for inst in insts:
        op = inst[0] & 0xFFFF
        if op == OP_TYPE_FLOAT and inst[1] == half:
            inst = [(4 << 16) | OP_TYPE_FLOAT, half, 16, FP_ENCODING_BFLOAT16]
        out.append(inst)
        if op == OP_CAPABILITY:
            last_cap = len(out)
    if last_cap is None:
        raise ValueError("module has no OpCapability")
    ext = string_words("SPV_KHR_bfloat16")
    added = [[(2 << 16) | OP_CAPABILITY, CAP_BFLOAT16_TYPE], [(2 << 16) | OP_CAPABILITY, CAP_BFLOAT16_COOPMAT],
             [((1 + len(ext)) << 16) | OP_EXTENSION] + ext]
    out[last_cap:last_cap] = added
    flat = words[:5] + [w for inst in out for w in inst]
    return struct.pack("<%dI" % len(flat), *flat)


def main():
    if len(sys.argv) != 3:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    with open(sys.argv[1], "rb") as f:
        data = f.read()
    try:
        result = retype(data)
    except ValueError as e:
        print(f"spirv_bf16.py: {sys.argv[1]}: {e}", file=sys.stderr)
        return 1
    with open(sys.argv[2], "wb") as f:
        f.write(result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
