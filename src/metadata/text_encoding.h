// UTF-8 to UTF-16 for metadata names that end up in user strings.
#pragma once

#include <string>
#include <string_view>

namespace cil::md {

/// Decodes UTF-8; each byte of an invalid or truncated sequence becomes U+FFFD.
std::u16string utf8_to_utf16(std::string_view text);

/// `text` with every byte of an invalid or truncated UTF-8 sequence replaced by U+FFFD, so that
/// names from a hostile file still make valid JSON.
std::string valid_utf8(std::string_view text);

/// `text` as a JSON string literal, quotes included (invalid UTF-8 replaced as above).
std::string json_quote(std::string_view text);

}  // namespace cil::md
