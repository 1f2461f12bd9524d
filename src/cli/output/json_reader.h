// A strict JSON (RFC 8259) reader into a small tree, with caps on nesting depth and value count
// so that no input can exhaust the stack or memory. It reads the count files of `report`.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "support/error.h"

namespace cil::cli {

/// One JSON value. Numbers keep their text, so that any valid number reads (even 1e400) and
/// the caller decides which it accepts.
class JsonValue {
 public:
  enum class Kind : uint8_t { Null, Bool, Number, String, Array, Object };
  using Member = std::pair<std::string, JsonValue>;

  Kind kind() const { return kind_; }
  bool is_null() const { return kind_ == Kind::Null; }
  bool is_bool() const { return kind_ == Kind::Bool; }
  bool is_number() const { return kind_ == Kind::Number; }
  bool is_string() const { return kind_ == Kind::String; }
  bool is_array() const { return kind_ == Kind::Array; }
  bool is_object() const { return kind_ == Kind::Object; }

  bool boolean() const { return boolean_; }
  /// A string's UTF-8 text, or a number's text as written.
  const std::string& text() const { return text_; }
  /// A number that is a non-negative integer (no fraction, no exponent) up to 2^64-1.
  std::optional<uint64_t> as_uint64() const;
  const std::vector<JsonValue>& items() const { return items_; }
  /// Members in document order; keys are unique (the reader rejects duplicates).
  const std::vector<Member>& members() const { return members_; }
  /// The member named `key`, or null when there is none (or this is not an object).
  const JsonValue* find(std::string_view key) const;

  /// The kind's name as messages use it: "null", "a boolean", "a number", "a string"...
  static const char* kind_name(Kind kind);

 private:
  friend class JsonReader;
  Kind kind_ = Kind::Null;
  bool boolean_ = false;
  std::string text_;
  std::vector<JsonValue> items_;
  std::vector<Member> members_;
};

/// Caps of the reader (documented in cil-instrument(1), LIMITS).
struct JsonLimits {
  unsigned max_depth = 256;         ///< nested arrays and objects
  size_t max_values = 4'000'000;    ///< values of every kind, members' values included
};

/// Parses one JSON document (an optional UTF-8 byte order mark, one value, white space).
/// Errors are ErrorKind::Format or ErrorKind::Limit, with structure "JSON" and a message that
/// starts with "line L, column C:" (columns count bytes, from 1).
Expected<JsonValue> parse_json(std::string_view text, const JsonLimits& limits = {});

}  // namespace cil::cli
