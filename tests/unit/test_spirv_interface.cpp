// What the C++ descriptions say of each shader and what its SPIR-V declares must agree (issue 20): every tuned
// parameter's specialization-constant id is one the module declares (a parameter the shader does not read would
// tune nothing), the module declares no id the runner does not set (it would keep its default silently), and the
// push-constant block's members sit at GemmPush's offsets. Read from the embedded modules themselves.
#include <gtest/gtest.h>

#include <cstddef>
#include <map>
#include <set>

#include "kernels/registry.hpp"
#include "kernels/spirv.hpp"
#include "run/gemm_runner.hpp"

namespace gemmtune {
namespace {

struct Interface {
  std::set<uint32_t> spec_ids;
  std::set<uint32_t> capabilities;
  std::vector<uint32_t> push_offsets;  ///< member offsets of the push-constant block, by member index
};

/// The SpecId decorations and the push-constant block's member offsets of a SPIR-V module.
Interface interface_of(std::span<const uint32_t> words) {
  constexpr uint32_t kOpCapability = 17, kOpTypePointer = 32, kOpVariable = 59, kOpDecorate = 71,
                     kOpMemberDecorate = 72;
  constexpr uint32_t kSpecId = 1, kOffset = 35, kPushConstant = 9;
  Interface in;
  std::map<uint32_t, std::map<uint32_t, uint32_t>> member_offsets;  // struct id -> member -> offset
  std::map<uint32_t, uint32_t> pointee;                             // pointer type id -> pointee type id
  uint32_t push_pointer = 0;
  EXPECT_GE(words.size(), 5u);
  EXPECT_EQ(words[0], 0x07230203u);  // the SPIR-V magic number
  for (size_t i = 5; i < words.size();) {
    const uint32_t count = words[i] >> 16, op = words[i] & 0xffff;
    if (count == 0 || i + count > words.size()) {
      ADD_FAILURE() << "malformed instruction at word " << i;
      break;
    }
    if (op == kOpCapability && count >= 2) in.capabilities.insert(words[i + 1]);
    if (op == kOpDecorate && count >= 4 && words[i + 2] == kSpecId) in.spec_ids.insert(words[i + 3]);
    if (op == kOpMemberDecorate && count >= 5 && words[i + 3] == kOffset)
      member_offsets[words[i + 1]][words[i + 2]] = words[i + 4];
    if (op == kOpTypePointer && count >= 4) pointee[words[i + 1]] = words[i + 3];
    if (op == kOpVariable && count >= 4 && words[i + 3] == kPushConstant) push_pointer = words[i + 1];
    i += count;
  }
  if (push_pointer && pointee.count(push_pointer)) {
    for (const auto& [member, offset] : member_offsets[pointee[push_pointer]]) in.push_offsets.push_back(offset);
  }
  return in;
}

/// GemmPush's member offsets in declaration order (kernels/common/gemm_common.glsl declares the same block).
std::vector<uint32_t> gemm_push_offsets() {
  return {offsetof(GemmPush, m),        offsetof(GemmPush, n),        offsetof(GemmPush, k),
          offsetof(GemmPush, lda),      offsetof(GemmPush, ldb),      offsetof(GemmPush, ldc),
          offsetof(GemmPush, off_a),    offsetof(GemmPush, off_b),    offsetof(GemmPush, off_c),
          offsetof(GemmPush, off_bias), offsetof(GemmPush, stride_a), offsetof(GemmPush, stride_b),
          offsetof(GemmPush, stride_c), offsetof(GemmPush, base_x),   offsetof(GemmPush, base_y),
          offsetof(GemmPush, base_z),   offsetof(GemmPush, alpha),    offsetof(GemmPush, beta),
          offsetof(GemmPush, k_split)};
}

/// The ids the runner sets on every pass (src/run/gemm_runner.cpp, problem_constants) and the epilogue pass's op.
std::set<uint32_t> problem_ids() {
  namespace pc = problem_constant;
  return {pc::trans_a,   pc::trans_b, pc::has_bias, pc::activation, pc::deterministic, pc::split, pc::aligned_a,
          pc::aligned_b, pc::zero_a,  pc::zero_b,   pc::rows_a,     pc::a_rows_vector, 30};
}

TEST(SpirvInterface, EveryFamilysModulesDeclareTheSpecConstantsAndPushBlockItsDescriptionSays) {
  std::vector<const KernelFamily*> families = kernel_families();
  families.push_back(&family_named("naive"));
  size_t modules = 0;
  for (const KernelFamily* f : families)
    for (DType dtype : kAllDTypes) {
      std::vector<std::span<const uint32_t>> mods;
      try {
        mods = f->modules(dtype);
      } catch (const std::exception&) {
        continue;  // the family has no kernel for this type
      }
      if (mods.empty() || mods.front().empty()) continue;
      std::set<uint32_t> allowed = problem_ids();
      allowed.insert(f->workgroup_size_constant_id);
      // Every tuned constant may be set; those the type sweeps must be read (a parameter that applies to some input
      // types only keeps its unnamed value for the others, whose module may not declare it).
      std::set<uint32_t> tuned;
      for (const ParamSpec& p : f->params) {
        if (p.constant_id == kNoSpecConstant) continue;
        allowed.insert(p.constant_id);
        if (!p.applies || p.applies(dtype)) tuned.insert(p.constant_id);
      }
      for (size_t k = 0; k < mods.size(); ++k) {
        if (mods[k].empty()) continue;
        const std::string name = f->name + " " + std::string(dtype_name(dtype)) + " module " + std::to_string(k);
        const Interface in = interface_of(mods[k]);
        for (uint32_t id : in.spec_ids)
          EXPECT_TRUE(allowed.count(id)) << name << ": SpecId " << id << " is set by no one";
        EXPECT_EQ(in.push_offsets, gemm_push_offsets()) << name << ": push-constant block";
        ++modules;
        if (k != 0) continue;  // the main pass: every tuned parameter and the workgroup size are read there
        // The report holds a family against the matrix units' rate exactly where its kernel uses them.
        constexpr uint32_t kCooperativeMatrixNV = 5357, kCooperativeMatrixKHR = 6022;
        EXPECT_EQ(in.capabilities.count(kCooperativeMatrixKHR) + in.capabilities.count(kCooperativeMatrixNV) > 0,
                  f->matrix_units)
            << name << ": KernelFamily::matrix_units";
        for (uint32_t id : tuned)
          EXPECT_TRUE(in.spec_ids.count(id)) << name << ": tuned constant " << id << " not declared";
        EXPECT_TRUE(in.spec_ids.count(f->workgroup_size_constant_id)) << name << ": workgroup size constant";
      }
    }
  EXPECT_GE(modules, 50u);
}

TEST(SpirvInterface, TheReaderSeesADroppedSpecIdAndAMovedPushMember) {
  // A tuned constant renumbered in the module, and the push block's second member moved: both show.
  std::vector<uint32_t> words(family_named("tiled").spirv(DType::f32).begin(),
                              family_named("tiled").spirv(DType::f32).end());
  const Interface before = interface_of(words);
  ASSERT_TRUE(before.spec_ids.count(1));  // bm
  bool renumbered = false, moved = false;
  for (size_t i = 5; i < words.size(); i += words[i] >> 16) {
    const uint32_t count = words[i] >> 16, op = words[i] & 0xffff;
    if (op == 71 && count >= 4 && words[i + 2] == 1 && words[i + 3] == 1 && !renumbered)
      words[i + 3] = 41, renumbered = true;
    if (op == 72 && count >= 5 && words[i + 2] == 1 && words[i + 3] == 35 && !moved) words[i + 4] += 4, moved = true;
  }
  ASSERT_TRUE(renumbered && moved);
  const Interface after = interface_of(words);
  EXPECT_FALSE(after.spec_ids.count(1));
  EXPECT_NE(after.push_offsets, gemm_push_offsets());
}

TEST(SpirvModules, OneTableNamesEveryModuleOnceAndEachIsSpirv) {
  std::set<std::string_view> names;
  for (const EmbeddedModule& m : embedded_modules()) {
    EXPECT_TRUE(names.insert(m.name).second) << m.name << " twice";
    ASSERT_GE(m.words.size(), 5u) << m.name;
    EXPECT_EQ(m.words[0], 0x07230203u) << m.name;
    EXPECT_EQ(spirv_module(m.name).data(), m.words.data()) << m.name;
  }
  // Built here (gemmtune_add_kernel), prebuilt (kernels/prebuilt/modules.txt) and shared passes alike.
  for (const char* name : {"tiled_f32", "tiled_u8i8", "coopmat_bf16", "tiled_dot_i8", "peak_matrix_f16_a8_r",
                           "splitk_reduce_i32", "epilogue_f32", "check_result_f32", "fault_zero_point_u8"})
    EXPECT_FALSE(spirv_module(name).empty()) << name;
  EXPECT_TRUE(spirv_module("coopmat", DType::f32).empty());  // no build for that input type
  EXPECT_TRUE(spirv_module("tiled_f64").empty());
  EXPECT_EQ(spirv_module("rowmma", DType::bf16).data(), spirv_module("rowmma_bf16").data());
}

}  // namespace
}  // namespace gemmtune
