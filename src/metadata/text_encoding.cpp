// A strict UTF-8 decoder (no overlongs, no surrogates, nothing above U+10FFFF), and the escaping
// and cutting of text from files before it is printed.
#include "metadata/text_encoding.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <fmt/format.h>

namespace cil::md {

namespace {

/// Length of the valid UTF-8 sequence at text[i], or 0 when it is not one; its code point in
/// `code` when given.
size_t sequence_length(std::string_view text, size_t i, uint32_t* code = nullptr) {
  unsigned char c = static_cast<unsigned char>(text[i]);
  uint32_t cp = 0, extra = 0, min = 0;
  if (c < 0x80) {
    if (code) *code = c;
    return 1;
  }
  if ((c & 0xE0) == 0xC0) { cp = c & 0x1F; extra = 1; min = 0x80; }
  else if ((c & 0xF0) == 0xE0) { cp = c & 0x0F; extra = 2; min = 0x800; }
  else if ((c & 0xF8) == 0xF0) { cp = c & 0x07; extra = 3; min = 0x10000; }
  else return 0;
  if (i + extra >= text.size()) return 0;
  for (uint32_t k = 1; k <= extra; ++k) {
    unsigned char next = static_cast<unsigned char>(text[i + k]);
    if ((next & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (next & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  if (code) *code = cp;
  return 1 + extra;
}

/// Characters shown as \uHHHH: C1 controls (U+0085 is a line break to some tools), the line
/// and paragraph separators, and the bidirectional marks, embeddings, overrides and isolates.
bool escaped_code_point(uint32_t cp) {
  return (cp >= 0x80 && cp <= 0x9F) || cp == 0x2028 || cp == 0x2029 || cp == 0x200E || cp == 0x200F ||
         (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069) || cp == 0x061C;
}

bool plain_ascii(unsigned char c) { return c >= 0x20 && c < 0x7F; }

}  // namespace

std::string printable(std::string_view text, size_t max_bytes) {
  // Nearly every name is printable ASCII and short: copy it whole.
  if (text.size() <= max_bytes &&
      std::all_of(text.begin(), text.end(), [](char c) { return plain_ascii(static_cast<unsigned char>(c)); }))
    return std::string(text);
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(std::min(text.size(), max_bytes));
  size_t fits = 0;  // the longest run of whole pieces that leaves room for "..."
  for (size_t i = 0; i < text.size();) {
    uint32_t cp = 0;
    size_t n = sequence_length(text, i, &cp);
    char escape[6];
    std::string_view piece;
    if (n == 0 || (n == 1 && !plain_ascii(static_cast<unsigned char>(cp)))) {
      auto byte = static_cast<unsigned char>(text[i]);
      escape[0] = '\\', escape[1] = 'x', escape[2] = kHex[byte >> 4], escape[3] = kHex[byte & 0xF];
      piece = std::string_view(escape, 4);
      n = 1;
    } else if (escaped_code_point(cp)) {
      escape[0] = '\\', escape[1] = 'u';
      for (int k = 0; k < 4; ++k) escape[2 + k] = kHex[(cp >> (12 - 4 * k)) & 0xF];
      piece = std::string_view(escape, 6);
    } else {
      piece = text.substr(i, n);
    }
    if (out.size() + piece.size() + 3 <= max_bytes) fits = out.size() + piece.size();
    out += piece;
    if (out.size() > max_bytes) {
      out.resize(fits);
      out += "...";
      return out;
    }
    i += n;
  }
  return out;
}

std::string clip_text(std::string text, size_t max_bytes) {
  if (text.size() <= max_bytes) return text;
  size_t end = max_bytes;
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
  text.resize(end);
  text += "...";
  return text;
}

std::string clip_list(const std::vector<std::string>& items, size_t max_bytes) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) {
    std::string item = clip_text(items[i], max_bytes);
    size_t needed = (out.empty() ? 0 : 2) + item.size();
    if (!out.empty() && out.size() + needed > max_bytes) {
      out += fmt::format(", ... ({} more)", items.size() - i);
      return out;
    }
    if (!out.empty()) out += ", ";
    out += item;
  }
  return out;
}

std::string valid_utf8(std::string_view text) {
  // Nearly every name is ASCII: copy it whole.
  if (std::all_of(text.begin(), text.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; }))
    return std::string(text);
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    size_t n = sequence_length(text, i);
    if (n == 0) {
      out += "\xEF\xBF\xBD";
      ++i;
    } else {
      out.append(text.substr(i, n));
      i += n;
    }
  }
  return out;
}

namespace {

/// Per byte: 0 copied as is, 1 escaped, 2 not ASCII (the text is checked as UTF-8 first).
constexpr auto kJsonClass = [] {
  std::array<uint8_t, 256> k{};
  for (int c = 0; c < 0x20; ++c) k[c] = 1;
  k['"'] = k['\\'] = 1;
  for (int c = 0x80; c < 0x100; ++c) k[c] = 2;
  return k;
}();

/// Appends `raw` to `out` with JSON's escapes, copying runs that need none whole. False, with
/// `out` unfinished, at the first byte over 0x7F unless `utf8_valid`.
/// The bytes of `w` (eight, little-endian) that need a look: under 0x20, over 0x7F, '"' or '\\'.
/// The classic "has a zero byte" test, (x - 0x01..) & ~x & 0x80..: a byte's high bit is set in the
/// result when it needs a look, and above the first such byte a clear one may read as set too (a
/// borrow), so the lowest set bit names the first byte exactly; zero when none does.
uint64_t special_bytes(uint64_t w) {
  constexpr uint64_t kOnes = 0x0101010101010101ull, kHigh = 0x8080808080808080ull;
  auto zero_bytes = [](uint64_t x) { return (x - kOnes) & ~x & kHigh; };
  uint64_t below_space = (w - kOnes * 0x20) & ~w & kHigh;  // under 0x20 (bytes over 0x7F are caught below)
  return (w & kHigh) | below_space | zero_bytes(w ^ (kOnes * '"')) | zero_bytes(w ^ (kOnes * '\\'));
}

/// The first byte of `raw` at or after `i` that needs a look (kJsonClass nonzero), or raw.size():
/// sixteen bytes at a time where SSE2 is there (a signed compare below 0x20 also catches every
/// byte over 0x7F), then eight (special_bytes), then the last few one by one.
size_t next_special(std::string_view raw, size_t i) {
#if defined(__SSE2__)
  const __m128i space = _mm_set1_epi8(0x20), quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\');
  while (i + 16 <= raw.size()) {
    __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(raw.data() + i));
    __m128i hit = _mm_or_si128(_mm_cmplt_epi8(v, space), _mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash)));
    if (int mask = _mm_movemask_epi8(hit)) return i + static_cast<size_t>(std::countr_zero(static_cast<unsigned>(mask)));
    i += 16;
  }
#endif
  while (i + 8 <= raw.size()) {
    uint64_t w;
    std::memcpy(&w, raw.data() + i, 8);
    if (uint64_t special = special_bytes(w)) return i + static_cast<size_t>(std::countr_zero(special)) / 8;
    i += 8;
  }
  while (i < raw.size() && kJsonClass[static_cast<unsigned char>(raw[i])] == 0) ++i;
  return i;
}

bool escape_into(std::string& out, std::string_view raw, bool utf8_valid) {
  size_t run = 0;
  for (size_t i = next_special(raw, 0); i < raw.size(); i = next_special(raw, i + 1)) {
    auto c = static_cast<unsigned char>(raw[i]);
    uint8_t kind = kJsonClass[c];
    if (kind == 2) {
      if (!utf8_valid) return false;
      continue;
    }
    out.append(raw.substr(run, i - run));
    run = i + 1;
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default: {
        static constexpr char kHex[] = "0123456789abcdef";
        out += "\\u00";
        out += kHex[c >> 4];
        out += kHex[c & 0xF];
      }
    }
  }
  out.append(raw.substr(run));
  return true;
}

}  // namespace

void json_quote_append(std::string& out, std::string_view raw) {
  // One pass for ASCII (nearly every name and description); text with other bytes is made valid
  // UTF-8 first and escaped again.
  size_t start = out.size();
  out += '"';
  if (!escape_into(out, raw, false)) {
    out.resize(start + 1);
    escape_into(out, valid_utf8(raw), true);
  }
  out += '"';
}

std::string json_quote(std::string_view raw) {
  std::string out;
  out.reserve(raw.size() + 8);
  json_quote_append(out, raw);
  return out;
}

std::u16string utf8_to_utf16(std::string_view text) {
  std::u16string out;
  out.reserve(text.size());
  size_t i = 0;
  while (i < text.size()) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    uint32_t cp = 0, extra = 0, min = 0;
    if (c < 0x80) { cp = c; }
    else if ((c & 0xE0) == 0xC0) { cp = c & 0x1F; extra = 1; min = 0x80; }
    else if ((c & 0xF0) == 0xE0) { cp = c & 0x0F; extra = 2; min = 0x800; }
    else if ((c & 0xF8) == 0xF0) { cp = c & 0x07; extra = 3; min = 0x10000; }
    else { out.push_back(0xFFFD); ++i; continue; }
    bool valid = i + extra < text.size();
    for (uint32_t k = 1; valid && k <= extra; ++k) {
      unsigned char next = static_cast<unsigned char>(text[i + k]);
      if ((next & 0xC0) != 0x80) valid = false;
      else cp = (cp << 6) | (next & 0x3F);
    }
    if (!valid || cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
      out.push_back(0xFFFD);
      ++i;
      continue;
    }
    i += 1 + extra;
    if (cp >= 0x10000) {
      cp -= 0x10000;
      out.push_back(static_cast<char16_t>(0xD800 + (cp >> 10)));
      out.push_back(static_cast<char16_t>(0xDC00 + (cp & 0x3FF)));
    } else {
      out.push_back(static_cast<char16_t>(cp));
    }
  }
  return out;
}

}  // namespace cil::md
