// What the commands that write a table share: the device's identity and reading the table to update.
#pragma once

#include <optional>
#include <string>

#include "core/shape_needs.hpp"
#include "report/table.hpp"
#include "vk/device_info.hpp"

namespace gemmtune {

DeviceIdentity device_identity(const vk::DeviceInfo& device);

/// Reads `path` if it exists, after checking it can be written (exit 5 otherwise). A malformed table is refused
/// (exit 2), never overwritten; with `check_device`, so is a table of another device or driver.
TuningTable load_table_for_device(const std::string& path, const DeviceIdentity& identity, bool check_device);

/// Makes `table` this device's before an update: refuses (exit 2) a table that another device's run has filled
/// meanwhile, and sets tool, device and timing.
void adopt_device(TuningTable& table, const vk::DeviceInfo& device, const std::string& path);

/// Whether a result's kernel is the one this build has: "current", "stale" (the variant's SPIR-V for the dtype
/// has changed since it was tuned, or the variant is gone) or "unrecorded" (a table from before hashes were kept).
std::string kernel_status(const ConfigResult& result, const std::string& dtype);

/// What a table's configs need of other shapes, as this build's kernel families say (lookup and export).
std::optional<ShapeNeeds> family_shape_needs(const ConfigResult& result, const std::string& dtype,
                                             const std::string& layout);

}  // namespace gemmtune
