// The JSON Schema subset validator (src/report/json_schema.hpp): each keyword's rule and message, and schemas it
// cannot honour refused when loaded.
#include <gtest/gtest.h>

#include <stdexcept>

#include "report/json_schema.hpp"
#include "report/schemas.hpp"
#include "report/table.hpp"

namespace gemmtune {
namespace {

using json = nlohmann::json;

std::string error_of(const char* schema, const char* document) {
  return JsonSchema(json::parse(schema)).first_error(json::parse(document)).value_or("valid");
}

TEST(JsonSchema, EachKeywordRefusesWithThePathTheValueAndTheRule) {
  EXPECT_EQ(error_of(R"({"type": "integer"})", "1.0"), "valid");  // JSON Schema counts 1.0 as an integer
  EXPECT_EQ(error_of(R"({"type": "integer"})", "1.5"), "top level: 1.5: expected integer");
  EXPECT_EQ(error_of(R"({"type": ["number", "null"]})", "\"x\""), "top level: \"x\": expected number or null");
  EXPECT_EQ(error_of(R"({"const": 5})", "4"), "top level: 4: expected 5");
  EXPECT_EQ(error_of(R"({"enum": ["nn", "nt"]})", "\"xx\""), "top level: \"xx\": not one of \"nn\", \"nt\"");
  EXPECT_EQ(error_of(R"({"minimum": 0})", "-5"), "top level: -5: below the minimum 0");
  EXPECT_EQ(error_of(R"({"exclusiveMinimum": 0})", "0"), "top level: 0: must be greater than 0");
  EXPECT_EQ(error_of(R"({"maximum": 1})", "2"), "top level: 2: above the maximum 1");
  EXPECT_EQ(error_of(R"({"minimum": 0})", "\"-5\""), "valid");  // bounds apply to numbers only
  EXPECT_EQ(error_of(R"({"pattern": "^[a-z]+[0-9]$"})", "\"ab\""), "top level: \"ab\": does not match ^[a-z]+[0-9]$");
  EXPECT_EQ(error_of(R"({"required": ["a"]})", "{}"), "a: missing (required)");
  EXPECT_EQ(error_of(R"({"properties": {"a": {"properties": {"b": {"type": "string"}}}}})", R"({"a": {"b": 1}})"),
            "a.b: 1: expected string");
  EXPECT_EQ(error_of(R"({"additionalProperties": false})", R"({"x": 1})"), "x: 1: not an allowed key");
  EXPECT_EQ(error_of(R"({"additionalProperties": {"type": "integer"}})", R"({"x": "y"})"),
            "x: \"y\": expected integer");
  EXPECT_EQ(error_of(R"({"items": {"minimum": 0}})", "[1, 2, -3]"), "top level[2]: -3: below the minimum 0");
  EXPECT_EQ(
      error_of(R"({"$defs": {"n": {"type": "integer"}}, "properties": {"a": {"$ref": "#/$defs/n"}}})", R"({"a": "1"})"),
      "a: \"1\": expected integer");
  EXPECT_EQ(error_of(R"({"anyOf": [{"type": "string"}, {"minimum": 3}]})", "2"), "top level: 2: below the minimum 3");
  EXPECT_EQ(error_of(R"({"anyOf": [{"type": "string"}, {"minimum": 3}]})", "4"), "valid");
}

TEST(JsonSchema, OneOfNeedsExactlyOneAndReportsTheAlternativeOfTheValuesType) {
  const char* schema = R"({"$defs": {"peak": {"type": "object", "required": ["f"]}},
                           "oneOf": [{"type": "null"}, {"$ref": "#/$defs/peak"}]})";
  EXPECT_EQ(error_of(schema, "null"), "valid");
  EXPECT_EQ(error_of(schema, R"({"f": 1})"), "valid");
  EXPECT_EQ(error_of(schema, "{}"), "f: missing (required)");  // not "expected null"
  EXPECT_EQ(error_of(R"({"oneOf": [{"minimum": 0}, {"maximum": 10}]})", "5"),
            "top level: 5: matches 2 alternatives of oneOf, not one");
}

TEST(JsonSchema, RefusesToLoadWhatItWouldSkip) {
  EXPECT_THROW(JsonSchema(json::parse(R"({"uniqueItems": true})")), std::invalid_argument);
  EXPECT_THROW(JsonSchema(json::parse(R"({"properties": {"a": {"format": "date"}}})")), std::invalid_argument);
  EXPECT_THROW(JsonSchema(json::parse(R"({"$ref": "#/$defs/missing"})")), std::invalid_argument);
  EXPECT_THROW(JsonSchema(json::parse(R"({"$ref": "other.json"})")), std::invalid_argument);
  EXPECT_THROW(JsonSchema(json::parse(R"({"pattern": "("})")), std::invalid_argument);
  EXPECT_THROW(JsonSchema(json::parse(R"({"type": "float"})")), std::invalid_argument);
  try {
    JsonSchema(json::parse(R"({"properties": {"a": {"format": "date"}}})"));
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()), "#/properties/a/format: keyword outside the supported subset");
  }
}

TEST(JsonSchema, TheBuiltInTableSchemaLoadsAndHoldsTheTablesWeWrite) {
  TuningTable table;
  table.tool = {"gemmtune", "0.1.0", "abc"};
  table.created = "2026-12-04T00:00:00Z";
  table.timing = "timestamps";
  EXPECT_FALSE(table_schema().first_error(json::parse(table_to_json(table))));
  json damaged = json::parse(table_to_json(table));
  damaged["timing"] = "sundial";
  EXPECT_EQ(table_schema().first_error(damaged).value_or("valid"),
            "timing: \"sundial\": not one of \"timestamps\", \"host\"");
}

}  // namespace
}  // namespace gemmtune
