// Splicing a branch-free prologue in front of an undecoded body.
#include "il/prepend.h"

#include <fmt/format.h>

#include "il/body_writer.h"
#include "il/operands.h"

namespace cil::il {

namespace {

Error prepend_error(std::string message) { return make_error(ErrorKind::Format, "method body", std::move(message)); }

}  // namespace

Expected<std::vector<uint8_t>> prepend_code(const MethodBody& body, std::span<const Instr> code, uint16_t max_stack) {
  std::vector<uint8_t> prologue;
  prologue.reserve(code.size() * 5);
  for (const Instr& in : code) {
    Operand kind = op_info(in.op).operand;
    if (is_branch_operand(kind) || kind == Operand::Switch) return prepend_error("a prologue must not branch");
    write_instruction(prologue, in.op, in.value);
  }
  uint64_t code_size = uint64_t{body.code_size} + prologue.size();
  if (code_size > 0x7FFFFFFF) return prepend_error("code exceeds 2 GiB");
  uint32_t shift = static_cast<uint32_t>(prologue.size());

  // The header of an edited body (never kept fat), as encode_body writes it.
  std::vector<ExceptionClause> clauses = body.clauses;
  for (auto& c : clauses) {
    c.try_offset += shift;
    c.handler_offset += shift;
    if (c.kind == ClauseKind::Filter) c.filter_offset += shift;
  }
  HeaderFields header;
  header.code_size = static_cast<uint32_t>(code_size);
  header.max_stack = max_stack;
  header.local_sig_token = body.local_sig_token;
  header.init_locals = body.init_locals();
  header.has_clauses = !clauses.empty();
  header.original_flags = body.fat ? body.fat_flags : 0;
  std::vector<uint8_t> out;
  out.reserve(12 + code_size + (clauses.empty() ? 0 : 4 + clauses.size() * 24));
  write_header(out, header);
  out.insert(out.end(), prologue.begin(), prologue.end());
  out.insert(out.end(), body.code.begin(), body.code.end());
  if (clauses.empty()) return out;
  EhSectionLayout one = CIL_TRY(section_for(clauses));
  CIL_TRY(write_eh_sections(out, clauses, std::span<const EhSectionLayout>(&one, 1)));
  return out;
}

}  // namespace cil::il
