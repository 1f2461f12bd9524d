// UTF-16 (WCHAR) strings from the runtime to UTF-8 and back.
#pragma once

#include <string>
#include <string_view>

namespace cil::profiler {

/// Encodes UTF-16 as UTF-8; an unpaired surrogate becomes U+FFFD.
std::string to_utf8(std::u16string_view text);
/// Decodes UTF-8 (invalid bytes become U+FFFD).
std::u16string to_utf16(std::string_view text);

}  // namespace cil::profiler
