// DefinitionSink over a module being rewritten: new TypeDef, Field and MethodDef rows at the ends
// of their tables, with FieldPtr/MethodPtr rows when the input has those indirection tables.
#pragma once

#include "metadata/definition_sink.h"
#include "metadata/module_editor.h"

namespace cil::md {

class EditorDefinitions final : public DefinitionSink {
 public:
  explicit EditorDefinitions(ModuleEditor& editor) : editor_(editor) {}

  Expected<Token> define_type(std::string_view ns, std::string_view name, TypeAttributes flags, Token extends) override;
  Expected<Token> define_field(Token type, std::string_view name, FieldAttributes flags, std::span<const uint8_t> signature) override;
  Expected<Token> define_method(Token type, std::string_view name, MethodAttributes flags, std::span<const uint8_t> signature) override;
  Status set_new_method_body(Token method, std::span<const uint8_t> body) override;

 private:
  ModuleEditor& editor_;
  /// Where the new type's (empty) parameter list starts: every method points there.
  uint32_t param_list_ = 1;
};

}  // namespace cil::md
