#version 450
// test_hang: a kernel that does not finish in any useful time, for testing --isolate. Registered as the variant
// `hang` only when the environment has GEMMTUNE_TEST_KERNELS=hang. It cannot simply loop forever: llvmpipe
// ends a shader's loops after 65535 trips in all. So every one of the 2^38 workgroups of its dispatch (see
// src/kernels/test_hang.cpp) spins through those trips on an atomic, which no compiler may remove.
//   0: workgroup size   1: X (a single-valued parameter, so the variant has one config)

#extension GL_GOOGLE_include_directive : enable

layout(local_size_x_id = 0, local_size_y = 1, local_size_z = 1) in;
layout(constant_id = 1) const uint X = 1;

#include "common/gemm_common.glsl"

layout(std430, binding = 4) buffer Spin { uint spin[]; };  // the (dummy) scratch binding, as words

void main() {
  for (uint i = 0; i < 65535u * X; ++i) atomicAdd(spin[0], 1u);
}
