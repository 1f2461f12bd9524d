// Find-or-add through the runtime's metadata emitter; signatures through its importer.
#include "profiler/emit_sink.h"

#include <cstring>

#include <fmt/format.h>

#include "metadata/signature.h"
#include "profiler/wide_string.h"

namespace cil::profiler {

using namespace cilprof;

namespace {

std::vector<uint8_t> blob(PCCOR_SIGNATURE data, ULONG size) {
  return data ? std::vector<uint8_t>(data, data + size) : std::vector<uint8_t>();
}

std::string_view blob_key(std::span<const uint8_t> signature) {
  return {reinterpret_cast<const char*>(signature.data()), signature.size()};
}

}  // namespace

Error com_error(std::string_view what, HRESULT hr) {
  return make_error(ErrorKind::Format, "runtime metadata",
                    fmt::format("{} failed (HRESULT 0x{:08X})", what, static_cast<uint32_t>(hr)));
}

Expected<std::unique_ptr<EmitSink>> EmitSink::open(ICorProfilerInfo* info, ModuleID module) {
  std::unique_ptr<EmitSink> sink(new EmitSink());
  sink->info_ = info;
  sink->module_ = module;
  HRESULT hr = info->GetModuleMetaData(module, ofRead | ofWrite, IID_IMetaDataImport2,
                                       sink->import_.out_as<IUnknown>());
  if (FAILED(hr)) return com_error("GetModuleMetaData(IMetaDataImport2)", hr);
  hr = sink->import_->QueryInterface(IID_IMetaDataEmit2, sink->emit_.out_void());
  if (FAILED(hr)) return com_error("QueryInterface(IMetaDataEmit2)", hr);
  hr = sink->import_->QueryInterface(IID_IMetaDataAssemblyImport, sink->assembly_import_.out_void());
  if (FAILED(hr)) return com_error("QueryInterface(IMetaDataAssemblyImport)", hr);
  hr = sink->import_->QueryInterface(IID_IMetaDataAssemblyEmit, sink->assembly_emit_.out_void());
  if (FAILED(hr)) return com_error("QueryInterface(IMetaDataAssemblyEmit)", hr);
  return sink;
}

Expected<md::Token> EmitSink::assembly_ref(const md::AssemblyRefSpec& spec) {
  if (auto it = assembly_refs_.find(spec.name); it != assembly_refs_.end()) return it->second;
  md::Token found = CIL_TRY(find_assembly_ref(spec.name));
  if (!found) {
    ASSEMBLYMETADATA meta{};
    meta.usMajorVersion = spec.version[0];
    meta.usMinorVersion = spec.version[1];
    meta.usBuildNumber = spec.version[2];
    meta.usRevisionNumber = spec.version[3];
    std::u16string culture = to_utf16(spec.culture);
    meta.szLocale = culture.empty() ? nullptr : culture.data();
    meta.cbLocale = culture.empty() ? 0 : static_cast<ULONG>(culture.size() + 1);
    std::u16string wanted = to_utf16(spec.name);
    mdAssemblyRef token = 0;
    HRESULT hr = assembly_emit_->DefineAssemblyRef(spec.public_key_token.empty() ? nullptr : spec.public_key_token.data(),
                                                   static_cast<ULONG>(spec.public_key_token.size()), wanted.c_str(), &meta,
                                                   nullptr, 0, 0, &token);
    if (FAILED(hr)) return com_error(fmt::format("DefineAssemblyRef({})", spec.name), hr);
    found = md::Token(token);
  }
  assembly_refs_.emplace(spec.name, found);
  return found;
}

Expected<md::Token> EmitSink::define_type(std::string_view ns, std::string_view name, md::TypeAttributes flags, md::Token extends) {
  std::u16string full = to_utf16(ns.empty() ? std::string(name) : fmt::format("{}.{}", ns, name));
  mdTypeDef token = 0;
  if (HRESULT hr = emit_->DefineTypeDef(full.c_str(), static_cast<DWORD>(flags), extends.value(), nullptr, &token); FAILED(hr))
    return com_error(fmt::format("DefineTypeDef({})", to_utf8(full)), hr);
  return md::Token(token);
}

Expected<md::Token> EmitSink::define_field(md::Token type, std::string_view name, md::FieldAttributes flags,
                                           std::span<const uint8_t> signature) {
  std::u16string wanted = to_utf16(name);
  mdFieldDef token = 0;
  if (HRESULT hr = emit_->DefineField(type.value(), wanted.c_str(), static_cast<DWORD>(flags), signature.data(),
                                      static_cast<ULONG>(signature.size()), 0, nullptr, 0, &token);
      FAILED(hr))
    return com_error(fmt::format("DefineField({})", name), hr);
  return md::Token(token);
}

Expected<md::Token> EmitSink::define_method(md::Token type, std::string_view name, md::MethodAttributes flags,
                                            std::span<const uint8_t> signature) {
  std::u16string wanted = to_utf16(name);
  mdMethodDef token = 0;
  // RVA 0 and IL/managed: the body comes through set_new_method_body.
  if (HRESULT hr = emit_->DefineMethod(type.value(), wanted.c_str(), static_cast<DWORD>(flags), signature.data(),
                                       static_cast<ULONG>(signature.size()), 0, 0, &token);
      FAILED(hr))
    return com_error(fmt::format("DefineMethod({})", name), hr);
  return md::Token(token);
}

Status EmitSink::set_new_method_body(md::Token method, std::span<const uint8_t> body) {
  if (!allocator_) {
    if (HRESULT hr = info_->GetILFunctionBodyAllocator(module_, allocator_.out_as<IMethodMalloc>()); FAILED(hr))
      return com_error("GetILFunctionBodyAllocator", hr);
  }
  // The runtime keeps this memory as the method's IL for good (it is never freed).
  void* memory = allocator_->Alloc(static_cast<ULONG>(body.size()));
  if (!memory) return make_error(ErrorKind::Io, "IMethodMalloc", fmt::format("cannot allocate {} bytes", body.size()));
  std::memcpy(memory, body.data(), body.size());
  if (HRESULT hr = info_->SetILFunctionBody(module_, method.value(), static_cast<LPCBYTE>(memory)); FAILED(hr))
    return com_error("SetILFunctionBody", hr);
  return ok();
}

Expected<std::string> EmitSink::assembly_name() {
  mdAssembly assembly = 0;
  // A module without a manifest (a netmodule) has no Assembly row.
  if (assembly_import_->GetAssemblyFromScope(&assembly) != S_OK) return std::string();
  WCHAR name[kNameCapacity];
  ULONG length = 0;
  HRESULT hr = assembly_import_->GetAssemblyProps(assembly, nullptr, nullptr, nullptr, name, kNameCapacity, &length,
                                                  nullptr, nullptr);
  if (FAILED(hr)) return com_error("GetAssemblyProps", hr);
  return to_utf8(std::u16string_view(name, length > 0 ? length - 1 : 0));
}

Expected<md::Token> EmitSink::find_assembly_ref(std::string_view name) {
  std::u16string wanted = to_utf16(name);
  HCORENUM e = nullptr;
  mdAssemblyRef refs[64];
  ULONG fetched = 0;
  md::Token found;
  while (!found && SUCCEEDED(assembly_import_->EnumAssemblyRefs(&e, refs, 64, &fetched)) && fetched > 0) {
    for (ULONG i = 0; i < fetched && !found; ++i) {
      WCHAR text[kNameCapacity];
      ULONG length = 0;
      ASSEMBLYMETADATA meta{};
      if (FAILED(assembly_import_->GetAssemblyRefProps(refs[i], nullptr, nullptr, text, kNameCapacity, &length, &meta,
                                                       nullptr, nullptr, nullptr)))
        continue;
      if (length > 0 && std::u16string_view(text, length - 1) == wanted) found = md::Token(refs[i]);
    }
  }
  if (e) assembly_import_->CloseEnum(e);
  return found;
}

Expected<md::Token> EmitSink::find_type_def(std::string_view ns, std::string_view name) {
  std::u16string full = to_utf16(ns.empty() ? std::string(name) : fmt::format("{}.{}", ns, name));
  mdTypeDef token = 0;
  // Top-level types only (no enclosing class); CLDB_E_RECORD_NOTFOUND when there is none.
  if (import_->FindTypeDefByName(full.c_str(), mdTokenNil, &token) != S_OK) return md::Token{0};
  return md::Token(token);
}

Expected<md::Token> EmitSink::find_member_def(md::Token type, std::string_view name, std::span<const uint8_t> signature) {
  if (TypeFromToken(type.value()) != mdtTypeDef) return md::Token{0};
  std::u16string wide = to_utf16(name);
  mdToken token = 0;
  HRESULT hr = !signature.empty() && signature[0] == md::kSigField
                   ? import_->FindField(type.value(), wide.c_str(), signature.data(), static_cast<ULONG>(signature.size()), &token)
                   : import_->FindMethod(type.value(), wide.c_str(), signature.data(), static_cast<ULONG>(signature.size()), &token);
  return hr == S_OK ? md::Token(token) : md::Token();
}

Expected<md::Token> EmitSink::type_ref(md::Token scope, std::string_view ns, std::string_view name) {
  std::u16string full = to_utf16(ns.empty() ? std::string(name) : fmt::format("{}.{}", ns, name));
  mdTypeRef token = 0;
  if (import_->FindTypeRef(scope.value(), full.c_str(), &token) == S_OK) return md::Token(token);
  HRESULT hr = emit_->DefineTypeRefByName(scope.value(), full.c_str(), &token);
  if (FAILED(hr)) return com_error(fmt::format("DefineTypeRefByName({}.{})", ns, name), hr);
  return md::Token(token);
}

Expected<md::Token> EmitSink::member_ref(md::Token parent, std::string_view name, std::span<const uint8_t> signature) {
  std::u16string wide = to_utf16(name);
  mdMemberRef token = 0;
  if (import_->FindMemberRef(parent.value(), wide.c_str(), signature.data(), static_cast<ULONG>(signature.size()), &token) == S_OK)
    return md::Token(token);
  HRESULT hr = emit_->DefineMemberRef(parent.value(), wide.c_str(), signature.data(), static_cast<ULONG>(signature.size()), &token);
  if (FAILED(hr)) return com_error(fmt::format("DefineMemberRef({})", name), hr);
  return md::Token(token);
}

Expected<md::Token> EmitSink::type_spec(std::span<const uint8_t> signature) {
  if (auto it = type_specs_.find(blob_key(signature)); it != type_specs_.end()) return it->second;
  mdTypeSpec token = 0;
  HRESULT hr = emit_->GetTokenFromTypeSpec(signature.data(), static_cast<ULONG>(signature.size()), &token);
  if (FAILED(hr)) return com_error("GetTokenFromTypeSpec", hr);
  type_specs_.emplace(blob_key(signature), token);
  return md::Token(token);
}

Expected<md::Token> EmitSink::method_spec(md::Token method, std::span<const uint8_t> instantiation) {
  mdMethodSpec token = 0;
  HRESULT hr = emit_->DefineMethodSpec(method.value(), instantiation.data(), static_cast<ULONG>(instantiation.size()), &token);
  if (FAILED(hr)) return com_error("DefineMethodSpec", hr);
  return md::Token(token);
}

Expected<md::Token> EmitSink::standalone_sig(std::span<const uint8_t> signature) {
  if (auto it = standalone_sigs_.find(blob_key(signature)); it != standalone_sigs_.end()) return it->second;
  mdSignature token = 0;
  HRESULT hr = emit_->GetTokenFromSig(signature.data(), static_cast<ULONG>(signature.size()), &token);
  if (FAILED(hr)) return com_error("GetTokenFromSig", hr);
  standalone_sigs_.emplace(blob_key(signature), token);
  return md::Token(token);
}

Expected<md::Token> EmitSink::user_string(std::u16string_view text) {
  mdString token = 0;
  HRESULT hr = emit_->DefineUserString(text.data(), static_cast<ULONG>(text.size()), &token);
  if (FAILED(hr)) return com_error("DefineUserString", hr);
  return md::Token(token);
}

Expected<std::vector<uint8_t>> EmitSink::signature_of(md::Token typed) {
  mdToken token = typed.value();  // the runtime's interfaces take raw tokens
  PCCOR_SIGNATURE sig = nullptr;
  ULONG size = 0;
  HRESULT hr = E_INVALIDARG;
  switch (TypeFromToken(token)) {
    case mdtMethodDef:
      hr = import_->GetMethodProps(token, nullptr, nullptr, 0, nullptr, nullptr, &sig, &size, nullptr, nullptr);
      break;
    case mdtMemberRef:
      hr = import_->GetMemberRefProps(token, nullptr, nullptr, 0, nullptr, &sig, &size);
      break;
    case mdtFieldDef:
      hr = import_->GetFieldProps(token, nullptr, nullptr, 0, nullptr, nullptr, &sig, &size, nullptr, nullptr, nullptr);
      break;
    case mdtSignature:
      hr = import_->GetSigFromToken(token, &sig, &size);
      break;
    case mdtTypeSpec:
      hr = import_->GetTypeSpecFromToken(token, &sig, &size);
      break;
    case mdtMethodSpec: {
      mdToken parent = 0;
      hr = import_->GetMethodSpecProps(token, &parent, nullptr, nullptr);
      if (FAILED(hr)) break;
      if (TypeFromToken(parent) == mdtMethodSpec)
        return make_error(ErrorKind::Format, "runtime metadata", fmt::format("MethodSpec 0x{:08X} names a MethodSpec", token));
      return signature_of(md::Token(parent));
    }
    default:
      return make_error(ErrorKind::Format, "runtime metadata", fmt::format("token 0x{:08X} has no signature", token));
  }
  if (FAILED(hr)) return com_error(fmt::format("signature of 0x{:08X}", token), hr);
  return blob(sig, size);
}

}  // namespace cil::profiler
