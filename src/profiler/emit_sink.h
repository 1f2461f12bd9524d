// MetadataSink and DefinitionSink over the runtime's metadata of one loaded module (IMetaDataImport2,
// IMetaDataEmit2, IMetaDataAssemblyImport/Emit): the engine's references are found, or added to
// the module in memory before its methods are compiled; RuntimeRefs' look-ups go to the importer.
#pragma once

#include <map>
#include <vector>
#include <memory>
#include <string>

#include "metadata/definition_sink.h"
#include "metadata/metadata_sink.h"
#include "profiler/abi/corprof.h"
#include "profiler/com_ptr.h"

namespace cil::profiler {

class EmitSink final : public md::MetadataSink, public md::DefinitionSink {
 public:
  /// Opens the module's metadata for reading and writing.
  static Expected<std::unique_ptr<EmitSink>> open(cilprof::ICorProfilerInfo* info, cilprof::ModuleID module);

  Expected<md::Token> assembly_ref(const md::AssemblyRefSpec& spec) override;
  Expected<md::Token> type_ref(md::Token scope, std::string_view ns, std::string_view name) override;
  Expected<md::Token> member_ref(md::Token parent, std::string_view name, std::span<const uint8_t> signature) override;
  Expected<md::Token> type_spec(std::span<const uint8_t> signature) override;
  Expected<md::Token> method_spec(md::Token method, std::span<const uint8_t> instantiation) override;
  Expected<md::Token> standalone_sig(std::span<const uint8_t> signature) override;
  Expected<md::Token> user_string(std::u16string_view text) override;
  Expected<std::vector<uint8_t>> signature_of(md::Token token) override;
  Expected<std::string> assembly_name() override;
  Expected<md::Token> find_assembly_ref(std::string_view name) override;
  Expected<md::Token> find_type_def(std::string_view ns, std::string_view name) override;
  Expected<md::Token> find_member_def(md::Token type, std::string_view name, std::span<const uint8_t> signature) override;

  // Definitions: a new type is one nothing has loaded yet, so its members may still be added.
  Expected<md::Token> define_type(std::string_view ns, std::string_view name, md::TypeAttributes flags, md::Token extends) override;
  Expected<md::Token> define_field(md::Token type, std::string_view name, md::FieldAttributes flags,
                                   std::span<const uint8_t> signature) override;
  Expected<md::Token> define_method(md::Token type, std::string_view name, md::MethodAttributes flags,
                                    std::span<const uint8_t> signature) override;
  /// Through the module's IL allocator and SetILFunctionBody: also the new body of an existing
  /// method, before the JIT compiles it.
  Status set_new_method_body(md::Token method, std::span<const uint8_t> body) override;

  cilprof::IMetaDataImport2* import() const { return import_.get(); }

 private:
  EmitSink() = default;
  cilprof::ICorProfilerInfo* info_ = nullptr;
  cilprof::ModuleID module_ = 0;
  ComPtr<cilprof::IMethodMalloc> allocator_;
  ComPtr<cilprof::IMetaDataImport2> import_;
  ComPtr<cilprof::IMetaDataEmit2> emit_;
  ComPtr<cilprof::IMetaDataAssemblyImport> assembly_import_;
  ComPtr<cilprof::IMetaDataAssemblyEmit> assembly_emit_;
  std::map<std::string, md::Token> assembly_refs_;  ///< by name, found or added
  // The runtime finds an existing TypeSpec or StandAloneSig by a scan of its table, which grows
  // with every traced method (each adds a locals signature): the blobs already asked for are
  // answered here, with the token the runtime gave for the same blob. Keyed by the blob's bytes
  // as a string, so that a look-up (once or twice per traced method) allocates nothing.
  using BlobTokens = std::map<std::string, md::Token, std::less<>>;
  BlobTokens type_specs_, standalone_sigs_;
};

/// "what: HRESULT 0x8013...": the error of a failed metadata call.
Error com_error(std::string_view what, cilprof::HRESULT hr);

}  // namespace cil::profiler
