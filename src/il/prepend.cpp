// Splicing a branch-free prologue in front of an undecoded body.
#include "il/prepend.h"

#include "il/body_writer.h"
#include "il/operands.h"

namespace cil::il {

namespace {

Error prepend_error(std::string message) { return make_error(ErrorKind::Format, "method body", std::move(message)); }

OffsetMap shifted_map(const MethodBody& body, const DecodedCode& code, uint32_t shift) {
  std::vector<OffsetMap::Entry> entries;
  entries.reserve(code.instructions.size() + 1);
  for (const auto& in : code.instructions) entries.push_back({in.offset, in.offset + shift});
  entries.push_back({body.code_size, body.code_size + shift});
  std::vector<OffsetMap::Range> inserted;
  if (shift) inserted.push_back({0, shift});
  return OffsetMap(std::move(entries), body.code_size + shift, std::move(inserted));
}

}  // namespace

Expected<EncodedBody> prepend_code(const MethodBody& body, const DecodedCode& code, std::span<const Instr> entry,
                                   uint16_t max_stack) {
  uint64_t shift = 0;
  for (const Instr& in : entry) shift += instruction_size(in.op);
  uint64_t code_size = uint64_t{body.code_size} + shift;
  if (code_size > 0x7FFFFFFF) return prepend_error("code exceeds 2 GiB");

  std::vector<ExceptionClause> clauses = body.clauses;
  for (auto& c : clauses) {
    c.try_offset += static_cast<uint32_t>(shift);
    c.handler_offset += static_cast<uint32_t>(shift);
    if (c.kind == ClauseKind::Filter) c.filter_offset += static_cast<uint32_t>(shift);
  }
  // The header of an edited body (never kept fat), as the encoder writes it.
  HeaderFields header;
  header.code_size = static_cast<uint32_t>(code_size);
  header.max_stack = max_stack;
  header.local_sig_token = body.local_sig_token;
  header.init_locals = body.init_locals();
  header.has_clauses = !clauses.empty();
  header.original_flags = body.fat ? body.fat_flags : 0;

  EncodedBody encoded;
  std::vector<uint8_t>& out = encoded.bytes;
  out.reserve(12 + code_size + (clauses.empty() ? 0 : 4 + clauses.size() * 24));
  write_header(out, header);
  for (const Instr& in : entry) write_instruction(out, in.op, in.value);
  out.insert(out.end(), body.code.begin(), body.code.end());
  if (!clauses.empty()) {
    EhSectionLayout one = CIL_TRY(section_for(clauses));
    CIL_TRY(write_eh_sections(out, clauses, std::span<const EhSectionLayout>(&one, 1)));
  }
  encoded.map = shifted_map(body, code, static_cast<uint32_t>(shift));
  return encoded;
}

}  // namespace cil::il
