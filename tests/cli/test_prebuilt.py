#!/usr/bin/env python3
"""kernels/prebuilt/ stays in step with its sources, and the bf16 retyping does what SPV_KHR_bfloat16 says."""
import hashlib
import importlib.util
import os
import struct
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
spec = importlib.util.spec_from_file_location("spirv_bf16", os.path.join(ROOT, "scripts", "spirv_bf16.py"))
spirv_bf16 = importlib.util.module_from_spec(spec)
spec.loader.exec_module(spirv_bf16)
spec = importlib.util.spec_from_file_location("prebuilt_modules", os.path.join(ROOT, "scripts", "prebuilt_modules.py"))
prebuilt_modules = importlib.util.module_from_spec(spec)
spec.loader.exec_module(prebuilt_modules)


def sha256(path):
    with open(os.path.join(ROOT, path), "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def read(path):
    with open(os.path.join(ROOT, path), "rb") as f:
        return f.read()


def words(data):
    return list(struct.unpack("<%dI" % (len(data) // 4), data))


class Manifest(unittest.TestCase):
    def test_every_source_and_output_matches_its_recorded_hash(self):
        entries = []
        for line in read("kernels/prebuilt/MANIFEST").decode().splitlines():
            if line and not line.startswith("#"):
                digest, path = line.split()
                entries.append((digest, path))
        self.assertGreaterEqual(len(entries), 5)
        for digest, path in entries:
            self.assertEqual(sha256(path), digest,
                             f"{path} changed since kernels/prebuilt/ was built: run scripts/regen-prebuilt.sh")


    def test_the_manifest_covers_exactly_the_list_and_what_it_is_built_from(self):
        listed = []
        for line in read("kernels/prebuilt/MANIFEST").decode().splitlines():
            if line and not line.startswith("#"):
                listed.append(line.split()[1])
        mods = prebuilt_modules.modules()
        self.assertEqual(listed, prebuilt_modules.manifest_inputs(mods) + [m.output for m in mods],
                         "kernels/prebuilt/modules.txt changed since MANIFEST was written: run scripts/regen-prebuilt.sh")
        self.assertIn("kernels/common/int8.glsl", listed)  # an include of an include's sibling is followed
        on_disk = sorted(f for f in os.listdir(os.path.join(ROOT, "kernels/prebuilt")) if f.endswith(".spv"))
        self.assertEqual(on_disk, sorted(m.name + ".spv" for m in mods), "a prebuilt module the list does not name")

    def test_a_derived_module_must_follow_its_source(self):
        import tempfile
        with tempfile.TemporaryDirectory() as d:
            os.makedirs(os.path.join(d, "kernels/prebuilt"))
            with open(os.path.join(d, "kernels/prebuilt/modules.txt"), "w") as f:
                f.write("x_bf16 bf16-of x_f16\nx_f16 gemm_x.comp\n")
            saved = prebuilt_modules.ROOT
            prebuilt_modules.ROOT = d
            try:
                with self.assertRaisesRegex(ValueError, "x_bf16 is derived from x_f16"):
                    prebuilt_modules.modules()
            finally:
                prebuilt_modules.ROOT = saved


class Retyping(unittest.TestCase):
    def test_the_committed_bf16_module_is_the_retyped_f16_module(self):
        self.assertEqual(spirv_bf16.retype(read("kernels/prebuilt/coopmat_f16.spv")), read("kernels/prebuilt/coopmat_bf16.spv"))
        self.assertEqual(spirv_bf16.retype(read("kernels/prebuilt/rowmma_f16.spv")), read("kernels/prebuilt/rowmma_bf16.spv"))

    def test_the_retyped_module_carries_the_specification_numbers(self):
        out = words(spirv_bf16.retype(read("kernels/prebuilt/coopmat_f16.spv")))
        insts = list(spirv_bf16.instructions(out))
        floats = [i for i in insts if i[0] & 0xFFFF == 22]
        self.assertIn([(4 << 16) | 22, floats[-1][1], 16, 0], floats)  # OpTypeFloat 16 BFloat16KHR
        self.assertNotIn(3, [len(i) for i in floats if i[2] == 16])      # no plain half left
        caps = [i[1] for i in insts if i[0] & 0xFFFF == 17]
        self.assertIn(5116, caps)  # BFloat16TypeKHR
        self.assertIn(5118, caps)  # BFloat16CooperativeMatrixKHR
        exts = [struct.pack("<%dI" % (len(i) - 1), *i[1:]).rstrip(b"\0").decode() for i in insts if i[0] & 0xFFFF == 10]
        self.assertIn("SPV_KHR_bfloat16", exts)
        self.assertEqual(len(out), len(words(read("kernels/prebuilt/coopmat_f16.spv"))) + 1 + 2 + 2 + 6)

    def test_a_module_that_computes_on_halves_is_refused(self):
        # OpCapability Shader; %1 = OpTypeFloat 16; %2 = OpConstant %1 1.0; %3 = OpFAdd %1 %2 %2
        module = [0x07230203, 0x00010300, 0, 10, 0, (2 << 16) | 17, 1, (3 << 16) | 22, 1, 16,
                  (4 << 16) | 43, 1, 2, 0x3C00, (5 << 16) | 129, 1, 3, 2, 2]
        with self.assertRaises(ValueError):
            spirv_bf16.retype(struct.pack("<%dI" % len(module), *module))

    def test_a_module_without_a_half_type_is_refused(self):
        module = [0x07230203, 0x00010300, 0, 10, 0, (2 << 16) | 17, 1, (3 << 16) | 22, 1, 32]
        with self.assertRaises(ValueError):
            spirv_bf16.retype(struct.pack("<%dI" % len(module), *module))


if __name__ == "__main__":
    unittest.main(verbosity=2)
