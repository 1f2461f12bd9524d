// Parsing of tiny and fat headers and of small and fat EH sections.
#include "il/method_body.h"

#include <fmt/format.h>

namespace cil::il {

const char* clause_kind_name(ClauseKind kind) {
  switch (kind) {
    case ClauseKind::Catch: return "catch";
    case ClauseKind::Filter: return "filter";
    case ClauseKind::Finally: return "finally";
    case ClauseKind::Fault: return "fault";
  }
  return "unknown";
}

namespace {

Expected<ClauseKind> clause_kind(uint32_t flags, const ByteReader& r, size_t at) {
  switch (flags) {
    case 0: return ClauseKind::Catch;
    case 1: return ClauseKind::Filter;
    case 2: return ClauseKind::Finally;
    case 4: return ClauseKind::Fault;
    default: return r.error_at(at, fmt::format("exception clause has unknown flags {:#x}", flags));
  }
}

Status parse_sections(ByteReader& r, MethodBody& body) {
  bool more = true;
  while (more) {
    // II.25.4.5: each section starts on a 4-byte boundary relative to the header.
    size_t aligned = (r.position() + 3) & ~size_t{3};
    CIL_TRY(r.seek(aligned < r.size() ? aligned : r.size()));
    if (aligned > r.size()) return r.error_here("EH section header runs past the end of the section");
    if (body.sections.size() >= kMaxEhSections)
      return make_error(ErrorKind::Limit, std::string(r.structure()),
                        fmt::format("more than {} EH sections", kMaxEhSections), r.file_offset());
    size_t section_start = r.position();
    uint8_t kind = CIL_TRY(r.u8());
    EhSectionLayout layout;
    layout.fat = kind & kSectFatFormat;
    more = kind & kSectMoreSects;
    if (layout.fat) {
      uint8_t b0 = CIL_TRY(r.u8()), b1 = CIL_TRY(r.u8()), b2 = CIL_TRY(r.u8());
      layout.data_size = b0 | (b1 << 8) | (uint32_t{b2} << 16);
    } else {
      layout.data_size = CIL_TRY(r.u8());
      CIL_TRY(r.skip(2));  // Reserved
    }
    if (layout.data_size < 4)
      return r.error_at(section_start, fmt::format("EH section DataSize {} is smaller than its header", layout.data_size));
    if (!r.contains(section_start, layout.data_size))
      return r.error_at(section_start, fmt::format("EH section of {} bytes runs past the end of the section", layout.data_size));
    layout.kind = kind & kSectKindMask;
    if (layout.kind != kSectEhTable) {
      // Not an EH table (OptILTable is reserved): keep its bytes, read no clauses from it.
      CIL_TRY(r.seek(section_start + 4));
      auto data = CIL_TRY(r.bytes(layout.data_size - 4));
      layout.other_data.assign(data.begin(), data.end());
      body.sections.push_back(std::move(layout));
      continue;
    }
    uint32_t clause_size = layout.fat ? 24 : 12;
    layout.clause_count = (layout.data_size - 4) / clause_size;
    if (body.clauses.size() + layout.clause_count > kMaxEhClauses)
      return make_error(ErrorKind::Limit, std::string(r.structure()),
                        fmt::format("more than {} exception clauses", kMaxEhClauses), r.base_offset() + section_start);
    for (uint32_t i = 0; i < layout.clause_count; ++i) {
      size_t at = r.position();
      ExceptionClause c;
      uint32_t flags, token;
      if (layout.fat) {
        flags = CIL_TRY(r.u32());
        c.try_offset = CIL_TRY(r.u32());
        c.try_length = CIL_TRY(r.u32());
        c.handler_offset = CIL_TRY(r.u32());
        c.handler_length = CIL_TRY(r.u32());
      } else {
        flags = CIL_TRY(r.u16());
        c.try_offset = CIL_TRY(r.u16());
        c.try_length = CIL_TRY(r.u8());
        c.handler_offset = CIL_TRY(r.u16());
        c.handler_length = CIL_TRY(r.u8());
      }
      token = CIL_TRY(r.u32());
      c.kind = CIL_TRY(clause_kind(flags, r, at));
      if (c.kind == ClauseKind::Catch) c.class_token = md::Token(token);
      else if (c.kind == ClauseKind::Filter) c.filter_offset = token;
      body.clauses.push_back(c);
    }
    CIL_TRY(r.seek(section_start + layout.data_size));
    body.sections.push_back(layout);
  }
  return ok();
}

}  // namespace

Status parse_method_header(ByteReader& r, MethodBody& body) {
  body.file_offset = r.base_offset();
  uint8_t first = CIL_TRY(r.u8());
  if ((first & kFormatMask) == kTinyFormat) {
    body.code_size = first >> 2;
  } else if ((first & kFormatMask) == kFatFormat) {
    uint8_t second = CIL_TRY(r.u8());
    uint16_t word = static_cast<uint16_t>(first | (second << 8));
    body.fat = true;
    body.fat_flags = word & kFatFlagsMask;
    body.header_size = static_cast<uint8_t>((word >> 12) * 4);
    if (body.header_size < 12)
      return r.error_at(0, fmt::format("fat header size {} is smaller than 12 bytes", body.header_size));
    body.max_stack = CIL_TRY(r.u16());
    body.code_size = CIL_TRY(r.u32());
    body.local_sig_token = md::Token(CIL_TRY(r.u32()));
    if (body.code_size > kMaxCodeSize)
      return make_error(ErrorKind::Limit, std::string(r.structure()),
                        fmt::format("code size {:#x} exceeds the limit of {:#x}", body.code_size, kMaxCodeSize),
                        r.base_offset() + 4);
    CIL_TRY(r.seek(body.header_size));
  } else {
    return r.error_at(0, fmt::format("header byte {:#04x} is neither tiny nor fat", first));
  }
  return ok();
}

Status parse_method_body_into(ByteReader r, MethodBody& body) {
  // Every field back to its default, the vectors emptied but not freed.
  std::vector<ExceptionClause> clauses = std::move(body.clauses);
  std::vector<EhSectionLayout> sections = std::move(body.sections);
  body = MethodBody{};
  clauses.clear();
  sections.clear();
  body.clauses = std::move(clauses);
  body.sections = std::move(sections);
  CIL_TRY(parse_method_header(r, body));
  if (!r.contains(r.position(), body.code_size))
    return r.error_here(fmt::format("code of {:#x} bytes runs past the end of the section ({:#x} bytes left)",
                                    body.code_size, r.remaining()));
  body.code_file_offset = r.file_offset();
  body.code = CIL_TRY(r.bytes(body.code_size));
  if (body.fat && (body.fat_flags & kMoreSects)) CIL_TRY(parse_sections(r, body));
  body.total_size = static_cast<uint32_t>(r.position());
  return ok();
}

Expected<MethodBody> parse_method_body(ByteReader r) {
  MethodBody body;
  CIL_TRY(parse_method_body_into(r, body));
  return body;
}

}  // namespace cil::il
