// `gemmtune devices`: every Vulkan device with the identity, limits and timing support gemmtune uses.
#include <cstdio>
#include <nlohmann/json.hpp>

#include "cli/options.hpp"
#include "kernels/registry.hpp"
#include "vk/instance.hpp"

namespace gemmtune {

namespace {
struct KernelSupport {
  std::string family, dtype;
  std::optional<std::string> unsupported;
};

/// For each family with device requirements, each input type it has a kernel for: why this device cannot run it.
std::vector<KernelSupport> kernel_support(const vk::DeviceInfo& d) {
  std::vector<KernelSupport> out;
  for (const KernelFamily* f : kernel_families()) {
    if (!f->device_unsupported) continue;
    for (DType t : kAllDTypes) {
      if (!f->spirv(t).empty()) out.push_back({f->name, std::string(dtype_name(t)), f->device_unsupported(t, d)});
    }
  }
  return out;
}

/// {family: {dtype: null where supported, else the reason}}.
nlohmann::ordered_json kernel_support_json(const vk::DeviceInfo& d) {
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  for (const auto& [family, dtype, reason] : kernel_support(d))
    out[family][dtype] = reason ? nlohmann::ordered_json(*reason) : nlohmann::ordered_json(nullptr);
  return out;
}

nlohmann::ordered_json matrix_json(const vk::DeviceInfo& d) {
  const vk::MatrixCapabilities& m = d.matrix;
  nlohmann::ordered_json shapes = nlohmann::ordered_json::array();
  for (const vk::CoopmatShape& s : m.shapes) {
    shapes.push_back({{"m", s.m},
                      {"n", s.n},
                      {"k", s.k},
                      {"a", s.a},
                      {"b", s.b},
                      {"c", s.c},
                      {"result", s.result},
                      {"saturating", s.saturating},
                      {"scope", s.scope}});
  }
  return {{"cooperative_matrix", m.feature},
          {"properties", shapes},
          {"storage_16bit", m.storage_16bit},
          {"shader_float16", m.shader_float16},
          {"vulkan_memory_model", m.memory_model},
          {"subgroup_size_control", m.subgroup_size_control},
          {"full_subgroups", m.full_subgroups},
          {"min_subgroup_size", m.min_subgroup_size},
          {"max_subgroup_size", m.max_subgroup_size},
          {"bfloat16", m.bf16_type},
          {"bfloat16_cooperative_matrix", m.bf16_coopmat},
          {"integer_dot_product", m.integer_dot_product},
          {"shader_int8", m.shader_int8}};
}
nlohmann::ordered_json matrix2_json(const vk::DeviceInfo& d) {
  const vk::Matrix2Capabilities& m2 = d.matrix2;
  nlohmann::ordered_json shapes = nlohmann::ordered_json::array();
  for (const vk::FlexibleCoopmatShape& s : m2.shapes) {
    shapes.push_back({{"m_granularity", s.m_granularity},
                      {"n_granularity", s.n_granularity},
                      {"k_granularity", s.k_granularity},
                      {"a", s.a},
                      {"b", s.b},
                      {"c", s.c},
                      {"result", s.result},
                      {"saturating", s.saturating},
                      {"scope", s.scope},
                      {"workgroup_invocations", s.invocations}});
  }
  return {{"extension", m2.extension},
          {"workgroup_scope", m2.workgroup_scope},
          {"flexible_dimensions", m2.flexible_dimensions},
          {"per_element_operations", m2.per_element_operations},
          {"tensor_addressing", m2.tensor_addressing},
          {"max_workgroup_size", m2.max_workgroup_size},
          {"max_dimension", m2.max_dimension},
          {"reserved_shared_memory", m2.reserved_shared_memory},
          {"flexible_properties", shapes}};
}
nlohmann::ordered_json heaps_json(const vk::DeviceInfo& d) {
  nlohmann::ordered_json heaps = nlohmann::ordered_json::array();
  for (const vk::MemoryHeap& h : d.heaps) {
    heaps.push_back({{"size", h.size}, {"device_local", h.device_local}, {"host_visible", h.host_visible}});
  }
  return heaps;
}
/// The device as `devices --json` lists it.
nlohmann::ordered_json device_json(const vk::DeviceInfo& d) {
  return {{"index", d.index},
          {"name", d.name},
          {"type", vk::device_type_name(d.type)},
          {"vendor_id", d.vendor_id},
          {"device_id", d.device_id},
          {"driver_name", d.driver_name},
          {"driver_id", d.driver_id},
          {"driver_info", d.driver_info},
          {"driver_version", d.driver_version},
          {"api_version", vk::api_version_string(d.api_version)},
          {"device_uuid", vk::uuid_string(d.device_uuid)},
          {"pipeline_cache_uuid", vk::uuid_string(d.pipeline_cache_uuid)},
          {"limits",
           {{"max_shared_memory", d.max_shared_memory},
            {"max_invocations", d.max_invocations},
            {"max_workgroup_size", d.max_workgroup_size},
            {"max_workgroup_count", d.max_workgroup_count},
            {"max_storage_buffer_range", d.max_storage_buffer_range},
            {"max_memory_allocation_size", d.max_memory_allocation_size},
            {"max_buffer_size", d.max_buffer_size},
            {"max_push_constants_size", d.max_push_constants_size}}},
          {"memory_heaps", heaps_json(d)},
          {"subgroup_size", d.subgroup_size},
          {"subgroup_shuffle", d.subgroup_shuffle},
          {"compute_units", d.compute_units},
          {"matrix", matrix_json(d)},
          {"matrix2", matrix2_json(d)},
          {"kernel_support", kernel_support_json(d)},
          {"compute_queue_family", d.compute_queue_family},
          {"timestamps", {{"valid_bits", d.timestamp_valid_bits}, {"period_ns", d.timestamp_period_ns}}}};
}

/// The cooperative-matrix capabilities and what gemmtune's matrix-unit kernels make of them.
void print_matrix_units(const vk::DeviceInfo& d) {
  const vk::MatrixCapabilities& m = d.matrix;
  std::printf(
      "   subgroup sizes %u..%u%s, 16-bit storage %s, shaderFloat16 %s, shaderInt8 %s, memory model %s, bfloat16 %s, "
      "integer dot product %s\n",
      m.min_subgroup_size, m.max_subgroup_size, m.subgroup_size_control ? " (selectable)" : "",
      m.storage_16bit ? "yes" : "no", m.shader_float16 ? "yes" : "no", m.shader_int8 ? "yes" : "no",
      m.memory_model ? "yes" : "no", m.bf16_type ? (m.bf16_coopmat ? "yes (cooperative matrix too)" : "yes") : "no",
      m.integer_dot_product ? "yes" : "no");
  if (!m.extension) {
    std::printf("   cooperative matrix: none (no VK_KHR_cooperative_matrix)\n");
  } else {
    std::printf("   cooperative matrix (VK_KHR_cooperative_matrix%s): %zu combinations\n",
                m.feature ? "" : ", feature off", m.shapes.size());
    std::printf("     %-10s %-5s %-5s %-5s %-6s %-10s %s\n", "MxNxK", "A", "B", "C", "result", "scope", "saturating");
    for (const vk::CoopmatShape& s : m.shapes) {
      std::string mnk = std::to_string(s.m) + "x" + std::to_string(s.n) + "x" + std::to_string(s.k);
      std::printf("     %-10s %-5s %-5s %-5s %-6s %-10s %s\n", mnk.c_str(), s.a.c_str(), s.b.c_str(), s.c.c_str(),
                  s.result.c_str(), s.scope.c_str(), s.saturating ? "yes" : "no");
    }
  }
  const vk::Matrix2Capabilities& m2 = d.matrix2;
  if (m2.extension) {
    std::printf(
        "   VK_NV_cooperative_matrix2: workgroups up to %u invocations, dimensions up to %u, %u B shared memory "
        "reserved\n",
        m2.max_workgroup_size, m2.max_dimension, m2.reserved_shared_memory);
    std::printf("     %-16s %-5s %-5s %-5s %-6s %-10s %s\n", "granularity", "A", "B", "C", "result", "scope",
                "invocations");
    for (const vk::FlexibleCoopmatShape& s : m2.shapes) {
      std::string g = std::to_string(s.m_granularity) + "x" + std::to_string(s.n_granularity) + "x" +
                      std::to_string(s.k_granularity);
      std::printf("     %-16s %-5s %-5s %-5s %-6s %-10s %u%s\n", g.c_str(), s.a.c_str(), s.b.c_str(), s.c.c_str(),
                  s.result.c_str(), s.scope.c_str(), s.invocations, s.saturating ? " (saturating)" : "");
    }
  }
  for (const auto& [family, dtype, reason] : kernel_support(d))
    std::printf("   %s %s: %s\n", family.c_str(), dtype.c_str(),
                reason ? ("not supported: " + *reason).c_str() : "supported");
}

void print_device(const vk::DeviceInfo& d) {
  std::printf("%u: %s [%s]\n", d.index, d.name.c_str(), vk::device_type_name(d.type).c_str());
  std::printf("   vendor 0x%04x, device 0x%04x, driver %s %s (%s), Vulkan %s\n", d.vendor_id, d.device_id,
              d.driver_name.c_str(), d.driver_version.c_str(), d.driver_info.c_str(),
              vk::api_version_string(d.api_version).c_str());
  std::printf("   device uuid %s, pipeline cache uuid %s\n", vk::uuid_string(d.device_uuid).c_str(),
              vk::uuid_string(d.pipeline_cache_uuid).c_str());
  std::printf("   shared memory %u B, %u invocations, workgroup size %ux%ux%u, workgroup count %ux%ux%u\n",
              d.max_shared_memory, d.max_invocations, d.max_workgroup_size[0], d.max_workgroup_size[1],
              d.max_workgroup_size[2], d.max_workgroup_count[0], d.max_workgroup_count[1], d.max_workgroup_count[2]);
  std::printf(
      "   storage buffer range %u B, allocation %llu B, buffer %llu B, push constants %u B, subgroup size %u%s\n",
      d.max_storage_buffer_range, static_cast<unsigned long long>(d.max_memory_allocation_size),
      static_cast<unsigned long long>(d.max_buffer_size), d.max_push_constants_size, d.subgroup_size,
      d.subgroup_shuffle ? " with shuffles" : ", no shuffles in compute shaders");
  for (size_t h = 0; h < d.heaps.size(); ++h) {
    std::printf("   memory heap %zu: %.2f GiB%s%s\n", h, double(d.heaps[h].size) / double(1ull << 30),
                d.heaps[h].device_local ? ", device-local" : "", d.heaps[h].host_visible ? ", host-visible" : "");
  }
  if (d.compute_units > 0) {
    std::printf("   compute units %u (the screening order predicts waves of tiles from them)\n", d.compute_units);
  } else {
    std::printf("   compute units: not listed by the driver (the screening order assumes a large GPU)\n");
  }
  print_matrix_units(d);
  if (d.timestamps()) {
    std::printf("   timestamps: %u valid bits, period %g ns (queue family %u)\n", d.timestamp_valid_bits,
                d.timestamp_period_ns, d.compute_queue_family);
  } else {
    std::printf("   timestamps: none on the compute queue (host timing)\n");
  }
}
}  // namespace

int run_devices(const DevicesCommandOptions& o) {
  vk::Instance instance(vk::validation_requested_by_env());
  auto devices = instance.devices();
  if (o.json) {
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (const auto& c : devices) list.push_back(device_json(c.info));
    std::printf("%s\n", list.dump(2).c_str());
    return 0;
  }
  if (devices.empty()) std::printf("no Vulkan devices\n");
  for (const auto& c : devices) print_device(c.info);
  return 0;
}

}  // namespace gemmtune
