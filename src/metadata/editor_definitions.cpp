// New definitions as rows of the module being rewritten.
#include "metadata/editor_definitions.h"

#include "metadata/rows.h"

namespace cil::md {

Expected<Token> EditorDefinitions::define_type(std::string_view ns, std::string_view name, TypeAttributes flags, Token extends) {
  const Module& m = editor_.module();
  // With FieldPtr/MethodPtr, a type's member lists index the pointer tables, and the new members
  // get pointer rows at their ends (define_field, define_method).
  bool field_ptr = m.tables().rows(TableId::FieldPtr) > 0;
  bool method_ptr = m.tables().rows(TableId::MethodPtr) > 0;
  uint32_t field_list = (field_ptr ? editor_.rows(TableId::FieldPtr) : editor_.rows(TableId::Field)) + 1;
  uint32_t method_list = (method_ptr ? editor_.rows(TableId::MethodPtr) : editor_.rows(TableId::MethodDef)) + 1;
  param_list_ = (m.tables().rows(TableId::ParamPtr) ? editor_.rows(TableId::ParamPtr) : editor_.rows(TableId::Param)) + 1;
  return editor_.add(TypeDefRow{.flags = flags,
                                .type_name = name,
                                .type_namespace = ns,
                                .extends = extends,
                                .field_list = field_list,
                                .method_list = method_list});
}

Expected<Token> EditorDefinitions::define_field(Token, std::string_view name, FieldAttributes flags, std::span<const uint8_t> signature) {
  Token field = CIL_TRY(editor_.add(FieldRow{.flags = flags, .name = name, .signature = signature}));
  if (editor_.module().tables().rows(TableId::FieldPtr) > 0) CIL_TRY(editor_.add(FieldPtrRow{.field = token_rid(field)}));
  return field;
}

Expected<Token> EditorDefinitions::define_method(Token, std::string_view name, MethodAttributes flags, std::span<const uint8_t> signature) {
  Token method = CIL_TRY(editor_.add(MethodDefRow{.flags = flags, .name = name, .signature = signature, .param_list = param_list_}));
  if (editor_.module().tables().rows(TableId::MethodPtr) > 0) CIL_TRY(editor_.add(MethodPtrRow{.method = token_rid(method)}));
  return method;
}

Status EditorDefinitions::set_new_method_body(Token method, std::span<const uint8_t> body) {
  return editor_.set_method_body(MethodDefId(token_rid(method)), body);
}

}  // namespace cil::md
