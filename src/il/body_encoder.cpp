// Layout to a fixpoint, then emission of header, code and exception sections.
#include "il/body_encoder.h"

#include <unordered_map>

#include <fmt/format.h>

#include "support/byte_reader.h"

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

void emit_opcode(std::vector<uint8_t>& out, Op op) {
  const OpInfo& info = op_info(op);
  if (info.two_byte()) out.push_back(0xFE);
  out.push_back(static_cast<uint8_t>(info.code & 0xFF));
}

template <class T>
void emit(std::vector<uint8_t>& out, T value) {
  uint8_t bytes[sizeof(T)];
  store_le(bytes, value);
  out.insert(out.end(), bytes, bytes + sizeof(T));
}

}  // namespace

namespace {

uint32_t size_for(Op op, size_t switch_targets) {
  const OpInfo& info = op_info(op);
  uint32_t size = info.opcode_size() + operand_size(info.operand);
  if (info.operand == Operand::Switch) size += 4 * static_cast<uint32_t>(switch_targets);
  return size;
}

}  // namespace

uint32_t encoded_size(const Instr& in) { return size_for(in.op, in.targets.size()); }

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
      offset += size_for(ops[i], body.instrs[i].targets.size());
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
    const OpInfo& info = op_info(ops[i]);
    emit_opcode(code, ops[i]);
    uint32_t next = layout.offsets[i + 1];
    switch (info.operand) {
      case Operand::None: break;
      case Operand::ShortI:
      case Operand::ShortU:
      case Operand::ShortVar: code.push_back(static_cast<uint8_t>(in.value)); break;
      case Operand::Var: emit(code, static_cast<uint16_t>(in.value)); break;
      case Operand::I:
      case Operand::ShortR: emit(code, static_cast<uint32_t>(in.value)); break;
      case Operand::I8:
      case Operand::R: emit(code, static_cast<uint64_t>(in.value)); break;
      case Operand::ShortBr: {
        uint32_t target = CIL_TRY(layout.offset_of(in.target));
        code.push_back(static_cast<uint8_t>(static_cast<int8_t>(int64_t{target} - next)));
        break;
      }
      case Operand::Br: {
        uint32_t target = CIL_TRY(layout.offset_of(in.target));
        emit(code, static_cast<int32_t>(int64_t{target} - next));
        break;
      }
      case Operand::Switch: {
        emit(code, static_cast<uint32_t>(in.targets.size()));
        for (uint32_t t : in.targets) {
          uint32_t target = CIL_TRY(layout.offset_of(t));
          emit(code, static_cast<int32_t>(int64_t{target} - next));
        }
        break;
      }
      default: emit(code, static_cast<uint32_t>(in.value)); break;  // tokens
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

  // Header (II.25.4.2 / II.25.4.3).
  std::vector<uint8_t> out;
  bool tiny_allowed = code_size <= kTinyMaxCodeSize && body.max_stack <= kTinyMaxStack && body.local_sig_token == 0 &&
                      clauses.empty() && !body.init_locals;
  bool fat = !tiny_allowed || (!body.edited && body.original.fat);
  if (!fat) {
    out.push_back(static_cast<uint8_t>((code_size << 2) | kTinyFormat));
  } else {
    uint16_t flags = body.original.fat ? body.original.fat_flags : 0;
    flags &= static_cast<uint16_t>(~(kMoreSects | kInitLocals | kFormatMask));
    flags |= kFatFormat;
    if (body.init_locals) flags |= kInitLocals;
    if (!clauses.empty()) flags |= kMoreSects;
    emit(out, static_cast<uint16_t>(flags | (3u << 12)));
    emit(out, body.max_stack);
    emit(out, code_size);
    emit(out, body.local_sig_token);
  }
  out.insert(out.end(), code.begin(), code.end());
  if (clauses.empty()) return out;

  // Sections: the original layout for an unedited body, otherwise one small or fat section.
  std::vector<EhSectionLayout> sections;
  if (!body.edited && !body.original.sections.empty()) {
    sections = body.original.sections;
  } else {
    bool small = clauses.size() <= 20;
    for (const auto& c : clauses) {
      small = small && c.try_offset <= 0xFFFF && c.try_length <= 0xFF && c.handler_offset <= 0xFFFF &&
              c.handler_length <= 0xFF;
    }
    EhSectionLayout s;
    s.fat = !small;
    s.clause_count = static_cast<uint32_t>(clauses.size());
    s.data_size = 4 + s.clause_count * (s.fat ? 24 : 12);
    if (s.data_size > 0xFFFFFF) return encode_error("too many exception clauses for one section");
    sections.push_back(s);
  }
  size_t next_clause = 0;
  for (size_t si = 0; si < sections.size(); ++si) {
    const EhSectionLayout& s = sections[si];
    while (out.size() % 4) out.push_back(0);
    size_t start = out.size();
    uint8_t kind = s.kind | (s.fat ? kSectFatFormat : 0) | (si + 1 < sections.size() ? kSectMoreSects : 0);
    out.push_back(kind);
    if (s.fat) {
      out.push_back(s.data_size & 0xFF);
      out.push_back((s.data_size >> 8) & 0xFF);
      out.push_back((s.data_size >> 16) & 0xFF);
    } else {
      out.push_back(static_cast<uint8_t>(s.data_size));
      out.push_back(0);
      out.push_back(0);
    }
    if (s.kind != kSectEhTable) {
      out.insert(out.end(), s.other_data.begin(), s.other_data.end());
      continue;
    }
    for (uint32_t k = 0; k < s.clause_count; ++k) {
      if (next_clause >= clauses.size()) return encode_error("EH section layout holds more clauses than the body");
      const ExceptionClause& c = clauses[next_clause++];
      uint32_t token = c.kind == ClauseKind::Catch ? c.class_token : c.kind == ClauseKind::Filter ? c.filter_offset : 0;
      if (s.fat) {
        emit(out, static_cast<uint32_t>(c.kind));
        emit(out, c.try_offset);
        emit(out, c.try_length);
        emit(out, c.handler_offset);
        emit(out, c.handler_length);
      } else {
        emit(out, static_cast<uint16_t>(c.kind));
        emit(out, static_cast<uint16_t>(c.try_offset));
        out.push_back(static_cast<uint8_t>(c.try_length));
        emit(out, static_cast<uint16_t>(c.handler_offset));
        out.push_back(static_cast<uint8_t>(c.handler_length));
      }
      emit(out, token);
    }
    // A stored DataSize may exceed what the clauses need: keep the slack as zeros.
    while (out.size() - start < s.data_size) out.push_back(0);
  }
  if (next_clause != clauses.size()) return encode_error("EH section layout holds fewer clauses than the body");
  return out;
}

}  // namespace cil::il
