// The tuning table: gemmtune's product. Plain data, JSON read and write (atomic), no GPU needed.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/measurement.hpp"
#include "core/problem.hpp"

namespace gemmtune {

/// 5: kernel_hash covers every module a config may dispatch (main, alternative, split-k reduce, epilogue pass).
inline constexpr int kSchemaVersion = 5;
/// Read and migrated: version 4, whose kernel_hash covered the main pass only (read as "", unrecorded).
inline constexpr int kMigratedSchemaVersion = 4;

struct ToolInfo {
  std::string name = "gemmtune";
  std::string version;
  std::string git;
  bool operator==(const ToolInfo&) const = default;
};

struct DeviceIdentity {
  std::string name;
  uint32_t vendor_id = 0, device_id = 0;
  std::string driver_version;  ///< decoded per vendor
  std::string driver_name;
  uint32_t driver_id = 0;  ///< VkDriverId: 4 NVIDIA proprietary, 13 Mesa llvmpipe, ... (0: unknown)
  std::string api_version;
  std::string type;  ///< discrete, integrated, virtual, cpu, other
  std::string pipeline_cache_uuid;
  bool operator==(const DeviceIdentity&) const = default;
};

/// The device's measured ceilings (`gemmtune peak`), kept in the table's device section.
struct DevicePeak {
  double f32_tflops = 0.0;
  double coopmat_f16_tflops = 0.0;  ///< 0 (null in the file): not measured, the device has no qualifying coopmat
  double copy_gbps = 0.0;           ///< read plus written
  std::string measured;             ///< UTC
  bool operator==(const DevicePeak&) const = default;
};

struct ConfigResult {
  std::string variant;
  std::string name;  ///< deterministic config name
  std::vector<std::pair<std::string, uint32_t>> params;
  double median_us = 0, min_us = 0, gflops = 0;
  double error = 0;                  ///< max|gpu-ref|/max|ref|
  double elementwise_rel_error = 0;  ///< over |ref| > 1e-3 max|ref|
  double bound = 0;
  int samples = 0;
  uint32_t runs_per_sample = 1;  ///< back-to-back dispatches per timed sample
  double cv = 0;                 ///< coefficient of variation of the samples
  /// The timed samples themselves (us, in order), for compare's rank test; empty in tables written before they
  /// were kept.
  std::vector<double> samples_us;
  /// The per-run time of the config's screening batch (0: none; absent in tables from before it was kept), which
  /// the median should repeat: `tune` says where they differ by more than 15 % (timing_moved).
  double screen_us = 0;
  /// The arithmetic of its family (KernelFamily::numerics): "native", or an emulation ("bf16x6"); tables from before
  /// it was kept hold only native kernels.
  std::string numerics = std::string(kNativeNumerics);
  std::string kernel_hash;  ///< of the SPIR-V that ran ("fnv1a64:..."); empty in tables from before it was kept
  /// Achieved rate over the relevant measured ceiling (device.peak): the copy bandwidth times the arithmetic
  /// intensity when that is lower than the compute rate ("memory"), else the compute rate ("compute"). 0 and ""
  /// when the table has no peak (or no matrix-unit rate, for coopmat).
  double ceiling_fraction = 0.0;
  std::string bound_by;
  bool operator==(const ConfigResult&) const = default;
};

/// A table's summary of what the runner measured (the journal keeps the measurement whole).
ConfigResult summary_of(const Measurement& m, const std::string& variant, const std::string& name,
                        const std::vector<std::pair<std::string, uint32_t>>& params, const std::string& kernel_hash,
                        const std::string& numerics);

struct CandidateCounts {
  uint64_t evaluated = 0, failed = 0, pruned = 0, skipped = 0;
  double configs_per_s = 0.0;  ///< the screening's speed (TuneResult::configs_per_s); 0: not recorded
  bool operator==(const CandidateCounts&) const = default;
};

/// One number per operand (leading dimensions, offsets, batch strides), as resolved.
struct PerOperand {
  uint64_t a = 0, b = 0, c = 0;
  bool operator==(const PerOperand&) const = default;
};

struct VariantNote {
  std::string variant, reason;
  bool operator==(const VariantNote&) const = default;
};

/// The fastest verified config of one variant (full samples for finalists, one screening sample otherwise).
struct VariantBest {
  std::string variant, name;
  double median_us = 0, gflops = 0;
  bool operator==(const VariantBest&) const = default;
};

/// The key of an entry: everything a caller's operation is made of. A table holds one entry a key; the journal
/// names a problem by it (entry_key); key_to_json and key_from_json are its JSON both ways.
struct TableKey {
  uint64_t m = 0, n = 0, k = 0, batch = 1;
  std::string dtype;
  std::string layout = "nn";
  PerOperand ld, offset, batch_stride;
  double alpha = 1.0, beta = 0.0;
  bool bias = false;
  uint64_t bias_offset = 0;
  std::string activation = "none";
  std::string mode = "fast";
  bool cold = false;  ///< timed with inputs rotated out of the L2 (`--cold`)
  bool operator==(const TableKey&) const = default;
};

struct TableEntry : TableKey {
  // The result.
  std::optional<ConfigResult> best;  ///< null: no verified candidate
  std::optional<ConfigResult> runner_up;
  CandidateCounts candidates;
  std::vector<VariantNote> not_applicable;  ///< variants that cannot serve this operation, with the reason
  std::string unsupported;  ///< why nothing could run on this device (an operand over a limit); empty when tuned
  bool budget_exhausted = false;
  bool interrupted = false;  ///< ended by SIGINT/SIGTERM: best is the best screened config
  std::string strategy = "screen";
  bool tie = false;       ///< best is within the noise band of the fastest other finalist
  double margin = 0;      ///< runner_up median / best median - 1
  double noise_band = 0;  ///< noise factor x the larger CV of best and runner-up
  double tune_seconds = 0;
  /// Median of the naive kernel (naive_<dtype>_wg64), timed once as the baseline; null when it did not run or
  /// failed (and in tables written before it existed).
  std::optional<double> baseline_us;
  std::vector<VariantBest> variant_best;  ///< per variant that verified, fastest first; empty in older tables
  bool operator==(const TableEntry&) const = default;
  const TableKey& key() const { return *this; }
  bool same_key(const TableEntry& o) const { return key() == o.key(); }
};

struct TuningTable {
  int schema_version = kSchemaVersion;
  ToolInfo tool;
  DeviceIdentity device;
  std::optional<DevicePeak> peak;     ///< written as device.peak (null until `gemmtune peak` ran)
  std::string created;                ///< UTC, ISO 8601
  std::string timing = "timestamps";  ///< "timestamps", or "host" where the queue has none
  std::vector<TableEntry> entries;

  /// Replaces the entry with the same key (shape, dtype, layout, placement, scalars, epilogue, mode, cold) or appends
  /// it.
  void upsert(const TableEntry& entry);
  bool operator==(const TuningTable&) const = default;
};

/// Sets `c.ceiling_fraction` and `c.bound_by` for entry `e` from the device's measured ceilings: the matrix units'
/// rate where `c`'s family runs on them (KernelFamily::matrix_units), else the FMA units'.
void apply_ceiling(ConfigResult& c, const DevicePeak& peak, const TableEntry& e, bool matrix_units);

/// FLOP per byte moved at the least: each input read once (a shared operand once), C written once and read when
/// beta != 0. Where the entry sits on a roofline.
double arithmetic_intensity(const TableEntry& e);

/// An entry's key as the table writes it (the epilogue's fields in an object of their own), and back; key_from_json
/// throws nlohmann's errors or std::invalid_argument for what it cannot read.
nlohmann::ordered_json key_to_json(const TableKey& key);
TableKey key_from_json(const nlohmann::ordered_json& json);

/// The key of an entry (shape, dtype, layout, placement, scalars, epilogue, mode, cold) as one canonical JSON
/// string: equal for entries with the same key (TableEntry::same_key), different otherwise.
std::string entry_key(const TableKey& key);

std::string table_to_json(const TuningTable& table);

/// Parses a table; `source` names the file in errors ("FILE:LINE:COL: reason", exit 2).
TuningTable table_from_json(const std::string& text, const std::string& source);
/// Reads a table file (exit 5 if unreadable, exit 2 if malformed).
TuningTable load_table(const std::string& path);
/// Writes a table atomically (exit 5 on failure).
void save_table(const std::string& path, const TuningTable& table);
/// Read-modify-write under a lock on `<path>.lock`: reads the table as it is now (an empty one if there is none),
/// applies `change`, writes it atomically, and returns what was written. Processes updating one table at once
/// each keep their changes (no lost update). Errors as load_table and save_table.
TuningTable update_table(const std::string& path, const std::function<void(TuningTable&)>& change);
/// Current UTC time, ISO 8601 with seconds ("2026-11-29T12:00:00Z").
std::string utc_now();

}  // namespace gemmtune
