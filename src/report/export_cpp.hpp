// `gemmtune export --format cpp`: a self-contained C++17 header with a table's verified entries as constexpr
// data and the lookup rule of report/lookup.hpp as a function. No GPU.
#pragma once

#include <functional>
#include <string>

#include "report/lookup.hpp"
#include "report/table.hpp"

namespace gemmtune {

/// The header's text; `ns` is the namespace it declares (a C++ identifier, checked: usage Error otherwise);
/// `source` names the table in its first comment. Each entry carries its config's shape needs (`needs_of`), which
/// the header's lookup checks as gemmtune lookup does; a config whose variant `needs_of` does not know serves only
/// its own shape there too.
std::string export_cpp_header(const TuningTable& table, const std::string& ns, const std::string& source,
                              const ShapeNeedsOf& needs_of);

/// A C++ identifier (letters, digits, '_', not starting with a digit).
bool cpp_identifier(const std::string& s);
/// Refuses (usage error naming --namespace) a namespace name the generated code could not use: not an identifier,
/// a C++ keyword or alternative token, or a name reserved to the implementation (a double underscore anywhere, an
/// underscore and a capital letter first) or the standard library's `std`.
void check_namespace_name(const std::string& ns);
/// A C++ string literal of `s`.
std::string cpp_literal(const std::string& s);

/// The lookup part of the headers `export` writes: struct TunedEntry (`extra_field`, a member declaration, last),
/// kEntries (the table's verified entries, `extra_value` giving that member's initializer), Choice and lookup().
std::string lookup_source(const TuningTable& table, const ShapeNeedsOf& needs_of, const std::string& extra_field,
                          const std::function<std::string(const TableEntry&)>& extra_value);

}  // namespace gemmtune
