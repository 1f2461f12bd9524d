// Core library detection and resolution of runtime references.
#include "metadata/runtime_refs.h"

#include <fmt/format.h>

namespace cil::md {

namespace {

const std::vector<uint8_t> kMicrosoftToken = {0x7c, 0xec, 0x85, 0xd7, 0xbe, 0xa7, 0x79, 0x8e};
const std::vector<uint8_t> kEcmaToken = {0xb7, 0x7a, 0x5c, 0x56, 0x19, 0x34, 0xe0, 0x89};
const std::vector<uint8_t> kFrameworkToken = {0xb0, 0x3f, 0x5f, 0x7f, 0x11, 0xd5, 0x0a, 0x3a};
const std::vector<uint8_t> kNetstandardToken = {0xcc, 0x7b, 0x13, 0xff, 0xcd, 0x2d, 0xdd, 0x51};

Error refs_error(std::string message) { return make_error(ErrorKind::Unsupported, "core library", std::move(message)); }

}  // namespace

Expected<RuntimeRefs> RuntimeRefs::create(MetadataSink& sink) {
  RuntimeRefs refs(sink);
  // The module is the core library when it defines System.Object.
  if (CIL_TRY(sink.find_type_def("System", "Object"))) {
    refs.self_ = true;
    refs.kind_ = CIL_TRY(sink.assembly_name()) == "mscorlib" ? CoreLibraryKind::Mscorlib : CoreLibraryKind::PrivateCoreLib;
    refs.scope_ = make_token(TableId::Module, 1);
    return refs;
  }
  Token corelib = CIL_TRY(sink.find_assembly_ref("System.Private.CoreLib"));
  Token runtime = CIL_TRY(sink.find_assembly_ref("System.Runtime"));
  Token mscorlib = CIL_TRY(sink.find_assembly_ref("mscorlib"));
  Token netstandard = CIL_TRY(sink.find_assembly_ref("netstandard"));
  if (corelib || runtime) {
    // .NET: every type the injected code needs lives in System.Private.CoreLib, which is always
    // loaded; naming it directly avoids depending on which facade forwards what.
    refs.kind_ = CoreLibraryKind::PrivateCoreLib;
    if (corelib) {
      refs.scope_ = corelib;
    } else {
      AssemblyRefSpec spec;
      spec.name = "System.Private.CoreLib";
      spec.version[0] = 4;
      spec.public_key_token = kMicrosoftToken;
      refs.scope_ = CIL_TRY(sink.assembly_ref(spec));
    }
  } else if (mscorlib) {
    refs.kind_ = CoreLibraryKind::Mscorlib;
    refs.scope_ = mscorlib;
  } else if (netstandard) {
    refs.kind_ = CoreLibraryKind::Netstandard;
    refs.scope_ = netstandard;
  } else {
    return refs_error("the module references none of System.Private.CoreLib, System.Runtime, mscorlib or netstandard");
  }
  return refs;
}

Expected<Token> RuntimeRefs::type(std::string_view ns, std::string_view name) {
  if (!self_) return sink_->type_ref(scope_, ns, name);
  if (Token found = CIL_TRY(sink_->find_type_def(ns, name))) return found;
  return refs_error(fmt::format("the core library defines no type {}.{}", ns, name));
}

Expected<Token> RuntimeRefs::type_in(const AssemblyRefSpec& assembly, std::string_view ns, std::string_view name) {
  Token scope = CIL_TRY(sink_->assembly_ref(assembly));
  return sink_->type_ref(scope, ns, name);
}

Expected<Token> RuntimeRefs::member(Token type, std::string_view name, std::span<const uint8_t> signature) {
  if (token_table(type) != TableId::TypeDef) return sink_->member_ref(type, name, signature);
  // A local type: the definition (method or field) with this name and signature.
  if (Token found = CIL_TRY(sink_->find_member_def(type, name, signature))) return found;
  return refs_error(fmt::format("the core library defines no member {} with the expected signature", name));
}

namespace {

/// A framework assembly by kind of core library: mscorlib's (.NET Framework: version 4, the ECMA
/// key), netstandard itself (version 2), or .NET's (version 4 binds to any newer one).
AssemblyRefSpec framework_assembly(CoreLibraryKind kind, std::string_view framework, std::string_view net) {
  AssemblyRefSpec spec;
  switch (kind) {
    case CoreLibraryKind::Mscorlib:
      spec.name = framework;
      spec.version[0] = 4;
      spec.public_key_token = kEcmaToken;
      break;
    case CoreLibraryKind::Netstandard:
      spec.name = "netstandard";
      spec.version[0] = 2;
      spec.public_key_token = kNetstandardToken;
      break;
    case CoreLibraryKind::PrivateCoreLib:
      spec.name = net;
      spec.version[0] = 4;
      spec.public_key_token = kFrameworkToken;
      break;
  }
  return spec;
}

}  // namespace

AssemblyRefSpec RuntimeRefs::process_assembly() const {
  return framework_assembly(kind_, "System", "System.Diagnostics.Process");
}

AssemblyRefSpec RuntimeRefs::console_assembly() const { return framework_assembly(kind_, "mscorlib", "System.Console"); }

AssemblyRefSpec RuntimeRefs::memory_mapped_files_assembly() const {
  return framework_assembly(kind_, "System.Core", "System.IO.MemoryMappedFiles");
}

AssemblyRefSpec RuntimeRefs::compression_assembly() const {
  AssemblyRefSpec spec = framework_assembly(kind_, "System", "System.IO.Compression");
  // .NET still signs System.IO.Compression with the ECMA key, as .NET Framework did.
  if (kind_ == CoreLibraryKind::PrivateCoreLib) spec.public_key_token = kEcmaToken;
  return spec;
}

}  // namespace cil::md
