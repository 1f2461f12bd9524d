// How the args log writes a value: numbers, characters, strings (quoted and escaped, long
// ones cut), as C# would write the literal where it can.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>

#include "metadata/signature.h"

namespace cil::profiler {

/// A T read from the bytes at `data` (runtime memory, native byte order; no alignment needed).
template <class T>
T load(const uint8_t* data) {
  T value;
  std::memcpy(&value, data, sizeof(T));
  return value;
}

/// Longest string shown in full; longer ones end in "..." after this many characters.
inline constexpr size_t kMaxStringChars = 200;

/// The bytes of a primitive value (bool, char, integers, floating point, native ints) as text;
/// nullopt when `element` is not one of those or `size` is too small for it.
std::optional<std::string> primitive_text(md::ElementType element, const uint8_t* data, size_t size);

/// "text" with C# escapes (\" \\ \n \t \uXXXX), cut after kMaxStringChars characters.
std::string string_literal(std::u16string_view text);

/// A double as .NET Core writes it (shortest round trip), with NaN and Infinity spelled out.
std::string double_text(double value);

/// The primitive element type of a well-known framework type name (System.Int32 -> I4), for
/// generic arguments; nullopt for any other name.
std::optional<md::ElementType> primitive_of(std::string_view type_name);

}  // namespace cil::profiler
