// Names and ildasm-style text for tokens, types and signatures of one module.
#pragma once

#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "metadata/module.h"
#include "metadata/signature.h"

namespace cil::md {

/// Longest text printed for one name, type, signature, token or string (man page, LIMITS).
/// Longer text is cut and ends in "...": TypeSpecs that name other TypeSpecs twice over double
/// their text at every level, and many instructions may name one huge blob, so without a cap a
/// small file could print gigabytes.
inline constexpr size_t kMaxPrintedText = 16384;

/// Quotes an identifier the way ildasm does when it is not a plain ILAsm name; inside the quotes,
/// a quote or backslash gets a backslash, and control characters are escaped (printable()).
std::string quote_identifier(std::string_view name);
/// Escapes UTF-16 text as an ILAsm string literal body (without the quotes).
std::string escape_string(std::u16string_view text);

/// Turns tokens and signatures of `module` into text. Never fails: malformed input prints as a
/// visible `<...>` placeholder that says what was wrong. Caches names; not thread-safe.
class Printer {
 public:
  explicit Printer(const Module& module);

  // Plain names, as patterns and JSON use them: Ns.Outer/Inner and Ns.Type::Method.
  std::string type_def_name(TypeDefId type);
  std::string method_name(MethodDefId method);  ///< Ns.Type::Method
  /// method_name(method) into `out` (replacing what it held): no allocation once `out` has room, for
  /// loops over every method.
  void method_name_into(std::string& out, MethodDefId method);
  std::string field_name(FieldId field);       ///< Ns.Type::Field

  // ildasm syntax.
  std::string type(const TypeSig& type);
  std::string type_token(Token token);        ///< operand of box, newarr, ldtoken type...
  std::string method_token(Token token);      ///< operand of call, newobj, ldftn...
  std::string field_token(Token token);       ///< operand of ldfld...
  std::string any_token(Token token);         ///< ldtoken: method/field/type
  std::string standalone_method_sig(Token token);  ///< calli
  std::string user_string(Token token);       ///< ldstr, quoted
  std::string method_header(MethodDefId method);  ///< the .method line
  std::string locals(Token sig_token, bool init);  ///< the .locals line, or empty

  const Module& module() const { return module_; }

 private:
  std::string scope_prefix(Token scope, unsigned depth);
  std::string type_ref_name(TypeRefId type, unsigned depth);
  std::string type_def_ref(TypeDefId type);  ///< quoted, for ildasm text
  std::string type_spec(TypeSpecId type);
  std::string method_sig_text(const MethodSig& sig, std::string_view name, const std::vector<std::string>* param_names);
  std::string owner_text(Token parent);
  std::string call_convention(const MethodSig& sig);
  std::string generic_parameter_list(Token owner, uint32_t count);

  const Module& module_;
  std::vector<std::string> type_def_names_;   // plain, by rid; empty = not yet computed
  const std::string& cached_type_def_name(TypeDefId type);  ///< a valid row's, made once
  std::vector<std::string> type_def_quoted_;
  std::vector<std::string> type_ref_names_;
  std::unordered_map<uint32_t, std::string> type_spec_names_;
  unsigned spec_depth_ = 0;
  /// A generic parameter as the .method line shows it: flags, constraints (TypeDefOrRef
  /// tokens, at most kMaxShownConstraints), name.
  struct GenericParamText {
    std::string name;
    GenericParamAttributes flags{};
    std::vector<Token> constraints;
  };
  static constexpr size_t kMaxShownConstraints = 64;
  bool generic_params_built_ = false;
  std::unordered_map<Token, std::vector<GenericParamText>> generic_params_;
};

}  // namespace cil::md
