#include "report/schemas.hpp"

#include "schemas_text.hpp"

namespace gemmtune {

const JsonSchema& table_schema() {
  static const JsonSchema schema(nlohmann::json::parse(kTableSchemaJson));
  return schema;
}

const JsonSchema& journal_record_schema() {
  static const JsonSchema schema(nlohmann::json::parse(kJournalRecordSchemaJson));
  return schema;
}

const JsonSchema& anchor_line_schema() {
  static const JsonSchema schema(nlohmann::json::parse(kAnchorLineSchemaJson));
  return schema;
}

}  // namespace gemmtune
