// UTF-16 (WCHAR) strings from the runtime to UTF-8 and back.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace cil::profiler {

/// Room, in WCHARs, of the buffers the runtime writes type, method and module names into.
inline constexpr uint32_t kNameCapacity = 1024;
/// A name the runtime wrote into `buffer` as UTF-8: `length` WCHARs, which count the
/// terminating NUL (dropped, with any other trailing NULs).
std::string wide_name(const char16_t* buffer, uint32_t length);

/// Encodes UTF-16 as UTF-8; an unpaired surrogate becomes U+FFFD.
std::string to_utf8(std::u16string_view text);
/// Decodes UTF-8 (invalid bytes become U+FFFD).
std::u16string to_utf16(std::string_view text);

}  // namespace cil::profiler
