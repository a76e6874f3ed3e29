#include "cli/multi_device.hpp"

#include <signal.h>
#include <spdlog/spdlog.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <thread>

#include "cli/child_process.hpp"
#include "core/error.hpp"
#include "report/journal.hpp"
#include "report/merge.hpp"
#include "report/table.hpp"
#include "vk/instance.hpp"

namespace gemmtune {

std::vector<uint32_t> devices_to_use(const std::string& spec) {
  // Enumerated in a scope of its own: no Vulkan instance is alive when the workers are forked.
  const vk::Instance instance(false);
  const std::vector<vk::Instance::Candidate> present = instance.devices();
  if (present.empty()) throw Error(ExitCode::unsupported, "--devices: no Vulkan device");
  std::vector<uint32_t> chosen;
  if (spec == "all") {
    int best = 5;
    for (const auto& c : present) best = std::min(best, vk::device_type_rank(c.info.type));
    for (const auto& c : present) {
      if (vk::device_type_rank(c.info.type) == best) chosen.push_back(c.info.index);
    }
    return chosen;
  }
  size_t start = 0;
  while (start <= spec.size()) {
    const size_t comma = std::min(spec.find(',', start), spec.size());
    const std::string item = spec.substr(start, comma - start);
    if (item.empty() || item.size() > 6 || item.find_first_not_of("0123456789") != std::string::npos) {
      throw usage_error("--devices", spec, "expected all or device indices such as 0,1 (see gemmtune devices)");
    }
    const uint32_t index = uint32_t(std::stoul(item));
    if (index >= present.size()) {
      throw usage_error(
          "--devices", spec,
          "no device " + item + " (" + std::to_string(present.size()) + " present: see gemmtune devices)");
    }
    chosen.push_back(index);
    start = comma + 1;
  }
  return chosen;
}

namespace {
std::string part_path(const std::string& base, size_t k, size_t n) {
  return base + ".part" + std::to_string(k) + "of" + std::to_string(n) + ".json";
}

void remove_part(const std::string& part) {
  for (const std::string& p : {part, journal_path_for(part), part + ".lock"}) std::filesystem::remove(p);
}

/// The table a device identity's entries go to.
std::string target_for(const std::string& out, const DeviceIdentity& device, size_t identities) {
  const std::string slug = vk::device_slug(device.name);
  if (out.empty()) return "gemmtune-" + slug + ".json";
  if (identities == 1) return out;
  const std::string stem =
      out.size() > 5 && out.substr(out.size() - 5) == ".json" ? out.substr(0, out.size() - 5) : out;
  return stem + "." + slug + ".json";
}
/// Waits for every worker and returns their exit codes (negative: no exit status); a signal is passed on to all of
/// them (each writes its part and exits 130).
std::vector<int> wait_for(const std::vector<pid_t>& workers, const std::vector<uint32_t>& devices,
                          const SignalForwarding& forwarding) {
  const size_t n = workers.size();
  std::vector<int> codes(n, -2);
  size_t running = n;
  bool forwarded = false;
  while (running > 0) {
    if (!forwarded && forwarding.pending()) {
      for (size_t k = 0; k < n; ++k) {
        if (codes[k] == -2) ::kill(workers[k], forwarding.pending());
      }
      forwarded = true;
    }
    for (size_t k = 0; k < n; ++k) {
      int status = 0;
      if (codes[k] == -2 && ::waitpid(workers[k], &status, WNOHANG) == workers[k]) {
        codes[k] = exit_code_of(status);
        --running;
        if (codes[k] != 0) spdlog::warn("--devices: the worker on device {} ended with {}", devices[k], codes[k]);
      }
    }
    if (running > 0) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return codes;
}

/// Merges what every worker finished into the table of its device, whatever the others did: nothing measured is lost.
void merge_parts(const std::vector<std::string>& parts, const std::string& out) {
  std::vector<std::vector<TuningTable>> groups;
  std::vector<std::vector<std::string>> group_sources;
  for (const std::string& part : parts) {
    if (!std::filesystem::exists(part)) continue;
    TuningTable t = load_table(part);
    size_t g = 0;
    while (g < groups.size() && !(groups[g].front().device == t.device)) ++g;
    if (g == groups.size()) {
      groups.emplace_back();
      group_sources.emplace_back();
    }
    groups[g].push_back(std::move(t));
    group_sources[g].push_back(part);
  }
  for (size_t g = 0; g < groups.size(); ++g) {
    const TuningTable merged = merge_tables(groups[g], group_sources[g]);
    const std::string target = target_for(out, merged.device, groups.size());
    update_table(target, [&](TuningTable& t) {
      if (t.entries.empty() && t.device.name.empty()) {
        t = merged;
        return;
      }
      if (!(t.device == merged.device)) {
        throw Error(ExitCode::usage,
                    target + ": holds another device's table (" + t.device.name + "), not " + merged.device.name);
      }
      for (const TableEntry& e : merged.entries) t.upsert(e);
      if (merged.peak && (!t.peak || merged.peak->measured > t.peak->measured)) t.peak = merged.peak;
      t.created = utc_now();
    });
    spdlog::info("--devices: {} entries from {} workers on {} in {}", merged.entries.size(), groups[g].size(),
                 merged.device.name, target);
  }
}
}  // namespace

int run_on_devices(const std::vector<std::string>& args, const std::vector<uint32_t>& devices, const std::string& out) {
  const size_t n = devices.size();
  const std::string base = out.empty() ? "gemmtune-devices" : out;
  std::vector<std::string> parts;
  std::vector<pid_t> workers;
  const SignalForwarding forwarding;
  for (size_t k = 0; k < n; ++k) {
    parts.push_back(part_path(base, k, n));
    std::vector<std::string> worker = args;
    for (const std::string& a : {std::string("--device"), std::to_string(devices[k]), std::string("--shard"),
                                 std::to_string(k) + "/" + std::to_string(n), std::string("--out"), parts.back()}) {
      worker.push_back(a);
    }
    workers.push_back(spawn_self(worker, "--devices"));
  }
  std::string list;
  for (uint32_t d : devices) list.append(list.empty() ? "" : ",").append(std::to_string(d));
  spdlog::info("--devices: {} workers, one per device ({}), parts {}.part*of{}.json", n, list, base, n);

  const std::vector<int> codes = wait_for(workers, devices, forwarding);
  merge_parts(parts, out);

  int worst = 0;
  for (int c : codes) worst = std::max(worst, c < 0 ? int(ExitCode::device_fault) : c);
  const bool finished = worst <= int(ExitCode::unverified);
  if (finished) {
    for (const std::string& part : parts) remove_part(part);
  } else {
    spdlog::warn("--devices: part tables kept for --resume: {}.part*of{}.json", base, n);
  }
  return worst;
}

}  // namespace gemmtune
