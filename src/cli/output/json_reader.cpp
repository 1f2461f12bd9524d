// Recursive-descent JSON reader (RFC 8259): strict grammar, UTF-8 checked, \u escapes with
// surrogate pairs decoded, depth and value count capped.
#include "cli/output/json_reader.h"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>

namespace cil::cli {

std::optional<uint64_t> JsonValue::as_uint64() const {
  if (kind_ != Kind::Number || text_.empty() || text_.size() > 20) return std::nullopt;
  uint64_t value = 0;
  for (char c : text_) {
    if (c < '0' || c > '9') return std::nullopt;  // sign, fraction or exponent
    unsigned digit = static_cast<unsigned>(c - '0');
    if (value > (UINT64_MAX - digit) / 10) return std::nullopt;
    value = value * 10 + digit;
  }
  return value;
}

const JsonValue* JsonValue::find(std::string_view key) const {
  for (const auto& [name, value] : members_)
    if (name == key) return &value;
  return nullptr;
}

const char* JsonValue::kind_name(Kind kind) {
  switch (kind) {
    case Kind::Null: return "null";
    case Kind::Bool: return "a boolean";
    case Kind::Number: return "a number";
    case Kind::String: return "a string";
    case Kind::Array: return "an array";
    case Kind::Object: return "an object";
  }
  return "a value";
}

class JsonReader {
 public:
  JsonReader(std::string_view text, const JsonLimits& limits) : text_(text), limits_(limits) {}

  Expected<JsonValue> parse_document() {
    if (text_.substr(0, 3) == "\xEF\xBB\xBF") pos_ = 3;
    skip_space();
    JsonValue root;
    if (Status s = parse_value(root, 0); !s) return std::move(s).error();
    skip_space();
    if (pos_ != text_.size()) return error("unexpected " + describe(pos_) + " after the JSON value");
    return root;
  }

 private:
  Error error(std::string message, ErrorKind kind = ErrorKind::Format) const { return error_at(pos_, std::move(message), kind); }

  Error error_at(size_t pos, std::string message, ErrorKind kind = ErrorKind::Format) const {
    size_t line = 1, line_start = 0;
    for (size_t i = 0; i < pos && i < text_.size(); ++i)
      if (text_[i] == '\n') ++line, line_start = i + 1;
    return make_error(kind, "JSON", fmt::format("line {}, column {}: {}", line, pos - line_start + 1, message));
  }

  /// The byte at `pos` for a message: 'x' when printable, else its hex value.
  std::string describe(size_t pos) const {
    if (pos >= text_.size()) return "end of input";
    unsigned char c = static_cast<unsigned char>(text_[pos]);
    if (c >= 0x21 && c < 0x7F && c != '\'') return fmt::format("character '{}'", static_cast<char>(c));
    return fmt::format("byte 0x{:02X}", c);
  }

  bool at_end() const { return pos_ >= text_.size(); }
  char peek() const { return at_end() ? '\0' : text_[pos_]; }

  void skip_space() {
    while (!at_end() && (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\n' || text_[pos_] == '\r')) ++pos_;
  }

  Status parse_value(JsonValue& out, unsigned depth) {
    if (++values_ > limits_.max_values)
      return error(fmt::format("more than {} values", limits_.max_values), ErrorKind::Limit);
    if (at_end()) return error("unexpected end of input, expected a value");
    switch (peek()) {
      case '{': return parse_object(out, depth + 1);
      case '[': return parse_array(out, depth + 1);
      case '"':
        out.kind_ = JsonValue::Kind::String;
        return parse_string(out.text_);
      case 't': out.kind_ = JsonValue::Kind::Bool, out.boolean_ = true; return literal("true");
      case 'f': out.kind_ = JsonValue::Kind::Bool; return literal("false");
      case 'n': return literal("null");
      default:
        if (peek() == '-' || (peek() >= '0' && peek() <= '9')) {
          out.kind_ = JsonValue::Kind::Number;
          return parse_number(out.text_);
        }
        return error("unexpected " + describe(pos_) + ", expected a value");
    }
  }

  Status literal(std::string_view word) {
    size_t end = pos_;
    while (end < text_.size() && end - pos_ < 20 && std::isalnum(static_cast<unsigned char>(text_[end]))) ++end;
    if (text_.substr(pos_, end - pos_) != word)
      return error(fmt::format("invalid literal '{}', expected a value ('{}'?)", text_.substr(pos_, end - pos_), word));
    pos_ = end;
    return ok();
  }

  Status enter(unsigned depth) {
    if (depth > limits_.max_depth)
      return error(fmt::format("arrays and objects nested deeper than {} levels", limits_.max_depth), ErrorKind::Limit);
    ++pos_;  // the bracket
    skip_space();
    return ok();
  }

  Status parse_array(JsonValue& out, unsigned depth) {
    out.kind_ = JsonValue::Kind::Array;
    CIL_TRY(enter(depth));
    if (peek() == ']') {
      ++pos_;
      return ok();
    }
    for (;;) {
      CIL_TRY(parse_value(out.items_.emplace_back(), depth));
      skip_space();
      if (peek() == ',') {
        ++pos_;
        skip_space();
        continue;
      }
      if (peek() == ']') {
        ++pos_;
        return ok();
      }
      return error("unexpected " + describe(pos_) + ", expected ',' or ']' in an array");
    }
  }

  Status parse_object(JsonValue& out, unsigned depth) {
    out.kind_ = JsonValue::Kind::Object;
    CIL_TRY(enter(depth));
    if (peek() == '}') {
      ++pos_;
      return ok();
    }
    std::vector<size_t> key_positions;
    for (;;) {
      if (peek() != '"') return error("unexpected " + describe(pos_) + ", expected a string key in an object");
      key_positions.push_back(pos_);
      auto& member = out.members_.emplace_back();
      CIL_TRY(parse_string(member.first));
      skip_space();
      if (peek() != ':') return error("unexpected " + describe(pos_) + ", expected ':' after an object key");
      ++pos_;
      skip_space();
      CIL_TRY(parse_value(member.second, depth));
      skip_space();
      if (peek() == ',') {
        ++pos_;
        skip_space();
        continue;
      }
      if (peek() == '}') {
        ++pos_;
        break;
      }
      return error("unexpected " + describe(pos_) + ", expected ',' or '}' in an object");
    }
    // Duplicate keys: RFC 8259 leaves their meaning open, so refuse them.
    std::vector<size_t> order(out.members_.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](size_t x, size_t y) {
      return std::pair(std::string_view(out.members_[x].first), x) < std::pair(std::string_view(out.members_[y].first), y);
    });
    for (size_t i = 1; i < order.size(); ++i)
      if (out.members_[order[i]].first == out.members_[order[i - 1]].first)
        return error_at(key_positions[order[i]], fmt::format("duplicate key {}", printable_key(out.members_[order[i]].first)));
    return ok();
  }

  static std::string printable_key(const std::string& key) {
    std::string out = "\"";
    for (unsigned char c : key) {
      if (c < 0x20 || c == 0x7F) out += fmt::format("\\u{:04x}", c);
      else out += static_cast<char>(c);
    }
    return out + "\"";
  }

  static int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  }

  /// Reads the 4 hex digits after "\u" at pos_ (which points at the backslash).
  Expected<uint32_t> read_u_escape() {
    if (text_.substr(pos_, 2) != "\\u") return error("expected a \\u escape");
    uint32_t value = 0;
    for (size_t i = 2; i < 6; ++i) {
      int digit = pos_ + i < text_.size() ? hex_digit(text_[pos_ + i]) : -1;
      if (digit < 0) return error("invalid \\u escape: expected 4 hexadecimal digits");
      value = value * 16 + static_cast<uint32_t>(digit);
    }
    pos_ += 6;
    return value;
  }

  static void append_utf8(uint32_t cp, std::string& out) {
    if (cp < 0x80) {
      out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      out += static_cast<char>(0xC0 | (cp >> 6));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out += static_cast<char>(0xE0 | (cp >> 12));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (cp >> 18));
      out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    }
  }

  /// Length of the well-formed UTF-8 sequence at pos_ (Unicode 15, table 3-7), or 0.
  size_t utf8_length() const {
    auto byte = [&](size_t i) -> unsigned { return pos_ + i < text_.size() ? static_cast<unsigned char>(text_[pos_ + i]) : 0x100; };
    auto in = [](unsigned b, unsigned lo, unsigned hi) { return b >= lo && b <= hi; };
    unsigned b0 = byte(0);
    if (b0 < 0x80) return 1;
    if (in(b0, 0xC2, 0xDF)) return in(byte(1), 0x80, 0xBF) ? 2 : 0;
    if (in(b0, 0xE0, 0xEF)) {
      unsigned lo = b0 == 0xE0 ? 0xA0 : 0x80, hi = b0 == 0xED ? 0x9F : 0xBF;  // no overlong, no surrogates
      return in(byte(1), lo, hi) && in(byte(2), 0x80, 0xBF) ? 3 : 0;
    }
    if (in(b0, 0xF0, 0xF4)) {
      unsigned lo = b0 == 0xF0 ? 0x90 : 0x80, hi = b0 == 0xF4 ? 0x8F : 0xBF;  // no overlong, <= U+10FFFF
      return in(byte(1), lo, hi) && in(byte(2), 0x80, 0xBF) && in(byte(3), 0x80, 0xBF) ? 4 : 0;
    }
    return 0;
  }

  Status parse_string(std::string& out) {
    size_t start = pos_;
    ++pos_;  // the opening quote
    for (;;) {
      if (at_end()) return error_at(start, "string not terminated before the end of input");
      unsigned char c = static_cast<unsigned char>(text_[pos_]);
      if (c == '"') {
        ++pos_;
        return ok();
      }
      if (c < 0x20) return error(fmt::format("control character 0x{:02X} in a string (it must be escaped)", c));
      if (c >= 0x80) {
        size_t n = utf8_length();
        if (n == 0) return error(fmt::format("invalid UTF-8 sequence starting with byte 0x{:02X} in a string", c));
        out.append(text_.substr(pos_, n));
        pos_ += n;
        continue;
      }
      if (c != '\\') {
        out += static_cast<char>(c);
        ++pos_;
        continue;
      }
      char e = pos_ + 1 < text_.size() ? text_[pos_ + 1] : '\0';
      switch (e) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          size_t escape = pos_;
          uint32_t cp = CIL_TRY(read_u_escape());
          if (cp >= 0xDC00 && cp <= 0xDFFF)
            return error_at(escape, fmt::format("invalid \\u escape: low surrogate U+{:04X} without a high surrogate before it", cp));
          if (cp >= 0xD800 && cp <= 0xDBFF) {
            if (text_.substr(pos_, 2) != "\\u")
              return error_at(escape, fmt::format("invalid \\u escape: high surrogate U+{:04X} not followed by a low surrogate", cp));
            uint32_t low = CIL_TRY(read_u_escape());
            if (low < 0xDC00 || low > 0xDFFF)
              return error_at(escape, fmt::format("invalid \\u escape: high surrogate U+{:04X} followed by U+{:04X}, not a low surrogate", cp, low));
            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
          }
          append_utf8(cp, out);
          continue;
        }
        default:
          pos_ += 1;
          return error("invalid escape: '\\' followed by " + describe(pos_));
      }
      pos_ += 2;
    }
  }

  Status parse_number(std::string& out) {
    size_t start = pos_;
    auto digits = [&] {
      size_t from = pos_;
      while (!at_end() && peek() >= '0' && peek() <= '9') ++pos_;
      return pos_ - from;
    };
    if (peek() == '-') ++pos_;
    if (peek() == '0') {
      ++pos_;
      if (peek() >= '0' && peek() <= '9') return error("invalid number: leading zero");
    } else if (digits() == 0) {
      return error("invalid number: expected a digit after '-'");
    }
    if (peek() == '.') {
      ++pos_;
      if (digits() == 0) return error("invalid number: expected a digit after '.'");
    }
    if (peek() == 'e' || peek() == 'E') {
      ++pos_;
      if (peek() == '+' || peek() == '-') ++pos_;
      if (digits() == 0) return error("invalid number: expected a digit in the exponent");
    }
    out.assign(text_.substr(start, pos_ - start));
    return ok();
  }

  std::string_view text_;
  JsonLimits limits_;
  size_t pos_ = 0;
  size_t values_ = 0;
};

Expected<JsonValue> parse_json(std::string_view text, const JsonLimits& limits) {
  return JsonReader(text, limits).parse_document();
}

}  // namespace cil::cli
