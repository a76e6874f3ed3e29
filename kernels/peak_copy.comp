#version 450
// peak_copy: copy bandwidth. dst = src in 16-byte vectors, a grid-stride loop over `count` vectors; bytes moved
// per dispatch = 2 * 16 * count (read plus written).

layout(local_size_x = 256, local_size_y = 1, local_size_z = 1) in;

layout(push_constant) uniform Params {
  uint count;
} p;

layout(std430, binding = 0) readonly buffer Src { uvec4 src[]; };
layout(std430, binding = 1) writeonly buffer Dst { uvec4 dst[]; };

void main() {
  const uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
  for (uint i = gl_GlobalInvocationID.x; i < p.count; i += stride) dst[i] = src[i];
}
