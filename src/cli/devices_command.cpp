// `gemmtune devices`: every Vulkan device with the identity, limits and timing support gemmtune uses.
#include <cstdio>
#include <nlohmann/json.hpp>

#include "cli/options.hpp"
#include "vk/instance.hpp"

namespace gemmtune {

int run_devices(const DevicesCommandOptions& o) {
  vk::Instance instance(vk::validation_requested_by_env());
  auto devices = instance.devices();
  if (o.json) {
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (const auto& c : devices) {
      const vk::DeviceInfo& d = c.info;
      list.push_back({{"index", d.index},
                      {"name", d.name},
                      {"type", vk::device_type_name(d.type)},
                      {"vendor_id", d.vendor_id},
                      {"device_id", d.device_id},
                      {"driver_name", d.driver_name},
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
                        {"max_push_constants_size", d.max_push_constants_size}}},
                      {"subgroup_size", d.subgroup_size},
                      {"compute_queue_family", d.compute_queue_family},
                      {"timestamps", {{"valid_bits", d.timestamp_valid_bits}, {"period_ns", d.timestamp_period_ns}}}});
    }
    std::printf("%s\n", list.dump(2).c_str());
    return 0;
  }
  if (devices.empty()) std::printf("no Vulkan devices\n");
  for (const auto& c : devices) {
    const vk::DeviceInfo& d = c.info;
    std::printf("%u: %s [%s]\n", d.index, d.name.c_str(), vk::device_type_name(d.type).c_str());
    std::printf("   vendor 0x%04x, device 0x%04x, driver %s %s (%s), Vulkan %s\n", d.vendor_id, d.device_id, d.driver_name.c_str(),
                d.driver_version.c_str(), d.driver_info.c_str(), vk::api_version_string(d.api_version).c_str());
    std::printf("   device uuid %s, pipeline cache uuid %s\n", vk::uuid_string(d.device_uuid).c_str(),
                vk::uuid_string(d.pipeline_cache_uuid).c_str());
    std::printf("   shared memory %u B, %u invocations, workgroup size %ux%ux%u, workgroup count %ux%ux%u\n", d.max_shared_memory,
                d.max_invocations, d.max_workgroup_size[0], d.max_workgroup_size[1], d.max_workgroup_size[2],
                d.max_workgroup_count[0], d.max_workgroup_count[1], d.max_workgroup_count[2]);
    std::printf("   storage buffer range %u B, allocation %llu B, subgroup size %u\n", d.max_storage_buffer_range,
                static_cast<unsigned long long>(d.max_memory_allocation_size), d.subgroup_size);
    if (d.timestamps()) {
      std::printf("   timestamps: %u valid bits, period %g ns (queue family %u)\n", d.timestamp_valid_bits, d.timestamp_period_ns,
                  d.compute_queue_family);
    } else {
      std::printf("   timestamps: none on the compute queue (host timing)\n");
    }
  }
  return 0;
}

}  // namespace gemmtune
