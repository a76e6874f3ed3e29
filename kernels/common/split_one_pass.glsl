// Split-k finished in one pass (gemm_fewrows.comp, gemm_rowdot.comp): each workgroup writes its k range's raw sums
// to the scratch planes (binding 4), then counts its arrival on its block of outputs (binding 5, zero between
// runs); the last workgroup of a block to arrive adds the planes in range order and applies the epilogue, then
// sets the count back to zero. Both bindings are coherent: other workgroups' writes are read after the count
// says they are done. Include after common/gemm_common.glsl (SPLIT, scratch_index).

layout(std430, binding = 4) coherent buffer BufPlanes { float planes[]; };
layout(std430, binding = 5) coherent buffer BufArrivals { uint arrivals[]; };

shared bool split_last_arrival;  // 4 bytes, counted in the families' shared-memory formulas

/// Called by every invocation once its range's sums are in the planes: counts the workgroup's arrival on
/// `counter` and returns, uniformly across the workgroup, whether it was the last of the SPLIT ranges.
bool split_last_to_arrive(uint counter) {
  memoryBarrierBuffer();  // the planes out before the count
  barrier();
  if (gl_LocalInvocationIndex == 0) split_last_arrival = atomicAdd(arrivals[counter], 1u) == SPLIT - 1;
  barrier();
  if (!split_last_arrival) return false;
  memoryBarrierBuffer();  // the other ranges' planes read after their count
  return true;
}

/// The raw sum of output (z, i, j) over the SPLIT ranges, added in range order (deterministic mode relies on it).
float split_planes_sum(uint z, uint i, uint j) {
  precise float sum = planes[scratch_index(z, 0, i, j)];
#if defined(FAULT_DROP_PLANE)  // planted fault (tests/gpu/test_planted_faults.cpp): the last range's plane dropped
  for (uint r = 1; r < SPLIT - 1; ++r) sum = sum + planes[scratch_index(z, r, i, j)];
#elif defined(FAULT_REVERSED_PLANES)  // planted fault (tests/gpu/test_order_model.cpp): the ranges added last first
  sum = planes[scratch_index(z, SPLIT - 1, i, j)];
  for (uint r = 1; r < SPLIT; ++r) sum = sum + planes[scratch_index(z, SPLIT - 1 - r, i, j)];
#else
  for (uint r = 1; r < SPLIT; ++r) sum = sum + planes[scratch_index(z, r, i, j)];
#endif
  return sum;
}

/// The last workgroup's final step: the counter back to zero for the next run.
void split_reset_arrivals(uint counter) {
  if (gl_LocalInvocationIndex == 0) arrivals[counter] = 0;
}
