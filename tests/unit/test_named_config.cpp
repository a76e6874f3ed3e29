// Config names as tune prints them, read back by bench, compare --rerun and export.
#include <gtest/gtest.h>

#include "cli/named_config.hpp"
#include "core/error.hpp"

namespace gemmtune {
namespace {

std::string refusal(const std::string& name) {
  try {
    config_named(name, "--config");
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::usage) << name;
    return e.what();
  }
  return "";
}

TEST(NamedConfig, EveryConfigIsFoundByItsNameAndItsFullName) {
  std::vector<const KernelFamily*> families = kernel_families();
  families.push_back(&baseline_family());
  size_t checked = 0;
  for (const KernelFamily* f : families) {
    const std::vector<Config> configs = f->all_configs();
    for (size_t i = 0; i < configs.size(); i += 1 + configs.size() / 400) {
      for (DType dtype : {DType::f32, DType::f16_q4_0}) {
        for (const std::string& name : {f->config_name(configs[i], dtype), f->full_config_name(configs[i], dtype)}) {
          const NamedConfig named = config_named(name, "--config");
          EXPECT_EQ(named.family, f) << name;
          EXPECT_EQ(named.dtype, dtype) << name;
          EXPECT_EQ(named.config.values, configs[i].values) << name;
          ++checked;
        }
      }
    }
  }
  EXPECT_GT(checked, 4000u);
}

TEST(NamedConfig, NamesOfNoConfigAreRefusedWithTheReason) {
  const std::string good = "warptile_f32_bm64_bn64_bk16_wm32_wn32_tm8_tn4_splits1";
  EXPECT_EQ(refusal(good), "");
  for (const char* name :
       {"warptile_f32_bm64_bn64_bk16_wm32_wn32_tm8_tn4",                         // splits has no unnamed value
        "warptile_f32_bm64_bn64_bk16_wm32_wn32_tm8_tn4_splits1_x1",              // no such parameter
        "warptile_f32_bn64_bm64_bk16_wm32_wn32_tm8_tn4_splits1",                 // out of order
        "warptile_f32_bm48_bn64_bk16_wm32_wn32_tm8_tn4_splits1",                 // no such value
        "warptile_f32_bm064_bn64_bk16_wm32_wn32_tm8_tn4_splits1",                // not the printed spelling
        "warptile_f32_bm64_bn64_bk16_wm32_wn32_tm8_tn4_splits1_",                // an empty part
        "warptile_f32_bm64_bn64_bk16_wm32_wn32_tm8_tn4_splits1_reduce0_ahead0",  // some unnamed values only
        "warptile_f32_bm64_bn64_bk16_wm32_wn32_tm8_tn4_splits1x",
        "warptile_f32_bm99999999999_bn64_bk16_wm32_wn32_tm8_tn4_splits1"}) {
    EXPECT_NE(refusal(name).find("no config of warptile has this name"), std::string::npos) << name;
  }
  // A combination of its values that is no kernel: the layout rule it breaks.
  EXPECT_NE(refusal("warptile_f32_bm64_bn64_bk16_wm32_wn32_tm8_tn8_splits1")
                .find("no kernel of warptile: lane_grid: (wm/tm) x (wn/tn) = 16 lanes, a warp tile has 32"),
            std::string::npos);
}

}  // namespace
}  // namespace gemmtune
