#version 450
// peak_read: the rate at which workgroups read a buffer small enough to stay in the device's cache (on a GPU, the L2
// where it holds the buffer; issue 21 asks whether the 128 x 128 matrix-unit tiles read at that rate). Every
// workgroup reads the whole buffer once, a 4 KiB row of 16-byte vectors at a time (each lane 16 bytes, 8 rows in
// flight), starting at a row of its own so the workgroups running together read different lines, and folds what it
// read into one word an invocation (written, so no read can be left out). Bytes read per dispatch =
// workgroups x 16 x count.

#extension GL_EXT_control_flow_attributes : enable

layout(local_size_x = 256, local_size_y = 1, local_size_z = 1) in;

layout(push_constant) uniform Params {
  uint count;  // vectors in the buffer: a multiple of 8 x 256
} p;

layout(std430, binding = 0) readonly buffer Src { uvec4 src[]; };
layout(std430, binding = 1) writeonly buffer Dst { uint dst[]; };

const uint LANES = 256;
const uint IN_FLIGHT = 8;

void main() {
  const uint rows = p.count / LANES;
  const uint lane = gl_LocalInvocationID.x;
  uint row = (gl_WorkGroupID.x * IN_FLIGHT) % rows;
  uvec4 folded = uvec4(0);
  for (uint done = 0; done < rows; done += IN_FLIGHT) {
    uvec4 v[IN_FLIGHT];
    [[unroll]] for (uint i = 0; i < IN_FLIGHT; ++i) v[i] = src[(row + i) * LANES + lane];
    [[unroll]] for (uint i = 0; i < IN_FLIGHT; ++i) folded ^= v[i];
    row = row + IN_FLIGHT == rows ? 0 : row + IN_FLIGHT;
  }
  dst[gl_GlobalInvocationID.x] = folded.x ^ folded.y ^ folded.z ^ folded.w;
}
