// Steps several of count mode's helper bodies take (count_runtime_code.h): writing a body, its
// strings and locals, and the stream and exception patterns they share.
#include "instrument/count_runtime_code.h"

#include "il/rewrite.h"
#include "metadata/text_encoding.h"

namespace cil::instrument::count_helper {

Status set_body(md::ModuleEditor& editor, Token method, BodyModel& body, CodeBuilder& c, CallEffects& effects,
                bool returns_value) {
  Code code = CIL_TRY(c.finish());
  body.instrs = std::move(code.instrs);
  body.clauses = std::move(code.clauses);
  body.max_stack = CIL_TRY(compute_max_stack(body, returns_value, effects));
  EncodedBody encoded = CIL_TRY(rewrite_body(std::move(body), {}));
  return editor.set_method_body(md::MethodDefId(md::token_rid(method)), encoded.bytes);
}

Expected<Token> str_token(md::ModuleEditor& editor, std::string_view s) { return editor.user_string(md::utf8_to_utf16(s)); }

Expected<Token> locals_sig(md::ModuleEditor& editor, const std::vector<TypeSig>& types) {
  std::vector<uint8_t> locals{md::kSigLocals, static_cast<uint8_t>(types.size())};
  for (const TypeSig& t : types) md::encode_type(locals, t);
  return editor.standalone_sig(locals);
}

void push_data_array(CodeBuilder& c, const Refs& x, Token element, uint32_t count, Token field) {
  c.ldc(static_cast<int32_t>(count));
  c.newarr(element);
  c.dup();
  c.ldtoken(field);
  c.call(x.initialize_array);
}

void write_all(CodeBuilder& c, const Refs& x, uint32_t stream, uint32_t bytes) {
  c.ldloc(stream);
  c.ldloc(bytes);
  c.ldc(0);
  c.ldloc(bytes);
  c.emit(Op::Ldlen);
  c.emit(Op::Conv_I4);
  c.callvirt(x.stream_write);
}

void write_utf8(CodeBuilder& c, const Refs& x, Token s, uint32_t stream, uint32_t bytes) {
  c.call(x.get_utf8);
  c.ldstr(s);
  c.callvirt(x.get_bytes);
  c.stloc(bytes);
  write_all(c, x, stream, bytes);
}

void close_in_finally(CodeBuilder& c, const Refs& x, Region region, uint32_t stream) {
  c.begin_finally(region);
  c.ldloc(stream);
  c.callvirt(x.stream_close);
  c.endfinally();
  c.end_region(region);
}

void swallow_then_return(CodeBuilder& c, const Refs& x, Region region, Label end) {
  c.begin_catch(region, x.exception);
  c.pop();
  c.leave(end);
  c.end_region(region);
  c.mark(end);
  c.ret();
}

}  // namespace cil::instrument::count_helper
