// Text from files as the tool shows it: UTF-8 checked, escaped for terminals, cut to a cap.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace cil::md {

/// Decodes UTF-8; each byte of an invalid or truncated sequence becomes U+FFFD.
std::u16string utf8_to_utf16(std::string_view text);

/// `text` with every byte of an invalid or truncated UTF-8 sequence replaced by U+FFFD, so that
/// names from a hostile file still make valid JSON.
std::string valid_utf8(std::string_view text);

/// `text` as a JSON string literal, quotes included (invalid UTF-8 replaced as above).
std::string json_quote(std::string_view text);
/// json_quote(text) appended to `out` (no allocation once `out` has room).
void json_quote_append(std::string& out, std::string_view text);

/// Longest name or list quoted in an error or warning line (man page, LIMITS).
inline constexpr size_t kMaxQuotedText = 1024;

/// `text` safe to print on a terminal and to split into lines: every control character (C0,
/// DEL and C1, so also newlines and tabs inside a name), every byte that is not part of valid
/// UTF-8, and the Unicode line separators and bidirectional controls, which make a terminal or
/// an editor show something else than the bytes, are written as escapes: \xHH for a byte
/// (\x1B), \uHHHH for a character (\u202E). A backslash stays as it is. A result longer than
/// `max_bytes` is cut, never inside an escape or a character, to end in "..." within them.
std::string printable(std::string_view text, size_t max_bytes = SIZE_MAX);

/// `text` cut to at most `max_bytes` (on a UTF-8 character boundary) followed by "...", or
/// unchanged when it fits.
std::string clip_text(std::string text, size_t max_bytes);

/// `items` joined with ", ", as many as fit in `max_bytes`, then ", ... (N more)" for the rest;
/// an item longer than the cap is itself cut.
std::string clip_list(const std::vector<std::string>& items, size_t max_bytes = kMaxQuotedText);

}  // namespace cil::md
