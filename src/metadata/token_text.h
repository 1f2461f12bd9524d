// A token as the tool writes it everywhere: listings, messages, and the method keys of the counts
// and hits files (the runtime contract): "0x" and 8 upper-case hexadecimal digits ("0x0600002A").
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "metadata/schema.h"

namespace cil::md {

inline constexpr std::string_view kTokenPrefix = "0x";
inline constexpr size_t kTokenDigits = 8;

/// Appends the 8 digits of `token` to a string or byte vector (no formatting pass: count mode
/// makes one per method).
template <class Out>
void append_token_digits(Out& out, Token token) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  for (size_t i = 0; i < kTokenDigits; ++i) out.push_back(kHex[(token.value() >> (28 - 4 * i)) & 0xF]);
}

/// `token` as text: the prefix, then its 8 digits.
inline std::string token_text(Token token) {
  std::string out(kTokenPrefix);
  append_token_digits(out, token);
  return out;
}

}  // namespace cil::md
