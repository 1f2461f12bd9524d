// Value formatting for the args log.
#include "profiler/arg_text.h"

#include <cmath>
#include <cstring>

#include <fmt/format.h>

#include "profiler/wide_string.h"

namespace cil::profiler {

namespace {

std::string char_escape(char16_t c, char quote) {
  switch (c) {
    case u'\\': return "\\\\";
    case u'\n': return "\\n";
    case u'\r': return "\\r";
    case u'\t': return "\\t";
    case u'\0': return "\\0";
    default: break;
  }
  if (c == static_cast<char16_t>(quote)) return std::string("\\") + quote;
  if (c < 0x20 || c == 0x7F || (c >= 0xD800 && c <= 0xDFFF)) return fmt::format("\\u{:04X}", static_cast<unsigned>(c));
  return to_utf8(std::u16string_view(&c, 1));
}

}  // namespace

std::string double_text(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "Infinity" : "-Infinity";
  return fmt::format("{}", value);
}

std::optional<std::string> primitive_text(md::ElementType element, const uint8_t* data, size_t size) {
  using md::ElementType;
  auto need = [&](size_t n) { return data && size >= n; };
  switch (element) {
    case ElementType::Boolean:
      if (!need(1)) break;
      return std::string(data[0] ? "true" : "false");
    case ElementType::Char:
      if (!need(2)) break;
      return "'" + char_escape(load<char16_t>(data), '\'') + "'";
    case ElementType::I1:
      if (!need(1)) break;
      return fmt::format("{}", load<int8_t>(data));
    case ElementType::U1:
      if (!need(1)) break;
      return fmt::format("{}", load<uint8_t>(data));
    case ElementType::I2:
      if (!need(2)) break;
      return fmt::format("{}", load<int16_t>(data));
    case ElementType::U2:
      if (!need(2)) break;
      return fmt::format("{}", load<uint16_t>(data));
    case ElementType::I4:
      if (!need(4)) break;
      return fmt::format("{}", load<int32_t>(data));
    case ElementType::U4:
      if (!need(4)) break;
      return fmt::format("{}", load<uint32_t>(data));
    case ElementType::I8:
    case ElementType::I:
      if (!need(8)) break;
      return fmt::format("{}", load<int64_t>(data));
    case ElementType::U8:
    case ElementType::U:
      if (!need(8)) break;
      return fmt::format("{}", load<uint64_t>(data));
    case ElementType::R4:
      if (!need(4)) break;
      return double_text(load<float>(data));
    case ElementType::R8:
      if (!need(8)) break;
      return double_text(load<double>(data));
    default: break;
  }
  return std::nullopt;
}

std::string string_literal(std::u16string_view text) {
  std::string out = "\"";
  size_t shown = std::min(text.size(), kMaxStringChars);
  for (size_t i = 0; i < shown; ++i) {
    char16_t c = text[i];
    // A valid surrogate pair stays one character.
    if (c >= 0xD800 && c <= 0xDBFF && i + 1 < shown && text[i + 1] >= 0xDC00 && text[i + 1] <= 0xDFFF) {
      out += to_utf8(text.substr(i, 2));
      ++i;
      continue;
    }
    out += char_escape(c, '"');
  }
  out += '"';
  if (text.size() > shown) out += "...";
  return out;
}

std::optional<md::ElementType> primitive_of(std::string_view name) {
  using md::ElementType;
  static const std::pair<std::string_view, ElementType> kNames[] = {
      {"System.Boolean", ElementType::Boolean}, {"System.Char", ElementType::Char},     {"System.SByte", ElementType::I1},
      {"System.Byte", ElementType::U1},         {"System.Int16", ElementType::I2},      {"System.UInt16", ElementType::U2},
      {"System.Int32", ElementType::I4},        {"System.UInt32", ElementType::U4},     {"System.Int64", ElementType::I8},
      {"System.UInt64", ElementType::U8},       {"System.Single", ElementType::R4},     {"System.Double", ElementType::R8},
      {"System.IntPtr", ElementType::I},        {"System.UIntPtr", ElementType::U},
  };
  for (const auto& [n, e] : kNames)
    if (n == name) return e;
  return std::nullopt;
}

}  // namespace cil::profiler
