// Header and exception-section bytes of a method body.
#include "il/body_writer.h"

#include "support/byte_reader.h"

namespace cil::il {

namespace {

Error writer_error(std::string message) { return make_error(ErrorKind::Format, "method body", std::move(message)); }

template <class T>
void append(std::vector<uint8_t>& out, T value) {
  uint8_t bytes[sizeof(T)];
  store_le(bytes, value);
  out.insert(out.end(), bytes, bytes + sizeof(T));
}

void append_u24(std::vector<uint8_t>& out, uint32_t value) {
  out.push_back(value & 0xFF);
  out.push_back((value >> 8) & 0xFF);
  out.push_back((value >> 16) & 0xFF);
}

bool fits_small(const ExceptionClause& c) {
  return c.try_offset <= 0xFFFF && c.try_length <= 0xFF && c.handler_offset <= 0xFFFF && c.handler_length <= 0xFF;
}

/// II.25.4.6: ClassToken for a catch, FilterOffset for a filter, zero otherwise.
uint32_t last_field(const ExceptionClause& c) {
  return c.kind == ClauseKind::Catch ? c.class_token.value() : c.kind == ClauseKind::Filter ? c.filter_offset : 0;
}

void write_clause(std::vector<uint8_t>& out, const ExceptionClause& c, bool fat) {
  if (fat) {
    append(out, static_cast<uint32_t>(c.kind));
    append(out, c.try_offset);
    append(out, c.try_length);
    append(out, c.handler_offset);
    append(out, c.handler_length);
  } else {
    append(out, static_cast<uint16_t>(c.kind));
    append(out, static_cast<uint16_t>(c.try_offset));
    out.push_back(static_cast<uint8_t>(c.try_length));
    append(out, static_cast<uint16_t>(c.handler_offset));
    out.push_back(static_cast<uint8_t>(c.handler_length));
  }
  append(out, last_field(c));
}

}  // namespace

bool fits_tiny_header(const HeaderFields& f) {
  return f.code_size <= kTinyMaxCodeSize && f.max_stack <= kTinyMaxStack && !f.local_sig_token && !f.has_clauses &&
         !f.init_locals;
}

void write_header(std::vector<uint8_t>& out, const HeaderFields& f) {
  if (fits_tiny_header(f) && !f.keep_fat) {
    out.push_back(static_cast<uint8_t>((f.code_size << 2) | kTinyFormat));
    return;
  }
  uint16_t flags = f.original_flags & static_cast<uint16_t>(~(kMoreSects | kInitLocals | kFormatMask));
  flags |= kFatFormat;
  if (f.init_locals) flags |= kInitLocals;
  if (f.has_clauses) flags |= kMoreSects;
  append(out, static_cast<uint16_t>(flags | (3u << 12)));  // Size: 3 four-byte words
  append(out, f.max_stack);
  append(out, f.code_size);
  append(out, f.local_sig_token.value());
}

Expected<EhSectionLayout> section_for(std::span<const ExceptionClause> clauses) {
  bool small = clauses.size() <= 20;
  for (const auto& c : clauses) small = small && fits_small(c);
  EhSectionLayout s;
  s.fat = !small;
  if (clauses.size() > (0xFFFFFF - 4) / 24) return writer_error("too many exception clauses for one section");
  s.clause_count = static_cast<uint32_t>(clauses.size());
  s.data_size = 4 + s.clause_count * (s.fat ? 24 : 12);
  return s;
}

Status write_eh_sections(std::vector<uint8_t>& out, std::span<const ExceptionClause> clauses,
                         std::span<const EhSectionLayout> layout) {
  size_t next = 0;
  for (size_t i = 0; i < layout.size(); ++i) {
    const EhSectionLayout& s = layout[i];
    while (out.size() % 4) out.push_back(0);
    size_t start = out.size();
    out.push_back(static_cast<uint8_t>(s.kind | (s.fat ? kSectFatFormat : 0) | (i + 1 < layout.size() ? kSectMoreSects : 0)));
    if (s.fat) {
      append_u24(out, s.data_size);
    } else {
      out.push_back(static_cast<uint8_t>(s.data_size));
      out.push_back(0);  // Reserved
      out.push_back(0);
    }
    if (s.kind != kSectEhTable) {
      out.insert(out.end(), s.other_data.begin(), s.other_data.end());
      continue;
    }
    if (s.clause_count > clauses.size() - next) return writer_error("EH section layout holds more clauses than the body");
    for (uint32_t k = 0; k < s.clause_count; ++k) write_clause(out, clauses[next++], s.fat);
    // A stored DataSize may exceed what the clauses need: keep the slack as zeros.
    while (out.size() - start < s.data_size) out.push_back(0);
  }
  if (next != clauses.size()) return writer_error("EH section layout holds fewer clauses than the body");
  return ok();
}

}  // namespace cil::il
