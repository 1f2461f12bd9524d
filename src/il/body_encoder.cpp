// Layout to a fixpoint, then emission of header, code and exception sections.
#include "il/body_encoder.h"

#include <fmt/format.h>

#include "il/body_writer.h"
#include "il/operands.h"

namespace cil::il {

namespace {

Error encode_error(std::string message) { return make_error(ErrorKind::Format, "method body", std::move(message)); }

bool fits_i8(int64_t v) { return v >= -128 && v <= 127; }

struct Layout {
  std::vector<uint32_t> offsets;  // per instruction, plus the end offset last
  std::vector<uint32_t> by_id;    // instruction index by id

  Expected<uint32_t> offset_of(uint32_t label) const {
    if (label == kEndLabel) return offsets.back();
    if (label >= by_id.size() || by_id[label] == kNoLabel)
      return encode_error(fmt::format("reference to a missing instruction (label {})", label));
    return offsets[by_id[label]];
  }
};

}  // namespace

Expected<std::vector<uint8_t>> encode_body(const BodyModel& body) {
  std::vector<Op> ops(body.instrs.size());
  for (size_t i = 0; i < ops.size(); ++i) ops[i] = body.instrs[i].op;

  Layout layout;
  layout.offsets.resize(ops.size() + 1);
  layout.by_id = body.positions();
  for (size_t i = 0; i < body.instrs.size(); ++i) {
    if (layout.by_id[body.instrs[i].id] != i)
      return encode_error(fmt::format("two instructions share label {}", body.instrs[i].id));
  }

  // Widening only grows code, so this converges, but a chain of short branches that each cross
  // the one widened in the pass before takes one pass per branch: quadratic time on hostile
  // code. After kMaxLayoutPasses every short branch left is widened at once, which ends it.
  constexpr size_t kMaxLayoutPasses = 64;
  for (size_t pass = 0;; ++pass) {
    uint64_t offset = 0;
    for (size_t i = 0; i < ops.size(); ++i) {
      layout.offsets[i] = static_cast<uint32_t>(offset);
      offset += instruction_size(ops[i], body.instrs[i].targets.size());
      if (offset > 0x7FFFFFFF) return encode_error("code exceeds 2 GiB");
    }
    layout.offsets[ops.size()] = static_cast<uint32_t>(offset);
    bool changed = false;
    for (size_t i = 0; i < ops.size(); ++i) {
      if (op_info(ops[i]).operand != Operand::ShortBr) continue;
      uint32_t target = CIL_TRY(layout.offset_of(body.instrs[i].target));
      int64_t next = int64_t{layout.offsets[i]} + 2;
      if (!fits_i8(int64_t{target} - next)) {
        ops[i] = long_branch_form(ops[i]);
        changed = true;
      }
    }
    if (!changed) break;
    if (pass + 1 >= kMaxLayoutPasses) {
      for (Op& op : ops)
        if (op_info(op).operand == Operand::ShortBr) op = long_branch_form(op);
    }
    if (pass > kMaxLayoutPasses) return encode_error("branch layout did not converge");
  }

  uint32_t code_size = layout.offsets.back();
  std::vector<uint8_t> code;
  code.reserve(code_size);
  for (size_t i = 0; i < ops.size(); ++i) {
    const Instr& in = body.instrs[i];
    int64_t next = layout.offsets[i + 1];
    switch (op_info(ops[i]).operand) {
      case Operand::ShortBr:
      case Operand::Br: write_instruction(code, ops[i], int64_t{CIL_TRY(layout.offset_of(in.target))} - next); break;
      case Operand::Switch:
        write_instruction(code, ops[i], static_cast<int64_t>(in.targets.size()));
        for (uint32_t t : in.targets)
          write_switch_target(code, static_cast<int32_t>(int64_t{CIL_TRY(layout.offset_of(t))} - next));
        break;
      default: write_instruction(code, ops[i], in.value); break;
    }
  }

  // Exception clauses as offsets.
  std::vector<ExceptionClause> clauses;
  for (const auto& r : body.clauses) {
    ExceptionClause c;
    c.kind = r.kind;
    uint32_t try_start = CIL_TRY(layout.offset_of(r.try_start));
    uint32_t try_end = CIL_TRY(layout.offset_of(r.try_end));
    uint32_t handler_start = CIL_TRY(layout.offset_of(r.handler_start));
    uint32_t handler_end = CIL_TRY(layout.offset_of(r.handler_end));
    if (try_end < try_start || handler_end < handler_start)
      return encode_error("an exception clause ends before it starts");
    c.try_offset = try_start;
    c.try_length = try_end - try_start;
    c.handler_offset = handler_start;
    c.handler_length = handler_end - handler_start;
    c.class_token = r.class_token;
    if (r.kind == ClauseKind::Filter) c.filter_offset = CIL_TRY(layout.offset_of(r.filter_start));
    clauses.push_back(c);
  }

  // Header (II.25.4.2 / II.25.4.3), code, and the sections: the original layout for an unedited
  // body, otherwise one small or fat section.
  HeaderFields header;
  header.code_size = code_size;
  header.max_stack = body.max_stack;
  header.local_sig_token = body.local_sig_token;
  header.init_locals = body.init_locals;
  header.has_clauses = !clauses.empty();
  header.original_flags = body.original.fat ? body.original.fat_flags : 0;
  header.keep_fat = !body.edited && body.original.fat;
  std::vector<uint8_t> out;
  write_header(out, header);
  out.insert(out.end(), code.begin(), code.end());
  if (clauses.empty()) return out;
  if (!body.edited && !body.original.sections.empty()) {
    CIL_TRY(write_eh_sections(out, clauses, body.original.sections));
  } else {
    EhSectionLayout one = CIL_TRY(section_for(clauses));
    CIL_TRY(write_eh_sections(out, clauses, std::span<const EhSectionLayout>(&one, 1)));
  }
  return out;
}

}  // namespace cil::il
