// The matrix-unit kernels' subgroup barrier around a round trip through the subgroup's own shared memory (needs
// GL_KHR_memory_scope_semantics). Shared memory only: GLSL's subgroupBarrier() also orders buffer memory, which a
// driver may implement with a fence that waits for the subgroup's loads and stores in flight, so that every
// fragment written out through shared memory would wait for the fragment before to reach C (results/h200/notes.md,
// issue 18 step 11 and issue 43 step 41).
#ifndef SUBGROUP_STAGED_GLSL
#define SUBGROUP_STAGED_GLSL
/// The subgroup's shared-memory stores before this are visible to its loads after it, and its shared-memory loads
/// before it are done before its stores after it.
void staged() {
  controlBarrier(gl_ScopeSubgroup, gl_ScopeSubgroup, gl_StorageSemanticsShared, gl_SemanticsAcquireRelease);
}
#endif
