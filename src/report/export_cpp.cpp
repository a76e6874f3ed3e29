#include "report/export_cpp.hpp"

#include <nlohmann/json.hpp>

#include <cctype>
#include <cstdio>
#include <set>

#include "core/error.hpp"
#include "report/lookup.hpp"

namespace gemmtune {

bool cpp_identifier(const std::string& s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  for (char c : s) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  }
  return true;
}

void check_namespace_name(const std::string& ns) {
  static const std::set<std::string> keywords = {
      "alignas",     "alignof",   "and",        "and_eq",    "asm",      "auto",         "bitand",
      "bitor",       "bool",      "break",      "case",      "catch",    "char",         "char8_t",
      "char16_t",    "char32_t",  "class",      "compl",     "concept",  "const",        "consteval",
      "constexpr",   "constinit", "const_cast", "continue",  "co_await", "co_return",    "co_yield",
      "decltype",    "default",   "delete",     "do",        "double",   "dynamic_cast", "else",
      "enum",        "explicit",  "export",     "extern",    "false",    "float",        "for",
      "friend",      "goto",      "if",         "inline",    "int",      "long",         "mutable",
      "namespace",   "new",       "noexcept",   "not",       "not_eq",   "nullptr",      "operator",
      "or",          "or_eq",     "private",    "protected", "public",   "register",     "reinterpret_cast",
      "requires",    "return",    "short",      "signed",    "sizeof",   "static",       "static_assert",
      "static_cast", "struct",    "switch",     "template",  "this",     "thread_local", "throw",
      "true",        "try",       "typedef",    "typeid",    "typename", "union",        "unsigned",
      "using",       "virtual",   "void",       "volatile",  "wchar_t",  "while",        "xor",
      "xor_eq"};
  if (!cpp_identifier(ns)) throw usage_error("--namespace", ns, "not a C++ identifier");
  if (keywords.count(ns)) throw usage_error("--namespace", ns, "a C++ keyword");
  if (ns.find("__") != std::string::npos || (ns.size() > 1 && ns[0] == '_' && std::isupper((unsigned char)ns[1])))
    throw usage_error("--namespace", ns, "reserved to the implementation (a double underscore, or _ and a capital)");
  if (ns == "std") throw usage_error("--namespace", ns, "the standard library's namespace");
}

// JSON's escaping is valid C++ for the characters tables hold.
std::string cpp_literal(const std::string& s) { return nlohmann::json(s).dump(); }

std::string lookup_source(const TuningTable& table, const ShapeNeedsOf& needs_of, const std::string& extra_field,
                          const std::function<std::string(const TableEntry&)>& extra_value) {
  std::string h;
  h += "struct TunedEntry {\n  std::uint64_t m, n, k, batch;\n  std::string_view dtype, layout, variant, config;\n"
       "  std::string_view numerics;  // \"native\", or the emulation the config computes with\n"
       "  bool plain;  // alpha 1, beta 0, no epilogue, fast, hot\n  double median_us;\n"
       "  // What the config needs of another shape (its kernel family's rule): M <= max_m, N >= min_n, K >= min_k,\n"
       "  // N and K multiples of n_multiple and k_multiple, and K giving `splits` split-k ranges of at least 64 "
       "terms;\n"
       "  // serves_other false: only its own shape (a variant this gemmtune did not know).\n"
       "  bool serves_other;\n  std::uint64_t max_m, min_n, min_k, n_multiple, k_multiple;\n  std::uint32_t "
       "splits;\n" +
       extra_field + "};\n\n";
  h += "inline constexpr TunedEntry kEntries[] = {\n";
  size_t count = 0;
  for (const TableEntry& e : table.entries) {
    if (!e.best) continue;
    const std::optional<ShapeNeeds> needs = needs_of(*e.best, e.dtype, e.layout);
    const ShapeNeeds n = needs.value_or(ShapeNeeds{});
    char us[64];
    std::snprintf(us, sizeof us, "%.17g", e.best->median_us);
    h += "    {" + std::to_string(e.m) + ", " + std::to_string(e.n) + ", " + std::to_string(e.k) + ", " +
         std::to_string(e.batch) + ", " + cpp_literal(e.dtype) + ", " + cpp_literal(e.layout) + ", " +
         cpp_literal(e.best->variant) + ", " + cpp_literal(e.best->name) + ", " + cpp_literal(e.best->numerics) + ", " +
         (plain_operation(e) ? "true" : "false") + ", " + us + ", " + (needs ? "true" : "false") + ", " +
         std::to_string(n.max_m) + "u, " + std::to_string(n.min_n) + ", " + std::to_string(n.min_k) + ", " +
         std::to_string(n.n_multiple) + ", " + std::to_string(n.k_multiple) + ", " + std::to_string(n.splits) +
         (extra_value ? ", " + extra_value(e) : std::string()) + "},\n";
    ++count;
  }
  if (count == 0)
    h += "    {0, 0, 0, 1, \"\", \"\", \"\", \"\", \"\", false, 0.0, false, 0, 1, 1, 1, 1, 1},  // no verified "
         "entries: never "
         "matches\n";
  h += "};\n\n";
  // Config names hold a dtype's token, not its name, where they differ (the quantized types).
  h += "inline std::string dtype_token(std::string_view dtype) {\n";
  for (DType d : kAllDTypes) {
    if (dtype_name(d) != dtype_token(d))
      h += "  if (dtype == " + cpp_literal(std::string(dtype_name(d))) + ") return " +
           cpp_literal(std::string(dtype_token(d))) + ";\n";
  }
  h += "  return std::string(dtype);\n}\n\n";
  h += R"(struct Choice {
  std::string config;
  std::string_view rule;  // "exact", "nearest" or "default"
  const TunedEntry* from; // null for the default
};

// gemmtune's split-k ranges: ceil(K / S) rounded up to a multiple of 32 terms each, at least 64, the last included.
inline bool split_ranges_fit(std::uint64_t k, std::uint32_t splits) {
  if (splits <= 1) return true;
  const std::uint64_t range = ((k + splits - 1) / splits + 31) / 32 * 32;
  return range >= 64 && k >= (splits - 1) * range + 64;
}

inline bool serves(const TunedEntry& e, std::uint64_t m, std::uint64_t n, std::uint64_t k) {
  if (!e.serves_other) return false;  // only its own shape and batch: the exact rule
  return m <= e.max_m && n >= e.min_n && k >= e.min_k && n % e.n_multiple == 0 && k % e.k_multiple == 0 &&
         split_ranges_fit(k, e.splits);
}

inline Choice lookup(std::uint64_t m, std::uint64_t n, std::uint64_t k, std::string_view dtype,
                     std::string_view layout, std::uint64_t batch = 1) {
  const TunedEntry* exact = nullptr;
  const TunedEntry* nearest = nullptr;
  double best = 0.0;
  for (const TunedEntry& e : kEntries) {
    if (e.m == 0 || e.dtype != dtype || e.layout != layout) continue;
    if (e.m == m && e.n == n && e.k == k && e.batch == batch && (!exact || (e.plain && !exact->plain))) exact = &e;
    if (!serves(e, m, n, k)) continue;
    const double dm = std::log(double(e.m)) - std::log(double(m));
    const double dn = std::log(double(e.n)) - std::log(double(n));
    const double dk = std::log(double(e.k)) - std::log(double(k));
    const double db = std::log(double(e.batch)) - std::log(double(batch));
    const double d = std::sqrt(dm * dm + dn * dn + dk * dk + db * db);
    if (!nearest || d < best || (d == best && e.plain && !nearest->plain)) {
      nearest = &e;
      best = d;
    }
  }
  if (exact) return {std::string(exact->config), "exact", exact};
  if (nearest) return {std::string(nearest->config), "nearest", nearest};
  return {DEFAULT_CONFIG, "default", nullptr};
}

)";
  // The default config as lookup_config names it (report/lookup.cpp), its dtype filled in at run time.
  const std::string pattern = default_config("\x01");
  const size_t at = pattern.find('\x01');
  const std::string expression =
      cpp_literal(pattern.substr(0, at)) + " + dtype_token(dtype) + " + cpp_literal(pattern.substr(at + 1));
  h.replace(h.find("DEFAULT_CONFIG"), std::string("DEFAULT_CONFIG").size(), expression);
  return h;
}

std::string export_cpp_header(const TuningTable& table, const std::string& ns, const std::string& source,
                              const ShapeNeedsOf& needs_of) {
  check_namespace_name(ns);
  std::string h;
  h += "// Generated by gemmtune export from " + source + ": " + table.device.name + ", driver " +
       table.device.driver_version + ", gemmtune " + table.tool.version + " (" + table.tool.git +
       "). Do not edit; export again.\n";
  h += "// lookup() applies gemmtune lookup's rule: the exact shape and batch, else the nearest verified entry of the\n"
       "// same dtype and layout on (ln M, ln N, ln K, ln batch) whose config can serve the shape, else the default.\n";
  h += "#pragma once\n\n#include <cmath>\n#include <cstddef>\n#include <cstdint>\n#include <string>\n#include "
       "<string_view>\n\n";
  h += "namespace " + ns + " {\n\n";
  h += "inline constexpr std::string_view kDevice = " + cpp_literal(table.device.name) + ";\n";
  h += "inline constexpr std::string_view kDriverVersion = " + cpp_literal(table.device.driver_version) + ";\n\n";
  h += lookup_source(table, needs_of, "", nullptr);
  h += "}  // namespace " + ns + "\n";
  return h;
}

}  // namespace gemmtune
