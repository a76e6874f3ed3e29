#include "report/table.hpp"

#include <filesystem>

#include <cmath>
#include <ctime>
#include <map>
#include <optional>
#include <stdexcept>
#include <nlohmann/json.hpp>

#include "core/error.hpp"
#include "core/files.hpp"
#include "core/strict_json.hpp"
#include "report/schemas.hpp"

namespace gemmtune {

ConfigResult summary_of(const Measurement& m, const std::string& variant, const std::string& name,
                        const std::vector<std::pair<std::string, uint32_t>>& params, const std::string& kernel_hash,
                        const std::string& numerics) {
  ConfigResult c;
  c.variant = variant;
  c.name = name;
  c.params = params;
  c.median_us = m.median_us;
  c.min_us = m.min_us;
  c.gflops = m.gflops;
  c.error = m.error.error;
  c.elementwise_rel_error = m.error.elementwise_rel;
  c.bound = m.error.bound;
  c.samples = int(m.samples_us.size());
  c.runs_per_sample = m.runs_per_sample;
  c.cv = m.cv;
  c.samples_us = m.samples_us;
  c.screen_us = m.screen_us;
  c.kernel_hash = kernel_hash;
  c.numerics = numerics;
  return c;
}

using json = nlohmann::ordered_json;

void apply_ceiling(ConfigResult& c, const DevicePeak& peak, const TableEntry& e, bool matrix_units) {
  c.ceiling_fraction = 0.0;
  c.bound_by.clear();
  // The matrix units' f16 rate is the compute ceiling of the families that run on them (bf16 runs at the same rate
  // on the devices we know); without it they get none.
  const double compute_tflops = matrix_units ? peak.coopmat_f16_tflops : peak.f32_tflops;
  if (compute_tflops <= 0.0 || peak.copy_gbps <= 0.0 || c.median_us <= 0.0) return;
  const double flops = 2.0 * double(e.m) * double(e.n) * double(e.k) * double(e.batch);
  const double intensity = arithmetic_intensity(e);
  const double memory_ceiling = intensity * peak.copy_gbps * 1e9;  // FLOP/s
  const double compute_ceiling = compute_tflops * 1e12;
  const double achieved = flops / (c.median_us * 1e-6);
  c.bound_by = memory_ceiling < compute_ceiling ? "memory" : "compute";
  c.ceiling_fraction = achieved / std::min(memory_ceiling, compute_ceiling);
}

double arithmetic_intensity(const TableEntry& e) {
  const double flops = 2.0 * double(e.m) * double(e.n) * double(e.k) * double(e.batch);
  const DType dtype = parse_dtype(e.dtype, "dtype");
  const double a_bytes = dtype_bytes(dtype);
  // A quantized B's blocks: 34 (q8_0) or 18 (q4_0) bytes for 32 elements.
  const double b_bytes =
      is_quantized(dtype) ? double(block_bytes(*b_block_format(dtype))) / kBlockElements : double(dtype_bytes(dtype));
  const double a = double(e.m) * double(e.k) * (e.batch_stride.a == 0 ? 1.0 : double(e.batch)) * a_bytes;
  const double b = double(e.k) * double(e.n) * (e.batch_stride.b == 0 ? 1.0 : double(e.batch)) * b_bytes;
  const double cbytes = double(e.m) * double(e.n) * double(e.batch) * 4.0 * (e.beta != 0.0 ? 2.0 : 1.0);
  return flops / (a + b + cbytes);
}

void TuningTable::upsert(const TableEntry& entry) {
  for (TableEntry& e : entries) {
    if (e.same_key(entry)) {
      e = entry;
      return;
    }
  }
  entries.push_back(entry);
}

namespace {
/// A non-negative integer of at most `max`: nlohmann's get<uint64_t>() would wrap -5 silently.
uint64_t get_uint(const json& j, const char* key, uint64_t max = UINT64_MAX, uint64_t min = 0) {
  const json& v = j.at(key);
  if (!v.is_number_integer())
    throw std::invalid_argument(std::string(key) + ": expected an integer, found " + v.type_name());
  if (v.is_number_unsigned() ? v.get<uint64_t>() < min : v.get<int64_t>() < int64_t(min)) {
    throw std::invalid_argument(std::string(key) + ": " + v.dump() + " is below " + std::to_string(min));
  }
  uint64_t u = v.get<uint64_t>();
  if (u > max) throw std::invalid_argument(std::string(key) + ": " + v.dump() + " exceeds " + std::to_string(max));
  return u;
}

json config_to_json(const std::optional<ConfigResult>& c) {
  if (!c) return nullptr;
  json params = json::object();
  for (const auto& [k, v] : c->params) params[k] = v;
  json out = {{"variant", c->variant},
              {"name", c->name},
              {"params", params},
              {"median_us", c->median_us},
              {"min_us", c->min_us},
              {"gflops", c->gflops},
              {"error", c->error},
              {"elementwise_rel_error", c->elementwise_rel_error},
              {"bound", c->bound},
              {"samples", c->samples},
              {"runs_per_sample", c->runs_per_sample},
              {"cv", c->cv},
              {"numerics", c->numerics},
              {"kernel_hash", c->kernel_hash},
              {"ceiling_fraction", c->ceiling_fraction},
              {"bound_by", c->bound_by}};
  if (!c->samples_us.empty()) out["samples_us"] = c->samples_us;  // optional: results summarised without them
  if (c->screen_us > 0.0) out["screen_us"] = c->screen_us;        // optional: not screened first
  return out;
}

std::optional<ConfigResult> config_from_json(const json& j) {
  if (j.is_null()) return std::nullopt;
  ConfigResult c;
  c.variant = j.at("variant").get<std::string>();
  c.name = j.at("name").get<std::string>();
  const json& params = j.at("params");
  if (!params.is_object()) throw std::invalid_argument("params: expected an object");
  for (const auto& [k, v] : params.items()) c.params.emplace_back(k, uint32_t(get_uint(params, k.c_str(), UINT32_MAX)));
  c.median_us = j.at("median_us").get<double>();
  c.min_us = j.at("min_us").get<double>();
  c.gflops = j.at("gflops").get<double>();
  c.error = j.at("error").get<double>();
  c.elementwise_rel_error = j.at("elementwise_rel_error").get<double>();
  c.bound = j.at("bound").get<double>();
  c.samples = int(get_uint(j, "samples", INT32_MAX));
  c.runs_per_sample = uint32_t(get_uint(j, "runs_per_sample", UINT32_MAX, 1));
  c.cv = j.at("cv").get<double>();
  if (j.contains("samples_us")) {  // optional: tables from before the samples were kept have none
    c.samples_us = j.at("samples_us").get<std::vector<double>>();
    if (c.samples_us.size() != size_t(c.samples))
      throw std::invalid_argument("samples_us: " + std::to_string(c.samples_us.size()) + " values, but samples is " +
                                  std::to_string(c.samples));
    for (double v : c.samples_us)
      if (!(v > 0.0) || !std::isfinite(v)) throw std::invalid_argument("samples_us: expected positive times in us");
  }
  if (j.contains("screen_us")) {  // optional: configs not screened first, tables from before it was kept
    c.screen_us = j.at("screen_us").get<double>();
    if (!(c.screen_us > 0.0) || !std::isfinite(c.screen_us))
      throw std::invalid_argument("screen_us: expected a positive time in us");
  }
  // Optional: tables from before it was kept hold native kernels only. The schema names the values.
  if (j.contains("numerics")) c.numerics = j.at("numerics").get<std::string>();
  c.kernel_hash = j.at("kernel_hash").get<std::string>();
  c.ceiling_fraction = j.at("ceiling_fraction").get<double>();
  c.bound_by = j.at("bound_by").get<std::string>();
  return c;
}

/// nlohmann messages start with "[json.exception.type_error.302] "; keep the readable part.
std::string readable(const std::exception& e) {
  std::string s = e.what();
  size_t close = s.find("] ");
  return close != std::string::npos && s.rfind("[json.exception", 0) == 0 ? s.substr(close + 2) : s;
}
}  // namespace

json key_to_json(const TableKey& e) {
  auto triple = [](const PerOperand& p) { return json{{"a", p.a}, {"b", p.b}, {"c", p.c}}; };
  return json{{"m", e.m},
              {"n", e.n},
              {"k", e.k},
              {"batch", e.batch},
              {"dtype", e.dtype},
              {"layout", e.layout},
              {"ld", triple(e.ld)},
              {"offset", triple(e.offset)},
              {"batch_stride", triple(e.batch_stride)},
              {"alpha", e.alpha},
              {"beta", e.beta},
              {"epilogue", {{"bias", e.bias}, {"bias_offset", e.bias_offset}, {"activation", e.activation}}},
              {"mode", e.mode},
              {"cold", e.cold}};
}

std::string entry_key(const TableKey& key) { return key_to_json(key).dump(); }

std::string table_to_json(const TuningTable& t) {
  json entries = json::array();
  for (const TableEntry& e : t.entries) {
    json notes = json::array();
    for (const VariantNote& v : e.not_applicable) notes.push_back({{"variant", v.variant}, {"reason", v.reason}});
    json variant_bests = json::array();
    for (const VariantBest& v : e.variant_best) {
      variant_bests.push_back(
          {{"variant", v.variant}, {"name", v.name}, {"median_us", v.median_us}, {"gflops", v.gflops}});
    }
    json entry = key_to_json(e.key());  // the key's fields first, then the outcome's
    entry["best"] = config_to_json(e.best);
    entry["runner_up"] = config_to_json(e.runner_up);
    entry["candidates"] = {{"evaluated", e.candidates.evaluated},
                           {"failed", e.candidates.failed},
                           {"pruned", e.candidates.pruned},
                           {"skipped", e.candidates.skipped},
                           {"configs_per_s", e.candidates.configs_per_s}};
    entry["not_applicable"] = notes;
    entry["unsupported"] = e.unsupported;
    entry["budget_exhausted"] = e.budget_exhausted;
    entry["interrupted"] = e.interrupted;
    entry["strategy"] = e.strategy;
    entry["tie"] = e.tie;
    entry["margin"] = e.margin;
    entry["noise_band"] = e.noise_band;
    entry["tune_seconds"] = e.tune_seconds;
    entry["baseline_us"] = e.baseline_us ? json(*e.baseline_us) : json(nullptr);
    entry["variant_best"] = variant_bests;
    entries.push_back(std::move(entry));
  }
  json j = {
      {"schema_version", t.schema_version},
      {"tool", {{"name", t.tool.name}, {"version", t.tool.version}, {"git", t.tool.git}}},
      {"device",
       {{"name", t.device.name},
        {"vendor_id", t.device.vendor_id},
        {"device_id", t.device.device_id},
        {"driver_version", t.device.driver_version},
        {"driver_name", t.device.driver_name},
        {"driver_id", t.device.driver_id},
        {"api_version", t.device.api_version},
        {"type", t.device.type},
        {"pipeline_cache_uuid", t.device.pipeline_cache_uuid},
        {"peak", t.peak ? json{{"f32_tflops", t.peak->f32_tflops},
                               {"coopmat_f16_tflops",
                                t.peak->coopmat_f16_tflops > 0.0 ? json(t.peak->coopmat_f16_tflops) : json(nullptr)},
                               {"copy_gbps", t.peak->copy_gbps},
                               {"measured", t.peak->measured}}
                        : json(nullptr)}}},
      {"created", t.created},
      {"timing", t.timing},
      {"entries", entries}};
  return j.dump(2) + "\n";
}

namespace {
void read_device(const json& d, TuningTable& t) {
  t.device.name = d.at("name").get<std::string>();
  t.device.vendor_id = uint32_t(get_uint(d, "vendor_id", UINT32_MAX));
  t.device.device_id = uint32_t(get_uint(d, "device_id", UINT32_MAX));
  t.device.driver_version = d.at("driver_version").get<std::string>();
  t.device.driver_name = d.at("driver_name").get<std::string>();
  t.device.driver_id = uint32_t(get_uint(d, "driver_id", UINT32_MAX));
  t.device.api_version = d.at("api_version").get<std::string>();
  t.device.type = d.at("type").get<std::string>();
  t.device.pipeline_cache_uuid = d.at("pipeline_cache_uuid").get<std::string>();
  if (d.contains("peak") && !d.at("peak").is_null()) {
    const json& pk = d.at("peak");
    const json& mma = pk.at("coopmat_f16_tflops");
    t.peak = DevicePeak{pk.at("f32_tflops").get<double>(), mma.is_null() ? 0.0 : mma.get<double>(),
                        pk.at("copy_gbps").get<double>(), pk.at("measured").get<std::string>()};
  }
}

}  // namespace

TableKey key_from_json(const json& e) {
  TableKey key;
  key.m = get_uint(e, "m", UINT64_MAX, 1);
  key.n = get_uint(e, "n", UINT64_MAX, 1);
  key.k = get_uint(e, "k", UINT64_MAX, 1);
  key.batch = get_uint(e, "batch", UINT64_MAX, 1);
  key.dtype = e.at("dtype").get<std::string>();
  key.layout = e.at("layout").get<std::string>();
  auto triple = [&](const char* name) {
    const json& abc = e.at(name);
    if (!abc.is_object()) throw std::invalid_argument(std::string(name) + ": expected an object with a, b, c");
    return PerOperand{get_uint(abc, "a"), get_uint(abc, "b"), get_uint(abc, "c")};
  };
  key.ld = triple("ld");
  key.offset = triple("offset");
  key.batch_stride = triple("batch_stride");
  key.alpha = e.at("alpha").get<double>();
  key.beta = e.at("beta").get<double>();
  const json& epi = e.at("epilogue");
  key.bias = epi.at("bias").get<bool>();
  key.bias_offset = get_uint(epi, "bias_offset");
  key.activation = epi.at("activation").get<std::string>();
  key.mode = e.at("mode").get<std::string>();
  key.cold = e.at("cold").get<bool>();
  return key;
}

namespace {

/// What the search found and how: candidates, the choice's margin, the baseline and each variant's best.
void read_outcome(const json& e, TableEntry& entry) {
  entry.unsupported = e.at("unsupported").get<std::string>();
  for (const json& note : e.at("not_applicable")) {
    entry.not_applicable.push_back({note.at("variant").get<std::string>(), note.at("reason").get<std::string>()});
  }
  const json& c = e.at("candidates");
  entry.candidates = {get_uint(c, "evaluated"), get_uint(c, "failed"), get_uint(c, "pruned"), get_uint(c, "skipped")};
  if (const auto it = c.find("configs_per_s"); it != c.end()) {  // optional: tables from before it was recorded
    if (!it->is_number() || !(it->get<double>() >= 0.0) || !std::isfinite(it->get<double>()))
      throw std::invalid_argument("candidates.configs_per_s: " + it->dump() + " is not a non-negative number");
    entry.candidates.configs_per_s = it->get<double>();
  }
  entry.budget_exhausted = e.at("budget_exhausted").get<bool>();
  entry.interrupted = e.at("interrupted").get<bool>();
  entry.strategy = e.at("strategy").get<std::string>();
  entry.tie = e.at("tie").get<bool>();
  entry.margin = e.at("margin").get<double>();
  entry.noise_band = e.at("noise_band").get<double>();
  entry.tune_seconds = e.at("tune_seconds").get<double>();
  if (e.contains("baseline_us") && !e.at("baseline_us").is_null()) {  // optional: older tables lack it
    const json& b = e.at("baseline_us");
    if (!b.is_number() || !(b.get<double>() > 0.0))
      throw std::invalid_argument("baseline_us: expected a positive number or null");
    entry.baseline_us = b.get<double>();
  }
  if (e.contains("variant_best")) {  // optional: older tables lack it
    for (const json& v : e.at("variant_best")) {
      VariantBest vb{v.at("variant").get<std::string>(), v.at("name").get<std::string>(),
                     v.at("median_us").get<double>(), v.at("gflops").get<double>()};
      if (!(vb.median_us > 0.0) || !(vb.gflops >= 0.0))
        throw std::invalid_argument("variant_best: median_us must be positive");
      entry.variant_best.push_back(std::move(vb));
    }
  }
}

/// Entry `where` ("entries[3]"); `where` names the part being read when something in it is refused.
TableEntry read_entry(const json& e, int version, std::string& where) {
  const std::string at = where;
  TableEntry entry;
  static_cast<TableKey&>(entry) = key_from_json(e);
  read_outcome(e, entry);
  where = at + ".best";
  entry.best = config_from_json(e.at("best"));
  where = at + ".runner_up";
  entry.runner_up = config_from_json(e.at("runner_up"));
  where = at;
  if (version == kMigratedSchemaVersion) {
    // Version 4's kernel_hash covered the main pass only: unknown for the modules version 5 covers.
    for (std::optional<ConfigResult>* kept : {&entry.best, &entry.runner_up})
      if (*kept) (*kept)->kernel_hash.clear();
  }
  return entry;
}
}  // namespace

namespace {

/// The first rule of the published schema `document` breaks.
std::optional<std::string> schema_violation(const std::string& document) {
  return table_schema().first_error(nlohmann::json::parse(document));
}

/// The rule a JSON Schema cannot state: no two entries share a key.
std::optional<std::string> repeated_key(const TuningTable& table) {
  std::map<std::string, size_t> first_with_key;
  for (size_t i = 0; i < table.entries.size(); ++i) {
    auto [at, added] = first_with_key.emplace(entry_key(table.entries[i]), i);
    if (!added)
      return "entries[" + std::to_string(i) + "]: the same key as entries[" + std::to_string(at->second) +
             "] (shape, dtype, layout, placement, scalars, epilogue, mode, cold): a table holds one entry a key";
  }
  return std::nullopt;
}

}  // namespace

TuningTable table_from_json(const std::string& text, const std::string& source) {
  json j;
  try {
    j = parse_json_without_duplicates<json>(text);
  } catch (const json::parse_error& e) {
    throw Error(ExitCode::usage,
                source + ":" + text_position(text, e.byte > 0 ? e.byte - 1 : 0) + ": invalid JSON: " + readable(e));
  } catch (const JsonRefused& e) {
    throw Error(ExitCode::usage, source + ": invalid table: " + e.what());
  }
  std::string where = "top level";
  try {
    if (!j.is_object()) throw Error(ExitCode::usage, source + ": expected a JSON object at the top level");
    int version = int(get_uint(j, "schema_version", INT32_MAX));
    if (version != kSchemaVersion && version != kMigratedSchemaVersion) {
      throw Error(ExitCode::usage, source + ": schema_version " + std::to_string(version) +
                                       " is not supported (expected " + std::to_string(kSchemaVersion) + ", or " +
                                       std::to_string(kMigratedSchemaVersion) + " to migrate)");
    }
    // The schema describes the current version; a table of the version before is checked once migrated.
    if (version == kSchemaVersion) {
      if (auto e = schema_violation(text)) throw Error(ExitCode::usage, source + ": " + *e);
    }
    TuningTable t;  // read as the current version: a migrated table is written back as one
    where = "tool";
    const json& tool = j.at("tool");
    t.tool = {tool.at("name").get<std::string>(), tool.at("version").get<std::string>(),
              tool.at("git").get<std::string>()};
    where = "device";
    read_device(j.at("device"), t);
    where = "top level";
    t.created = j.at("created").get<std::string>();
    t.timing = j.at("timing").get<std::string>();
    const json& entries = j.at("entries");
    if (!entries.is_array()) throw Error(ExitCode::usage, source + ": entries: expected an array");
    for (size_t i = 0; i < entries.size(); ++i) {
      where = "entries[" + std::to_string(i) + "]";
      t.entries.push_back(read_entry(entries[i], version, where));
    }
    if (version != kSchemaVersion) {
      if (auto e = schema_violation(table_to_json(t)))
        throw Error(ExitCode::usage, source + " (migrated from schema version 4): " + *e);
    }
    if (auto e = repeated_key(t)) throw Error(ExitCode::usage, source + ": " + *e);
    return t;
  } catch (const json::exception& e) {
    throw Error(ExitCode::usage, source + ": " + where + ": " + readable(e));
  } catch (const std::invalid_argument& e) {
    throw Error(ExitCode::usage, source + ": " + where + ": " + e.what());
  }
}

TuningTable load_table(const std::string& path) { return table_from_json(read_file(path), path); }

void save_table(const std::string& path, const TuningTable& table) {
  const std::string text = table_to_json(table);
  // Never write what no reader would take: a value outside the schema or a repeated key is this tool's bug.
  std::optional<std::string> e = schema_violation(text);
  if (!e) e = repeated_key(table);
  if (e) throw std::logic_error(path + ": refusing to write a table that breaks its schema: " + *e);
  write_file_atomic(path, text);
}

std::string utc_now() {
  std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

TuningTable update_table(const std::string& path, const std::function<void(TuningTable&)>& change) {
  FileLock lock(path);
  TuningTable table;
  if (std::filesystem::exists(path)) table = load_table(path);
  change(table);
  save_table(path, table);
  return table;
}

}  // namespace gemmtune
