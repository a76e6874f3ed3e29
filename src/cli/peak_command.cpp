// `gemmtune peak`: the device's own ceilings, printed and stored in the table's device section.
#include <spdlog/spdlog.h>

#include <cstdio>
#include <nlohmann/json.hpp>

#include "cli/device_table.hpp"
#include "cli/options.hpp"
#include "core/error.hpp"
#include "kernels/matrix_requirements.hpp"
#include "report/table.hpp"
#include "run/peak.hpp"
#include "version.hpp"
#include "vk/instance.hpp"

namespace gemmtune {

int run_peak(const PeakCommandOptions& o) {
  TuningTable table;
  if (!o.out.empty()) table = load_table_for_device(o.out, {}, false);  // bad paths fail before any Vulkan work
  vk::Instance instance(vk::validation_requested_by_env());
  vk::Device device(instance, instance.select(o.device));
  const vk::DeviceInfo& info = device.info();
  const std::string out = o.out.empty() ? "gemmtune-" + vk::device_slug(info.name) + ".json" : o.out;
  table = load_table_for_device(out, device_identity(info), true);

  PeakOptions options;
  options.samples = o.samples;
  options.max_copy_bytes = o.copy_bytes;
  const PeakResult r = measure_peak(device, options);
  update_table(out, [&](TuningTable& t) {  // locked: tuning runs may be writing entries into the same table
    adopt_device(t, info, out);
    t.peak = DevicePeak{r.f32_tflops, r.coopmat_f16_tflops, r.copy_gbps, utc_now()};
    if (t.created.empty()) t.created = t.peak->measured;
  });

  if (o.json) {
    nlohmann::ordered_json j = {
        {"device", info.name},
        {"f32_tflops", r.f32_tflops},
        {"coopmat_f16_tflops",
         r.coopmat_f16_tflops > 0.0 ? nlohmann::ordered_json(r.coopmat_f16_tflops) : nlohmann::ordered_json(nullptr)},
        {"copy_gbps", r.copy_gbps},
        {"copy_buffer_bytes", r.copy_buffer_bytes},
        {"table", out}};
    std::printf("%s\n", j.dump(2).c_str());
  } else {
    std::printf("%s\n  f32 FMA:   %10.3f TFLOP/s\n", info.name.c_str(), r.f32_tflops);
    if (r.coopmat_f16_tflops > 0.0) {
      std::printf("  coopmat:   %10.3f TFLOP/s (f16 x f16 -> f32, 16x16x16)\n", r.coopmat_f16_tflops);
    } else {
      std::printf("  coopmat:   not measured: %s\n", coopmat_unsupported(info, "f16").value_or("").c_str());
    }
    std::printf("  copy:      %10.1f GB/s (read + written, %llu-byte buffers)\n  stored in: %s\n", r.copy_gbps,
                static_cast<unsigned long long>(r.copy_buffer_bytes), out.c_str());
  }
  if (instance.validation_errors() > 0) {
    spdlog::error("the validation layer reported {} errors", instance.validation_errors());
    return static_cast<int>(ExitCode::device_fault);
  }
  return 0;
}

}  // namespace gemmtune
