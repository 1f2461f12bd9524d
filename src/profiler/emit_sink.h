// MetadataSink over the runtime's metadata of one loaded module (IMetaDataImport2,
// IMetaDataEmit2, IMetaDataAssemblyImport/Emit): the engine's references are found, or added to
// the module in memory before its methods are compiled; RuntimeRefs' look-ups go to the importer.
#pragma once

#include <map>
#include <memory>
#include <string>

#include "metadata/metadata_sink.h"
#include "profiler/abi/corprof.h"
#include "profiler/com_ptr.h"

namespace cil::profiler {

class EmitSink final : public md::MetadataSink {
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

  cilprof::IMetaDataImport2* import() const { return import_.get(); }

 private:
  EmitSink() = default;
  ComPtr<cilprof::IMetaDataImport2> import_;
  ComPtr<cilprof::IMetaDataEmit2> emit_;
  ComPtr<cilprof::IMetaDataAssemblyImport> assembly_import_;
  ComPtr<cilprof::IMetaDataAssemblyEmit> assembly_emit_;
  std::map<std::string, md::Token> assembly_refs_;  ///< by name, found or added
};

/// "what: HRESULT 0x8013...": the error of a failed metadata call.
Error com_error(std::string_view what, cilprof::HRESULT hr);

}  // namespace cil::profiler
