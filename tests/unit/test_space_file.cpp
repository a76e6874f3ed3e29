#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "core/error.hpp"
#include "kernels/matrix_requirements.hpp"
#include "kernels/registry.hpp"
#include "kernels/spirv.hpp"
#include "kernels/space_file.hpp"
#include "tuner/space.hpp"

#include "space_devices.hpp"

namespace gemmtune {
namespace {

std::string space_error(const std::string& text) {
  try {
    apply_space(text, "s.json", kernel_families());
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::usage);
    return e.what();
  }
  ADD_FAILURE() << "accepted: " << text;
  return "";
}

TEST(SpaceFile, TheBuiltInDefaultCoversEveryVariantWithSupportedValues) {
  const std::vector<KernelFamily> families = apply_space(default_space_text(), "default", kernel_families());
  ASSERT_EQ(families.size(), kernel_families().size());
  for (size_t i = 0; i < families.size(); ++i) {
    EXPECT_EQ(families[i].name, kernel_families()[i]->name);
    EXPECT_FALSE(families[i].all_configs().empty());
    // It narrows nothing, so each family keeps the registry's list of its configs (listed once a process).
    EXPECT_EQ(families[i].config_list, kernel_families()[i]->config_list) << families[i].name;
  }
  // It keeps the k step the screen tries first for 8-bit inputs (coopmat BK 128: issue 21 step 16).
  const auto coopmat =
      std::find_if(families.begin(), families.end(), [](const KernelFamily& f) { return f.name == "coopmat"; });
  ASSERT_NE(coopmat, families.end());
  const auto bk =
      std::find_if(coopmat->params.begin(), coopmat->params.end(), [](const auto& p) { return p.name == "bk"; });
  ASSERT_NE(bk, coopmat->params.end());
  EXPECT_NE(std::find(bk->values.begin(), bk->values.end(), 128u), bk->values.end());
}

TEST(SpaceFile, RestrictsTheListedParametersAndKeepsTheRest) {
  const std::string text = R"({"space_version": 1, "variants": {"fewrows": {"cols": [16, 8, 16], "vec": [4]}}})";
  const std::vector<KernelFamily> families =
      apply_space(text, "s.json", {&family_named("fewrows"), &family_named("tiled")});
  ASSERT_EQ(families.size(), 2u);
  EXPECT_EQ(families[0].params[0].values, (std::vector<uint32_t>{16, 8}));  // duplicates dropped, order kept
  EXPECT_EQ(families[0].params[1].values, family_named("fewrows").params[1].values);
  EXPECT_EQ(families[0].params[3].values, (std::vector<uint32_t>{4}));
  EXPECT_EQ(families[0].all_configs().size(), 2u * 4 * 3 * 1 * 6);  // cols x slices x unroll x vec x splits
  EXPECT_EQ(families[1].all_configs().size(), family_named("tiled").all_configs().size());
}

TEST(SpaceFile, ANarrowedFamilyListsItsOwnConfigsTheKernelsOfItsValues) {
  // The registry's warptile has listed its configs (shared by its copies); the narrowed copy lists those with tm 8.
  const KernelFamily& full = family_named("warptile");
  std::vector<std::string> expected;
  for (const Config& c : full.all_configs())
    if (c.get("tm") == 8) expected.push_back(full.config_name(c, DType::f32));
  const std::string text = R"({"space_version": 1, "variants": {"warptile": {"tm": [8]}}})";
  const std::vector<KernelFamily> families = apply_space(text, "s.json", {&full});
  std::vector<std::string> narrowed;
  for (const Config& c : families[0].all_configs()) narrowed.push_back(families[0].config_name(c, DType::f32));
  EXPECT_EQ(narrowed, expected);
  EXPECT_GT(expected.size(), 1000u);
  EXPECT_NE(families[0].config_list, full.config_list);
  // A copy whose values change without a list of its own still lists its own values' kernels.
  KernelFamily copy = full;
  copy.params[5].values = {8};
  EXPECT_EQ(copy.all_configs().size(), expected.size());
  EXPECT_GT(full.all_configs().size(), expected.size());
}

TEST(SpaceFile, BadFilesAreOneLineNamingTheFileAndThePlace) {
  EXPECT_NE(space_error("{\n  \"variants\": [1,\n}").find("s.json:3:"), std::string::npos);
  EXPECT_NE(space_error(R"({"variants": {}})").find("space_version"), std::string::npos);
  EXPECT_NE(space_error(R"({"space_version": 1, "variants": {"gemv": {}}})").find("variants.gemv: unknown variant"),
            std::string::npos);
  const std::string param = space_error(R"({"space_version": 1, "variants": {"tiled": {"bq": [8]}}})");
  EXPECT_NE(param.find("variants.tiled.bq: unknown parameter (tiled has bm, bn, bk, tm, tn, prepass)"),
            std::string::npos)
      << param;
  const std::string value = space_error(R"({"space_version": 1, "variants": {"tiled": {"bm": [48]}}})");
  EXPECT_NE(value.find("variants.tiled.bm: 48 is not supported (supported: 32, 64, 128)"), std::string::npos) << value;
  EXPECT_NE(space_error(R"({"space_version": 1, "variants": {"tiled": {"bm": []}}})").find("non-empty"),
            std::string::npos);
  EXPECT_NE(space_error(R"({"space_version": 1, "variants": {"tiled": {"bm": [-32]}}})").find("not supported"),
            std::string::npos);
}

}  // namespace
}  // namespace gemmtune
