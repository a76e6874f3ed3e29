#!/usr/bin/env python3
"""kernels/prebuilt/modules.txt read once for everyone: the regen script builds from it, the test checks MANIFEST
against it. `python3 scripts/prebuilt_modules.py regen GLSLANG15_RUN` rebuilds kernels/prebuilt/ and its MANIFEST."""
import hashlib
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KERNELS = os.path.join(ROOT, "kernels")
LIST = "kernels/prebuilt/modules.txt"


class Module:
    def __init__(self, name, source=None, defines=(), bf16_of=None, retyped=False):
        self.name, self.source, self.defines, self.bf16_of = name, source, list(defines), bf16_of
        self.retyped = retyped  # built from source, then retyped to bfloat16 (its f16 form is not kept)

    @property
    def output(self):
        return f"kernels/prebuilt/{self.name}.spv"


def modules():
    """The list's modules in order; a malformed line raises ValueError naming it."""
    out = []
    with open(os.path.join(ROOT, LIST)) as f:
        for number, line in enumerate(f, 1):
            fields = line.split("#", 1)[0].split()
            if not fields:
                continue
            if len(fields) < 2 or (fields[1] == "bf16-of" and len(fields) != 3):
                raise ValueError(f"{LIST}:{number}: expected NAME SOURCE [DEFINE ...] [retype-bf16] or NAME bf16-of F16NAME")
            if fields[1] == "bf16-of":
                out.append(Module(fields[0], bf16_of=fields[2]))
            else:
                retyped = fields[-1] == "retype-bf16"
                out.append(Module(fields[0], fields[1], fields[2:len(fields) - retyped], retyped=retyped))
    names = [m.name for m in out]
    for m in out:
        if m.bf16_of is not None and m.bf16_of not in names[:names.index(m.name)]:
            raise ValueError(f"{LIST}: {m.name} is derived from {m.bf16_of}, which no earlier line builds")
    return out


def includes(source):
    """`source` (relative to kernels/) and every file it includes, transitively, as paths from the root."""
    seen, todo = [], [source]
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.append(path)
        with open(os.path.join(KERNELS, path)) as f:
            todo += re.findall(r'^\s*#include\s+"([^"]+)"', f.read(), re.M)
    return ["kernels/" + p for p in seen]


def manifest_inputs(mods):
    """What the outputs are built from: the list, each source with its includes, and the bf16 retyping script."""
    paths = [LIST]
    for m in mods:
        for p in (includes(m.source) if m.source else []) + (["scripts/spirv_bf16.py"] if m.bf16_of or m.retyped else []):
            if p not in paths:
                paths.append(p)
    return paths


def sha256(path):
    with open(os.path.join(ROOT, path), "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def regen(run):
    mods = modules()
    for m in mods:
        out = os.path.join(ROOT, m.output)
        if m.bf16_of:
            subprocess.run([sys.executable, os.path.join(ROOT, "scripts/spirv_bf16.py"),
                            os.path.join(ROOT, f"kernels/prebuilt/{m.bf16_of}.spv"), out], check=True)
            continue
        defines = ["-D" + (d if "=" in d else d + "=1") for d in m.defines]
        subprocess.run([run, "glslangValidator", "-V", "--target-env", "vulkan1.3", "-S", "comp", "-I.", *defines,
                        m.source, "-o", out], cwd=KERNELS, check=True, stdout=subprocess.DEVNULL)
        subprocess.run([run, "spirv-val", "--target-env", "vulkan1.3", out], check=True)
        if m.retyped:
            subprocess.run([sys.executable, os.path.join(ROOT, "scripts/spirv_bf16.py"), out, out], check=True)
    lines = ["# sha256 of what kernels/prebuilt/*.spv were built from (scripts/regen-prebuilt.sh)"]
    lines += [f"{sha256(p)}  {p}" for p in manifest_inputs(mods)]
    lines += ["# outputs"] + [f"{sha256(m.output)}  {m.output}" for m in mods]
    with open(os.path.join(ROOT, "kernels/prebuilt/MANIFEST"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"regenerated kernels/prebuilt/: {len(mods)} modules")


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] != "regen":
        sys.exit("usage: prebuilt_modules.py regen GLSLANG15_RUN")
    regen(sys.argv[2])
