// The model's encoder: layout to a fixpoint, clauses to offsets, then the bytes and the map.
#include "il/body_encoder.h"

#include <fmt/format.h>

#include "il/body_writer.h"
#include "il/operands.h"

namespace cil::il {

namespace {

Error encode_error(std::string message) { return make_error(ErrorKind::Format, "method body", std::move(message)); }

bool fits_i8(int64_t v) { return v >= -128 && v <= 127; }

/// Where every instruction goes: its form (a short branch may become long) and its offset.
struct Layout {
  std::vector<Op> ops;
  std::vector<uint32_t> offsets;  ///< per instruction, then the end of the code
  std::vector<uint32_t> by_id;    ///< instruction index by id (kNoLabel: no such instruction)

  uint32_t code_size() const { return offsets.back(); }
  Expected<uint32_t> offset_of(uint32_t label) const {
    if (label == kEndLabel) return offsets.back();
    if (label >= by_id.size() || by_id[label] == kNoLabel)
      return encode_error(fmt::format("reference to a missing instruction (label {})", label));
    return offsets[by_id[label]];
  }
};

/// Phase 1: every instruction findable by its id, and no id used twice.
Status index_ids(const BodyModel& body, Layout& layout) {
  layout.by_id = body.positions();
  for (size_t i = 0; i < body.instrs.size(); ++i)
    if (layout.by_id[body.instrs[i].id] != i)
      return encode_error(fmt::format("two instructions share label {}", body.instrs[i].id));
  layout.ops.resize(body.instrs.size());
  for (size_t i = 0; i < layout.ops.size(); ++i) layout.ops[i] = body.instrs[i].op;
  layout.offsets.resize(layout.ops.size() + 1);
  return ok();
}

Status assign_offsets(const BodyModel& body, Layout& layout) {
  uint64_t offset = 0;
  for (size_t i = 0; i < layout.ops.size(); ++i) {
    layout.offsets[i] = static_cast<uint32_t>(offset);
    offset += instruction_size(layout.ops[i], body.instrs[i].targets.size());
    if (offset > 0x7FFFFFFF) return encode_error("code exceeds 2 GiB");
  }
  layout.offsets.back() = static_cast<uint32_t>(offset);
  return ok();
}

/// Widens the short branches whose target is out of reach at the current offsets.
Expected<bool> widen_out_of_reach(const BodyModel& body, Layout& layout) {
  bool changed = false;
  for (size_t i = 0; i < layout.ops.size(); ++i) {
    if (op_info(layout.ops[i]).operand != Operand::ShortBr) continue;
    uint32_t target = CIL_TRY(layout.offset_of(body.instrs[i].target));
    int64_t next = int64_t{layout.offsets[i]} + 2;
    if (!fits_i8(int64_t{target} - next)) {
      layout.ops[i] = long_branch_form(layout.ops[i]);
      changed = true;
    }
  }
  return changed;
}

/// Phase 2: branch forms and offsets to a fixpoint. Widening only grows code, so this converges,
/// but a chain of short branches that each cross the one widened in the pass before takes one
/// pass per branch: quadratic time on hostile code. After kMaxLayoutPasses every short branch
/// left is widened at once, which ends it.
Status lay_out(const BodyModel& body, Layout& layout, size_t& passes) {
  for (size_t pass = 0;; ++pass) {
    passes = pass + 1;
    CIL_TRY(assign_offsets(body, layout));
    if (!CIL_TRY(widen_out_of_reach(body, layout))) return ok();
    if (pass + 1 >= kMaxLayoutPasses) {
      for (Op& op : layout.ops)
        if (op_info(op).operand == Operand::ShortBr) op = long_branch_form(op);
    }
    if (pass > kMaxLayoutPasses) return encode_error("branch layout did not converge");
  }
}

/// Phase 3: clause boundaries as offsets and lengths.
Expected<std::vector<ExceptionClause>> resolve_clauses(const BodyModel& body, const Layout& layout) {
  std::vector<ExceptionClause> clauses;
  clauses.reserve(body.clauses.size());
  for (const auto& r : body.clauses) {
    ExceptionClause c;
    c.kind = r.kind;
    uint32_t try_start = CIL_TRY(layout.offset_of(r.try_start));
    uint32_t try_end = CIL_TRY(layout.offset_of(r.try_end));
    uint32_t handler_start = CIL_TRY(layout.offset_of(r.handler_start));
    uint32_t handler_end = CIL_TRY(layout.offset_of(r.handler_end));
    if (try_end < try_start || handler_end < handler_start) return encode_error("an exception clause ends before it starts");
    c.try_offset = try_start;
    c.try_length = try_end - try_start;
    c.handler_offset = handler_start;
    c.handler_length = handler_end - handler_start;
    c.class_token = r.class_token;
    if (r.kind == ClauseKind::Filter) c.filter_offset = CIL_TRY(layout.offset_of(r.filter_start));
    clauses.push_back(c);
  }
  return clauses;
}

HeaderFields header_of(const BodyModel& body, uint32_t code_size, bool has_clauses) {
  HeaderFields h;
  h.code_size = code_size;
  h.max_stack = body.max_stack;
  h.local_sig_token = body.local_sig_token;
  h.init_locals = body.init_locals;
  h.has_clauses = has_clauses;
  h.original_flags = body.original.fat ? body.original.fat_flags : 0;
  h.keep_fat = !body.edited && body.original.fat;
  return h;
}

/// Phase 4b: every instruction in its chosen form, branch displacements from the layout, into
/// the code's bytes sized once from the layout.
Status write_code(const BodyModel& body, const Layout& layout, std::vector<uint8_t>& out) {
  size_t start = out.size();
  out.resize(start + layout.code_size());
  uint8_t* p = out.data() + start;
  for (size_t i = 0; i < layout.ops.size(); ++i) {
    const Instr& in = body.instrs[i];
    Op op = layout.ops[i];
    int64_t next = layout.offsets[i + 1];
    switch (op_info(op).operand) {
      case Operand::ShortBr:
      case Operand::Br: p = put_instruction(p, op, int64_t{CIL_TRY(layout.offset_of(in.target))} - next); break;
      case Operand::Switch:
        p = put_instruction(p, op, static_cast<int64_t>(in.targets.size()));
        for (uint32_t t : in.targets)
          p = put_switch_target(p, static_cast<int32_t>(int64_t{CIL_TRY(layout.offset_of(t))} - next));
        break;
      default: p = put_instruction(p, op, in.value); break;
    }
  }
  if (p != out.data() + out.size()) return encode_error("the code's size differs from its layout");
  return ok();
}

/// Phase 4c: the original section layout for an unedited body, otherwise one small or fat
/// section. A body without clauses gets none.
Status write_sections(const BodyModel& body, std::span<const ExceptionClause> clauses, std::vector<uint8_t>& out) {
  if (clauses.empty()) return ok();
  if (!body.edited && !body.original.sections.empty()) return write_eh_sections(out, clauses, body.original.sections);
  EhSectionLayout one = CIL_TRY(section_for(clauses));
  return write_eh_sections(out, clauses, std::span<const EhSectionLayout>(&one, 1));
}

/// Phase 5: where each original boundary went, and what is new. An original instruction an edit
/// removed maps to where the next one that survived starts, so the map still ascends.
Status offset_map(const BodyModel& body, const Layout& layout, OffsetMap& map) {
  const std::vector<uint32_t>& old = body.original.boundaries;
  if (old.empty()) {
    map.reset(0, 0);
    return ok();
  }
  size_t n = old.size() - 1;
  uint32_t end = CIL_TRY(layout.offset_of(body.end_of_original));
  std::span<OffsetMap::Entry> entries = map.reset(n + 1, layout.code_size());
  // One pass when every original instruction is still there, in order (every rewrite so far).
  size_t next = 0;
  for (size_t p = 0; p < body.instrs.size(); ++p) {
    uint32_t id = body.instrs[p].id;
    if (id >= n) map.add_inserted({layout.offsets[p], layout.offsets[p + 1]});
    else if (id == next) entries[next++] = {old[id], layout.offsets[p]};
    else next = n + 1;  // out of order: the general pass below
  }
  entries[n] = {old[n], end};
  if (next == n) {
    // In order, so new offsets ascend with positions: only the end could come too early.
    if (n && entries[n - 1].new_offset > end) return encode_error("an edit moved original instructions out of their order");
    return ok();
  }
  // Some were removed or moved: each removed one maps to where the next survivor starts.
  constexpr uint32_t kRemoved = 0xFFFFFFFF;  // no offset is this large (code is under 2 GiB)
  for (size_t i = 0; i < n; ++i) entries[i] = {old[i], kRemoved};
  for (size_t p = 0; p < body.instrs.size(); ++p)
    if (body.instrs[p].id < n) entries[body.instrs[p].id].new_offset = layout.offsets[p];
  for (size_t i = n; i-- > 0;) {
    if (entries[i].new_offset == kRemoved) entries[i].new_offset = entries[i + 1].new_offset;
    else if (entries[i].new_offset > entries[i + 1].new_offset)
      return encode_error("an edit moved original instructions out of their order");
  }
  return ok();
}

}  // namespace

Status encode_body_into(const BodyModel& body, EncodedBody& encoded) {
  Layout layout;
  CIL_TRY(index_ids(body, layout));
  CIL_TRY(lay_out(body, layout, encoded.layout_passes));
  std::vector<ExceptionClause> clauses = CIL_TRY(resolve_clauses(body, layout));

  std::vector<uint8_t>& out = encoded.bytes;
  out.clear();
  out.reserve(12 + size_t{layout.code_size()} + (clauses.empty() ? 0 : 4 + 24 * clauses.size()));
  HeaderFields header = header_of(body, layout.code_size(), !clauses.empty());
  write_header(out, header);
  encoded.local_sig_token = header.local_sig_token;
  CIL_TRY(write_code(body, layout, out));
  CIL_TRY(write_sections(body, clauses, out));
  return offset_map(body, layout, encoded.map);
}

Expected<EncodedBody> encode_body(const BodyModel& body) {
  EncodedBody encoded;
  CIL_TRY(encode_body_into(body, encoded));
  return encoded;
}

}  // namespace cil::il
