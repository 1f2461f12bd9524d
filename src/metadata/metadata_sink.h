// The seam between the rewrite engine and metadata: find-or-add references, read signatures,
// and the few look-ups RuntimeRefs needs to scope references (core library, local definitions).
// The offline writer (ModuleEditor) implements it over a module being rewritten; the runtime
// profiler implements it over IMetaDataEmit/IMetaDataImport.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "metadata/schema.h"
#include "support/error.h"

namespace cil::md {

struct AssemblyRefSpec {
  std::string name;
  uint16_t version[4] = {0, 0, 0, 0};
  std::vector<uint8_t> public_key_token;  ///< 8 bytes, or empty
  std::string culture;
};

class MetadataSink {
 public:
  virtual ~MetadataSink() = default;

  /// Finds an AssemblyRef with this name (and token), or adds one.
  virtual Expected<Token> assembly_ref(const AssemblyRefSpec& spec) = 0;
  /// Finds or adds a TypeRef. `scope` is an AssemblyRef, ModuleRef, Module or enclosing TypeRef.
  virtual Expected<Token> type_ref(Token scope, std::string_view ns, std::string_view name) = 0;
  /// Finds or adds a MemberRef on `parent` (TypeRef, TypeDef, TypeSpec, ModuleRef or MethodDef).
  virtual Expected<Token> member_ref(Token parent, std::string_view name, std::span<const uint8_t> signature) = 0;
  virtual Expected<Token> type_spec(std::span<const uint8_t> signature) = 0;
  virtual Expected<Token> method_spec(Token method, std::span<const uint8_t> instantiation) = 0;
  virtual Expected<Token> standalone_sig(std::span<const uint8_t> signature) = 0;
  virtual Expected<Token> user_string(std::u16string_view text) = 0;

  /// The signature blob behind a token: MethodDef, MemberRef, Field, StandAloneSig, TypeSpec;
  /// for a MethodSpec, the signature of the generic method it instantiates.
  virtual Expected<std::vector<uint8_t>> signature_of(Token token) = 0;

  // Look-ups in the module's own metadata (rows this sink added may or may not be seen).
  /// The name of the module's assembly (its Assembly row); empty when it has none.
  virtual Expected<std::string> assembly_name() = 0;
  /// The first AssemblyRef with this name; 0 when there is none.
  virtual Expected<Token> find_assembly_ref(std::string_view name) = 0;
  /// The top-level TypeDef with this namespace and name; 0 when there is none.
  virtual Expected<Token> find_type_def(std::string_view ns, std::string_view name) = 0;
  /// The member of TypeDef `type` with this name and exactly this signature: a Field for a field
  /// signature (II.23.2.4), otherwise a MethodDef; 0 when there is none.
  virtual Expected<Token> find_member_def(Token type, std::string_view name, std::span<const uint8_t> signature) = 0;
};

}  // namespace cil::md
