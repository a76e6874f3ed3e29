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

namespace {
/// The sweep as one line per input and sum type: TFLOP/s per accumulator count at its best workgroup size.
void print_matrix_sweep(const std::vector<MatrixRate>& sweep) {
  if (sweep.empty()) {
    std::printf("  matrix sweep: nothing the device runs\n");
    return;
  }
  std::printf("  matrix sweep (TFLOP/s, 16x16x16, best workgroup; accumulators a subgroup):\n");
  for (const auto& [input, sum] : {std::pair{"f16", "f32"}, {"bf16", "f32"}, {"f16", "f16"}}) {
    std::string line;
    for (uint32_t accs : {1u, 2u, 4u, 8u, 16u}) {
      const MatrixRate* best = nullptr;
      for (const MatrixRate& m : sweep) {
        if (!m.built && m.input == input && m.accumulator == sum && m.accumulators == accs &&
            (!best || m.tflops > best->tflops))
          best = &m;
      }
      if (!best) continue;
      char cell[64];
      std::snprintf(cell, sizeof cell, "  %u: %.1f (wg %u)", accs, best->tflops, best->workgroup);
      line += cell;
    }
    if (!line.empty()) std::printf("    %-4s -> %s:%s\n", input, sum, line.c_str());
  }
  for (const MatrixRate& m : sweep) {
    if (m.built)
      std::printf("    f16  -> f32, A built from registers, %u accumulators, wg %u: %.1f\n", m.accumulators,
                  m.workgroup, m.tflops);
  }
}
}  // namespace

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
  options.matrix_sweep = o.matrix_sweep;
  options.read_bytes = o.read_bytes;
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
    if (r.cached_read_bytes > 0) {
      j["cached_read_gbps"] = r.cached_read_gbps;
      j["cached_read_buffer_bytes"] = r.cached_read_bytes;
      j["cached_read_workgroups"] = r.cached_read_workgroups;
    }
    if (o.matrix_sweep) {
      nlohmann::ordered_json sweep = nlohmann::ordered_json::array();
      for (const MatrixRate& m : r.matrix_sweep) {
        sweep.push_back({{"input", m.input},
                         {"accumulator", m.accumulator},
                         {"accumulators", m.accumulators},
                         {"workgroup", m.workgroup},
                         {"a_fragment", m.built ? "built from registers" : "loaded"},
                         {"tflops", m.tflops}});
      }
      j["matrix_sweep"] = sweep;
    }
    std::printf("%s\n", j.dump(2).c_str());
  } else {
    std::printf("%s\n  f32 FMA:   %10.3f TFLOP/s\n", info.name.c_str(), r.f32_tflops);
    if (r.coopmat_f16_tflops > 0.0) {
      std::printf("  matrix:    %10.3f TFLOP/s (f16 x f16 -> f32, 16x16x16 cooperative matrices)\n",
                  r.coopmat_f16_tflops);
    } else {
      std::printf("  matrix:    not measured: %s\n", coopmat_unsupported(info, "f16").value_or("").c_str());
    }
    std::printf("  copy:      %10.1f GB/s (read + written, %llu-byte buffers)\n", r.copy_gbps,
                static_cast<unsigned long long>(r.copy_buffer_bytes));
    if (r.cached_read_bytes > 0)
      std::printf("  cached read: %8.1f GB/s (a %llu-byte buffer read whole by each of %u workgroups)\n",
                  r.cached_read_gbps, static_cast<unsigned long long>(r.cached_read_bytes), r.cached_read_workgroups);
    if (o.matrix_sweep) print_matrix_sweep(r.matrix_sweep);
    std::printf("  stored in: %s\n", out.c_str());
  }
  if (instance.validation_errors() > 0) {
    spdlog::error("the validation layer reported {} errors", instance.validation_errors());
    return static_cast<int>(ExitCode::device_fault);
  }
  return 0;
}

}  // namespace gemmtune
