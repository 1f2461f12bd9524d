// Splicing a branch-free prologue in front of an undecoded body.
#include "il/prepend.h"

#include "il/body_writer.h"
#include "il/operands.h"

namespace cil::il {

namespace {

Error prepend_error(std::string message) { return make_error(ErrorKind::Format, "method body", std::move(message)); }

void shifted_map(const MethodBody& body, const DecodedCode& code, uint32_t shift, OffsetMap& map) {
  std::span<OffsetMap::Entry> entries = map.reset(code.instructions.size() + 1, body.code_size + shift);
  for (size_t i = 0; i < code.instructions.size(); ++i) {
    uint32_t offset = code.instructions[i].offset;
    entries[i] = {offset, offset + shift};
  }
  entries.back() = {body.code_size, body.code_size + shift};
  if (shift) map.add_inserted({0, shift});
}

}  // namespace

Status prepend_code(const MethodBody& body, const DecodedCode& code, std::span<const Instr> entry, uint16_t max_stack,
                    EncodedBody& encoded) {
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

  std::vector<uint8_t>& out = encoded.bytes;
  out.clear();
  out.reserve(12 + code_size + (clauses.empty() ? 0 : 4 + clauses.size() * 24));
  write_header(out, header);
  encoded.local_sig_token = header.local_sig_token;
  for (const Instr& in : entry) write_instruction(out, in.op, in.value);
  out.insert(out.end(), body.code.begin(), body.code.end());
  if (!clauses.empty()) {
    EhSectionLayout one = CIL_TRY(section_for(clauses));
    CIL_TRY(write_eh_sections(out, clauses, std::span<const EhSectionLayout>(&one, 1)));
  }
  shifted_map(body, code, static_cast<uint32_t>(shift), encoded.map);
  return ok();
}

}  // namespace cil::il
