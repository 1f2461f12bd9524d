// Splicing a branch-free prologue in front of an undecoded body.
#include "il/prepend.h"

#include <fmt/format.h>

#include "support/byte_reader.h"

namespace cil::il {

namespace {

Error prepend_error(std::string message) { return make_error(ErrorKind::Format, "method body", std::move(message)); }

template <class T>
void emit(std::vector<uint8_t>& out, T value) {
  uint8_t bytes[sizeof(T)];
  store_le(bytes, value);
  out.insert(out.end(), bytes, bytes + sizeof(T));
}

}  // namespace

Status check_targets(const MethodBody& body, const DecodedCode& code) {
  std::vector<bool> starts;
  return check_targets(body, code, starts);
}

Status check_targets(const MethodBody& body, const DecodedCode& code, std::vector<bool>& starts) {
  starts.assign(size_t{body.code_size} + 1, false);
  for (const auto& in : code.instructions) starts[in.offset] = true;
  starts[body.code_size] = true;
  auto on_boundary = [&](int64_t offset) { return offset >= 0 && offset <= body.code_size && starts[static_cast<size_t>(offset)]; };
  for (const auto& in : code.instructions) {
    Operand kind = in.info().operand;
    if (is_branch_operand(kind) && !on_boundary(in.value))
      return prepend_error(fmt::format("branch at IL_{:04x}: offset {:#x} is not the start of an instruction", in.offset, in.value));
    if (kind == Operand::Switch)
      for (int64_t t : code.targets_of(in))
        if (!on_boundary(t))
          return prepend_error(fmt::format("switch at IL_{:04x}: offset {:#x} is not the start of an instruction", in.offset, t));
  }
  for (const auto& c : body.clauses) {
    int64_t bounds[] = {c.try_offset, int64_t{c.try_offset} + c.try_length, c.handler_offset,
                        int64_t{c.handler_offset} + c.handler_length};
    for (int64_t b : bounds)
      if (!on_boundary(b)) return prepend_error(fmt::format("exception clause: offset {:#x} is not the start of an instruction", b));
    if (c.kind == ClauseKind::Filter && !on_boundary(c.filter_offset))
      return prepend_error(fmt::format("exception clause: filter offset {:#x} is not the start of an instruction", c.filter_offset));
  }
  return ok();
}

Expected<std::vector<uint8_t>> prepend_code(const MethodBody& body, std::span<const Instr> code, uint16_t max_stack) {
  std::vector<uint8_t> prologue;
  prologue.reserve(code.size() * 5);
  for (const Instr& in : code) {
    const OpInfo& info = op_info(in.op);
    if (info.two_byte()) prologue.push_back(0xFE);
    prologue.push_back(static_cast<uint8_t>(info.code & 0xFF));
    switch (info.operand) {
      case Operand::None: break;
      case Operand::ShortI:
      case Operand::ShortU:
      case Operand::ShortVar: prologue.push_back(static_cast<uint8_t>(in.value)); break;
      case Operand::Var: emit(prologue, static_cast<uint16_t>(in.value)); break;
      case Operand::I8:
      case Operand::R: emit(prologue, static_cast<uint64_t>(in.value)); break;
      case Operand::ShortBr:
      case Operand::Br:
      case Operand::Switch: return prepend_error("a prologue must not branch");
      default: emit(prologue, static_cast<uint32_t>(in.value)); break;  // I, ShortR, tokens
    }
  }
  uint64_t code_size = uint64_t{body.code_size} + prologue.size();
  if (code_size > 0x7FFFFFFF) return prepend_error("code exceeds 2 GiB");
  uint32_t shift = static_cast<uint32_t>(prologue.size());

  // The header, by encode_body's rules for an edited body.
  std::vector<uint8_t> out;
  out.reserve(12 + code_size + 8 + body.clauses.size() * 24);
  bool tiny = code_size <= kTinyMaxCodeSize && max_stack <= kTinyMaxStack && body.local_sig_token == 0 &&
              body.clauses.empty() && !body.init_locals();
  if (tiny) {
    out.push_back(static_cast<uint8_t>((code_size << 2) | kTinyFormat));
  } else {
    uint16_t flags = body.fat ? body.fat_flags : 0;
    flags &= static_cast<uint16_t>(~(kMoreSects | kInitLocals | kFormatMask));
    flags |= kFatFormat;
    if (body.init_locals()) flags |= kInitLocals;
    if (!body.clauses.empty()) flags |= kMoreSects;
    emit(out, static_cast<uint16_t>(flags | (3u << 12)));
    emit(out, max_stack);
    emit(out, static_cast<uint32_t>(code_size));
    emit(out, body.local_sig_token);
  }
  out.insert(out.end(), prologue.begin(), prologue.end());
  out.insert(out.end(), body.code.begin(), body.code.end());
  if (body.clauses.empty()) return out;

  // One section, small when every shifted clause fits, as encode_body writes an edited body's.
  std::vector<ExceptionClause> clauses = body.clauses;
  bool small = clauses.size() <= 20;
  for (auto& c : clauses) {
    c.try_offset += shift;
    c.handler_offset += shift;
    if (c.kind == ClauseKind::Filter) c.filter_offset += shift;
    small = small && c.try_offset <= 0xFFFF && c.try_length <= 0xFF && c.handler_offset <= 0xFFFF && c.handler_length <= 0xFF;
  }
  uint32_t data_size = 4 + static_cast<uint32_t>(clauses.size()) * (small ? 12 : 24);
  if (data_size > 0xFFFFFF) return prepend_error("too many exception clauses for one section");
  while (out.size() % 4) out.push_back(0);
  out.push_back(kSectEhTable | (small ? 0 : kSectFatFormat));
  if (small) {
    out.push_back(static_cast<uint8_t>(data_size));
    out.push_back(0);
    out.push_back(0);
  } else {
    out.push_back(data_size & 0xFF);
    out.push_back((data_size >> 8) & 0xFF);
    out.push_back((data_size >> 16) & 0xFF);
  }
  for (const auto& c : clauses) {
    uint32_t token = c.kind == ClauseKind::Catch ? c.class_token : c.kind == ClauseKind::Filter ? c.filter_offset : 0;
    if (small) {
      emit(out, static_cast<uint16_t>(c.kind));
      emit(out, static_cast<uint16_t>(c.try_offset));
      out.push_back(static_cast<uint8_t>(c.try_length));
      emit(out, static_cast<uint16_t>(c.handler_offset));
      out.push_back(static_cast<uint8_t>(c.handler_length));
    } else {
      emit(out, static_cast<uint32_t>(c.kind));
      emit(out, c.try_offset);
      emit(out, c.try_length);
      emit(out, c.handler_offset);
      emit(out, c.handler_length);
    }
    emit(out, token);
  }
  return out;
}

}  // namespace cil::il
