// Core library detection and resolution of runtime references.
#include "metadata/runtime_refs.h"

#include <fmt/format.h>

#include "metadata/signature.h"

namespace cil::md {

namespace {

const std::vector<uint8_t> kMicrosoftToken = {0x7c, 0xec, 0x85, 0xd7, 0xbe, 0xa7, 0x79, 0x8e};
const std::vector<uint8_t> kEcmaToken = {0xb7, 0x7a, 0x5c, 0x56, 0x19, 0x34, 0xe0, 0x89};
const std::vector<uint8_t> kFrameworkToken = {0xb0, 0x3f, 0x5f, 0x7f, 0x11, 0xd5, 0x0a, 0x3a};
const std::vector<uint8_t> kNetstandardToken = {0xcc, 0x7b, 0x13, 0xff, 0xcd, 0x2d, 0xdd, 0x51};

Error refs_error(std::string message) { return make_error(ErrorKind::Unsupported, "core library", std::move(message)); }

}  // namespace

Expected<RuntimeRefs> RuntimeRefs::create(ModuleEditor& editor) {
  RuntimeRefs refs(editor);
  const Module& m = editor.module();
  const TablesStream& t = m.tables();
  // The module is the core library when it defines System.Object.
  for (uint32_t rid = 1; rid <= t.rows(TableId::TypeDef); ++rid) {
    if (m.string_or_placeholder(t.get(TableId::TypeDef, rid, col::TypeDef::TypeName)) == "Object" &&
        m.string_or_placeholder(t.get(TableId::TypeDef, rid, col::TypeDef::TypeNamespace)) == "System" &&
        m.enclosing_type(rid) == 0) {
      refs.self_ = true;
      std::string_view name = t.rows(TableId::Assembly) ? m.string_or_placeholder(t.get(TableId::Assembly, 1, col::Assembly::Name)) : "";
      refs.kind_ = name == "mscorlib" ? CoreLibraryKind::Mscorlib : CoreLibraryKind::PrivateCoreLib;
      refs.scope_ = make_token(TableId::Module, 1);
      return refs;
    }
  }
  uint32_t corelib = 0, runtime = 0, mscorlib = 0, netstandard = 0;
  for (uint32_t rid = 1; rid <= t.rows(TableId::AssemblyRef); ++rid) {
    std::string_view name = m.string_or_placeholder(t.get(TableId::AssemblyRef, rid, col::AssemblyRef::Name));
    if (name == "System.Private.CoreLib" && !corelib) corelib = rid;
    else if (name == "System.Runtime" && !runtime) runtime = rid;
    else if (name == "mscorlib" && !mscorlib) mscorlib = rid;
    else if (name == "netstandard" && !netstandard) netstandard = rid;
  }
  if (corelib || runtime) {
    // .NET: every type the injected code needs lives in System.Private.CoreLib, which is always
    // loaded; naming it directly avoids depending on which facade forwards what.
    refs.kind_ = CoreLibraryKind::PrivateCoreLib;
    if (corelib) {
      refs.scope_ = make_token(TableId::AssemblyRef, corelib);
    } else {
      AssemblyRefSpec spec;
      spec.name = "System.Private.CoreLib";
      spec.version[0] = 4;
      spec.public_key_token = kMicrosoftToken;
      refs.scope_ = CIL_TRY(editor.assembly_ref(spec));
    }
  } else if (mscorlib) {
    refs.kind_ = CoreLibraryKind::Mscorlib;
    refs.scope_ = make_token(TableId::AssemblyRef, mscorlib);
  } else if (netstandard) {
    refs.kind_ = CoreLibraryKind::Netstandard;
    refs.scope_ = make_token(TableId::AssemblyRef, netstandard);
  } else {
    return refs_error("the module references none of System.Private.CoreLib, System.Runtime, mscorlib or netstandard");
  }
  return refs;
}

Expected<Token> RuntimeRefs::type(std::string_view ns, std::string_view name) {
  if (!self_) return editor_->type_ref(scope_, ns, name);
  const Module& m = editor_->module();
  const TablesStream& t = m.tables();
  for (uint32_t rid = 1; rid <= t.rows(TableId::TypeDef); ++rid) {
    if (m.enclosing_type(rid) == 0 && m.string_or_placeholder(t.get(TableId::TypeDef, rid, col::TypeDef::TypeName)) == name &&
        m.string_or_placeholder(t.get(TableId::TypeDef, rid, col::TypeDef::TypeNamespace)) == ns)
      return make_token(TableId::TypeDef, rid);
  }
  return refs_error(fmt::format("the core library defines no type {}.{}", ns, name));
}

Expected<Token> RuntimeRefs::type_in(const AssemblyRefSpec& assembly, std::string_view ns, std::string_view name) {
  Token scope = CIL_TRY(editor_->assembly_ref(assembly));
  return editor_->type_ref(scope, ns, name);
}

Expected<Token> RuntimeRefs::member(Token type, std::string_view name, std::span<const uint8_t> signature) {
  if (token_table(type) != TableId::TypeDef) return editor_->member_ref(type, name, signature);
  // A local type: find the definition (method or field) with this name and signature.
  const Module& m = editor_->module();
  const TablesStream& t = m.tables();
  bool is_field = !signature.empty() && signature[0] == kSigField;
  if (is_field) {
    for (uint32_t rid = 1; rid <= t.rows(TableId::Field); ++rid) {
      if (m.field_owner(rid) != token_rid(type)) continue;
      auto blob = m.blobs().get(t.get(TableId::Field, rid, col::Field::Signature));
      if (m.string_or_placeholder(t.get(TableId::Field, rid, col::Field::Name)) == name && blob &&
          std::equal(blob->begin(), blob->end(), signature.begin(), signature.end()))
        return make_token(TableId::Field, rid);
    }
  } else {
    for (uint32_t rid : m.methods_of(token_rid(type))) {
      auto blob = m.blobs().get(t.get(TableId::MethodDef, rid, col::MethodDef::Signature));
      if (m.string_or_placeholder(t.get(TableId::MethodDef, rid, col::MethodDef::Name)) == name && blob &&
          std::equal(blob->begin(), blob->end(), signature.begin(), signature.end()))
        return make_token(TableId::MethodDef, rid);
    }
  }
  return refs_error(fmt::format("the core library defines no member {} with the expected signature", name));
}

AssemblyRefSpec RuntimeRefs::process_assembly() const {
  AssemblyRefSpec spec;
  switch (kind_) {
    case CoreLibraryKind::Mscorlib:
      spec.name = "System";
      spec.version[0] = 4;
      spec.public_key_token = kEcmaToken;
      break;
    case CoreLibraryKind::Netstandard:
      spec.name = "netstandard";
      spec.version[0] = 2;
      spec.public_key_token = kNetstandardToken;
      break;
    case CoreLibraryKind::PrivateCoreLib:
      spec.name = "System.Diagnostics.Process";
      spec.version[0] = 4;
      spec.public_key_token = kFrameworkToken;
      break;
  }
  return spec;
}

AssemblyRefSpec RuntimeRefs::console_assembly() const {
  AssemblyRefSpec spec;
  switch (kind_) {
    case CoreLibraryKind::Mscorlib:
      spec.name = "mscorlib";
      spec.version[0] = 4;
      spec.public_key_token = kEcmaToken;
      break;
    case CoreLibraryKind::Netstandard: return process_assembly();
    case CoreLibraryKind::PrivateCoreLib:
      spec.name = "System.Console";
      spec.version[0] = 4;
      spec.public_key_token = kFrameworkToken;
      break;
  }
  return spec;
}

}  // namespace cil::md
