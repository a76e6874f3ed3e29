#version 450
// check_result: compares C's whole buffer, as a run left it, with what it must hold, on the device, so a screened
// config costs the tuner a few words read back instead of C and a host pass over it (src/run/device_check.hpp).
// `expected` holds, per element of C's buffer, the reference as two floats (hi, lo: hi + lo is the double
// reference to about 2^-48; integer results, int32 sums, compare exactly with hi's bits and have lo 0), or
// OUTSIDE in lo for elements outside the written region, which must still hold the untouched bits (OUTSIDE is a
// NaN's bits, so no finite lo is ever taken for it; an int32 sum of -1 can be, so the mark is not in hi). Each
// workgroup folds its elements in shared memory, then adds one atomic a figure to the result.

layout(local_size_x = 256, local_size_y = 1, local_size_z = 1) in;

layout(push_constant) uniform Params {
  uint count;       // elements of C's buffer
  float rel_floor;  // the elementwise relative error counts where |ref| > rel_floor (1e-3 max|ref|)
  uint integer;     // 1: int32 sums, compared exactly
} p;

layout(std430, binding = 0) readonly buffer C { uint c[]; };
layout(std430, binding = 1) readonly buffer Expected { uvec2 expected[]; };
layout(std430, binding = 2) buffer Result {
  uint max_diff;       // float bits of max |c - ref| (non-negative floats order as their bits do)
  uint max_rel;        // float bits of max |c - ref| / |ref| over |ref| > rel_floor
  uint non_finite;     // results that are NaN or infinite
  uint touched;        // elements outside the region whose bits changed
  uint first_touched;  // the lowest such index (0xffffffff: none)
  uint mismatches;     // integer results that differ
} r;

const uint OUTSIDE = 0xffffffffu;
const uint UNTOUCHED = 0x7fa5a5a5u;  // kUntouchedBits (src/verify/operands.hpp)

shared uint s_diff, s_rel, s_non_finite, s_touched, s_first, s_mismatches;

void main() {
  if (gl_LocalInvocationIndex == 0) {
    s_diff = 0, s_rel = 0, s_non_finite = 0, s_touched = 0, s_first = OUTSIDE, s_mismatches = 0;
  }
  barrier();
  float diff = 0.0, rel = 0.0;
  uint non_finite = 0, touched = 0, first = OUTSIDE, mismatches = 0;
  const uint stride = gl_NumWorkGroups.x * 256;
  for (uint i = gl_GlobalInvocationID.x; i < p.count; i += stride) {
    const uint bits = c[i];
    const uvec2 e = expected[i];
    if (e.y == OUTSIDE) {
      if (bits != UNTOUCHED) {
        ++touched;
        first = min(first, i);
      }
    } else if (p.integer != 0) {
      const float d = abs(float(int(bits)) - float(int(e.x)));
      if (bits != e.x) ++mismatches;
      diff = max(diff, d);
      if (e.x != 0) rel = max(rel, d / abs(float(int(e.x))));
    } else {
      const float x = uintBitsToFloat(bits);
      if (isnan(x) || isinf(x)) {
        ++non_finite;
      } else {
        const float hi = uintBitsToFloat(e.x), lo = uintBitsToFloat(e.y);
        const float d = abs((x - hi) - lo);  // x - hi is exact wherever x is near the reference
        diff = max(diff, d);
        if (abs(hi) > p.rel_floor) rel = max(rel, d / abs(hi));
      }
    }
  }
  atomicMax(s_diff, floatBitsToUint(diff));
  atomicMax(s_rel, floatBitsToUint(rel));
  if (non_finite != 0) atomicAdd(s_non_finite, non_finite);
  if (touched != 0) {
    atomicAdd(s_touched, touched);
    atomicMin(s_first, first);
  }
  if (mismatches != 0) atomicAdd(s_mismatches, mismatches);
  barrier();
  if (gl_LocalInvocationIndex == 0) {
    atomicMax(r.max_diff, s_diff);
    atomicMax(r.max_rel, s_rel);
    atomicAdd(r.non_finite, s_non_finite);
    atomicAdd(r.touched, s_touched);
    atomicMin(r.first_touched, s_first);
    atomicAdd(r.mismatches, s_mismatches);
  }
}
