#pragma once
// A validator for the part of JSON Schema (draft 2020-12) that gemmtune's published schemas use: type, enum,
// const, properties, required, additionalProperties, items, minimum, exclusiveMinimum, maximum, pattern, oneOf,
// anyOf and $ref into #/$defs (title, description, $schema and $id are annotations). Loading a schema that uses
// any other keyword fails, so a schema can never ask for a rule this validator would skip in silence.
#include <map>
#include <optional>
#include <regex>
#include <string>

#include <nlohmann/json.hpp>

namespace gemmtune {

class JsonSchema {
 public:
  /// Throws std::invalid_argument naming the keyword and where it is, for a keyword outside the subset, a
  /// malformed value of one, or a $ref that resolves nowhere.
  explicit JsonSchema(nlohmann::json schema);

  /// The first violation in document order, as "PATH: VALUE: RULE" (PATH like entries[3].best.median_us, "top
  /// level" for the document itself), or nothing where `document` is valid.
  std::optional<std::string> first_error(const nlohmann::json& document) const;

 private:
  void check_keywords(const nlohmann::json& node, const std::string& where);
  std::optional<std::string> validate(const nlohmann::json& node, const nlohmann::json& value,
                                      const std::string& path) const;
  // The keywords on one value (type, const, enum, the bounds, pattern), an object's members, oneOf and anyOf.
  std::optional<std::string> validate_value(const nlohmann::json& node, const nlohmann::json& value,
                                            const std::string& path) const;
  std::optional<std::string> validate_members(const nlohmann::json& node, const nlohmann::json& value,
                                              const std::string& path) const;
  std::optional<std::string> validate_alternatives(const nlohmann::json& node, const nlohmann::json& value,
                                                   const std::string& path) const;
  const nlohmann::json& resolve(const std::string& ref) const;

  nlohmann::json schema_;
  std::map<std::string, std::regex> patterns_;
};

}  // namespace gemmtune
