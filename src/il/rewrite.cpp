// rewrite_body: the entry fast path or the model, then the encoder.
#include "il/rewrite.h"

#include <algorithm>

#include "il/prepend.h"
#include "il/rewriter.h"
#include "il/target_check.h"

namespace cil::il {

namespace {

Status check_entry_code(std::span<const Instr> code) {
  for (const Instr& in : code) {
    Operand kind = op_info(in.op).operand;
    if (is_branch_operand(kind) || kind == Operand::Switch) return rewrite_error("entry code must not branch");
  }
  return ok();
}

/// The entry code with ids of the model's (ids from elsewhere could name original instructions).
std::vector<Instr> adopt(BodyModel& model, std::span<const Instr> code) {
  std::vector<Instr> out;
  out.reserve(code.size());
  for (const Instr& in : code) out.push_back(model.make(in.op, in.value));
  return out;
}

Status edit_and_encode(BodyModel& model, const BodyEdit& edit, EncodedBody& out) {
  if (!edit.entry_code.empty()) {
    insert_code(model, 0, adopt(model, edit.entry_code));
    model.max_stack = std::max(model.max_stack, edit.entry_max_stack);
  }
  if (edit.edit) CIL_TRY(edit.edit(model));
  return encode_body_into(model, out);
}

}  // namespace

Status rewrite_body_into(const MethodBody& body, const DecodedCode& code, const BodyEdit& edit, EncodedBody& out,
                         RewritePath path) {
  CIL_TRY(check_entry_code(edit.entry_code));
  if (path == RewritePath::Fastest && !edit.entry_code.empty() && !edit.edit) {
    CIL_TRY(check_targets(body, code));
    return prepend_code(body, code, edit.entry_code, std::max(body.max_stack, edit.entry_max_stack), out);
  }
  BodyModel model = CIL_TRY(BodyModel::from(body, code));
  return edit_and_encode(model, edit, out);
}

Expected<EncodedBody> rewrite_body(const MethodBody& body, const DecodedCode& code, const BodyEdit& edit, RewritePath path) {
  EncodedBody out;
  CIL_TRY(rewrite_body_into(body, code, edit, out, path));
  return out;
}

Expected<EncodedBody> rewrite_body(BodyModel model, const BodyEdit& edit) {
  CIL_TRY(check_entry_code(edit.entry_code));
  model.edited = true;
  EncodedBody out;
  CIL_TRY(edit_and_encode(model, edit, out));
  return out;
}

}  // namespace cil::il
