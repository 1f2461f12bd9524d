// Fuzz target: method body headers, EH sections and the instruction decoder, then the round
// trip through the editable model and the encoder. Input: one byte that picks where to insert
// code, one byte for how many nops, then the body. Aborts on any mismatch:
//  - unedited: decode, model, encode, decode again gives the same instructions and clauses;
//  - edited (nops inserted before one instruction): every original instruction, branch target
//    and clause boundary is found again, moved by the insertion, where the offset map says;
//    short branches may widen;
//  - at entry, the fast path of rewrite_body gives the model's bytes and map;
//  - the decoder's fast loop gives what its checked path gives: instructions, or the error.
#include <algorithm>
#include <string>

#include <fmt/format.h>

#include "fuzz_check.h"
#include "il/body_encoder.h"
#include "il/body_model.h"
#include "il/instruction.h"
#include "il/method_body.h"
#include "il/rewrite.h"

namespace {

using namespace cil;
using namespace cil::il;

struct Decoded {
  MethodBody body;
  DecodedCode code;
};

Decoded reread(const std::vector<uint8_t>& bytes, const char* what) {
  auto body = parse_method_body(ByteReader(bytes, 0, "encoded body"));
  CIL_FUZZ_CHECK(body, fmt::format("{}: the encoded body does not parse: {}", what, body.error().to_string()));
  CIL_FUZZ_CHECK(body->total_size == bytes.size(), fmt::format("{}: encoded {} bytes, parsed {}", what, bytes.size(), body->total_size));
  auto code = decode_code(body->code, body->code_file_offset);
  CIL_FUZZ_CHECK(code, fmt::format("{}: the encoded code does not decode: {}", what, code.error().to_string()));
  return {std::move(*body), std::move(*code)};
}

void check_header(const MethodBody& a, const MethodBody& b, const char* what) {
  // An edited body that fits a tiny header gets one, and with it the tiny header's max stack
  // of 8, never less than before.
  CIL_FUZZ_CHECK(a.max_stack == b.max_stack || (!b.fat && a.max_stack < b.max_stack), what);
  CIL_FUZZ_CHECK(a.local_sig_token == b.local_sig_token, what);
  CIL_FUZZ_CHECK(a.init_locals() == b.init_locals(), what);
  CIL_FUZZ_CHECK(a.clauses.size() == b.clauses.size(), what);
}

bool same_clause(const ExceptionClause& a, const ExceptionClause& b) {
  return a.kind == b.kind && a.try_offset == b.try_offset && a.try_length == b.try_length &&
         a.handler_offset == b.handler_offset && a.handler_length == b.handler_length &&
         a.class_token == b.class_token && a.filter_offset == b.filter_offset;
}

void check_unedited(const MethodBody& body, const DecodedCode& code, BodyModel model) {
  auto encoded = encode_body(model);
  CIL_FUZZ_CHECK(encoded, "unedited body does not encode: " + encoded.error().to_string());
  CIL_FUZZ_CHECK(encoded->map.is_identity(), "unedited: the offset map is not the identity");
  CIL_FUZZ_CHECK(encoded->map.entries().size() == code.instructions.size() + 1, "unedited: offset map size");
  Decoded again = reread(encoded->bytes, "unedited");
  check_header(body, again.body, "unedited: header differs");
  CIL_FUZZ_CHECK(body.fat == again.body.fat, "unedited: tiny/fat changed");
  CIL_FUZZ_CHECK(body.code_size == again.body.code_size, "unedited: code size changed");
  CIL_FUZZ_CHECK(std::equal(body.code.begin(), body.code.end(), again.body.code.begin()), "unedited: code bytes changed");
  CIL_FUZZ_CHECK(code.instructions.size() == again.code.instructions.size(), "unedited: instruction count changed");
  for (size_t i = 0; i < code.instructions.size(); ++i) {
    const Instruction &x = code.instructions[i], &y = again.code.instructions[i];
    CIL_FUZZ_CHECK(x.offset == y.offset && x.op == y.op && x.size == y.size && x.value == y.value && x.count == y.count,
                   fmt::format("unedited: instruction {} differs", i));
  }
  CIL_FUZZ_CHECK(code.switch_targets == again.code.switch_targets, "unedited: switch targets differ");
  for (size_t i = 0; i < body.clauses.size(); ++i)
    CIL_FUZZ_CHECK(same_clause(body.clauses[i], again.body.clauses[i]), fmt::format("unedited: clause {} differs", i));
}

void check_edited(const MethodBody& body, const DecodedCode& code, BodyModel model, size_t at, size_t pad) {
  size_t n = code.instructions.size();
  at = n ? at % (n + 1) : 0;
  std::vector<Instr> nops;
  for (size_t i = 0; i < pad; ++i) nops.push_back(model.make(Op::Nop));
  model.instrs.insert(model.instrs.begin() + static_cast<ptrdiff_t>(at), nops.begin(), nops.end());
  model.edited = true;
  auto encoded = encode_body(model);
  CIL_FUZZ_CHECK(encoded, "edited body does not encode: " + encoded.error().to_string());
  Decoded again = reread(encoded->bytes, "edited");
  check_header(body, again.body, "edited: header differs");
  const auto& out = again.code.instructions;
  CIL_FUZZ_CHECK(out.size() == n + pad, "edited: instruction count");

  // Offset of original instruction i (or the end, i == n) in the new code.
  auto moved = [&](size_t i) -> int64_t {
    size_t j = i < at ? i : i + pad;
    return j < out.size() ? int64_t{out[j].offset} : int64_t{again.body.code_size};
  };
  // Index of the original instruction at `offset`, or n for the end (BodyModel::from checked it).
  auto index_at = [&](int64_t offset) -> size_t {
    if (offset == int64_t{body.code_size}) return n;
    auto it = std::lower_bound(code.instructions.begin(), code.instructions.end(), offset,
                               [](const Instruction& in, int64_t off) { return int64_t{in.offset} < off; });
    return static_cast<size_t>(it - code.instructions.begin());
  };
  for (size_t i = 0; i < pad; ++i) CIL_FUZZ_CHECK(out[at + i].op == Op::Nop, "edited: inserted code changed");
  const OffsetMap& map = encoded->map;
  CIL_FUZZ_CHECK(map.entries().size() == n + 1 && map.new_code_size() == again.body.code_size, "edited: offset map size");
  for (size_t i = 0; i <= n; ++i) {
    uint32_t old_offset = i < n ? code.instructions[i].offset : body.code_size;
    CIL_FUZZ_CHECK(map.entries()[i].old_offset == old_offset && map.find(old_offset) == std::optional<uint32_t>(moved(i)),
                   fmt::format("edited: offset map entry {}", i));
  }
  uint32_t nops_start = at < out.size() ? out[at].offset : again.body.code_size;
  OffsetMap::Range inserted{nops_start, nops_start + static_cast<uint32_t>(pad)};
  CIL_FUZZ_CHECK(map.inserted().size() == 1 && map.inserted()[0] == inserted, "edited: inserted range");
  for (size_t i = 0; i < n; ++i) {
    const Instruction& x = code.instructions[i];
    const Instruction& y = out[i < at ? i : i + pad];
    Operand kind = x.info().operand;
    if (is_branch_operand(kind)) {
      CIL_FUZZ_CHECK(y.op == x.op || y.op == long_branch_form(x.op), fmt::format("edited: branch {} changed opcode", i));
      CIL_FUZZ_CHECK(y.value == moved(index_at(x.value)), fmt::format("edited: branch {} lost its target", i));
    } else if (kind == Operand::Switch) {
      CIL_FUZZ_CHECK(y.op == x.op && y.count == x.count, fmt::format("edited: switch {} changed", i));
      auto xs = code.targets_of(x), ys = again.code.targets_of(y);
      for (size_t k = 0; k < xs.size(); ++k)
        CIL_FUZZ_CHECK(ys[k] == moved(index_at(xs[k])), fmt::format("edited: switch {} lost target {}", i, k));
    } else {
      CIL_FUZZ_CHECK(y.op == x.op && y.value == x.value, fmt::format("edited: instruction {} changed", i));
    }
  }
  for (size_t i = 0; i < body.clauses.size(); ++i) {
    const ExceptionClause &x = body.clauses[i], &y = again.body.clauses[i];
    auto end = [](uint32_t start, uint32_t length) { return int64_t{start} + length; };
    CIL_FUZZ_CHECK(y.kind == x.kind && y.class_token == x.class_token, fmt::format("edited: clause {} kind", i));
    CIL_FUZZ_CHECK(y.try_offset == moved(index_at(x.try_offset)) &&
                       end(y.try_offset, y.try_length) == moved(index_at(end(x.try_offset, x.try_length))) &&
                       y.handler_offset == moved(index_at(x.handler_offset)) &&
                       end(y.handler_offset, y.handler_length) == moved(index_at(end(x.handler_offset, x.handler_length))),
                   fmt::format("edited: clause {} boundaries", i));
    if (x.kind == ClauseKind::Filter)
      CIL_FUZZ_CHECK(y.filter_offset == moved(index_at(x.filter_offset)), fmt::format("edited: clause {} filter", i));
  }
}

void check_fast_path(const MethodBody& body, const DecodedCode& code, size_t pad) {
  BodyModel scratch;
  std::vector<Instr> entry;
  for (size_t i = 0; i < pad; ++i) entry.push_back(scratch.make(Op::Nop));
  BodyEdit edit;
  edit.entry_code = entry;
  edit.entry_max_stack = 1;
  auto fast = rewrite_body(body, code, edit, RewritePath::Fastest);
  auto model = rewrite_body(body, code, edit, RewritePath::Model);
  CIL_FUZZ_CHECK(fast.has_value() == model.has_value(), "fast path: one path failed, the other did not");
  if (!fast) {
    CIL_FUZZ_CHECK(fast.error().to_string() == model.error().to_string(), "fast path: another error than the model's");
    return;
  }
  CIL_FUZZ_CHECK(fast->bytes == model->bytes, "fast path: bytes differ from the model's");
  CIL_FUZZ_CHECK(fast->map == model->map, "fast path: offset map differs from the model's");
}

/// The decoder's fast loop against its checked path: the same instructions, or the same error.
void check_decoder_paths(std::span<const uint8_t> code, uint64_t file_offset, const Expected<DecodedCode>& fast) {
  DecodedCode checked;
  Status c = decode_code_checked_into(code, file_offset, checked);
  CIL_FUZZ_CHECK(static_cast<bool>(c) == static_cast<bool>(fast), "the fast loop and the checked path disagree on success");
  if (!c) {
    CIL_FUZZ_CHECK(c.error().message == fast.error().message && c.error().offset == fast.error().offset,
                   fmt::format("different errors: {} / {}", fast.error().to_string(), c.error().to_string()));
    return;
  }
  CIL_FUZZ_CHECK(fast->instructions.size() == checked.instructions.size() && fast->switch_targets == checked.switch_targets,
                 "the fast loop and the checked path decode different instructions");
  for (size_t i = 0; i < checked.instructions.size(); ++i) {
    const Instruction &x = fast->instructions[i], &y = checked.instructions[i];
    CIL_FUZZ_CHECK(x.offset == y.offset && x.size == y.size && x.value == y.value && x.count == y.count && x.op == y.op,
                   fmt::format("instruction {} differs between the fast loop and the checked path", i));
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 3) return 0;
  size_t at = data[0];
  size_t pad = data[1] % 200 + 1;
  std::span<const uint8_t> bytes(data + 2, size - 2);
  auto body = parse_method_body(ByteReader(bytes, 0, "method body"));
  if (!body) return 0;
  CIL_FUZZ_CHECK(body->clauses.size() <= kMaxEhClauses, "more clauses than the cap");
  CIL_FUZZ_CHECK(body->total_size <= bytes.size(), "body runs past its input");
  auto code = decode_code(body->code, body->code_file_offset);
  check_decoder_paths(body->code, body->code_file_offset, code);
  if (!code) return 0;
  auto model = BodyModel::from(*body, *code);
  if (!model) return 0;
  check_unedited(*body, *code, *model);
  check_edited(*body, *code, std::move(*model), at, pad);
  check_fast_path(*body, *code, pad);
  return 0;
}
