// `--devices all|I,J,...`: one worker process per device, each tuning its shard of the problems (--shard k/n)
// into a part table; the parent then merges the parts, one table per distinct device identity (identical GPUs
// share one). With a single device it is an ordinary run on that device.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace gemmtune {

/// The device indices `spec` names. "all": every device of the best type present (discrete GPUs before
/// integrated, virtual, then CPU), so a GPU host never hands a shard to a software rasterizer. A list of
/// indices may repeat one (several workers sharing a device). A bad spec is a usage error naming --devices.
std::vector<uint32_t> devices_to_use(const std::string& spec);

/// Runs `args` (this tune command line without --devices) once per device with --device, --shard k/n and a
/// part table beside `out` (empty: gemmtune-<device>.json), waits, forwards SIGINT/SIGTERM, and merges the
/// parts into the device tables (entries with the same key are replaced, as a tune does). Part tables are
/// removed once every worker finished; otherwise they stay for --resume. Returns the most severe exit code.
int run_on_devices(const std::vector<std::string>& args, const std::vector<uint32_t>& devices, const std::string& out);

}  // namespace gemmtune
